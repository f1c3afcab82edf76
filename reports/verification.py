"""The games of ``boardlab balance``: the search's blocks and the verification on fresh seeds, fixed
or sequential (``--precision``, a time budget; issue 33). ``reports.balance`` searches and reports.

Games are played in this process through the engine's batch kernel (``play_batch``, which releases
the GIL per game) on ``workers`` threads; game ``i`` of a block always has the seed of game index
``i``, so every result is the same for any worker count.
"""
from __future__ import annotations

import math
import os
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from simcore._run_size import duration as _duration

#: game index of the first verification game (the search starts at 0)
VERIFY_START = 1 << 31
#: a verification slice adds at most this share of the games so far
GROWTH = 0.25
#: a thread's job lasts about this long (seconds) once the speed is known: a signal waits for the jobs
#: running, never for the queue (SIGTERM during 2,000-game blocks of a 26 ms strategy waited minutes)
PIECE_SECONDS = 1.0
#: a time budget without a target: a verification slice lasts about this long (seconds)
SLICE_SECONDS = 2.0
#: games a job before the speed is known
FIRST_PIECE = 64
#: a time budget: the search's first round takes at most this share of the search's time
BLOCK_SHARE = 0.05
MAX_BLOCK, MIN_BLOCK = 2_000, 200   # games a search block, for a strategy that does not search
MIN_TIMED_BLOCK = 20                # ... and with a time budget (a slow strategy, a short budget)


def _vec(v):
    return "(" + ", ".join(str(x) for x in v) + ")"


class Player:
    """Plays blocks of games in this process, on ``workers`` threads (the kernels release the GIL)."""

    def __init__(self, p, workers=None):
        import simcore
        from simcore._contract import policy_argument

        self.p = p
        self.mod = simcore.games[p["game"]]
        self.policies = [policy_argument(self.mod, p["strategy_dict"])] * p["players"]
        if workers is None:
            workers = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
        self.workers = max(1, int(workers))
        self.pool = ThreadPoolExecutor(self.workers) if self.workers > 1 else None
        self._configs = {}
        self.games = 0
        self.rate = None        # games a second a thread, measured on the calls so far

    def close(self):
        """Stop the threads: the jobs running end, the queued ones are dropped (an interrupt does not
        wait for them)."""
        if self.pool is not None:
            self.pool.shutdown(wait=True, cancel_futures=True)

    def config(self, vector):
        if vector not in self._configs:
            total = [b + c for b, c in zip(self.p["base"], vector)]
            self._configs[vector] = self.mod.make_config(self.p["players"],
                                                         **{**self.p["variant"], self.p["knob"]: total})
        return self._configs[vector]

    def _one(self, job):
        vector, start, stop = job
        from simcore.rng import chunk_seeds

        seeds = chunk_seeds(self.p["seed"], start, stop)
        out = self.mod.play_batch(self.p["players"], seeds, self.policies, config=self.config(vector),
                                  events=False)
        return np.asarray(out["players"]["win_share"], dtype=np.float64)

    def games_of(self, ranges):
        """Per-game win shares of ``[(vector, start, stop)]`` (game indices), one array per range."""
        piece = max(1, min(1_000, math.ceil(max(stop - start for _, start, stop in ranges) / 2)))
        # the split never changes a result (game i has the seed of index i), only how long a job runs
        piece = min(piece, FIRST_PIECE if self.rate is None else max(1, int(self.rate * PIECE_SECONDS)))
        t = time.perf_counter()
        jobs, owner = [], []
        for k, (v, start, stop) in enumerate(ranges):
            for a in range(start, stop, piece):
                jobs.append((v, a, min(stop, a + piece)))
                owner.append(k)
        results = list(self.pool.map(self._one, jobs)) if self.pool else [self._one(j) for j in jobs]
        out = [[] for _ in ranges]
        for k, r in zip(owner, results):
            out[k].append(r)
        played = sum(stop - start for _, start, stop in ranges)
        self.games += played
        dt = time.perf_counter() - t
        if dt > 0.05:           # too short a call says nothing about the speed
            self.rate = played / (dt * min(self.workers, len(jobs)))
        return [np.concatenate(parts) for parts in out]

    def block_for(self, p, seconds, candidates):
        """Games a search block for a *time* budget: the first round (``candidates`` blocks) takes at
        most ``BLOCK_SHARE`` of the search's ``seconds`` at this strategy's speed, measured on a few
        games of the uncompensated game first (their results are not kept). Within the usual bounds."""
        n, dt = 8 * self.workers, 0.0
        while True:
            t = time.perf_counter()
            self.games_of([((0,) * p["players"], 0, n)])
            dt = time.perf_counter() - t
            if dt > 0.2 or n >= 20_000:
                break
            n *= 10
        rate = n / max(dt, 1e-9)
        return int(min(MAX_BLOCK, max(MIN_TIMED_BLOCK, BLOCK_SHARE * seconds * rate / max(1, candidates))))

    def clock(self, search, deadline):
        """Stop ``search`` at ``deadline`` (a ``time.perf_counter`` value): after each of its rounds its
        budget becomes the games played plus those the time left allows at the speed so far."""
        self._timed = (search, deadline)

    def blocks(self, jobs):
        """``Search``'s ``play``: ``[(vector, block)]`` -> per-game win shares of each block."""
        b = self.p["block"]
        t = time.perf_counter()
        out = self.games_of([(v, blk * b, (blk + 1) * b) for v, blk in jobs])
        timed = getattr(self, "_timed", None)
        if timed is not None:
            search, deadline = timed
            now = time.perf_counter()
            rate = len(jobs) * b / max(now - t, 1e-9)
            search.budget = min(search.budget, search.used + len(jobs) * b + int(max(0.0, deadline - now) * rate))
        return out


