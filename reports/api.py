"""boardlab from Python: one call per job, polars frames (pandas on request) and figures back.

Every function here is a command of the ``boardlab`` CLI, for a notebook or a script::

    from reports import api

    run = api.simulate("hellas", players=3, games=2000, seed=1, strategy="balanced")
    run.seats()                      # win share per seat with its 95% CI (polars)
    run.seats(pandas=True)           # the same as a pandas DataFrame
    run.figure()                     # a matplotlib Figure (shown by a notebook)

    api.compare("hellas", 3, ["balanced", "random"], games=600).ratings()
    api.balance("hellas", 2, budget=6000, verify=2000).seats()
    api.study("docs/examples/hellas_balance.toml", quick=True).seats()
    api.load("runs/hellas-3p")       # any results folder: a run, a comparison, a study

The functions write their results folders like the CLI does (``out``; a temporary folder
when it is not given) and print nothing unless ``progress=True``. Seats are numbered from 0
in every frame (the column ``seat``, as in the Parquet tables); the reports and the figures
say "player 1 (starts)" for seat 0.
"""
from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

import polars as pl

__all__ = ["Results", "Comparison", "Balance", "StudyResults", "simulate", "compare", "balance", "study",
           "load"]


def _frame(df, pandas):
    """``df`` as given (polars), or converted to pandas when ``pandas`` is true."""
    return df.to_pandas() if pandas else df


def _out(out, prefix):
    if out is not None:
        return os.fspath(out)
    return tempfile.mkdtemp(prefix=f"boardlab-{prefix}-")


def _log(progress):
    if progress:
        return lambda line: print(line, file=sys.stderr, flush=True)
    return lambda line: None


def _manifests(folder):
    """Results folders (holding manifest.json) at ``folder`` or below it, sorted, up to 3 levels down."""
    folder = Path(folder)
    if (folder / "manifest.json").is_file():
        return [folder]
    found = []
    for depth in ("*", "*/*", "*/*/*"):
        found += [p.parent for p in folder.glob(f"{depth}/manifest.json")]
    return sorted(set(found))


# ---------------------------------------------------------------- results of runs

class Results:
    """One or more results folders of one game (a run, the lineups of a comparison, a study's runs).

    Attributes: ``folder`` (where it was loaded from), ``labels`` (one per results folder),
    ``manifests`` (label -> the folder's manifest.json as a dict) and ``game``.
    """

    def __init__(self, folder, runset, kind="run"):
        self.folder = os.fspath(folder)
        self._rs = runset
        self.kind = kind

    @property
    def labels(self):
        return list(self._rs.runs)

    @property
    def manifests(self):
        return {label: run.manifest for label, run in self._rs.runs.items()}

    @property
    def game(self):
        return self._rs.game

    def strategies(self):
        """label -> the strategy names per seat (seat 0 first), e.g. ``['random', 'random', 'random']``."""
        return {label: [s["name"] for s in m.get("strategies", [])] for label, m in self.manifests.items()}

    def __repr__(self):
        n = sum(self._rs.n_games().values())
        plays = sorted({", ".join(sorted(set(v))) for v in self.strategies().values()})
        return (f"<boardlab {self.kind}: {self.game}, {len(self.labels)} results folder"
                f"{'s' if len(self.labels) > 1 else ''}, {n:,} games, strategies {'; '.join(plays)}>")

    # tables ------------------------------------------------------------------------
    def players(self, pandas=False):
        """One row per player per game (docs/results.md), runs stacked; column ``run`` (or ``lineup``)
        names the results folder."""
        return _frame(self._rs.players, pandas)

    def games(self, pandas=False):
        """One row per game, runs stacked."""
        return _frame(self._rs.games, pandas)

    def events(self, pandas=False):
        """The events table (empty when the runs were played without events)."""
        return _frame(self._rs.events, pandas)

    def lazy(self, table="players"):
        """The stacked table as a polars LazyFrame over the Parquet files (nothing read yet): for big runs."""
        return self._rs.scan(table)

    # analyses ----------------------------------------------------------------------
    def seats(self, pandas=False):
        """Win share per seat (``win_share``, 95% Wilson CI ``win_lo``/``win_hi``, ``deviation`` from the fair
        share 1/n, mean score), one row per results folder, player count and seat (seat 0 starts)."""
        from analysis.seats import seat_advantage

        return _frame(seat_advantage(self._rs.scan("players"), by=self._rs.group).collect(), pandas)

    def figure(self, title=None):
        """Win share per seat with 95% CIs, as a matplotlib Figure (one panel per results folder)."""
        from reports.render import figures as F

        adv = self.seats()
        return F.win_share_by_seat(adv, facet=self._rs.group if len(self.labels) > 1 else None,
                                   title=title or f"{self.game.capitalize()}: win share by player",
                                   caption=f"95% Wilson intervals; dashed: the fair share. {self._rs.games_text()}.")

    def report(self, out=None, progress=False):
        """Write the full HTML/Markdown report of a single run (``boardlab report``); return report.html's path.

        ``out`` defaults to ``<folder>/report``."""
        from reports.report import run_report, write_report

        if len(self.labels) != 1:
            raise ValueError(f"{self.folder} holds {len(self.labels)} results folders; report one of them "
                             f"(api.load(path_of_one)) or the whole study with api.study")
        folder = next(iter(self._rs.runs.values())).path
        out = os.fspath(out) if out is not None else os.path.join(folder, "report")
        rep = run_report(folder, log=_log(progress)) if _takes_log(run_report) else run_report(folder)
        return write_report(rep, out)["html"]


