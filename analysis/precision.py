"""Precision tools: control variates, confidence sequences, effective sample size (issue 33).

Three ways to spend expensive games (a search in every seat) carefully:

**Control variates on common seeds.** Game ``i`` of a run gets the same chance
stream whoever plays it (``simcore.rng``), so a cheap *control* agent (a
preset) played on the same game indices meets the same deals. Its per-game
outcome ``x_i`` (its seat's win share, or several columns) is correlated with
the expensive agent's ``y_i`` as far as the deal decides the result. With the
control's mean ``mu`` known from many cheap games, the estimator

    mean_i [ y_i - beta_f(i) . (x_i - m) ]

is unbiased for ``E[y]`` whatever ``beta`` is, as long as the ``beta`` used for
game ``i`` does not depend on game ``i`` itself: :func:`control_variate`
*cross-fits* it (K folds by game index; each fold's coefficient fitted on the
other folds), :class:`SequentialControl` makes it *predictable* (each chunk's
coefficient fitted on the chunks before it), which keeps the per-game terms a
martingale difference sequence for the confidence sequences below. The gain
is the variance-reduction factor ``Var(y) / Var(y - beta x) ~ 1 / (1 - rho^2)``;
the estimate is worth ``n * factor`` plain games (its **effective sample
size**, :func:`effective_n`). ``m`` is the control's mean over ``N`` cheap
games (the paired ones among them); its own noise is in the interval.

**Confidence sequences.** A ``--precision`` run looks at its interval after
every chunk and stops when it is narrow enough. A fixed-n interval checked
again and again would lose its coverage if the stop depended on the estimate;
two designs keep it:

* :func:`normal_mixture_cs`: the asymptotic confidence sequence of
  Waudby-Smith, Arnold, Wu, Ramdas and Howard (2021, "Time-uniform central
  limit theory and asymptotic confidence sequences"): Robbins' normal-mixture
  boundary with the running variance. It covers the mean at *every* sample
  size simultaneously, whatever the stopping rule (also a person who stops
  when they like what they see, or resumes with a bigger budget); it is
  tuned to be tightest at a planned ``n``; the price is width: ~1.5x the
  fixed-n interval at the planned ``n`` (2.3x the games for a half-width).
* :func:`betting_cs`: the predictable plug-in empirical-Bernstein confidence
  sequence of Waudby-Smith and Ramdas (2023, "Estimating means of bounded
  random variables by betting"), non-asymptotic for observations in a known
  range ``[lo, hi]`` (a win share is in [0, 1]); wider still.
* :func:`fixed_width_stop` (Chow and Robbins, 1965): stop at the first look
  where the fixed-n interval's half-width is below the target and report that
  interval. The stop depends on the variance only, not on the estimate, so
  the coverage is the nominal one as the target shrinks (exact for normal
  data); the tests measure it for win shares. Cheaper, but valid only for
  that rule.

All the coverage claims are checked by simulation in ``tests/test_precision.py``
(planted effects, >= 93 of 100 intervals, and a null run at the nominal rate).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from analysis.stats import norm_ppf

__all__ = ["ControlEstimate", "control_variate", "effective_n", "normal_mixture_cs",
           "normal_mixture_rho2", "betting_cs", "fixed_width_half", "fixed_width_stop",
           "SequentialControl", "mean_interval", "games_needed", "plan_games", "seat_cs", "gap_interval_cs"]

#: tuning of the normal mixture at the planned sample size (minimises the width there, alpha = 0.05)
_U_GRID = np.exp(np.linspace(math.log(0.2), math.log(200.0), 4001))


def _z(level: float) -> float:
    return float(norm_ppf(0.5 + level / 2))


def effective_n(n: int, var_plain: float, var_estimate: float) -> float:
    """Plain games an estimate is worth: ``var_plain / var_estimate`` (``var_plain`` a single game's variance).

    >>> effective_n(100, 0.25, 0.25 / 400)
    400.0
    """
    if var_estimate <= 0:
        return float("inf") if var_plain > 0 else float(n)
    return float(var_plain / var_estimate)


def mean_interval(y, level: float = 0.95) -> dict:
    """The plain mean of ``y`` with its normal ``level`` interval: ``{"mean", "se", "half", "n", "var"}``."""
    y = np.asarray(y, dtype=float)
    n = len(y)
    var = float(y.var(ddof=1)) if n > 1 else float("nan")
    se = math.sqrt(var / n) if n > 1 else float("nan")
    return {"mean": float(y.mean()) if n else float("nan"), "se": se, "half": _z(level) * se, "n": n,
            "var": var}


# ---------------------------------------------------------------- control variates

@dataclass
class ControlEstimate:
    """A control-variate estimate of ``E[y]``.

    ``mean``/``se``/``lo``/``hi``: the estimate and its ``level`` interval;
    ``plain_mean``/``plain_se``: the plain mean of the same ``n`` games;
    ``factor``: the variance-reduction factor ``plain_se^2 / se^2``;
    ``effective_n``: ``n * factor``, the plain games the estimate is worth;
    ``beta``: the coefficients (mean over the folds); ``rho2``: the share of
    ``y``'s variance the controls explain out of fold.
    """
    mean: float
    se: float
    lo: float
    hi: float
    n: int
    n_control: int
    plain_mean: float
    plain_se: float
    factor: float
    effective_n: float
    beta: np.ndarray
    rho2: float
    level: float = 0.95


def _ols(x, y):
    xc = x - x.mean(axis=0)
    yc = y - y.mean()
    a = xc.T @ xc
    b = xc.T @ yc
    # a tiny ridge: a control column constant in a fold (all ties) must not break the solve
    return np.linalg.solve(a + 1e-9 * (np.trace(a) + 1e-12) * np.eye(len(b)), b)


def control_variate(y, x, x_control=None, mu=None, folds: int = 10, level: float = 0.95) -> ControlEstimate:
    """Estimate ``E[y]`` with the controls ``x`` (same games), the coefficient cross-fitted.

    Parameters
    ----------
    y : (n,) array
        The expensive agent's per-game outcome (e.g. one seat's win share), games ``0..n-1``.
    x : (n,) or (n, k) array
        The control outcomes on the same games (same game indices of the same run seed).
    x_control : (N,) or (N, k) array, optional
        The control on games ``0..N-1`` (``N >= n``; its first ``n`` rows are ``x``): the
        control's mean ``m`` is their mean, and its noise enters the interval. Give this
        or ``mu``.
    mu : float or (k,) array, optional
        The control's exact mean, when known (simulations, tests).
    folds : int
        Cross-fitting folds; game ``i`` is in fold ``i % folds``.

    The variance (games independent):
    ``Var(z)/n + (b' S_x b + 2 Cov(z, b'x)) / N`` with ``z_i = y_i - beta_f(i)(x_i - m)``,
    ``b`` the mean coefficient and ``S_x`` the control's covariance over the ``N`` games; the
    covariance term is there because the paired games are among the ``N``.
    """
    y = np.asarray(y, dtype=float)
    x = np.asarray(x, dtype=float)
    if x.ndim == 1:
        x = x[:, None]
    n, k = x.shape
    if len(y) != n:
        raise ValueError(f"y has {len(y)} games, x {n}")
    if n < 2 * folds:
        raise ValueError(f"{n} games: too few for {folds} folds")
    if (x_control is None) == (mu is None):
        raise ValueError("give either x_control (the cheap games) or mu (the control's exact mean)")
    if x_control is not None:
        xa = np.asarray(x_control, dtype=float)
        if xa.ndim == 1:
            xa = xa[:, None]
        if len(xa) < n or xa.shape[1] != k or not np.array_equal(xa[:n], x):
            raise ValueError("x_control must start with the paired games x")
        m = xa.mean(axis=0)
        big_n = len(xa)
        sx = np.atleast_2d(np.cov(xa, rowvar=False))
    else:
        m = np.broadcast_to(np.asarray(mu, dtype=float), (k,)).copy()
        big_n = None
        sx = None
    fold = np.arange(n) % folds
    betas = np.empty((folds, k))
    z = np.empty(n)
    resid = np.empty(n)
    for f in range(folds):
        tr = fold != f
        b = _ols(x[tr], y[tr])
        betas[f] = b
        te = ~tr
        z[te] = y[te] - (x[te] - m) @ b
        # out-of-fold residual around the fold-free fit, for the explained share
        resid[te] = y[te] - y[tr].mean() - (x[te] - x[tr].mean(axis=0)) @ b
    bbar = betas.mean(axis=0)
    var = z.var(ddof=1) / n
    if big_n is not None:
        cov_zx = float(np.cov(z, x @ bbar)[0, 1])
        var += (float(bbar @ sx @ bbar) + 2 * cov_zx) / big_n
    var = max(var, 0.0)
    se = math.sqrt(var)
    vy = y.var(ddof=1)
    plain_se = math.sqrt(vy / n)
    factor = (plain_se ** 2 / var) if var > 0 else float("inf")
    zq = _z(level)
    est = float(z.mean())
    rho2 = 1.0 - float(np.mean(resid ** 2)) / vy if vy > 0 else 0.0
    return ControlEstimate(mean=est, se=se, lo=est - zq * se, hi=est + zq * se, n=n,
                           n_control=big_n if big_n is not None else 0, plain_mean=float(y.mean()),
                           plain_se=plain_se, factor=float(factor), effective_n=float(n * factor),
                           beta=bbar, rho2=rho2, level=level)


# ---------------------------------------------------------------- confidence sequences

def normal_mixture_rho2(n_planned: float, alpha: float = 0.05) -> float:
    """The mixture's ``rho^2`` that makes :func:`normal_mixture_cs` narrowest at ``n_planned`` games."""
    u = _U_GRID
    w = (1 + 1 / u) * np.log((u + 1) / alpha ** 2)
    return float(u[np.argmin(w)] / max(n_planned, 1.0))


