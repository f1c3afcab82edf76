"""Strategy comparison: every strategy in every seat, then ratings.

:func:`lineups` lists the seatings: all orderings of ``players`` strategies
when there are at most :data:`MAX_PERMUTATIONS` of them (every strategy sits
in every seat equally often and meets every other in every pair of seats
equally often), otherwise the ``k`` cyclic rotations (every strategy in every
seat once). :func:`run_compare` plays ``ceil(games / len(lineups))`` games per
lineup, all from the same run seed, so every lineup meets the same tiles
(common random numbers). :func:`compare_section` reports the seat balance,
win share per strategy and seat, the head-to-head matrix and Bradley–Terry
ratings.

Examples
--------
>>> lineups(["a", "b", "c"], 2)
[('a', 'b'), ('a', 'c'), ('b', 'a'), ('b', 'c'), ('c', 'a'), ('c', 'b')]
>>> lineups(["a", "b"], 3)
[('a', 'b', 'a'), ('b', 'a', 'b')]
"""
from __future__ import annotations

import math
import os
import time

import polars as pl

from reports.plan import MAX_PERMUTATIONS, lineups  # noqa: F401   (the seatings: planning, reports.plan)
from reports.render import figures as F
from reports.runset import RunSet
from reports.render.sections import Fig, Section, Table, caption_of, text_table
from reports.words import dominance_text

def chunk_size_for(games):
    """Chunks from the game count only (resumable with any worker count), ~16 per run."""
    return int(max(1, min(games, max(1000, math.ceil(games / 16)))))


def run_compare(game, players, strategies, games, seed, out, variant=None, workers=None,
                progress=False, log=None):
    """Play every lineup of ``strategies``; return a RunSet labelled by lineup.

    Parameters
    ----------
    game : str
    players : int
    strategies : list of str, or dict
        Strategy names (or preset paths), each once; or ``{name: Strategy}``
        already resolved (``strategies.resolve``).
    games : int
        Games in all; each lineup plays ``ceil(games / len(lineups))``.
    seed : int
        Run seed of every lineup (common random numbers).
    out : str
        Folder; lineup ``i`` is written to ``out/lineup-ii``. A rerun resumes.
    variant : dict, optional
        Engine settings for every lineup.
    log : callable, optional
        Called with one line per finished lineup.
    """
    import strategies as _strategies
    from simcore.run import simulate

    if not isinstance(strategies, dict):       # unknown names fail before any game is played
        strategies = {name: _strategies.resolve(game, name) for name in strategies}
    seats = lineups(list(strategies), players)
    per = math.ceil(games / len(seats))
    dirs = {}
    t0 = last_line = time.perf_counter()
    for i, lineup in enumerate(seats):
        folder = os.path.join(out, f"lineup-{i:03d}")
        simulate(game, players=players, games=per, seed=seed, out=folder,
                 strategies=[strategies[name] for name in lineup],
                 variant=dict(variant or {}), workers=workers, chunk_size=chunk_size_for(per),
                 progress=progress)
        dirs["|".join(lineup)] = folder
        if log and (len(seats) <= 12 or time.perf_counter() - last_line >= 1.0 or i + 1 == len(seats)):
            last_line = time.perf_counter()
            spent = time.perf_counter() - t0
            left = spent * (len(seats) - i - 1) / (i + 1)
            log(f"  lineup {i + 1}/{len(seats)} {' / '.join(lineup)}: {per:,} games "
                f"({100 * (i + 1) // len(seats)} % of the seatings, {spent:.0f} s so far"
                + (f", about {left:.0f} s left)" if i + 1 < len(seats) else ")"))
    return RunSet.from_dirs(dirs, group="lineup", title=f"{game} {players} players: {', '.join(strategies)}")


def compare_tables(players: pl.DataFrame, group="lineup"):
    """The comparison's tables from the stacked players table (with a lineup column).

    Returns a dict: ``seat_counts`` (games per strategy and seat, and whether
    balanced), ``win_share_by_seat`` (per strategy and seat, CIs clustered by seed),
    ``win_share_matrix`` (strategy × seat, percent), ``pairwise`` (head-to-head
    win matrix, long), ``ratings`` (Bradley–Terry with CIs, Elo scale),
    ``dominance`` (per strategy: opponents beaten and lost to with the 95% CI,
    and whether it beats every other one: ``analysis.ratings.dominance``).
    """
    from analysis.ratings import bradley_terry, pairwise_win_matrix
    from analysis.stats import cluster_share_table
    from analysis.summary import seat_strategy_counts, win_share_by_seat

    by = [group] if group in players.columns else []
    counts = seat_strategy_counts(players)
    # seat_advantage counts players per game from the rows; a lineup's games are
    # told apart by the lineup column, the strategy is the group of interest
    p = players.with_columns(pl.col(group).cast(pl.String)) if by else players
    if "n_players" not in p.columns:            # a bare players table: the players per game, counted
        from analysis._common import with_n_players

        p = with_n_players(p.lazy(), by).collect()
    adv = win_share_by_seat(p, by="strategy")
    # game i of every lineup is played from one seed: the seed (game_index) is the independent unit
    # of every interval below (issue 37; docs/intervals.md)
    seat_ci = cluster_share_table(p, "win_share", ["strategy", "n_players", "seat"], "game_index", prefix="win_")
    adv = adv.drop("win_lo", "win_hi").join(seat_ci.select("strategy", "n_players", "seat", "win_lo", "win_hi"),
                                            on=["strategy", "n_players", "seat"], how="left")
    matrix = (adv.with_columns((pl.col("win_share") * 100).round(1).alias("pct"),
                               pl.format("seat {}", pl.col("seat")).alias("seat_name"))
              .pivot(on="seat_name", index=["n_players", "strategy"], values="pct"))
    # all seats: the strategy's share over its rows (a k-way tie counts 1/k), clustered by seed
    overall = (cluster_share_table(p, "win_share", "strategy", "game_index", prefix="all seats ")
               .join(p.group_by([*by, "game_index", "strategy"]).len().group_by("strategy")
                     .agg(pl.len().alias("all seats games")), on="strategy")
               .select("strategy", pl.col("all seats share").alias("all seats"), "all seats games",
                       "all seats lo", "all seats hi")
               .with_columns((pl.col(c) * 100).round(1) for c in ("all seats", "all seats lo", "all seats hi")))
    matrix = matrix.join(overall, on="strategy", how="left").sort("all seats", descending=True)
    pair = (pairwise_win_matrix(p, by=None) if not by else
            pairwise_win_matrix(p.rename({group: "run"}), cluster="game_index"))
    bt = (bradley_terry(p.rename({group: "run"}), cluster="game_index") if by else
          bradley_terry(p)).sort("elo", descending=True)
    from analysis.ratings import dominance

    return {"seat_counts": counts, "win_share_by_seat": adv, "win_share_matrix": matrix,
            "pairwise": pair, "ratings": bt, "dominance": dominance(pair)}


