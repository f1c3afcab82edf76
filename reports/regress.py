"""``boardlab regress``: a balance regression check for CI.

A **baseline** file (JSON) records a study — game, players, strategies,
variant, seed, games — and what it measured: win share by seat, mean score by
seat and category, the game's headline figures (Hellas: quarry income, quarries
closed per game; Yamataï: rounds; Akrotiri: turns, temples built), and a sha256 digest of the full results (the ``games`` and
``players`` tables, sorted, every column's bytes).

``regress BASELINE`` reruns the study through the runner:

- same digest: the results are identical, exit 0;
- other digest: every statistic is compared with a test (two-proportion z
  test for win shares, Fisher's exact test on rounded counts when a count is
  small, Welch's t test for means), Holm-corrected over the whole family;
  exit 1 when any change is significant at ``alpha``, else exit 0 with a note
  that the results differ but not significantly. Each row also states the
  minimum detectable effect (80 % power at the Bonferroni level, Holm's first
  step), so a study too small for the chosen effect size is reported.

Since the rerun uses the same seeds, a changed engine meets the same tiles
(common random numbers); the tests treat the two samples as independent,
which is conservative for positively correlated samples.

``regress BASELINE --update`` re-records the baseline (study flags may change
it; a new file needs ``--game`` and ``--players``).

Examples
--------
>>> from reports.regress import Study, record, check  # doctest: +SKIP
>>> base = record(Study("hellas", 3, ["balanced"] * 3, {}, seed=1, games=5000))  # doctest: +SKIP
>>> check(base).exit_code  # doctest: +SKIP
0
"""
from __future__ import annotations

import datetime as _dt
import glob
import hashlib
import json
import math
import os
import tempfile
import time
from dataclasses import dataclass, field

import numpy as np

from reports.games import plugin

FORMAT = 1
KIND = "boardlab-regress-baseline"
DEFAULT_ALPHA = 0.05
DEFAULT_EFFECT_SHARE = 0.02   # win-share difference (absolute) the study should detect
DEFAULT_EFFECT_SD = 0.05      # mean difference in standard deviations of the baseline
POWER = 0.8
EXACT_BELOW = 10              # Fisher's exact test when a (rounded) cell count is below this

class BaselineError(ValueError):
    """The baseline file is missing or malformed (one-line message, exit 2)."""


# ---------------------------------------------------------------- the study

@dataclass
class Study:
    """What a baseline reruns: the arguments of ``simcore.run.simulate``."""

    game: str
    players: int
    strategies: list            # one name (or TOML path) per seat
    variant: dict = field(default_factory=dict)
    seed: int = 1
    games: int = 10_000

    def to_dict(self):
        return {"game": self.game, "players": self.players, "strategies": list(self.strategies),
                "variant": dict(self.variant), "seed": self.seed, "games": self.games}

    @classmethod
    def from_dict(cls, d, where="baseline"):
        if not isinstance(d, dict):
            raise BaselineError(f"{where}: 'study' must be an object with game, players, strategies, "
                                f"variant, seed, games")
        for key in ("game", "players", "strategies", "seed", "games"):
            if key not in d:
                raise BaselineError(f"{where}: study lacks '{key}'; re-record it with --update")
        s = d["strategies"]
        if not isinstance(s, list) or not all(isinstance(x, str) for x in s):
            raise BaselineError(f"{where}: study.strategies must be a list of strategy names, one per seat")
        for key, low, high in (("players", 1, 64), ("seed", 0, 2 ** 63 - 1), ("games", 1, 10 ** 9)):
            if isinstance(d[key], bool) or not isinstance(d[key], int) or not low <= d[key] <= high:
                raise BaselineError(f"{where}: study.{key} must be an integer {low}..{high:,}, not {d[key]!r}")
        variant = d.get("variant") or {}
        if not isinstance(variant, dict):
            raise BaselineError(f"{where}: study.variant must be an object of KEY: VALUE settings")
        return cls(game=str(d["game"]), players=d["players"], strategies=list(s),
                   variant={str(k): str(v) for k, v in variant.items()}, seed=d["seed"], games=d["games"])


