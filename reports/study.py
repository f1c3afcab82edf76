"""Balance studies: several runs defined in one TOML file, one report across them.

The format is documented in ``docs/study.md`` (example:
``docs/examples/hellas_balance.toml``; the built-in demo:
``reports/studies/demo.toml``). :func:`load_study` parses and checks a file
(errors name the file, the key and what was expected) and plans every run;
:func:`run_study` plays the runs (a rerun resumes finished chunks) and
:func:`study_report` builds the report:

- ``[[balance]]`` — seat advantage, scores, categories, the game's own
  analyses and convergence, one panel per run;
- ``[[variants]]`` — the same game under several rule settings (e.g.
  ``quarry_yields = "rising"`` vs ``"falling"``): each headline statistic
  per variant with the difference to the baseline and its CI;
- ``[[compare]]`` — strategies in every seat, win-share matrix and ratings;
- ``[[sweep]]`` — one run per value of one or two settings or data-file fields, grid or
  adaptive, with a balance surface (``reports/sweep.py``);
- ``[[compensation]]`` — the seat compensation that makes the game fairest,
  searched and verified (``reports/balance.py``);
- ``[[skill]]`` — balance per skill level: the levels rated by a ladder, then
  every seat at each level (``reports.ladder``).
"""
from __future__ import annotations

import os
import re
import time
from dataclasses import dataclass, field

from reports.games import plugin
from reports.ladder import SKILL_KEYS
from reports.plan import PlannedRun
from reports.report import (
    Report,
    RunSet,
    Section,
    provenance_section,
    run_sections,
    seat_section,
    variant_section,
    with_findings,
)

PART_KINDS = ("balance", "variants", "compare", "sweep", "compensation", "skill")
STUDY_KEYS = {"title": str, "game": str, "seed": int, "games": int, "quick_games": int, "description": str}
_COMMON_KEYS = {"name", "title", "game", "players", "games", "quick_games", "seed", "variant"}
PART_KEYS = {
    "balance": _COMMON_KEYS | {"strategy", "seats", "events"},
    "variants": _COMMON_KEYS | {"strategy", "seats", "baseline", "options", "events"},
    "compare": _COMMON_KEYS | {"strategies"},
    "sweep": _COMMON_KEYS | {"strategy", "seats", "events", "settings", "x", "y", "mode", "target", "budget"},
    "compensation": {"name", "title", "game", "players", "strategy", "knob", "budget", "verify", "seed",
                     "variant", "quick_games"},          # reports/balance.py plays it
    "skill": _COMMON_KEYS | SKILL_KEYS,
}


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
    settings: dict = field(default_factory=dict)    # compensation: reports.balance.parse_part's
    spec: object = None        # skill: its reports.ladder.LadderPlan


@dataclass
class Study:
    path: str
    title: str
    game: str
    seed: int
    games: int
    description: str = ""
    quick_games: int = 0
    parts: list = field(default_factory=list)

    def total_games(self):
        """The games the study plays: a run planned twice (same settings, see :func:`run_key`) counts once."""
        keys = {run_key(p, r): r.games for p in self.parts for r in p.runs}
        return sum(keys.values()) + sum(p.games for p in self.parts)

    @property
    def games_played(self):
        """The games of the study's parts, in order of first appearance."""
        return list(dict.fromkeys([self.game] + [p.game for p in self.parts]))


# ---------------------------------------------------------------- parsing

def run_key(part, r):
    """What determines a planned run's games (``RunPlan.run_id``): two runs of a study with the
    same key, e.g. a balance run and the default option of a variants part, play the same games."""
    from simcore.run import plan_run

    return part.game, plan_run(part.game, players=r.players, games=r.games, seed=r.seed,
                               strategies=_seats(part, r), variant=r.variant, events=r.events).run_id


def _seats(part, r):
    """The resolved strategy of every seat of planned run ``r``."""
    import strategies

    return strategies.resolve_seats(part.game, r.players, seat_strategies=r.seat_strategies)


def _type_name(t):
    return {int: "an integer", str: "a string", bool: "true or false", dict: "a table", list: "a list"}[t]


