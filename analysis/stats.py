"""Confidence intervals, tests and a logistic fit shared by the analyses.

Two faces:

- **polars expressions** (``wilson_exprs``, ``t_quantile``) that other modules
  put into their aggregations, so intervals are computed inside the pipeline;
- **table functions** (``two_proportion_ztest``, ``welch_ttest``, ``holm``,
  ``required_games``) that add columns to a table of estimates — the building
  blocks of a regression check (baseline table joined to a new table).

``logistic_fit`` is the one numpy routine: IRLS for a logistic (or fractional
logit) model with cluster-robust standard errors and Firth's penalty as the
fallback when the data are separated.

Table functions return the same kind of frame they were given (lazy or eager).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import polars as pl
from scipy import special

from analysis._common import Frame, as_lazy, like

__all__ = [
    "z_value",
    "wilson_bounds",
    "wilson_exprs",
    "clopper_pearson_bounds",
    "t_quantile",
    "mean_ci_exprs",
    "two_proportion_ztest",
    "welch_ttest",
    "holm",
    "required_games",
    "LogitFit",
    "Design",
    "logistic_fit",
    "cluster_codes",
    "add_by_code",
    "ratio_of_sums",
    "ratio_from_sums",
    "LinearFit",
    "linear_fit",
    "ShareCI",
    "share_interval",
    "wilson_effective_bounds",
    "wilson_effective_exprs",
    "observed_share_bounds",
    "cluster_share_table",
    "paired_differences",
]


# The distribution functions the analyses use, as the scipy.special calls scipy.stats makes for
# them (same values), so that importing the analyses does not import scipy.stats (~0.5 s CPU).
def norm_sf(x):
    """Standard normal upper tail, as ``scipy.stats.norm.sf``."""
    return special.ndtr(-np.asarray(x, dtype=float))


def norm_ppf(q):
    """Standard normal quantile, as ``scipy.stats.norm.ppf``."""
    return special.ndtri(q)


def t_ppf(q, df):
    """Student t quantile, as ``scipy.stats.t.ppf`` (for 0 < q < 1, df > 0)."""
    return special.stdtrit(df, q)


def t_sf(x, df):
    """Student t upper tail, as ``scipy.stats.t.sf``."""
    return special.stdtr(df, -np.asarray(x, dtype=float))


def chi2_sf(x, df):
    """Chi-square upper tail, as ``scipy.stats.chi2.sf``."""
    return special.chdtrc(df, x)


def z_value(level: float = 0.95) -> float:
    """Two-sided standard-normal quantile for a confidence ``level``.

    Examples
    --------
    >>> round(z_value(0.95), 4)
    1.96
    """
    if not 0.0 < level < 1.0:
        raise ValueError(f"confidence level must be in (0, 1), got {level}")
    return float(norm_ppf(0.5 + level / 2.0))


def wilson_bounds(x, n, level: float = 0.95) -> tuple[np.ndarray, np.ndarray]:
    """Wilson score interval for a proportion ``x / n`` (vectorised).

    ``x`` may be fractional (an effective count, e.g. a sum of win shares):
    the formula only uses ``p = x / n``.

    Parameters
    ----------
    x, n : array_like
        Successes (possibly fractional) and trials; ``n > 0``.
    level : float
        Confidence level.

    Returns
    -------
    (lo, hi) : tuple of ndarray

    Examples
    --------
    >>> lo, hi = wilson_bounds(50, 100)
    >>> round(float(lo), 4), round(float(hi), 4)
    (0.4038, 0.5962)
    """
    x = np.asarray(x, dtype=float)
    n = np.asarray(n, dtype=float)
    z = z_value(level)
    with np.errstate(divide="ignore", invalid="ignore"):
        p = x / n
        denom = 1.0 + z * z / n
        centre = (p + z * z / (2.0 * n)) / denom
        half = z * np.sqrt(np.clip(p * (1.0 - p), 0.0, None) / n + z * z / (4.0 * n * n)) / denom
    return np.clip(centre - half, 0.0, 1.0), np.clip(centre + half, 0.0, 1.0)


def wilson_exprs(
    x: str | pl.Expr, n: str | pl.Expr, level: float = 0.95, prefix: str = ""
) -> list[pl.Expr]:
    """Polars expressions for the Wilson interval: ``{prefix}lo``, ``{prefix}hi``.

    Parameters
    ----------
    x, n : str or polars.Expr
        Success count (may be fractional) and number of trials.
    level : float
        Confidence level.
    prefix : str
        Prefix of the output column names.

    Returns
    -------
    list of polars.Expr

    Examples
    --------
    >>> df = pl.DataFrame({"x": [50.0], "n": [100]})
    >>> df.select(wilson_exprs("x", "n", prefix="p_"))["p_hi"].round(4).item()
    0.5962
    """
    x = pl.col(x) if isinstance(x, str) else x
    n = pl.col(n) if isinstance(n, str) else n
    z2 = z_value(level) ** 2
    n = n.cast(pl.Float64)
    p = x.cast(pl.Float64) / n
    denom = 1.0 + z2 / n
    centre = (p + z2 / (2.0 * n)) / denom
    half = (z2 * ((p * (1.0 - p)).clip(lower_bound=0.0) / n + z2 / (4.0 * n * n))).sqrt() / denom
    return [
        (centre - half).clip(0.0, 1.0).alias(f"{prefix}lo"),
        (centre + half).clip(0.0, 1.0).alias(f"{prefix}hi"),
    ]


def clopper_pearson_bounds(x, n, level: float = 0.95) -> tuple[np.ndarray, np.ndarray]:
    """Exact (Clopper–Pearson) interval for ``x / n`` (vectorised).

    For a fractional ``x`` this uses the continuous extension of the beta
    quantiles, which stays conservative.

    Examples
    --------
    >>> lo, hi = clopper_pearson_bounds(0, 10)
    >>> float(lo), round(float(hi), 4)
    (0.0, 0.3085)
    """
    x = np.asarray(x, dtype=float)
    n = np.asarray(n, dtype=float)
    a = 1.0 - level
    with np.errstate(divide="ignore", invalid="ignore"):
        from scipy import stats  # beta quantiles: scipy.stats, only here

        lo = np.where(x > 0, stats.beta.ppf(a / 2, np.maximum(x, 1e-12), n - x + 1), 0.0)
        hi = np.where(x < n, stats.beta.ppf(1 - a / 2, x + 1, np.maximum(n - x, 1e-12)), 1.0)
    return lo, hi


def t_quantile(n: str | pl.Expr, level: float = 0.95) -> pl.Expr:
    """Expression: Student-t two-sided quantile with ``n - 1`` degrees of freedom.

    Use it in ``with_columns`` after an aggregation (it maps whole columns).
    Rows with ``n < 2`` get NaN.
    """
    n = pl.col(n) if isinstance(n, str) else n
    q = 0.5 + level / 2.0

    def _tq(s: pl.Series) -> pl.Series:
        df = s.cast(pl.Float64).to_numpy() - 1.0
        with np.errstate(invalid="ignore"):
            out = np.where(df >= 1, t_ppf(q, np.maximum(df, 1.0)), np.nan)
        return pl.Series(out, dtype=pl.Float64)

    return n.map_batches(_tq, return_dtype=pl.Float64)


def mean_ci_exprs(
    mean: str, sd: str, n: str, level: float = 0.95, prefix: str = ""
) -> list[pl.Expr]:
    """Expressions for a t interval ``mean ± t * sd / sqrt(n)``.

    Adds ``{prefix}lo`` and ``{prefix}hi`` from columns already aggregated.

    Examples
    --------
    >>> df = pl.DataFrame({"m": [1.0], "s": [2.0], "n": [100]})
    >>> round(df.select(mean_ci_exprs("m", "s", "n"))["hi"].item(), 4)
    1.3968
    """
    half = t_quantile(n, level) * pl.col(sd) / pl.col(n).cast(pl.Float64).sqrt()
    return [
        (pl.col(mean) - half).alias(f"{prefix}lo"),
        (pl.col(mean) + half).alias(f"{prefix}hi"),
    ]


def ratio_of_sums(
    frame: Frame, num: str, den: str, by: str | list[str] | None = None, level: float = 0.95,
    prefix: str = "ratio",
) -> Frame:
    """Ratio of summed ``num`` to summed ``den`` per group, with a delta-method interval.

    The rows are the units (e.g. one map card each): ``R = sum(num) / sum(den)``
    and ``var(R) ≈ sum((num - R·den)²) / (n (n-1) mean(den)²)``.

    Returns
    -------
    Same kind as ``frame``, one row per group: ``{prefix}_n`` (rows),
    ``{prefix}`` (the ratio), ``{prefix}_lo``, ``{prefix}_hi``.

    Examples
    --------
    >>> t = pl.DataFrame({"points": [3, 0, 5, 4], "cost": [4, 1, 6, 5]})
    >>> round(ratio_of_sums(t, "points", "cost")["ratio"].item(), 4)
    0.75
    """
    from analysis._common import as_list, ordered_sum

    keys = as_list(by)
    v, c = pl.col(num).cast(pl.Float64), pl.col(den).cast(pl.Float64)
    agg = [pl.len().alias("__n"), ordered_sum(v).alias("__sv"), ordered_sum(c).alias("__sc"),
           ordered_sum(v * v).alias("__svv"), ordered_sum(c * c).alias("__scc"), ordered_sum(v * c).alias("__svc")]
    lf = as_lazy(frame)
    out = lf.group_by(keys).agg(agg) if keys else lf.select(agg)
    out = out.with_columns(ratio_from_sums(level, prefix=prefix, n="__n"))
    out = out.select(*keys, pl.col("__n").alias(f"{prefix}_n"), prefix, f"{prefix}_lo", f"{prefix}_hi")
    return like(out.sort(keys) if keys else out, frame)


def ratio_from_sums(level: float = 0.95, prefix: str = "ratio", n: str = "__vn") -> list[pl.Expr]:
    """The expressions of :func:`ratio_of_sums` (``{prefix}``, ``_lo``, ``_hi``) from summed columns:
    ``__sv``, ``__sc`` (sums of numerator and denominator), ``__svv``, ``__scc``, ``__svc`` (of their
    squares and product) and the row count ``n`` (``__n`` in :func:`ratio_of_sums`)."""
    k = pl.col(n).cast(pl.Float64)
    r = pl.col("__sv") / pl.col("__sc")
    ss = (pl.col("__svv") - 2 * r * pl.col("__svc") + r * r * pl.col("__scc")).clip(lower_bound=0)
    se = (ss / (k * (k - 1))).sqrt() / (pl.col("__sc") / k)
    z = z_value(level)
    return [r.fill_nan(None).alias(prefix), (r - z * se).fill_nan(None).alias(f"{prefix}_lo"),
            (r + z * se).fill_nan(None).alias(f"{prefix}_hi")]


def _add_numpy_columns(frame: Frame, fn, inputs: list[str]) -> Frame:
    """Collect ``inputs``, compute new columns with numpy, attach them."""
    df = as_lazy(frame).collect()
    arrays = [df[c].cast(pl.Float64).to_numpy() for c in inputs]
    new = fn(*arrays)
    out = df.with_columns([pl.Series(k, np.asarray(v, dtype=float)) for k, v in new.items()])
    return like(out, frame)


def two_proportion_ztest(
    frame: Frame,
    x1: str,
    n1: str,
    x2: str,
    n2: str,
    level: float = 0.95,
) -> Frame:
    """Two-proportion z test, row by row, for ``x1/n1`` versus ``x2/n2``.

    The test uses the pooled standard error; the interval for the difference
    ``p2 - p1`` uses the unpooled one. Counts may be fractional (win shares).

    Parameters
    ----------
    frame : polars.DataFrame or polars.LazyFrame
        One row per comparison, e.g. a baseline table joined to a new one.
    x1, n1, x2, n2 : str
        Column names of successes and trials of the two samples.
    level : float
        Confidence level of the interval for the difference.

    Returns
    -------
    Same kind as ``frame``, with ``diff`` (p2 - p1), ``diff_lo``, ``diff_hi``,
    ``z`` and ``p_value`` (two-sided) added.

    Examples
    --------
    >>> t = pl.DataFrame({"x1": [50], "n1": [100], "x2": [65], "n2": [100]})
    >>> out = two_proportion_ztest(t, "x1", "n1", "x2", "n2")
    >>> round(out["z"].item(), 3), round(out["p_value"].item(), 4)
    (2.146, 0.0319)
    """
    z_ci = z_value(level)

    def _fn(a, na, b, nb):
        p1, p2 = a / na, b / nb
        pooled = (a + b) / (na + nb)
        with np.errstate(divide="ignore", invalid="ignore"):
            se0 = np.sqrt(pooled * (1 - pooled) * (1 / na + 1 / nb))
            z = np.where(se0 > 0, (p2 - p1) / se0, 0.0)
        se = np.sqrt(p1 * (1 - p1) / na + p2 * (1 - p2) / nb)
        return {
            "diff": p2 - p1,
            "diff_lo": p2 - p1 - z_ci * se,
            "diff_hi": p2 - p1 + z_ci * se,
            "z": z,
            "p_value": 2 * norm_sf(np.abs(z)),
        }

    return _add_numpy_columns(frame, _fn, [x1, n1, x2, n2])


def welch_ttest(
    frame: Frame,
    mean1: str,
    sd1: str,
    n1: str,
    mean2: str,
    sd2: str,
    n2: str,
    level: float = 0.95,
) -> Frame:
    """Welch's unequal-variance t test from summary statistics, row by row.

    Parameters
    ----------
    frame : polars.DataFrame or polars.LazyFrame
        One row per comparison.
    mean1, sd1, n1, mean2, sd2, n2 : str
        Column names of the two samples' means, standard deviations and sizes.
    level : float
        Confidence level of the interval for ``mean2 - mean1``.

    Returns
    -------
    Same kind as ``frame`` with ``diff``, ``diff_lo``, ``diff_hi``, ``t``,
    ``df`` (Welch–Satterthwaite) and ``p_value`` (two-sided) added.

    Examples
    --------
    >>> t = pl.DataFrame({"m1": [10.0], "s1": [2.0], "n1": [50],
    ...                   "m2": [11.0], "s2": [3.0], "n2": [40]})
    >>> out = welch_ttest(t, "m1", "s1", "n1", "m2", "s2", "n2")
    >>> round(out["t"].item(), 3), round(out["df"].item(), 1)
    (1.811, 65.1)
    """
    q = 0.5 + level / 2.0

    def _fn(m1, s1, k1, m2, s2, k2):
        v1, v2 = s1 * s1 / k1, s2 * s2 / k2
        se = np.sqrt(v1 + v2)
        with np.errstate(divide="ignore", invalid="ignore"):
            df = (v1 + v2) ** 2 / (v1 * v1 / (k1 - 1) + v2 * v2 / (k2 - 1))
            t = (m2 - m1) / se
        tq = t_ppf(q, df)
        return {
            "diff": m2 - m1,
            "diff_lo": m2 - m1 - tq * se,
            "diff_hi": m2 - m1 + tq * se,
            "t": t,
            "df": df,
            "p_value": 2 * t_sf(np.abs(t), df),
        }

    return _add_numpy_columns(frame, _fn, [mean1, sd1, n1, mean2, sd2, n2])


def holm(
    frame: Frame,
    p_value: str = "p_value",
    alpha: float = 0.05,
    by: str | list[str] | None = None,
) -> Frame:
    """Holm–Bonferroni step-down correction of a column of p-values.

    Parameters
    ----------
    frame : polars.DataFrame or polars.LazyFrame
        One row per test.
    p_value : str
        Column of raw p-values.
    alpha : float
        Family-wise error rate.
    by : str or list of str, optional
        Correct separately within each group (each group is one family).

    Returns
    -------
    Same kind as ``frame`` with ``p_holm`` (adjusted p-value, monotone, capped
    at 1) and ``reject`` (``p_holm <= alpha``) added. Row order is kept.

    Examples
    --------
    >>> t = pl.DataFrame({"p_value": [0.01, 0.04, 0.03, 0.005]})
    >>> holm(t)["p_holm"].to_list()
    [0.03, 0.06, 0.06, 0.02]
    """
    from analysis._common import as_list

    groups = as_list(by)
    lf = as_lazy(frame).with_row_index("__row")
    over = groups if groups else None
    m = pl.len().over(over) if over else pl.len()
    rank = pl.col(p_value).rank("ordinal").over(over) if over else pl.col(p_value).rank("ordinal")
    lf = lf.with_columns((pl.col(p_value) * (m - rank + 1)).alias("__step"), rank.alias("__rank"))
    lf = lf.sort([*groups, "__rank"])
    cummax = pl.col("__step").cum_max()
    lf = lf.with_columns(
        (cummax.over(over) if over else cummax).clip(upper_bound=1.0).alias("p_holm")
    )
    lf = (
        lf.with_columns((pl.col("p_holm") <= alpha).alias("reject"))
        .sort("__row")
        .drop("__row", "__step", "__rank")
    )
    return like(lf, frame)


def required_games(
    frame: Frame,
    half_width: float,
    estimate: str = "win_share",
    sd: str | None = None,
    level: float = 0.95,
) -> Frame:
    """Games needed for a confidence interval of the chosen half-width.

    For a proportion (``sd`` is None) uses ``n = z² p(1-p) / h²`` with the
    current estimate ``p`` (the Wilson interval has the same width to first
    order); for a mean uses ``n = (z sd / h)²``. One game gives one
    observation per row of a per-seat or per-strategy table, so ``n`` is games.

    Parameters
    ----------
    frame : polars.DataFrame or polars.LazyFrame
        A table of estimates (e.g. the output of ``seat_advantage``).
    half_width : float
        Target half-width of the interval, in the estimate's units.
    estimate : str
        Column holding the proportion (ignored when ``sd`` is given).
    sd : str, optional
        Column of standard deviations, for a mean.
    level : float
        Confidence level.

    Returns
    -------
    Same kind as ``frame`` with ``games_needed`` (int64, rounded up) added.

    Examples
    --------
    >>> t = pl.DataFrame({"win_share": [0.5]})
    >>> required_games(t, 0.01)["games_needed"].item()
    9604
    """
    if half_width <= 0:
        raise ValueError(f"half_width must be positive, got {half_width}")
    z = z_value(level)
    if sd is None:
        p = pl.col(estimate).cast(pl.Float64)
        var = p * (1.0 - p)
    else:
        var = pl.col(sd).cast(pl.Float64) ** 2
    need = (var * (z * z / (half_width * half_width)) - 1e-9).ceil().cast(pl.Int64)
    return like(as_lazy(frame).with_columns(need.alias("games_needed")), frame)


@dataclass(frozen=True)
class LogitFit:
    """Result of :func:`logistic_fit`.

    Attributes
    ----------
    coef, se : ndarray
        Coefficients (log-odds) and their standard errors.
    cov : ndarray
        Covariance matrix used for ``se``.
    converged : bool
        Whether IRLS met the tolerance.
    separated : bool
        True when the maximum-likelihood fit diverged (complete or
        quasi-complete separation); the coefficients are then Firth's.
    method : str
        ``"mle"`` or ``"firth"``.
    n_iter : int
        Iterations used by the returned fit.
    """

    coef: np.ndarray
    se: np.ndarray
    cov: np.ndarray
    converged: bool
    separated: bool
    method: str
    n_iter: int


#: Rows per block of a logistic fit: the design is used a block at a time, so a
#: fit on 10^7 player rows needs blocks of ~13 MB, not a 2 GB float matrix. A
#: fit with fewer rows runs as one block (the arithmetic of an unblocked fit).
BLOCK_ROWS = 1 << 18


class Design:
    """A logistic-fit design matrix given block by block.

    ``Design(raw, center=mu, scale=sd, intercept=True)`` stands for
    ``column_stack([ones, (raw - mu) / sd])`` without building it: ``raw`` may
    stay in its compact integer type; :meth:`rows` makes one float block.
    """

    def __init__(self, raw, center=None, scale=None, intercept=True):
        self.raw = raw
        self.center, self.scale, self.intercept = center, scale, intercept
        self.shape = (raw.shape[0], raw.shape[1] + int(intercept))

    def rows(self, i, j):
        block = self.raw[i:j].astype(float)
        if self.center is not None:
            block = block - self.center
        if self.scale is not None:
            block = block / self.scale
        return np.column_stack([np.ones(j - i), block]) if self.intercept else block


def _blocks(n, size):
    return [(i, min(i + size, n)) for i in range(0, n, size)] or [(0, 0)]


#: A :class:`Design` whose float blocks take at most this many bytes keeps them between IRLS
#: iterations (a 10^6-game category fit: 144 MB) instead of rebuilding them every pass.
KEEP_BYTES = 256 << 20


class _Rows:
    """Blocks of a design (an ndarray or a :class:`Design`); built once when they fit in ``KEEP_BYTES``."""

    def __init__(self, X, size):
        self.X, self.blocks = X, _blocks(X.shape[0], size)
        self._only = X if isinstance(X, np.ndarray) else None
        if self._only is None and len(self.blocks) == 1:
            self._only = X.rows(0, X.shape[0])
        self._kept = None
        if self._only is None and X.shape[0] * X.shape[1] * 8 <= KEEP_BYTES:
            self._kept = [X.rows(i, j) for i, j in self.blocks]

    def __iter__(self):
        for b, (i, j) in enumerate(self.blocks):
            if self._only is not None:
                yield i, j, self._only[i:j] if len(self.blocks) > 1 else self._only
            elif self._kept is not None:
                yield i, j, self._kept[b]
            else:
                yield i, j, self.X.rows(i, j)


def cluster_codes(groups):
    """``(codes, g)``: cluster labels as integers 0..g-1, and the number of clusters g.

    Labels whose equal values stand together in ascending order (a table's game
    key, rows game-major) are numbered in one pass; any other labels go through
    ``np.unique`` (a sort). Either way the codes follow the labels' sorted order.
    """
    groups = np.asarray(groups)
    if groups.size and groups.dtype.kind in "iub" and bool(np.all(groups[1:] >= groups[:-1])):
        codes = np.empty(groups.size, dtype=np.int64)
        codes[0] = 0
        np.cumsum(groups[1:] != groups[:-1], out=codes[1:])
        return codes, int(codes[-1]) + 1
    codes = np.unique(groups, return_inverse=True)[1].reshape(-1)
    return codes, int(codes.max()) + 1 if codes.size else 0


def add_by_code(s, codes, values):
    """``s[codes] += values`` row by row (as ``np.add.at``), by ``np.bincount`` per column over the codes' span."""
    if not codes.size:
        return
    lo, hi = int(codes.min()), int(codes.max()) + 1
    size = codes.size // (hi - lo)
    if size * (hi - lo) == codes.size and codes[0] == lo and np.array_equal(
            codes, np.repeat(np.arange(lo, hi, dtype=codes.dtype), size)):
        # every code one block of ``size`` rows in order (whole games): the same sums in the same order
        blocks = values.reshape(hi - lo, size, -1)
        total = blocks[:, 0].astype(float)
        for r in range(1, size):
            total = total + blocks[:, r]
        s[lo:hi] += total
        return
    for c in range(values.shape[1]):
        s[lo:hi, c] += np.bincount(codes - lo, weights=values[:, c], minlength=hi - lo)