def normal_mixture_cs(mean, var, t, level: float = 0.95, n_planned: float = 1000.0):
    """Half-width of the asymptotic (normal-mixture) confidence sequence at sample size ``t``.

    ``mean`` is unused (returned centre is the running mean); ``var`` the running
    variance of one observation; vectorised over ``t``. The bound
    ``|S_t| < sigma * sqrt((t rho2 + 1) / rho2 * log((t rho2 + 1) / alpha^2))`` holds for all
    ``t`` at once with probability ``1 - alpha`` (two-sided Robbins mixture), asymptotically with
    the running variance.

    >>> h = normal_mixture_cs(0.5, 0.25, 1000, n_planned=1000)
    >>> round(float(h / (1.96 * 0.5 / 1000 ** 0.5)), 2)   # the price of looking any time
    1.55
    """
    alpha = 1 - level
    t = np.asarray(t, dtype=float)
    r2 = normal_mixture_rho2(n_planned, alpha)
    s = t * r2 + 1
    return np.sqrt(np.asarray(var, dtype=float) * s / r2 * np.log(s / alpha ** 2)) / t


def betting_cs(x, lo: float = 0.0, hi: float = 1.0, level: float = 0.95, c: float = 0.5):
    """Predictable plug-in empirical-Bernstein confidence sequence for a mean in ``[lo, hi]``.

    Returns ``(lower, upper)``, arrays over ``t = 1..n`` (running intersection), valid at all
    ``t`` simultaneously, non-asymptotically, for observations whose conditional mean is the
    same ``mu`` (independent games; or the control-variate terms with predictable coefficients,
    rescaled into a known range). Waudby-Smith and Ramdas (2023), Theorem 2, two-sided by a
    union bound.
    """
    alpha = 1 - level
    y = (np.asarray(x, dtype=float) - lo) / (hi - lo)
    n = len(y)
    t = np.arange(1, n + 1, dtype=float)
    cs = np.cumsum(y)
    mu_hat = (0.5 + cs) / (t + 1)                         # after t observations
    mu_prev = np.concatenate([[0.5], mu_hat[:-1]])        # before observation t
    ss = np.cumsum((y - mu_hat) ** 2)
    s2_hat = (0.25 + ss) / (t + 1)
    s2_prev = np.concatenate([[0.25], s2_hat[:-1]])
    lam = np.minimum(np.sqrt(2 * math.log(2 / alpha) / (s2_prev * t * np.log1p(t))), c)
    v = 4 * (y - mu_prev) ** 2
    psi = (-np.log1p(-lam) - lam) / 4
    sl = np.cumsum(lam)
    centre = np.cumsum(lam * y) / sl
    width = (math.log(2 / alpha) + np.cumsum(v * psi)) / sl
    lower = np.maximum.accumulate(np.maximum(centre - width, 0.0))
    upper = np.minimum.accumulate(np.minimum(centre + width, 1.0))
    return lo + (hi - lo) * lower, lo + (hi - lo) * upper


