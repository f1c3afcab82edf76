"""The skill ladder (``boardlab ladder``) and balance per skill level (``[[skill]]`` study parts).

**The ladder** rates a pool of strategies — ``random``, every preset of the
game (``strategies/presets/<game>.toml`` and ``<game>_*.toml``, e.g. the tuned
one) and MCTS at a few iteration counts — against each other with
Bradley–Terry, and draws the ratings against the compute each spends per
decision.

*Which games are played.* All seatings of 9 strategies in 3 seats are 504
and most would pit one expensive search against another for nothing, so the
ladder is a balanced incomplete-block design:

- every set of ``players`` distinct strategies of the pool is a *block* (84
  blocks of 3 out of 9), played in its ``players`` cyclic seat rotations (252
  seatings): every strategy sits in every seat equally often, and every pair
  of strategies meets in the same number of blocks — adjacent levels (MCTS-400
  against MCTS-1600), the comparisons that fix the top of the scale, meet as
  often as any other pair, and no pair depends on a chain through others;
- a *round* is one game per seating; ``games`` (games each strategy plays, at
  least) is rounded up to whole rounds: in a round every strategy plays
  ``C(m-1, k-1) * k`` games (84 with 9 strategies and 3 seats);
- a block without a searching seat costs next to nothing (the heuristics play
  thousands of games a second), so it plays :data:`CHEAP_FACTOR` times the
  games: cheap seats fill the rest of the schedule and pin the heuristics'
  ratings down for free;
- with fewer strategies than seats, the seatings are the cyclic rotations of
  the pool with repeats (``reports.plan.lineups``).

The cost of a round is then ``C(m-1, k-1) * k`` seat-games of every search
level: in 3-player Hellas (MCTS-1600 ≈ 1.1, MCTS-400 ≈ 0.28, MCTS-100 ≈ 0.07
core-seconds a seat-game) about 125 core-seconds a round, so the default
1,000 games a strategy (12 rounds, 1,008 games with MCTS-1600) take ≈ 25
core-minutes. Every seating is its own results folder, all from the same run
seed (common random numbers: game ``i`` of every seating meets the same
tiles), so the results do not depend on the worker count; the seatings are
played in parallel, one per worker, dearest first.

**Balance per skill level** plays self-play runs — every seat at one level —
and reports for each level the seat win shares, the scoring-category weights
and the game's own component sections (the same builders as a study's
``[[variants]]`` part, one series per level), then the trend of each seat's
win share against the level's ladder rating (``analysis.skill``) and a
findings line saying whether the seat advantage grows, shrinks or holds (those sections:
``reports.experiments.skill.skill_sections``).

Here: the plan, its play and the CPU measure. The ladder's sections (design, ratings, rating
against compute and against CPU) are ``reports.experiments.skill.ladder_sections``: they draw with
``reports.compare`` and ``reports.render.figures_ladder``, one layer above this module.
"""
from __future__ import annotations

import dataclasses
import itertools
import math
import os
import re
import time
from dataclasses import dataclass, field

import polars as pl


#: Blocks with no searching seat play this many times the games of the others.
CHEAP_FACTOR = 50
#: Self-play of a level that does not search: this many times the games of a search level.
SKILL_CHEAP_FACTOR = 10
DEFAULT_LEVELS = (100, 400, 1600)
#: Relative work of a seat that does not search, in MCTS iterations (for ordering and progress only).
HEURISTIC_WORK = 0.2
#: The keys of a ``[[skill]]`` study part (besides name, title, game, players, seed, variant, quick_games).


# ---------------------------------------------------------------- the pool

def iterations_of(strategy) -> int:
    """Playouts (MCTS iterations) a strategy runs per decision: 0 for random and the heuristics."""
    from simcore._contract import SEARCH_DEFAULTS

    if not strategy.searches:
        return 0
    return int(strategy.search.get("iterations", SEARCH_DEFAULTS["iterations"]))


def mcts_level(game, iterations):
    """MCTS with ``iterations`` per decision (other settings: the defaults), named ``mcts:iterations=N``
    even for the default count, so every level of a ladder says its iterations."""
    import strategies

    s = strategies.resolve(game, f"mcts:iterations={int(iterations)}")
    return dataclasses.replace(s, name=f"mcts:iterations={int(iterations)}")


