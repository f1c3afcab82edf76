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
import datetime as _dt
import functools
import hashlib
import importlib
import json
import math
import os
import platform
import socket
import shutil
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field

import numpy as np

import simcore
from simcore import _results as R
from simcore._contract import SEARCH_DEFAULTS, policy_argument, random_strategy
from simcore._manifest import read_manifest
from simcore.rng import chunk_seeds, game_seeds

BACKENDS = ("loky", "threading", "dask")
DEFAULT_MAX_CHUNK = 100_000
DEFAULT_MIN_CHUNK = 10_000
SEARCH_CHUNK_WORK = 4000     # a search run's chunk: about this many iterations per decision x games
SEARCH_ESTIMATE_RUN = 100   # games from which a run with a searching seat prints its estimated time
BIG_RUN = 10_000_000          # games from which a run is sized first (time, disk) and refused if it cannot fit
# Keys that must agree between a folder's manifest and a command resuming it.
# The variant as typed is recorded; the engine's canonical settings are compared.
SPEC_KEYS = ("format", "game", "players", "strategies", "settings",
             "seed", "games", "events", "chunking")


class RunMismatch(ValueError):
    """The folder holds a different run than the one asked for."""


# ---------------------------------------------------------------- the spec

def parse_variant(items):
    """``["city_links=no_agora_chains", "start_player=0"]`` -> ``{"city_links": "no_agora_chains", ...}``.

    Values stay strings: the game's ``make_config`` parses them (it knows each
    setting's type) and its ``settings()`` is the canonical record.
    """
    variant = {}
    for item in items or ():
        key, sep, value = str(item).partition("=")
        key, value = key.strip(), value.strip()
        if not sep or not key:
            raise ValueError(f"bad variant '{item}': write KEY=VALUE, e.g. quarry_yields=falling")
        if key in variant:
            raise ValueError(f"variant {key} given twice ({key}={variant[key]}, {key}={value}); "
                             f"give each setting once")
        variant[key] = value
    return variant