def _check(value, typ, where, what=None):
    ok = isinstance(value, typ) and not (typ is int and isinstance(value, bool))
    if not ok:
        raise StudyError(f"{where} must be {what or _type_name(typ)}, not {value!r}")
    return value


def _slug(text):
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", str(text)).strip("-") or "part"


def _players(value, where, allowed):
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


def _variant(value, where, mod, players):
    _check(value, dict, where, "a table of engine settings, e.g. { quarry_yields = \"falling\" }")
    variant = {str(k): str(v).lower() if isinstance(v, bool) else str(v) for k, v in value.items()}
    try:
        mod.make_config(players, **variant)
    except (ValueError, TypeError) as exc:
        raise StudyError(f"{where}: {exc}") from None
    return variant


def _strategy(name, where, game):
    import strategies as _strategies

    _check(name, str, where, "a strategy name")
    try:
        _strategies.resolve(game, name)
    except (ValueError, KeyError, FileNotFoundError) as exc:
        raise StudyError(f"{where}: {exc}") from None
    return name


def load_study(path) -> Study:
    """Parse and check a study file; every run is planned (nothing is played).

    Raises
    ------
    StudyError
        The file is missing, not TOML, or a key is unknown, missing or of the
        wrong kind; the message names the file, the key and what was expected.
    """
    import simcore

    path = os.fspath(path)
    from simcore._data import read_toml

    try:
        doc = read_toml(path, "study")
    except ValueError as exc:
        msg = str(exc)
        raise StudyError(msg if msg.startswith(path) else f"{path}: {msg}") from None

    extra = [k for k in doc if k not in ("study", *PART_KINDS)]
    if extra:
        raise StudyError(f"{path}: unknown top-level key '{extra[0]}' (known: [study], "
                         f"{', '.join(f'[[{k}]]' for k in PART_KINDS)})")
    head = doc.get("study")
    if not isinstance(head, dict):
        raise StudyError(f"{path}: missing [study] table (with game, seed, games)")
    for k in head:
        if k not in STUDY_KEYS:
            raise StudyError(f"{path}: [study] unknown key '{k}' (known: {', '.join(STUDY_KEYS)})")
    for k in ("game", "seed", "games"):
        if k not in head:
            raise StudyError(f"{path}: [study] missing key '{k}' ({_type_name(STUDY_KEYS[k])})")
    for k, v in head.items():
        _check(v, STUDY_KEYS[k], f"{path}: [study] {k}")
    game = head["game"]
    if game not in simcore.games:
        raise StudyError(f"{path}: [study] game: unknown game '{game}' (known: {', '.join(simcore.games)})")
    if head["seed"] < 0:
        raise StudyError(f"{path}: [study] seed must be a non-negative integer, not {head['seed']}")
    for k in ("games", "quick_games"):
        if k in head and head[k] <= 0:
            raise StudyError(f"{path}: [study] {k} must be a positive integer, not {head[k]}")
    study = Study(path=path, title=head.get("title", f"{game} balance study"), game=game, seed=head["seed"],
                  games=head["games"], description=head.get("description", ""),
                  quick_games=head.get("quick_games", 0))
    if not any(doc.get(k) for k in PART_KINDS):
        raise StudyError(f"{path}: no runs: add at least one [[balance]], [[variants]], [[compare]], "
                         f"[[sweep]], [[compensation]] or [[skill]] table")
    names = set()
    for kind in PART_KINDS:
        items = doc.get(kind, [])
        if not isinstance(items, list):
            raise StudyError(f"{path}: '{kind}' must be an array of tables, written [[{kind}]]")
        for i, t in enumerate(items, 1):
            where = f"{path}: [[{kind}]] #{i}"
            if not isinstance(t, dict):
                raise StudyError(f"{where} must be a table")
            if "name" in t:
                where = f"{path}: [[{kind}]] '{t['name']}'"
            for k in t:
                if k not in PART_KEYS[kind]:
                    raise StudyError(f"{where}: unknown key '{k}' (known: {', '.join(sorted(PART_KEYS[kind]))})")
            part_game = _check(t.get("game", game), str, f"{where}: game")
            if part_game not in simcore.games:
                raise StudyError(f"{where}: game: unknown game '{part_game}' (known: {', '.join(simcore.games)})")
            mod = simcore.games[part_game]
            allowed = tuple(mod.PLAYERS)
            part = _parse_part(kind, t, where, study, mod, allowed, i, part_game)
            if part.name in names:
                raise StudyError(f"{where}: name '{part.name}' is used twice; give each part its own name")
            names.add(part.name)
            study.parts.append(part)
    # parts of one game together, the study's game first (stable: file order within a game and kind)
    order = study.games_played
    study.parts.sort(key=lambda p: order.index(p.game))
    return study


