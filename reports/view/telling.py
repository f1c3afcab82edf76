"""A report's "Games to watch": a few telling games of its runs, each written as a viewer page.

Per group of runs (a report's run, or a study part's runs pooled): the closest finish
(smallest winning margin with a sole winner), the biggest comeback (the winner's largest
deficit at a round end, ``max_deficit``) and, when the seats play different strategies, a
game the weakest of them (lowest mean win share over the group) won outright. Ties: the
first run in the group's order, then the lowest game index. At most three games a group,
each once; the pages go to ``out/games/`` next to the report.

A group whose runs keep no per-game records to replay (a compensation search plays its games
in memory and keeps only their win shares) says so in the section instead of linking nothing.
"""
import os
import re
import time

import polars as pl

PER_GROUP = 3           # games to watch per group: a few, each a page of 0.2 to 2 MB


def _slug(text):
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", str(text)).strip("-") or "run"


def _tables(run_dirs):
    """The stacked per-seat rows (run, game_index, seat, total, win_share), the seats' strategies
    (run, seat, strategy: from each manifest, a run's seating is fixed) and per-game ``max_deficit``
    of ``{label: folder}``; (None, None, None) when a run lacks the columns."""
    from simcore._manifest import read_manifest

    players, games, seats = [], [], []
    for k, folder in enumerate(run_dirs.values()):
        lf = pl.scan_parquet(os.path.join(folder, "players", "*.parquet"))
        if not {"game_index", "seat", "total", "win_share"} <= set(lf.collect_schema().names()):
            return None, None, None
        players.append(lf.select(pl.lit(k, pl.Int32).alias("run"), pl.col("game_index").cast(pl.Int64),
                                 pl.col("seat").cast(pl.Int32), pl.col("total").cast(pl.Int64),
                                 pl.col("win_share").cast(pl.Float64)))
        gf = pl.scan_parquet(os.path.join(folder, "games", "*.parquet"))
        if "max_deficit" in gf.collect_schema().names():
            games.append(gf.select(pl.lit(k, pl.Int32).alias("run"), pl.col("game_index").cast(pl.Int64),
                                   pl.col("max_deficit").cast(pl.Int64)))
        names = [s.get("name", "?") for s in read_manifest(folder).get("strategies", [])]
        seats += [(k, p, n) for p, n in enumerate(names)]
    p = pl.concat(players).collect()
    g = pl.concat(games).collect() if games else None
    sd = pl.DataFrame(seats, schema={"run": pl.Int32, "seat": pl.Int32, "strategy": pl.String}, orient="row")
    return p, g, sd


