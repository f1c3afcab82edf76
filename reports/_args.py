"""Argument types shared by the ``boardlab`` commands (argparse ``type=`` callables).

Kept apart from ``reports/cli.py`` so that the command modules
(``bench``, ``commands``, ``regress``, ``strategies.tune``) import them without
importing the CLI itself.
"""
import argparse


def _positive_int(text):
    """``1000000``, ``1_000_000``, ``1e6`` -> int > 0."""
    value = _int(text)
    if value <= 0:
        raise argparse.ArgumentTypeError(f"must be a positive integer, not {text}")
    return value


def _int(text):
    try:
        return int(text.replace("_", ""))
    except ValueError:
        pass
    try:
        f = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: '{text}'") from None
    if not f.is_integer():
        raise argparse.ArgumentTypeError(f"not an integer: '{text}'")
    return int(f)


def _seed(text):
    value = _int(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be a non-negative integer, not {text}")
    return value
