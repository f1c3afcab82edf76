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

from simcore._features import check_noise, check_weights

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
    "SEARCH_DEFAULTS": "dict: search setting -> the game's own default for a searching seat (overrides the "
                       "contract's SEARCH_DEFAULTS; measured in bench/README.md)",
    "policy_features": "policy_features(state, policy) -> (actions, matrix, offsets): the heuristic's features of "
                       "every legal action (one row each, FEATURES order); its score of action i is "
                       "matrix[i] @ weights + offsets[i] (imitation fits the weights from them)",
    "round_number": "round_number(state) -> the 0-based round the position is in, -1 in a set-up that is no "
                    "round (default: state.round); the lead's snapshots are taken as it changes",
    "running_scores": "running_scores(state) -> every seat's total 'if the game ended now', as the kernel's lead "
                      "snapshots take it (default: state.scores()['total'])",
    "ROUND_NAME": "what a round of round_number is, for reports (default 'rounds')",
    "SEAT_BONUS_UNIT": "(one, several): what one unit of the seat_bonus setting is, e.g. ('coin', 'coins'), "
                       "for reports (default ('resource', 'resources'))",
}


def round_number(module, state):
    """The round ``state`` is in, by the game's ``round_number`` (default: ``state.round``)."""
    own = getattr(module, "round_number", None)
    if own is not None:
        return own(state)
    if not hasattr(state, "round"):
        raise ContractError(f"game {getattr(module, 'NAME', '?')!r} has neither round_number(state) nor "
                            f"State.round (the lead's snapshots need one)")
    r = state.round
    return r() if callable(r) else r


def running_scores(module, state):
    """Every seat's total as the position stands, by the game's ``running_scores`` (default: the totals)."""
    own = getattr(module, "running_scores", None)
    return list(own(state)) if own is not None else list(state.scores()["total"])


def round_name(module):
    """What one round is, in a report's words (the game's ``ROUND_NAME``, default "rounds")."""
    return getattr(module, "ROUND_NAME", "rounds")

#: The strategy dict of a seat that plays uniformly random legal actions (``strategies.resolve(g, "random")``).
RANDOM_DESCRIPTION = "uniformly random legal actions"

#: The settings of a search seat and their defaults (``docs/game_ops.md``); a game may
#: override some in its own ``SEARCH_DEFAULTS`` (:func:`search_defaults`).
SEARCH_DEFAULTS = {"iterations": 400, "c": 0.7, "bias": 10.0, "cutoff": 0, "rollout": "balanced",
                   "rollout_epsilon": 0.05, "points": 0.0, "prior": "none", "reuse": 0}
#: The type of each search setting (a strategy name's ``key=value`` text is read with it).
SEARCH_TYPES = {"iterations": int, "c": float, "bias": float, "cutoff": int, "rollout": str,
                "rollout_epsilon": float, "points": float, "prior": str, "reuse": int}


def search_defaults(module):
    """The search settings' defaults for a game module: the contract's, then the game's own."""
    own = dict(getattr(module, "SEARCH_DEFAULTS", None) or {})
    unknown = sorted(set(own) - set(SEARCH_DEFAULTS))
    if unknown:
        raise ContractError(f"game {getattr(module, 'NAME', '?')!r}: SEARCH_DEFAULTS has unknown settings "
                            f"{', '.join(unknown)} (known: {', '.join(SEARCH_DEFAULTS)})")
    return {**SEARCH_DEFAULTS, **own}


class SearchPolicy(NamedTuple):
    """What ``play_batch`` takes for a seat that searches (:data:`SEARCH`): the kernel's game loop asks
    ``simcore._mcts`` for its decisions (ISMCTS, ``iterations`` per decision, rollouts by ``rollout``,
    a policy argument of the built-in policy every seat plays in them)."""
    iterations: int
    c: float
    bias: float
    cutoff: int
    rollout: object
    points: float = 0.0
    prior: object = None        # a learned model as the search's prior (simcore._model.LearnedPolicy)
    reuse: int = 0              # 1: keep the chosen child's subtree across the seat's consecutive decisions
    rollout_epsilon: float = 0.0    # a learned rollout's random-move noise (a heuristic's is in its vector)


# A search keeps one tree node (40 bytes) and one path slot (4 bytes) per iteration, and counts
# them in 32-bit integers: 10^7 iterations a decision is a 440-MB tree in each worker (and minutes
# a decision); 10^6 decisions of a rollout is beyond any game's turn cap.
MAX_ITERATIONS = 10_000_000
MAX_CUTOFF = 1_000_000
MAX_WEIGHT = 10_000         # c and bias: a weight beyond this leaves nothing of the win rates