def parse_levels(text, flag="--levels"):
    """``"100,400,1600"`` -> ``[100, 400, 1600]`` (sorted); ValueError naming the bad part."""
    parts = [p.strip() for p in str(text).split(",")]
    out = []
    for p in parts:
        try:
            n = int(p.replace("_", ""))
        except ValueError:
            n = 0
        if n <= 0 or not p:
            raise ValueError(f"{flag} must be MCTS iteration counts, positive whole numbers separated by "
                             f"commas (e.g. 100,400,1600), not {text!r}")
        if n in out:
            raise ValueError(f"{flag} lists {n} twice; give each level once")
        out.append(n)
    return sorted(out)


def default_pool(game, levels=DEFAULT_LEVELS, names=None):
    """``{name: Strategy}``: random, every preset of ``game`` (or ``names``), then MCTS at ``levels``."""
    import strategies

    names = list(strategies.presets(game)) if names is None else list(names)
    pool = {}
    for name in names:
        s = strategies.resolve(game, name)
        pool[name] = s
    for n in levels:
        s = mcts_level(game, n)
        pool[s.name] = s
    return pool


def level_name(pool, text):
    """A skill level given as a pool name or an MCTS iteration count (``400`` -> ``mcts:iterations=400``)."""
    t = str(text).strip()
    if t.isdigit() and f"mcts:iterations={int(t)}" in pool:
        return f"mcts:iterations={int(t)}"
    if t in pool:
        return t
    raise ValueError(f"skill level {t!r} is not in the ladder (its strategies: {', '.join(pool)}; an MCTS level "
                     f"may be given by its iterations, e.g. 400)")


# ---------------------------------------------------------------- the design

def design(names, players, games, searching=()):
    """The seatings of a ladder and their games: ``([(lineup, games), ...], rounds)``.

    Parameters
    ----------
    names : list of str
        The pool, in order.
    players : int
    games : int
        Games each strategy plays at least (rounded up to whole rounds).
    searching : set of str
        The names that search: a block without any plays ``CHEAP_FACTOR`` times the games.

    Examples
    --------
    >>> seatings, rounds = design(["a", "b", "c", "d"], 3, 9, searching={"d"})
    >>> len(seatings), rounds, seatings[0], seatings[-1]
    (12, 1, (('a', 'b', 'c'), 50), (('d', 'b', 'c'), 1))
    """
    from reports.plan import lineups

    names, k = list(names), int(players)
    if len(set(names)) != len(names):
        raise ValueError("a ladder lists each strategy once")
    if len(names) < 2:
        raise ValueError("a ladder needs at least two strategies")
    if len(names) >= k:
        blocks = [[tuple(b[(i + j) % k] for j in range(k)) for i in range(k)]
                  for b in itertools.combinations(names, k)]
        per_round = math.comb(len(names) - 1, k - 1) * k
    else:
        blocks = [lineups(names, k)]
        per_round = len(blocks[0])
    rounds = max(1, math.ceil(games / per_round))
    out = []
    for block in blocks:
        cheap = not any(n in searching for n in block[0])
        out += [(seating, rounds * (CHEAP_FACTOR if cheap else 1)) for seating in block]
    return out, rounds


def _slug(text):
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", str(text)).strip("-") or "x"