def _takes_log(fn):
    import inspect

    return "log" in inspect.signature(fn).parameters


class Comparison(Results):
    """The lineups of ``compare``: every strategy in every seat."""

    def _tables(self):
        if not hasattr(self, "_t"):
            from reports.compare import compare_tables

            self._t = compare_tables(self._rs.players, self._rs.group)
        return self._t

    def ratings(self, pandas=False):
        """Bradley–Terry ratings on the Elo scale with 95% CIs (``elo``, ``elo_lo``, ``elo_hi``), strongest first."""
        return _frame(self._tables()["ratings"], pandas)

    def win_shares(self, pandas=False):
        """Win share (%) per strategy and seat, and over all seats with its 95% CI."""
        return _frame(self._tables()["win_share_matrix"], pandas)

    def head_to_head(self, pandas=False):
        """Share of within-game pairs the row strategy finished ahead of the column strategy (long form)."""
        return _frame(self._tables()["pairwise"], pandas)

    def figure(self, title=None):
        """The ratings with their 95% CIs, as a matplotlib Figure."""
        from reports.render import figures as F

        return F.ratings(self.ratings(), title=title or "Strategy ratings (Bradley–Terry)",
                         caption=f"Elo scale, 95% CIs. {self._rs.games_text()}.")


def load(folder):
    """Open any results folder: a run (``boardlab simulate``), a comparison or a study output folder.

    Returns a :class:`Results` over every results folder found (``manifest.json``) at ``folder`` or up to
    three levels below it; a one-line ``ValueError`` when there is none or they hold several games.
    """
    from reports.report import RunSet

    folder = Path(folder)
    if not folder.is_dir():
        raise ValueError(f"{folder}: no such folder")
    found = _manifests(folder)
    if not found:
        raise ValueError(f"{folder}: no results folder (manifest.json) in it or below it")
    if len(found) == 1:
        return Results(folder, RunSet.from_dirs({found[0].name: os.fspath(found[0])}))
    labels = {os.fspath(p.relative_to(folder)): os.fspath(p) for p in found}
    games = {}
    for label, path in labels.items():
        import json

        with open(os.path.join(path, "manifest.json")) as f:
            games.setdefault(json.load(f).get("game"), []).append(label)
    if len(games) > 1:
        raise ValueError(f"{folder} holds runs of several games ({', '.join(sorted(map(str, games)))}); "
                         f"load one game's folder, or use api.study(...) for a whole study")
    lineups = all(Path(p).name.startswith("lineup-") for p in labels)
    rs = RunSet.from_dirs(labels, group="lineup" if lineups else "run")
    return (Comparison if lineups else Results)(folder, rs, kind="comparison" if lineups else "results")


# ---------------------------------------------------------------- running