@dataclass
class Outcome:
    """A finished study: tables as numpy columns plus what the runner resolved."""

    study: Study
    games: dict                 # column -> (G,) array, ordered by game_index
    players: dict               # column -> (G, P) array
    digest: str
    strategies: list            # Strategy.to_dict() per seat
    settings: dict
    wall_seconds: float


def _read_table(out, table):
    import pyarrow as pa
    import pyarrow.parquet as pq

    parts = sorted(glob.glob(os.path.join(out, table, "part-*.parquet")))
    return pa.concat_tables([pq.read_table(p) for p in parts])


def _column_bytes(arr):
    """A column's bytes in a machine-independent form (little-endian numbers, NUL-joined strings)."""
    arr = np.asarray(arr)
    if arr.dtype.kind in "OUS":
        return "\x00".join(map(str, arr.tolist())).encode()
    return np.ascontiguousarray(arr.astype(arr.dtype.newbyteorder("<"), copy=False)).tobytes()


def digest_tables(tables):
    """sha256 over tables given as ``{name: {column: 1-D array}}``, rows already sorted.

    Columns are taken in name order, each as name, dtype and bytes, so the
    digest does not depend on column order, chunking or Parquet encoding.
    """
    h = hashlib.sha256()
    for name in sorted(tables):
        cols = tables[name]
        h.update(f"table {name} rows {len(next(iter(cols.values()))) if cols else 0}\n".encode())
        for col in sorted(cols):
            arr = np.asarray(cols[col])
            h.update(f"{col}:{arr.dtype.str.lstrip('<>|=')}\n".encode())
            h.update(_column_bytes(arr))
    return h.hexdigest()


def _as_columns(table, sort_keys, drop=()):
    """An Arrow table sorted by ``sort_keys`` as ``{column: numpy array}``."""
    table = table.sort_by([(k, "ascending") for k in sort_keys])
    out = {}
    for name in table.column_names:
        if name in drop:
            continue
        col = table.column(name)
        try:
            out[name] = col.to_numpy()
        except Exception:
            out[name] = np.asarray(col.to_pylist(), dtype=object)
    return out


def run_study(study, workers=1):
    """Play ``study`` through the runner in a temporary folder; return an :class:`Outcome`.

    The results do not depend on ``workers`` (the runner's seeding is per game).
    """
    import strategies
    from simcore import run as simrun

    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="boardlab-regress-") as tmp:
        out = os.path.join(tmp, "run")
        result = simrun.simulate(study.game, players=study.players, games=study.games, seed=study.seed,
                                 out=out, strategies=strategies.resolve_seats(
                                     study.game, study.players, seat_strategies=list(study.strategies)),
                                 variant=dict(study.variant),
                                 workers=workers, events=False, progress=False)
        from simcore._check import check_folder
        problems, _ = check_folder(out)          # every part the one the runner listed
        if problems:
            raise ValueError(f"regress: {problems[0]}")
        games_t = _read_table(out, "games")
        players_t = _read_table(out, "players")
    wall = time.perf_counter() - t0
    # run_id digests the spec (strategy descriptions included), not the results
    games = _as_columns(games_t, ["game_index"], drop=("run_id",))
    players_long = _as_columns(players_t, ["game_index", "seat"])
    digest = digest_tables({"games": games, "players": players_long})
    G, P = study.games, study.players
    players = {k: v.reshape(G, P) for k, v in players_long.items() if k not in ("game_index", "seat")}
    plan = result.plan
    from simcore.run import _jsonable
    return Outcome(study=study, games=games, players=players, digest=digest,
                   strategies=[_jsonable(s) for s in plan.strategies],
                   settings=_jsonable(plan.settings), wall_seconds=wall)


# ---------------------------------------------------------------- statistics

def _mean_row(statistic, item, values):
    v = np.asarray(values, dtype=np.float64)
    n = int(v.size)
    return {"statistic": statistic, "item": item, "kind": "mean", "n": n,
            "estimate": float(v.mean()) if n else float("nan"),
            "sd": float(v.std(ddof=1)) if n > 1 else 0.0}


