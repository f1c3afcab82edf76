"""The statistics of ``boardlab regress``: each statistic of a rerun against its baseline, with a
CI, a test, Holm's correction and the minimum detectable effect (``reports.regress`` records and
reruns the study)."""
import math

DEFAULT_ALPHA = 0.05
DEFAULT_EFFECT_SHARE = 0.02   # win-share difference (absolute) the study should detect
DEFAULT_EFFECT_SD = 0.05      # mean difference in standard deviations of the baseline
POWER = 0.8
EXACT_BELOW = 10              # Fisher's exact test when a (rounded) cell count is below this


def _key(row):
    return f"{row['statistic']}/{row['item']}"


def _critical(alpha, m):
    """Two-sided z for Bonferroni level alpha/m (Holm's first, strictest step)."""
    from scipy import stats
    return float(stats.norm.isf(alpha / (2 * max(m, 1))))


def compare(base_rows, new_rows, alpha=DEFAULT_ALPHA, effect_share=DEFAULT_EFFECT_SHARE,
            effect_sd=DEFAULT_EFFECT_SD, power=POWER):
    """Compare two lists of statistic rows (as :func:`statistics` makes them).

    Returns a list of dicts, one per statistic of the baseline, with
    ``baseline``, ``now``, ``diff`` (now - baseline), ``diff_lo``/``diff_hi``
    (a ``1 - alpha`` interval, not adjusted), ``test`` (z, exact, welch),
    ``p_value``, ``p_holm``, ``significant``, ``mde`` (smallest change
    detected with probability ``power`` at the Holm-strictest level),
    ``effect`` (the chosen effect in the statistic's units), ``power`` (to
    detect it) and ``underpowered``. A statistic missing from ``new_rows`` is
    reported with ``test = "missing"`` and counts as significant.
    """
    import polars as pl
    from scipy import stats as sps

    from analysis.stats import holm, two_proportion_ztest, welch_ttest

    new_by_key = {_key(r): r for r in new_rows}
    m = len(base_rows)
    zc = _critical(alpha, m)
    zp = float(sps.norm.ppf(power))
    level = 1 - alpha
    out = []
    for b in base_rows:
        k = _key(b)
        r = new_by_key.get(k)
        row = {"key": k, "statistic": b["statistic"], "item": b["item"], "kind": b["kind"],
               "baseline": b["estimate"], "n_baseline": b["n"]}
        if r is None:
            row.update(now=float("nan"), n_now=0, diff=float("nan"), diff_lo=float("nan"),
                       diff_hi=float("nan"), test="missing", p_value=0.0)
            out.append(row)
            continue
        row.update(now=r["estimate"], n_now=r["n"])
        n1, n2 = float(b["n"]), float(r["n"])
        if b["kind"] == "share":
            x1, x2 = float(b["successes"]), float(r["successes"])
            t = pl.DataFrame({"x1": [x1], "n1": [n1], "x2": [x2], "n2": [n2]})
            res = two_proportion_ztest(t, "x1", "n1", "x2", "n2", level=level).row(0, named=True)
            row.update(diff=res["diff"], diff_lo=res["diff_lo"], diff_hi=res["diff_hi"], test="z",
                       p_value=float(res["p_value"]))
            k1, k2 = int(round(x1)), int(round(x2))
            if min(k1, n1 - k1, k2, n2 - k2) < EXACT_BELOW:  # small counts: the normal approximation is poor
                table = [[k1, int(n1) - k1], [k2, int(n2) - k2]]
                row.update(test="exact", p_value=float(sps.fisher_exact(table).pvalue))
            p0 = b["estimate"]
            row["var"] = max(p0 * (1 - p0), 0.0)
            se = math.sqrt(row["var"] * (1 / n1 + 1 / n2))
            effect = effect_share
        else:
            s1, s2 = float(b["sd"]), float(r["sd"])
            if s1 == 0 and s2 == 0:  # constant in both runs: any change is certain
                d = r["estimate"] - b["estimate"]
                row.update(diff=d, diff_lo=d, diff_hi=d, test="welch", p_value=1.0 if d == 0 else 0.0)
            else:
                t = pl.DataFrame({"m1": [b["estimate"]], "s1": [s1], "n1": [n1],
                                  "m2": [r["estimate"]], "s2": [s2], "n2": [n2]})
                res = welch_ttest(t, "m1", "s1", "n1", "m2", "s2", "n2", level=level).row(0, named=True)
                row.update(diff=res["diff"], diff_lo=res["diff_lo"], diff_hi=res["diff_hi"], test="welch",
                           p_value=float(res["p_value"]))
            row["var"] = s1 * s1
            se = s1 * math.sqrt(1 / n1 + 1 / n2)
            effect = effect_sd * s1
        row["mde"] = (zc + zp) * se
        row["effect"] = effect
        row["power"] = float(sps.norm.cdf(effect / se - zc)) if se > 0 else 1.0
        row["underpowered"] = bool(se > 0 and row["power"] < power)
        out.append(row)
    if out:
        frame = pl.DataFrame({"p_value": [float(r["p_value"]) for r in out]})
        adj = holm(frame, alpha=alpha)
        for r, ph, rej in zip(out, adj["p_holm"].to_list(), adj["reject"].to_list()):
            r["p_holm"] = float(ph)
            r["significant"] = bool(rej) or r["test"] == "missing"
    return out


def games_needed(row, alpha, m, effect, power=POWER):
    """Games per run (baseline and rerun of equal size) to detect ``effect`` on this statistic."""
    from scipy import stats as sps

    zc = _critical(alpha, m)
    zp = float(sps.norm.ppf(power))
    var = row.get("var", 0.0)
    if effect <= 0 or var <= 0:
        return 0
    return int(math.ceil(2 * var * (zc + zp) ** 2 / effect ** 2))


# ---------------------------------------------------------------- baseline files