def simulate(game, players, games, seed=1, strategy=None, seats=None, variant=None, out=None, workers=None,
             events=True, progress=False):
    """Play ``games`` games and return their :class:`Results` (``boardlab simulate``).

    Parameters
    ----------
    game : str
        A game of ``simcore.games``, e.g. ``"hellas"``.
    players : int
    games : int
    seed : int
        Run seed: the same settings and seed give the same games, whatever the workers.
    strategy : str, optional
        One strategy for every seat (a preset name such as ``"balanced"``, a preset file, or
        ``"mcts:iterations=100"``). Default: ``"random"`` (uniformly random legal moves), as the CLI.
    seats : list of str, optional
        One strategy per seat instead, seat 0 (the starting player) first.
    variant : dict, optional
        Engine settings, e.g. ``{"seat_points": [0, 2, 4]}``.
    out : str or path, optional
        Results folder (default: a new temporary folder). Rerunning on a folder resumes it.
    """
    import strategies as S
    from simcore import run as simrun

    simrun.check_players(game, players)
    if strategy is not None and seats is not None:
        raise ValueError("give strategy (every seat) or seats (one per seat), not both")
    resolved = S.resolve_seats(game, players, strategy, list(seats) if seats is not None else None)
    out = _out(out, f"{game}-{players}p")
    variant = [f"{k}={_variant_value(v)}" for k, v in (variant or {}).items()]
    simrun.simulate(game, players=players, games=games, seed=seed, out=out, strategies=resolved,
                    variant=variant, workers=workers, events=events, progress=progress)
    return load(out)


def _variant_value(v):
    if isinstance(v, (list, tuple)):
        return ",".join(str(x) for x in v)
    return str(v)


def compare(game, players, strategies, games, seed=1, variant=None, out=None, workers=None, progress=False):
    """Play every strategy in every seat (``boardlab compare``); return a :class:`Comparison`.

    ``games`` in all, split evenly over the seatings; every seating plays the same seeds.
    Ask it for ``ratings()``, ``win_shares()``, ``head_to_head()``, ``seats()`` or ``figure()``.
    """
    from reports.compare import run_compare
    from simcore.run import check_players, parse_variant

    check_players(game, players)
    names = list(strategies)
    if len(names) < 2:
        raise ValueError(f"a comparison needs at least two strategies, not {names}")
    out = _out(out, f"compare-{game}-{players}p")
    var = parse_variant([f"{k}={_variant_value(v)}" for k, v in (variant or {}).items()])
    run_compare(game, players, names, games, seed, os.path.join(out, "runs"), variant=var, workers=workers,
                log=_log(progress))
    res = load(out)
    if not isinstance(res, Comparison):        # a comparison of one seating (two strategies, 1 player)
        res = Comparison(out, res._rs, kind="comparison")
    return res


class Balance:
    """The result of a seat-compensation search (``boardlab balance``), verified on fresh games.

    ``result`` is the full dict (as ``--json`` writes it); ``compensation`` the vector found,
    ``target_met`` whether the largest seat gap left is below 1 point of win share.
    """

    def __init__(self, result):
        self.result = result

    @property
    def compensation(self):
        return list(self.result["compensation"])

    @property
    def target_met(self):
        return bool(self.result["target_met"])

    def __repr__(self):
        r = self.result
        return (f"<boardlab balance: {r['game']}, {r['players']} players, {r['strategy']} play, {r['knob']} "
                f"{self.compensation}, largest seat gap {r['gap_before']['gap'] * 100:.1f} -> "
                f"{r['gap_after']['gap'] * 100:.1f} pp on {r['games']:,} fresh games>")

    def summary(self):
        """The conclusion in one sentence (as the CLI prints it)."""
        from reports.balance import conclusion

        return conclusion(self.result)

    def seats(self, pandas=False):
        """Per seat: the compensation, the win share and its 95% CI before and after, the largest gap."""
        from reports.balance import seat_frame

        return _frame(seat_frame(self.result), pandas)

    def candidates(self, pandas=False):
        """Every vector the search played, fairest first."""
        from reports.balance import candidates_frame

        return _frame(candidates_frame(self.result), pandas)

    def figures(self):
        """Two matplotlib Figures: the shares before and after; every candidate's shares."""
        from reports.balance import figures

        return figures(self.result)

    def report(self, out):
        """Write the HTML/Markdown report to ``out``; return report.html's path."""
        from reports.commands.balance import write

        return write(self.result, os.fspath(out))["html"]