def statistics(game, games, players, categories=None):
    """The statistics a baseline records, as a list of rows.

    Parameters
    ----------
    game : str
        Game name (its report plug-in's ``REGRESS_METRICS`` are checked too).
    games : dict
        ``{column: (G,) array}`` (the runner's games table, or ``play_batch``'s "games").
    players : dict
        ``{column: (G, P) array}`` (``play_batch``'s "players").
    categories : sequence of str, optional
        Score columns (default: the game's ``SCORE_CATEGORIES`` plus ``total``
        when present in ``players``).

    Returns
    -------
    list of dict
        ``statistic``, ``item``, ``kind`` ("share" or "mean"), ``n``,
        ``estimate``, ``sd`` and, for a share, ``successes`` (summed win
        shares: a k-way tie counts 1/k).
    """
    ws = np.asarray(players["win_share"], dtype=np.float64)
    G, P = ws.shape
    rows = []
    for seat in range(P):
        x = float(ws[:, seat].sum())
        rows.append({"statistic": "win_share", "item": f"seat {seat}", "kind": "share", "n": int(G),
                     "estimate": x / G if G else float("nan"), "sd": float(ws[:, seat].std(ddof=1)) if G > 1 else 0.0,
                     "successes": x})
    if categories is None:
        categories = _score_categories(game, players)
    for cat in categories:
        for seat in range(P):
            rows.append(_mean_row(f"score.{cat}", f"seat {seat}", players[cat][:, seat]))
    for name, table, col, per_seat in plugin(game).REGRESS_METRICS:
        src = players if table == "players" else games
        if col not in src:
            continue
        arr = np.asarray(src[col], dtype=np.float64)
        if per_seat:
            for seat in range(P):
                rows.append(_mean_row(name, f"seat {seat}", arr[:, seat]))
        else:
            rows.append(_mean_row(name, "game", arr.sum(axis=1) if arr.ndim == 2 else arr))
    return rows


def _score_categories(game, players):
    try:
        import simcore
        cats = list(simcore.games[game].SCORE_CATEGORIES)
    except Exception:
        cats = []
    cats = [c for c in cats if c in players]
    if "total" in players:
        cats.append("total")
    return cats


def _key(row):
    return f"{row['statistic']}/{row['item']}"


# ---------------------------------------------------------------- comparison

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

def _now():
    return _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")


def record(study, workers=1, outcome=None):
    """Run ``study`` (unless ``outcome`` is given) and return the baseline document."""
    from simcore.run import _git_commit
    import simcore

    if outcome is None:
        outcome = run_study(study, workers=workers)
    commit, dirty = _git_commit()
    return {
        "format": FORMAT,
        "kind": KIND,
        "study": study.to_dict(),
        "digest": {"algorithm": "sha256", "tables": ["games", "players"], "value": outcome.digest,
                   "note": "sorted by game_index (and seat); every column but run_id, in name order"},
        "statistics": statistics(study.game, outcome.games, outcome.players),
        "resolved": {"strategies": outcome.strategies, "settings": outcome.settings},
        "recorded": {"at": _now(), "boardlab": simcore.__version__, "git_commit": commit,
                     "git_dirty": dirty, "wall_seconds": round(outcome.wall_seconds, 2)},
    }


def write_baseline(path, doc):
    from simcore._data import write_text_atomic

    d = os.path.dirname(os.path.abspath(path))
    os.makedirs(d, exist_ok=True)
    write_text_atomic(path, json.dumps(doc, indent=1, sort_keys=False) + "\n")