def compare_section(rs: RunSet, title="Strategy comparison") -> Section:
    """Seat balance, win-share matrix, head-to-head matrix and ratings of a comparison."""
    from analysis.ratings import rating_text

    t = compare_tables(rs.players, rs.group)
    n_games = sum(rs.n_games().values())
    n_lineups = len(rs.runs)
    per = sorted(set(rs.n_games().values()))
    gt = f"{n_games:,} games ({n_lineups} lineups × " + (f"{per[0]:,})" if len(per) == 1 else
                                                        f"{per[0]:,}–{per[-1]:,})")
    fig_r = F.ratings(t["ratings"], caption=(
        f"Bradley–Terry strength from within-game finishing order (each pair of players one comparison, "
        f"ties half), Elo scale, 95% CIs clustered by seed (game i of every lineup shares one). {gt}."))
    fig_m = F.win_matrix(t["pairwise"], caption=f"Share of within-game pairs the row strategy finished ahead of "
                                                 f"the column strategy (ties half). {gt}.")
    fig_s = F.win_share_by_seat(t["win_share_by_seat"], series="strategy", title="Win share by strategy and seat",
                                caption=f"Mean win share of each strategy in each seat (a k-way tie for first "
                                        f"counts 1/k; 95% CIs clustered by seed); dashed: fair share. {gt}.")
    balanced = bool(t["seat_counts"]["balanced"].all())
    sec = Section(title, paragraphs=[
        f"Every strategy played every seat ({'balanced: equally often' if balanced else 'NOT balanced'}); "
        f"{n_lineups} lineups, all from the same run seed (common random numbers). Ratings are "
        f"Bradley–Terry strengths; 1500 is the average strategy of this field.", dominance_text(t["dominance"])],
        tables=[Table("compare_ratings", t["ratings"], "Bradley–Terry ratings (Elo scale, 95% CIs)."),
                Table("compare_win_share_matrix", t["win_share_matrix"], "Win share (%) per strategy and seat (a "
                      "k-way tie for first counts 1/k; 95% CIs clustered by seed)."),
                Table("compare_seat_counts", t["seat_counts"], "Games per strategy and seat."),
                Table("compare_pairwise", t["pairwise"], "Head-to-head: share of pairs finished ahead (ties half; "
                      "95% CIs clustered by seed)."),
                Table("compare_dominance", t["dominance"], "Per strategy: opponents it beats / loses to "
                      "head-to-head (whole 95% CI above / below ½), its weakest match-up, and whether it "
                      "beats every other strategy."),
                Table("compare_win_share_by_seat", t["win_share_by_seat"], "Win share per strategy and seat "
                      "(95% CIs).", show=False)],
        figures=[Fig("compare_ratings", fig_r, caption_of(fig_r)),
                 Fig("compare_win_matrix", fig_m, caption_of(fig_m)),
                 Fig("compare_win_share_by_seat", fig_s, caption_of(fig_s))])
    seats = [c for c in t["win_share_matrix"].columns if c.startswith("seat ")]
    rows = []
    bt = {r["strategy"]: r for r in t["ratings"].iter_rows(named=True)}
    for r in t["win_share_matrix"].iter_rows(named=True):
        b = bt.get(r["strategy"])
        elo = rating_text(b, sep="") if b else "—"
        rows.append([r["strategy"], *[f"{r[s]:.1f}" for s in seats],
                     f"{r['all seats']:.1f} [{r['all seats lo']:.1f}, {r['all seats hi']:.1f}]"
                     if r["all seats lo"] == r["all seats lo"] else f"{r['all seats']:.1f} (no CI)", elo])
    adv = t["win_share_by_seat"]
    half = float(((adv["win_hi"] - adv["win_lo"]) / 2).max()) * 100
    n_cell = f"{adv['n'].min():,}" if adv["n"].min() == adv["n"].max() else f"{adv['n'].min():,}–{adv['n'].max():,}"
    ci = f"95% CI ±{half:.1f} pp at most" if half == half else "no 95% CI: too few seeds"
    sec.terminal = (f"{title}: win share % by seat (n = {n_cell} per cell, {ci}), "
                    f"over all seats and Bradley–Terry rating with 95% CIs; {gt}\n"
                    + text_table(["strategy", *seats, "all seats", "rating"], rows)
                    + "\n" + dominance_text(t["dominance"]))
    return sec
