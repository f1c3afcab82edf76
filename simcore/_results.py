"""Results folder layout and the conversion of ``play_batch`` output to Parquet.

A run folder holds ``manifest.json`` and one directory per table
(``games/``, ``players/``, ``events/``) with one Parquet file per chunk
(``part-00042.parquet``). Every file is written under a temporary name,
fsynced and renamed into place, so a reader never sees a half-written part.
See ``docs/results.md`` for the columns.
"""
import hashlib
import json
import os

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from simcore._data import write_bytes_atomic
from simcore._manifest import MANIFEST, check_manifest  # noqa: F401  (the layout's names, here too)

TABLES = ("games", "players", "events")
FORMAT = 1
TMP_MARK = ".tmp-"


def part_name(chunk, digits):
    return f"part-{chunk:0{digits}d}.parquet"


def part_digits(n_chunks):
    return max(5, len(str(max(n_chunks - 1, 0))))


def index_dtype(games):
    """Smallest signed integer type that holds every game index of a run."""
    return np.int32 if games <= np.iinfo(np.int32).max else np.int64


def _fsync_dir(path):
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def atomic_write_bytes(path, data):
    """Write ``data`` to ``path`` through a temp file (``TMP_MARK`` in its name), fsync and rename."""
    write_bytes_atomic(path, data, mark=TMP_MARK)
    _fsync_dir(os.path.dirname(path) or ".")


def write_json(path, obj):
    atomic_write_bytes(path, (json.dumps(obj, indent=2, sort_keys=False) + "\n").encode())


IDENTITY_KEY = b"boardlab.part"     # key of a part's identity in its Parquet metadata


def part_identity(run_id, seed, config_hash, chunk, table):
    """What a part says of itself (in its Parquet key-value metadata): whose run, which chunk, which table."""
    return {"run_id": run_id, "seed": int(seed), "config_hash": config_hash, "chunk": int(chunk),
            "table": table}


def write_parquet(path, table, identity=None):
    """Write ``table`` to ``path`` atomically (temp name, fsync, rename); return its manifest entry.

    ``identity`` (:func:`part_identity`) goes into the file's metadata. The
    entry is ``{"sha256", "bytes", "rows"}`` of the bytes written, so a reader
    can tell this part from a damaged or foreign one.
    """
    import io

    if identity is not None:
        meta = dict(table.schema.metadata or {})
        meta[IDENTITY_KEY] = json.dumps(identity, sort_keys=True).encode()
        table = table.replace_schema_metadata(meta)
    buf = io.BytesIO()
    pq.write_table(table, buf, compression="zstd", use_dictionary=True, write_statistics=True)
    data = buf.getbuffer()
    atomic_write_bytes(path, data)
    return {"sha256": hashlib.sha256(data).hexdigest(), "bytes": len(data), "rows": table.num_rows}


def file_sha256(path):
    """sha256 of the file ``path`` (read in 4-MB blocks)."""
    h = hashlib.sha256()
    with open(path, "rb") as f:
        while True:
            block = f.read(1 << 22)
            if not block:
                return h.hexdigest()
            h.update(block)


def read_identity(path):
    """The identity dict a part carries (``None`` for a part written before parts had one)."""
    meta = pq.read_schema(path).metadata or {}
    raw = meta.get(IDENTITY_KEY)
    return None if raw is None else json.loads(raw)


def remove_temp_files(out):
    """Delete temporary files left by an interrupted writer."""
    removed = 0
    for sub in ("",) + TABLES:
        d = os.path.join(out, sub)
        if not os.path.isdir(d):
            continue
        for name in os.listdir(d):
            if name.startswith(".") and TMP_MARK in name:
                try:
                    os.unlink(os.path.join(d, name))
                    removed += 1
                except OSError:
                    pass
    return removed


def _flat_columns(columns, length, table):
    """Yield (name, 1-D array); 2-D (n, k) arrays become name_0 .. name_{k-1}."""
    for name, values in columns.items():
        arr = np.asarray(values)
        if arr.shape[:1] != (length,):
            raise ValueError(f"{table} column '{name}' has shape {arr.shape}, expected ({length}, ...)")
        if arr.ndim == 1:
            yield name, arr
        elif arr.ndim == 2:
            for j in range(arr.shape[1]):
                yield f"{name}_{j}", np.ascontiguousarray(arr[:, j])
        else:
            raise ValueError(f"{table} column '{name}' has {arr.ndim} dimensions (1 or 2 allowed)")


