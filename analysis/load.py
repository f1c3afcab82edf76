"""Load a results folder written by ``boardlab simulate`` (``docs/results.md``).

This module reads files only; it never imports ``simcore``, so it works on a
folder that came from a cluster or from last year.
"""
import glob
import hashlib
import json
import os
from dataclasses import dataclass, field

import polars as pl

TABLES = ("games", "players", "events")
# what a run id digests (simcore/_manifest.py writes it; recomputed here to see an edited manifest)
RUN_ID_KEYS = ("format", "game", "players", "strategies", "settings", "seed", "games", "events")


@dataclass
class Run:
    """A results folder: the three tables as polars LazyFrames, and the manifest."""

    path: str
    manifest: dict
    games: pl.LazyFrame
    players: pl.LazyFrame
    events: pl.LazyFrame
    files: dict = field(default_factory=dict)   # table -> its Parquet parts, in chunk order

    @property
    def complete(self):
        return self.manifest.get("status") == "complete"


def _check_run_id(path, manifest):
    rid = manifest.get("run_id")
    if rid is None:
        return
    blob = json.dumps({k: manifest.get(k) for k in RUN_ID_KEYS}, sort_keys=True).encode()
    if hashlib.sha256(blob).hexdigest()[:16] != rid:
        raise ValueError(f"{path}: manifest.json describes another run than its run_id {rid} (game, players, "
                         f"strategies, settings, seed or games edited); restore it, or play the run again "
                         f"into a new folder")


def _verify(path, rel, entry):
    """The part ``rel`` is the one the manifest lists: same size and sha256; else a one-line ValueError."""
    fpath = os.path.join(path, rel)
    fix = (f"delete it and rerun the run's `boardlab simulate` command (its chunk is played again); "
           f"`boardlab check {path}` lists every problem")
    ok = False
    try:
        if isinstance(entry, dict) and os.path.getsize(fpath) == entry.get("bytes"):
            h = hashlib.sha256()
            with open(fpath, "rb") as f:
                for block in iter(lambda: f.read(1 << 22), b""):
                    h.update(block)
            ok = h.hexdigest() == entry.get("sha256")
    except OSError as exc:
        raise ValueError(f"{path}: part {rel} is unreadable ({exc.strerror}); {fix}") from None
    if not ok:
        raise ValueError(f"{path}: part {rel} does not match its checksum in manifest.json (damaged, or "
                         f"copied from another run); {fix}")


def _part_name(chunk, digits):
    return f"part-{chunk:0{digits}d}.parquet"


def load_run(path, allow_partial=False, check_files=True):
    """Open the results folder ``path``.

    Parameters
    ----------
    path : str or os.PathLike
        Folder holding ``manifest.json`` and ``games/``, ``players/``, ``events/``.
    allow_partial : bool
        Accept a run with missing chunks (an interrupted run): the tables then
        hold the finished chunks only. By default such a folder is refused.
    check_files : bool
        Read every part's footer, so a corrupt or truncated file is reported
        now, naming the file, instead of failing later inside a query.

    Returns
    -------
    Run
        ``games``, ``players``, ``events`` (LazyFrames) and ``manifest`` (dict).

    Raises
    ------
    ValueError
        The folder is missing, has no readable manifest, misses chunks or holds
        a corrupt part; the message names the folder and the problem.

    Examples
    --------
    >>> run = load_run("runs/hellas-3p")                      # doctest: +SKIP
    >>> run.players.group_by("seat").agg(pl.col("win_share").mean()).collect()  # doctest: +SKIP
    """
    path = os.fspath(path)
    if not os.path.isdir(path):
        raise ValueError(f"{path}: no such results folder")
    mpath = os.path.join(path, "manifest.json")
    if not os.path.exists(mpath):
        raise ValueError(f"{path}: no manifest.json; is this a results folder of `boardlab simulate`?")
    try:
        with open(mpath) as f:
            manifest = json.load(f)
        chunking = manifest["chunking"]
        n_chunks, digits = int(chunking["n_chunks"]), int(chunking["file_digits"])
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise ValueError(f"{path}: manifest.json is corrupt or not a boardlab manifest ({exc!r})") from None
    if not isinstance(manifest, dict):
        raise ValueError(f"{path}: manifest.json is not a boardlab manifest (a JSON object)")
    _check_run_id(path, manifest)
    tables = [t for t in TABLES if t in manifest.get("tables", {t: None for t in TABLES})]
    checksums = manifest.get("parts")       # None: a folder from before parts had checksums
    if checksums is not None and not isinstance(checksums, dict):
        raise ValueError(f"{path}: manifest.json key 'parts' is not an object; the manifest is damaged")

    names = [_part_name(c, digits) for c in range(n_chunks)]
    present = {t: [n for n in names if os.path.exists(os.path.join(path, t, n))
                   and (checksums is None or f"{t}/{n}" in checksums)] for t in tables}
    finished = set(present.get("games", []))
    for t in tables:
        finished &= set(present[t])
    finished = [n for n in names if n in finished]
    if len(finished) < n_chunks and not allow_partial:
        missing = n_chunks - len(finished)
        raise ValueError(f"{path}: run incomplete, {missing} of {n_chunks} chunks missing "
                         f"(status '{manifest.get('status')}'); rerun the same `boardlab simulate` "
                         f"command to finish it, or use only the finished chunks (`boardlab report "
                         f"--partial`, `load_run(..., allow_partial=True)`)")
    if not finished:
        raise ValueError(f"{path}: no finished chunk yet")

    frames, parts = {}, {}
    for t in TABLES:
        if t not in tables:
            frames[t] = pl.LazyFrame()
            continue
        files = [os.path.join(path, t, n) for n in finished]
        if checksums is not None:
            for n in finished:
                _verify(path, f"{t}/{n}", checksums[f"{t}/{n}"])
        elif check_files:
            for fpath in files:
                try:
                    pl.read_parquet_schema(fpath)      # the footer: a torn write fails here
                except Exception as exc:
                    raise ValueError(f"{path}: corrupt part {os.path.relpath(fpath, path)} ({exc}); "
                                     f"delete it and rerun the same `boardlab simulate` command") from None
        stray = [f for f in glob.glob(os.path.join(path, t, "part-*.parquet"))
                 if os.path.basename(f) not in set(names)]
        if stray:
            raise ValueError(f"{path}: {t}/ holds parts the manifest does not list "
                             f"({os.path.basename(stray[0])}, ...)")
        frames[t] = pl.scan_parquet(files)
        parts[t] = files
    return Run(path=path, manifest=manifest, games=frames["games"], players=frames["players"],
               events=frames["events"], files=parts)
