"""The manifest of a results folder: its name, its check, and reading it.

Kept apart from ``simcore._results`` (the Parquet writing, which imports
pyarrow) so that reading a folder's manifest (``boardlab report``, replay)
costs no pyarrow import.
"""
import hashlib
import json
import os
import re

MANIFEST = "manifest.json"
# what determines a run's tables, digested into its run_id (chunking aside)
RUN_ID_KEYS = ("format", "game", "players", "strategies", "settings", "seed", "games", "events")
_SHA256 = re.compile(r"[0-9a-f]{64}")


def run_id_of(spec):
    """The run id of a run's spec (a plan's, or a manifest as read back): equal ids, equal tables."""
    blob = json.dumps({k: spec.get(k) for k in RUN_ID_KEYS}, sort_keys=True).encode()
    return hashlib.sha256(blob).hexdigest()[:16]


def _is_int(v, low):
    return isinstance(v, int) and not isinstance(v, bool) and v >= low


_MANIFEST_TYPES = (
    # key, check, what it must be
    ("game", lambda v: isinstance(v, str) and v != "", "a game name"),
    ("players", lambda v: _is_int(v, 1), "a positive integer"),
    ("seed", lambda v: _is_int(v, 0), "a non-negative integer"),
    ("games", lambda v: _is_int(v, 1), "a positive integer"),
    ("events", lambda v: isinstance(v, bool), "true or false"),
    ("strategies", lambda v: isinstance(v, list) and all(isinstance(s, dict) for s in v), "a list of objects"),
    ("chunking", lambda v: isinstance(v, dict), "an object"),
)
_CHUNKING_TYPES = ("chunk_size", "n_chunks", "file_digits")


def check_manifest(doc, path):
    """``doc`` if it is a well-formed manifest, else ``ValueError`` naming ``path`` and the bad key."""
    if not isinstance(doc, dict):
        raise ValueError(f"{path}: a manifest must be a JSON object, not {type(doc).__name__}")
    for key, ok, what in _MANIFEST_TYPES:
        if key not in doc:
            raise ValueError(f"{path}: key '{key}' is missing; is this a boardlab results folder?")
        if not ok(doc[key]):
            raise ValueError(f"{path}: key '{key}' must be {what}, not {json.dumps(doc[key])}")
    for key in _CHUNKING_TYPES:
        v = doc["chunking"].get(key)
        if not _is_int(v, 1):
            raise ValueError(f"{path}: key 'chunking.{key}' must be a positive integer, not {json.dumps(v)}")
    c = doc["chunking"]
    if c["n_chunks"] != -(-doc["games"] // c["chunk_size"]):
        raise ValueError(f"{path}: 'chunking.n_chunks' is {c['n_chunks']}, but {doc['games']} games in chunks "
                         f"of {c['chunk_size']} make {-(-doc['games'] // c['chunk_size'])}")
    if len(doc["strategies"]) != doc["players"]:
        raise ValueError(f"{path}: key 'strategies' holds {len(doc['strategies'])} strategies for "
                         f"{doc['players']} players")
    if not isinstance(doc.get("variant", {}), dict):
        raise ValueError(f"{path}: key 'variant' must be an object, not {json.dumps(doc['variant'])}")
    _check_variant(doc, path)
    _check_parts(doc, path)
    if "run_id" in doc and run_id_of(doc) != doc["run_id"]:
        raise ValueError(f"{path}: the run it describes (game, players, strategies, settings, seed, games) "
                         f"does not match its run_id {json.dumps(doc['run_id'])}: the manifest was edited; "
                         f"restore it, or play the run again into a new folder")
    return doc


def _same_setting(given, played):
    """Whether a variant's value as given (``"1,0"``, ``"false"``, a path) is the setting ``played`` resolved."""
    if not isinstance(given, str):
        return given == played
    text = given.strip().lower()
    if isinstance(played, bool):
        return text in (("true", "1", "yes") if played else ("false", "0", "no"))
    if isinstance(played, list):
        return text.replace(" ", "") == ",".join(str(x) for x in played).lower()
    if isinstance(played, str) and os.sep in played:      # a data file: recorded resolved
        return os.path.basename(given.strip()) == os.path.basename(played) or given.strip() == played
    return text == str(played).lower()


def _check_variant(doc, path):
    """The variant as given must be what the run was played with (``settings``): an edit of one is refused."""
    settings = doc.get("settings")
    if not isinstance(settings, dict):
        return
    for key, value in doc.get("variant", {}).items():
        if key in settings and not _same_setting(value, settings[key]):
            raise ValueError(f"{path}: its variant says {key}={value} but the run was played with "
                             f"{key}={json.dumps(settings[key])}: the manifest was edited; restore it, or play "
                             f"the run again into a new folder")
        if key not in settings and key not in ("seat_points", "seat_bonus"):
            raise ValueError(f"{path}: its variant names {key!r}, a setting the run was not played with: the "
                             f"manifest was edited; restore it, or play the run again into a new folder")


def _check_parts(doc, path):
    """The ``parts`` entries (written by the runner since parts have checksums), if any."""
    parts = doc.get("parts")
    if parts is None:
        return
    if not isinstance(parts, dict):
        raise ValueError(f"{path}: key 'parts' must be an object, not {json.dumps(parts)[:60]}")
    n = doc["chunking"]["n_chunks"]
    names = re.compile(r"(games|players|events)/part-(\d+)\.parquet")
    for rel, e in parts.items():
        m = names.fullmatch(rel)
        ok = (m is not None and isinstance(e, dict) and isinstance(e.get("sha256"), str)
              and _SHA256.fullmatch(e["sha256"]) and _is_int(e.get("bytes"), 1) and _is_int(e.get("rows"), 0)
              and _is_int(e.get("chunk"), 0) and e["chunk"] < n and int(m.group(2)) == e["chunk"])
        if not ok:
            raise ValueError(f"{path}: part entry {json.dumps(rel)[:80]} is malformed (need a table/part-N.parquet "
                             f"name and sha256, bytes, rows, chunk 0..{n - 1}); restore the manifest")


def read_manifest(out):
    """The manifest of results folder ``out``, checked (``ValueError`` naming the file and the bad key)."""
    from simcore._data import read_json

    path = os.path.join(out, MANIFEST)
    return check_manifest(read_json(path, "manifest"), path)
