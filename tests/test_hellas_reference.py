"""Tests of the reference engine alone: its own position readings and transcript checks."""
import json
import random

import pytest

from simcore.hellas import reference as ref
from test_hellas_rules import F, position, quarry_position


def test_from_dict_reads_counts_for_build_turn_and_revealed():
    st = ref.RefState.from_dict(position(phase="choose_space"))
    st.apply(0)                              # house: seat 0 builds first
    st.apply(F + 0)
    d = st.to_dict()
    assert d["build_turn"] == [0] and d["phase"] == "build_house"
    d["build_turn"] = 1                      # the same position, as a count
    assert ref.RefState.from_dict(d).to_dict() == st.to_dict()
    active = {13: ("active", 12), 22: ("active", 18), 48: ("active", 31)}
    st = ref.RefState.from_dict(quarry_position(active, 71, [25, 7, 30]))
    st.apply(5)
    d = st.to_dict()
    assert d["revealed"] == [25] and d["tile"] == 25
    d["revealed"] = 1
    assert ref.RefState.from_dict(d).to_dict() == st.to_dict()


def test_transcript_check_finds_the_first_disagreement():
    st = ref.RefState.new(players=3, seed=21)
    rnd = random.Random(21)
    while not st.is_over():
        st.apply(rnd.choice(st.legal_actions()))
    good = json.loads(json.dumps(st.transcript))
    assert ref.replay(3, 21, good).scores() == st.scores()
    bad = json.loads(json.dumps(good))
    i = next(k for k, e in enumerate(bad) if e["kind"] == "reveal")
    bad[i]["tile"] += 100
    with pytest.raises(ValueError, match=f"transcript entry {i}"):
        ref.replay(3, 21, bad)
    bad = json.loads(json.dumps(good))
    bad[-1]["scores"]["total"][0] += 1
    with pytest.raises(ValueError, match=f"transcript entry {len(bad) - 1}"):
        ref.replay(3, 21, bad)
    bad = json.loads(json.dumps(good))
    bad[0]["worker"] = -5
    with pytest.raises(ValueError, match="transcript entry 0"):
        ref.replay(3, 21, bad)
