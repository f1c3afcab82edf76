"""The generic runner: chunks, seeds, pools and the results folder.

``simulate`` plays ``games`` games of any game in ``simcore.games`` and writes
a results folder (``docs/results.md``). Game ``i`` gets its seed from
(run seed, i) through ``simcore.rng.game_seeds``, so the tables are
bit-identical for any worker count, chunk size or backend. Each chunk is one
task: the worker plays it with the game's batch kernel and writes its three
Parquet parts itself (atomically), so the parent holds only small summaries
and a run of 10^8 games never needs its results in memory. Running the same
command on a folder with finished chunks plays only the missing ones.

Examples
--------
>>> from simcore.run import simulate
>>> result = simulate("hellas", players=3, games=10_000, seed=1, out="runs/h3")  # doctest: +SKIP
>>> print(result.table())  # doctest: +SKIP
"""
import importlib
import os
import sys
import time

import numpy as np

from simcore import _results as R
from simcore._contract import policy_argument  # noqa: F401  (re-exported)
from simcore._manifest import read_manifest
# The runner is split by responsibility; its names stay importable from here.
from simcore._run_folder import (  # noqa: F401
    lock_folder, unlock_folder, verify_part, _chunk_done, _describe_mismatch, _finished, _git_commit, _jsonable, _now, _open_folder,
    _package_versions, _summary_from_parts, _win_summary)
from simcore._run_plan import (  # noqa: F401
    BACKENDS, BIG_RUN, DEFAULT_MAX_CHUNK, DEFAULT_MIN_CHUNK, SEARCH_CHUNK_WORK, SEARCH_ESTIMATE_RUN,
    SPEC_KEYS, RunMismatch, RunPlan, RunResult, _config, _get_game, check_players, default_chunk_size,
    parse_variant, plan_run, seat_strategy_dicts)
from simcore._run_pools import _check_dask, _Pool, _resolve_workers, _watch_parent  # noqa: F401
from simcore._run_replay import DECISIONS, recorded_decisions, replay  # noqa: F401
from simcore._run_size import _duration, _probe, _probe_games, _size, check_size  # noqa: F401
from simcore._mcts import raise_if_interrupted as _raise_if_interrupted
from simcore.rng import chunk_seeds, game_seeds  # noqa: F401


# ---------------------------------------------------------------- one chunk (runs in a worker)

def run_chunk(job, chunk):
    """Play chunk ``chunk`` of a run and write its Parquet parts; return a small summary.

    ``job`` is a plain dict (picklable for every backend). The games part is
    written last: a chunk is finished when its games part exists.
    """
    _watch_parent(job.get("parent_pid"))
    t0 = time.perf_counter()
    mod = importlib.import_module(job["module"])
    start = chunk * job["chunk_size"]
    stop = min(start + job["chunk_size"], job["games"])
    players = job["players"]
    seeds = chunk_seeds(job["seed"], start, stop)
    config = _config(job["module"], players, job["variant_items"])
    out = mod.play_batch(players, seeds, policies=job["policies"], config=config,
                         events=job["events"])
    _raise_if_interrupted()         # a signal during a search: these games are not all played; keep none
    idx = R.index_dtype(job["games"])
    n = stop - start
    name = R.part_name(chunk, job["digits"])
    root = job["out"]
    players_tab = R.players_table(out["players"], start, n, players, job["strategy_names"], idx)
    summary = _win_summary(np.asarray(out["players"]["win_share"], dtype=np.float64), n, players)
    parts = {}

    def write(table, tab):
        identity = R.part_identity(job["run_id"], job["seed"], job["config_hash"], chunk, table)
        entry = R.write_parquet(os.path.join(root, table, name), tab, identity)
        parts[f"{table}/{name}"] = {**entry, "chunk": chunk}

    if job["events"]:
        write("events", R.events_table(out["events"], start, idx))
    write("players", players_tab)
    write("games", R.games_table(out["games"], start, seeds, job["run_id"], idx))
    summary.update(chunk=chunk, seconds=time.perf_counter() - t0, parts=parts)
    return summary


# ---------------------------------------------------------------- progress