@dataclass
class LadderPlan:
    """A ladder (pool, seats, games) and the self-play runs of its skill levels."""

    game: str
    players: int
    pool: dict                       # name -> strategies.Strategy, in order
    games: int                       # games each strategy plays in the ladder (at least)
    seed: int
    variant: dict = field(default_factory=dict)
    skill: list = field(default_factory=list)     # level names (in the pool)
    skill_games: int = 0             # self-play games of a search level
    skill_cheap_games: int = 0       # self-play games of a level that does not search
    precision: float = None          # self-play until every seat's 95% interval is within ± this (a share)
    skill_seconds: float = None      # ... or this wall time per level is spent (the games above: the cap)

    @property
    def searching(self):
        return {n for n, s in self.pool.items() if s.searches}

    def seatings(self):
        return design(list(self.pool), self.players, self.games, self.searching)

    def skill_runs(self):
        """``[(level, games)]``: the self-play run of every skill level."""
        return [(n, self.skill_games if n in self.searching else self.skill_cheap_games) for n in self.skill]

    def work(self, names, games):
        return games * sum(max(iterations_of(self.pool[n]), HEURISTIC_WORK) for n in names)

    def total_games(self):
        return sum(g for _, g in self.seatings()[0]) + sum(g for _, g in self.skill_runs())

    def summary(self):
        """One line: seatings, games, games with the top level, self-play runs."""
        seatings, rounds = self.seatings()
        top = max(self.pool, key=lambda n: iterations_of(self.pool[n]))
        with_top = sum(g for lineup, g in seatings if top in lineup)
        text = (f"{len(self.pool)} strategies, {len(seatings)} seatings ({rounds} round{'s' * (rounds > 1)}), "
                f"{sum(g for _, g in seatings):,} games, {with_top:,} with {top}")
        if self.skill:
            text += "; self-play " + ", ".join(f"{n} {g:,}" for n, g in self.skill_runs())
            text += precision_summary(self)
        return text


def check_plan(plan: LadderPlan):
    """ValueError for a ladder that cannot be played (a skill level not in the pool); its game and
    player count are the command's, checked once by ``reports.cli``."""
    for n in plan.skill:
        level_name(plan.pool, n)
    if len(plan.skill) == 1:
        raise ValueError("balance per skill level needs at least two levels (or none)")


# ---------------------------------------------------------------- playing

def estimate_seconds(plan: LadderPlan, workers):
    """``(seconds, what)``: the whole plan's time on ``workers`` workers, from one game of the top search level
    (against the cheapest strategies) timed first and the work model (``LadderPlan.work``); ``None`` when
    nothing searches."""
    from simcore.run import _probe, _resolve_workers, plan_run

    top = max(plan.pool, key=lambda n: iterations_of(plan.pool[n]))
    if iterations_of(plan.pool[top]) == 0:
        return None
    cheap = [n for n in plan.pool if not plan.pool[n].searches] or [top]
    lineup = [top] + [cheap[i % len(cheap)] for i in range(plan.players - 1)]
    probe = plan_run(plan.game, plan.players, 1, plan.seed, strategies=[plan.pool[n].to_dict() for n in lineup],
                     variant=plan.variant)
    seconds, _ = _probe(probe)
    work = sum(plan.work(lu, g) for lu, g in plan.seatings()[0])
    work += sum(plan.work([lv] * plan.players, g) for lv, g in plan.skill_runs())
    return seconds / plan.work(lineup, 1) * work / _resolve_workers(workers), f"one game of {top} timed first"


def play_level(plan, level, games, folder, seats, workers, progress):
    """Self-play of ``level``: ``games`` games, or with ``plan.precision`` until every seat is within it
    (``games``: the cap) or ``plan.skill_seconds`` are spent (``reports.sequential``). ``progress``: the
    runs' progress callable. Returns what was played, in words ("6,000 games", or the stop's reason)."""
    from reports.sequential import simulate_to_precision
    from simcore.run import simulate

    if plan.precision is None:
        simulate(plan.game, players=plan.players, games=games, seed=plan.seed, out=folder, strategies=seats,
                 variant=dict(plan.variant), workers=workers, progress=progress)
        return f"{games:,} games"
    res = simulate_to_precision(plan.game, plan.players, plan.seed, folder, strategies=seats,
                                variant=dict(plan.variant), workers=workers, precision=plan.precision,
                                budget_games=games, budget_seconds=plan.skill_seconds, progress=progress)
    return res["reason"]


def precision_summary(plan) -> str:
    """What the plan's summary adds for self-play to a target precision ("" without one)."""
    if plan.precision is None:
        return ""
    return (f" at most, each until every seat is within ±{plan.precision * 100:g} pp"
            + (f" or {plan.skill_seconds:g} s are spent" if plan.skill_seconds else ""))


