"""Tests for analysis.stats: intervals, tests, logistic fit."""

import doctest

import numpy as np
import polars as pl
import pytest
from scipy import optimize, special, stats

import analysis.stats as st


def test_doctests():
    res = doctest.testmod(st, extraglobs={"pl": pl, "np": np})
    assert res.failed == 0 and res.attempted > 10


def test_wilson_known_values_and_expression_agree():
    lo, hi = st.wilson_bounds([50, 0, 10], [100, 10, 10])
    assert np.allclose(lo, [0.40383, 0.0, 0.72247], atol=1e-4)
    assert np.allclose(hi, [0.59617, 0.27753, 1.0], atol=1e-4)
    df = pl.DataFrame({"x": [50.0, 0.0, 10.0], "n": [100, 10, 10]})
    out = df.select(st.wilson_exprs("x", "n"))
    assert np.allclose(out["lo"].to_numpy(), lo) and np.allclose(out["hi"].to_numpy(), hi)


def test_wilson_coverage_is_nominal():
    rng = np.random.default_rng(11)
    p, n = 0.3, 200
    x = rng.binomial(n, p, size=1000)
    lo, hi = st.wilson_bounds(x, n)
    cover = np.mean((lo <= p) & (p <= hi))
    assert 0.93 <= cover <= 0.97


def test_clopper_pearson_is_at_least_nominal():
    rng = np.random.default_rng(12)
    p, n = 0.1, 60
    x = rng.binomial(n, p, size=1000)
    lo, hi = st.clopper_pearson_bounds(x, n)
    assert np.mean((lo <= p) & (p <= hi)) >= 0.94
    assert np.all(lo <= x / n) and np.all(x / n <= hi)


def test_mean_ci_coverage_is_nominal():
    rng = np.random.default_rng(13)
    data = rng.exponential(2.0, size=(1000, 60))
    df = pl.DataFrame({"m": data.mean(1), "s": data.std(1, ddof=1), "n": [60] * 1000})
    out = df.select(st.mean_ci_exprs("m", "s", "n"))
    cover = np.mean((out["lo"].to_numpy() <= 2.0) & (2.0 <= out["hi"].to_numpy()))
    assert 0.93 <= cover <= 0.97


def test_two_proportion_ztest_size_and_power():
    rng = np.random.default_rng(14)
    n = 400
    t = pl.DataFrame({
        "x1": rng.binomial(n, 0.4, 1000), "n1": [n] * 1000,
        "x2": rng.binomial(n, 0.4, 1000), "n2": [n] * 1000,
    })
    out = st.two_proportion_ztest(t, "x1", "n1", "x2", "n2")
    size = (out["p_value"] < 0.05).mean()
    assert 0.03 <= size <= 0.07
    cover = ((out["diff_lo"] <= 0) & (out["diff_hi"] >= 0)).mean()
    assert 0.93 <= cover <= 0.97
    big = pl.DataFrame({"x1": [400], "n1": [1000], "x2": [500], "n2": [1000]})
    assert st.two_proportion_ztest(big, "x1", "n1", "x2", "n2")["p_value"].item() < 1e-5
    # lazy in, lazy out
    assert isinstance(st.two_proportion_ztest(big.lazy(), "x1", "n1", "x2", "n2"), pl.LazyFrame)


def test_welch_matches_scipy():
    rng = np.random.default_rng(15)
    a, b = rng.normal(0, 1, 40), rng.normal(0.5, 2, 70)
    t = pl.DataFrame({"m1": [a.mean()], "s1": [a.std(ddof=1)], "n1": [40],
                      "m2": [b.mean()], "s2": [b.std(ddof=1)], "n2": [70]})
    out = st.welch_ttest(t, "m1", "s1", "n1", "m2", "s2", "n2")
    ref = stats.ttest_ind(b, a, equal_var=False)
    assert out["t"].item() == pytest.approx(ref.statistic)
    assert out["p_value"].item() == pytest.approx(ref.pvalue)


def test_holm_by_group_and_monotone():
    t = pl.DataFrame({"g": ["a", "a", "b", "b", "b"], "p_value": [0.02, 0.01, 0.5, 0.001, 0.04]})
    out = st.holm(t, by="g")
    assert out["p_holm"].to_list() == pytest.approx([0.02, 0.02, 0.5, 0.003, 0.08])
    assert out["reject"].to_list() == [True, True, False, True, False]
    assert out["g"].to_list() == t["g"].to_list()


