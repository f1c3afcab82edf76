"""``[[variants]]``: the same game under several rule settings, each headline statistic per
variant with its difference to the baseline and the CI."""
import os

from reports.experiments._part import COMMON_KEYS, StudyError, check, fit_games_of, seats_of, slug, variant_of
from reports.plan import PlannedRun
from reports.precision_parts import add_precision_paragraph, play_runs_to_precision, precision_settings, to_precision

KEYS = COMMON_KEYS | {"strategy", "seats", "baseline", "options", "events", "precision", "budget", "fit_games"}


def parse(part, t, ctx):
    where = ctx.where
    base_variant = variant_of(t.get("variant", {}), f"{where}: variant", ctx.mod, ctx.players[0])
    seats, strategy = seats_of(t, where, ctx.players, part.game)
    options = t.get("options")
    if not isinstance(options, dict) or len(options) < 2:
        raise StudyError(f"{where}: options must be a table of at least two named variants, e.g. "
                         f"options = {{ rising = {{ quarry_yields = \"rising\" }}, falling = {{ quarry_yields = "
                         f"\"falling\" }} }}, not {options!r}")
    baseline = check(t.get("baseline", next(iter(options))), str, f"{where}: baseline")
    if baseline not in options:
        raise StudyError(f"{where}: baseline '{baseline}' is not one of the options ({', '.join(options)})")
    part.baseline = baseline
    part.fit_games = fit_games_of(t, where)
    precision_settings(part, t, where)      # each variant's run until every seat is within it (games: the cap)
    for n in ctx.players:
        for opt, settings in options.items():
            variant = dict(base_variant)
            variant.update(variant_of(settings, f"{where}: options.{opt}", ctx.mod, n))
            label = opt if len(ctx.players) == 1 else f"{opt} {n}p"
            part.runs.append(PlannedRun(label, os.path.join(part.name, f"{slug(opt)}-{n}p"), n,
                                        seats or [strategy] * n, variant, ctx.games, part.seed, part.events,
                                        option=opt))
    part.players = ctx.players
    return part


def quick(part, cap):
    """Nothing beyond the planned runs' cap (``reports.study.quick`` caps those)."""


def run(part, ctx):
    from reports.runset import RunSet

    if to_precision(part):
        return play_runs_to_precision(part, ctx, "variant", same_games=True)    # paired over all games
    return RunSet.from_dirs({r.label: ctx.play(r) for r in part.runs}, group="variant")


def runs(part, rs):
    return rs.runs


def sections(part, rs, figures=None):
    from importlib import import_module

    from reports.components import game_sections
    from reports.games import has_plugin, plugin_of
    from reports.generic import seat_section, variant_section
    from reports.runset import RunSet

    plug = plugin_of(import_module(f"reports.games.{rs.game}") if has_plugin(rs.game) else None)
    secs = []
    for n in sorted(set(r.players for r in part.runs)):
        labels = [r.label for r in part.runs if r.players == n]
        sub = RunSet({lab: rs.runs[lab] for lab in labels}, group="variant", fit_games=part.fit_games)
        base = next(r.label for r in part.runs if r.players == n and r.option == part.baseline)
        title = "Differences" + (f" at {n} players" if len(labels) < len(rs.runs) else "")
        secs.append(variant_section(sub, baseline=base, title=title, headlines=plug.HEADLINES))
        seat = seat_section(sub, series=True)
        seat.terminal = ""
        secs.append(seat)
        secs += [build(sub) for build in game_sections(plug)]
    if secs:
        add_precision_paragraph(part, secs[0], rs)
    return secs
