"""Information-set MCTS agent: strong play over any game's C-level contract.

Each decision runs ``iterations`` iterations of single-observer ISMCTS
(``simcore._mcts``: a fresh determinization of what the seat cannot see per
iteration, availability-counted UCB, max-n backup of win shares, rollouts by
the built-in heuristic with a little epsilon noise) and plays the most
visited action. The search is seeded from the agent's seed and the
position's public progress (:func:`strategies.agents.decision_seed`), so a
game replays exactly.
"""
from simcore._contract import HEURISTIC, LEARNED, check_search_settings, search_defaults
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
        The policy every seat plays in the rollouts (default ``balanced``): random, a heuristic,
        or ``learned`` (the model's move, ``simcore._mcts._search``).
    game : str
    seed : int
        Mixed into each decision's seed.
    rollout_epsilon : float
        Random-action noise of the rollout policy (a heuristic or learned rollout
        without noise replays one line only).
    bias : float
        Progressive bias toward the built-in policy's choice (``simcore._mcts.search``).
    cutoff : int
        Rollouts stop after this many decisions and score the position as it stands (0: to the end).
    points : float
        Weight of the seat's share of the points in its reward (0: the win share alone).
    prior : dict or str, optional
        A learned model as the search's prior (``learned``, ``learned:FILE.json`` or a resolved
        strategy dict; ``docs/learned.md``), as ``mcts:...,prior=learned`` plays it in the kernel.
    reuse : int
        1: the seat's consecutive decisions go on from the subtree of the move it played, when its
        information set allows (``docs/game_ops.md``); the agent then keeps its tree from one
        ``act`` to the next, as a kernel's search seat does. 0: a fresh tree each decision.

    A setting left at None takes the game's default (``simcore._contract.search_defaults``).

    In a run, the same search is the strategy ``mcts`` (``strategies.resolve(game,
    "mcts:iterations=400")``), played inside the kernel's game loop.
    """

    def __init__(self, iterations=None, c=None, rollout=None, game="hellas", seed=0, rollout_epsilon=None,
                 bias=None, cutoff=None, points=None, prior=None, reuse=None):
        import simcore
        import strategies
        d = search_defaults(simcore.games[game])
        iterations, c, rollout, rollout_epsilon, bias, cutoff, points, reuse = (
            d[k] if v is None else v for k, v in (("iterations", iterations), ("c", c), ("rollout", rollout),
                                                  ("rollout_epsilon", rollout_epsilon), ("bias", bias),
                                                  ("cutoff", cutoff), ("points", points), ("reuse", reuse)))
        check_search_settings(iterations, c, bias, cutoff, points, reuse)
        self.cutoff, self.points, self.reuse = int(cutoff), float(points), int(reuse)
        self._decider = None        # reuse: the decider that keeps the tree (made at the first decision)
        self.iterations, self.c, self.bias, self.game, self.seed = iterations, float(c), float(bias), game, seed
        strat = strategies.resolve(game, rollout)
        if strat.policy_kind is HEURISTIC and rollout_epsilon is not None:
            strat = strat.with_noise(epsilon=rollout_epsilon)
        self.rollout = strat
        self.policy = strat.as_policy()
        self.rollout_epsilon = float(rollout_epsilon) if strat.policy_kind is LEARNED else 0.0
        self.prior = None
        if prior is not None and prior != "none":
            from simcore._model import learned_policy
            p = strategies.from_dict(prior) if isinstance(prior, dict) else strategies.resolve(game, prior)
            self.prior = learned_policy(simcore.games[game], p.to_dict())

    def search(self, state):
        """The search's root statistics at ``state`` (``actions``, ``visits``, ``values``, ``best``;
        with reuse, the visits include those of the retained subtree)."""
        if self.reuse:
            best = self._reusing(state).decide(state, decision_seed(state, self.seed))
            t = self._decider.tree()
            return {"actions": t["actions"], "visits": t["child_visits"], "values": t["values"], "best": best,
                    "nodes": t["nodes"]}
        return search(state, self.iterations, self.c, [self.policy] * state.players,
                      decision_seed(state, self.seed), self.bias, cutoff=self.cutoff, points=self.points,
                      prior=self.prior, rollout_epsilon=self.rollout_epsilon)

    def _reusing(self, state):
        if self._decider is None or self._decider_players != state.players:
            import simcore
            from simcore._contract import SearchPolicy
            from simcore._mcts import SearchDecider
            spec = SearchPolicy(self.iterations, self.c, self.bias, self.cutoff, self.policy, self.points,
                                self.prior, 1, self.rollout_epsilon)
            self._decider = SearchDecider(simcore.games[self.game].game_ops(), spec, state.players)
            self._decider_players = state.players
        return self._decider

    def act(self, state):
        return self.search(state)["best"]