def _w(w_obs, i, j):
    return np.ones(j - i) if w_obs is None else w_obs[i:j]


def _info(rows, beta, w_obs, k):
    info = np.zeros((k, k))
    for i, j, Xb in rows:
        p = special.expit(Xb @ beta)
        w = np.clip(p * (1 - p), 1e-12, None) * _w(w_obs, i, j)
        info += Xb.T @ (Xb * w[:, None])
    return info


def _inv(info):
    try:
        return np.linalg.inv(info)
    except np.linalg.LinAlgError:
        return np.linalg.pinv(info)


def _irls(rows, y, w_obs, firth: bool, max_iter: int, tol: float):
    k = rows.X.shape[1]
    beta = np.zeros(k)
    converged = False
    it = 0
    for it in range(1, max_iter + 1):
        info = np.zeros((k, k))
        score = np.zeros(k)
        inv = _inv(_info(rows, beta, w_obs, k)) if firth else None
        for i, j, Xb in rows:
            p = special.expit(Xb @ beta)
            wo = _w(w_obs, i, j)
            w = np.clip(p * (1 - p), 1e-12, None) * wo
            info += Xb.T @ (Xb * w[:, None])
            resid = y[i:j] - p
            if firth:
                h = np.einsum("ij,jk,ik->i", Xb, inv, Xb) * w
                resid = resid + h * (0.5 - p) / np.where(wo > 0, wo, 1.0)
            score += Xb.T @ (resid * wo)
        try:
            step = np.linalg.solve(info, score)
        except np.linalg.LinAlgError:
            step = np.linalg.lstsq(info, score, rcond=None)[0]
        big = np.max(np.abs(step))
        if big > 5.0:  # damp the first steps, as in Heinze & Schemper's Firth code
            step *= 5.0 / big
        beta = beta + step
        if np.max(np.abs(step)) < tol:
            converged = True
            break
    return beta, converged, it


