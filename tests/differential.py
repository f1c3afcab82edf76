"""The differential harness every game shares: a game of the engine replayed step by step in its reference.

``replay_both`` plays the decisions the engine's kernel makes from ``seed``
(``play_actions``) in both the engine's step API and the reference engine
(``mod.reference.RefState``): at every decision both list the same legal
actions, and at the end both are over with equal scores. ``check(cy, py, i)``
adds a game's own comparisons at decision ``i`` (``None``: the end).
"""


def replay_both(mod, players, seed, policies=None, check=None, **settings):
    actions = mod.play_actions(players, seed, policies, **settings)
    cy = mod.new_game(players, seed, **settings)
    py = mod.reference.RefState.new(players=players, seed=seed, **settings)
    for i, a in enumerate(actions):
        assert cy.legal_actions() == py.legal_actions(), f"seed {seed}, decision {i}: legal actions differ"
        if check:
            check(cy, py, i)
        cy.apply(a)
        py.apply(a)
    assert cy.is_over() and py.is_over(), f"seed {seed}: one engine did not finish"
    assert cy.scores() == py.scores(), f"seed {seed}: scores differ"
    if check:
        check(cy, py, None)
    return cy
