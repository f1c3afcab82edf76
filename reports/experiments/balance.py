"""``[[balance]]``: seat advantage, scores, categories, outcomes, the game's own analyses and
convergence, one panel per player count."""
import os

from reports.experiments._part import COMMON_KEYS, fit_games_of, seats_of, variant_of
from reports.precision_parts import play_runs_to_precision, precision_keys, precision_paragraph
from reports.plan import PlannedRun

KEYS = COMMON_KEYS | {"strategy", "seats", "events", "precision", "budget", "fit_games"}

#: the study's first screen reads its seat-advantage table as the answer at each player count
FIRST_SCREEN = "seats"


def parse(part, t, ctx):
    variant_of(t.get("variant", {}), f"{ctx.where}: variant", ctx.mod, ctx.players[0])
    seats, strategy = seats_of(t, ctx.where, ctx.players, part.game)
    prec, seconds = precision_keys(t, ctx.where)
    part.fit_games = fit_games_of(t, ctx.where)
    if prec is not None:
        part.settings = {"precision": prec, "seconds": seconds}
    for n in ctx.players:
        variant = variant_of(t.get("variant", {}), f"{ctx.where}: variant", ctx.mod, n)
        part.runs.append(PlannedRun(f"{n} players", os.path.join(part.name, f"{n}p"), n, seats or [strategy] * n,
                                    variant, ctx.games, part.seed, part.events))
    return part


def quick(part, cap):
    """Nothing beyond the planned runs' cap (``reports.study.quick`` caps those)."""


def run(part, ctx):
    from reports.runset import RunSet

    if part.settings.get("precision") is None:
        return RunSet.from_dirs({r.label: ctx.play(r) for r in part.runs}, group="run")
    return play_runs_to_precision(part, ctx, "run")     # each run until every seat is within the target


def runs(part, rs):
    return rs.runs


def sections(part, rs, figures=None):
    from importlib import import_module

    from reports.games import has_plugin, plugin_of
    from reports.components import game_sections
    from reports.generic import run_sections

    plug = plugin_of(import_module(f"reports.games.{rs.game}") if has_plugin(rs.game) else None)
    rs.fit_games = part.fit_games
    secs = run_sections(rs, figures, game_sections(plug))
    for s in secs[1:]:            # terminal: the seat table is enough for a balance part
        s.terminal = ""
    if part.settings.get("precision") is not None and secs:
        secs[0].paragraphs.append(precision_paragraph(rs))
    return secs