def balance(game, players, knob="seat_points", strategy="balanced", budget=None, verify=None, seed=0,
            variant=None, workers=None, progress=False, precision=None, seconds=None):
    """Search the integer seat compensation that makes ``game`` fairest and verify it; return a :class:`Balance`.

    ``knob``: ``"seat_points"`` (points added to the final total) or ``"seat_bonus"`` (the starting resource);
    ``budget``: search games (default 60,000 for a heuristic strategy); ``verify``: fresh games before and
    after (default 100,000). Small values give a quick, less certain answer (the result says how certain).
    ``precision`` (percentage points): verify until every seat is within ± that (``verify`` the cap);
    ``seconds``: a time budget for the whole search and verification (docs/precision.md).
    """
    from reports import balance as B

    p = B.plan(game, players, knob=knob, strategy=strategy, budget=budget, verify=verify, seed=seed,
               variant=dict(variant or {}), precision=None if precision is None else precision / 100,
               seconds=seconds)
    return Balance(B.balance(p, workers=workers, log=_log(progress)))


class StudyResults:
    """A study's runs and its report (``boardlab study``).

    ``parts`` maps a part's name to its :class:`Results` (a compensation part: its :class:`Balance`
    results by player count); ``report_path`` is the report's HTML file.
    """

    def __init__(self, study, sets, report_path, folder):
        self.study, self.folder, self.report_path = study, folder, report_path
        self.parts = {}
        wrap = {"runs": lambda part, rs: Results(folder, rs, kind=part.kind),
                "comparison": lambda part, rs: Comparison(folder, rs, kind=part.kind),
                "searches": lambda part, rs: {r["players"]: Balance(r) for r in _balance_results(rs)}}
        for part in study.parts:         # what a part's result is, its kind says (RESULT, default "runs")
            self.parts[part.name] = wrap[getattr(study.kinds[part.kind], "RESULT", "runs")](part, sets[part.name])

    def __repr__(self):
        return (f"<boardlab study '{self.study.title}': parts {', '.join(self.parts)}; report "
                f"{self.report_path}>")

    def seats(self, pandas=False):
        """Win share per seat of every run of the study's balance and variant parts, one frame
        (column ``part``)."""
        frames = []
        for name, res in self.parts.items():
            if isinstance(res, Results) and not isinstance(res, Comparison):
                seats = res.seats().rename({res._rs.group: "run"}).with_columns(pl.col("run").cast(pl.String))
                frames.append(seats.with_columns(pl.lit(name).alias("part")))
        out = pl.concat(frames, how="diagonal_relaxed") if frames else pl.DataFrame()
        return _frame(out, pandas)


def _balance_results(rs):
    """The per-player-count result dicts of a compensation part (a list, or a dict by players)."""
    if isinstance(rs, dict):
        values = list(rs.values())
    elif isinstance(rs, (list, tuple)):
        values = list(rs)
    else:
        values = [rs]
    return [v for v in values if isinstance(v, dict) and "compensation" in v]


def study(path, out=None, quick=False, workers=None, report=True, progress=False):
    """Run a study file (TOML, docs/study.md) and write its report; return :class:`StudyResults`.

    ``quick=True`` caps every run at the file's ``quick_games`` (as ``--quick``); ``path="demo"`` runs
    the built-in demo study; ``report=False`` plays the runs only (``report_path`` is then None: the
    report of a large study takes a while). A rerun on the same ``out`` plays only what is missing.
    """
    from reports.commands.study import load_study, study_main      # the study runner with the registered kinds
    from reports.study import demo_path, quick as quicken, run_study

    if os.fspath(path) == "demo":
        path = demo_path()
    out = _out(out, "study")
    log = _log(progress)
    html = None
    if report:
        _report, paths, _secs = study_main(os.fspath(path), out, workers=workers,
                                           quick_games=0 if quick else None, log=log)
        html, log = paths["html"], (lambda line: None)     # below: the finished runs read back, none played
    the_study = load_study(os.fspath(path))
    if quick:
        quicken(the_study)
    return StudyResults(the_study, run_study(the_study, out, workers=workers, log=log), html, out)
