"""The checks every game's ``make_config`` starts with, written once: the player count, the settings'
names, each value (by the game's own test of one value) and the seat-compensation vectors."""


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


# Seat compensation (issue 20): the same two settings in every engine.
SEAT_SETTINGS = ("seat_bonus", "seat_points")
SEAT_POINTS_MAX = 100       # a total stays far inside the engines' int16 scores


def checked_settings(game, players, allowed, settings, table, check_value, bonus_range):
    """``(players, kw)``: the settings loop of every game's ``make_config``.

    ``players`` is checked against ``allowed``, every name of ``settings``
    against ``table`` (setting -> (help, default, ...)); ``kw`` holds the
    defaults, then each given value as ``check_value(key, value, players)``
    returns it (the game's own test and parsing of one value; ValueError
    naming it), then ``seat_bonus`` and ``seat_points`` as per-seat tuples:
    the bonus in the range ``bonus_range(kw)`` gives, ``(lo, hi, why)``
    (it may depend on the other settings), the points in
    ``-SEAT_POINTS_MAX..SEAT_POINTS_MAX``.
    """
    players = player_count(game, players, allowed)
    kw = defaults_and_checked_names(game, settings, table)
    for key, value in settings.items():
        # the seat settings are checked last, against the player count
        kw[key] = value if key in SEAT_SETTINGS else check_value(key, value, players)
    lo, hi, why = bonus_range(kw)
    kw["seat_bonus"] = seat_vector("seat_bonus", kw["seat_bonus"], players, lo, hi, why)
    kw["seat_points"] = seat_vector("seat_points", kw["seat_points"], players, -SEAT_POINTS_MAX,
                                    SEAT_POINTS_MAX, "points added to a seat's final total")
    return players, kw


def seat_vector(key, value, players, lo, hi, why):
    """``value`` ("2,0" from a command line, or a sequence) as a tuple of ``players`` ints in ``lo..hi``.

    ``None`` gives all zeros. ValueError in one line naming ``key``, the range and ``why`` otherwise.
    """
    if value is None:
        return (0,) * players
    # "2,0" from --variant; "[2, 0]" from a study file's list turned into a string
    items = value.strip().strip("[]()").split(",") if isinstance(value, str) else value
    try:
        items = list(items)
    except TypeError:
        raise ValueError(f"{key} must list {players} whole numbers, one per seat, like "
                         f"{','.join(['0'] * players)}; not {value!r}") from None
    out = []
    for x in items:
        if isinstance(x, str):
            x = x.strip()
            ok = x.lstrip("+-").isdigit()
        else:
            ok = isinstance(x, int) and not isinstance(x, bool)
        if not ok:
            raise ValueError(f"{key} must list whole numbers, one per seat; {x!r} is not one")
        out.append(int(x))
    if len(out) != players:
        raise ValueError(f"{key} needs {players} values, one per seat, not {len(out)} ({value!r})")
    for x in out:
        if not lo <= x <= hi:
            raise ValueError(f"{key} values must be {lo}..{hi} ({why}), not {x}")
    return tuple(out)


def seat_settings(out, cfg):
    """Add ``seat_bonus``/``seat_points`` to a settings dict only when not all zero.

    At their default they stay out, so run ids, manifests and the regress
    baselines recorded before the two settings existed still match.
    """
    for key in SEAT_SETTINGS:
        v = getattr(cfg, key)
        if any(v):
            out[key] = list(v)
    return out


def seat_start_check(bonus, start, resource):
    """ValueError when ``seat_bonus`` would start a seat below 0 of ``resource`` (``start``: the rules' amount)."""
    for x in bonus:
        if not -start <= x <= SEAT_POINTS_MAX:
            raise ValueError(f"seat_bonus values must be {-start}..{SEAT_POINTS_MAX} (no seat starts below 0 "
                             f"{resource}, the rules give {start}), not {x}")


def add_seat_points(table, cfg, games=None):
    """Add a ``seat_points`` entry to a scores table when ``cfg`` sets any (nothing at the default).

    It is not a scoring category (``SCORE_CATEGORIES`` leaves it out): the
    categories plus ``seat_points`` make the total. ``games``: the table is
    ``play_batch``'s players table of that many rows, else a ``scores()`` dict.
    """
    if any(cfg.seat_points):
        total = table.pop("total")          # shown between the categories and the total they make
        if games is None:
            table["seat_points"] = list(cfg.seat_points)
        else:
            import numpy as np
            table["seat_points"] = np.tile(np.asarray(cfg.seat_points, dtype=np.int16), (games, 1))
        table["total"] = total
    return table