def logistic_fit(
    X,
    y,
    groups=None,
    weights=None,
    max_iter: int = 100,
    tol: float = 1e-8,
    firth: bool | None = None,
    block_rows: int = BLOCK_ROWS,
) -> LogitFit:
    """Logistic regression by IRLS; Firth's penalty when the data are separated.

    ``y`` may be fractional in [0, 1] (a fractional logit, e.g. win shares
    with ties): the estimating equations are the binomial ones, and the
    standard errors are then best taken robust (``groups``).

    The fit uses all rows, a block of ``block_rows`` at a time (information
    matrix and score are sums over blocks), so its memory does not grow with
    the design beyond the arrays given.

    Parameters
    ----------
    X : array_like, shape (n, k), or Design
        Design matrix; include a column of ones for an intercept. A
        :class:`Design` gives it block by block from compact data.
    y : array_like, shape (n,)
        Outcomes in [0, 1].
    groups : array_like, shape (n,), optional
        Cluster labels (e.g. the game of each player row). When given, the
        standard errors are cluster-robust (sandwich, with the G/(G-1) small
        sample factor) — rows of one game are not independent, since exactly
        one share of win is spread over them. Ignored for a Firth fit
        (model-based standard errors are used there).
    weights : array_like, shape (n,), optional
        Observation weights.
    max_iter, tol : int, float
        IRLS controls.
    firth : bool, optional
        Force (True) or forbid (False) Firth's penalty. By default the
        maximum-likelihood fit is tried first and Firth's is used when it
        diverges (fitted linear predictor beyond ±30, or no convergence).
    block_rows : int
        Rows per block.

    Returns
    -------
    LogitFit

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> x = rng.normal(size=2000)
    >>> y = (rng.random(2000) < 1 / (1 + np.exp(-(0.5 + 1.0 * x)))).astype(float)
    >>> fit = logistic_fit(np.column_stack([np.ones_like(x), x]), y)
    >>> np.round(fit.coef, 1).tolist(), fit.method
    ([0.6, 1.0], 'mle')
    """
    if not isinstance(X, Design):
        X = np.asarray(X, dtype=float)
    y = np.asarray(y, dtype=float)
    w_obs = None if weights is None else np.asarray(weights, dtype=float)
    if len(X.shape) != 2 or X.shape[0] != y.shape[0]:
        raise ValueError(f"X must be (n, k) with n = len(y); got {X.shape} and {y.shape}")
    rows = _Rows(X, max(int(block_rows), 1))
    k = X.shape[1]
    separated = False
    if firth:
        beta, conv, it = _irls(rows, y, w_obs, True, max_iter, tol)
        method = "firth"
    else:
        beta, conv, it = _irls(rows, y, w_obs, False, max_iter, tol)
        method = "mle"
        if not conv or max(float(np.max(np.abs(Xb @ beta), initial=0.0)) for _, _, Xb in rows) > 30.0:
            separated = True
            if firth is None:
                beta, conv, it = _irls(rows, y, w_obs, True, max_iter, tol)
                method = "firth"
    bread = _inv(_info(rows, beta, w_obs, k))
    cov = bread
    if groups is not None and method == "mle":
        codes, g = cluster_codes(groups)
        s = np.zeros((g, k))
        for i, j, Xb in rows:
            p = special.expit(Xb @ beta)
            add_by_code(s, codes[i:j], Xb * ((y[i:j] - p) * _w(w_obs, i, j))[:, None])
        meat = s.T @ s * (g / max(g - 1, 1))
        cov = bread @ meat @ bread
    se = np.sqrt(np.clip(np.diag(cov), 0.0, None))
    return LogitFit(beta, se, cov, bool(conv), separated, method, int(it))