def load_baseline(path):
    """Read and check a baseline file; :class:`BaselineError` with a one-line reason otherwise."""
    try:
        with open(path) as f:
            doc = json.load(f)
    except FileNotFoundError:
        raise BaselineError(f"baseline {path} not found; record one with "
                            f"'boardlab regress {path} --update --game GAME --players N'") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise BaselineError(f"baseline {path} is unreadable ({exc})") from None
    except json.JSONDecodeError as exc:
        raise BaselineError(f"baseline {path} is not valid JSON (line {exc.lineno}: {exc.msg}); "
                            f"re-record it with --update") from None
    where = f"baseline {path}"
    if not isinstance(doc, dict):
        raise BaselineError(f"{where} must hold a JSON object, not {type(doc).__name__}")
    if doc.get("kind") != KIND:
        raise BaselineError(f"{where} is not a boardlab regress baseline (no \"kind\": \"{KIND}\")")
    if doc.get("format") != FORMAT:
        raise BaselineError(f"{where} has format {doc.get('format')!r}; this boardlab reads format {FORMAT} "
                            f"(re-record it with --update)")
    Study.from_dict(doc.get("study"), where)            # (checks the study part)
    dg = doc.get("digest")
    if not isinstance(dg, dict) or not isinstance(dg.get("value"), str) or len(dg["value"]) != 64:
        raise BaselineError(f"{where}: 'digest.value' must be a sha256 hex string")
    rows = doc.get("statistics")
    if not isinstance(rows, list) or not rows:
        raise BaselineError(f"{where}: 'statistics' must be a non-empty list")
    for i, r in enumerate(rows):
        need = ("statistic", "item", "kind", "n", "estimate", "sd")
        if not isinstance(r, dict) or any(k not in r for k in need):
            raise BaselineError(f"{where}: statistics[{i}] lacks one of {', '.join(need)}")
        if r["kind"] not in ("share", "mean"):
            raise BaselineError(f"{where}: statistics[{i}] has kind {r['kind']!r} (share or mean)")
        if r["kind"] == "share" and "successes" not in r:
            raise BaselineError(f"{where}: statistics[{i}] (a share) lacks 'successes'")
        nums = [r["n"], r["estimate"], r["sd"]] + ([r["successes"]] if r["kind"] == "share" else [])
        if any(isinstance(x, bool) or not isinstance(x, (int, float)) for x in nums) or r["n"] < 1:
            raise BaselineError(f"{where}: statistics[{i}] ({r['statistic']} {r['item']}) has a non-numeric "
                                f"or empty n/estimate/sd")
        _check_row(r, f"{where}: statistics[{i}] ({r['statistic']} {r['item']})", doc["study"])
    return doc


MAX_ESTIMATE = 1e15      # a mean of points, turns or coins: the engines count them in at most 32 bits


def _check_row(r, where, study):
    """A statistic's numbers within what they can be: n a whole count of the study's rows, finite values."""
    cap = study["games"] * study["players"]
    n = r["n"]
    if not float(n).is_integer() or not 1 <= n <= cap:
        raise BaselineError(f"{where}: n must be a whole number 1..{cap:,} (the study's games x players), "
                            f"not {n!r}; re-record it with --update")
    for key in ("estimate", "sd"):
        v = r[key]
        if not math.isfinite(v) or abs(v) > MAX_ESTIMATE or (key == "sd" and v < 0):
            raise BaselineError(f"{where}: {key} must be a finite number{' >= 0' if key == 'sd' else ''} "
                                f"within 1e15, not {v!r}; re-record it with --update")
    if r["kind"] == "share":
        s = r["successes"]
        if not 0 <= r["estimate"] <= 1 or not 0 <= s <= n or abs(s / n - r["estimate"]) > 1e-9:
            raise BaselineError(f"{where}: a share needs 0 <= successes <= n and estimate = successes / n "
                                f"in [0, 1] (successes {s!r}, n {n!r}, estimate {r['estimate']!r}); "
                                f"re-record it with --update")


# ---------------------------------------------------------------- check

@dataclass
class Check:
    """The result of :func:`check`."""

    baseline: dict
    study: Study
    outcome: Outcome
    identical: bool
    rows: list
    alpha: float
    notes: list

    @property
    def significant(self):
        return [r for r in self.rows if r.get("significant")]

    @property
    def exit_code(self):
        return 1 if (not self.identical and self.significant) else 0

    @property
    def verdict(self):
        if self.identical:
            return "identical: same digest as the baseline"
        if self.significant:
            return (f"SIGNIFICANT CHANGE: {len(self.significant)} of {len(self.rows)} statistics differ "
                    f"at alpha = {self.alpha} (Holm)")
        return (f"results differ from the baseline, but no statistic changed significantly "
                f"at alpha = {self.alpha} (Holm, {len(self.rows)} statistics)")


def _differences(old, new, prefix=""):
    """Lines naming the keys whose values differ between two JSON-like dicts."""
    out = []
    for k in sorted(set(old) | set(new)):
        a, b = old.get(k), new.get(k)
        if a == b:
            continue
        if isinstance(a, dict) and isinstance(b, dict):
            out += _differences(a, b, f"{prefix}{k}.")
        else:
            out.append(f"{prefix}{k}: {json.dumps(a)} -> {json.dumps(b)}")
    return out


