"""The checks every game's ``make_config`` starts with: the player count and the settings' names."""


def player_count(game, players, allowed):
    """``players`` as an int if ``game`` is played by that many; ValueError naming the counts otherwise."""
    try:
        players = int(players)
    except (TypeError, ValueError):
        raise ValueError(f"players must be a whole number, not {players!r}") from None
    if players not in allowed:
        counts = [str(n) for n in allowed]
        text = counts[0] if len(counts) == 1 else ", ".join(counts[:-1]) + " or " + counts[-1]
        raise ValueError(f"{game} takes {text} players, not {players}")
    return players


def defaults_and_checked_names(game, settings, table):
    """The defaults of ``table`` (setting -> (help, default, ...)); ValueError for a name not in it."""
    for key in settings:
        if key not in table:
            raise ValueError(f"unknown {game} setting '{key}' (known: {', '.join(table)})")
    return {k: v[1] for k, v in table.items()}
