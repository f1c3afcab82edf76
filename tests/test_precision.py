"""Coverage of analysis/precision.py by simulation (issue 33, item 5).

A synthetic 3-seat game with exactly known seat shares: each game draws a deal
type (4 types), then the expensive agent's result and, on the same deal, the
cheap control agent's result, each from a table of outcome probabilities given
the deal (a win for one seat, or a three-way tie worth 1/3 each). The deal
makes the two correlated, as common seeds do in the engines. The truth is
computed from the tables, not estimated.
"""
import math

import numpy as np
import pytest

from analysis.precision import (SequentialControl, betting_cs, control_variate, effective_n,
                                fixed_width_half, normal_mixture_cs, normal_mixture_rho2)

P_DEAL = np.array([0.4, 0.3, 0.2, 0.1])
# outcome probabilities given the deal: seat 0 wins, seat 1, seat 2, three-way tie
P_Y = np.array([[0.80, 0.06, 0.04, 0.10],
                [0.10, 0.75, 0.05, 0.10],
                [0.05, 0.10, 0.75, 0.10],
                [0.30, 0.30, 0.30, 0.10]])
P_X = np.array([[0.85, 0.05, 0.05, 0.05],
                [0.05, 0.85, 0.05, 0.05],
                [0.05, 0.05, 0.85, 0.05],
                [0.30, 0.30, 0.30, 0.10]])
SHARES = np.array([[1, 0, 0], [0, 1, 0], [0, 0, 1], [1 / 3, 1 / 3, 1 / 3]])
TRUE_Y = P_DEAL @ P_Y @ SHARES
TRUE_X = P_DEAL @ P_X @ SHARES
NULL_Y = np.array([[0.3, 0.3, 0.3, 0.1]] * 4)  # a fair game: every seat 1/3 on every deal


def draw(rng, n, py=P_Y, px=P_X):
    """``n`` games: (y, x), each (n, 3) seat win shares; x on the same deals as y."""
    d = rng.choice(4, size=n, p=P_DEAL)
    uy, ux = rng.random(n), rng.random(n)
    oy = (uy[:, None] > np.cumsum(py[d], axis=1)).sum(axis=1)
    ox = (ux[:, None] > np.cumsum(px[d], axis=1)).sum(axis=1)
    return SHARES[oy], SHARES[ox]


def test_tables_are_distributions():
    assert np.allclose(P_Y.sum(axis=1), 1) and np.allclose(P_X.sum(axis=1), 1)
    assert abs(TRUE_Y.sum() - 1) < 1e-12
    assert TRUE_Y[0] - 1 / 3 > 0.02        # a planted seat advantage


def test_control_variate_covers_and_reduces_variance():
    rng = np.random.default_rng(1)
    reps, n, big = 1000, 400, 20_000
    cover = np.zeros(3, int)
    factors, spread = [], []
    for _ in range(reps):
        y, x = draw(rng, n)
        _, xa = draw(rng, big - n)
        xa = np.concatenate([x, xa])
        for s in range(3):
            e = control_variate(y[:, s], x[:, s], x_control=xa[:, s])
            cover[s] += e.lo <= TRUE_Y[s] <= e.hi
            if s == 0:
                factors.append(e.factor)
                spread.append(e.mean)
    # at least 93 of 100 intervals cover the truth, for every seat
    assert (cover / reps >= 0.93).all(), cover
    assert (cover / reps <= 0.975).all(), cover        # not wider than it needs to be
    # the reduction is real: the estimates' spread over replications matches the reported factor
    f = float(np.mean(factors))
    assert f > 1.25
    plain_sd = math.sqrt(TRUE_Y[0] * (1 - TRUE_Y[0]) / n)   # no ties in seat 0's plain sd: an upper bound
    assert np.std(spread) < plain_sd / math.sqrt(1.2)


def test_control_variate_with_exact_mean_unbiased_and_multicolumn():
    rng = np.random.default_rng(2)
    est = []
    for _ in range(300):
        y, x = draw(rng, 400)
        est.append(control_variate(y[:, 0], x, mu=TRUE_X).mean)   # all three seats as controls
    est = np.array(est)
    # unbiased: the mean of 300 estimates is within 3 standard errors of the truth
    assert abs(est.mean() - TRUE_Y[0]) < 3 * est.std() / math.sqrt(len(est))


def test_control_variate_refuses_bad_input():
    y = np.zeros(100)
    with pytest.raises(ValueError):
        control_variate(y, np.zeros(99), mu=0.0)
    with pytest.raises(ValueError):
        control_variate(y, np.zeros(100))
    with pytest.raises(ValueError):
        control_variate(y, np.zeros(100), x_control=np.ones(200))   # not starting with the paired games


def test_effective_n():
    assert effective_n(100, 1.0, 1.0 / 250) == pytest.approx(250)