def fixed_width_half(var, t, level: float = 0.95):
    """The fixed-n interval's half-width ``z * sqrt(var / t)`` (what Chow-Robbins stops on)."""
    return _z(level) * np.sqrt(np.asarray(var, dtype=float) / np.asarray(t, dtype=float))


def fixed_width_stop(halves, target: float, min_n_index: int = 0):
    """Index of the first look whose half-width is at most ``target`` (at or after ``min_n_index``), or None."""
    h = np.asarray(halves, dtype=float)
    ok = np.flatnonzero(h[min_n_index:] <= target)
    return int(ok[0]) + min_n_index if len(ok) else None


# ---------------------------------------------------------------- the sequential estimator

class SequentialControl:
    """Running estimate of one or more means with optional predictable control variates.

    Feed chunks with :meth:`add` (``y``: (n, s) outcomes, one column per estimated mean, e.g.
    per seat; ``x``: (n, s, k) controls of the same games, or None). The coefficient used for
    a chunk is fitted on the chunks before it (0 for the first), so the terms
    ``z_i = y_i - beta (x_i - m)`` have conditional mean ``E[y]``: the confidence sequence holds.

    ``m`` (``control_mean``, (s, k)) is the control's mean over ``n_control`` cheap games, fixed
    before the first chunk. With the confidence sequence its error ``|beta_bar (m - mu)|`` is
    bounded at level ``1 - alpha_control`` and added to the half-width (the rest of alpha goes to
    the sequence); with the fixed-n interval its variance ``beta_bar' S beta_bar / N`` is added.

    ``method``: ``"cs"`` (normal-mixture confidence sequence, tuned to ``n_planned``) or
    ``"fixed"`` (the fixed-n interval, for the Chow-Robbins width rule).
    """

    def __init__(self, means: int, level: float = 0.95, method: str = "cs", n_planned: float = 1000.0,
                 control_mean=None, control_cov=None, n_control: int = 0, alpha_control: float = 0.005,
                 beta_clip: float = 3.0):
        if method not in ("cs", "fixed"):
            raise ValueError(f"unknown method '{method}' (known: cs, fixed)")
        self.s = means
        self.level = level
        self.method = method
        self.n_planned = n_planned
        self.m = None if control_mean is None else np.asarray(control_mean, dtype=float).reshape(means, -1)
        self.cov = None if control_cov is None else np.asarray(control_cov, dtype=float)
        self.n_control = n_control
        self.alpha_control = alpha_control if self.m is not None else 0.0
        self.beta_clip = beta_clip
        self.ys, self.xs, self.zs, self.bs = [], [], [], []

    @property
    def n(self) -> int:
        return sum(len(y) for y in self.ys)

    def _beta(self):
        if self.m is None or not self.xs:
            return None if self.m is None else np.zeros_like(self.m)
        y = np.concatenate(self.ys)
        x = np.concatenate(self.xs)
        out = np.zeros_like(self.m)
        if len(y) < 10:
            return out
        for j in range(self.s):
            out[j] = np.clip(_ols(x[:, j, :], y[:, j]), -self.beta_clip, self.beta_clip)
        return out

    def add(self, y, x=None):
        y = np.asarray(y, dtype=float).reshape(len(y), self.s)
        if self.m is not None:
            if x is None:
                raise ValueError("this estimator has a control: give x")
            x = np.asarray(x, dtype=float).reshape(len(y), self.s, -1)
            b = self._beta()
            z = y - np.einsum("isk,sk->is", x - self.m[None], b)
            self.bs.append(np.repeat(b[None], len(y), axis=0))
            self.xs.append(x)
        else:
            z = y
        self.ys.append(y)
        self.zs.append(z)

    def summary(self) -> list:
        """Per mean: ``{"mean", "half", "lo", "hi", "n", "plain_half", "factor", "effective_n"}``."""
        y = np.concatenate(self.ys)
        z = np.concatenate(self.zs)
        n = len(z)
        alpha = 1 - self.level
        # the confidence sequence bounds the control mean's error apart (a union bound: it is fixed
        # before the first game, the sequence covers every t); the fixed-n interval adds its variance
        lvl = 1 - (alpha - self.alpha_control) if self.method == "cs" else self.level
        out = []
        for j in range(self.s):
            vz = float(z[:, j].var(ddof=1)) if n > 1 else float("nan")
            vy = float(y[:, j].var(ddof=1)) if n > 1 else float("nan")
            if self.method == "cs":
                half = float(normal_mixture_cs(None, vz, n, lvl, self.n_planned))
                plain = float(normal_mixture_cs(None, vy, n, self.level, self.n_planned))
            else:
                half = float(fixed_width_half(vz, n, lvl))
                plain = float(fixed_width_half(vy, n, self.level))
            if self.m is not None and self.n_control and self.cov is not None:
                bbar = np.concatenate(self.bs)[:, j, :].mean(axis=0)
                cj = np.atleast_2d(self.cov[j])
                var_m = max(float(bbar @ cj @ bbar), 0.0) / self.n_control
                if self.method == "cs":
                    half += _z(1 - self.alpha_control) * math.sqrt(var_m)
                else:
                    half = float(fixed_width_half(vz / n + var_m, 1, lvl))
            mean = float(z[:, j].mean())
            factor = (plain / half) ** 2 if half > 0 else float("inf")
            out.append({"mean": mean, "half": half, "lo": mean - half, "hi": mean + half, "n": n,
                        "plain_half": plain, "factor": factor, "effective_n": n * factor,
                        "var_plain": vy, "var": vz})
        return out


