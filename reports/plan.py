"""One planned run of a study part: what ``reports.study`` plays (and ``reports.sweep`` for its cells);
the seatings of a comparison or a ladder (:func:`lineups`)."""
import itertools
import math
from dataclasses import dataclass


@dataclass
class PlannedRun:
    label: str
    folder: str             # relative to the study's runs folder
    players: int
    seat_strategies: list
    variant: dict
    games: int
    seed: int
    events: bool = True
    option: str = ""        # the variant's name in a [[variants]] part


#: a comparison plays every ordering of its strategies while they are at most this many
MAX_PERMUTATIONS = 120


def lineups(strategies, players):
    """Seatings (one tuple of strategy names per game type) balancing every seat."""
    names = list(strategies)
    k = len(names)
    if k == 0:
        raise ValueError("a comparison needs at least one strategy")
    if len(set(names)) != k:
        dup = next(n for n in names if names.count(n) > 1)
        raise ValueError(f"strategy '{dup}' is listed twice; list each strategy once")
    if k >= players and math.perm(k, players) <= MAX_PERMUTATIONS:
        return list(itertools.permutations(names, players))
    return [tuple(names[(i + j) % k] for j in range(players)) for i in range(k)]
