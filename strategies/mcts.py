"""Information-set MCTS agent: strong play over any game's C-level contract.

Each decision runs ``iterations`` iterations of single-observer ISMCTS
(``simcore._mcts``: a fresh determinization of what the seat cannot see per
iteration, availability-counted UCB, max-n backup of win shares, rollouts by
the built-in heuristic with a little epsilon noise) and plays the most
visited action. The search is seeded from the agent's seed and the
position's public progress (:func:`strategies.agents.decision_seed`), so a
game replays exactly.
"""
from simcore._contract import SEARCH_DEFAULTS, check_search_settings
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
    cutoff : int
        Rollouts stop after this many decisions and score the position as it stands (0: to the end).

    In a run, the same search is the strategy ``mcts`` (``strategies.resolve(game,
    "mcts:iterations=400")``), played inside the kernel's game loop.
    """

    def __init__(self, iterations=SEARCH_DEFAULTS["iterations"], c=SEARCH_DEFAULTS["c"],
                 rollout=SEARCH_DEFAULTS["rollout"], game="hellas", seed=0,
                 rollout_epsilon=SEARCH_DEFAULTS["rollout_epsilon"], bias=SEARCH_DEFAULTS["bias"],
                 cutoff=SEARCH_DEFAULTS["cutoff"]):
        import strategies
        check_search_settings(iterations, c, bias, cutoff)
        self.cutoff = int(cutoff)
        self.iterations, self.c, self.bias, self.game, self.seed = iterations, float(c), float(bias), game, seed
        strat = strategies.resolve(game, rollout)
        if strat.kind == "heuristic" and rollout_epsilon is not None:
            strat = strat.with_noise(epsilon=rollout_epsilon)
        self.rollout = strat
        self.policy = strat.as_policy()

    def search(self, state):
        """The search's root statistics at ``state`` (``actions``, ``visits``, ``values``, ``best``)."""
        return search(state, self.iterations, self.c, [self.policy] * state.players,
                      decision_seed(state, self.seed), self.bias, cutoff=self.cutoff)

    def act(self, state):
        return self.search(state)["best"]
