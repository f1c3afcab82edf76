"""Akrotiri component data read from files a user may replace (tiles, maps, goals, market,
player board; spec §14), on both engines, with one-line errors for bad files; the data status
names each file used and whether it is assumed."""
import json

import pytest

from simcore import akrotiri
from simcore.akrotiri import config as A
from simcore.akrotiri import reference as R


def _doc(name):
    return json.loads((A.DATA_DIR / name).read_text())


def _write(tmp_path, name, doc):
    path = tmp_path / name
    path.write_text(json.dumps(doc))
    return str(path)


def test_data_status_names_the_files_used():
    status = akrotiri.make_config().data_status()
    assert set(status) == {"tiles", "maps", "goals", "market", "player_board", "thera"}
    for key, entry in status.items():
        assert entry["file"].endswith(f"{key}.json")
    assert status["tiles"]["assumed"] and status["maps"]["assumed"] and status["thera"]["assumed"]
    assert not status["goals"]["assumed"] and not status["market"]["assumed"]
    assert "built into" in status["thera"]["note"]


def test_a_player_board_file_is_used_by_both_engines(tmp_path):
    doc = _doc("player_board.json")
    doc["start_drachmas"] = 5
    path = _write(tmp_path, "board.json", doc)
    cfg = akrotiri.make_config(player_board=path)
    assert cfg.data_status()["player_board"]["file"] == path and cfg.settings()["player_board"] == path
    st = akrotiri.new_game(2, 3, player_board=path)
    assert [s["drachmas"] for s in st.to_dict()["seats"]] == [5, 5]
    assert [s["drachmas"] for s in R.RefState.new(2, 3, player_board=path).seats] == [5, 5]
    assert [s["drachmas"] for s in akrotiri.new_game(2, 3).to_dict()["seats"]] == [2, 2]


def test_a_maps_file_changes_the_points_scored(tmp_path):
    doc = _doc("maps.json")
    for card in doc["cards"]:
        card["points"] = int(card["points"]) + 10
    path = _write(tmp_path, "maps.json", doc)
    cfg = akrotiri.make_config(maps=path)
    base = akrotiri.make_config()
    assert [c["points"] for c in cfg.data["cards"]] == [c["points"] + 10 for c in base.data["cards"]]
    import numpy as np
    seeds = np.arange(40, dtype=np.uint64)
    a = akrotiri.play_batch(2, seeds, events=False)
    b = akrotiri.play_batch(2, seeds, config=cfg, events=False)
    # same games (points do not steer random play): exactly 10 more points per excavated map
    gain = b["players"]["maps"].astype(int) - a["players"]["maps"].astype(int)
    assert (gain >= 0).all() and (gain % 10 == 0).all() and gain.any()


@pytest.mark.parametrize("key, change, words", [
    ("tiles", lambda d: d["tiles"].pop(), ["tiles file", "36 tiles"]),
    ("tiles", lambda d: d["tiles"][0].update(landmark="castle"), ["tiles file", "landmark"]),
    ("maps", lambda d: d["cards"][0].update(deck="easy" if d["cards"][0]["deck"] != "easy" else "hard"),
     ["maps file", "12 cards in each deck"]),
    ("maps", lambda d: d["cards"][0].pop("cost"), ["maps file", "cost"]),
    ("goals", lambda d: d["cards"].reverse(), ["goals file", "in order"]),
    ("market", lambda d: d.update(square_values=[1, 2, 3]), ["market file", "square_values"]),
    ("player_board", lambda d: d.update(boat_capacity=9), ["player_board file", "field boat_capacity", "allowed 1..3"]),
])
def test_bad_component_files_name_the_problem(tmp_path, key, change, words):
    doc = _doc(f"{key}.json")
    change(doc)
    path = _write(tmp_path, f"{key}.json", doc)
    with pytest.raises(ValueError) as err:
        akrotiri.make_config(**{key: path})
    msg = str(err.value)
    assert "\n" not in msg and path in msg
    for w in words:
        assert w in msg, msg


def test_missing_and_unreadable_files(tmp_path):
    with pytest.raises(ValueError, match="maps: file not found: .*nope.json"):
        akrotiri.make_config(maps=str(tmp_path / "nope.json"))
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(ValueError, match="is not valid JSON"):
        akrotiri.make_config(tiles=str(bad))


def test_a_data_file_edited_in_place_is_read_again(tmp_path):
    doc = _doc("player_board.json")
    path = _write(tmp_path, "board.json", doc)
    assert [s["drachmas"] for s in akrotiri.new_game(2, 1, player_board=path).to_dict()["seats"]] == [2, 2]
    doc["start_drachmas"] = 7
    (tmp_path / "board.json").write_text(json.dumps(doc, indent=1))
    assert [s["drachmas"] for s in akrotiri.new_game(2, 1, player_board=path).to_dict()["seats"]] == [7, 7]
