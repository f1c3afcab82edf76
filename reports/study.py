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

Each kind is a module of ``reports.experiments`` (registered there by name), which
parses, plans, plays and reports its parts; this module knows none of them by name and
imports none: the caller hands over the registered kinds, loaded (``kinds``: ``{name:
module}``, ``reports.commands.study.kinds()``), which the :class:`Study` keeps. The commands
``study`` and ``demo`` (``reports.commands.study.load_study`` and ``study_main``) bind them,
and the viewer's "Games to watch" (``watch``); so the chain of imports is command ->
experiment -> section builder -> render, with this runner beside it (issue 31).
"""
from __future__ import annotations

import os
import time
from dataclasses import dataclass, field

from reports.experiments._part import (  # noqa: F401   (Part, StudyError: the study's, named here too)
    ParseContext,
    Part,
    RunContext,
    StudyError,
    check,
    players_of,
    run_key,
    seats,
    slug,
    type_name,
)
from reports.findings import with_findings
from reports.provenance import provenance_section, provenance_without_runs
from reports.render.sections import Report, Section
from reports.runset import RunSet

MAX_GAMES = 10 ** 10       # games of one run of a study
STUDY_KEYS = {"title": str, "game": str, "seed": int, "games": int, "quick_games": int, "description": str}


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
    kinds: dict = field(default_factory=dict)      # {kind name: its module} (reports.experiments), in order

    def total_games(self):
        """The games the study plays: a run planned twice (same settings, see :func:`run_key`) counts once."""
        keys = {run_key(p, r): r.games for p in self.parts for r in p.runs}
        return sum(keys.values()) + sum(p.games for p in self.parts)

    @property
    def games_played(self):
        """The games of the study's parts, in order of first appearance."""
        return list(dict.fromkeys([self.game] + [p.game for p in self.parts]))


# ---------------------------------------------------------------- parsing

def _game(name, where):
    """The game module of ``name``; StudyError in ``simcore.get_game``'s words, naming ``where``."""
    import simcore

    try:
        return simcore.get_game(name)
    except ValueError as exc:
        raise StudyError(f"{where}: {exc}") from None


def load_study(path, kinds) -> Study:
    """Parse and check a study file; every run is planned (nothing is played).

    ``kinds``: the study-part kinds, ``{name: module}`` (``reports.commands.study.kinds()``: those
    registered in ``reports.experiments.KINDS``, loaded); the study keeps them.

    Raises
    ------
    StudyError
        The file is missing, not TOML, or a key is unknown, missing or of the
        wrong kind; the message names the file, the key and what was expected.
    """
    path = os.fspath(path)
    from simcore._data import read_toml

    kind_names = list(kinds)
    try:
        doc = read_toml(path, "study")
    except ValueError as exc:
        msg = str(exc)
        raise StudyError(msg if msg.startswith(path) else f"{path}: {msg}") from None

    extra = [k for k in doc if k not in ("study", *kind_names)]
    if extra:
        raise StudyError(f"{path}: unknown top-level key '{extra[0]}' (known: [study], "
                         f"{', '.join(f'[[{k}]]' for k in kind_names)})")
    head = doc.get("study")
    if not isinstance(head, dict):
        raise StudyError(f"{path}: missing [study] table (with game, seed, games)")
    for k in head:
        if k not in STUDY_KEYS:
            raise StudyError(f"{path}: [study] unknown key '{k}' (known: {', '.join(STUDY_KEYS)})")
    for k in ("game", "seed", "games"):
        if k not in head:
            raise StudyError(f"{path}: [study] missing key '{k}' ({type_name(STUDY_KEYS[k])})")
    for k, v in head.items():
        check(v, STUDY_KEYS[k], f"{path}: [study] {k}")
    game = head["game"]
    _game(game, f"{path}: [study] game")
    if head["seed"] < 0:
        raise StudyError(f"{path}: [study] seed must be a non-negative integer, not {head['seed']}")
    for k in ("games", "quick_games"):
        if k in head and head[k] <= 0:
            raise StudyError(f"{path}: [study] {k} must be a positive integer, not {head[k]}")
    study = Study(path=path, title=head.get("title", f"{game} balance study"), game=game, seed=head["seed"],
                  games=head["games"], description=head.get("description", ""),
                  quick_games=head.get("quick_games", 0), kinds=dict(kinds))
    if not any(doc.get(k) for k in kind_names):
        raise StudyError(f"{path}: no runs: add at least one {', '.join(f'[[{k}]]' for k in kind_names[:-1])} "
                         f"or [[{kind_names[-1]}]] table")
    names = set()
    for kind in kind_names:
        items = doc.get(kind, [])
        if not isinstance(items, list):
            raise StudyError(f"{path}: '{kind}' must be an array of tables, written [[{kind}]]")
        for i, t in enumerate(items, 1):
            where = f"{path}: [[{kind}]] #{i}"
            if not isinstance(t, dict):
                raise StudyError(f"{where} must be a table")
            if "name" in t:
                where = f"{path}: [[{kind}]] '{t['name']}'"
            keys = kinds[kind].KEYS
            for k in t:
                if k not in keys:
                    raise StudyError(f"{where}: unknown key '{k}' (known: {', '.join(sorted(keys))})")
            part_game = check(t.get("game", game), str, f"{where}: game")
            part = _parse_part(kind, t, where, study, _game(part_game, f"{where}: game"), i, part_game)
            if part.name in names:
                raise StudyError(f"{where}: name '{part.name}' is used twice; give each part its own name")
            names.add(part.name)
            study.parts.append(part)
    # parts of one game together, the study's game first (stable: file order within a game and kind)
    order = study.games_played
    study.parts.sort(key=lambda p: order.index(p.game))
    return study


