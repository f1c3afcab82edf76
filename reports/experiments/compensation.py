"""``[[compensation]]``: the seat compensation that makes the game fairest, searched and verified
(the search is ``reports.balance``'s, as in ``boardlab balance``). A search, not a results folder:
its result is cached as ``runs/<part>/compensation.json``."""
import os
import time

from reports.balance import _vec, balance, plan, section
from reports.experiments._part import StudyError, finished_result, keep_result


def parse(part, t, ctx):
    try:
        part.settings = parse_part(t, ctx.where, ctx.study, part.game)
    except ValueError as exc:
        raise StudyError(f"{ctx.where}: {exc}") from None
    part.players, part.games = part.settings["players"], part_games(part.settings)
    return part


def quick(part, cap):
    part.settings = quick_settings(part.settings, cap)
    part.games = part_games(part.settings)


def run(part, ctx):
    return run_part(part, os.path.join(ctx.base, part.name), workers=ctx.workers, log=ctx.log)


def runs(part, result):
    return {}


def sections(part, result, figures=None):
    return part_sections(part, result)


KEYS = {"name", "title", "game", "players", "strategy", "knob", "budget", "verify", "seed", "variant",
        "quick_games", "precision", "step"}

#: its result is compensation searches (one dict per player count), not results folders
RESULT = "searches"

#: the study's first screen reads its result as what to change
FIRST_SCREEN = "compensation"


def part_spec(part):
    """What determines a compensation part's result (its cache key)."""
    s = part.settings
    spec = {k: s[k] for k in ("game", "players", "knob", "strategy", "budget", "verify", "seed", "variant")}
    for k in ("precision", "seconds", "step"):  # in the key only when set: earlier results stay valid
        if s.get(k) is not None:
            spec[k] = s[k]
    return spec


def quick_settings(settings, cap):
    """``--quick``: the search budget at most 10 x ``cap`` and the verification at most 5 x ``cap`` games."""
    s = dict(settings)
    s["budget"] = min(s["budget"], 10 * cap)
    s["verify"] = min(s["verify"], 5 * cap)
    try:
        part_plan(s)
    except ValueError:          # below the search's first round (a searching strategy): keep the file's
        s["budget"] = settings["budget"]
    return s


def part_plan(s):
    seconds = s.get("seconds")
    return plan(s["game"], s["players"], s["knob"], s["strategy"], None if seconds else s["budget"], s["verify"],
                s["seed"], s["variant"], precision=s.get("precision"), seconds=seconds, step=s.get("step"))


def run_part(part, folder, workers=None, log=print):
    """Play a ``[[compensation]]`` part (or read its finished result from ``folder``); return the result."""
    spec = part_spec(part)
    key, done = finished_result(folder, "compensation.json", spec, log, part.title)
    if done is not None:
        return done
    from reports.progress import heartbeat

    t0 = time.perf_counter()
    with heartbeat(log, lambda: f"  {part.title}: searching and verifying") as say:
        r = balance(part_plan(part.settings), workers=workers, log=_every(1.0, say, f"  {part.title}: "))
    keep_result(folder, "compensation.json", key, spec, r)
    log(f"{part.title}: {_vec(r['compensation'])} after {r['search_games']:,} search games, verified on "
        f"{r['games']:,} ({time.perf_counter() - t0:.0f} s)")
    return r


def part_sections(part, result):
    return [section(result, title="Seat compensation")]


def parse_part(t, where, study, game):
    """The settings of a ``[[compensation]]`` table ``t`` (keys checked by the study loader), checked.

    ValueError (the study names the file and part) for a bad value. Returns the settings dict that
    :func:`run_part` plays: game, players, knob, strategy, budget, verify, seed, variant, quick_games.
    """
    players = t.get("players")
    if isinstance(players, bool) or not isinstance(players, int):
        raise ValueError(f"players must be one player count for a compensation search, not {players!r}")
    s = {"game": game, "players": players}
    for key, default in (("knob", "seat_points"), ("strategy", "balanced")):
        s[key] = t.get(key, default)
        if not isinstance(s[key], str):
            raise ValueError(f"{key} must be a string, not {s[key]!r}")
    budget, s["seconds"] = t.get("budget"), None
    if isinstance(budget, str):                 # a time for the whole part: "5m"
        from reports.sequential import parse_budget

        games, s["seconds"] = parse_budget(budget)
        budget = games
    prec = t.get("precision")
    if prec is not None and (isinstance(prec, bool) or not isinstance(prec, (int, float)) or not 0 < prec < 50):
        raise ValueError(f"precision must be percentage points between 0 and 50 (e.g. 1), not {prec!r}")
    s["precision"] = None if prec is None else prec / 100
    for key in ("budget", "verify", "quick_games", "seed"):
        value = budget if key == "budget" else t.get(key)
        if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 0
                                  or (value == 0 and key != "seed")):
            raise ValueError(f"{key} must be a positive integer, not {value!r}")
    variant = t.get("variant", {})
    if not isinstance(variant, dict):
        raise ValueError(f"variant must be a table of engine settings, not {variant!r}")
    s["variant"] = {str(k): str(v).lower() if isinstance(v, bool) else str(v) for k, v in variant.items()}
    s["seed"] = t.get("seed", study.seed)
    s["step"] = t.get("step")
    p = plan(game, players, s["knob"], s["strategy"], budget, t.get("verify"), s["seed"], s["variant"],
             precision=s["precision"], seconds=s["seconds"], step=s["step"])
    s.update(budget=p["budget"], verify=p["verify"], strategy=p["strategy"])
    s["quick_games"] = t.get("quick_games", 0)
    return s


def part_games(settings):
    """The games a part plays at most: the search budget and the verification before and after."""
    verify = settings["verify"]
    if settings.get("precision") is not None:     # plays until the target: about the games it needs
        from analysis.precision import plan_games

        verify = min(verify, int(1.25 * plan_games(settings["precision"])))
    budget = settings["budget"] if not settings.get("seconds") else 0     # a time budget: the clock decides
    return budget + 2 * verify


def _every(seconds, log, prefix=""):
    """``log`` for the search's lines, at most one every ``seconds`` (a line that starts a phase always)."""
    last = [time.perf_counter()]

    def write(line):
        now = time.perf_counter()
        if now - last[0] >= seconds or line.startswith(("verifying ", "search:")):
            last[0] = now
            log(prefix + line)
    return write
