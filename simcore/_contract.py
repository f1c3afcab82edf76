"""The game contract: what a game package offers the rest of boardlab.

A game is a package (``simcore/<game>/``, or any importable package named in
``BOARDLAB_GAMES``) whose module namespace holds the names below. The runner,
the strategies, the reports and the generic tests speak to a game only
through them, so a fourth game is a new package plus, optionally, its own
plug-ins per layer (``docs/adding_a_game.md``).

:func:`check_game` reads a module against the contract and names what is
missing; :data:`simcore.games` calls it when a game is first used.
"""
import math
import numbers
from typing import NamedTuple

#: Names every game module defines, and what each is.
REQUIRED = {
    "NAME": "the game's name, as in simcore.games (lower case, no spaces)",
    "TITLE": "the name to print, e.g. 'Yamataï'",
    "PLAYERS": "tuple of the player counts the game supports",
    "DEFAULT_PLAYERS": "the player count to use when none is given (benches, examples)",
    "SCORE_CATEGORIES": "tuple of the scoring categories; the players table has one column each, then 'total'",
    "SETTINGS": "dict: engine setting -> one line of help (the keys make_config accepts)",
    "TIE_RULE": "one sentence: how a tie for first is settled (reports print it beside win shares)",
    "EVENT_SCHEMA": "dict: events-table column -> one line of meaning (empty: the game writes no events)",
    "FEATURES": "tuple of the built-in heuristic's feature names (a strategy's weights are keyed by them)",
    "FEATURE_DOCS": "dict: feature -> one line of meaning",
    "make_config": "make_config(players, **settings) -> config; ValueError naming a bad setting",
    "State": "the step-API class: State.new(config, seed), current_player, legal_actions, apply, is_over, "
             "scores, clone, transcript, to_dict",
    "new_game": "new_game(players, seed, config=None, **settings) -> State",
    "play_batch": "play_batch(players, seeds, policies=None, config=None, events=True) -> "
                  "{'games': {...}, 'players': {...}, 'events': {...}} of numpy arrays",
    "play_actions": "play_actions(players, seed, policies=None, config=None) -> the decisions play_batch makes",
    "replay_game": "replay_game(players, seed, policies=None, config=None) -> the final State of that game",
    "replay": "replay(players, seed, actions, config=None) -> State after applying a list of decisions",
    "policy_vector": "policy_vector(weights, temperature=0, epsilon=0) -> the array play_batch takes per seat",
    "invariant_violations": "invariant_violations(state) -> list of sentences (empty when the position is sound)",
    "reference": "the pure-Python reference engine module (replays transcripts, checks scores)",
}

#: Names a game may define; a generic feature that needs one says so when it is absent.
OPTIONAL = {
    "game_ops": "game_ops() -> PyCapsule of the C-level hooks a generic search uses (docs/game_ops.md)",
    "PRESETS": "path of a TOML file of named strategies shipped with the game (beside strategies/presets/<game>.toml)",
    "OPTIONAL_FEATURES": "dict: feature -> weight a preset may leave out (the weight it then gets)",
    "SEARCH_DEFAULTS": "dict: search setting -> the game's own default for a kind 'mcts' seat (overrides the "
                       "contract's SEARCH_DEFAULTS; measured in bench/README.md)",
}

#: The strategy dict of a seat that plays uniformly random legal actions (``strategies.resolve(g, "random")``).
RANDOM_DESCRIPTION = "uniformly random legal actions"
POLICY_KINDS = ("random", "heuristic", "mcts", "learned")

#: The settings of a search seat (kind "mcts") and their defaults (``docs/game_ops.md``); a game may
#: override some in its own ``SEARCH_DEFAULTS`` (:func:`search_defaults`).
SEARCH_DEFAULTS = {"iterations": 400, "c": 0.7, "bias": 10.0, "cutoff": 0, "rollout": "balanced",
                   "rollout_epsilon": 0.05, "points": 0.0, "prior": "none"}


def search_defaults(module):
    """The search settings' defaults for a game module: the contract's, then the game's own."""
    own = dict(getattr(module, "SEARCH_DEFAULTS", None) or {})
    unknown = sorted(set(own) - set(SEARCH_DEFAULTS))
    if unknown:
        raise ContractError(f"game {getattr(module, 'NAME', '?')!r}: SEARCH_DEFAULTS has unknown settings "
                            f"{', '.join(unknown)} (known: {', '.join(SEARCH_DEFAULTS)})")
    return {**SEARCH_DEFAULTS, **own}