@dataclass(frozen=True)
class LinearFit:
    """Result of :func:`linear_fit`: coefficients, standard errors, covariance."""

    coef: np.ndarray
    se: np.ndarray
    cov: np.ndarray
    rank: int


def linear_fit(X, y, groups=None) -> LinearFit:
    """Least squares with cluster-robust (or classical) standard errors.

    Parameters
    ----------
    X : array_like, shape (n, k)
        Design matrix (include a column of ones for an intercept).
    y : array_like, shape (n,)
        Outcome.
    groups : array_like, shape (n,), optional
        Cluster labels (e.g. the game of each player row): the standard errors
        are then the sandwich with the G/(G-1) small-sample factor; without
        them, the classical ``s² (X'X)⁻¹``.

    Returns
    -------
    LinearFit
        ``rank`` below ``k`` says the design was rank-deficient (the
        pseudo-inverse was used; the affected coefficients are not identified).

    Examples
    --------
    >>> x = np.arange(10.0)
    >>> fit = linear_fit(np.column_stack([np.ones(10), x]), 1 + 2 * x)
    >>> np.round(fit.coef, 6).tolist(), fit.rank
    ([1.0, 2.0], 2)
    """
    X = np.asarray(X, dtype=float)
    y = np.asarray(y, dtype=float)
    if X.ndim != 2 or X.shape[0] != y.shape[0]:
        raise ValueError(f"X must be (n, k) with n = len(y); got {X.shape} and {y.shape}")
    n, k = X.shape
    xtx = X.T @ X
    rank = int(np.linalg.matrix_rank(xtx)) if k else 0
    bread = np.linalg.pinv(xtx)
    beta = bread @ (X.T @ y)
    resid = y - X @ beta
    if groups is not None:
        codes, g = cluster_codes(groups)
        s = np.zeros((g, k))
        add_by_code(s, codes, X * resid[:, None])
        cov = bread @ (s.T @ s) @ bread * (g / max(g - 1, 1))
    else:
        cov = bread * float(resid @ resid) / max(n - rank, 1)
    se = np.sqrt(np.clip(np.diag(cov), 0.0, None))
    return LinearFit(beta, se, cov, rank)


