"""The results folder of a run: its manifest (created or checked), its finished chunks, provenance.

Part of the runner (``simcore.run``).
"""
import datetime as _dt
import errno
import fcntl
import functools
import json
import os
import platform
import subprocess

import numpy as np

import simcore
from simcore import _results as R
from simcore._manifest import read_manifest
from simcore._run_plan import SPEC_KEYS, RunMismatch, _jsonable

LOCK = ".lock"


def lock_folder(out):
    """Take the folder's writer lock (an ``flock`` on ``out/.lock``) and return its descriptor.

    One writer at a time: a second ``simulate`` on the same folder is refused
    at once, naming the process that holds it. The operating system drops the
    lock when the holder dies (even with ``kill -9``); close the descriptor to
    release it earlier.
    """
    os.makedirs(out, exist_ok=True)
    path = os.path.join(out, LOCK)
    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as exc:
        try:
            holder = os.pread(fd, 32, 0).decode(errors="replace").strip() or "?"
        except OSError:
            holder = "?"
        os.close(fd)
        if exc.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
            raise RunMismatch(f"{out} is being written by another boardlab process (pid {holder}); "
                              f"wait for it to end, or use another output folder") from None
        raise
    os.ftruncate(fd, 0)
    os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
    return fd


def unlock_folder(fd):
    try:
        os.close(fd)
    except OSError:
        pass


def _win_summary(win_share, n, players):
    return {"games": n, "win_share": win_share.reshape(n, players).sum(axis=0).tolist()}


def _chunk_done(out, plan, chunk, parts=None):
    """A chunk is finished when every part exists and matches its entry in the manifest.

    ``parts``: the manifest's ``parts`` (``{"games/part-00000.parquet":
    {"sha256", "bytes", "rows", "chunk"}}``). A part on disk that the manifest
    does not list (its writer died before the manifest was updated, or it
    was copied in) is not finished: the chunk is played again. A listed part
    that differs from its checksum is refused (``RunMismatch`` naming it).
    A folder from before checksums (``parts`` None) is judged by row counts.
    """
    if parts is not None:
        tables = R.TABLES if plan.events else ("games", "players")
        name = R.part_name(chunk, plan.digits)
        for t in tables:
            rel = f"{t}/{name}"
            if rel not in parts or not os.path.exists(os.path.join(out, rel)):
                return False
        for t in tables:
            verify_part(out, f"{t}/{name}", parts[f"{t}/{name}"])
        return True
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


def verify_part(out, rel, entry):
    """Check part ``rel`` of folder ``out`` against its manifest ``entry``; ``RunMismatch`` naming it."""
    path = os.path.join(out, rel)
    fix = (f"delete {path} and rerun the same `boardlab simulate` command (its chunk is played again), "
           f"or `boardlab check {out}` for the whole folder")
    try:
        size = os.path.getsize(path)
        digest = R.file_sha256(path) if size == entry.get("bytes") else None
    except OSError as exc:
        raise RunMismatch(f"part {path} is unreadable ({exc.strerror}); {fix}") from None
    if digest is None or digest != entry.get("sha256"):
        raise RunMismatch(f"part {path} does not match its checksum in the manifest (damaged, or copied "
                          f"from another run); {fix}")


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
            return _built_commit()
        dirty = subprocess.run(["git", "-C", here, "status", "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True, timeout=5)
        return commit.stdout.strip(), bool(dirty.stdout.strip())
    except (OSError, subprocess.SubprocessError):
        return _built_commit()


def _built_commit():
    """(commit, dirty) recorded by setup.py when this copy was built (an install from a checkout,
    outside any git tree); (None, None) without a record."""
    try:
        from simcore import _build_info
    except ImportError:
        return None, None
    return getattr(_build_info, "COMMIT", None), getattr(_build_info, "DIRTY", None)


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
        for t in R.TABLES if plan.events else ("games", "players"):
            os.makedirs(os.path.join(out, t), exist_ok=True)      # a table's folder deleted: its chunks again
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
        "parts": {},        # "table/part-N.parquet" -> sha256, bytes, rows, chunk (R.write_parquet)
    }
    R.write_json(path, manifest)
    return manifest, False


def _finished(out, plan):
    """Whether ``out`` already holds this run, complete (nothing to estimate: no probe games)."""
    try:
        m = read_manifest(out)
    except (OSError, ValueError):
        return False
    return isinstance(m, dict) and m.get("status") == "complete" and m.get("run_id") == plan.run_id
