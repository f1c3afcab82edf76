"""One planned run of a study part: what ``reports.study`` plays (and ``reports.sweep`` for its cells)."""
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
