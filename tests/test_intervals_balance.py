"""Balance's and a sweep cell's intervals on the real engine: 200 re-runs with fresh seeds (issue 37).

Random-play Hellas, 2 players (ties ~6% of games): every re-run plays 2,000 games of its own run seed,
as a balance verification or a sweep cell does, and reports each seat's win share and the largest
seat gap with their 95% intervals (observed variance of the per-game shares; with 2 seats the gap's
interval is seat 0's, no Bonferroni split). The truth is the share over all the re-runs' games.

The gap is checked where it is well away from 0 (3 points to seat 1: a gap of ~14 pp). Near 0 an
interval for a distance |d| made from one for d covers more than 95% (up to 97.5% at a gap of about
one standard error), whatever the width: the lower end stops at 0.
"""
import numpy as np
import polars as pl

from analysis.balance import gap_interval
from analysis.stats import wilson_bounds
from analysis.sweep import seat_balance

RERUNS, GAMES = 200, 2000


def test_gap_and_cell_intervals_cover_over_reruns():
    import simcore
    from simcore.rng import chunk_seeds

    mod = simcore.games["hellas"]

    def play(**settings):
        cfg = mod.make_config(2, **settings)
        return np.stack([np.asarray(mod.play_batch(2, chunk_seeds(3_700 + r, 0, GAMES), None, config=cfg,
                                                   events=False)["players"]["win_share"], dtype=np.float64)
                         for r in range(RERUNS)])                 # (reruns, games, seats)

    comp = play(seat_points=[0, 3])
    true_gap = float(np.abs(comp.mean(axis=(0, 1)) - 0.5).max())
    assert true_gap > 0.1
    gaps = np.array([gap_interval(s, GAMES, squares=q) for s, q in zip(comp.sum(axis=1), (comp ** 2).sum(axis=1))])
    cover = np.mean((gaps[:, 1] <= true_gap) & (true_gap <= gaps[:, 2]))
    assert 0.93 <= cover <= 0.97, cover
    ws = play()
    assert ((ws > 0) & (ws < 1)).any(axis=2).mean() > 0.03       # ties occur
    sums, squares = ws.sum(axis=1), (ws * ws).sum(axis=1)
    truth = ws.mean(axis=(0, 1))
    cell = pl.DataFrame({"cell": np.repeat(np.arange(RERUNS), 2), "n_players": 2, "seat": np.tile([0, 1], RERUNS),
                         "n": GAMES, "wins": sums.reshape(-1), "wins_ss": squares.reshape(-1)})
    t = seat_balance(cell, "cell")
    for s in (0, 1):
        lo, hi = t[f"lo_{s}"].to_numpy(), t[f"hi_{s}"].to_numpy()
        assert 0.93 <= np.mean((lo <= truth[s]) & (truth[s] <= hi)) <= 0.97
        # narrower than Wilson's p(1-p) by what the ties take off, and as wide as the spread says (±5%)
        wlo, whi = wilson_bounds(sums[:, s], GAMES)
        assert np.mean(hi - lo) < np.mean(whi - wlo)
        assert 0.9 <= np.mean(hi - lo) / (2 * 1.959964 * sums[:, s].std(ddof=1) / GAMES) <= 1.1