def test_required_games_gives_the_precision_asked():
    n = st.required_games(pl.DataFrame({"win_share": [0.3]}), 0.02)["games_needed"].item()
    lo, hi = st.wilson_bounds(0.3 * n, n)
    assert (hi - lo) / 2 == pytest.approx(0.02, rel=0.01)
    m = st.required_games(pl.DataFrame({"sd": [5.0]}), 0.5, sd="sd")["games_needed"].item()
    assert m == int(np.ceil((1.959964 * 5 / 0.5) ** 2))


def _nll(beta, X, y):
    eta = X @ beta
    return -np.sum(y * eta - np.logaddexp(0, eta))


def test_logistic_fit_matches_direct_optimisation():
    rng = np.random.default_rng(16)
    X = np.column_stack([np.ones(500), rng.normal(size=(500, 2))])
    y = (rng.random(500) < special.expit(X @ [0.2, 0.8, -0.5])).astype(float)
    fit = st.logistic_fit(X, y)
    ref = optimize.minimize(_nll, np.zeros(3), args=(X, y), method="BFGS").x
    assert np.allclose(fit.coef, ref, atol=1e-4)
    assert fit.method == "mle" and not fit.separated and fit.converged


def test_logistic_slope_ci_coverage():
    rng = np.random.default_rng(17)
    hits = 0
    for _ in range(1000):
        x = rng.normal(size=200)
        y = (rng.random(200) < special.expit(-0.3 + 0.7 * x)).astype(float)
        fit = st.logistic_fit(np.column_stack([np.ones(200), x]), y)
        hits += abs(fit.coef[1] - 0.7) <= 1.959964 * fit.se[1]
    assert 0.93 <= hits / 1000 <= 0.97


def test_logistic_separation_falls_back_to_firth():
    x = np.array([-3.0, -2, -1, -0.5, 0.5, 1, 2, 3])
    y = (x > 0).astype(float)
    fit = st.logistic_fit(np.column_stack([np.ones(8), x]), y)
    assert fit.separated and fit.method == "firth"
    assert np.all(np.isfinite(fit.coef)) and fit.coef[1] > 0.5 and np.all(np.isfinite(fit.se))


def test_logistic_fit_by_blocks_equals_one_pass():
    """Information and score summed over row blocks (and a Design built a block at a time) give the one-pass fit."""
    rng = np.random.default_rng(3)
    raw = rng.integers(0, 20, size=(3000, 3)).astype(np.int16)
    mu, sd = raw.mean(axis=0), raw.std(axis=0, ddof=1)
    X = np.column_stack([np.ones(3000), (raw - mu) / sd])
    y = (rng.random(3000) < 1 / (1 + np.exp(-(X @ [0.2, 0.8, -0.5, 0.1])))).astype(float)
    games = np.repeat(np.arange(1000), 3)
    whole = st.logistic_fit(X, y, groups=games)
    for fit in (st.logistic_fit(X, y, groups=games, block_rows=700),
                st.logistic_fit(st.Design(raw, mu, sd), y, groups=games, block_rows=512)):
        assert np.allclose(fit.coef, whole.coef, rtol=1e-12, atol=1e-14)
        assert np.allclose(fit.se, whole.se, rtol=1e-10)
        assert fit.method == whole.method == "mle" and fit.n_iter == whole.n_iter
    one = st.logistic_fit(st.Design(raw, mu, sd), y, groups=games)     # one block: the same arithmetic
    assert np.array_equal(one.coef, whole.coef) and np.array_equal(one.se, whole.se)


@pytest.mark.parametrize("codes", [np.repeat(np.arange(3, 40), 3),                   # whole games in order
                                   np.repeat(np.arange(5), [2, 3, 3, 3, 1]),         # uneven: the bincount way
                                   np.array([4, 4, 1, 1, 2, 2])])                    # out of order
def test_add_by_code_equals_add_at(codes):
    """``add_by_code`` (its block path for whole games in order too) adds each code's rows, summed in row
    order, to ``s``: bit for bit the per-column ``np.bincount`` sums, and ``np.add.at``'s when ``s`` is zero."""
    from analysis.stats import add_by_code

    rng = np.random.default_rng(3)
    values = rng.normal(size=(len(codes), 4)) * 10.0 ** rng.integers(-8, 8, size=(len(codes), 1))
    got, want = np.full((45, 4), 0.5), np.full((45, 4), 0.5)
    add_by_code(got, codes, values)
    for c in range(4):
        want[:, c] += np.bincount(codes, weights=values[:, c], minlength=45)
    assert np.array_equal(got, want)
    got, want = np.zeros((45, 4)), np.zeros((45, 4))
    add_by_code(got, codes, values)
    np.add.at(want, codes, values)
    assert np.array_equal(got, want)