# ---------------------------------------------------------------- shares over shared seeds

@dataclass(frozen=True)
class ShareCI:
    """Result of :func:`share_interval`: a share with a design-valid interval.

    Attributes
    ----------
    estimate : float
        ``sum(values) / sum(weights)``.
    se : float
        Its standard error, cluster-robust (every cluster one unit).
    lo, hi : float
        Wilson interval on the effective sample size ``n_eff``.
    n : float
        ``sum(weights)`` (trials: games, seats or comparisons).
    n_clusters : int
        Clusters (independent units: seeds, or games when each game is its own).
    n_eff : float
        ``p(1-p) / se²``: the trials of independent 0/1 outcomes that would
        give the same precision (``n`` when the variance is 0).
    """

    estimate: float
    se: float
    lo: float
    hi: float
    n: float
    n_clusters: int
    n_eff: float


def wilson_effective_bounds(p, se, n, level: float = 0.95, df=None):
    """Wilson interval of a share ``p`` whose standard error is ``se`` (vectorised).

    The Wilson interval is taken on the effective sample size ``n_eff = p(1-p)/se²``
    (Kish's design effect), so its width follows the true variance — the
    cluster-robust one when outcomes share seeds, the observed one when ties
    make a share fractional — while keeping Wilson's behaviour near 0 and 1.
    Where ``se`` is 0 or undefined (``p`` at 0 or 1, or every trial alike) the
    plain Wilson interval on ``n`` is used (conservative). ``df`` (e.g. the
    clusters less one): the standard error is scaled by ``t_df / z`` first, so
    that a share estimated from few clusters gets Student's quantile; where
    ``df < 1`` (a single cluster: its variance cannot be estimated) there is
    **no bound**, both ends NaN — not Wilson on ``n``, which would treat the
    cluster's correlated trials as independent.

    Examples
    --------
    >>> lo, hi = wilson_effective_bounds(0.5, 0.05, 1000)   # n_eff = 100
    >>> round(float(lo), 4), round(float(hi), 4)
    (0.4038, 0.5962)
    """
    p = np.asarray(p, dtype=float)
    se = np.asarray(se, dtype=float)
    n = np.asarray(n, dtype=float)
    none = None
    if df is not None:
        q = 0.5 + level / 2.0
        df = np.asarray(df, dtype=float)
        none = ~(df >= 1)
        with np.errstate(invalid="ignore"):
            se = se * np.where(none, 1.0, t_ppf(q, np.maximum(df, 1.0)) / z_value(level))
    with np.errstate(divide="ignore", invalid="ignore"):
        n_eff = np.where((se > 0) & np.isfinite(se), p * (1.0 - p) / (se * se), n)
        n_eff = np.where((n_eff > 0) & np.isfinite(n_eff), n_eff, n)
    lo, hi = wilson_bounds(p * n_eff, n_eff, level)
    if none is not None and np.any(none):
        lo, hi = np.where(none, np.nan, lo), np.where(none, np.nan, hi)
    return lo, hi


