"""Component data files: the stamp that lets a config cache see an edited file.

Each game's ``make_config`` caches configurations (and each engine its
compiled tables) by setting values; a data file edited in place keeps its
path, so the cache key also holds :func:`data_stamp` — path, modification
time and size of every file the configuration may read.
"""
import os
from pathlib import Path


def data_stamp(data_dir, paths=()):
    """``((path, mtime_ns, size), ...)`` of the ``*.json`` files of ``data_dir`` and of ``paths``.

    ``paths`` are a user's own files (already resolved); "default" and other
    non-file values are skipped, a missing file stamps as ``(path, 0, -1)``.
    """
    files = sorted(str(p) for p in Path(data_dir).glob("*.json"))
    files += sorted(str(p) for p in paths if p and os.path.isfile(str(p)))
    out = []
    for f in files:
        try:
            st = os.stat(f)
            out.append((f, st.st_mtime_ns, st.st_size))
        except OSError:
            out.append((f, 0, -1))
    return tuple(out)