def _parse_part(kind, t, where, study, mod, index, game):
    """The keys every kind shares, then the kind's own ``parse``."""
    given = check(t.get("name", f"{kind}-{index}"), str, f"{where}: name")
    name = slug(given)
    if name != given or len(name) > 100:        # a folder name: never rewritten behind the user's back
        raise StudyError(f"{where}: name {given[:60]!r} must be 1 to 100 letters, digits, _ . - "
                         f"(it names the part's folder), e.g. {name[:60]!r}")
    title = check(t.get("title", name.replace("_", " ").replace("-", " ").capitalize()), str, f"{where}: title")
    if "players" not in t:
        raise StudyError(f"{where}: missing key 'players' (a player count or a list, e.g. [2, 3, 4])")
    players = players_of(t["players"], f"{where}: players", tuple(mod.PLAYERS))
    games = check(t.get("games", study.games), int, f"{where}: games")
    if not 0 < games <= MAX_GAMES:
        raise StudyError(f"{where}: games must be 1..{MAX_GAMES:,} (more is years of computing), not {games:,}")
    seed = check(t.get("seed", study.seed), int, f"{where}: seed")
    if not 0 <= seed < 2 ** 63:
        raise StudyError(f"{where}: seed must be 0..2^63-1 (a signed 64-bit integer in manifests), not {seed}")
    events = check(t.get("events", True), bool, f"{where}: events")
    quick_games = check(t.get("quick_games", 0), int, f"{where}: quick_games")
    if "quick_games" in t and quick_games <= 0:
        raise StudyError(f"{where}: quick_games must be a positive integer, not {quick_games}")
    part = Part(kind=kind, name=name, title=title, games=0, seed=seed, game=game, quick_games=quick_games,
                events=events, first_screen=getattr(study.kinds[kind], "FIRST_SCREEN", ""))
    return study.kinds[kind].parse(part, t, ParseContext(where, study, mod, players, games))


# ---------------------------------------------------------------- running

def quick(study: Study, games=None) -> Study:
    """The study with every run capped at ``games`` (default: the part's ``quick_games``, else the
    study's, else 1000)."""
    for part in study.parts:
        cap = games or part.quick_games or study.quick_games or 1000
        for r in part.runs:
            r.games = min(r.games, cap)
        study.kinds[part.kind].quick(part, cap)
    return study


