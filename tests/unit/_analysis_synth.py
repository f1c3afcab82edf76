"""Synthetic results tables with planted effects, for the analysis tests.

Scores are integers, so ties for first happen naturally; ranks and win shares
are derived from totals exactly as the runner defines them.
"""

from __future__ import annotations

import numpy as np
import polars as pl

CATS = ("city", "monuments", "temples", "rings", "marble")


def ranks_and_shares(totals: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Competition ranks (1 = best, ties share) and win shares, row-wise."""
    greater = (totals[:, None, :] > totals[:, :, None]).sum(axis=2)
    rank = 1 + greater
    best = totals.max(axis=1, keepdims=True)
    top = totals == best
    share = top / top.sum(axis=1, keepdims=True)
    return rank, share


def make_players(
    n_games: int,
    n_players: int,
    seed: int,
    seat_bonus: np.ndarray | None = None,
    strategies: list[str] | None = None,
    strategy_bonus: dict[str, float] | None = None,
    means: tuple[float, ...] = (8.0, 3.0, 6.0, 4.0, 2.0),
    decide: str | None = None,
    extra: dict | None = None,
) -> pl.DataFrame:
    """Players table of ``n_games`` synthetic games.

    seat_bonus: points added to each seat's city score (planted seat effect),
    drawn as Poisson means. strategies: a strategy per seat drawn uniformly
    from this list; strategy_bonus adds to the Poisson mean of the city.
    decide: a category made decisive: its leader gets a huge bonus in it and
    no points elsewhere, so the leader always wins and never would without it.
    """
    rng = np.random.default_rng(seed)
    g, n = n_games, n_players
    lam = np.broadcast_to(np.asarray(means, dtype=float), (g, n, len(means))).copy()
    if seat_bonus is not None:
        lam[:, :, 0] += np.asarray(seat_bonus, dtype=float)[None, :]
    strat = None
    if strategies is not None:
        strat = rng.integers(0, len(strategies), size=(g, n))
        if strategy_bonus:
            bonus = np.array([strategy_bonus.get(s, 0.0) for s in strategies])
            lam[:, :, 0] += bonus[strat]
    pts = rng.poisson(lam).astype(np.int64)
    if decide is not None:
        c = CATS.index(decide)
        # the category's leader gets a lead larger than anything else can undo
        lead = pts[:, :, c] + rng.random((g, n)) * 0.1
        leader = lead.argmax(axis=1)
        rows = np.arange(g)
        pts[rows, leader, c] += 1000
        # ...and nothing elsewhere, while every rival has at least one point:
        # without the category the winner always loses
        keep = pts[rows, leader, c].copy()
        pts[rows, leader, :] = 0
        pts[rows, leader, c] = keep
        rival = np.ones((g, n), dtype=bool)
        rival[rows, leader] = False
        other = 0 if c != 0 else 1
        pts[:, :, other] += rival
    totals = pts.sum(axis=2)
    rank, share = ranks_and_shares(totals)
    data = {
        "game_index": np.repeat(np.arange(g, dtype=np.int64), n),
        "seat": np.tile(np.arange(n, dtype=np.int8), g),
        "n_players": np.full(g * n, n, dtype=np.int64),
    }
    for k, name in enumerate(CATS):
        data[name] = pts[:, :, k].ravel().astype(np.int16 if decide is None else np.int32)
    data["total"] = totals.ravel().astype(np.int16 if decide is None else np.int32)
    data["rank"] = rank.ravel().astype(np.int8)
    data["win_share"] = share.ravel().astype(np.float32)
    if strat is not None:
        data["strategy"] = np.asarray(strategies)[strat.ravel()]
    else:
        data["strategy"] = np.full(g * n, "base")
    if extra:
        data.update(extra)
    return pl.DataFrame(data)


def make_plackett_luce(
    n_games: int, n_players: int, theta: dict[str, float], seed: int, rep_size: int | None = None
) -> pl.DataFrame:
    """Games whose finishing order follows Plackett–Luce with log-strengths
    ``theta`` (performance = theta + Gumbel noise): pairwise margins are then
    exactly Bradley–Terry with the same theta."""
    rng = np.random.default_rng(seed)
    names = np.array(list(theta))
    th = np.array([theta[s] for s in names])
    strat = rng.integers(0, len(names), size=(n_games, n_players))
    perf = th[strat] + rng.gumbel(size=(n_games, n_players))
    rank = 1 + (perf[:, None, :] > perf[:, :, None]).sum(axis=2)
    total = (100 + 10 * perf).astype(np.int64)
    df = pl.DataFrame({
        "game_index": np.repeat(np.arange(n_games, dtype=np.int64), n_players),
        "seat": np.tile(np.arange(n_players, dtype=np.int8), n_games),
        "strategy": names[strat.ravel()],
        "rank": rank.ravel().astype(np.int8),
        "total": total.ravel().astype(np.int16),
        "win_share": (rank.ravel() == 1).astype(np.float32),
    })
    if rep_size:
        df = df.with_columns((pl.col("game_index") // rep_size).alias("rep"))
    return df


def make_component_games(
    n_games: int,
    n_players: int,
    values: dict[str, float],
    seed: int,
    exhaustive: int = 0,
    rate: float = 0.7,
    noise: float = 3.0,
) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Players and takes tables where each take of component k adds ``values[k]`` points.

    Without ``exhaustive`` each player takes Poisson(``rate``) of every
    component; with ``exhaustive = R`` every player takes exactly R
    components, drawn uniformly (like one fleet per round). The total is
    20 + the planted values + rounded normal noise, so ties happen and win
    shares are derived as the runner does. Returns (players, takes); takes
    have ``game_index``, ``seat``, ``component``, ``round`` and ``value``
    (the planted points of the take) and ``cost`` (value + 6).
    """
    rng = np.random.default_rng(seed)
    names = list(values)
    k = len(names)
    if exhaustive:
        picks = rng.integers(0, k, size=(n_games, n_players, exhaustive))
        counts = np.zeros((n_games, n_players, k), dtype=np.int64)
        for j in range(k):
            counts[:, :, j] = (picks == j).sum(axis=2)
    else:
        counts = rng.poisson(rate, size=(n_games, n_players, k))
    v = np.array([values[c] for c in names])
    totals = np.rint(20 + counts @ v + rng.normal(0, noise, size=(n_games, n_players))).astype(np.int64)
    rank, share = ranks_and_shares(totals)
    players = pl.DataFrame({
        "game_index": np.repeat(np.arange(n_games, dtype=np.int32), n_players),
        "seat": np.tile(np.arange(n_players, dtype=np.int8), n_games),
        "total": totals.ravel().astype(np.int16),
        "rank": rank.ravel().astype(np.int8),
        "win_share": share.ravel().astype(np.float32),
    })
    g, s, j = np.nonzero(counts)
    reps = counts[g, s, j]
    g, s, j = np.repeat(g, reps), np.repeat(s, reps), np.repeat(j, reps)
    takes = pl.DataFrame({
        "game_index": g.astype(np.int32),
        "seat": s.astype(np.int8),
        "component": np.asarray(names)[j],
        "round": rng.integers(0, 6, size=len(g)).astype(np.int16),
        "value": v[j],
        "cost": v[j] + 1.0 + 5.0,
    })
    return players, takes
