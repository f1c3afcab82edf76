"""Python agents: any object with ``act(state) -> action`` plays through the step API.

Agents here are stateless between calls: the noise of a decision is drawn
from a seed derived from (game seed, decision number, seat, agent seed), so
one agent object may sit in several seats, or be reused across games,
without leaking anything from one seat to another.
"""
import random

import numpy as np


def decision_seed(state, base=0):
    """A 64-bit seed for the current decision of ``state``, mixed with ``base``."""
    ss = np.random.SeedSequence([int(state.seed) & (2**64 - 1), int(state.decisions),
                                 int(state.current_player()) + 1, int(base) & (2**64 - 1)])
    return int(ss.generate_state(1, dtype=np.uint64)[0])


class RandomAgent:
    """Uniformly random legal actions (noise from :func:`decision_seed`)."""

    def __init__(self, seed=0):
        self.seed = seed

    def act(self, state):
        legal = state.legal_actions()
        return legal[random.Random(decision_seed(state, self.seed)).randrange(len(legal))]


class PolicyAgent:
    """A built-in policy (a :class:`~strategies.Strategy` or preset name) as a Python agent.

    The decision is computed by the same C code as in ``play_batch``; only the
    noise stream differs (seeded per decision).
    """

    def __init__(self, strategy, game="hellas", seed=0):
        import strategies
        self.strategy = strategy if isinstance(strategy, strategies.Strategy) else strategies.resolve(game, strategy)
        self.policy = self.strategy.as_policy()
        self.seed = seed

    def act(self, state):
        from simcore._search import ops_policy_action     # any game, through its C-level contract

        return ops_policy_action(state, [self.policy] * state.players, decision_seed(state, self.seed))


def play_python(game, agents, seed, config=None, **settings):
    """Play one game with Python agents (one per seat) through the step API.

    Parameters
    ----------
    game : str
        Game name, e.g. ``"hellas"``.
    agents : sequence
        One object per seat with ``act(state) -> action``; the same object
        may sit in several seats.
    seed : int
        The game seed.
    config : optional
        The game's config (default: ``make_config(len(agents), **settings)``).

    Returns
    -------
    State
        The finished game (``scores()``, ``transcript()``).
    """
    import simcore
    mod = simcore.games[game]
    players = len(agents)
    if config is None:
        config = mod.make_config(players, **settings)
    state = mod.State.new(config, seed)
    steps = 0
    while not state.is_over():
        seat = state.current_player()
        action = agents[seat].act(state)
        try:
            state.apply(int(action))
        except ValueError as exc:
            raise ValueError(f"agent in seat {seat} ({type(agents[seat]).__name__}): {exc}") from None
        steps += 1
        if steps > 100_000:
            raise RuntimeError("game did not end after 100000 decisions")
    return state


def win_shares(totals):
    """Win share per seat from final totals (a k-way tie gives 1/k each)."""
    best = max(totals)
    k = sum(t == best for t in totals)
    return [1.0 / k if t == best else 0.0 for t in totals]
