"""Strategies: named policy parameters per game, presets, Python agents, tuning.

Placeholder until the strategies issue lands: only the uniform ``random``
strategy exists. ``resolve(game, name)`` is the entry point the runner uses.
"""
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Strategy:
    """A named policy for one game: feature weights plus noise."""

    game: str
    name: str
    kind: str = "random"          # "random" or "heuristic"
    weights: dict = field(default_factory=dict)
    temperature: float = 0.0
    epsilon: float = 0.0

    def as_policy(self):
        """The argument ``play_batch`` takes for one seat (``None`` = uniform random)."""
        if self.kind == "random":
            return None
        raise NotImplementedError("heuristic strategies arrive with the strategies issue")

    def to_dict(self):
        return {"game": self.game, "name": self.name, "kind": self.kind,
                "weights": dict(self.weights), "temperature": self.temperature,
                "epsilon": self.epsilon}


def known(game):
    """Names of the strategies available for ``game``."""
    return ["random"]


def resolve(game, name):
    """The strategy called ``name`` for ``game``; ``ValueError`` naming the known ones otherwise."""
    if name == "random":
        return Strategy(game=game, name="random")
    raise ValueError(f"unknown strategy '{name}' for {game} (known: {', '.join(known(game))})")
