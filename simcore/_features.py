"""The heuristic policy's argument, built and checked once for every game's ``policy_vector``."""
import math

import numpy as np


def number(x, what):
    """``x`` as a finite float; TypeError / ValueError naming ``what`` otherwise."""
    if isinstance(x, bool) or not isinstance(x, (int, float, np.integer, np.floating)):
        raise TypeError(f"{what} must be a number, not {x!r}")
    x = float(x)
    if not math.isfinite(x):
        raise ValueError(f"{what} must be finite, not {x}")
    return x


def weight_vector(features, weights, optional=None, temperature=0.0, epsilon=0.0, softmax=True):
    """One float64 per feature (in ``features`` order), then temperature (if ``softmax``) and epsilon.

    ``weights`` names every feature but those of ``optional`` (feature ->
    the weight it gets when left out), and no others.
    """
    optional = optional or {}
    if not isinstance(weights, dict):
        raise TypeError(f"weights must be a dict of feature -> number, not {type(weights).__name__}")
    unknown = [k for k in weights if k not in features]
    if unknown:
        raise ValueError(f"unknown feature {unknown[0]!r} (known: {', '.join(features)})")
    missing = [k for k in features if k not in weights and k not in optional]
    if missing:
        raise ValueError(f"missing weight for feature {missing[0]!r}")
    values = [number(weights.get(name, optional.get(name)), f"weight {name!r}") for name in features]
    t, e = number(temperature, "temperature"), number(epsilon, "epsilon")
    if t < 0:
        raise ValueError(f"temperature must be >= 0, not {temperature}")
    if not softmax and t:
        raise ValueError("this heuristic is argmax: temperature must be 0 (use epsilon for noise)")
    if not 0 <= e <= 1:
        raise ValueError(f"epsilon must be in [0, 1], not {epsilon}")
    return np.array(values + ([t] if softmax else []) + [e], dtype=np.float64)