def run_study(study: Study, out, workers=None, log=print) -> dict:
    """Play every part of ``study`` under ``out/runs``; return ``{part name: its kind's result}``
    (a RunSet, or a compensation search's result).

    A rerun on the same folder plays only what is missing. A run whose settings equal an earlier
    run's (:func:`run_key`) is not played again: its label reads the earlier run's folder.
    """
    from reports.compare import chunk_size_for
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
        from reports.progress import progress_lines

        t1 = time.perf_counter()       # the time of this run, not of the part so far
        with progress_lines(log, f"  {part.title}: {r.label}") as progress:     # no silence over ~1 s
            simulate(part.game, players=r.players, games=r.games, seed=r.seed, out=folder,
                     strategies=seats(part, r), variant=r.variant, workers=workers,
                     chunk_size=chunk_size_for(r.games), events=r.events, progress=progress)
        log(f"{part.title}: {r.label}: {r.games:,} games ({time.perf_counter() - t1:.0f} s)")
        return folder

    for part in study.parts:
        t0 = time.perf_counter()
        ctx = RunContext(base=base, workers=workers, log=log, t0=t0,
                         play=lambda r, part=part, t0=t0: play(part, r, t0))
        sets[part.name] = study.kinds[part.kind].run(part, ctx)
    return sets


def _prefix(sec: Section, part):
    sec.title = f"{part.title} — {sec.title}"
    for item in sec.tables + sec.figures:
        item.name = f"{part.name}_{item.name}"
    if sec.terminal:
        sec.terminal = f"[{part.title}] " + sec.terminal
    return sec


def study_report(study: Study, sets: dict, commands=None, figures=None) -> Report:
    """One report across the parts of a study.

    ``figures``: a ``reports.render.workers.BackgroundFigures`` that renders each part's
    figures while the next parts are analysed (give the same one to ``write_report``).
    """
    all_runs = {}
    for part in study.parts:
        for label, run in study.kinds[part.kind].runs(part, sets[part.name]).items():
            all_runs[f"{part.name}/{label}"] = run
    desc = [study.description] if study.description else []
    extra = desc + [f"Study file: `{study.path}`."]
    if all_runs:
        prov = provenance_section(RunSet(all_runs, group="run"), extra=extra, commands=commands)
    else:                   # compensation parts only: no results folder to list
        prov = provenance_without_runs(extra, commands)
    sections = [prov]
    for part in study.parts:
        secs = study.kinds[part.kind].sections(part, sets[part.name], figures)
        sections += [_prefix(s, part) for s in secs]
        if figures is not None:
            figures.add(secs)
    return Report(study.title, sections=with_findings(sections))


def study_main(study: Study, out, workers=None, quick_games=None, log=print, watch=None):
    """Run and report a loaded study; return (report, paths, seconds).

    ``watch(study, sets, out, log)``: the "Games to watch" section (or None), added after the parts'
    sections (``reports.view.telling.study_section``, which the commands hand over)."""
    from reports.firstscreen import mark_quick, mark_underpowered, with_first_screen  # answers first
    from reports.render.workers import BackgroundFigures
    from reports.render.write import write_report

    t0 = time.perf_counter()
    if quick_games is not None:
        quick(study, quick_games or None)
    log(f"{study.title}: {len(study.parts)} parts, {study.total_games():,} games -> {out}")
    sets = run_study(study, out, workers=workers, log=log)
    log("analysing and writing the report (a line every second or so) ...")
    if os.path.abspath(study.path) == demo_path():
        cmd = f"boardlab demo --out {out}"
    else:
        cmd = f"boardlab study {study.path} --out {out}"
    figures = BackgroundFigures(log=log)     # figures render on another core while the parts are analysed
    try:
        report = study_report(study, sets, commands=[cmd + (" --quick" if quick_games is not None else "")],
                              figures=figures)
        if watch is not None:                     # viewer pages of a few telling games
            report.sections += [s for s in [watch(study, sets, out, log=log)] if s is not None]
        report.sections = with_first_screen(study, sets, report.sections, quick=quick_games is not None)
        if quick_games is not None:
            mark_quick(report)
        mark_underpowered(report)
        paths = write_report(report, out, figures=figures)
    finally:
        figures.close()
    return report, paths, time.perf_counter() - t0


def demo_path():
    """The built-in demo study (package data)."""
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), "studies", "demo.toml")