class SearchPolicy(NamedTuple):
    """What ``play_batch`` takes for a seat that searches (kind "mcts"): the kernel's game loop asks
    ``simcore._mcts`` for its decisions (ISMCTS, ``iterations`` per decision, rollouts by ``rollout``,
    a policy argument of the built-in policy every seat plays in them)."""
    iterations: int
    c: float
    bias: float
    cutoff: int
    rollout: object
    points: float = 0.0
    prior: object = None        # a learned model as the search's prior (simcore._model.LearnedPolicy)


def check_search_settings(iterations, c, bias, cutoff=0, points=0.0):
    """ValueError naming the first bad search setting."""
    if isinstance(iterations, bool) or not isinstance(iterations, numbers.Integral) or iterations < 1:
        raise ValueError(f"iterations must be a whole number >= 1, not {iterations!r}")
    for key, v in (("c (exploration)", c), ("bias", bias)):
        if isinstance(v, bool) or not isinstance(v, numbers.Real) or not math.isfinite(v) or v < 0:
            raise ValueError(f"{key} must be a number >= 0, not {v!r}")
    if isinstance(cutoff, bool) or not isinstance(cutoff, numbers.Integral) or cutoff < 0:
        raise ValueError(f"cutoff must be a whole number >= 0 (0: rollouts to the end), not {cutoff!r}")
    if isinstance(points, bool) or not isinstance(points, numbers.Real) or not 0 <= points <= 1:
        raise ValueError(f"points (the point share's weight in the reward) must be a number in [0, 1], "
                         f"not {points!r}")


def random_strategy(game):
    """The resolved strategy of uniformly random play, as the runner and manifests hold it."""
    return {"game": game, "name": "random", "kind": "random", "weights": {}, "temperature": 0.0,
            "epsilon": 0.0, "description": RANDOM_DESCRIPTION}


def policy_argument(module, strategy):
    """What ``module.play_batch`` takes for one seat, from a resolved strategy dict.

    ``strategy`` is ``Strategy.to_dict()`` (as a run's manifest stores it):
    ``kind`` "random" gives ``None`` (the kernel's uniform policy), "heuristic"
    the game's ``policy_vector`` of its weights and noise, "mcts" a
    :class:`SearchPolicy` (its ``rollout`` is a resolved strategy dict too).
    """
    kind = strategy.get("kind")
    if kind == "random":
        return None
    if kind == "heuristic":
        return module.policy_vector(dict(strategy.get("weights") or {}), strategy.get("temperature", 0.0),
                                    strategy.get("epsilon", 0.0))
    if kind == "mcts":
        name = strategy.get("name")
        if not hasattr(module, "game_ops"):
            raise ValueError(f"strategy {name!r}: game {getattr(module, 'NAME', '?')!r} has no game_ops() "
                             f"(the C-level contract a search needs)")
        rollout = strategy.get("rollout")
        if not isinstance(rollout, dict) or rollout.get("kind") not in ("random", "heuristic"):
            raise ValueError(f"strategy {name!r}: its rollout must be a random or heuristic strategy, "
                             f"not {rollout!r}")
        d = search_defaults(module)
        v = {k: strategy.get(k, d[k]) for k in ("iterations", "c", "bias", "cutoff", "points")}
        try:
            check_search_settings(**v)
        except ValueError as e:
            raise ValueError(f"strategy {name!r}: {e}") from None
        prior = strategy.get("prior")
        if prior is not None and (not isinstance(prior, dict) or prior.get("kind") != "learned"):
            raise ValueError(f"strategy {name!r}: its prior must be a learned strategy, not {prior!r}")
        return SearchPolicy(int(v["iterations"]), float(v["c"]), float(v["bias"]), int(v["cutoff"]),
                            policy_argument(module, rollout), float(v["points"]),
                            policy_argument(module, prior) if prior is not None else None)
    if kind == "learned":         # a model evaluated in the kernel (simcore/_model.pyx)
        from simcore._model import learned_policy
        return learned_policy(module, strategy)
    raise ValueError(f"strategy {strategy.get('name')!r}: unknown kind {kind!r} (known: {', '.join(POLICY_KINDS)})")


class ContractError(TypeError):
    """A game module does not meet the contract (names what is missing)."""


def check_game(module, name=None):
    """Return ``module`` if it meets the contract, else raise :class:`ContractError`."""
    missing = [k for k in REQUIRED if not hasattr(module, k)]
    label = name or getattr(module, "NAME", getattr(module, "__name__", "?"))
    if missing:
        raise ContractError(f"game {label!r} ({module.__name__}) lacks {', '.join(missing)} "
                            f"(see simcore/_contract.py)")
    if name is not None and module.NAME != name:
        raise ContractError(f"game {name!r}: its module says NAME = {module.NAME!r}")
    if module.DEFAULT_PLAYERS not in module.PLAYERS:
        raise ContractError(f"game {label!r}: DEFAULT_PLAYERS {module.DEFAULT_PLAYERS} not in PLAYERS")
    return module