def _parse_part(kind, t, where, study, mod, allowed, index, game):
    name = _slug(_check(t.get("name", f"{kind}-{index}"), str, f"{where}: name"))
    title = _check(t.get("title", name.replace("_", " ").replace("-", " ").capitalize()), str, f"{where}: title")
    if "players" not in t:
        raise StudyError(f"{where}: missing key 'players' (a player count or a list, e.g. [2, 3, 4])")
    players = _players(t["players"], f"{where}: players", allowed)
    games = _check(t.get("games", study.games), int, f"{where}: games")
    if games <= 0:
        raise StudyError(f"{where}: games must be a positive integer, not {games}")
    seed = _check(t.get("seed", study.seed), int, f"{where}: seed")
    if seed < 0:
        raise StudyError(f"{where}: seed must be a non-negative integer, not {seed}")
    events = _check(t.get("events", True), bool, f"{where}: events")
    quick_games = _check(t.get("quick_games", 0), int, f"{where}: quick_games")
    if "quick_games" in t and quick_games <= 0:
        raise StudyError(f"{where}: quick_games must be a positive integer, not {quick_games}")
    part = Part(kind=kind, name=name, title=title, games=0, seed=seed, game=game, quick_games=quick_games,
                events=events)
    if kind == "compensation":
        from reports.balance import parse_part, part_games
        try:
            part.settings = parse_part(t, where, study, game)
        except ValueError as exc:
            raise StudyError(f"{where}: {exc}") from None
        part.players, part.games = part.settings["players"], part_games(part.settings)
        return part
    base_variant = _variant(t.get("variant", {}), f"{where}: variant", mod, players[0])

    if kind == "skill":
        from reports.ladder import parse_skill_part
        part.games = games
        return parse_skill_part(part, t, where, players, base_variant, error=StudyError, check=_check)

    if kind == "compare":
        if len(players) != 1:
            raise StudyError(f"{where}: players must be one player count for a comparison, not {t['players']!r}")
        strats = t.get("strategies")
        if not isinstance(strats, list) or len(strats) < 2:
            raise StudyError(f"{where}: strategies must be a list of at least two strategy names, not {strats!r}")
        part.strategies = [_strategy(s, f"{where}: strategies", game) for s in strats]
        if len(set(part.strategies)) != len(part.strategies):
            raise StudyError(f"{where}: strategies lists a name twice")
        part.players, part.games, part.variant = players[0], games, base_variant
        return part

    seats = None
    if "seats" in t and "strategy" in t:
        raise StudyError(f"{where}: give either 'strategy' (every seat) or 'seats' (one per seat), not both")
    if "seats" in t:
        seats = t["seats"]
        if len(players) != 1 or not isinstance(seats, list) or len(seats) != players[0]:
            raise StudyError(f"{where}: seats must list one strategy per seat for one player count "
                             f"(players = {t['players']!r}), not {seats!r}")
        seats = [_strategy(s, f"{where}: seats", game) for s in seats]
    strategy = _strategy(t.get("strategy", "random"), f"{where}: strategy", game)
    if kind == "sweep":
        from reports.sweep import parse_sweep
        try:
            return parse_sweep(part, t, where, mod, players, seats or [strategy] * players[0], base_variant, games)
        except ValueError as exc:
            raise StudyError(str(exc)) from None

    if kind == "balance":
        for n in players:
            variant = _variant(t.get("variant", {}), f"{where}: variant", mod, n)
            label = f"{n} players"
            part.runs.append(PlannedRun(label, os.path.join(name, f"{n}p"), n, seats or [strategy] * n,
                                        variant, games, seed, events))
        return part

    # variants
    options = t.get("options")
    if not isinstance(options, dict) or len(options) < 2:
        raise StudyError(f"{where}: options must be a table of at least two named variants, e.g. "
                         f"options = {{ rising = {{ quarry_yields = \"rising\" }}, falling = {{ quarry_yields = "
                         f"\"falling\" }} }}, not {options!r}")
    baseline = _check(t.get("baseline", next(iter(options))), str, f"{where}: baseline")
    if baseline not in options:
        raise StudyError(f"{where}: baseline '{baseline}' is not one of the options ({', '.join(options)})")
    part.baseline = baseline
    for n in players:
        for opt, settings in options.items():
            variant = dict(base_variant)
            variant.update(_variant(settings, f"{where}: options.{opt}", mod, n))
            label = opt if len(players) == 1 else f"{opt} {n}p"
            part.runs.append(PlannedRun(label, os.path.join(name, f"{_slug(opt)}-{n}p"), n,
                                        seats or [strategy] * n, variant, games, seed, events, option=opt))
    part.players = players
    return part