class _LineProgress:
    """Progress as lines, no carriage returns: on a stderr that is not a terminal, a line per 10 % of
    the run; to a callable (``simulate(progress=log)``), a line when 1 s has passed since the last.
    Each line: games done of the total, the same percentage, the time so far and the time left."""

    def __init__(self, total, initial, file=None, write=None, every=None, prefix="simulate: "):
        self.total, self.n, self.file, self.write = total, initial, file, write
        self.start = initial
        self.t0 = self.last = time.perf_counter()
        self.next = initial * 10 // total + 1
        self.every, self.prefix = every, prefix

    def update(self, k):
        self.n += k
        now = time.perf_counter()
        if self.every is not None:
            if now - self.last < self.every or self.n >= self.total:
                return
        else:
            step = self.n * 10 // self.total
            if step < self.next:
                return
            self.next = step + 1
        self.last = now
        elapsed = now - self.t0
        left = elapsed * (self.total - self.n) / max(self.n - self.start, 1)
        line = (f"{self.prefix}{self.n:,} of {self.total:,} games ({100 * self.n // self.total} %), "
                f"{elapsed:.1f} s" + (f", about {_duration(left)} left" if self.n < self.total else ""))
        if self.write is not None:
            self.write(line)
            return
        if self.file is None:
            return
        try:
            print(line, file=self.file, flush=True)
        except (OSError, ValueError):    # the reader is gone: stop writing
            self.file = None

    def close(self):
        pass


def _progress_bar(plan, games_done, progress):
    from tqdm import tqdm

    if callable(progress):
        return _LineProgress(plan.games, games_done, write=progress, every=1.0, prefix="")
    if progress and not _isatty(sys.stderr):
        return _LineProgress(plan.games, games_done, sys.stderr)
    return tqdm(total=plan.games, initial=games_done, unit="game", unit_scale=True,
                file=sys.stderr, disable=not progress, dynamic_ncols=True, smoothing=0.1)


def _isatty(f):
    try:
        return f.isatty()
    except (AttributeError, ValueError):
        return False


# ---------------------------------------------------------------- the run

def simulate(game, players, games, seed, out, strategies=None, variant=None, workers=None, chunk_size=None, backend="loky", scheduler=None,
             events=True, progress=True, max_chunks=None):
    """Play a run of ``games`` games and write (or complete) the results folder ``out``.

    Parameters
    ----------
    game : str
        A name in ``simcore.games``.
    players, games, seed : int
        Player count (one of the game's ``PLAYERS``), number of games (> 0), run seed.
    out : str
        Results folder. If it holds finished chunks of the same run, only the
        missing chunks are played; a folder of a different run is refused
        (``RunMismatch``).
    strategies : list, optional
        One resolved strategy per seat (``strategies.resolve_seats(game,
        players, "balanced")``; dicts as ``Strategy.to_dict()`` gives);
        default: uniformly random play in every seat.
    variant : dict or list of "KEY=VALUE"
        Engine settings passed to ``make_config``.
    workers : int, optional
        Pool size (default: all cores).
    chunk_size : int, optional
        Games per task and per Parquet part (default from the game count only).
        Results do not depend on it; a resumed folder keeps its own.
    backend : {"loky", "threading", "dask"}
        joblib backend; ``scheduler`` (``tcp://host:port``) implies ``dask``.
    events : bool
        Write the events table.
    progress : bool or callable
        Progress bar on stderr; a callable instead gets a line of progress (games, %, time left)
        every 2 s or so.
    max_chunks : int, optional
        Stop after this many chunks (tests and deliberate partial runs).

    Returns
    -------
    RunResult
    """
    if scheduler:
        backend = "dask"
    if backend not in BACKENDS:
        raise ValueError(f"unknown backend '{backend}' (known: {', '.join(BACKENDS)})")
    n_workers = _resolve_workers(workers)
    out = os.fspath(out)
    chunk_size = resumed_chunk_size(out, chunk_size)
    plan = plan_run(game, players, games, seed, strategies=strategies, variant=variant,
                    chunk_size=chunk_size, events=events)
    if os.path.exists(out) and not os.path.isdir(out):
        raise RunMismatch(f"{out} is a file, not a results folder; use a new output folder")
    estimate = None if _finished(out, plan) else check_size(plan, out, n_workers)
    if backend == "dask":
        _check_dask(scheduler)         # before the folder is made: a bad address leaves nothing behind
    lock = lock_folder(out)            # one writer at a time; released when this process ends
    try:
        manifest, resumed = _open_folder(out, plan)
        R.remove_temp_files(out)
        if estimate and progress is True:
            print(estimate, file=sys.stderr, flush=True)
        return _run(plan, out, manifest, resumed, n_workers, backend, scheduler, progress, max_chunks)
    finally:
        unlock_folder(lock)


def resumed_chunk_size(out, chunk_size=None):
    """``chunk_size``, or when it is None and ``out`` holds a run, that run's (a resumed folder keeps
    its chunking)."""
    if chunk_size is None and os.path.exists(os.path.join(out, R.MANIFEST)):
        try:
            return read_manifest(out)["chunking"]["chunk_size"]
        except (OSError, ValueError, KeyError, TypeError):
            pass
    return chunk_size


