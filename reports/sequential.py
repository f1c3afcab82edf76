"""Play until a target precision: ``simulate --precision PP [--budget ...]`` (issue 33).

The run is planned as the budget's games (or a cap) and played in batches of
chunks through ``simcore.run.simulate(..., max_chunks=k)``; after each batch
every seat's 95 % interval is recomputed from the finished chunks and the run
stops when all are within ``± PP`` or the budget (games or seconds) is spent.
Game ``i`` has the same seed whatever the batches, so the folder is an
ordinary (``partial``) run of its first ``n`` games: ``report`` reads it, and
the same command resumes it (the interval of a confidence sequence stays valid
when a run is resumed with a bigger budget).

Intervals (``analysis.precision``):

* ``method="cs"`` (default): the normal-mixture confidence sequence, tuned to
  the games the target needs with the largest variance a win share can have
  (fixed before any game); it covers at any stopping time.
* ``method="fixed"``: the fixed-n interval with the Chow-Robbins width rule
  (stop on the width only); narrower, valid for this stopping rule.
* ``control=STRATEGY``: a cheap control played first on the same game seeds
  (a sibling folder ``OUT-control``, ``control_games`` games); each seat's
  control win share is a control variate with a predictable coefficient. The
  table gives the effective number of plain games.
"""
from __future__ import annotations

import json
import math
import os
import sys
import time

import numpy as np

from analysis.precision import SequentialControl, games_needed, plan_games
from simcore import _results as R
from simcore import run as simrun
from simcore._contract import SEARCH_DEFAULTS, searches
from simcore._manifest import read_manifest
from simcore._run_size import duration as _duration

#: the planned games of a run stopped on precision or seconds only
DEFAULT_CAP = 1_000_000
#: a batch adds at most this share of the games played so far (overshoot of the target)
GROWTH = 0.25
Z95 = 1.959963984540054


def _seat_shares(out, plan, chunk):
    """(games, seats) win shares of one finished chunk."""
    import pyarrow.parquet as pq

    path = os.path.join(out, "players", R.part_name(chunk, plan.digits))
    tab = pq.read_table(path, columns=["game_index", "seat", "win_share"])
    g = tab.column("game_index").to_numpy()
    s = tab.column("seat").to_numpy()
    w = tab.column("win_share").to_numpy().astype(np.float64)
    start, stop = plan.chunk_bounds(chunk)
    m = np.full((stop - start, plan.players), np.nan)
    m[g - start, s] = w
    return m


def _games_needed(rows, seq, precision, n):
    """Games the widest seat needs to reach ``precision`` at its current variance (at least ``n``): the
    confidence sequence's width shrinks more slowly than 1/sqrt(n) away from its tuning, so it is solved
    for (``analysis.precision.games_needed``), not scaled."""
    if all(r["half"] <= precision for r in rows):
        return n
    need = max(games_needed(r["var"], precision, seq.method, seq.level, seq.n_planned) for r in rows
               if r["half"] > precision)
    return max(need, n)


class _Status:
    """One status line on stderr, rewritten in place on a terminal; or lines to ``log`` (a callable)."""

    def __init__(self, enabled):
        self.log = enabled if callable(enabled) else None
        self.enabled = bool(enabled)
        self.tty = self.log is None and self.enabled and simrun._isatty(sys.stderr)
        self.width = 0

    def show(self, text):
        if not self.enabled:
            return
        if self.log is not None:
            self.log(text)
            return
        try:
            if self.tty:
                sys.stderr.write("\r" + text.ljust(self.width))
                self.width = len(text)
            else:
                sys.stderr.write(text + "\n")
            sys.stderr.flush()
        except (OSError, ValueError):
            pass

    def close(self):
        if self.tty and self.width:
            try:
                sys.stderr.write("\n")
                sys.stderr.flush()
            except (OSError, ValueError):
                pass