def _play_one(game, players, seats, games, seed, folder, variant, parent=None):
    from simcore.run import _watch_parent, simulate

    _watch_parent(parent)      # a pool worker ends when the ladder's process is gone (killed with -9, say)
    t0 = time.perf_counter()
    simulate(game, players=players, games=games, seed=seed, out=folder, strategies=seats,
             variant=dict(variant), workers=1, progress=False)
    return folder, time.perf_counter() - t0


def _eta(seconds):
    return f"{seconds:.0f} s" if seconds < 120 else f"{seconds / 60:.1f} min"


def play_ladder(plan: LadderPlan, base, workers=None, log=print):
    """Play every seating of ``plan`` under ``base`` (one results folder each); return a RunSet (group
    ``lineup``). A rerun resumes: finished seatings are read back, missing chunks played."""
    import joblib

    from reports.runset import RunSet
    from simcore._orphans import quiet_worker_spawns
    from simcore.run import _resolve_workers

    quiet_worker_spawns()                # a worker still starting says nothing of a Ctrl-C

    seatings, _ = plan.seatings()
    dicts = {n: s.to_dict() for n, s in plan.pool.items()}
    tasks = []
    for i, (lineup, games) in enumerate(seatings):
        folder = os.path.join(base, f"seating-{i:03d}")
        tasks.append((plan.work(lineup, games), i, lineup, games, folder))
    total_work = sum(t[0] for t in tasks)
    total_games = sum(t[3] for t in tasks)
    order = sorted(tasks, key=lambda t: (-t[0], t[1]))          # dearest first: the pool ends together
    n_workers = min(_resolve_workers(workers), len(tasks))
    calls = (joblib.delayed(_play_one)(plan.game, plan.players, [dicts[n] for n in lineup], games, plan.seed,
                                       folder, plan.variant, os.getpid())
             for _, _, lineup, games, folder in order)
    t0 = last = time.perf_counter()
    done_work = done_games = done = 0
    by_folder = {t[4]: t for t in tasks}
    if n_workers > 1:
        results = joblib.Parallel(n_jobs=n_workers, backend="loky", return_as="generator_unordered")(calls)
    else:
        results = (_play_one(plan.game, plan.players, [dicts[n] for n in lineup], games, plan.seed, folder,
                             plan.variant) for _, _, lineup, games, folder in order)
    import threading

    stop, clock = threading.Event(), [t0]

    def heartbeat():        # a seating of search games may take minutes: a line every few seconds meanwhile
        while not stop.wait(0.5):
            if time.perf_counter() - clock[0] >= 1.0:      # issue 35: no silence over 2 s
                clock[0] = time.perf_counter()
                log(f"ladder: {done}/{len(tasks)} seatings done, playing the next ({_eta(clock[0] - t0)})")

    beat = threading.Thread(target=heartbeat, daemon=True)
    beat.start()
    try:
        for folder, _secs in results:
            w, _, lineup, games, _ = by_folder[folder]
            done_work += w
            done_games += games
            done += 1
            now = time.perf_counter()
            if now - last >= 2 or done == len(tasks):
                last = clock[0] = now
                left = (now - t0) * (total_work - done_work) / done_work if done_work else float("nan")
                log(f"ladder: {done}/{len(tasks)} seatings, {done_games:,} of {total_games:,} games, "
                    f"{100 * done_work / total_work:.0f}% of the work, {_eta(now - t0)}"
                    + (f", about {_eta(left)} to go" if done < len(tasks) else ""))
    finally:
        stop.set()
    dirs = {"|".join(lineup): folder for _, _, lineup, _, folder in tasks}
    return RunSet.from_dirs(dirs, group="lineup", title=f"{plan.game} ladder")


def play_skill(plan: LadderPlan, base, workers=None, log=print):
    """Play the self-play run of every skill level under ``base``; return a RunSet (group ``level``)."""
    from reports.progress import progress_lines
    from reports.runset import RunSet

    dirs = {}
    t0 = time.perf_counter()
    for level, games in plan.skill_runs():
        folder = os.path.join(base, _slug(level))
        seats = [plan.pool[level].to_dict()] * plan.players
        with progress_lines(log, f"  skill: {level}") as progress:     # no silence over ~1 s (issue 35)
            done = play_level(plan, level, games, folder, seats, workers, progress)     # to a target, if set
        dirs[level] = folder
        log(f"skill: {level} in every seat, {done} ({_eta(time.perf_counter() - t0)})")
    return RunSet.from_dirs(dirs, group="level", title=f"{plan.game} skill levels", allow_partial=True)