def check(baseline, games=None, seed=None, workers=1, alpha=DEFAULT_ALPHA,
          effect_share=DEFAULT_EFFECT_SHARE, effect_sd=DEFAULT_EFFECT_SD):
    """Rerun the baseline's study (optionally with other ``games``/``seed``) and compare."""
    if not 0 < alpha < 1:
        raise ValueError(f"--alpha must be in (0, 1), not {alpha}")
    study = Study.from_dict(baseline["study"])
    if games is not None:
        study.games = int(games)
    if seed is not None:
        study.seed = int(seed)
    outcome = run_study(study, workers=workers)
    identical = outcome.digest == baseline["digest"]["value"]
    notes = []
    rows = []
    if not identical:
        rows = compare(baseline["statistics"], statistics(study.game, outcome.games, outcome.players),
                       alpha=alpha, effect_share=effect_share, effect_sd=effect_sd)
        resolved = baseline.get("resolved") or {}
        for seat, (old, new) in enumerate(zip(resolved.get("strategies") or [], outcome.strategies)):
            diffs = _differences({k: v for k, v in old.items() if k != "description"},
                                 {k: v for k, v in new.items() if k != "description"})
            if diffs:
                notes.append(f"seat {seat} strategy {new.get('name')} changed since the baseline: "
                             + "; ".join(diffs[:6]) + (" ..." if len(diffs) > 6 else ""))
        if resolved.get("settings") is not None:
            diffs = _differences(resolved["settings"], outcome.settings)
            if diffs:
                notes.append("engine settings changed since the baseline: " + "; ".join(diffs))
        base = Study.from_dict(baseline["study"])
        if (study.games, study.seed) != (base.games, base.seed):
            notes.append(f"rerun with games={study.games}, seed={study.seed} "
                         f"(baseline: games={base.games}, seed={base.seed}): the digest cannot match")
        under = [r for r in rows if r.get("underpowered")]
        if under:
            worst = max(under, key=lambda r: games_needed(r, alpha, len(rows), r["effect"]))
            notes.append(f"study too small for the chosen effect on {len(under)} statistics "
                         f"(win share {effect_share:g}, means {effect_sd:g} sd, power {POWER:.0%}): "
                         f"e.g. {worst['key']} detects only changes >= {worst['mde']:.4g}; "
                         f"about {games_needed(worst, alpha, len(rows), worst['effect']):,} games needed "
                         f"(baseline and rerun of that size)")
    return Check(baseline=baseline, study=study, outcome=outcome, identical=identical, rows=rows,
                 alpha=alpha, notes=notes)


# ---------------------------------------------------------------- output

def _fmt(x, kind):
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "-"
    return f"{x:.4f}" if kind == "share" else f"{x:.3f}"


def _p(p):
    return "<1e-4" if p < 1e-4 else f"{p:.4f}"


def _table_rows(res):
    rows = []
    for r in res.rows:
        k = r["kind"]
        ci = f"[{_fmt(r['diff_lo'], k)}, {_fmt(r['diff_hi'], k)}]"
        verdict = "CHANGED" if r["significant"] else "ok"
        if r.get("underpowered") and not r["significant"]:  # "ok" may only mean "too few games to tell"
            verdict += " (low power)"
        rows.append([r["statistic"], r["item"], _fmt(r["baseline"], k), _fmt(r["now"], k),
                     _fmt(r["diff"], k), ci, r["test"], _p(r["p_holm"]),
                     _fmt(r.get("mde", float("nan")), k), verdict])
    return rows


HEADER = ["statistic", "item", "baseline", "now", "difference", "CI", "test", "p (Holm)", "MDE", "verdict"]


def _header_lines(res):
    s = res.study
    strat = ",".join(s.strategies)
    variant = " ".join(f"{k}={v}" for k, v in s.variant.items()) or "default rules"
    base = res.baseline
    return [f"study    {s.game}, {s.players} players, {strat}, {variant}, seed {s.seed}, {s.games:,} games",
            f"baseline recorded {base.get('recorded', {}).get('at', '?')} at commit "
            f"{str(base.get('recorded', {}).get('git_commit') or '?')[:10]}; "
            f"digest {base['digest']['value'][:16]}",
            f"now      digest {res.outcome.digest[:16]}, rerun in {res.outcome.wall_seconds:.1f} s"]


