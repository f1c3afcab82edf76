"""Features of the built-in Yamataï heuristic policy (names defined once, here).

At each decision the policy computes, for every legal action, one value per
feature below, takes the dot product with the seat's weights and plays the
best one (the lowest action among equals; epsilon-random and softmax noise
from the policy stream). The C code in ``_policy.pxi`` computes the features
in this order. Only public information is read (never the decks or the
face-down fleets, Y-D38). Coins are in coins, points in PP.

A policy vector (what ``play_batch`` takes per seat) is
``[w_0 ... w_{F-1}, temperature, epsilon]`` in ``FEATURES`` order, built by
:func:`policy_vector`.
"""

from simcore._features import weight_vector

FEATURE_DOCS = {
    "fleet_boats": "FLEET n: boats the tile gives now (those in the supply), fleet 10 counting its "
                   "optional extra boat; TAKE c (fleet 10): 1",
    "fleet_gold": "FLEET 5 or TAKE gold: gold boats gained (gold is needed by every prestige tile)",
    "fleet_early": "FLEET n: (11 - n) / 10, an early place in next round's turn order",
    "fleet_ability": "FLEET n: 1 for a tile with an ability (fleets 2-9; fleet 10's extra boat counts "
                     "in fleet_boats instead)",
    "coins": "coins gained (negative: paid) by the action: trades, Hetsuka, Kachiko, group coins, "
             "recruited tile's coins, Ananda's toll",
    "hand_boats": "boats gained in hand (negative: sold or exchanged away); gold counts 2",
    "place": "PLACE: 1 for putting a boat on the board",
    "place_tokens": "PLACE: culture tokens on islands next to the space (collectable this turn)",
    "place_fit": "PLACE: best build progress next to the space: for each empty island next to it and "
                 "each visible tile (row, own earlier reservations), the tile's PP / (1 + boats still "
                 "missing after this boat); the best pair, divided by 5",
    "build_pp": "BUILD: the PP printed on the tile built (scored at the end)",
    "pp_tokens": "BUILD: PP tokens gained (prestige neighbours, mountain, Kagutsuchi, Awashima)",
    "group": "BUILD standard: size of the own group the building joins (0 for a lone building)",
    "collect": "COLLECT / EBISU: 1 per culture token taken",
    "token_set": "COLLECT / EBISU: 1 if the token completes a pair of its type, 0.5 if it is a new "
                 "type (towards 3 distinct), else 0",
    "recruit_pp": "RECRUIT: the specialist's PP",
    "specialist_value": "RECRUIT: the designed value of its ability (table in _policy.pxi, 0-3)",
    "keep": "KEEP c: 1 per boat kept in the port, gold 2",
    "set_aside": "port PASS: boats set aside beyond the kept ones, in pairs (each pair costs 1 PP)",
    "reserve": "RESERVE: the reserved tile's PP / 5 (it must be built later, or costs 1 PP)",
    "pass": "PASS in any decision (a bias towards stopping: end placement, stop collecting, no trade)",
    "fleet_fit": "FLEET n: how well the hand after taking the tile covers a visible tile (row, own earlier "
                 "reservations): the best tile PP / (1 + boats still lacking), divided by 5; fleets 9 "
                 "and 10 may lack one boat more (build discount, free extra boat)",
    "trade_fit": "BUY c / SELL c / TAKE c: change of that hand fit (as fleet_fit, fleet 9's discount "
                 "if taken) made by the boat bought, sold or taken",
    "prestige_adjacent": "BUILD: torii and palaces next to the island that pay a PP token (standard "
                         "buildings; prestige ones with Awashima)",
    "mountain": "BUILD: 1 if the island's mountain pays a PP token (standard buildings; prestige ones "
                "with Awashima)",
    "ability_build": "SLIDE / SWAPBOATS (fleets 4, 8) in post: PP of the best tile buildable after the "
                     "move when it beats the best build possible now (boats' colours and the "
                     "placed-this-turn marks moved), else 0",
    "ability_tokens": "SLIDE / SWAPBOATS in post: culture tokens collectable after the move minus now "
                      "when more (islands with a token next to a marked boat, at most one per marked boat)",
    "token_swap": "SWAPTOK (fleet 6) in post: token_set gained on the island next to this turn's boats "
                  "that receives the other island's token (negative: lost)",
    "deny": "SACRED i (fleet 5) in after: island i's place fit (best tile PP / (1 + boats missing), / 5), "
            "closed to everyone; REMOVE s (fleet 7) in after: the fit the empty islands next to s lose",
    "peek_top": "ARRANGE (fleet 3): PP / 5 of the peeked tile left on top of the building deck (0 if all "
                "go under); its owner sees the peeked tiles",
}

FEATURES = tuple(FEATURE_DOCS)
N_FEATURES = len(FEATURES)


def policy_vector(weights, temperature=0.0, epsilon=0.0):
    """The per-seat policy argument of ``play_batch`` for the heuristic policy.

    Parameters
    ----------
    weights : dict
        One number per name in ``FEATURES`` (all required, no others).
    temperature : float
        Softmax temperature over the action scores; 0 = take the best.
    epsilon : float
        Probability of a uniformly random legal action instead.

    Returns
    -------
    numpy.ndarray
        float64, ``len(FEATURES) + 2``: the weights, then temperature and epsilon.
    """
    return weight_vector(FEATURES, weights, None, temperature, epsilon)

