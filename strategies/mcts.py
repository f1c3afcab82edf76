"""Information-set MCTS agent: strong play over any game's C-level contract.

Each decision runs ``iterations`` iterations of single-observer ISMCTS
(``simcore._mcts``: a fresh determinization of what the seat cannot see per
iteration, availability-counted UCB, max-n backup of win shares, rollouts by
the built-in heuristic with a little epsilon noise) and plays the most
visited action. The search is seeded from the agent's seed and the
position's public progress (:func:`strategies.agents.decision_seed`), so a
game replays exactly.
"""
from simcore._mcts import search

from strategies.agents import decision_seed


class MCTSAgent:
    """ISMCTS for one seat.

    Parameters
    ----------
    iterations : int
        Search iterations per decision (>= 1).
    c : float
        UCB exploration constant (>= 0; win shares are in [0, 1]).
    rollout : str or Strategy
        The policy every seat plays in the rollouts (default ``balanced``).
    game : str
    seed : int
        Mixed into each decision's seed.
    rollout_epsilon : float
        Random-action noise of the rollout policy (a heuristic rollout without
        noise replays one line only).
    bias : float
        Progressive bias toward the built-in policy's choice (``simcore._mcts.search``).
    """

    def __init__(self, iterations=400, c=0.7, rollout="balanced", game="hellas", seed=0, rollout_epsilon=0.05,
                 bias=10.0):
        import strategies
        if isinstance(iterations, bool) or not isinstance(iterations, int) or iterations < 1:
            raise ValueError(f"iterations must be a whole number >= 1, not {iterations!r}")
        if not c >= 0:
            raise ValueError(f"c (exploration) must be >= 0, not {c!r}")
        if not bias >= 0:
            raise ValueError(f"bias must be >= 0, not {bias!r}")
        self.iterations, self.c, self.bias, self.game, self.seed = iterations, float(c), float(bias), game, seed
        strat = strategies.resolve(game, rollout)
        if strat.kind == "heuristic" and rollout_epsilon is not None:
            strat = strat.with_noise(epsilon=rollout_epsilon)
        self.rollout = strat
        self.policy = strat.as_policy()

    def search(self, state):
        """The search's root statistics at ``state`` (``actions``, ``visits``, ``values``, ``best``)."""
        return search(state, self.iterations, self.c, [self.policy] * state.players,
                      decision_seed(state, self.seed), self.bias)

    def act(self, state):
        return self.search(state)["best"]