def check_search_settings(iterations, c, bias, cutoff=0, points=0.0, reuse=0):
    """ValueError naming the first bad search setting."""
    if isinstance(iterations, bool) or not isinstance(iterations, numbers.Integral) or iterations < 1:
        raise ValueError(f"iterations must be a whole number >= 1, not {iterations!r}")
    if iterations > MAX_ITERATIONS:
        raise ValueError(f"iterations must be 1..{MAX_ITERATIONS:,} (the search tree takes 44 bytes an "
                         f"iteration in each worker), not {iterations:,}")
    for key, v in (("c (exploration)", c), ("bias", bias)):
        if isinstance(v, bool) or not isinstance(v, numbers.Real) or not math.isfinite(v) or not 0 <= v <= MAX_WEIGHT:
            raise ValueError(f"{key} must be a number 0..{MAX_WEIGHT:,} (beyond, the search's scores in floating "
                             f"point drown the win rates), not {v!r}")
    if isinstance(cutoff, bool) or not isinstance(cutoff, numbers.Integral) or not 0 <= cutoff <= MAX_CUTOFF:
        raise ValueError(f"cutoff must be a whole number >= 0 and <= {MAX_CUTOFF:,} (0: rollouts to the end), "
                         f"not {cutoff!r}")
    if isinstance(points, bool) or not isinstance(points, numbers.Real) or not 0 <= points <= 1:
        raise ValueError(f"points (the point share's weight in the reward) must be a number in [0, 1], "
                         f"not {points!r}")
    if isinstance(reuse, bool) or not isinstance(reuse, numbers.Integral) or reuse not in (0, 1):
        raise ValueError(f"reuse must be 0 (a fresh tree each decision) or 1 (keep the chosen move's subtree "
                         f"across the seat's consecutive decisions), not {reuse!r}")


# ---------------------------------------------------------------- policy kinds
#
# A strategy's kind is an object: it knows whether its seats search, which settings a strategy
# of its kind holds and how they are checked, and what the kernel takes for such a seat. A
# strategy names its kind by ``name`` (in preset files, manifests, ``Strategy.kind``); code asks
# the object (``policy_kind(strategy).searches``), never the name.

class PolicyKind:
    """One kind of strategy (:data:`RANDOM`, :data:`HEURISTIC`, :data:`SEARCH`)."""

    #: how strategy tables and manifests spell the kind
    name = ""
    #: its seats search each decision (the kernel asks an external decider: thousands of times dearer)
    searches = False
    #: its settings, besides ``kind`` and ``description``, as a strategy table holds them
    keys = ()

    def check(self, module, where, table, weights_where=None):
        """The kind's settings of ``table`` (a preset's table or a manifest's dict), checked and
        normalised: a dict of ``keys``; ValueError starting with ``where``."""
        raise NotImplementedError

    def argument(self, module, strategy):
        """What ``module.play_batch`` takes for a seat playing ``strategy`` (a resolved dict)."""
        raise NotImplementedError

    def __repr__(self):
        return f"<policy kind {self.name}>"


class _RandomKind(PolicyKind):
    name = "random"
    keys = ("weights", "temperature", "epsilon")

    def check(self, module, where, table, weights_where=None):
        t, e = check_noise(table.get("temperature", 0.0), table.get("epsilon", 0.0), where=where)
        weights = table.get("weights") or {}
        if not isinstance(weights, dict):
            raise ValueError(f"{weights_where or where}: weights must be a table")
        return {"weights": dict(weights), "temperature": t, "epsilon": e}

    def argument(self, module, strategy):
        return None                     # the kernel's uniformly random policy


class _HeuristicKind(_RandomKind):
    name = "heuristic"

    def check(self, module, where, table, weights_where=None):
        out = super().check(module, where, table, weights_where)
        features = getattr(module, "FEATURES", None)
        if not features:
            raise ValueError(f"{where}: game {getattr(module, 'NAME', '?')!r} has no heuristic features")
        out["weights"] = check_weights(tuple(features), out["weights"],
                                       dict(getattr(module, "OPTIONAL_FEATURES", None) or {}),
                                       where=weights_where or where)
        return out

    def argument(self, module, strategy):
        return module.policy_vector(dict(strategy.get("weights") or {}), strategy.get("temperature", 0.0),
                                    strategy.get("epsilon", 0.0))


