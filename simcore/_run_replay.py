"""Replaying one game of a results folder from its seed (``boardlab replay``).

Part of the runner (``simcore.run``).
"""
import os

from simcore import _results as R
from simcore._contract import policy_argument
from simcore._manifest import read_manifest
from simcore._run_folder import verify_part
from simcore._run_plan import _get_game
from simcore.rng import game_seeds

DECISIONS = "decisions.json"       # a folder's recorded decisions per game (written by boardlab play)


def recorded_decisions(out, game_index):
    """The decisions ``decisions.json`` of a results folder records for ``game_index``, or None."""
    import json

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
    parts = manifest.get("parts")
    listed = parts is None or all(f"{t}/{name}" in parts for t in ("games", "players"))
    for t, path in (("games", gpath), ("players", ppath)):
        if parts is not None and f"{t}/{name}" in parts and not os.path.exists(path):
            raise ValueError(f"part {t}/{name} is listed in the manifest of {out} but missing; rerun the run's "
                             f"`boardlab simulate` command to play its chunk again")
    if os.path.exists(gpath) and os.path.exists(ppath) and listed:
        for t in ("games", "players") if parts is not None else ():
            verify_part(out, f"{t}/{name}", parts[f"{t}/{name}"])
        try:
            gtab = pq.read_table(gpath, columns=["game_index", "seed"]).to_pandas()
            ptab = pq.read_table(ppath).to_pandas()
        except Exception as exc:       # pyarrow's errors on a damaged file (ArrowInvalid, OSError)
            raise ValueError(f"part {gpath} or {ppath} is unreadable ({' '.join(str(exc).split())[:120]}); "
                             f"delete it and rerun the run's `boardlab simulate` command") from None
        row = gtab[gtab.game_index == game_index]
        if len(row) and int(row.seed.iloc[0]) != seed:
            raise ValueError(f"{out}: stored seed of game {game_index} ({int(row.seed.iloc[0])}) "
                             f"differs from the one derived from the run seed ({seed})")
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
