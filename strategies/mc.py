"""Flat Monte Carlo agent: a strength reference for the built-in heuristics.

For each legal action, ``playouts`` games are played to the end from the
position after it with the default policy in every seat (``balanced`` unless
given), and the action with the best mean win share is taken. Hidden
information is respected: each playout first resamples what the deciding seat
cannot see (the game's determinization, done in C by
``simcore._search.playout_values`` over the game's C-level contract), with the
same draws for every action (common random numbers). Works for every game.
"""
import numpy as np

from simcore._contract import HEURISTIC
from simcore._search import playout_values
from strategies.agents import decision_seed


class FlatMonteCarloAgent:
    """Flat Monte Carlo over the built-in policy.

    Parameters
    ----------
    playouts : int
        Playouts per legal action (N).
    rollout : str or Strategy
        Policy of every seat in the playouts (default ``balanced``; a little
        epsilon noise keeps the playouts from being identical).
    game : str
    seed : int
        Mixed into each decision's seed.
    """

    def __init__(self, playouts=32, rollout="balanced", game="hellas", seed=0, rollout_epsilon=0.05):
        import strategies
        if playouts < 1:
            raise ValueError(f"playouts must be >= 1, not {playouts}")
        self.playouts = int(playouts)
        self.game = game
        strat = strategies.resolve(game, rollout)
        if strat.policy_kind is HEURISTIC and rollout_epsilon is not None:
            strat = strat.with_noise(epsilon=rollout_epsilon)
        self.rollout = strat
        self.policy = strat.as_policy()
        self.seed = seed

    def values(self, state):
        """``(actions, mean win share after each)`` at ``state``."""
        return playout_values(state, [self.policy] * state.players, self.playouts,
                              decision_seed(state, self.seed))

    def act(self, state):
        actions, values = self.values(state)
        return actions[int(np.argmax(values))]
