"""Features of the built-in Akrotiri heuristic policy (``_policy.pxi``), in vector order.

A policy vector is the weights in ``FEATURES`` order, then epsilon (the chance of a
uniformly random legal action, drawn from the policy stream). The policy reads
only public information plus its own hand, goals and tile (spec 15.4).
Temperature is accepted for the common strategy format; the Akrotiri policy is
argmax (ties broken by the policy stream), so it must be 0.
"""
import numpy as np

FEATURE_DOCS = {
    "excavate_points": "points of the map card an excavation scores",
    "goal_fit": "reserved: an excavation's island helps a held goal (not used by the C policy yet)",
    "sell_value": "drachmas a sale earns",
    "load_value": "market value of the cubes a load takes",
    "buy": "per map card bought (only with fewer than 2 maps in hand and money left for a dig)",
    "buy_hard": "per medium or hard card in a purchase",
    "sail_thera": "sailing to Thera, per cube aboard",
    "sail_cubes": "value of the cubes on the destination island (boat not full), / 10",
    "sail_fit": "maps in hand that fit the destination island",
    "oracle": "consulting the Oracle",
    "place_fit": "reserved: maps in hand that fit around a placed tile (not used by the C policy yet)",
    "end": "ending the turn",
}
FEATURES = tuple(FEATURE_DOCS)


def policy_vector(weights, temperature=0.0, epsilon=0.0):
    """The policy vector ``play_batch`` takes: weights by feature name, then epsilon."""
    unknown = sorted(set(weights) - set(FEATURES))
    if unknown:
        raise ValueError(f"unknown akrotiri feature(s) {', '.join(unknown)} (known: {', '.join(FEATURES)})")
    if temperature:
        raise ValueError("the akrotiri heuristic is argmax: temperature must be 0 (use epsilon for noise)")
    return np.array([float(weights.get(f, 0.0)) for f in FEATURES] + [float(epsilon)], dtype=np.float64)