def wilson_effective_exprs(p: str | pl.Expr, se: str | pl.Expr, n: str | pl.Expr, level: float = 0.95,
                           prefix: str = "") -> list[pl.Expr]:
    """Polars expressions of :func:`wilson_effective_bounds`: ``{prefix}lo``, ``{prefix}hi``.

    Examples
    --------
    >>> df = pl.DataFrame({"p": [0.5], "se": [0.05], "n": [1000]})
    >>> round(df.select(wilson_effective_exprs("p", "se", "n"))["hi"].item(), 4)
    0.5962
    """
    p = (pl.col(p) if isinstance(p, str) else p).cast(pl.Float64)
    se = (pl.col(se) if isinstance(se, str) else se).cast(pl.Float64)
    n = (pl.col(n) if isinstance(n, str) else n).cast(pl.Float64)
    eff = p * (1.0 - p) / (se * se)
    n_eff = pl.when(se.is_not_null() & se.is_finite() & (se > 0) & eff.is_finite() & (eff > 0)).then(eff).otherwise(n)
    return wilson_exprs(p * n_eff, n_eff, level, prefix)


def observed_share_bounds(wins, n, wins_ss=None, level: float = 0.95):
    """Interval of mean win shares ``wins / n`` from the observed variance of the per-game shares.

    ``wins`` and ``wins_ss`` are the sums of the per-game shares and of their
    squares over ``n`` independent games (arrays: one entry per seat). With
    ties (a k-way tie counts 1/k) the shares' variance is below ``p(1-p)``;
    the interval is :func:`wilson_effective_bounds` with that variance.
    Without ``wins_ss`` it is the plain Wilson interval.

    Examples
    --------
    >>> lo, hi = observed_share_bounds([50.0], 100, [50.0])       # no ties: Wilson's width (var ddof 1)
    >>> round(float(hi[0]), 4)
    0.5966
    >>> lo, hi = observed_share_bounds([50.0], 100, [40.0])       # 30 wins and 40 ties of 1/2: narrower
    >>> round(float(hi[0]), 4)
    0.5754
    """
    wins = np.asarray(wins, dtype=float)
    n = np.asarray(n, dtype=float)
    if wins_ss is None:
        return wilson_bounds(wins, n, level)
    ss = np.asarray(wins_ss, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        var = np.clip((ss - wins * wins / n) / (n - 1), 0.0, None)
        se = np.where(n > 1, np.sqrt(var / n), np.nan)
    return wilson_effective_bounds(wins / n, se, n, level)


def share_interval(values, clusters=None, weights=None, level: float = 0.95) -> ShareCI:
    """A share over observations that may share seeds: ``sum(values) / sum(weights)`` with a valid CI.

    The deterministic core of every win-share interval (issue 37): per-game win
    shares (a k-way tie for first counts 1/k), head-to-head scores, a
    strategy's wins over its seats. Observations with the same ``clusters``
    label are one unit (games played from one seed in every lineup, the rows of
    one game); units are independent. The standard error is the linearised
    ratio estimator's, cluster-robust with the ``G/(G-1)`` factor::

        R = Σv / Σw,   var(R) = G/(G-1) · Σ_g (V_g - R W_g)² / (Σw)²

    where ``V_g``, ``W_g`` are a cluster's sums. Without ``clusters`` each
    observation is its own cluster: the *observed* variance of the values,
    which with ties is below Wilson's ``p(1-p)``. The interval is
    :func:`wilson_effective_bounds` (with clusters, on Student's quantile with
    ``G - 1`` degrees of freedom: the same as z from a few hundred clusters).
    With clusters and ``G < 2`` (every observation from one seed, e.g. a
    one-round ladder) the variance cannot be estimated: ``lo``, ``hi`` and
    ``n_eff`` are NaN (no bound), where a Wilson interval on the observations
    would claim a precision the data do not hold.

    Parameters
    ----------
    values : array_like
        Per observation, the numerator (a win share in [0, 1] per game, or the
        wins over several seats).
    clusters : array_like, optional
        Per observation, the label of its independent unit (e.g. ``game_index``
        in a comparison whose lineups all use one run seed).
    weights : array_like, optional
        Per observation, the trials it stands for (default 1).
    level : float
        Confidence level.

    Returns
    -------
    ShareCI

    Examples
    --------
    >>> ci = share_interval([1, 0, 1, 0], clusters=[0, 0, 1, 1])   # two seeds, each half won
    >>> ci.estimate, ci.se, ci.n_clusters
    (0.5, 0.0, 2)
    >>> round(share_interval([1, 1, 0, 0], clusters=[0, 0, 1, 1]).se, 4)
    0.5
    >>> share_interval([1, 0, 1, 1], clusters=[3, 3, 3, 3]).hi   # one seed: no bound
    nan
    """
    v = np.asarray(values, dtype=float).reshape(-1)
    w = np.ones_like(v) if weights is None else np.asarray(weights, dtype=float).reshape(-1)
    if v.shape != w.shape:
        raise ValueError(f"values and weights differ in length: {v.size} and {w.size}")
    total = float(w.sum())
    if v.size == 0 or total <= 0:
        return ShareCI(float("nan"), float("nan"), float("nan"), float("nan"), total, 0, 0.0)
    r = float(v.sum() / total)
    e = v - r * w
    if clusters is None:
        eg, g = e, v.size
    else:
        codes, g = cluster_codes(np.asarray(clusters).reshape(-1))
        eg = np.bincount(codes, weights=e, minlength=g)
    var = float(eg @ eg) * (g / max(g - 1, 1)) / (total * total)
    se = math.sqrt(max(var, 0.0))
    lo, hi = wilson_effective_bounds(r, se, total, level, df=None if clusters is None else g - 1)
    n_eff = r * (1 - r) / var if var > 0 and 0 < r < 1 else total
    if clusters is not None and g < 2:
        n_eff = float("nan")
    return ShareCI(r, se, float(lo), float(hi), total, int(g), float(n_eff))


def cluster_share_table(frame: Frame, value: str, by, cluster, weight: str | None = None,
                        level: float = 0.95, prefix: str = "") -> pl.DataFrame:
    """:func:`share_interval` per group of a table: ``sum(value) / sum(weight)`` clustered by ``cluster``.

    Parameters
    ----------
    frame : polars.DataFrame or polars.LazyFrame
        One row per observation.
    value, weight : str
        Numerator column and trials column (default: one trial a row).
    by : str or list of str
        Groups (one interval each).
    cluster : str or list of str, or None
        Columns naming a row's independent unit within its group (e.g.
        ``"game_index"`` when every run used the same seed); None: every row
        its own unit (the observed variance).
    level : float
        Confidence level.
    prefix : str
        Prefix of the output columns.

    Returns
    -------
    polars.DataFrame, one row per group (sorted): ``{prefix}n`` (Σ weight),
    ``{prefix}clusters``, ``{prefix}share``, ``{prefix}se``, ``{prefix}lo``,
    ``{prefix}hi`` (with ``cluster`` and fewer than 2 clusters in a group: NaN,
    no bound, as :func:`share_interval`).

    Examples
    --------
    >>> t = pl.DataFrame({"g": [0, 0, 1, 1], "s": ["a"] * 4, "x": [1.0, 1.0, 0.0, 0.0]})
    >>> cluster_share_table(t, "x", "s", "g")["se"].item()
    0.5
    """
    from analysis._common import as_list, ordered_sum

    keys = as_list(by)
    cl = as_list(cluster)
    v = pl.col(value).cast(pl.Float64)
    w = pl.lit(1.0) if weight is None else pl.col(weight).cast(pl.Float64)
    lf = as_lazy(frame).select(*keys, *[c for c in cl if c not in keys], v.alias("__v"), w.alias("__w"))
    if cl:
        lf = lf.group_by([*keys, *cl]).agg(ordered_sum(pl.col("__v")).alias("__v"),
                                           ordered_sum(pl.col("__w")).alias("__w"))
    agg = [pl.len().alias("__g"), ordered_sum(pl.col("__v")).alias("__sv"), ordered_sum(pl.col("__w")).alias("__sw"),
           ordered_sum(pl.col("__v") ** 2).alias("__svv"), ordered_sum(pl.col("__w") ** 2).alias("__sww"),
           ordered_sum(pl.col("__v") * pl.col("__w")).alias("__svw")]
    df = (lf.group_by(keys).agg(agg) if keys else lf.select(agg)).collect()
    if keys:
        df = df.sort(keys)
    g = df["__g"].to_numpy().astype(float)
    sv, sw = df["__sv"].to_numpy(), df["__sw"].to_numpy()
    with np.errstate(divide="ignore", invalid="ignore"):
        r = sv / sw
        ss = np.clip(df["__svv"].to_numpy() - 2 * r * df["__svw"].to_numpy() + r * r * df["__sww"].to_numpy(),
                     0.0, None)
        se = np.sqrt(ss * g / np.maximum(g - 1, 1)) / sw
    lo, hi = wilson_effective_bounds(r, se, sw, level, df=g - 1 if cl else None)
    return df.select(keys).with_columns(
        pl.Series(f"{prefix}n", sw), pl.Series(f"{prefix}clusters", g.astype(np.int64)),
        pl.Series(f"{prefix}share", r), pl.Series(f"{prefix}se", se),
        pl.Series(f"{prefix}lo", lo), pl.Series(f"{prefix}hi", hi))


def paired_differences(frame: Frame, side: str, baseline, pair, by, value: str = "value",
                       level: float = 0.95) -> pl.DataFrame:
    """Paired differences to a baseline: each ``side`` minus ``baseline`` on the units both played.

    Runs played from one seed (variants of a study, a rerun of a baseline) meet
    the same tiles in game *i*; the difference of game *i*'s values under the two
    sides has far less variance than either when the change is small (a
    score-only compensation: per-game win shares correlate 0.9, so the
    independent-samples interval is 3-4 times too wide). The interval is
    Student's t on the per-unit differences, valid whether the sides share
    seeds or not (the units are independent pairs).

    Parameters
    ----------
    frame : polars.DataFrame or LazyFrame
        Long table: ``side``, ``pair`` and ``by`` columns, and ``value``.
    side : str
        Column naming the run (e.g. the variant).
    baseline : str
        The ``side`` value subtracted.
    pair : str or list of str
        Columns identifying a unit within ``by`` (e.g. ``game_index``).
    by : str or list of str
        Groups (one difference each), e.g. ``n_players``, ``statistic``, ``item``.
    value : str
        The value per unit.
    level : float
        Confidence level.

    Returns
    -------
    polars.DataFrame, one row per (side, by...) other than the baseline:
    ``n_pairs``, ``n_side``, ``n_base`` (units of each side in the group),
    ``diff`` (mean of the paired differences), ``diff_sd``, ``diff_lo``,
    ``diff_hi``, ``p_value`` (two-sided t), ``corr`` (of the two sides' values).

    Examples
    --------
    >>> t = pl.DataFrame({"v": ["a"] * 4 + ["b"] * 4, "g": [0, 1, 2, 3] * 2,
    ...                   "s": ["x"] * 8, "value": [1.0, 2, 3, 4, 1.5, 2.4, 3.6, 4.5]})
    >>> out = paired_differences(t, "v", "a", "g", "s")
    >>> round(out["diff"].item(), 3), out["n_pairs"].item()
    (0.5, 4)
    """
    from analysis._common import as_list, ordered_mean, ordered_sd, ordered_sum

    keys, units = as_list(by), as_list(pair)
    lf = as_lazy(frame).select(pl.col(side).cast(pl.String), *keys, *units, pl.col(value).cast(pl.Float64))
    base = lf.filter(pl.col(side) == str(baseline)).select(*keys, *units, pl.col(value).alias("__b"))
    rest = lf.filter(pl.col(side) != str(baseline))
    counts = lf.group_by(side, *keys).agg(pl.len().alias("__n"))
    n_base = counts.filter(pl.col(side) == str(baseline)).select(*keys, pl.col("__n").alias("n_base"))
    d, x, y = pl.col("__d"), pl.col(value), pl.col("__b")
    out = (
        rest.join(base, on=[*keys, *units], how="inner")
        .with_columns((x - y).alias("__d"))
        .group_by(side, *keys)
        .agg(pl.len().alias("n_pairs"), ordered_mean(d).alias("diff"), ordered_sd(d).alias("diff_sd"),
             ordered_sd(x).alias("__sx"), ordered_sd(y).alias("__sy"))
        .join(counts.rename({"__n": "n_side"}), on=[side, *keys], how="left")
        .join(n_base, on=keys, how="left")
        .collect()
        .sort([side, *keys])
    )
    n = out["n_pairs"].to_numpy().astype(float)
    diff, sd = out["diff"].to_numpy(), out["diff_sd"].fill_null(np.nan).to_numpy()
    sx, sy = out["__sx"].fill_null(np.nan).to_numpy(), out["__sy"].fill_null(np.nan).to_numpy()
    with np.errstate(divide="ignore", invalid="ignore"):
        se = sd / np.sqrt(n)
        tq = np.where(n > 1, t_ppf(0.5 + level / 2.0, np.maximum(n - 1, 1)), np.nan)
        t = np.where(se > 0, diff / se, np.where(diff == 0, 0.0, np.inf))
        p = np.where(n > 1, 2 * t_sf(np.abs(t), np.maximum(n - 1, 1)), np.nan)
        corr = (sx * sx + sy * sy - sd * sd) / (2 * sx * sy)
    return out.drop("__sx", "__sy").with_columns(
        pl.Series("diff_lo", diff - tq * se), pl.Series("diff_hi", diff + tq * se), pl.Series("p_value", p),
        pl.Series("corr", corr))