def format_text(res):
    """The check as a plain-text table."""
    lines = _header_lines(res)
    if res.rows:
        head = list(HEADER)
        head[5] = f"{1 - res.alpha:.0%} CI"
        table = [head] + _table_rows(res)
        widths = [max(len(str(r[i])) for r in table) for i in range(len(head))]
        lines.append("")
        for j, r in enumerate(table):
            lines.append("  ".join(str(c).ljust(w) if i < 2 or i == len(head) - 1 else str(c).rjust(w)
                                   for i, (c, w) in enumerate(zip(r, widths))).rstrip())
        lines.append("")
        lines.append("difference = now - baseline; CI unadjusted; p Holm-adjusted over all statistics; "
                     "MDE = smallest change detected with 80% power")
    lines += [f"note: {n}" for n in res.notes]
    lines.append(res.verdict)
    return "\n".join(lines)


def format_markdown(res):
    """The check as Markdown (a CI step summary or a PR comment)."""
    icon = "✅" if res.exit_code == 0 else "❌"
    lines = [f"### {icon} boardlab regress: {res.verdict}", ""]
    lines += [f"- {ln}" for ln in _header_lines(res)]
    lines += [f"- note: {n}" for n in res.notes]
    if res.rows:
        head = list(HEADER)
        head[5] = f"{1 - res.alpha:.0%} CI"
        lines += ["", "| " + " | ".join(head) + " |",
                  "|" + "|".join("---" if i < 2 else "---:" for i in range(len(head) - 1)) + "|---|"]
        for r in _table_rows(res):
            if r[-1].startswith("CHANGED"):
                r[-1] = f"**{r[-1]}**"
            lines.append("| " + " | ".join(r) + " |")
        lines += ["", "_difference = now − baseline; CI unadjusted; p Holm-adjusted over all statistics; "
                      "MDE = smallest change detected with 80 % power._"]
    return "\n".join(lines) + "\n"


def format_record(doc, path):
    s = Study.from_dict(doc["study"])
    lines = [f"recorded {path}: {s.game}, {s.players} players, {','.join(s.strategies)}, "
             f"{' '.join(f'{k}={v}' for k, v in s.variant.items()) or 'default rules'}, seed {s.seed}, "
             f"{s.games:,} games in {doc['recorded']['wall_seconds']} s",
             f"digest {doc['digest']['value']}"]
    for r in doc["statistics"]:
        if r["statistic"] in ("win_share", "score.total") or not r["statistic"].startswith("score."):
            lines.append(f"  {r['statistic']:<24}{r['item']:<8}{r['estimate']:>10.4f}")
    return "\n".join(lines)


# ---------------------------------------------------------------- command line

def add_parser(sub):
    """Declare ``boardlab regress`` on the CLI's subparsers."""
    from reports._args import _positive_int, _seed

    p = sub.add_parser("regress", help="balance regression check against a recorded baseline",
                       description="Rerun the study recorded in BASELINE and compare: exit 0 when the results "
                                   "are identical or no statistic changed significantly, 1 when one did "
                                   "(Holm-corrected), 2 on a malformed baseline. --update re-records it.")
    p.add_argument("baseline", help="baseline JSON file, e.g. baselines/hellas-3p.json")
    p.add_argument("--update", action="store_true",
                   help="re-record the baseline (a new file needs --game and --players)")
    p.add_argument("--alpha", type=float, default=DEFAULT_ALPHA,
                   help=f"family-wise significance level (Holm; default {DEFAULT_ALPHA})")
    p.add_argument("--games", type=_positive_int, default=None, help="games of the rerun (default: the baseline's)")
    p.add_argument("--seed", type=_seed, default=None, help="run seed of the rerun (default: the baseline's)")
    p.add_argument("--effect-share", type=float, default=DEFAULT_EFFECT_SHARE,
                   help=f"win-share change the study should detect (default {DEFAULT_EFFECT_SHARE})")
    p.add_argument("--effect-sd", type=float, default=DEFAULT_EFFECT_SD,
                   help=f"change of a mean, in baseline standard deviations, the study should detect "
                        f"(default {DEFAULT_EFFECT_SD})")
    p.add_argument("--workers", type=_positive_int, default=1, help="runner pool size (default 1)")
    p.add_argument("--md", default=None, metavar="FILE", help="also write the result as Markdown")
    p.add_argument("--json", default=None, metavar="FILE", help="also write the comparison rows as JSON")
    g = p.add_argument_group("study (with --update)")
    g.add_argument("--game", default=None)
    g.add_argument("--players", type=_positive_int, default=None)
    g.add_argument("--strategy", default=None, help="strategy for every seat")
    g.add_argument("--seat-strategies", default=None, help="comma-separated strategy per seat")
    g.add_argument("--variant", action="append", default=None, metavar="KEY=VALUE", help="engine setting, repeatable")
    p.set_defaults(func=cmd_regress, resumes=False)     # its run folder is temporary


