"""Features of the built-in Hellas heuristic policy (names defined once, here).

At each decision the policy computes, for every legal action, one value per
feature below, takes the dot product with the seat's weights and plays the
best action (ties and noise from the policy stream). The C code in
``_policy.pxi`` computes the features in this order (``F_*`` enum); a test
checks the two agree. Values are from the deciding seat's point of view and
use public information only (the face-down tile stack is never read).

Units: ``marble_*``, ``cost`` and ``deny_quarry`` are marble; the others are
points (or piece counts) as stated. Approximations: the policy treats
``city_links = "no_agora_chains"`` like ``"any"``; opponents' benefit is
estimated from which opponents have a piece next to a temple or field (no
opponent group search).

A policy vector (what ``play_batch`` takes per seat) is
``[w_0 ... w_{F-1}, temperature, epsilon]`` in ``FEATURES`` order, built by
:func:`policy_vector`.
"""

from simcore._features import weight_vector

FEATURE_DOCS = {
    "marble_gain":
        "marble received now: 3 for the three-marble space; the seat's own quarry income "
        "when it takes a quarry space",
    "marble_income":
        "expected marble from the quarry actions still to come: a house next to active "
        "quarries earns each quarry's yield times an age discount (1 - top/(2*highest tile), "
        "old quarries close first) times the quarry actions left; a tile put on a quarry next "
        "to the seat's houses changes that; a worker moved next to the seat's houses counts half "
        "a future quarry of yield 1",
    "cost":
        "marble paid by the action (pieces, temple space, monument); weights are usually negative",
    "marble_score":
        "in the last round only: change of the points for marble kept (marble // 5)",
    "piece":
        "1 for building a house, agora or palace (material for future cities)",
    "connect":
        "the seat's own pieces next to the field built on (groups grow into cities)",
    "city_growth":
        "increase of the seat's largest city (1 point per piece at the end)",
    "city_points":
        "change of the seat's monument and temple points if the game ended now, from a "
        "piece joining or founding a city next to temples and monuments",
    "temple_reach":
        "free room (columns still to come) of temples newly next to the seat's group of the "
        "built piece; half for a group that is not a city (future cities)",
    "monument_reach":
        "monuments or empty inland fields (future monuments, 1/4 each) newly next to a group "
        "that is not yet a city",
    "temple_columns":
        "temple action: columns placed in temples next to the seat's cities (one per city "
        "next to the temple; half for a village next to it)",
    "monument_value":
        "monument action: 3 per city of the seat next to the field, 1.5 per village",
    "rings":
        "change of the seat's ring points (2 per ring, 3 for the most rings)",
    "deny_field":
        "opponents' pieces next to the field taken (blocks their groups)",
    "deny_quarry":
        "expected quarry marble taken from opponents: a piece on a field next to an active "
        "quarry (the income a house there would earn), minus opponents' income from a quarry "
        "action, a tile put or a worker moved next to their houses",
    "opponent_gain":
        "points the action gives opponents: columns in temples and a monument next to fields "
        "where opponents have pieces (one per such opponent)",
    "temple_first":
        "1 for taking the round's first temple space (start player of the next round); 0 in "
        "the last round",
    "space_value":
        "choose_space: the weighted score of the best action the space leads to for the seat "
        "(best house / house+agora / palace / monument field, best temple split; 0 when passing "
        "is best)",
    "opponent_builds":
        "choose_space: pieces the opponents can build in the all-players action the space starts "
        "(each opponent with the piece left and the marble for its cheaper field: one for a house "
        "or palace space, up to two for house/agora); 0 for the other spaces",
    "late_marble":
        "choose_space, last round only: the marble the space gives now (marble_gain); marble is worth "
        "little at the end except for marble_score",
    "last_space":
        "choose_space: the space's space_value when it is the last unused space of its kind this "
        "round (house and house/agora count as one kind); 0 otherwise",
    "late_cost":
        "in the last round only: the marble paid (cost); marble kept is worth only marble // 5 "
        "then, so a positive weight offsets cost",
}

# Features added after presets were first recorded: a weight table may leave
# them out (they then weigh 0), so older presets and run manifests still load.
OPTIONAL = {"opponent_builds": 0.0, "late_marble": 0.0, "last_space": 0.0, "late_cost": 0.0}

FEATURES = tuple(FEATURE_DOCS)
N_FEATURES = len(FEATURES)


def policy_vector(weights, temperature=0.0, epsilon=0.0):
    """The per-seat policy argument of ``play_batch`` for the heuristic policy.

    Parameters
    ----------
    weights : dict
        One number per name in ``FEATURES`` (all required but those of ``OPTIONAL``,
        which default to 0; no others).
    temperature : float
        Softmax temperature over the action scores; 0 = take the best.
    epsilon : float
        Probability of a uniformly random legal action instead.

    Returns
    -------
    numpy.ndarray
        float64, ``len(FEATURES) + 2``: the weights, then temperature and epsilon.

    Examples
    --------
    >>> from simcore.hellas.features import FEATURES, policy_vector
    >>> policy_vector(dict.fromkeys(FEATURES, 1.0)).shape
    (24,)
    """
    return weight_vector(FEATURES, weights, OPTIONAL, temperature, epsilon)

