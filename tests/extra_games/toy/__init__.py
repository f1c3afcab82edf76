"""Blind Draw ("toy"): a fourth game that meets the game contract (simcore/_contract.py).

It lives in the test suite to show that a game needs nothing outside its own
folder: ``tests/conftest.py`` names every package of ``tests/extra_games/``
in ``BOARDLAB_GAMES``, and the generic tests, the runner, ``report`` and
``regress`` take it from there. The rules are in ``rules.py``.
"""
from pathlib import Path

from extra_games.toy import reference
from extra_games.toy.engine import State, play_actions, play_batch
from extra_games.toy.rules import (FEATURE_DOCS, FEATURES, PLAYERS, SCORE_CATEGORIES, SETTINGS, make_config,
                                   policy_vector)
from simcore._face import game_face

NAME = "toy"
TITLE = "Blind Draw (toy)"
DEFAULT_PLAYERS = 3
TIE_RULE = "tied players share the win: a k-way tie counts 1/k to each"
EVENT_SCHEMA = {"seat": "the seat that gained a card", "turn": "the step number (0 = first move)",
                "card": "the card's value", "blind": "1 drawn blind from the deck, 0 the face-up offer"}
PRESETS = Path(__file__).resolve().parent / "presets.toml"

new_game, replay_game, replay = game_face(TITLE, make_config, State, play_actions, default_players=DEFAULT_PLAYERS)


__all__ = ["NAME", "TITLE", "PLAYERS", "DEFAULT_PLAYERS", "SCORE_CATEGORIES", "SETTINGS", "TIE_RULE", "EVENT_SCHEMA",
           "FEATURES", "FEATURE_DOCS", "PRESETS", "make_config", "State", "new_game", "play_batch", "play_actions",
           "replay_game", "replay", "policy_vector", "invariant_violations", "reference"]


def invariant_violations(state):
    """Broken invariants: every card of the deck in exactly one place (deck, offer, a hand)."""
    where = list(state.deck) + ([state.offer] if state.offer is not None else []) + [c for h in state.hands for c in h]
    return [] if sorted(where) == sorted(state.config.deck) else ["cards not conserved"]
