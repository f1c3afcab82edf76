"""Features of the built-in Akrotiri heuristic policy (``_policy.pxi``), in vector order.

A policy vector is the weights in ``FEATURES`` order, then epsilon (the chance of a
uniformly random legal action, drawn from the policy stream). The policy scores every
legal action by the weighted sum of its features and takes the best (ties broken by
the policy stream). It reads only public information plus its own hand, goals and
tile (spec 15.4). Temperature is accepted for the common strategy format; the
Akrotiri policy is argmax, so it must be 0.

"Fits" below means the map card is satisfied (spec 7.2) for the policy's own seat at
a quarter, with the landmarks on the board now.
"""
from simcore._features import weight_vector

FEATURE_DOCS = {
    "excavate_points": "excavate: points of the map card the excavation scores",
    "goal_fit": "excavate: points the own held goals gain from a temple on this quarter, for the goals a "
                "temple's island decides (G03, G04, G05 new quadrant, G08, G09-G12; others count 0)",
    "sell_value": "sell: drachmas the sale earns",
    "load_value": "load: market value of the cubes loaded",
    "buy": "buy maps: per card bought (any purchase scores -5 with 2 or more maps in hand or less than "
           "2 drachmas left after it, and every purchase costs 0.5 per drachma paid)",
    "buy_hard": "buy maps: per medium or hard card in the purchase",
    "sail_thera": "move to a Thera port: per cube aboard",
    "sail_cubes": "move to another island: market value of the cubes a visit could load there "
                  "(dearest first, up to the room in the boat), / 10; 0 with a full boat",
    "sail_fit": "move to another island: points of the best affordable map in hand that fits a quarter of "
                "that island (0 on Thera or an island with a temple)",
    "oracle": "consult the Oracle (any landmark)",
    "place_fit": "place the tile: maps in hand that fit a land quarter of the placed tile",
    "end": "end the turn",
    "dig_cost": "excavate: drachmas the map costs",
    "sail_buy": "move to a Thera port holding fewer than 2 maps and at least 1 drachma",
    "oracle_need": "consult the Oracle: icons of the named landmark the maps in hand ask for beyond the "
                   "landmarks of that type on the board",
    "cube_value": "second cube: the price the colour sells for after the cube is taken",
    "goal_keep": "keep a goal: its points per temple x (own temples meeting it now, for the landmark "
                 "goals G03 G04 G09-G12, plus half the temples still to dig); G05 counts quadrants (max 4), "
                 "G06 counts 3 tiles",
    "buy_gold": "buy maps: per hard card in the purchase (on top of buy_hard)",
    "move_cost": "move (sea move or transport): the actions it costs (0 as the empty-boat bonus, +1 "
                 "passing the opponent's port)",
    "thera_route": "move: per cube aboard, when the destination port reaches Thera by sea (its route "
                   "component holds T0 and T1), so a loaded boat cut off from Thera looks for a way back",
    "seek_cubes": "move with an empty boat: 1 when the destination is fewer movements (sea moves or "
                  "transports, the opponent's boat ignored) from a port of an island holding cubes than "
                  "the boat's port is, so cubes a transport away are found",
    "seek_thera": "move: per cube aboard, 1 when the destination is fewer movements from a Thera port "
                  "than the boat's port is",
    "cube_reach": "second cube: 1 when the chosen quarter's island has a port from which a boat can reach "
                  "Thera (sea moves and transports), so the cube can be sold",
    "place_reach": "place the tile: its ports that its own routes link to a side whose route component "
                   "already reaches Thera",
}
FEATURES = tuple(FEATURE_DOCS)
# features added after the first presets: a weight table may leave them out (weight 0)
OPTIONAL = {"dig_cost": 0.0, "sail_buy": 0.0, "oracle_need": 0.0, "cube_value": 0.0, "goal_keep": 0.0,
            "buy_gold": 0.0, "move_cost": 0.0, "thera_route": 0.0, "seek_cubes": 0.0, "seek_thera": 0.0,
            "cube_reach": 0.0, "place_reach": 0.0}


def policy_vector(weights, temperature=0.0, epsilon=0.0):
    """The policy vector ``play_batch`` takes: weights by feature name, then epsilon."""
    # a weight left out weighs its OPTIONAL value, else 0 (preset files are checked for completeness on load)
    return weight_vector(FEATURES, weights, {f: OPTIONAL.get(f, 0.0) for f in FEATURES}, temperature, epsilon,
                         softmax=False)
