"""Issue 34: every data file checked against its declared schema before any game.

The issue's cases each reached the engine: a segfault (Akrotiri tile with no
land), silent wrap-around (Yamataï points, coins, port capacity), tracebacks
(Hellas ``{"fields": 5}``, a Yamataï sea naming island 999, Akrotiri map points
beyond 8 bits). Each is now one line naming the file, the field and the range.
"""
import json
import os
import subprocess
import sys

import pytest

import simcore
from simcore import _schema as S

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def _doc(game, name):
    with open(os.path.join(ROOT, "simcore", game, "data", name)) as f:
        return json.load(f)


CASES = [  # game, players, setting, file, change, words of the error
    ("akrotiri", 2, "tiles", "tiles.json", lambda d: d["tiles"][0].update(land=[]),
     ["field tiles[0].land has 0 items", "allowed 1..4"]),
    ("yamatai", 3, "buildings", "buildings.json", lambda d: d["tiles"][0].update(pp=10 ** 6),
     ["field tiles[0].pp is 1000000", "allowed 0..50", "16 bits"]),
    ("yamatai", 3, "player_board", "player_board.json", lambda d: d["setup"].update(start_coins=10 ** 7),
     ["field setup.start_coins is 10000000", "allowed 0..1000"]),
    ("yamatai", 3, "player_board", "player_board.json", lambda d: d.update(port_capacity=-1),
     ["field port_capacity is -1", "allowed 0..20"]),
    ("yamatai", 3, "player_board", "player_board.json", lambda d: d.update(coins_per_pp=0),
     ["field coins_per_pp is 0", "divide by zero"]),
    ("hellas", 3, "board", "board_minotaur.json", lambda d: {"fields": 5}, ["field fields is 5", "a list"]),
    ("yamatai", 3, "board", "board.json", lambda d: d["sea"][0]["island_neighbours"].append(999),
     ["field sea[0].island_neighbours[1] is 999", "allowed 0..63"]),
    ("yamatai", 3, "board", "board.json", lambda d: d["sea"][0]["island_neighbours"].append(40),
     ["names island 40", "0..33"]),
    ("akrotiri", 2, "maps", "maps.json", lambda d: d["cards"][0].update(points=300),
     ["field cards[0].points is 300", "allowed 0..100"]),
    ("akrotiri", 2, "goals", "goals.json", lambda d: d["cards"][0]["points_by_edition"].update(hu=1e9),
     ["field cards[0].points_by_edition.hu", "allowed 0..100"]),
    ("hellas", 3, "quarry_yields", "quarry_tiles.json", lambda d: d["tiles"][0].update(marble="many"),
     ["field tiles[0].marble is \"many\"", "whole number"]),
]


@pytest.mark.parametrize("game, players, key, name, change, words", CASES)
def test_a_bad_data_file_is_one_line_naming_file_field_and_range(tmp_path, game, players, key, name, change,
                                                                 words):
    doc = _doc(game, name)
    doc = change(doc) or doc
    path = tmp_path / name
    path.write_text(json.dumps(doc))
    with pytest.raises(ValueError) as err:
        simcore.get_game(game).make_config(players, **{key: str(path)})
    msg = str(err.value)
    assert "\n" not in msg and str(path) in msg, msg
    for w in words:
        assert w in msg, msg


def test_the_segfaulting_tile_file_is_refused_by_the_cli_in_a_fresh_process(tmp_path):
    doc = _doc("akrotiri", "tiles.json")
    doc["tiles"][0]["land"] = []
    path = tmp_path / "tiles.json"
    path.write_text(json.dumps(doc))
    proc = subprocess.run([sys.executable, "-m", "reports.cli", "simulate", "akrotiri", "--players", "2",
                           "--games", "10", "--seed", "1", "--out", str(tmp_path / "o"), "--variant",
                           f"tiles={path}", "--no-progress"], cwd=ROOT, capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 2 and proc.stderr.startswith("boardlab: error: tiles file "), proc.stderr
    assert not (tmp_path / "o").exists()


def test_the_package_data_fits_its_schemas():
    from simcore.akrotiri import config as A
    from simcore.hellas import config as H
    from simcore.yamatai import config as Y
    for game, name, schema in [("hellas", "board_minotaur.json", H.BOARD_SCHEMA),
                               ("hellas", "board_pegasus.json", H.BOARD_SCHEMA),
                               ("hellas", "quarry_tiles.json", H.TILES_SCHEMA),
                               ("hellas", "quarry_tiles_falling.json", H.TILES_SCHEMA),
                               ("hellas", "actions.json", H.ACTIONS_SCHEMA),
                               ("yamatai", "board.json", Y.BOARD_SCHEMA),
                               ("yamatai", "buildings.json", Y.BUILDINGS_SCHEMA),
                               ("yamatai", "specialists.json", Y.SPECIALISTS_SCHEMA),
                               ("yamatai", "fleets.json", Y.FLEETS_SCHEMA),
                               ("yamatai", "culture_tokens.json", Y.TOKENS_SCHEMA),
                               ("yamatai", "player_board.json", Y.PLAYER_BOARD_SCHEMA)] + [
            ("akrotiri", n, s) for n, s in A.SCHEMAS.items()]:
        S.validate(_doc(game, name), schema, name, "data")


def test_the_schema_checker_itself():
    sch = S.Obj(a=S.Int(0, 9, "why"), b=S.Arr(S.Str("x", "y"), 1, 2), c=S.Nullable(S.Num(0, 1)),
                d=S.Map(S.Bool(), keys={"k"}), _optional=("d",))
    S.validate({"a": 3, "b": ["x"], "c": None}, sch, "f", "k")
    S.validate({"a": 3.0, "b": ["x", "y"], "c": 0.5, "d": {"k": True}}, sch, "f", "k")
    bad = [({"a": 10, "b": ["x"], "c": None}, "field a is 10; allowed 0..9 (why)"),
           ({"a": 1.5, "b": ["x"], "c": None}, "field a is 1.5; it must be a whole number 0..9"),
           ({"a": True, "b": ["x"], "c": None}, "field a is true"),
           ({"b": ["x"], "c": None}, "field a is missing"),
           ({"a": 1, "b": [], "c": None}, "field b has 0 items; allowed 1..2"),
           ({"a": 1, "b": ["z"], "c": None}, "field b[0] is \"z\"; allowed: x, y"),
           ({"a": 1, "b": ["x"], "c": float("nan")}, "field c is nan"),
           ({"a": 1, "b": ["x"], "c": None, "d": {"q": True}}, "field d.q is not a known key"),
           ([], "the document is []; it must be an object")]
    for doc, words in bad:
        with pytest.raises(ValueError, match="^k file f: ") as err:
            S.validate(doc, sch, "f", "k")
        assert words in str(err.value), str(err.value)