def telling_picks(run_dirs):
    """``[(title, label, game index, sentence), ...]`` of the pooled runs ``{label: folder}``: at most
    three, each game once."""
    labels = list(run_dirs)
    p, g, sd = _tables(run_dirs)
    if p is None or not p.height:
        return []
    out, used = [], set()

    def add(title, k, gi, sentence):
        if gi is not None and (k, gi) not in used:
            used.add((k, gi))
            out.append((title, labels[k], int(gi), sentence))

    def first(frame, col, best):
        """The row of ``frame`` with the best ``col`` (the first run, then the lowest game index)."""
        return frame.filter(pl.col(col) == best).sort(["run", "game_index"]).row(0, named=True)

    # a sole winner's margin: its total minus the best total of the others (0: won on the tie-break)
    # (one integer key per game and plain aggregations: a 100,000-game run is a fraction of a second)
    top = (p.with_columns((pl.col("run").cast(pl.Int64) * (1 << 40) + pl.col("game_index")).alias("key"),
                          pl.when(pl.col("win_share") < 1).then(pl.col("total")).alias("other"),
                          (pl.col("win_share") == 1).cast(pl.Int32).alias("sole"))
           .group_by("key")
           .agg(pl.col("run").first(), pl.col("game_index").first(), pl.col("total").max().alias("first"),
                pl.col("other").max().alias("second"), pl.col("sole").sum())
           .filter((pl.col("sole") == 1) & pl.col("second").is_not_null())
           .with_columns((pl.col("first") - pl.col("second")).alias("margin")))
    if top.height:
        r = first(top, "margin", top["margin"].min())
        won = ("won on the tie-break, level on points" if r["margin"] == 0 else
               f"won by {r['margin']} point{'s' * (r['margin'] != 1)}")
        add("closest finish", r["run"], r["game_index"], f"{won} ({r['first']} to {r['second']})")
    if g is not None and g.height and g["max_deficit"].max() > 0:
        r = first(g, "max_deficit", g["max_deficit"].max())
        add("biggest comeback", r["run"], r["game_index"], f"the winner was {r['max_deficit']} points behind at worst")
    # the runs whose seats play different strategies (a self-play run has no weaker side)
    mixed_runs = sd.group_by("run").agg(pl.col("strategy").n_unique().alias("k")).filter(pl.col("k") > 1)["run"]
    if len(mixed_runs):
        mixed = p.filter(pl.col("run").is_in(mixed_runs.implode())).join(sd, on=["run", "seat"])
        share = mixed.group_by("strategy").agg(pl.col("win_share").mean()).sort(["win_share", "strategy"])
        weak, rate = share.row(0)
        won = mixed.filter((pl.col("strategy") == weak) & (pl.col("win_share") == 1))
        if won.height:
            r = won.sort(["run", "game_index"]).row(0, named=True)
            add("the weaker strategy won", r["run"], r["game_index"],
                f"{weak} (mean win share {rate:.3g}, the lowest here) won it outright")
    return out[:PER_GROUP]


def telling_games(run_dir):
    """``[(title, game index, sentence), ...]`` of one run (at most three, each game once)."""
    return [(t, gi, s) for t, _, gi, s in telling_picks({"run": run_dir})]


INTRO = ("A few telling games, each as a page that steps through its decisions with the board, the running "
         "score and each bot's view of its options (`boardlab view`; the pages open from the files, no server).")


def _group_lines(heading, run_dirs, out, sub):
    """The lines of one group: its links (pages written), or why it has none."""
    from reports.view.record import has_board, write_view
    from simcore._manifest import read_manifest

    lead = f"**{heading}**: " if heading else ""
    if not run_dirs:
        return []
    game = read_manifest(next(iter(run_dirs.values())))["game"]
    if not has_board(game):
        return [f"{lead}the viewer has no board drawing for {game}: no pages (reports/view/boards/ holds one "
                f"module per game)."]
    picks = telling_picks(run_dirs)
    if not picks:
        return [f"{lead}no telling game (no game with a sole winner, no comeback, one strategy)."]
    lines = []
    several = len(run_dirs) > 1
    for title, label, gi, sentence in picks:
        name = f"{_slug(label)}-game-{gi}.html" if several else f"game-{gi}.html"
        rel = "/".join(x for x in ("games", sub, name) if x)
        where = f" of {label}" if several else ""
        try:
            write_view(run_dirs[label], gi, os.path.join(out, *rel.split("/")))
        except (ValueError, OSError, KeyError) as exc:      # e.g. a strategy file gone: say so, link nothing
            lines.append(f"{lead}{title}: game {gi}{where} — {sentence}; no page: the game cannot be replayed "
                         f"from this run ({exc}).")
            continue
        lines.append(f"{lead}[{title}: game {gi}{where}]({rel}) — {sentence}.")
    return lines


def games_section(run_dir, out):
    """The "Games to watch" section of one run; writes each game's viewer page to ``out/games/``.

    ``None`` when the run has no telling games or its game has no board drawing
    (a game added through the contract alone: the report goes without viewer pages)."""
    from reports.render.sections import Section
    from reports.view.record import has_board
    from simcore._manifest import read_manifest

    if not has_board(read_manifest(run_dir)["game"]):
        return None
    lines = _group_lines("", {"run": run_dir}, out, "")
    if not lines or lines[0].startswith("no telling game"):
        return None
    return Section("Games to watch", paragraphs=[INTRO.replace("A few telling games", "A few telling games of "
                                                              "this run"), *lines])