def test_normal_mixture_tuned_narrowest_near_planned():
    h = normal_mixture_cs(None, 0.25, np.array([2000, 4000, 8000]), n_planned=4000) * np.sqrt([2000, 4000, 8000])
    assert h[1] < h[0] and h[1] < h[2]
    assert 1 / 4000 < normal_mixture_rho2(4000) < 50 / 4000


def _sequential(rng, method, control, target, look=100, n_max=6000, py=P_Y):
    big = 400_000        # cheap control games (their mean drawn from its exact distribution)
    cm = cov = None
    if control:
        counts = rng.multinomial(big, P_DEAL @ P_X)
        cm = (counts @ SHARES / big)[:, None]
        second = counts @ SHARES ** 2 / big
        cov = (second - cm[:, 0] ** 2).reshape(3, 1, 1) * big / (big - 1)
    seq = SequentialControl(3, method=method, n_planned=2500, control_mean=cm, control_cov=cov,
                            n_control=big if control else 0)
    while True:
        y, x = draw(rng, look, py=py)
        seq.add(y, x[:, :, None] if control else None)
        rows = seq.summary()
        if max(r["half"] for r in rows) <= target or seq.n >= n_max:
            return rows, seq.n


@pytest.mark.parametrize("method,control", [("cs", False), ("cs", True), ("fixed", False), ("fixed", True)])
def test_sequential_stopping_keeps_coverage(method, control):
    """Stop when every seat's half-width is <= 2.5 pp: the intervals at the stop still cover."""
    rng = np.random.default_rng({"cs": 10, "fixed": 20}[method] + control)
    # the confidence sequence is conservative (~99%); the width rule is close to nominal (94.1-94.5%
    # per seat in 1,000 repeats with the control), so it gets more repeats to tell 94% from 93%
    reps = 300 if method == "cs" else 600
    cover = np.zeros(3, int)
    stops = []
    for _ in range(reps):
        rows, n = _sequential(rng, method, control, target=0.025)
        stops.append(n)
        for s in range(3):
            cover[s] += rows[s]["lo"] <= TRUE_Y[s] <= rows[s]["hi"]
    assert cover.sum() / (3 * reps) >= 0.93, cover          # at least 93 of 100 intervals cover the truth
    assert (cover / reps >= 0.92).all(), cover
    assert max(stops) < 6000          # it stopped on the width, not the cap
    if control:
        assert np.mean(stops) < {"cs": 3000, "fixed": 1300}[method]   # fewer games than plain (below)


def test_sequential_control_needs_fewer_games():
    rng = np.random.default_rng(5)
    plain = np.mean([_sequential(rng, "fixed", False, 0.025)[1] for _ in range(40)])
    cv = np.mean([_sequential(rng, "fixed", True, 0.025)[1] for _ in range(40)])
    assert cv < plain / 1.2, (plain, cv)


def test_null_rejects_at_nominal_rate():
    """A fair game: seat 0's interval excludes 1/3 about 5% of the time (fixed n), at most that with the CS."""
    rng = np.random.default_rng(7)
    reps, n = 2000, 500
    rej_fixed = rej_cs = 0
    for _ in range(reps):
        y, _ = draw(rng, n, py=NULL_Y)
        m, v = y[:, 0].mean(), y[:, 0].var(ddof=1)
        h = fixed_width_half(v, n)
        rej_fixed += abs(m - 1 / 3) > h
        rej_cs += abs(m - 1 / 3) > normal_mixture_cs(None, v, n, n_planned=n)
    assert 0.035 <= rej_fixed / reps <= 0.065, rej_fixed
    assert rej_cs / reps <= 0.05


def test_null_sequential_cs_rejects_at_most_nominal_rate():
    """Looking after every chunk and stopping at the first exclusion (the worst peeking): the CS holds."""
    rng = np.random.default_rng(8)
    reps, looks, chunk = 400, 40, 50
    rej_cs = rej_naive = 0
    for _ in range(reps):
        y, _ = draw(rng, looks * chunk, py=NULL_Y)
        y0 = y[:, 0]
        t = np.arange(chunk, looks * chunk + 1, chunk)
        cs = np.cumsum(y0)[t - 1] / t
        v = np.array([y0[:k].var(ddof=1) for k in t])
        rej_cs += bool((abs(cs - 1 / 3) > normal_mixture_cs(None, v, t, n_planned=1000)).any())
        rej_naive += bool((abs(cs - 1 / 3) > fixed_width_half(v, t)).any())
    assert rej_cs / reps <= 0.05
    assert rej_naive / reps > 0.12       # the naive repeated interval does lose its coverage


def test_betting_cs_covers_bernoulli_at_all_times():
    rng = np.random.default_rng(9)
    reps, n, p = 300, 2000, 0.3
    miss = 0
    for _ in range(reps):
        x = (rng.random(n) < p).astype(float)
        lo, hi = betting_cs(x)
        miss += bool(((lo > p) | (hi < p)).any())
        assert (lo <= hi).all()
    assert miss / reps <= 0.05