def cs_rows(sums, squares, n, n_planned):
    """Per seat ``{"seat", "share", "lo", "hi"}`` with the 95% confidence sequence (valid at any stop)."""
    from analysis.precision import seat_cs

    m, h = seat_cs(sums, squares, n, n_planned=n_planned)
    return [{"seat": i, "share": float(m[i]), "lo": float(max(0.0, m[i] - h[i])), "hi": float(min(1.0, m[i] + h[i]))}
            for i in range(len(m))]


def verify_fixed(player, vectors, n, t0, log):
    """The verification's ``n`` fresh games of every vector, in logged slices (the same games in the same
    order as one call: the same sums)."""
    slices, pieces = max(1, min(20, n // 5_000)), []
    log(f"verifying {' against '.join(_vec(v) for v in vectors[::-1])} on {n:,} fresh games each ...")
    for k in range(slices):
        a, b = VERIFY_START + n * k // slices, VERIFY_START + n * (k + 1) // slices
        pieces.append(player.games_of([(v, a, b) for v in vectors]))
        if slices > 1:
            log(f"verifying: {n * (k + 1) // slices:,} of {n:,} games ({100 * (k + 1) // slices} %), "
                f"{time.perf_counter() - t0:.0f} s")
    return [np.concatenate([piece[i] for piece in pieces]) for i in range(len(vectors))]


def verify_sequential(player, p, vectors, t0, log):
    """Verify on fresh games until every seat's 95% interval, before and after, is within ± precision, or
    the cap (``verify`` games) or the time budget is spent. Returns (per-vector per-game shares, stop).

    With a target the intervals are confidence sequences (``analysis.precision``, tuned before any
    game), valid at this data-dependent stop; with a time budget only, the stop does not look at the
    games and the fixed-n intervals stay valid.
    """
    from analysis.precision import games_needed, plan_games, seat_cs

    prec, seconds, cap = p.get("precision"), p.get("seconds"), p["verify"]
    method = "cs" if prec is not None else "fixed"
    n_planned = plan_games(prec) if prec is not None else 0.0
    deadline = t0 + seconds if seconds is not None else None
    parts = [[] for _ in vectors]
    n, rate, worst = 0, float("nan"), float("inf")
    first = max(p["players"], 4 * player.workers) if p["searching"] else 2_000
    if deadline is not None and player.rate:    # a time budget: the first slice a tenth of the time left
        first = int(min(first, max(p["players"], 4 * player.workers,
                                   0.1 * (deadline - time.perf_counter()) * player.rate * player.workers
                                   / len(vectors))))
    stop = None
    while True:
        if n:
            ws = [np.concatenate(x) for x in parts]
            halves = [seat_cs(w.sum(axis=0), (w ** 2).sum(axis=0), n, method=method,
                              n_planned=n_planned or 1000.0)[1] for w in ws]
            worst = float(max(h.max() for h in halves))
            var = max(float(w.var(axis=0, ddof=1).max()) for w in ws) if n > 1 else 0.25
            need = n if prec is None or worst <= prec else games_needed(var, prec, method, n_planned=n_planned)
            left = (min(need, cap) - n) * len(vectors) / rate if rate > 0 else float("nan")
            log(f"verifying: {n:,} games each, widest seat ±{worst * 100:.2f} pp now"
                + (f" (target ±{prec * 100:g})" if prec is not None else "")
                + f", {rate:,.1f} games/s, ~{_duration(left)} left, {time.perf_counter() - t0:.0f} s")
            if prec is not None and worst <= prec:
                stop = ("precision", f"every seat within ±{prec * 100:g} pp after {n:,} fresh games each")
                break
        else:
            need = n_planned or first
        if n >= cap:
            stop = ("games", f"verification cap of {cap:,} games spent")
            break
        now = time.perf_counter()
        step = first if not n else max(1, first // 4)       # later slices: smaller, towards the target
        want = max(step, min(need - n, max(GROWTH * n, step)))
        if deadline is not None and rate > 0:
            room = (deadline - now) * rate / len(vectors)
            if room < max(1.0, 0.1 * want) and n:
                stop = ("seconds", f"budget of {_duration(seconds)} spent")
                break
            if prec is None:        # the clock alone stops it: slices of about SLICE_SECONDS
                want = max(want, SLICE_SECONDS * rate / len(vectors))
            want = min(want, max(1.0, room))
        want = int(min(max(1, math.ceil(want)), cap - n))
        a = VERIFY_START + n
        t1 = time.perf_counter()
        got = player.games_of([(v, a, a + want) for v in vectors])
        dt = time.perf_counter() - t1
        for i, g in enumerate(got):
            parts[i].append(g)
        n += want
        r = want * len(vectors) / max(dt, 1e-9)
        rate = r if not rate > 0 else 0.5 * rate + 0.5 * r
        if deadline is not None and time.perf_counter() >= deadline:
            ws = [np.concatenate(x) for x in parts]
            stop = ("seconds", f"budget of {_duration(seconds)} spent")
            break
    ws = [np.concatenate(x) for x in parts]
    what, reason = stop
    if what != "precision" and n:
        halves = [seat_cs(w.sum(axis=0), (w ** 2).sum(axis=0), n, method=method,
                          n_planned=n_planned or 1000.0)[1] for w in ws]
        reason += f" after {n:,} fresh games each; widest seat ±{max(h.max() for h in halves) * 100:.2f} pp" + (
            f", target ±{prec * 100:g}" if prec is not None else "")
    return ws, {"stop": what, "reason": reason, "interval": method, "n_planned": n_planned}