# ---------------------------------------------------------------- running

def quick(study: Study, games=None) -> Study:
    """The study with every run capped at ``games`` (default: the part's ``quick_games``, else the
    study's, else 1000)."""
    for part in study.parts:
        cap = games or part.quick_games or study.quick_games or 1000
        for r in part.runs:
            r.games = min(r.games, cap)
        if part.kind == "compare":
            part.games = min(part.games, cap)
        if part.kind == "sweep":
            from reports.sweep import quick as sweep_quick
            sweep_quick(part, cap)
        if part.kind == "compensation":
            from reports.balance import part_games, quick_settings
            part.settings = quick_settings(part.settings, cap)
            part.games = part_games(part.settings)
        if part.kind == "skill":
            from reports.ladder import quick_skill_part
            quick_skill_part(part, games or part.quick_games or study.quick_games or 1000)
    return study


def run_study(study: Study, out, workers=None, log=print) -> dict:
    """Play every run of ``study`` under ``out/runs``; return ``{part name: RunSet}``.

    A rerun on the same folder plays only what is missing. A run whose settings equal an earlier
    run's (:func:`run_key`) is not played again: its label reads the earlier run's folder.
    """
    from reports.compare import chunk_size_for, run_compare
    from simcore.run import simulate

    sets = {}
    played = {}     # run_key -> (folder, label) of the runs played so far
    base = os.path.join(out, "runs")

    def play(part, r, t0):
        """Play planned run ``r`` of ``part`` unless an equal run was played; return its folder."""
        key = run_key(part, r)
        if key in played:
            folder, first = played[key]
            log(f"{part.title}: {r.label}: the same games as {first} (played once)")
            return folder
        folder = os.path.join(base, r.folder)
        played[key] = folder, f"{part.name}/{r.label}"
        simulate(part.game, players=r.players, games=r.games, seed=r.seed, out=folder,
                 strategies=_seats(part, r), variant=r.variant, workers=workers,
                 chunk_size=chunk_size_for(r.games), events=r.events, progress=False)
        log(f"{part.title}: {r.label}: {r.games:,} games ({time.perf_counter() - t0:.0f} s)")
        return folder

    for part in study.parts:
        t0 = time.perf_counter()
        if part.kind == "compensation":
            from reports.balance import run_part
            sets[part.name] = run_part(part, os.path.join(base, part.name), workers=workers, log=log)
            continue
        if part.kind == "skill":
            from reports.ladder import run_skill_part
            sets[part.name] = run_skill_part(part, base, workers=workers, log=log)
        elif part.kind == "compare":
            log(f"{part.title}: {', '.join(part.strategies)} at {part.players} players, {part.games:,} games")
            sets[part.name] = run_compare(part.game, part.players, part.strategies, part.games, part.seed,
                                          os.path.join(base, part.name), variant=part.variant,
                                          workers=workers, log=log)
        elif part.kind == "sweep":
            from reports.sweep import run_sweep
            sets[part.name] = run_sweep(part, base, lambda r, part=part, t0=t0: play(part, r, t0), log=log)
        else:
            dirs = {r.label: play(part, r, t0) for r in part.runs}
            sets[part.name] = RunSet.from_dirs(dirs, group="variant" if part.kind == "variants" else "run")
    return sets