# ---------------------------------------------------------------- planning and the seat gap

def plan_games(precision: float, method: str = "cs", level: float = 0.95, var: float = 0.25) -> float:
    """Games a target half-width ``precision`` needs with a share's largest variance (1/4) by default:
    the tuning of the confidence sequence, fixed before any game (``2.4 x`` the fixed-n games)."""
    n = (_z(level) * math.sqrt(var) / precision) ** 2
    return n * (2.4 if method == "cs" else 1.0)


def games_needed(var: float, precision: float, method: str = "cs", level: float = 0.95,
                 n_planned: float = 1000.0, cap: float = 1e12) -> float:
    """Games at which the half-width with per-game variance ``var`` reaches ``precision``.

    For the fixed-n interval it is ``(z sd / precision)^2``; for the normal-mixture confidence
    sequence, whose width shrinks more slowly than ``1/sqrt(n)`` away from its tuning, the root of
    ``normal_mixture_cs(var, t) = precision`` (bisection in log t; ``cap`` when not reached below it).
    The progress lines' "time left" use it.

    >>> round(games_needed(0.25, 0.01, method="fixed"))
    9604
    >>> n = games_needed(0.25, 0.01, n_planned=plan_games(0.01))
    >>> round(float(normal_mixture_cs(None, 0.25, n, n_planned=plan_games(0.01))), 4)
    0.01
    """
    if not var > 0:
        return 2.0
    if method != "cs":
        return float((_z(level) / precision) ** 2 * var)
    lo, hi = 1.0, float(cap)
    if float(normal_mixture_cs(None, var, hi, level, n_planned)) > precision:
        return float(cap)
    for _ in range(80):
        mid = math.sqrt(lo * hi)
        if float(normal_mixture_cs(None, var, mid, level, n_planned)) > precision:
            lo = mid
        else:
            hi = mid
        if hi / lo < 1.0005:
            break
    return hi


