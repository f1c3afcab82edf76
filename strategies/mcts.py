"""Information-set MCTS agent: strong play over any game's C-level contract.

Each decision runs ``iterations`` iterations of single-observer ISMCTS
(``simcore._mcts``: a fresh determinization of what the seat cannot see per
iteration, availability-counted UCB, max-n backup of win shares, rollouts by
the built-in heuristic with a little epsilon noise) and plays the most
visited action. The search is seeded from the agent's seed and the
position's public progress (:func:`strategies.agents.decision_seed`), so a
game replays exactly.
"""
from simcore._contract import HEURISTIC, check_search_settings, search_defaults
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
    points : float
        Weight of the seat's share of the points in its reward (0: the win share alone).
    prior : dict or str, optional
        A learned model as the search's prior (``learned``, ``learned:FILE.json`` or a resolved
        strategy dict; ``docs/learned.md``), as ``mcts:...,prior=learned`` plays it in the kernel.

    A setting left at None takes the game's default (``simcore._contract.search_defaults``).

    In a run, the same search is the strategy ``mcts`` (``strategies.resolve(game,
    "mcts:iterations=400")``), played inside the kernel's game loop.
    """

    def __init__(self, iterations=None, c=None, rollout=None, game="hellas", seed=0, rollout_epsilon=None,
                 bias=None, cutoff=None, points=None, prior=None):
        import simcore
        import strategies
        d = search_defaults(simcore.games[game])
        iterations, c, rollout, rollout_epsilon, bias, cutoff, points = (
            d[k] if v is None else v for k, v in (("iterations", iterations), ("c", c), ("rollout", rollout),
                                                  ("rollout_epsilon", rollout_epsilon), ("bias", bias),
                                                  ("cutoff", cutoff), ("points", points)))
        check_search_settings(iterations, c, bias, cutoff, points)
        self.cutoff, self.points = int(cutoff), float(points)
        self.iterations, self.c, self.bias, self.game, self.seed = iterations, float(c), float(bias), game, seed
        strat = strategies.resolve(game, rollout)
        if strat.policy_kind is HEURISTIC and rollout_epsilon is not None:
            strat = strat.with_noise(epsilon=rollout_epsilon)
        self.rollout = strat
        self.policy = strat.as_policy()
        self.prior = None
        if prior is not None and prior != "none":
            from simcore._model import learned_policy
            p = strategies.from_dict(prior) if isinstance(prior, dict) else strategies.resolve(game, prior)
            self.prior = learned_policy(simcore.games[game], p.to_dict())

    def search(self, state):
        """The search's root statistics at ``state`` (``actions``, ``visits``, ``values``, ``best``)."""
        return search(state, self.iterations, self.c, [self.policy] * state.players,
                      decision_seed(state, self.seed), self.bias, cutoff=self.cutoff, points=self.points,
                      prior=self.prior)

    def act(self, state):
        return self.search(state)["best"]
