"""The Python face every game module shares: ``new_game``, ``replay_game`` and ``replay``.

Each game builds its three functions with :func:`game_face` from its own
``make_config``, ``State`` and ``play_actions``, so the step-API conventions
are written once.
"""


def game_face(title, make_config, state_class, play_actions, default_players):
    """Return ``(new_game, replay_game, replay)`` for one game."""

    def new_game(players=default_players, seed=0, config=None, **settings):
        if config is None:
            config = make_config(players, **settings)
        elif settings or config.players != players:
            raise ValueError("give either a matching config or settings, not both")
        return state_class.new(config, seed)

    def replay_game(players, seed, policies=None, config=None, **settings):
        if config is None:
            config = make_config(players, **settings)
        state = state_class.new(config, seed)
        for action in play_actions(players, seed, policies, config=config):
            state.apply(action)
        return state

    def replay(players, seed, actions, config=None, **settings):
        if actions and isinstance(actions[0], dict):      # a whole transcript: keep the decisions
            actions = [e["action"] for e in actions if e["kind"] == "decision"]
        state = new_game(players, seed, config, **settings)
        for i, action in enumerate(actions):
            try:
                state.apply(action)
            except ValueError as exc:
                raise ValueError(f"decision {i}: {exc}") from None
        return state

    new_game.__doc__ = f"""A new {title} game.

    Parameters
    ----------
    players : int
        A player count of ``PLAYERS``.
    seed : int
        The game seed (all chance is drawn from it).
    config : optional
        A config from ``make_config``, instead of ``settings``.
    **settings
        Engine settings (see ``SETTINGS``).
    """
    replay_game.__doc__ = ("Replay the game ``play_batch`` plays from ``seed`` with ``policies``; "
                           "return the final ``State`` (its ``transcript()`` lists every step).")
    replay.__doc__ = ("Apply a list of decisions (or a transcript's) to the game of ``seed``; "
                      "``ValueError`` naming the first illegal one.")
    for f in (new_game, replay_game, replay):
        f.__qualname__ = f.__name__
    return new_game, replay_game, replay
