"""Checking a results folder whole (``boardlab check RUN``): is every part the one its manifest lists?

For each chunk and table the part must exist, be listed in the manifest's
``parts`` with its size and sha256, carry the run's identity in its Parquet
metadata (run id, run seed, configuration hash, chunk, table) and hold the
chunk's row count. Files the manifest does not know (a part copied in, a
temporary file of a killed writer) and a writer at work are reported too.
"""
import errno
import fcntl
import os
import re

from simcore import _results as R
from simcore._manifest import read_manifest

_PART = re.compile(r"part-(\d+)\.parquet")


def writer_pid(out):
    """The pid of the process writing ``out`` now (it holds the folder's lock), or ``None``."""
    from simcore._run_folder import LOCK

    path = os.path.join(out, LOCK)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
    except OSError:
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        return None
    except OSError as exc:
        if exc.errno not in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
            return None
        return os.pread(fd, 32, 0).decode(errors="replace").strip() or "?"
    finally:
        os.close(fd)


def check_folder(out, checksums=True):
    """``(problems, summary)``: one line per problem found in results folder ``out``, and a summary line.

    ``checksums=False`` skips reading every part whole (sizes, identities
    and row counts are still checked). Raises ``ValueError`` when ``out`` is
    not a results folder at all (no manifest, or an unreadable one).
    """
    from simcore._run_plan import config_hash

    out = os.fspath(out)
    if not os.path.isdir(out):
        raise ValueError(f"{out}: no such results folder")
    if not os.path.isfile(os.path.join(out, R.MANIFEST)):
        raise ValueError(f"{out} has no manifest.json; is it a results folder of `boardlab simulate`?")
    m = read_manifest(out)          # well-formed, and its run_id matches what it describes
    problems = []
    pid = writer_pid(out)
    if pid is not None:
        problems.append(f"{out} is being written now by process {pid}: check it again when that run ends")
    parts = m.get("parts")
    if parts is None:
        problems.append(f"{out} was written before parts had checksums: only row counts can be checked; "
                        f"play the run again into a new folder for a checkable copy")
    tables = [t for t in R.TABLES if m["events"] or t != "events"]
    c = m["chunking"]
    n_chunks, size, digits = c["n_chunks"], c["chunk_size"], c["file_digits"]
    chash = config_hash(m)
    fix = "delete it and rerun the run's `boardlab simulate` command (its chunk is played again)"
    finished = 0
    for chunk in range(n_chunks):
        name = R.part_name(chunk, digits)
        games = min(size, m["games"] - chunk * size)
        ok_chunk = True
        for t in tables:
            rel = f"{t}/{name}"
            path = os.path.join(out, rel)
            entry = None if parts is None else parts.get(rel)
            if not os.path.exists(path):
                ok_chunk = False
                if entry is not None:
                    problems.append(f"part {rel} is listed in the manifest but missing; rerun the run's "
                                    f"`boardlab simulate` command to play its chunk again")
                continue
            if parts is not None and entry is None:
                ok_chunk = False
                problems.append(f"part {rel} is not listed in the manifest (its writer died before saying so, "
                                f"or it was copied in); rerun the run's `boardlab simulate` command, which "
                                f"plays its chunk again")
                continue
            problem = _check_part(path, rel, entry, m, chash, chunk, t, games, checksums)
            if problem:
                ok_chunk = False
                problems.append(f"part {rel} {problem}; {fix}")
        finished += ok_chunk
    for t in R.TABLES:
        d = os.path.join(out, t)
        for fname in sorted(os.listdir(d)) if os.path.isdir(d) else ():
            mm = _PART.fullmatch(fname)
            if R.TMP_MARK in fname:
                problems.append(f"{t}/{fname} is a temporary file of an interrupted writer; rerun the run's "
                                f"`boardlab simulate` command (it removes them) or delete it")
            elif mm and (t not in tables or int(mm.group(1)) >= n_chunks or fname != R.part_name(int(mm.group(1)), digits)):
                problems.append(f"{t}/{fname} is not a part of this run ({n_chunks} chunks); delete it")
    if finished < n_chunks and m.get("status") == "complete":
        problems.append(f"the manifest says 'complete' but {n_chunks - finished} of {n_chunks} chunks are not "
                        f"finished; rerun the run's `boardlab simulate` command")
    summary = (f"{out}: {m['game']}, {m['players']} players, seed {m['seed']}, {finished} of {n_chunks} chunks "
               f"finished ({m.get('status')}), {len(problems)} problem{'s' * (len(problems) != 1)}")
    return problems, summary


def _check_part(path, rel, entry, m, chash, chunk, table, games, checksums):
    """What is wrong with one part (a phrase), or ``None``."""
    import pyarrow.parquet as pq

    try:
        st = os.stat(path)
        if entry is not None and st.st_size != entry["bytes"]:
            return f"has {st.st_size} bytes, the manifest lists {entry['bytes']} (damaged or replaced)"
        if entry is not None and checksums and R.file_sha256(path) != entry["sha256"]:
            return "does not match its checksum in the manifest (damaged, or copied from another run)"
        meta = pq.read_metadata(path)
        rows = meta.num_rows
        identity = R.read_identity(path)
    except OSError as exc:
        return f"is unreadable ({exc.strerror or exc})"
    except Exception as exc:          # pyarrow's ArrowInvalid on a torn or foreign file
        return f"is not a readable Parquet file ({' '.join(str(exc).split())[:100]})"
    want = {"games": games, "players": games * m["players"]}.get(table)
    if want is not None and rows != want:
        return f"has {rows} rows, chunk {chunk} needs {want}"
    if identity is not None:
        expect = R.part_identity(m.get("run_id"), m["seed"], chash, chunk, table)
        wrong = [k for k in expect if identity.get(k) != expect[k]]
        if wrong:
            return ("belongs to another run or chunk (" +
                    ", ".join(f"{k} {identity.get(k)!r}, not {expect[k]!r}" for k in wrong) + ")")
    elif m.get("parts") is not None:
        return "carries no run identity (written by another tool, or before parts had one)"
    return None
