"""The size of a run, estimated up front (time and disk) from a small probe batch.

Part of the runner (``simcore.run``).
"""
import importlib
import math
import os
import shutil
import time

from simcore import _results as R
from simcore._contract import SEARCH_DEFAULTS, policy_argument, searches
from simcore._mcts import raise_if_interrupted as _raise_if_interrupted
from simcore._run_plan import BIG_RUN, SEARCH_ESTIMATE_RUN, _config
from simcore.rng import chunk_seeds

def _size(n):
    for unit in ("bytes", "KB", "MB", "GB", "TB", "PB"):
        if n < 1000 or unit == "PB":
            return f"{n:,.0f} {unit}" if unit == "bytes" else f"{n:,.1f} {unit}"
        n /= 1000


def duration(s):
    """Seconds in words ("45 s", "12 min", "2.5 h", "4 days"; "?" when not finite): the one wording of a
    duration in progress lines, estimates and reports."""
    if not math.isfinite(s):
        return "?"
    s = max(0.0, s)
    if s < 120:
        return f"{s:.0f} s"
    if s < 7200:
        return f"{s / 60:.0f} min"
    if s < 3 * 86400:
        return f"{s / 3600:.1f} h"
    return f"{s / 86400:,.0f} days"


_duration = duration


def _probe_games(plan, games=2000):
    """How many games the size probe plays: ``games``, or 2 when a seat searches."""
    searching = any(searches(s) for s in plan.strategies)
    return min(2 if searching else games, plan.games)


PROBE_ITERATIONS = 200      # a search seat's iterations a decision in the size probe


def _iterations(strategy):
    return int(strategy.get("iterations", SEARCH_DEFAULTS["iterations"]))


def _probe(plan):
    """Seconds and bytes on disk per game, from a small batch played and written to memory."""
    import io

    import pyarrow.parquet as pq

    mod = importlib.import_module(plan.module)
    n = _probe_games(plan)
    seeds = chunk_seeds(plan.seed, 0, n)
    config = _config(plan.module, plan.players, tuple(sorted(plan.variant.items())))
    # a search seat is probed at PROBE_ITERATIONS at most, and its time scaled up: the probe of a
    # search of 10^7 iterations a decision must not take hours itself
    probed = [dict(s, iterations=min(_iterations(s), PROBE_ITERATIONS)) if searches(s) else s
              for s in plan.strategies]
    full = sum(_iterations(s) for s in plan.strategies if searches(s))
    scale = full / sum(min(_iterations(s), PROBE_ITERATIONS) for s in probed if searches(s)) if full else 1
    t0 = time.perf_counter()
    out = mod.play_batch(plan.players, seeds, policies=[policy_argument(mod, s) for s in probed],
                         config=config, events=plan.events)
    _raise_if_interrupted()
    seconds = (time.perf_counter() - t0) * scale
    idx = R.index_dtype(plan.games)
    tables = [R.games_table(out["games"], 0, seeds, plan.run_id, idx),
              R.players_table(out["players"], 0, n, plan.players, [s["name"] for s in plan.strategies], idx)]
    if plan.events:
        tables.append(R.events_table(out["events"], 0, idx))
    size = 0
    for tab in tables:
        buf = io.BytesIO()
        pq.write_table(tab, buf, compression="zstd", use_dictionary=True)
        size += buf.tell()
    return seconds / n, size / n


def check_size(plan, out, workers):
    """For a run of ``BIG_RUN`` games or more: refuse it if its folder cannot fit on the disk.

    Returns a line with the estimated time and disk (``None`` for a smaller
    run), measured on a small batch. A run with a searching seat (a
    searching kind) of ``SEARCH_ESTIMATE_RUN`` games or more gets the line too: it
    is thousands of times slower a game.
    """
    searching = any(searches(s) for s in plan.strategies)
    if plan.games < (SEARCH_ESTIMATE_RUN if searching else BIG_RUN):
        return None
    per_second, per_bytes = _probe(plan)
    disk, seconds = per_bytes * plan.games, per_second * plan.games / max(1, workers)
    base = os.path.abspath(out)
    while not os.path.exists(base):
        base = os.path.dirname(base)
    free = shutil.disk_usage(base).free
    if disk > free:
        raise ValueError(f"{plan.games:,} games need about {_size(disk)} in {out} ({_size(per_bytes)} a game) "
                         f"but {_size(free)} are free there: play fewer games (or --no-events), or use "
                         f"another disk")
    return (f"simulate: {plan.games:,} games: about {_duration(seconds)} on {workers} workers and "
            f"{_size(disk)} on disk (from {_probe_games(plan):,} games played first)")