def default_chunk_size(games, strategies=()):
    """Chunk size from the game count and the seats' strategies only, so a resumed run (any workers)
    finds the same parts.

    Seats that search (kind "mcts") make a game thousands of times dearer:
    then a chunk holds about ``SEARCH_CHUNK_WORK`` iterations per decision
    summed over the seats' games (MCTS-400 in one seat: 10 games, a few
    seconds), and at most 500 chunks in all.
    """
    work = sum(int(s.get("iterations", SEARCH_DEFAULTS["iterations"])) for s in strategies
               if s.get("kind") == "mcts")
    if work:
        return int(min(games, max(1, SEARCH_CHUNK_WORK // work, math.ceil(games / 500))))
    return int(min(DEFAULT_MAX_CHUNK, max(DEFAULT_MIN_CHUNK, math.ceil(games / 64)), games))


def _jsonable(obj):
    """Settings and strategy dicts as plain JSON (numpy arrays/scalars to lists/numbers)."""
    return json.loads(json.dumps(obj, default=_json_default))


def _json_default(o):
    if isinstance(o, np.ndarray):
        return o.tolist()
    if isinstance(o, np.generic):
        return o.item()
    if isinstance(o, (set, tuple)):
        return list(o)
    return str(o)


@dataclass
class RunPlan:
    """Everything a run needs, checked; ``manifest_spec()`` is what resume compares."""

    game: str
    module: str
    players: int
    strategies: list          # one resolved strategy dict per seat (strategies.Strategy.to_dict())
    variant: dict
    settings: dict
    data_status: dict
    seed: int
    games: int
    chunk_size: int
    events: bool = True

    @property
    def n_chunks(self):
        return -(-self.games // self.chunk_size)

    @property
    def digits(self):
        return R.part_digits(self.n_chunks)

    def chunk_bounds(self, chunk):
        start = chunk * self.chunk_size
        return start, min(start + self.chunk_size, self.games)

    def manifest_spec(self):
        return {
            "format": R.FORMAT,
            "game": self.game,
            "players": self.players,
            "strategies": [_jsonable(s) for s in self.strategies],
            "settings": _jsonable(self.settings),
            "seed": self.seed,
            "games": self.games,
            "events": self.events,
            "chunking": {"chunk_size": self.chunk_size, "n_chunks": self.n_chunks,
                         "file_digits": self.digits},
        }

    @property
    def run_id(self):
        """A digest of what determines the results (not chunking): equal ids, equal tables."""
        spec = self.manifest_spec()
        spec.pop("chunking")
        blob = json.dumps(spec, sort_keys=True).encode()
        return hashlib.sha256(blob).hexdigest()[:16]


def plan_run(game, players, games, seed, strategies=None, variant=None, chunk_size=None, events=True):
    """Check the arguments of a run and its config.

    ``strategies``: one resolved strategy per seat (``Strategy.to_dict()``
    dicts, or objects with ``to_dict()``; ``strategies.resolve_seats`` makes
    them from names); ``None``: uniformly random play in every seat. Raises
    ``ValueError`` with a message naming the bad argument.
    """
    mod = _get_game(game)
    players = check_players(game, players)
    if isinstance(games, bool) or not isinstance(games, (int, np.integer)) or games <= 0:
        raise ValueError(f"number of games must be a positive integer, not {games}")
    games = int(games)
    if not isinstance(seed, (int, np.integer)) or isinstance(seed, bool) or seed < 0:
        raise ValueError(f"seed must be a non-negative integer, not {seed}")
    if chunk_size is not None and (not isinstance(chunk_size, (int, np.integer)) or chunk_size <= 0):
        raise ValueError(f"chunk size must be a positive integer, not {chunk_size}")

    resolved = seat_strategy_dicts(mod, game, players, strategies)

    variant = parse_variant(variant) if not isinstance(variant, dict) else dict(variant or {})
    config = mod.make_config(players, **variant)
    settings = config.settings()
    data_status = config.data_status()
    size = int(min(chunk_size, games)) if chunk_size else default_chunk_size(games, resolved)
    return RunPlan(game=game, module=mod.__name__, players=players, strategies=resolved,
                   variant=variant, settings=settings, data_status=data_status,
                   seed=int(seed), games=games, chunk_size=size, events=bool(events))


def seat_strategy_dicts(mod, game, players, strategies):
    """One checked strategy dict per seat (``None``: random play everywhere); ValueError otherwise."""
    if strategies is None:
        return [random_strategy(game) for _ in range(players)]
    out = [dict(s.to_dict() if hasattr(s, "to_dict") else s) for s in strategies]
    if len(out) != players:
        raise ValueError(f"{len(out)} strategies for {players} players: give one per seat")
    for s in out:
        if s.get("game") != game:
            raise ValueError(f"strategy {s.get('name')!r} is for {s.get('game')}, not {game}")
        policy_argument(mod, s)            # a bad kind or weight fails here, before any game
    return out


def check_players(game, players):
    """Return ``players`` as an int if ``game`` is played by that many, else raise ``ValueError``."""
    allowed = tuple(_get_game(game).PLAYERS)
    if isinstance(players, bool) or not isinstance(players, (int, np.integer)) or players not in allowed:
        raise ValueError(f"{game} is played by {', '.join(map(str, allowed))} players, not {players}")
    return int(players)


def _get_game(name):
    # an import-time ValueError (a bad BOARDLAB_ISA) passes through with its own message
    if name not in simcore.games:
        raise ValueError(f"unknown game '{name}' (known: {', '.join(simcore.games.keys())})")
    return simcore.get_game(name)


# ---------------------------------------------------------------- one chunk (runs in a worker)

@functools.lru_cache(maxsize=8)
def _config(module, players, variant_items):
    mod = importlib.import_module(module)
    return mod.make_config(players, **dict(variant_items))


_watched_parent = None


def _watch_parent(parent):
    """In a pool worker: exit as soon as the parent process ``parent`` is gone (killed with -9, say).

    loky keeps idle workers alive for minutes and lets busy ones finish their
    queued chunks; a daemon thread polling ``getppid`` ends them within a second.
    """
    global _watched_parent
    if parent is None or _watched_parent == parent or os.getpid() == parent or os.getppid() != parent:
        return
    _watched_parent = parent

    def watch():
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(1)

    threading.Thread(target=watch, name="boardlab-parent-watch", daemon=True).start()


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
    idx = R.index_dtype(job["games"])
    n = stop - start
    name = R.part_name(chunk, job["digits"])
    root = job["out"]
    players_tab = R.players_table(out["players"], start, n, players, job["strategy_names"], idx)
    summary = _win_summary(np.asarray(out["players"]["win_share"], dtype=np.float64), n, players)
    if job["events"]:
        R.write_parquet(os.path.join(root, "events", name), R.events_table(out["events"], start, idx))
    R.write_parquet(os.path.join(root, "players", name), players_tab)
    R.write_parquet(os.path.join(root, "games", name),
                    R.games_table(out["games"], start, seeds, job["run_id"], idx))
    summary.update(chunk=chunk, seconds=time.perf_counter() - t0)
    return summary


def _win_summary(win_share, n, players):
    return {"games": n, "win_share": win_share.reshape(n, players).sum(axis=0).tolist()}


# ---------------------------------------------------------------- the folder

def _chunk_done(out, plan, chunk):
    """A chunk is finished when every part exists and its games part has the right row count."""
    import pyarrow.parquet as pq

    name = R.part_name(chunk, plan.digits)
    tables = R.TABLES if plan.events else ("games", "players")
    start, stop = plan.chunk_bounds(chunk)
    for t in tables:
        path = os.path.join(out, t, name)
        if not os.path.exists(path):
            return False
        try:
            rows = pq.read_metadata(path).num_rows
        except Exception:
            return False
        if t == "games" and rows != stop - start:
            return False
        if t == "players" and rows != (stop - start) * plan.players:
            return False
    return True


def _summary_from_parts(out, plan, chunk):
    import pyarrow.parquet as pq

    path = os.path.join(out, "players", R.part_name(chunk, plan.digits))
    tab = pq.read_table(path, columns=["win_share"])
    ws = tab.column("win_share").to_numpy().astype(np.float64)
    start, stop = plan.chunk_bounds(chunk)
    return _win_summary(ws, stop - start, plan.players)


def _describe_mismatch(old, new, out):
    diffs = []
    for key in SPEC_KEYS:
        a, b = old.get(key), new.get(key)
        if a != b:
            if key == "chunking":
                a, b = (a or {}).get("chunk_size"), b.get("chunk_size")
                key = "chunk size"
            if key == "strategies" and isinstance(a, list) and isinstance(b, list):
                a = ",".join(s.get("name", "?") for s in a)
                b = ",".join(s.get("name", "?") for s in b)
                if a == b:
                    a, b = "(other weights)", "(other weights)"
            diffs.append(f"{key}: {json.dumps(a)} in the folder, {json.dumps(b)} in the command")
    return (f"{out} holds a different run ({'; '.join(diffs)}); "
            f"use a new output folder, or repeat the folder's settings to resume it")


@functools.lru_cache(maxsize=None)
def _git_commit():
    """(commit, dirty) of boardlab's own checkout, asked once a process (a ladder calls simulate
    hundreds of times)."""
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    try:
        commit = subprocess.run(["git", "-C", here, "rev-parse", "HEAD"], capture_output=True,
                                text=True, timeout=5)
        if commit.returncode != 0:
            return None, None
        dirty = subprocess.run(["git", "-C", here, "status", "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True, timeout=5)
        return commit.stdout.strip(), bool(dirty.stdout.strip())
    except (OSError, subprocess.SubprocessError):
        return None, None


def _now():
    return _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")


def _package_versions():
    import joblib
    import pyarrow

    from simcore import _isa

    # engine_builds: which compiled build of each loaded engine this process runs (the games are
    # the same either way; simcore/_isa.py)
    return {"boardlab": simcore.__version__, "python": platform.python_version(),
            "numpy": np.__version__, "pyarrow": pyarrow.__version__, "joblib": joblib.__version__,
            "engine_builds": _isa.selected()}


def _open_folder(out, plan):
    """Create or check the folder; return the manifest to keep updating."""
    spec = plan.manifest_spec()
    path = os.path.join(out, R.MANIFEST)
    if os.path.exists(path):
        try:
            manifest = read_manifest(out)
        except ValueError as exc:
            raise RunMismatch(f"{exc}; use a new output folder") from None
        if {k: manifest.get(k) for k in SPEC_KEYS} != spec:
            raise RunMismatch(_describe_mismatch(manifest, spec, out))
        for old in manifest.get("sessions", []):
            if isinstance(old, dict) and old.get("status") == "running":
                old["status"] = "killed"        # its process died without a word (kill -9, power)
        return manifest, True
    if os.path.isdir(out) and any(not n.startswith(".") for n in os.listdir(out)):
        raise RunMismatch(f"{out} is not empty and has no manifest.json; use a new or empty output folder")
    os.makedirs(out, exist_ok=True)
    for t in R.TABLES if plan.events else ("games", "players"):
        os.makedirs(os.path.join(out, t), exist_ok=True)
    commit, dirty = _git_commit()
    manifest = {
        **spec,
        "variant": _jsonable(plan.variant),
        "run_id": plan.run_id,
        "tables": {t: f"{t}/part-*.parquet" for t in (R.TABLES if plan.events else ("games", "players"))},
        "data_status": _jsonable(plan.data_status),
        "versions": _package_versions(),
        "git_commit": commit,
        "git_dirty": dirty,
        "status": "running",
        "started": _now(),
        "finished": None,
        "wall_seconds": None,
        "games_per_second": None,
        "sessions": [],
    }
    R.write_json(path, manifest)
    return manifest, False


# ---------------------------------------------------------------- results

@dataclass
class RunResult:
    out: str
    plan: RunPlan
    games: int                 # games in the folder (all finished chunks)
    games_run: int             # games played by this call
    chunks_run: int
    wall_seconds: float
    win_share: list            # per seat, summed win shares (ties 1/k)
    resumed: bool = False
    extra: dict = field(default_factory=dict)

    @property
    def games_per_second(self):
        return self.games_run / self.wall_seconds if self.wall_seconds > 0 else float("nan")


# ---------------------------------------------------------------- size of a run

def _size(n):
    for unit in ("bytes", "KB", "MB", "GB", "TB", "PB"):
        if n < 1000 or unit == "PB":
            return f"{n:,.0f} {unit}" if unit == "bytes" else f"{n:,.1f} {unit}"
        n /= 1000


def _duration(s):
    if s < 120:
        return f"{s:.0f} s"
    if s < 7200:
        return f"{s / 60:.0f} min"
    if s < 3 * 86400:
        return f"{s / 3600:.1f} h"
    return f"{s / 86400:,.0f} days"


def _probe_games(plan, games=2000):
    """How many games the size probe plays: ``games``, or 2 when a seat searches."""
    searching = any(s.get("kind") == "mcts" for s in plan.strategies)
    return min(2 if searching else games, plan.games)


def _probe(plan):
    """Seconds and bytes on disk per game, from a small batch played and written to memory."""
    import io

    import pyarrow.parquet as pq

    mod = importlib.import_module(plan.module)
    n = _probe_games(plan)
    seeds = chunk_seeds(plan.seed, 0, n)
    config = _config(plan.module, plan.players, tuple(sorted(plan.variant.items())))
    t0 = time.perf_counter()
    out = mod.play_batch(plan.players, seeds, policies=[policy_argument(mod, s) for s in plan.strategies],
                         config=config, events=plan.events)
    seconds = time.perf_counter() - t0
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


def _finished(out, plan):
    """Whether ``out`` already holds this run, complete (nothing to estimate: no probe games)."""
    try:
        m = read_manifest(out)
    except (OSError, ValueError):
        return False
    return isinstance(m, dict) and m.get("status") == "complete" and m.get("run_id") == plan.run_id


def check_size(plan, out, workers):
    """For a run of ``BIG_RUN`` games or more: refuse it if its folder cannot fit on the disk.

    Returns a line with the estimated time and disk (``None`` for a smaller
    run), measured on a small batch. A run with a searching seat (kind
    "mcts") of ``SEARCH_ESTIMATE_RUN`` games or more gets the line too: it
    is thousands of times slower a game.
    """
    searching = any(s.get("kind") == "mcts" for s in plan.strategies)
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


class _LineProgress:
    """Progress on a stderr that is not a terminal: a line per 10 % of the run, no carriage returns."""

    def __init__(self, total, initial, file):
        self.total, self.n, self.file = total, initial, file
        self.t0 = time.perf_counter()
        self.next = initial * 10 // total + 1

    def update(self, k):
        self.n += k
        step = self.n * 10 // self.total
        if step < self.next or self.file is None:
            return
        self.next = step + 1
        try:
            print(f"simulate: {self.n:,} of {self.total:,} games ({10 * step} %), "
                  f"{time.perf_counter() - self.t0:.1f} s", file=self.file, flush=True)
        except (OSError, ValueError):    # the reader is gone: stop writing
            self.file = None

    def close(self):
        pass


def _progress_bar(plan, games_done, progress):
    from tqdm import tqdm

    if progress and not _isatty(sys.stderr):
        return _LineProgress(plan.games, games_done, sys.stderr)
    return tqdm(total=plan.games, initial=games_done, unit="game", unit_scale=True,
                file=sys.stderr, disable=not progress, dynamic_ncols=True, smoothing=0.1)


def _isatty(f):
    try:
        return f.isatty()
    except (AttributeError, ValueError):
        return False


# ---------------------------------------------------------------- pools

def _resolve_workers(workers):
    if workers is None or workers == -1:
        try:
            return len(os.sched_getaffinity(0))
        except (AttributeError, OSError):
            return os.cpu_count() or 1
    if not isinstance(workers, (int, np.integer)) or workers <= 0:
        raise ValueError(f"workers must be a positive integer, not {workers}")
    return int(workers)


def _check_dask(scheduler, timeout=5.0):
    """ValueError, naming the fix, when dask is not installed or the scheduler's TCP address does not answer."""
    try:
        import dask.distributed  # noqa: F401
    except ImportError:
        raise ValueError("the dask backend needs dask[distributed]: pip install 'boardlab[cluster]'") from None
    if not scheduler or not (scheduler.startswith("tcp://") or "://" not in scheduler):
        return                        # a LocalCluster, or a transport this check does not speak
    host, _, port = scheduler.split("://", 1)[-1].rpartition(":")
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=timeout).close()
    except (OSError, ValueError) as exc:
        raise ValueError(f"cannot reach the dask scheduler {scheduler} ({exc}); "
                         f"check the address (tcp://HOST:PORT)") from None


class _Pool:
    """A joblib Parallel for the chosen backend; dask gets a Client (a LocalCluster without a scheduler address)."""

    def __init__(self, backend, workers, scheduler):
        self.backend, self.workers, self.scheduler = backend, workers, scheduler
        self.client = self.cluster = None

    def __enter__(self):
        import joblib

        if self.backend == "dask":
            try:
                from dask.distributed import Client, LocalCluster
            except ImportError:
                raise ValueError("the dask backend needs dask[distributed]: pip install 'boardlab[cluster]'") from None
            if self.scheduler:
                try:
                    self.client = Client(self.scheduler, timeout="10s")
                except OSError as exc:
                    raise ValueError(f"cannot reach the dask scheduler {self.scheduler} ({exc}); "
                                     f"check the address (tcp://HOST:PORT)") from None
            else:
                self.cluster = LocalCluster(n_workers=self.workers, threads_per_worker=1,
                                            processes=True, host="127.0.0.1", dashboard_address=None)
                self.client = Client(self.cluster)
            self._cfg = joblib.parallel_config(backend="dask")
            self._cfg.__enter__()
            self.parallel = joblib.Parallel(n_jobs=-1, return_as="generator_unordered")
        else:
            n = self.workers
            self.parallel = joblib.Parallel(n_jobs=n, backend=self.backend if n > 1 else "sequential",
                                            return_as="generator_unordered", pre_dispatch="2*n_jobs")
        return self.parallel

    def __exit__(self, *exc):
        if self.backend == "dask":
            self._cfg.__exit__(*exc)
            if self.client is not None:
                self.client.close()
            if self.cluster is not None:
                self.cluster.close()
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
    progress : bool
        Progress bar on stderr.
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
    if chunk_size is None and os.path.exists(os.path.join(out, R.MANIFEST)):
        try:  # a resumed folder keeps its chunking
            chunk_size = read_manifest(out)["chunking"]["chunk_size"]
        except (OSError, ValueError, KeyError, TypeError):
            pass
    plan = plan_run(game, players, games, seed, strategies=strategies, variant=variant,
                    chunk_size=chunk_size, events=events)
    if os.path.exists(out) and not os.path.isdir(out):
        raise RunMismatch(f"{out} is a file, not a results folder; use a new output folder")
    estimate = None if _finished(out, plan) else check_size(plan, out, n_workers)
    if backend == "dask":
        _check_dask(scheduler)         # before the folder is made: a bad address leaves nothing behind
    manifest, resumed = _open_folder(out, plan)
    R.remove_temp_files(out)
    if estimate and progress:
        print(estimate, file=sys.stderr, flush=True)

    done = [c for c in range(plan.n_chunks) if _chunk_done(out, plan, c)] if resumed else []
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

    job = {"module": plan.module, "players": plan.players, "seed": plan.seed, "games": plan.games,
           "chunk_size": plan.chunk_size, "digits": plan.digits, "out": os.path.abspath(out),
           "run_id": plan.run_id, "events": plan.events,
           "variant_items": tuple(sorted(plan.variant.items())),
           "policies": [policy_argument(_get_game(plan.game), s) for s in plan.strategies],
           "strategy_names": [s["name"] for s in plan.strategies],
           "parent_pid": os.getpid() if backend == "loky" else None}

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
            pass
        return wall

    last_write = t0
    try:
        if todo:
            with _Pool(backend, min(n_workers, len(todo)), scheduler) as parallel:
                import joblib

                for s in parallel(joblib.delayed(run_chunk)(job, c) for c in todo):
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


# ---------------------------------------------------------------- replay

DECISIONS = "decisions.json"       # a folder's recorded decisions per game (written by boardlab play)


def recorded_decisions(out, game_index):
    """The decisions ``decisions.json`` of a results folder records for ``game_index``, or None."""
    path = os.path.join(out, DECISIONS)
    if not os.path.isfile(path):
        return None
    with open(path) as f:
        doc = json.load(f)
    acts = doc.get("games", {}).get(str(int(game_index))) if isinstance(doc, dict) else None
    return None if acts is None else [int(a) for a in acts]


def replay(out, game_index):
    """Replay game ``game_index`` of the run in ``out`` from its seed.

    Returns a dict with ``seed``, ``transcript`` (list of dicts with "text"),
    ``scores`` (from the engine), ``stored`` (the players rows, one dict per
    seat) and ``mismatches`` (list of "column seat: replayed vs stored").
    """
    import pyarrow.parquet as pq

    if not os.path.isfile(os.path.join(out, R.MANIFEST)):
        raise ValueError(f"{out} has no manifest.json; is it a results folder?")
    manifest = read_manifest(out)
    games = manifest["games"]
    if not isinstance(game_index, int) or not 0 <= game_index < games:
        raise ValueError(f"game {game_index} is not in {out} (games 0 .. {games - 1})")
    mod = _get_game(manifest["game"])
    players = manifest["players"]
    chunking = manifest["chunking"]
    chunk = game_index // chunking["chunk_size"]
    name = R.part_name(chunk, chunking["file_digits"])
    seed = int(game_seeds(manifest["seed"], game_index, game_index + 1)[0])
    stored = None
    ppath = os.path.join(out, "players", name)
    gpath = os.path.join(out, "games", name)
    if os.path.exists(gpath) and os.path.exists(ppath):
        gtab = pq.read_table(gpath, columns=["game_index", "seed"]).to_pandas()
        row = gtab[gtab.game_index == game_index]
        if len(row) and int(row.seed.iloc[0]) != seed:
            raise ValueError(f"{out}: stored seed of game {game_index} ({int(row.seed.iloc[0])}) "
                             f"differs from the one derived from the run seed ({seed})")
        ptab = pq.read_table(ppath).to_pandas()
        stored = ptab[ptab.game_index == game_index].sort_values("seat").to_dict("records")
    config = mod.make_config(players, **manifest.get("variant", {}))
    recorded = recorded_decisions(out, game_index)       # a game played in the browser (boardlab play)
    if recorded is not None:
        state = mod.replay(players, seed, recorded, config=config)
    else:
        policies = [policy_argument(mod, d) for d in manifest["strategies"]]
        state = mod.replay_game(players, seed, policies=policies, config=config)
    transcript = state.transcript()
    scores = state.scores()
    mismatches = []
    if stored is not None:
        for col, values in scores.items():
            if col not in stored[0]:
                continue
            for seat, v in enumerate(values):
                if stored[seat][col] != v:
                    mismatches.append(f"{col} seat {seat}: replayed {v}, stored {stored[seat][col]}")
    return {"seed": seed, "transcript": transcript, "scores": scores, "stored": stored,
            "mismatches": mismatches, "manifest": manifest}
