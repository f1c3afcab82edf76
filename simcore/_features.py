"""The heuristic policy's argument, built and checked once for every game's ``policy_vector``."""
import math

import numpy as np


def check_weights(features, weights, optional=None, where=None):
    """``weights`` (feature -> number) checked against ``features``: every feature named but those of
    ``optional`` (feature -> the weight it gets when left out), no other, each a finite number.

    The one check of a strategy's weights (``policy_vector``, preset files, manifests). Returns
    ``{feature: float}`` as given; ValueError naming the first problem (after ``where: ``).
    """
    head = f"{where}: " if where else ""
    optional = optional or {}
    if not isinstance(weights, dict):
        raise ValueError(f"{head}weights must be a table of feature -> number, not {type(weights).__name__}")
    for key, value in weights.items():
        if key not in features:
            raise ValueError(f"{head}unknown feature {key!r} (known: {', '.join(features)})")
        if (isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating))
                or not math.isfinite(value)):
            raise ValueError(f"{head}weight {key!r} must be a finite number, not {value!r}")
    missing = [k for k in features if k not in weights and k not in optional]
    if missing:
        raise ValueError(f"{head}missing weight for feature {missing[0]!r} "
                         f"(every feature needs one: {', '.join(features)})")
    return {k: float(v) for k, v in weights.items()}


def check_noise(temperature, epsilon, softmax=True, where=None):
    """``(temperature, epsilon)`` as floats: temperature >= 0 (0 unless ``softmax``), epsilon in [0, 1]."""
    head = f"{where}: " if where else ""
    t = _real(temperature, f"{head}temperature")
    e = _real(epsilon, f"{head}epsilon")
    if t < 0:
        raise ValueError(f"{head}temperature must be a number >= 0, not {temperature!r}")
    if not softmax and t:
        raise ValueError(f"{head}this heuristic is argmax: temperature must be 0 (use epsilon for noise)")
    if not 0 <= e <= 1:
        raise ValueError(f"{head}epsilon must be in [0, 1], not {epsilon!r}")
    return t, e


def _real(x, what):
    if isinstance(x, bool) or not isinstance(x, (int, float, np.integer, np.floating)) or not math.isfinite(x):
        raise ValueError(f"{what} must be a finite number, not {x!r}")
    return float(x)


def weight_vector(features, weights, optional=None, temperature=0.0, epsilon=0.0, softmax=True):
    """One float64 per feature (in ``features`` order), then temperature (if ``softmax``) and epsilon.

    ``weights`` names every feature but those of ``optional`` (feature ->
    the weight it gets when left out), and no others (:func:`check_weights`).
    """
    optional = optional or {}
    weights = check_weights(features, weights, optional)
    values = [weights.get(name, optional.get(name)) for name in features]
    t, e = check_noise(temperature, epsilon, softmax)
    return np.array(values + ([t] if softmax else []) + [e], dtype=np.float64)
