"""A report's "Games to watch": a few telling games of a run, each written as a viewer page.

The closest finish (smallest winning margin with a sole winner), the biggest comeback
(the winner's largest deficit at a round end, ``max_deficit``) and, when the seats
play different strategies, a game the weakest of them (lowest mean win share) won
outright. Ties: the lowest game index.
"""
import os

import polars as pl


def telling_games(run_dir):
    """``[(title, game index, sentence), ...]``: at most three, each game once."""
    from simcore._manifest import read_manifest

    m = read_manifest(run_dir)
    players = pl.scan_parquet(os.path.join(run_dir, "players", "*.parquet"))
    cols = players.collect_schema().names()
    if not {"game_index", "seat", "total", "win_share"} <= set(cols):
        return []
    p = players.select("game_index", "seat", "total", "win_share").collect()
    out, used = [], set()

    def add(title, gi, sentence):
        if gi is not None and gi not in used:
            used.add(gi)
            out.append((title, int(gi), sentence))

    top2 = (p.sort(["game_index", "total"], descending=[False, True]).group_by("game_index", maintain_order=True)
            .agg(pl.col("total").first().alias("first"), pl.col("total").get(1).alias("second"),
                 (pl.col("win_share") == 1).sum().alias("sole")))
    close = top2.filter(pl.col("sole") == 1).with_columns((pl.col("first") - pl.col("second")).alias("margin"))
    if close.height:
        r = close.sort(["margin", "game_index"]).row(0, named=True)
        add("closest finish", r["game_index"], f"won by {r['margin']} point{'s' * (r['margin'] != 1)} "
                                               f"({r['first']} to {r['second']})")
    games = pl.scan_parquet(os.path.join(run_dir, "games", "*.parquet"))
    if "max_deficit" in games.collect_schema().names():
        g = games.select("game_index", "max_deficit").collect().sort(["max_deficit", "game_index"],
                                                                      descending=[True, False])
        if g.height and g.row(0)[1] > 0:
            add("biggest comeback", g.row(0)[0], f"the winner was {g.row(0)[1]} points behind at worst")
    names = [s.get("name", "?") for s in m.get("strategies", [])]
    if len(set(names)) > 1:
        seat_name = pl.DataFrame({"seat": list(range(len(names))), "strategy": names},
                                 schema={"seat": p.schema["seat"], "strategy": pl.String})
        q = p.join(seat_name, on="seat")
        share = q.group_by("strategy").agg(pl.col("win_share").mean()).sort(["win_share", "strategy"])
        weak, rate = share.row(0)
        won = q.filter((pl.col("strategy") == weak) & (pl.col("win_share") == 1)).sort("game_index")
        if won.height:
            add("the weaker strategy won", won.row(0, named=True)["game_index"],
                f"{weak} (mean win share {rate:.3f}, the lowest here) won it outright")
    return out


def games_section(run_dir, out):
    """The "Games to watch" section; writes each game's viewer page to ``out/games/``.

    ``None`` when the run has no telling games or its game has no board drawing
    (a game added through the contract alone: the report goes without viewer pages)."""
    from reports.render.sections import Section
    from reports.view.page import write_view
    from reports.view.record import has_board
    from simcore._manifest import read_manifest

    if not has_board(read_manifest(run_dir)["game"]):
        return None
    picks = telling_games(run_dir)
    if not picks:
        return None
    lines = []
    for title, gi, sentence in picks:
        name = f"game-{gi}.html"
        write_view(run_dir, gi, os.path.join(out, "games", name))
        lines.append(f"[{title}: game {gi}](games/{name}) — {sentence}.")
    return Section("Games to watch", paragraphs=[
        "A few telling games of this run, each as a page that steps through its decisions with the board, "
        "the running score and each bot's view of its options (`boardlab view`; the pages open from the files, "
        "no server):", *lines])