def seat_cs(sums, squares, n, level: float = 0.95, method: str = "cs", n_planned: float = 1000.0):
    """Per seat ``(mean, half)`` of the win share from the sums of the per-game shares and of their squares.

    ``method="cs"``: the normal-mixture confidence sequence (valid at any stop, :func:`normal_mixture_cs`
    tuned to ``n_planned``); ``"fixed"``: the fixed-n normal interval. Arrays, one entry per seat.
    """
    sums = np.asarray(sums, dtype=float)
    squares = np.asarray(squares, dtype=float)
    mean = sums / n
    var = np.clip((squares - sums * sums / n) / max(n - 1, 1), 0.0, None)
    if method == "cs":
        half = normal_mixture_cs(None, var, n, level, n_planned)
    else:
        half = fixed_width_half(var, n, level)
    return mean, np.asarray(half, dtype=float)


def gap_interval_cs(sums, squares, n, level: float = 0.95, method: str = "cs", n_planned: float = 1000.0):
    """The largest seat gap ``max_i |share_i - 1/N|`` with a simultaneous ``level`` interval from
    :func:`seat_cs` (as ``analysis.balance.gap_interval``: seat 0 alone with 2 seats, whose shares
    add up to 1; Bonferroni over the seats with more). With ``method="cs"`` it holds at any stop.

    Returns ``(gap, lo, hi)``.
    """
    sums = np.asarray(sums, dtype=float)
    players = len(sums)
    fair = 1.0 / players
    if players == 2:
        m, h = seat_cs(sums[:1], np.asarray(squares, dtype=float)[:1], n, level, method, n_planned)
        lo = np.array([m[0] - h[0], 1.0 - m[0] - h[0]])
        hi = np.array([m[0] + h[0], 1.0 - m[0] + h[0]])
    else:
        m, h = seat_cs(sums, squares, n, 1.0 - (1.0 - level) / players, method, n_planned)
        lo, hi = m - h, m + h
    share = sums / n
    gap = float(np.max(np.abs(share - fair)))
    near = np.where(lo > fair, lo - fair, np.where(hi < fair, fair - hi, 0.0))
    far = np.maximum(np.abs(lo - fair), np.abs(hi - fair))
    return gap, float(near.max()), float(far.max())
