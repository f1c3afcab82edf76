"""``[[skill]]`` and ``boardlab ladder``: the levels rated by a ladder, then every seat at each level
(balance per skill level). The ladder's design, play and sections are ``reports.ladder``'s."""
import dataclasses
import os

from reports.experiments._part import COMMON_KEYS, StudyError, check, variant_of
from reports.precision_parts import precision_keys
from reports.ladder import LadderPlan, ladder_sections, play_ladder, play_skill, ratings_of, skill_sections

KEYS = COMMON_KEYS | {"levels", "games", "search_games", "ladder_games", "quick_games", "quick_search_games",
                      "precision", "budget"}


def parse(part, t, ctx):
    variant = variant_of(t.get("variant", {}), f"{ctx.where}: variant", ctx.mod, ctx.players[0])
    part.games = ctx.games
    return parse_skill_part(part, t, ctx.where, ctx.players, variant)


def quick(part, cap):
    quick_skill_part(part, cap)


def run(part, ctx):
    return run_skill_part(part, ctx.base, workers=ctx.workers, log=ctx.log)


def runs(part, rs):
    return rs.runs


def sections(part, rs, figures=None):
    return skill_part_sections(part, rs)


def parse_skill_part(part, t, where, players, variant):
    """Fill ``part`` (a ``reports.study.Part`` of kind "skill") from its table ``t``; StudyError naming the key.

    Keys: ``levels`` (at least two strategies, in any order), ``games`` (self-play games of a level that
    does not search), ``search_games`` (of a level that searches; required when one does),
    ``ladder_games`` (games each level plays in the levels' own ladder, which rates them; default
    ``search_games``), ``quick_games`` (``--quick`` cap of ``games``), ``quick_search_games`` (``--quick``
    cap of ``search_games`` and ``ladder_games``, default 10).
    """
    import strategies

    if len(players) != 1:
        raise StudyError(f"{where}: players must be one player count for a skill part, not {t['players']!r}")
    levels = t.get("levels")
    if not isinstance(levels, list) or len(levels) < 2:
        raise StudyError(f"{where}: levels must be a list of at least two strategies, e.g. [\"random\", "
                         f"\"balanced\", \"mcts:iterations=100\"], not {levels!r}")
    pool = {}
    for name in levels:
        check(name, str, f"{where}: levels", "a strategy name")
        try:
            s = strategies.resolve(part.game, name)
        except (ValueError, KeyError, FileNotFoundError) as exc:
            raise StudyError(f"{where}: levels: {exc}") from None
        if s.searches:                    # the name as written: mcts:iterations=400 stays that
            s = dataclasses.replace(s, name=name.strip())
        if s.name in pool:
            raise StudyError(f"{where}: levels lists {s.name!r} twice")
        pool[s.name] = s
    counts = {}
    for key, default in (("games", part.games or None), ("search_games", None), ("ladder_games", None),
                         ("quick_search_games", 10)):
        v = t.get(key, default)
        if v is None:
            continue
        check(v, int, f"{where}: {key}")
        if v <= 0:
            raise StudyError(f"{where}: {key} must be a positive integer, not {v}")
        counts[key] = v
    if "search_games" not in counts and any(s.searches for s in pool.values()):
        raise StudyError(f"{where}: missing key 'search_games' (self-play games of each level that searches; "
                         f"such a game costs thousands of heuristic ones, so give it explicitly)")
    search = counts.get("search_games", counts["games"])
    part.players, part.variant = players[0], variant
    part.spec = LadderPlan(game=part.game, players=players[0], pool=pool,
                           games=counts.get("ladder_games", search), seed=part.seed, variant=variant,
                           skill=list(pool), skill_games=search, skill_cheap_games=counts["games"])
    part.spec.quick_search_games = counts["quick_search_games"]
    part.spec.precision, part.spec.skill_seconds = precision_keys(t, where)
    part.games = part.spec.total_games()
    return part


def quick_skill_part(part, cap):
    """``--quick``: cap the self-play of the levels that do not search at ``cap``, the rest at the part's
    ``quick_search_games`` (or at ``cap`` when smaller)."""
    plan = part.spec
    small = min(getattr(plan, "quick_search_games", 10), cap)
    plan.skill_cheap_games = min(plan.skill_cheap_games, cap)
    plan.skill_games = min(plan.skill_games, small)
    plan.games = min(plan.games, small)
    part.games = plan.total_games()


def run_skill_part(part, base, workers=None, log=print):
    """Play a skill part: the levels' ladder, then their self-play; one RunSet (labels ``ladder/…``,
    ``skill/…``)."""
    from reports.runset import RunSet

    plan = part.spec
    log(f"{part.title}: {plan.summary()}")
    lad = play_ladder(plan, os.path.join(base, part.name, "ladder"), workers=workers, log=log)
    sk = play_skill(plan, os.path.join(base, part.name, "skill"), workers=workers, log=log)
    runs = {f"ladder/{k}": v for k, v in lad.runs.items()}
    runs.update({f"skill/{k}": v for k, v in sk.runs.items()})
    return RunSet(runs, group="run", title=part.title)


def skill_part_sections(part, rs) -> list:
    """The sections of a skill part from its RunSet (:func:`run_skill_part`)."""
    from reports.runset import RunSet

    lad = RunSet({k[len("ladder/"):]: v for k, v in rs.runs.items() if k.startswith("ladder/")}, group="lineup")
    sk = RunSet({k[len("skill/"):]: v for k, v in rs.runs.items() if k.startswith("skill/")}, group="level")
    secs = ladder_sections(part.spec, lad)
    secs[0].terminal = secs[2].terminal = ""
    return secs + skill_sections(sk, ratings_of(secs[1]))