def _study_for_update(args):
    from simcore.run import parse_variant

    study = None
    if os.path.exists(args.baseline):
        try:
            study = Study.from_dict(load_baseline(args.baseline)["study"])
        except BaselineError:
            study = None  # a malformed file is simply replaced
    if study is None:
        if not args.game or not args.players:
            raise ValueError(f"{args.baseline} holds no baseline yet: give --game and --players "
                             f"(and --strategy, --variant, --seed, --games) to record one")
        study = Study(game=args.game, players=args.players, strategies=["random"] * args.players)
    if args.game:
        study.game = args.game
    if args.players:
        if args.players != study.players and not (args.strategy or args.seat_strategies):
            study.strategies = [study.strategies[0]] * args.players
        study.players = args.players
    if args.strategy:
        study.strategies = [args.strategy] * study.players
    if args.seat_strategies:
        from strategies import split_names
        study.strategies = split_names(args.seat_strategies)
    if args.variant is not None:
        study.variant = parse_variant(args.variant)
    if args.seed is not None:
        study.seed = args.seed
    if args.games is not None:
        study.games = args.games
    return study


def cmd_regress(args):
    from reports._args import check_out_file, seat_strategies

    seat_strategies(args)                      # --strategy and --seat-strategies together: refused
    for flag in ("md", "json"):
        if getattr(args, flag):
            check_out_file(getattr(args, flag), f"--{flag}")
    if os.path.isdir(args.baseline):
        raise ValueError(f"BASELINE {args.baseline} is a folder, not a baseline JSON file")
    if not 0 < args.alpha < 1:
        raise ValueError(f"--alpha must be between 0 and 1, not {args.alpha}")
    if args.update:
        study = _study_for_update(args)
        doc = record(study, workers=args.workers)
        write_baseline(args.baseline, doc)
        print(format_record(doc, args.baseline))
        return 0
    for flag in ("game", "players", "strategy", "seat_strategies", "variant"):
        if getattr(args, flag):
            raise ValueError(f"--{flag.replace('_', '-')} changes the study: use it with --update "
                             f"(a check reruns the baseline's study; --games and --seed may vary)")
    for name, value, low, high in (("--effect-share", args.effect_share, 1e-4, 1.0),
                                   ("--effect-sd", args.effect_sd, 1e-3, 100.0)):
        if not low <= value <= high:
            raise ValueError(f"{name} must be {low:g}..{high:g}, not {value!r}")
    baseline = load_baseline(args.baseline)
    try:
        res = check(baseline, games=args.games, seed=args.seed, workers=args.workers, alpha=args.alpha,
                    effect_share=args.effect_share, effect_sd=args.effect_sd)
    except BaselineError:
        raise
    except ValueError as exc:        # its study no longer runs (a strategy or setting gone): name the file
        raise BaselineError(f"baseline {args.baseline}: {exc}") from None
    print(format_text(res))
    from simcore._data import write_text_atomic
    if args.md:
        write_text_atomic(args.md, format_markdown(res))
    if args.json:
        write_text_atomic(args.json, json.dumps(
            {"verdict": res.verdict, "exit_code": res.exit_code, "identical": res.identical,
             "digest": res.outcome.digest, "study": res.study.to_dict(), "notes": res.notes,
             "rows": res.rows}, indent=1))
    return res.exit_code
