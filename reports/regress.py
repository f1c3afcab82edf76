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
from importlib import import_module

import numpy as np

from reports.games import has_plugin, plugin_of
from reports.regress_stats import (DEFAULT_ALPHA, DEFAULT_EFFECT_SD, DEFAULT_EFFECT_SHARE, EXACT_BELOW,  # noqa: F401
                                   POWER, _key, compare, games_needed)

FORMAT = 1
KIND = "boardlab-regress-baseline"

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
    plug = plugin_of(import_module(f"reports.games.{game}") if has_plugin(game) else None)
    for name, table, col, per_seat in plug.REGRESS_METRICS:
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