def watch_section(groups, out, log=None):
    """The "Games to watch" section of a report over several groups of runs.

    ``groups``: ``[(heading, {label: results folder or analysis.Run} or (kind, command): a part
    without results folders, see :func:`no_records`)]``; each group gets up to three pages, under
    ``out/games/<heading>/``. None when no group has a line.
    """
    from reports.render.sections import Section

    t0 = time.perf_counter()
    lines, pages, none = [], 0, []
    for heading, runs in groups:
        if isinstance(runs, tuple):              # (kind, command): a part without results folders
            none.append((heading, runs))
            continue
        runs = {k: os.fspath(getattr(v, "path", v)) for k, v in runs.items()}      # a folder or an analysis.Run
        got = _group_lines(heading, runs, out, _slug(heading) if heading else "")
        pages += sum(x.count("](games/") for x in got)
        lines += got
    lines += _none_lines(none)
    if not lines:
        return None
    if log is not None:
        log(f"games to watch: {pages} viewer pages ({time.perf_counter() - t0:.1f} s)")
    return Section("Games to watch", paragraphs=[INTRO, *lines])


def study_groups(study, sets):
    """The groups of a study's report: each part's runs pooled, or why the part has no games."""
    groups = []
    for part in study.parts:
        runs = study.kinds[part.kind].runs(part, sets[part.name])      # the part's kind (reports.study.Study.kinds)
        if runs:
            groups.append((part.title, runs))
        else:
            groups.append((part.title, no_records(part.kind, part.game, sets[part.name])))
    return groups


def study_section(study, sets, out, log=None):
    """The "Games to watch" section of a study's report (``reports.study.study_main``'s ``watch``)."""
    return watch_section(study_groups(study, sets), out, log=log)


def no_records(kind, game, result=None):
    """A part of ``kind`` without results folders: ``(kind, the command that plays games with the
    compensation it found, or None)``."""
    how = None
    if isinstance(result, dict) and {"compensation", "knob", "players", "strategy"} <= set(result):
        how = (f"`boardlab simulate {game} --players {result['players']} --strategy {result['strategy']} "
               f"--variant {result['knob']}={','.join(map(str, _total_vector(game, result)))} --games 100 "
               f"--seed 1 --out RUN`")
    return kind, how


WHAT = {"compensation": ("The compensation search", "The compensation searches"),
        "robustness": ("The robustness check", "The robustness checks")}


def _none_lines(parts):
    """The paragraphs of the groups without games, one per kind: ``[(heading, (kind, command or None))]``."""
    kinds = list(dict.fromkeys(k for _, (k, _) in parts))
    out = []
    for kind in kinds:
        mine = [(h, c) for h, (k, c) in parts if k == kind]
        many = len(mine) > 1
        what = WHAT.get(kind, (f"A [[{kind}]] part", f"The [[{kind}]] parts"))[many]
        text = (f"**{'; '.join(h for h, _ in mine)}**: {what} keep{'' if many else 's'} no per-game records "
                f"({'their' if many else 'its'} games are played in memory and only their win shares kept), so "
                f"{'they have' if many else 'it has'} no game to watch here.")
        cmds = [(h, c) for h, c in mine if c]
        if cmds:
            text += " To watch games with the compensation found, play them, then `boardlab report RUN`: "
            text += "; ".join(f"{h}: {c}" if len(cmds) > 1 else c for h, c in cmds) + "."
        out.append(text)
    return out


def _total_vector(game, r):
    """The knob's whole vector: the variant's base plus the compensation found."""
    import simcore

    mod = simcore.games[game]
    base = tuple(mod.make_config(r["players"], **dict(r.get("variant") or {})).settings()
                 .get(r["knob"], (0,) * r["players"]))
    return [int(b) + int(c) for b, c in zip(base, r["compensation"])]


def balance_section(result):
    """The "Games to watch" section of ``boardlab balance``'s report: it has no per-game records."""
    from reports.render.sections import Section

    return Section("Games to watch", paragraphs=_none_lines([("Seat compensation",
                                                               no_records("compensation", result["game"], result))]))