def simulate_to_precision(game, players, seed, out, strategies=None, variant=None, workers=None,
                          precision=0.01, budget_games=None, budget_seconds=None, control=None,
                          control_games=100_000, method="cs", level=0.95, events=True, progress=True,
                          chunk_size=None, backend="loky", min_games=0):
    """Play ``game`` until every seat's ``level`` interval is within ``± precision`` (a share, 0.005 = 0.5 pp).

    ``progress``: True (a status line on stderr), False, or a callable that takes each line.
    ``min_games``: do not stop on the width before this many games (runs compared game by game, e.g.
    a study's variants, play on to the same games; any stopping rule keeps a confidence sequence valid).

    Returns a dict: ``rows`` (per seat: strategy, share, half, lo, hi, n, effective_n,
    factor), ``games``, ``stop`` (``"precision"``, ``"games"`` or ``"seconds"``), ``reason``
    (a sentence), ``method``, ``control``, ``wall_seconds``. Writes it to ``OUT/precision.json``.
    """
    if not (0 < precision < 0.5):
        raise ValueError(f"--precision must be between 0 and 50 percentage points, not {precision * 100:g}")
    if budget_games is not None and budget_games < 1:
        raise ValueError("--budget games must be positive")
    if budget_seconds is not None and budget_seconds <= 0:
        raise ValueError("--budget seconds must be positive")
    n_workers = simrun._resolve_workers(workers)
    # a first guess of the games the target needs (a win share's variance is at most 1/4)
    n_guess = plan_games(precision, method, level)
    planned = budget_games
    if planned is None and os.path.exists(os.path.join(os.fspath(out), R.MANIFEST)):
        try:  # a resumed folder keeps its planned games (a tighter target plays on in the same run)
            planned = int(read_manifest(os.fspath(out))["games"])
        except (OSError, ValueError, KeyError, TypeError):
            pass
    planned = int(planned or DEFAULT_CAP)
    t_start = time.perf_counter()
    status = _Status(progress)

    control_x = None
    control_info = None
    if control is not None:
        if control_games < planned:
            if budget_games is not None:
                raise ValueError(f"the control plays {control_games:,} games, fewer than the budget's "
                                 f"{planned:,}: give --control-games >= the budget")
            planned = control_games
        cout = os.fspath(out).rstrip("/") + "-control"
        cnames = [c["name"] if isinstance(c, dict) else c.name for c in control]
        status.show(f"precision: control {cnames[0]}: {control_games:,} games in {cout}")
        cres = simrun.simulate(game, players, control_games, seed, cout, strategies=control, variant=variant,
                               workers=workers, events=False, progress=False, backend=backend)
        cplan = cres.plan
        control_x = np.concatenate([_seat_shares(cout, cplan, c) for c in range(cplan.n_chunks)])
        control_info = {"strategies": cnames, "games": control_games, "folder": cout}

    out = os.fspath(out)
    chunk_size = simrun.resumed_chunk_size(out, chunk_size)
    if chunk_size is None:
        # small chunks: the run looks at its interval after every batch of chunks
        seats = simrun.plan_run(game, players, planned, seed, strategies=strategies, variant=variant,
                                events=events).strategies
        work = sum(int(s.get("iterations", SEARCH_DEFAULTS["iterations"]))
                   for s in seats if searches(s))
        if work:
            chunk_size = max(1, getattr(simrun, 'SEARCH_CHUNK_WORK', 4000) // work) * 4
        else:
            chunk_size = int(max(1000, n_guess // (20 * n_workers)))
        chunk_size = min(chunk_size, planned)
    plan = simrun.plan_run(game, players, planned, seed, strategies=strategies, variant=variant,
                           chunk_size=chunk_size, events=events)
    names = [s["name"] for s in plan.strategies]

    seq = None
    seen = 0
    stop, reason = None, ""
    rows = []
    games_per_s = float("nan")
    batch = n_workers
    while True:
        # every finished chunk of the prefix, in order (the run's games 0..n-1)
        prefix = seen
        while os.path.isdir(out) and prefix < plan.n_chunks and simrun._chunk_done(out, plan, prefix):
            prefix += 1
        if prefix > seen:
            new = np.concatenate([_seat_shares(out, plan, c) for c in range(seen, prefix)])
            if seq is None:
                # tuned before any game: a win share's variance is at most 1/4 (tuning on the data
                # would make the sequence's mixture depend on it)
                n_planned = n_guess if method == "cs" else 1000.0
                cm = cov = None
                if control_x is not None:
                    cm = control_x.mean(axis=0)[:, None]
                    cov = control_x.var(axis=0, ddof=1).reshape(players, 1, 1)
                seq = SequentialControl(players, level=level, method=method, n_planned=n_planned,
                                        control_mean=cm, control_cov=cov,
                                        n_control=len(control_x) if control_x is not None else 0)
            start = plan.chunk_bounds(seen)[0]
            x = None
            if control_x is not None:
                x = control_x[start:start + len(new)][:, :, None]
            seq.add(new, x)
            seen = prefix
        n = seq.n if seq is not None else 0
        elapsed = time.perf_counter() - t_start
        if seq is not None and n >= 2:
            rows = seq.summary()
            worst = max(r["half"] for r in rows)
            need = max(_games_needed(rows, seq, precision, n), min(min_games, planned))
            left = (need - n) / games_per_s if games_per_s > 0 else float("nan")
            pace = (f"{games_per_s:,.1f} games/s  ~{_duration(left)} left" if games_per_s > 0 else
                    "(speed and time left after the next batch)")
            status.show(f"precision: {n:,} games  ±{worst * 100:.2f} pp now (target ±{precision * 100:g})  {pace}")
            if worst <= precision and n >= min(min_games, planned):
                stop = "precision"
                reason = f"every seat within ±{precision * 100:g} pp after {n:,} games"
                break
        else:
            need = n_guess
        if n >= planned:
            stop = "games"
            reason = (f"budget of {planned:,} games spent; widest seat ±{max(r['half'] for r in rows) * 100:.2f} pp, "
                      f"target ±{precision * 100:g}") if rows else f"budget of {planned:,} games spent"
            break
        if budget_seconds is not None and elapsed >= budget_seconds:
            stop = "seconds"
            reason = (f"budget of {_duration(budget_seconds)} spent after {n:,} games; widest seat "
                      f"±{max(r['half'] for r in rows) * 100:.2f} pp, target ±{precision * 100:g}") if rows else \
                f"budget of {_duration(budget_seconds)} spent"
            break
        # the next batch: towards the games the target needs, at most GROWTH more, whole rounds of workers
        want = max(need - n, 1) if seq is not None else plan.chunk_size * n_workers
        want = min(want, max(GROWTH * n, plan.chunk_size * n_workers))
        if budget_seconds is not None and games_per_s > 0:
            want = min(want, max(1.0, (budget_seconds - elapsed) * games_per_s))
        batch = max(n_workers, int(math.ceil(want / plan.chunk_size)))
        batch = int(math.ceil(batch / n_workers) * n_workers)
        if budget_seconds is not None and games_per_s > 0 and rows:
            # a round of chunks that would end well past the budget is not started
            if elapsed + batch * plan.chunk_size / games_per_s > 1.1 * budget_seconds:
                stop = "seconds"
                reason = (f"budget of {_duration(budget_seconds)} reached after {n:,} games (the next round of "
                          f"chunks would overrun it); widest seat ±{max(r['half'] for r in rows) * 100:.2f} pp, "
                          f"target ±{precision * 100:g}")
                break
        t0 = time.perf_counter()
        res = simrun.simulate(game, players, planned, seed, out, strategies=plan.strategies, variant=variant,
                              workers=workers, chunk_size=plan.chunk_size, backend=backend, events=events,
                              progress=False, max_chunks=batch)
        dt = time.perf_counter() - t0
        if res.games_run:
            rate = res.games_run / dt
            games_per_s = rate if not games_per_s > 0 else 0.5 * games_per_s + 0.5 * rate
    status.close()
    wall = time.perf_counter() - t_start
    result = {"game": game, "players": players, "seed": seed, "strategies": names, "games": int(seq.n if seq else 0),
              "precision": precision, "level": level, "method": method, "control": control_info,
              "stop": stop, "reason": reason, "wall_seconds": round(wall, 3),
              "rows": [dict(seat=i, strategy=names[i], **{k: (float(v) if k != "n" else int(v)) for k, v in r.items()})
                       for i, r in enumerate(rows)]}
    try:
        R.write_json(os.path.join(out, "precision.json"), result)
    except OSError:
        pass
    return result


def precision_table(res) -> str:
    """The end-of-run text of :func:`simulate_to_precision`."""
    meth = {"cs": "confidence sequence (valid at any stop)",
            "fixed": "fixed-n interval, Chow-Robbins width rule"}[res["method"]]
    lines = [f"run      {res['game']}, {res['players']} players, seed {res['seed']}: {res['games']:,} games "
             f"in {_duration(res['wall_seconds'])}",
             f"stopped  {res['reason']}",
             f"interval {int(res['level'] * 100)}% {meth}"]
    if res["control"]:
        c = res["control"]
        lines.append(f"control  {', '.join(sorted(set(c['strategies'])))} on the same seeds "
                     f"({c['games']:,} games, {c['folder']})")
    w = max([16] + [len(r["strategy"]) + 2 for r in res["rows"]])
    lines += ["", f"{'seat':>4}  {'strategy':<{w}}{'win share':>10}  {'± pp':>6}  {'interval':>17}  "
                  f"{'n':>8}  {'effective n':>11}"]
    for r in res["rows"]:
        lines.append(f"{r['seat']:>4}  {r['strategy']:<{w}}{r['mean']:>10.4f}  {r['half'] * 100:>6.2f}  "
                     f"[{r['lo']:.4f}, {r['hi']:.4f}]  {r['n']:>8,}  {r['effective_n']:>11,.0f}")
    lines.append("effective n: the plain games (no control) the same interval would need")
    return "\n".join(lines)


def parse_budget(text):
    """``--budget``: ``(games, seconds)``, one of them None."""
    import re

    t = text.strip().lower().replace("_", "")
    m = re.fullmatch(r"(\d+(?:\.\d+)?)\s*(s|sec|m|min|h)", t)
    if m:
        return None, float(m.group(1)) * {"s": 1, "sec": 1, "m": 60, "min": 60, "h": 3600}[m.group(2)]
    try:
        g = float(t)
    except ValueError:
        raise ValueError(f"--budget '{text}': give a number of games (20000) or a time (90s, 30m, 1h)") from None
    if g < 1 or g != int(g):
        raise ValueError(f"--budget '{text}': must be a positive integer of games (20000) or a time (90s, 30m, 1h)")
    return int(g), None


def run_command(args, seats):
    """``boardlab simulate ... --precision PP``: the command's work (``reports/commands/simulate.py``)."""
    import strategies

    if args.precision is None:
        raise ValueError("--budget and --control go with --precision PP")
    if not 0 < args.precision < 50:
        raise ValueError(f"--precision {args.precision:g}: give percentage points between 0 and 50, e.g. 0.5")
    games, seconds = parse_budget(args.budget) if args.budget else (None, None)
    if args.games is not None:
        if games is not None and games != args.games:
            raise ValueError("--games and --budget GAMES disagree: give one")
        games = args.games
    control = strategies.resolve_seats(args.game, args.players, args.control, None) if args.control else None
    res = simulate_to_precision(
        args.game, args.players, args.seed, args.out, strategies=seats, variant=args.variant,
        workers=args.workers, precision=args.precision / 100, budget_games=games, budget_seconds=seconds,
        control=control, control_games=args.control_games, method=args.interval,
        events=not args.no_events, progress=not args.no_progress, chunk_size=args.chunk_size,
        backend=args.backend)
    print(precision_table(res))
    return 0
