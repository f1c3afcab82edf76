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


def read_file(path, what, parse, errors=()):
    """``parse(binary file)`` of ``path``; any failure is a one-line ``ValueError`` naming ``what`` and the file.

    ``errors``: the parser's own exception types (``json.JSONDecodeError``,
    ``tomllib.TOMLDecodeError``), reported as "not valid ...".
    """
    path = os.fspath(path)
    try:
        with open(path, "rb") as fh:
            return parse(fh)
    except FileNotFoundError:
        raise ValueError(f"{what} file not found: {path}") from None
    except IsADirectoryError:
        raise ValueError(f"{path}: a folder, not a {what} file") from None
    except UnicodeDecodeError as exc:
        raise ValueError(f"{path}: {what} file is not UTF-8 text (byte {exc.start}: "
                         f"{exc.object[exc.start:exc.start + 1]!r})") from None
    except errors as exc:
        raise ValueError(f"{path}: {what} file is not valid {_format_name(exc)} ({exc})") from None
    except RecursionError:
        raise ValueError(f"{path}: {what} file is nested too deeply to be a {what} file") from None
    except OSError as exc:
        raise ValueError(f"{path}: {what} file is unreadable ({exc.strerror or exc})") from None


def _format_name(exc):
    return "TOML" if "TOML" in type(exc).__name__ else "JSON"


def read_json(path, what):
    """The JSON document in ``path`` (UTF-8); ``ValueError`` naming ``what`` and the file otherwise."""
    import json
    return read_file(path, what, lambda fh: json.loads(fh.read().decode("utf-8")), (json.JSONDecodeError,))


def read_toml(path, what):
    """The TOML document in ``path``; ``ValueError`` naming ``what`` and the file otherwise."""
    import tomllib
    return read_file(path, what, tomllib.load, (tomllib.TOMLDecodeError,))


def data_file(key, value, allowed=("default",)):
    """The resolved path of a ``KEY=FILE`` setting, or a one-line ``ValueError``: not found, a folder."""
    p = Path(str(value))
    names = " or ".join(", ".join(map(str, allowed)).rsplit(", ", 1))
    try:
        if p.is_file():
            return str(p.resolve())
        is_dir = p.is_dir()
    except OSError as exc:          # a name too long, a link loop
        raise ValueError(f"{key}: {value}: {exc.strerror or exc} (give {names} or a JSON file path)") from None
    if is_dir:
        raise ValueError(f"{key}: {value} is a folder, not a JSON file (give {names} or a JSON file)")
    raise ValueError(f"{key}: file not found: {value} (give {names} or a JSON file path)")


def write_text_atomic(path, text):
    """Write ``text`` (UTF-8) to ``path`` through a temporary name in its folder, fsync and rename.

    A full disk or a killed process leaves ``path`` as it was (no 0-byte or
    half-written file) and no temporary file behind; an ``OSError`` names
    ``path`` itself.
    """
    write_bytes_atomic(path, text.encode("utf-8"))


def write_bytes_atomic(path, data, mark=".tmp-"):
    """:func:`write_text_atomic` for bytes; the temporary name is ``.<name><mark><pid>-<random>``."""
    import uuid

    path = os.fspath(path)
    directory = os.path.dirname(os.path.abspath(path))
    tmp = os.path.join(directory, f".{os.path.basename(path)}{mark}{os.getpid()}-{uuid.uuid4().hex[:8]}")
    try:
        with open(tmp, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException as exc:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if isinstance(exc, OSError) and exc.errno is not None:
            # name the file meant, not its temporary name (ENOSPC, EACCES, ENAMETOOLONG, ELOOP ...)
            raise OSError(exc.errno, exc.strerror, path) from None
        raise