# ---------------------------------------------------------------- figures

def compute_table(ratings: pl.DataFrame, pool) -> pl.DataFrame:
    """Ratings with each strategy's kind and playouts per decision."""
    kinds = {n: s.kind for n, s in pool.items()}
    play = {n: iterations_of(s) for n, s in pool.items()}
    return (ratings.select("strategy", "n_games", "elo", "elo_lo", "elo_hi")
            .with_columns(pl.col("strategy").replace_strict(kinds, default="?").alias("kind"),
                          pl.col("strategy").replace_strict(play, default=0, return_dtype=pl.Int64)
                          .alias("playouts"))
            .select("strategy", "kind", "playouts", "n_games", "elo", "elo_lo", "elo_hi")
            .sort("playouts", "elo"))


def wants_cpu(pool) -> bool:
    """Whether the ladder measures CPU a game (:func:`measure_cpu`): its pool holds a learned model, alone
    or as a search's prior (the comparison the strength-per-CPU figure is for)."""
    return any(s.kind == "learned" or (s.searches and (s.search or {}).get("prior")) for s in pool.values())


def measure_cpu(plan: LadderPlan, folder, log=print, search_games=3, cheap_games=300) -> dict:
    """``{strategy: CPU seconds a game}`` with each strategy of the pool in every seat
    (``strategies.cost``: process CPU time of ``search_games`` games of a search, ``cheap_games`` of
    the others, from the run seed), kept in ``folder/cpu.json`` so that a rerun reuses them."""
    import json

    from strategies.cost import cpu_per_game

    path = os.path.join(folder, "cpu.json")
    done = {}
    if os.path.exists(path):
        with open(path) as f:
            done = json.load(f)
    os.makedirs(folder, exist_ok=True)
    out = {}
    for name, s in plan.pool.items():
        key = json.dumps(s.to_dict(), sort_keys=True)
        if name in done and done[name].get("strategy") == key:
            out[name] = done[name]["seconds"]
            continue
        n = search_games if s.searches else cheap_games
        out[name] = cpu_per_game(plan.game, plan.players, s, n, plan.seed)
        done[name] = {"strategy": key, "seconds": out[name], "games": n, "load": round(os.getloadavg()[0], 1)}
        with open(path + ".tmp", "w") as f:
            json.dump(done, f, indent=1)
        os.replace(path + ".tmp", path)
        log(f"ladder: CPU a game of {name}: {out[name]:.4g} s ({n} games, every seat)")
    return out


def too_few_clusters_text(ratings: pl.DataFrame, plan: LadderPlan) -> str:
    """The warning for strategies whose games come from fewer than 2 seeds ("" for none): their
    cluster-robust interval cannot be estimated (``analysis.ratings.bradley_terry``)."""
    from analysis.ratings import too_few_clusters

    few = too_few_clusters(ratings)
    if not few:
        return ""
    names = ", ".join(f"{s} ({g} seed{'s' * (g != 1)})" for s, g in few)
    k, m = plan.players, len(plan.pool)
    per_round = math.comb(m - 1, k - 1) * k if m >= k else k
    return (f"**Warning: too few seeds for a rating interval.** Game i of every seating is played from seed i, "
            f"so a strategy's games from one seed are one unit, not independent games: {names} "
            f"{'has' if len(few) == 1 else 'have'} no 95% interval (the ratings are point estimates only). Play at "
            f"least 2 rounds (`--games {2 * per_round}` or more); with few rounds the intervals are wide "
            f"(Student's t on the seeds less one: 12.7 standard errors from 2 seeds, 2.26 from 10).")


def ratings_of(sec) -> pl.DataFrame:
    """The Bradley–Terry table of a ``compare_section``."""
    return next(t.frame for t in sec.tables if t.name.endswith("compare_ratings"))


