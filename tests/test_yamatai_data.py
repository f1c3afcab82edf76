"""Yamataï component data read from files: fleet tiles and culture tokens as well as the board,
buildings, specialists and player board (a user who owns the box can replace each; spec §14),
on both engines, with one-line errors for bad files."""
import json

import pytest

from simcore import yamatai
from simcore.yamatai import config as Y
from simcore.yamatai import reference as R


def _write(tmp_path, name, doc):
    path = tmp_path / name
    path.write_text(json.dumps(doc))
    return str(path)


def _doc(name):
    return json.loads((Y.DATA_DIR / name).read_text())


def test_data_status_names_every_file_and_whether_it_is_assumed():
    status = yamatai.make_config(3).data_status()
    assert set(status) == {"board", "buildings", "specialists", "player_board", "fleets", "culture_tokens"}
    for key, entry in status.items():
        assert entry["file"].endswith(Y.DEFAULT_FILES[key])
    assert status["fleets"]["assumed"] is False          # fleet tiles are rulebook data
    assert status["culture_tokens"]["assumed"] is True   # the colour names are placeholders


def test_default_bag_is_the_rulebook_one():
    cfg = yamatai.make_config(2)
    assert len(cfg.token_bag) == 34
    assert [sum(k == t for k, _ in cfg.token_bag) for t in range(6)] == [5] * 6
    assert sum(k == -1 for k, _ in cfg.token_bag) == 4
    assert sum(m for _, m in cfg.token_bag) == 7
    assert cfg.fleet_boats[0] == (1, 0, 0, 0, 0) and cfg.fleet_boats[9] == (0, 1, 0, 1, 0)


def _first_with_fleet1(players, **settings):
    for seed in range(50):
        st = yamatai.new_game(players, seed, **settings)
        if 1 in st.legal_actions():
            return seed
    raise AssertionError("fleet 1 never face up")


def test_a_fleets_file_sets_the_boats_on_both_engines(tmp_path):
    doc = _doc("fleets.json")
    doc["tiles"][0]["boat_vector"] = [2, 0, 0, 0, 0]     # fleet 1: two bamboo
    path = _write(tmp_path, "fleets.json", doc)
    seed = _first_with_fleet1(3)
    for settings, bamboo in (({}, 1), ({"fleets": path}, 2)):
        st = yamatai.new_game(3, seed, **settings)
        st.apply(1)
        ref = R.replay(3, seed, [1], **settings)
        assert st.to_dict()["hand"][0] == bamboo
        assert ref.to_dict()["hand"][0] == bamboo
    assert yamatai.make_config(3, fleets=path).data_status()["fleets"]["file"] == path


def test_a_culture_tokens_file_sets_the_bag_on_both_engines(tmp_path):
    doc = _doc("culture_tokens.json")
    doc["types"][0].update(count=10, mountain_tokens=3)
    doc["types"][1].update(count=0, mountain_tokens=0)
    doc["types"][5]["name"] = "black"
    path = _write(tmp_path, "tokens.json", doc)
    cfg = yamatai.make_config(4, culture_tokens=path)
    assert cfg.token_names[5] == "black"
    from simcore.yamatai._engine import action_text
    assert action_text(R.RECRUIT + 5, token_names=cfg.token_names).endswith("paying black+black")
    assert action_text(R.RECRUIT + 5).endswith("paying white+white")       # package names without a config
    assert "black+black" in yamatai.new_game(4, 0, culture_tokens=path).action_to_str(R.RECRUIT + 5)
    for seed in range(5):
        for d in (yamatai.new_game(4, seed, culture_tokens=path).to_dict(),
                  R.replay(4, seed, [], culture_tokens=path).to_dict()):
            tokens = [isl["token"] for isl in d["islands"]]
            assert tokens.count(0) == 10 and tokens.count(1) == 0 and tokens.count(2) == 5
            assert tokens.count(-1) == 4
            assert sum(isl["mountain"] for isl in d["islands"]) == 3 + 0 + 4 * 1 + 1
    # the same seed with the default bag deals other islands
    assert yamatai.new_game(4, 0).to_dict()["islands"] != yamatai.new_game(4, 0, culture_tokens=path).to_dict()["islands"]


@pytest.mark.parametrize("file, change, words", [
    ("fleets.json", lambda d: d["tiles"].pop(), ["fleets file", "numbered 1..10"]),
    ("fleets.json", lambda d: d["tiles"][3].update(ability="extra_boat"), ["fleets file", "abilities"]),
    ("fleets.json", lambda d: d["tiles"][3].update(boat_vector=[0, 0, 0]), ["fleet 4", "boat counts"]),
    ("fleets.json", lambda d: d["tiles"][3].pop("boat_vector"), ["fleets file", "boat_vector"]),
    ("culture_tokens.json", lambda d: d["types"][0].update(count=6), ["35 culture tokens", "34 islands"]),
    ("culture_tokens.json", lambda d: d["types"].pop(), ["6 token types"]),
    ("culture_tokens.json", lambda d: d["blank"].update(mountain_tokens=5), ["blank has 4 tokens and 5 mountain"]),
    ("culture_tokens.json", lambda d: d.pop("blank"), ["culture tokens file", "blank"]),
])
def test_bad_component_files_name_the_problem(tmp_path, file, change, words):
    doc = _doc(file)
    change(doc)
    key = file.removesuffix(".json")
    path = _write(tmp_path, file, doc)
    with pytest.raises(ValueError) as err:
        yamatai.make_config(3, **{key: path})
    msg = str(err.value)
    assert "\n" not in msg
    for w in words:
        assert w in msg, msg


def test_a_data_file_edited_in_place_is_read_again(tmp_path):
    doc = _doc("fleets.json")
    path = _write(tmp_path, "fleets.json", doc)
    seed = _first_with_fleet1(3)
    st = yamatai.new_game(3, seed, fleets=path)
    st.apply(1)
    assert st.to_dict()["hand"][0] == 1
    doc["tiles"][0]["boat_vector"] = [2, 0, 0, 0, 0]
    (tmp_path / "fleets.json").write_text(json.dumps(doc, indent=1))   # same path, new content and size
    st = yamatai.new_game(3, seed, fleets=path)
    st.apply(1)
    assert st.to_dict()["hand"][0] == 2        # the config cache and the engine's tables saw the edit