def make_job(plan, out, backend="loky"):
    """What :func:`run_chunk` needs of a run, as a plain picklable dict."""
    return {"module": plan.module, "players": plan.players, "seed": plan.seed, "games": plan.games,
            "chunk_size": plan.chunk_size, "digits": plan.digits, "out": os.path.abspath(out),
            "run_id": plan.run_id, "config_hash": plan.config_hash, "events": plan.events,
            "variant_items": tuple(sorted(plan.variant.items())),
            "policies": [policy_argument(_get_game(plan.game), s) for s in plan.strategies],
            "strategy_names": [s["name"] for s in plan.strategies],
            "parent_pid": os.getpid() if backend == "loky" else None}


def chunks_of_games(plan, start, stop):
    """The chunks holding game indices ``start .. stop - 1`` of ``plan`` (a sequential loop's next batch)."""
    if not 0 <= start < stop <= plan.games:
        raise ValueError(f"games {start} .. {stop - 1} are not in a run of {plan.games} games")
    return list(range(start // plan.chunk_size, -(-stop // plan.chunk_size)))


def play_chunks(job, chunks, backend="loky", workers=1, scheduler=None):
    """Play ``chunks`` of a run (parts written by the workers); yield each chunk's summary as it ends.

    The summary has ``games``, ``win_share`` (per seat), ``chunk``, ``seconds``
    and ``parts`` (the manifest entries of its parts: add them to the
    manifest's ``parts``, as :func:`simulate` does, or resume replays them).
    """
    if not chunks:
        return
    with _Pool(backend, min(workers, len(chunks)), scheduler) as parallel:
        import joblib

        yield from parallel(joblib.delayed(run_chunk)(job, c) for c in chunks)


def _run(plan, out, manifest, resumed, n_workers, backend, scheduler, progress, max_chunks):
    parts = manifest.get("parts") if resumed else manifest.setdefault("parts", {})
    done = [c for c in range(plan.n_chunks) if _chunk_done(out, plan, c, parts)] if resumed else []
    done_set = set(done)
    todo = [c for c in range(plan.n_chunks) if c not in done_set]
    if max_chunks is not None:
        todo = todo[:max_chunks]
    win = np.zeros(plan.players)
    games_done = 0
    for c in done:
        s = _summary_from_parts(out, plan, c)
        win += s["win_share"]
        games_done += s["games"]

    job = make_job(plan, out, backend)
    session = {"started": _now(), "finished": None, "workers": n_workers, "backend": backend,
               "scheduler": scheduler, "chunks_run": 0, "games_run": 0, "status": "running",
               "git_commit": _git_commit()[0], "argv": list(sys.argv)}
    manifest.setdefault("sessions", []).append(session)
    manifest["status"] = "running"
    R.write_json(os.path.join(out, R.MANIFEST), manifest)

    t0 = time.perf_counter()
    games_run = chunks_run = 0
    status = "interrupted"
    bar = _progress_bar(plan, games_done, progress)
    mpath = os.path.join(out, R.MANIFEST)

    def record(final):
        # the session's progress so far: a session killed later still counts its chunks and time
        wall = time.perf_counter() - t0
        session.update(chunks_run=chunks_run, games_run=games_run, wall_seconds=round(wall, 3),
                       games_per_second=round(games_run / wall, 1) if wall > 0 else None)
        if final:
            session.update(finished=_now(), status=status)
            manifest["status"] = status
        if status == "complete":
            sessions = [x for x in manifest["sessions"] if isinstance(x, dict)]
            total_wall = sum(x.get("wall_seconds") or 0 for x in sessions)
            played = sum(x.get("games_run") or 0 for x in sessions)
            manifest.update(finished=_now(), wall_seconds=round(total_wall, 3),
                            games_per_second=round(played / total_wall, 1) if total_wall > 0 else None)
        try:
            R.write_json(mpath, manifest)
        except OSError:
            if final and status != "interrupted":
                raise          # a run must not look finished when its manifest could not say so
        return wall

    last_write = t0
    try:
        for s in play_chunks(job, todo, backend, n_workers, scheduler):
            if parts is not None:
                parts.update(s["parts"])
            win += s["win_share"]
            games_done += s["games"]
            games_run += s["games"]
            chunks_run += 1
            bar.update(s["games"])
            if time.perf_counter() - last_write > 1.0:
                record(final=False)
                last_write = time.perf_counter()
        status = "complete" if len(done) + chunks_run == plan.n_chunks else "partial"
    finally:
        wall = record(final=True)       # first: a broken stderr must not keep the manifest 'running'
        try:
            bar.close()
        except (OSError, ValueError):
            pass
    return RunResult(out=out, plan=plan, games=games_done, games_run=games_run, chunks_run=chunks_run,
                     wall_seconds=wall, win_share=win.tolist(), resumed=bool(done))