def _arrow(arr):
    """A numpy column as an Arrow array, built from its buffer.

    ``pa.array`` on an ndarray imports pandas (about a second in each fresh
    worker); numeric columns need only their buffer.
    """
    arr = np.ascontiguousarray(arr)
    if arr.dtype == np.bool_:
        bits = np.packbits(arr, bitorder="little")
        return pa.Array.from_buffers(pa.bool_(), len(arr), [None, pa.py_buffer(bits)])
    if arr.dtype.kind in "iuf":
        return pa.Array.from_buffers(pa.from_numpy_dtype(arr.dtype), len(arr), [None, pa.py_buffer(arr)])
    return pa.array(arr.astype(str) if arr.dtype.kind in "US" else arr)


def _cycle_strings(values, n):
    """String column ``values * n`` (``values`` repeated n times) built from buffers.

    No Python object per row and no ``pyarrow.compute`` (slow to import in a
    fresh worker).
    """
    enc = [str(v).encode() for v in values]
    lens = np.tile(np.array([len(b) for b in enc], dtype=np.int64), n)
    offsets = np.zeros(len(lens) + 1, dtype=np.int64)
    np.cumsum(lens, out=offsets[1:])
    if offsets[-1] < 2**31:
        return pa.StringArray.from_buffers(len(lens), pa.py_buffer(offsets.astype(np.int32)),
                                           pa.py_buffer(b"".join(enc) * n))
    return pa.LargeStringArray.from_buffers(len(lens), pa.py_buffer(offsets),
                                            pa.py_buffer(b"".join(enc) * n)).cast(pa.string())


def games_table(cols, start, seeds, run_id, idx_dtype):
    """Games table of one chunk: run_id, game_index, then the engine columns."""
    n = len(seeds)
    names = ["run_id", "game_index"]
    arrays = [_cycle_strings([run_id], n),
              _arrow(np.arange(start, start + n, dtype=idx_dtype))]
    engine = dict(cols)
    if "seed" not in engine:
        engine = {"seed": seeds, **engine}
    for name, arr in _flat_columns(engine, n, "games"):
        if name in ("run_id", "game_index"):
            continue
        names.append(name)
        arrays.append(_arrow(arr))
    return pa.Table.from_arrays(arrays, names=names)


def players_table(cols, start, n, players, strategy_names, idx_dtype):
    """Players table of one chunk, one row per (game, seat), game-major."""
    names = ["game_index", "seat", "strategy"]
    arrays = [_arrow(np.repeat(np.arange(start, start + n, dtype=idx_dtype), players)),
              _arrow(np.tile(np.arange(players, dtype=np.int8), n)),
              _cycle_strings(strategy_names, n)]
    for name, values in cols.items():
        arr = np.asarray(values)
        if arr.ndim == 2 and arr.shape == (n, players):
            flat = arr.reshape(-1)
        elif arr.ndim == 1 and arr.shape == (n,):  # a per-game value repeated on each seat
            flat = np.repeat(arr, players)
        else:
            raise ValueError(f"players column '{name}' has shape {arr.shape}, expected ({n}, {players})")
        names.append(name)
        arrays.append(_arrow(np.ascontiguousarray(flat)))
    return pa.Table.from_arrays(arrays, names=names)


def events_table(cols, start, idx_dtype):
    """Events table of one chunk: game_index (from the engine's ``game`` row index), then the rest."""
    if "game" not in cols:
        raise ValueError("events have no 'game' column (row index into the chunk's seeds)")
    game = np.asarray(cols["game"])
    n = len(game)
    names = ["game_index"]
    arrays = [_arrow(game.astype(idx_dtype) + idx_dtype(start))]
    for name, arr in _flat_columns({k: v for k, v in cols.items() if k != "game"}, n, "events"):
        names.append(name)
        arrays.append(_arrow(arr))
    return pa.Table.from_arrays(arrays, names=names)
