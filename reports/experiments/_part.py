"""What every study-part kind shares: the part record, its error, the checks of its keys and the
contexts its ``parse`` and ``run`` get (``reports.experiments`` describes the interface)."""
from __future__ import annotations

import re
from dataclasses import dataclass, field

#: the keys every kind that plays planned runs accepts
COMMON_KEYS = {"name", "title", "game", "players", "games", "quick_games", "seed", "variant"}


class StudyError(ValueError):
    """A malformed study file; the message names the file and the key."""


@dataclass
class Part:
    kind: str
    name: str
    title: str
    runs: list = field(default_factory=list)     # PlannedRun (balance, variants)
    players: int = 0
    strategies: list = field(default_factory=list)  # compare
    games: int = 0
    seed: int = 0
    variant: dict = field(default_factory=dict)
    baseline: str = ""
    game: str = ""             # the study's game unless the part names its own
    quick_games: int = 0       # --quick cap of this part (0: the study's)
    sweep: object = None       # a [[sweep]] part's reports.sweep.SweepSpec
    events: bool = True
    settings: dict = field(default_factory=dict)    # compensation: its search settings
    spec: object = None        # skill: its reports.ladder.LadderPlan
    first_screen: str = ""     # what the study's first screen reads from it: its kind's FIRST_SCREEN
    fit_games: int = 0         # balance, variants: the regressions' sample, games a run (0: FIT_GAMES)


@dataclass
class ParseContext:
    """What a kind's ``parse`` gets besides its table: where it is (for messages), the study, the
    part's game module, its player counts (checked against the game) and its games."""
    where: str
    study: object
    mod: object
    players: list
    games: int


@dataclass
class RunContext:
    """What a kind's ``run`` gets: the study's runs folder, the pool size, the log, and
    ``play(planned_run) -> folder``, which plays a run once per study (an equal run is reused)."""
    base: str
    workers: object
    log: object
    play: object
    t0: float = 0.0


def type_name(t):
    return {int: "an integer", str: "a string", bool: "true or false", dict: "a table", list: "a list"}[t]


def check(value, typ, where, what=None):
    """``value`` if it is a ``typ`` (a bool is no int), else StudyError naming ``where``."""
    ok = isinstance(value, typ) and not (typ is int and isinstance(value, bool))
    if not ok:
        raise StudyError(f"{where} must be {what or type_name(typ)}, not {value!r}")
    return value


def fit_games_of(t, where):
    """A part's ``fit_games``: the regressions (category logit, component values) fitted on the first
    that many games of each run, for a report that must be quick (0: the default sample); StudyError."""
    n = check(t.get("fit_games", 0), int, f"{where}: fit_games")
    if "fit_games" in t and n < 1000:
        raise StudyError(f"{where}: fit_games must be at least 1,000 games (a regression sample), not {n:,}")
    return n


def slug(text):
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", str(text)).strip("-") or "part"


def players_of(value, where, allowed):
    """A part's ``players``: one count or a list, each one the game is played by."""
    vals = value if isinstance(value, list) else [value]
    if not vals:
        raise StudyError(f"{where} must be a player count or a list of them, not []")
    for v in vals:
        if isinstance(v, bool) or not isinstance(v, int) or (allowed and v not in allowed):
            raise StudyError(f"{where} must be a player count ({', '.join(map(str, allowed))}) "
                             f"or a list of them, not {value!r}")
    if len(set(vals)) != len(vals):
        raise StudyError(f"{where} lists a player count twice ({value!r}); give each once")
    return vals


def variant_of(value, where, mod, players):
    """A table of engine settings, checked by the game's ``make_config``."""
    check(value, dict, where, "a table of engine settings, e.g. { quarry_yields = \"falling\" }")
    variant = {str(k): str(v).lower() if isinstance(v, bool) else str(v) for k, v in value.items()}
    try:
        mod.make_config(players, **variant)
    except (ValueError, TypeError) as exc:
        raise StudyError(f"{where}: {exc}") from None
    return variant


def strategy_of(name, where, game):
    """A strategy name the game resolves (``strategies.resolve``)."""
    import strategies as _strategies

    check(name, str, where, "a strategy name")
    try:
        _strategies.resolve(game, name)
    except (ValueError, KeyError, FileNotFoundError) as exc:
        raise StudyError(f"{where}: {exc}") from None
    return name


def seats_of(t, where, players, game):
    """``(seats or None, strategy)`` of a part that plays one strategy in every seat or one per seat."""
    seats = None
    if "seats" in t and "strategy" in t:
        raise StudyError(f"{where}: give either 'strategy' (every seat) or 'seats' (one per seat), not both")
    if "seats" in t:
        seats = t["seats"]
        if len(players) != 1 or not isinstance(seats, list) or len(seats) != players[0]:
            raise StudyError(f"{where}: seats must list one strategy per seat for one player count "
                             f"(players = {t['players']!r}), not {seats!r}")
        seats = [strategy_of(s, f"{where}: seats", game) for s in seats]
    strategy = strategy_of(t.get("strategy", "random"), f"{where}: strategy", game)
    return seats, strategy


def run_key(part, r):
    """What determines a planned run's games (``RunPlan.run_id``): two runs of a study with the
    same key, e.g. a balance run and the default option of a variants part, play the same games."""
    from simcore.run import plan_run

    return part.game, plan_run(part.game, players=r.players, games=r.games, seed=r.seed,
                               strategies=seats(part, r), variant=r.variant, events=r.events).run_id


def seats(part, r):
    """The resolved strategy of every seat of planned run ``r``."""
    import strategies

    return strategies.resolve_seats(part.game, r.players, seat_strategies=r.seat_strategies)


def finished_result(folder, name, spec, log, title):
    """``(key, result)`` of a part whose result is kept as ``folder/name`` (JSON): ``result`` is the one
    kept when it was played with the same ``spec`` (its hash is ``key``), else None (play it, then
    :func:`keep_result`). A file unreadable or of another spec counts as not finished."""
    import hashlib
    import json
    import os

    key = hashlib.sha256(json.dumps(spec, sort_keys=True).encode()).hexdigest()[:16]
    path = os.path.join(folder, name)
    if os.path.isfile(path):
        try:
            with open(path, encoding="utf-8") as fh:
                done = json.load(fh)
            if done.get("key") == key:
                log(f"{title}: finished before ({path})")
                return key, done["result"]
        except (OSError, ValueError, AttributeError, KeyError):
            pass
    return key, None


def keep_result(folder, name, key, spec, result):
    """Write a part's ``result`` as ``folder/name`` with its spec and key (atomically: a part killed
    while writing leaves no file that looks finished)."""
    import json
    import os

    from simcore._data import write_text_atomic

    os.makedirs(folder, exist_ok=True)
    write_text_atomic(os.path.join(folder, name), json.dumps({"key": key, "spec": spec, "result": result}))