def _prefix(sec: Section, part):
    sec.title = f"{part.title} — {sec.title}"
    for item in sec.tables + sec.figures:
        item.name = f"{part.name}_{item.name}"
    if sec.terminal:
        sec.terminal = f"[{part.title}] " + sec.terminal
    return sec


def study_report(study: Study, sets: dict, commands=None, figures=None) -> Report:
    """One report across the runs of a study.

    ``figures``: a ``reports.report.BackgroundFigures`` that renders each part's
    figures while the next parts are analysed (give the same one to ``write_report``).
    """
    from reports.compare import compare_section

    all_runs = {}
    for part in study.parts:
        if part.kind == "compensation":        # a search, not a results folder
            continue
        for label, run in sets[part.name].runs.items():
            all_runs[f"{part.name}/{label}"] = run
    everything = RunSet(all_runs, group="run")
    desc = [study.description] if study.description else []
    extra = desc + [f"Study file: `{study.path}`."]
    if all_runs:
        prov = provenance_section(everything, extra=extra, commands=commands)
    else:
        from reports.balance import provenance
        prov = provenance(extra, commands)
    sections = [prov]
    for part in study.parts:
        rs = sets[part.name]
        if part.kind == "balance":
            secs = run_sections(rs, figures)
            # terminal: the seat table is enough for a balance part
            for s in secs[1:]:
                s.terminal = ""
        elif part.kind == "compensation":
            from reports.balance import part_sections
            secs = part_sections(part, rs)
        elif part.kind == "variants":
            secs = []
            for n in sorted(set(r.players for r in part.runs)):
                labels = [r.label for r in part.runs if r.players == n]
                sub = RunSet({lab: rs.runs[lab] for lab in labels}, group="variant")
                base = next(r.label for r in part.runs if r.players == n and r.option == part.baseline)
                title = "Differences" + (f" at {n} players" if len(labels) < len(rs.runs) else "")
                secs.append(variant_section(sub, baseline=base, title=title))
                seat = seat_section(sub, series=True)
                seat.terminal = ""
                secs.append(seat)
                secs += [build(sub) for build in plugin(rs.game).SECTIONS]
        elif part.kind == "sweep":
            from reports.sweep import sweep_sections
            secs = sweep_sections(part, rs)
        elif part.kind == "skill":
            from reports.ladder import skill_part_sections
            secs = skill_part_sections(part, rs)
        else:
            secs = [compare_section(rs, title="Ratings")]
        sections += [_prefix(s, part) for s in secs]
        if figures is not None:
            figures.add(secs)
    return Report(study.title, sections=with_findings(sections))


def study_main(path_or_study, out, workers=None, quick_games=None, log=print):
    """Load (unless given), run and report a study; return (report, paths, seconds)."""
    from reports.report import BackgroundFigures, write_report

    t0 = time.perf_counter()
    study = path_or_study if isinstance(path_or_study, Study) else load_study(path_or_study)
    if quick_games is not None:
        quick(study, quick_games or None)
    log(f"{study.title}: {len(study.parts)} parts, {study.total_games():,} games -> {out}")
    sets = run_study(study, out, workers=workers, log=log)
    log("analysing and writing the report ...")
    if os.path.abspath(study.path) == demo_path():
        cmd = f"boardlab demo --out {out}"
    else:
        cmd = f"boardlab study {study.path} --out {out}"
    figures = BackgroundFigures()     # figures render on another core while the parts are analysed
    try:
        report = study_report(study, sets, commands=[cmd + (" --quick" if quick_games is not None else "")],
                              figures=figures)
        paths = write_report(report, out, figures=figures)
    finally:
        figures.close()
    return report, paths, time.perf_counter() - t0


def demo_path():
    """The built-in demo study (package data)."""
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), "studies", "demo.toml")
