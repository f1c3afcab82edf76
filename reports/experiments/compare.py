"""``[[compare]]`` and ``boardlab compare``: strategies in every seat (seat rotations balanced),
the win-share matrix and Bradley-Terry ratings (``reports.compare``)."""
import math
import os

from reports.experiments._part import COMMON_KEYS, Part, StudyError, strategy_of, variant_of
from reports.precision_parts import add_precision_paragraph, play_to_precision, precision_settings, to_precision

KEYS = COMMON_KEYS | {"strategies", "precision", "budget"}

#: its result is a comparison of line-ups (``reports.api.Comparison``)
RESULT = "comparison"

#: a ``boardlab compare`` report draws the outcome distributions per seating up to this many seatings
MAX_OUTCOME_SERIES = 4


def parse(part, t, ctx):
    where = ctx.where
    variant = variant_of(t.get("variant", {}), f"{where}: variant", ctx.mod, ctx.players[0])
    if len(ctx.players) != 1:
        raise StudyError(f"{where}: players must be one player count for a comparison, not {t['players']!r}")
    strats = t.get("strategies")
    if not isinstance(strats, list) or len(strats) < 2:
        raise StudyError(f"{where}: strategies must be a list of at least two strategy names, not {strats!r}")
    part.strategies = [strategy_of(s, f"{where}: strategies", part.game) for s in strats]
    if len(set(part.strategies)) != len(part.strategies):
        raise StudyError(f"{where}: strategies lists a name twice")
    part.players, part.games, part.variant = ctx.players[0], ctx.games, variant
    precision_settings(part, t, where)      # each lineup until every seat is within it (its games: the cap)
    return part


def quick(part, cap):
    part.games = min(part.games, cap)


def run(part, ctx):
    ctx.log(f"{part.title}: {', '.join(part.strategies)} at {part.players} players, {part.games:,} games"
            + (" at most" if to_precision(part) else ""))
    if to_precision(part):
        return play_to_target(part, os.path.join(ctx.base, part.name), ctx)
    return play(part, os.path.join(ctx.base, part.name), ctx.workers, ctx.log)


def play_to_target(part, folder, ctx):
    """The lineups of :func:`play` (``reports.compare``: the same seatings, folders and seed), each played
    until every seat's 95% interval is within the part's target (``reports.precision_parts``), its share
    of the games the cap. Every cell of the win-share matrix is one lineup's seat, so it is then within
    the target too."""
    import strategies as S
    from reports.compare import lineups
    from reports.plan import PlannedRun
    from reports.runset import RunSet

    resolved = part.strategies if isinstance(part.strategies, dict) else {
        name: S.resolve(part.game, name) for name in part.strategies}
    seats = lineups(list(resolved), part.players)
    per = math.ceil(part.games / len(seats))
    dirs = {}
    for i, lineup in enumerate(seats):
        r = PlannedRun("|".join(lineup), f"lineup-{i:03d}", part.players, list(lineup), part.variant, per, part.seed)
        dirs[r.label] = os.path.join(folder, r.folder)
        play_to_precision(part, r, dirs[r.label], ctx, strategies=[resolved[name] for name in lineup])
    return RunSet.from_dirs(dirs, group="lineup", allow_partial=True,
                            title=f"{part.game} {part.players} players: {', '.join(resolved)}")


def play(part, folder, workers, log):
    """Play every lineup of the part's strategies into ``folder``; a RunSet labelled by lineup."""
    from reports.compare import run_compare

    return run_compare(part.game, part.players, part.strategies, part.games, part.seed, folder,
                       variant=part.variant, workers=workers, log=log)


def runs(part, rs):
    return rs.runs


def sections(part, rs, figures=None):
    from reports.compare import compare_section

    return [add_precision_paragraph(part, compare_section(rs, title="Ratings"), rs)]


# ---------------------------------------------------------------- the command's part and report

def command_part(game, players, strategies, games, seed, variant):
    """The part ``boardlab compare`` plays: ``strategies`` resolved (``{name: Strategy}``) in every seat."""
    return Part(kind="compare", name="compare", title="compare", players=players, strategies=strategies,
                games=games, seed=seed, variant=variant, game=game)


def command_report(part, rs):
    """The report of ``boardlab compare``: what was run, the comparison, the outcomes per seating."""
    from reports.compare import compare_section
    from reports.findings import with_findings
    from reports.generic import outcome_section
    from reports.provenance import provenance_section
    from reports.render.sections import Report

    sec = compare_section(rs)
    outcomes = outcome_section(rs, max_series=MAX_OUTCOME_SERIES)
    if len(rs.runs) > MAX_OUTCOME_SERIES:       # a line per seating and statistic would bury the ratings
        outcomes.terminal = (f"Outcome metrics of the {len(rs.runs)} seatings: the report's section "
                             f"\"{outcomes.title}\" and tables/outcome_metrics.csv.")
    return Report(f"{part.game.capitalize()}: strategy comparison at {part.players} players",
                  sections=with_findings([provenance_section(rs), sec, outcomes]))
