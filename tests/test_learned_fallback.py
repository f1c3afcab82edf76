"""A learned model's fallback (the document's "fallback"): from the decision where a state feature
reaches a value on, the seat plays a built-in policy's choice (issue 32 item 6: Akrotiri's stalls)."""
import hashlib
import json

import numpy as np
import polars as pl
import pytest

import strategies
from reports.cli import main
from simcore import akrotiri
from simcore._model import kernel_decision_seed
from simcore.rng import game_seeds
from simcore.run import simulate
from strategies.learned import main as learned_main
from strategies.learned import shipped
from test_learned_commands import _tables  # the games and players tables of a run, sorted

STALLED = 63            # game_seeds(1, 63): the shipped weights without the fallback stall to the turn cap
TURN_CAP = 2            # end_trigger of a game stopped by the cap


def _doc():
    return json.loads(shipped("akrotiri")[2].read_text())


def _policy(tmp_path, name, doc):
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps(doc, separators=(",", ":")) + "\n")
    return strategies.resolve("akrotiri", f"learned:{path}").as_policy()


def _without(doc):
    doc = dict(doc)
    del doc["fallback"]
    return doc


def test_the_shipped_akrotiri_model_falls_back_to_balanced_from_turn_20():
    fb = _doc()["fallback"]
    assert fb["state_feature"] == "turn" and fb["from"] == 20
    assert fb["strategy"] == strategies.resolve("akrotiri", "balanced").to_dict()


def test_a_stalled_game_ends_and_the_fallback_plays_the_presets_choice(tmp_path):
    doc = _doc()
    new, old = _policy(tmp_path, "new", doc), _policy(tmp_path, "old", _without(doc))
    seed = int(game_seeds(1, STALLED, STALLED + 1)[0])
    res = {k: akrotiri.play_batch(2, np.array([seed], dtype=np.uint64), [p, p], events=False)
           for k, p in (("new", new), ("old", old))}
    assert res["old"]["games"]["end_trigger"][0] == TURN_CAP and res["old"]["players"]["turns"].min() == 60
    assert res["new"]["games"]["end_trigger"][0] != TURN_CAP and res["new"]["players"]["turns"].max() < 60
    a_new, a_old = akrotiri.play_actions(2, seed, [new, new]), akrotiri.play_actions(2, seed, [old, old])
    balanced = strategies.resolve("akrotiri", "balanced").as_policy()
    st = akrotiri.State.new(akrotiri.make_config(2), seed)
    before = after = 0
    for k, a in enumerate(a_new):
        if st.turns[st.current_player()] < 20:     # the model's choice, as without the fallback
            assert a == a_old[k]
            before += 1
        else:                                    # balanced's, its noise from the decision's seed
            assert a == st.policy_action(balanced, kernel_decision_seed(seed, st.decisions))
            after += 1
        st.apply(a)
    assert st.is_over() and before > 50 and after > 20


def test_a_fallback_never_reached_plays_as_the_model_alone(tmp_path):
    """The fallback's path (the features once, then the network) scores as the plain path: a rule whose
    value is never reached gives the games of the model without it, bit for bit."""
    doc = _doc()
    never = dict(doc, fallback=dict(doc["fallback"], **{"from": 1000}))
    seeds = game_seeds(9, 0, 150)
    a = akrotiri.play_batch(2, seeds, [_policy(tmp_path, "never", never)] * 2, events=False)
    b = akrotiri.play_batch(2, seeds, [_policy(tmp_path, "none", _without(doc))] * 2, events=False)
    for t in ("games", "players"):
        for k in a[t]:
            np.testing.assert_array_equal(a[t][k], b[t][k], err_msg=k)


def test_same_games_whatever_the_workers(tmp_path):
    seats = [strategies.resolve("akrotiri", "learned").to_dict()] * 2
    simulate("akrotiri", 2, STALLED + 1, 1, str(tmp_path / "one"), strategies=seats, workers=1, progress=False)
    simulate("akrotiri", 2, STALLED + 1, 1, str(tmp_path / "two"), strategies=seats, workers=2, chunk_size=9,
             progress=False)
    one, two = _tables(tmp_path / "one"), _tables(tmp_path / "two")
    for t in one:
        assert one[t].equals(two[t]), t
    turns = one["players"].group_by("game_index").agg(pl.col("turns").max()).sort("game_index")["turns"]
    assert turns[STALLED] >= 20 and turns.max() < 60       # the stalled deal fell back and ended


def test_the_post_step_rebuilds_the_shipped_file(tmp_path, capsys):
    """``python -m strategies.learned fallback`` on the trained file (the shipped one without its fallback:
    round 2 with seeded ties, sha256 e283adb7…) writes the shipped file byte for byte."""
    trained = tmp_path / "trained.json"
    trained.write_text(json.dumps(_without(_doc()), separators=(",", ":")) + "\n")
    assert hashlib.sha256(trained.read_bytes()).hexdigest().startswith("e283adb73ceb574b")
    out = tmp_path / "out.json"
    assert learned_main(["fallback", str(trained), "--strategy", "balanced", "--state-feature", "turn",
                         "--from", "20", "--out", str(out)]) == 0
    assert out.read_bytes() == shipped("akrotiri")[2].read_bytes()
    man = json.loads(shipped("akrotiri")[2].with_name("akrotiri-2p.manifest.json").read_text())
    assert man["sha256"] == hashlib.sha256(out.read_bytes()).hexdigest()
    assert "python -m strategies.learned fallback" in man["reproduce"]
    for argv, words in ((["--strategy", "mcts:iterations=5", "--state-feature", "turn"], "mcts"),
                        (["--strategy", "balanced", "--state-feature", "nope"], "'nope' is not one of its")):
        assert learned_main(["fallback", str(trained), *argv, "--from", "20", "--out", str(out)]) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and err[0].startswith("boardlab: error: ") and words in err[0], err


@pytest.mark.parametrize("change, words", [
    ({"state_feature": "nope"}, "fallback state_feature 'nope' is not one of its state_features"),
    ({"from": "20"}, "fallback from is '20', not a number"),
    ({"strategy": {"name": "mcts:iterations=5", "kind": "mcts"}}, "fallback strategy 'mcts:iterations=5' is not"),
])
def test_a_bad_fallback_is_a_one_line_error_naming_the_file(tmp_path, capsys, change, words):
    doc = _doc()
    doc["fallback"] = dict(doc["fallback"], **change)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(doc))
    rc = main(["simulate", "akrotiri", "--players", "2", "--games", "2", "--seed", "1", "--out",
               str(tmp_path / "run"), "--strategy", f"learned:{path}"])
    err = capsys.readouterr().err.strip().splitlines()
    assert rc == 2 and len(err) == 1 and err[0].startswith("boardlab: error: "), err
    assert "bad.json" in err[0] and words in err[0], err