class _SearchKind(PolicyKind):
    name = "mcts"
    searches = True
    keys = tuple(SEARCH_TYPES)

    def check(self, module, where, table, weights_where=None):
        out = {}
        for key, value in table.items():
            if key not in SEARCH_TYPES:
                raise ValueError(f"{where}: unknown search setting {key!r} (known: {', '.join(SEARCH_TYPES)})")
            out[key] = value
        defaults = search_defaults(module)
        try:
            check_search_settings(*(out.get(k, defaults[k]) for k in ("iterations", "c", "bias", "cutoff", "points",
                                                                      "reuse")))
        except ValueError as e:
            raise ValueError(f"{where}: {e}") from None
        eps = out.get("rollout_epsilon", 0.0)
        if isinstance(eps, bool) or not isinstance(eps, (int, float)) or not 0 <= eps <= 1:
            raise ValueError(f"{where}: rollout_epsilon must be a number in [0, 1], not {eps!r}")
        if not isinstance(out.get("rollout", ""), (str, dict)):
            raise ValueError(f"{where}: rollout must be a strategy name, not {out['rollout']!r}")
        if not isinstance(out.get("prior", ""), (str, dict)):
            raise ValueError(f"{where}: prior must be 'none' or a learned strategy name, not {out['prior']!r}")
        return out

    def argument(self, module, strategy):
        name = strategy.get("name")
        if not hasattr(module, "game_ops"):
            raise ValueError(f"strategy {name!r}: game {getattr(module, 'NAME', '?')!r} has no game_ops() "
                             f"(the C-level contract a search needs)")
        rollout = strategy.get("rollout")
        if not isinstance(rollout, dict) or _kind_or_none(rollout) not in PLAYOUT_KINDS:
            raise ValueError(f"strategy {name!r}: its rollout must be a {PLAYOUT_NAMES} strategy, not {rollout!r}")
        d = search_defaults(module)
        v = {k: strategy.get(k, d[k]) for k in ("iterations", "c", "bias", "cutoff", "points", "reuse")}
        try:
            check_search_settings(**v)
        except ValueError as e:
            raise ValueError(f"strategy {name!r}: {e}") from None
        prior = strategy.get("prior")
        if prior is not None and _kind_or_none(prior) is not LEARNED:
            raise ValueError(f"strategy {name!r}: its prior must be a learned strategy, not {prior!r}")
        return SearchPolicy(int(v["iterations"]), float(v["c"]), float(v["bias"]), int(v["cutoff"]),
                            policy_argument(module, rollout), float(v["points"]),
                            policy_argument(module, prior) if prior is not None else None, int(v["reuse"]),
                            float(strategy.get("rollout_epsilon", 0.0)))


class _LearnedKind(PolicyKind):
    """A model trained from search, evaluated in the kernel (``simcore/_model.pyx``, docs/learned.md)."""
    name = "learned"
    keys = ("models",)

    def check(self, module, where, table, weights_where=None):
        models = table.get("models")
        if not isinstance(models, dict) or not models:
            raise ValueError(f"{where}: a learned strategy names its model files (models: players -> "
                             f"file and sha256), not {models!r}")
        for players, ref in models.items():
            if not isinstance(ref, dict) or not isinstance(ref.get("file"), str):
                raise ValueError(f"{where}: the model for {players} players must give its file, not {ref!r}")
        return {"models": {str(p): dict(r) for p, r in models.items()}}

    def argument(self, module, strategy):
        from simcore._model import learned_policy
        return learned_policy(module, strategy)


RANDOM, HEURISTIC, SEARCH, LEARNED = _RandomKind(), _HeuristicKind(), _SearchKind(), _LearnedKind()
#: Every policy kind by name.
KINDS = {k.name: k for k in (RANDOM, HEURISTIC, SEARCH, LEARNED)}
POLICY_KINDS = tuple(KINDS)
#: The kinds a search's rollouts may play: the kernel's built-in policies, or a model's Decider.
PLAYOUT_KINDS = (RANDOM, HEURISTIC, LEARNED)
PLAYOUT_NAMES = ", ".join(k.name for k in PLAYOUT_KINDS[:-1]) + " or " + PLAYOUT_KINDS[-1].name


def _kind_or_none(strategy):
    name = strategy.get("kind") if isinstance(strategy, dict) else getattr(strategy, "kind", strategy)
    return name if isinstance(name, PolicyKind) else KINDS.get(name)


def policy_kind(strategy):
    """The :class:`PolicyKind` of ``strategy``: a kind's name, a strategy dict or a ``Strategy``.

    ValueError naming the known kinds for another name.
    """
    kind = _kind_or_none(strategy)
    if kind is None:
        name = strategy.get("kind") if isinstance(strategy, dict) else getattr(strategy, "kind", strategy)
        raise ValueError(f"unknown kind {name!r} (known: {', '.join(KINDS)})")
    return kind


def searches(strategy):
    """Whether seats playing ``strategy`` (a dict, a ``Strategy`` or a kind's name) search each decision
    (False for an unknown kind: :func:`policy_kind` and :func:`policy_argument` name that error)."""
    kind = _kind_or_none(strategy)
    return kind is not None and kind.searches


def random_strategy(game):
    """The resolved strategy of uniformly random play, as the runner and manifests hold it."""
    return {"game": game, "name": "random", "kind": RANDOM.name, "weights": {}, "temperature": 0.0,
            "epsilon": 0.0, "description": RANDOM_DESCRIPTION}


def policy_argument(module, strategy):
    """What ``module.play_batch`` takes for one seat, from a resolved strategy dict.

    ``strategy`` is ``Strategy.to_dict()`` (as a run's manifest stores it); its
    kind gives the argument: random ``None`` (the kernel's uniform policy),
    heuristic the game's ``policy_vector`` of its weights and noise, a search
    a :class:`SearchPolicy` (its ``rollout`` is a resolved strategy dict too).
    """
    try:
        kind = policy_kind(strategy)
    except ValueError as e:
        raise ValueError(f"strategy {strategy.get('name')!r}: {e}") from None
    return kind.argument(module, strategy)


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
