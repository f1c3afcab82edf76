"""Seat compensation: the statistics and the sequential search behind ``boardlab balance`` (issue 20).

A *compensation* is one integer per seat added to an engine setting (the
knob: ``seat_bonus``, the starting resource, or ``seat_points``, points on the
final total). The search looks for the vector whose seats' win shares are
closest to fair, measured by the **gap**: the largest ``|share_i - 1/N|``.

Vectors are **normalised so that their smallest entry is 0**: no seat loses
anything from the printed rules, the seats that are ahead get nothing (Go's
komi). For ``seat_points`` that is no restriction (the same points for every
seat change no result); for ``seat_bonus`` it leaves out negative bonuses.

The search is a pattern search over the integer lattice, each step a race:

1. The candidates are the centre (at first all zeros) and the centre moved by
   ``±step`` in one seat's entry (normalised; duplicates and vectors the
   engine refuses are left out).
2. A race plays blocks of games for every surviving candidate, all
   candidates on the same game seeds (common random numbers: block ``k`` is
   always games ``k*b .. (k+1)*b - 1`` of the search seed, for every
   candidate and every step, and finished blocks are kept, so a candidate met
   again costs nothing). Rounds double the games per candidate (1, 2, 4, …
   blocks). After each round the leader is the candidate with the smallest
   estimated gap; a candidate whose paired gap difference to the leader is
   above 0 with one-sided Bonferroni confidence is eliminated. The race ends
   with one survivor, when the survivors are within ``tol`` of the leader at
   that confidence (practically equal: the leader wins), or at the block cap.
3. The race's winner becomes the centre; a centre that wins its own race
   halves the step (the search ends when step 1 is kept); two moves in the
   same direction double it. Two centres that win in turn (the first blocks
   favour each) are raced again from the most games either has had.
4. The candidates the last race could not part within its cap race on, up to
   ``final_blocks`` each: the games go where the candidates are closest.

**A start from the shares** (``start="shares"``): instead of the zero vector,
the search may start where a linear model of the seats' shares puts the fair
vector. A probe plays the zero vector and, for each seat ``j``, the zero
vector with ``step`` units more for seat ``j`` (``probe_blocks`` blocks each,
the zero vector ``probe_zero_blocks``, on the same common seeds as everything
else, so a probed vector met again costs nothing); the paired differences of
the shares on the first ``probe_blocks`` blocks give the matrix ``J`` of the
share change per unit (column ``j``: every seat's change when seat ``j`` gets
one unit more). The zero vector gets more games because its shares, not
``J``, limit the start's accuracy (synthetic Yamataï 4p, 200 runs: the start
is the fairest vector in 39 % of runs with 4 blocks for every probed vector,
85 % with 16 for the zero vector, 1.6 times the games). The least-squares
solution ``x`` of ``shares(0) + J x = 1/N`` (minimal norm: every column of
``J`` adds up to 0, as the shares add up to 1, and with ``seat_points`` the
same units for every seat change nothing) is shifted so its smallest entry is
0 and rounded; the search starts there at step 1 (the
rounding is at most half a unit a seat). A probe that finds some seat's own
unit not raising its share (noise, or a knob that does not work that way), or
a start the engine refuses, falls back to the zero vector at the given step.
When the budget cuts a race around the probe's start, the start is kept
unless it was shown less fair than the leader (a leader of a cut race is
mostly the noise of its few games; the start has the probe's games behind it).
Why: a search from zero at step 1 moves one seat a unit per race, so a gap
worth two or more units in several seats takes several races, each on
``2N + 1`` candidates; an unsettled search then stops at an almost random
vector (Yamataï 4p, issue 33 round 6).

The paired difference uses, per game, the centred share of each candidate's
gap seat (``sign * (share_i - 1/N)`` for its arg-max seat ``i``): the gap is
its mean, and on common seeds the per-game differences vary far less than
either gap. This module plays nothing: it takes a ``play`` callable
(``reports/balance.py`` passes the engines' batch kernel) and is tested on a
synthetic game as well as on the engines.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from analysis.stats import norm_ppf, observed_share_bounds

__all__ = ["Search", "SearchResult", "gap_interval", "linear_start", "normalise", "seat_rows", "verdict"]


def normalise(vector) -> tuple:
    """``vector`` shifted so its smallest entry is 0, as a tuple of ints.

    >>> normalise([3, 5, 3])
    (0, 2, 0)
    """
    v = [int(x) for x in vector]
    m = min(v)
    return tuple(x - m for x in v)


def parse_start(start, players) -> object:
    """A search's start: None (the zero vector), ``"shares"`` (a probe of the shares picks it) or a
    normalised tuple of ``players`` ints, from a sequence or from text such as ``"0,1,2"``; a one-line
    ValueError naming what is wrong."""
    if start is None or (isinstance(start, str) and start.strip() == "shares"):
        return None if start is None else "shares"
    text = start if isinstance(start, str) else ",".join(str(x) for x in start)
    try:
        v = [int(x) for x in (text.split(",") if isinstance(start, str) else start)]
        if not isinstance(start, str) and any(isinstance(x, bool) or int(x) != x for x in start):
            raise ValueError
    except (TypeError, ValueError):
        raise ValueError(f"start must be 'shares' or {players} whole numbers separated by commas "
                         f"(e.g. {','.join(['0'] * players)}), not {text!r}") from None
    if len(v) != players:
        raise ValueError(f"start {text!r} has {len(v)} entries for {players} players")
    return normalise(v)


def seat_rows(sums, n, level: float = 0.95, squares=None) -> list:
    """Per seat ``{"seat", "share", "lo", "hi"}``: win share (a k-way tie counts 1/k) with its CI.

    ``squares``: per seat, the sum of the squared per-game shares; the CI then
    follows their observed variance (ties narrow it), else it is Wilson's.

    >>> [round(r["share"], 2) for r in seat_rows([30.0, 70.0], 100)]
    [0.3, 0.7]
    """
    sums = np.asarray(sums, dtype=float)
    lo, hi = observed_share_bounds(sums, n, squares, level)
    return [{"seat": i, "share": float(sums[i] / n), "lo": float(lo[i]), "hi": float(hi[i])}
            for i in range(len(sums))]


def gap_interval(sums, n, level: float = 0.95, squares=None) -> tuple:
    """The largest seat gap ``max_i |share_i - 1/N|`` and a simultaneous ``level`` interval for it.

    With N > 2 seats, each seat gets an interval at level ``1 - (1 - level) / N``
    (Bonferroni), so with probability ``level`` all seats lie in theirs. With 2
    seats both gaps are one number (``share_1 - 1/2 = -(share_0 - 1/2)``: every
    game's shares add up to 1), so seat 0's interval at ``level`` is already
    simultaneous — no split of α (the Bonferroni split made it 14% too wide:
    0.709 pp where 0.620 pp is right, issue 37). The gap's interval then runs
    from the largest distance of 1/N to a seat's interval (0 when 1/N is inside
    every one) to the largest distance of 1/N to an interval's far end.
    ``squares`` (per seat, the sum of squared per-game shares) makes each seat's
    interval follow the observed variance (ties narrow it); else Wilson's.

    Returns
    -------
    (gap, lo, hi) : floats, as fractions (0.01 = 1 percentage point)

    Examples
    --------
    >>> g, lo, hi = gap_interval([5200.0, 4800.0], 10000)
    >>> round(g, 4), round(lo, 4), round(hi, 4)
    (0.02, 0.0102, 0.0298)
    """
    sums = np.asarray(sums, dtype=float)
    players = len(sums)
    fair = 1.0 / players
    if squares is not None:
        squares = np.asarray(squares, dtype=float)
    if players == 2:
        lo0, hi0 = observed_share_bounds(sums[:1], n, None if squares is None else squares[:1], level)
        # seat 1's interval is seat 0's mirrored about 1/2
        lo, hi = np.array([lo0[0], 1.0 - hi0[0]]), np.array([hi0[0], 1.0 - lo0[0]])
    else:
        lo, hi = observed_share_bounds(sums, n, squares, 1.0 - (1.0 - level) / players)
    share = sums / n
    gap = float(np.max(np.abs(share - fair)))
    near = np.where(lo > fair, lo - fair, np.where(hi < fair, fair - hi, 0.0))
    far = np.maximum(np.abs(lo - fair), np.abs(hi - fair))
    return gap, float(near.max()), float(far.max())


def verdict(gap_after, target: float = 0.01) -> dict:
    """What a verified gap ``(gap, lo, hi)`` says: balanced within the noise or not, the target met or not.

    ``exact``: the interval holds 0 (no evidence that a gap remains);
    ``target_met``: the upper bound is at most ``target`` (the gap is shown to be ≤ target);
    ``target_missed``: the lower bound is above ``target`` (shown not to be).
    """
    _, lo, hi = gap_after
    return {"exact": lo <= 0.0, "target": target, "target_met": hi <= target, "target_missed": lo > target}


def linear_start(shares0, jacobian):
    """The real vector ``x`` that makes ``shares0 + jacobian @ x`` fairest (least squares, minimal norm),
    shifted so its smallest entry is 0, and its rounding (a tuple of ints).

    ``jacobian[i, j]``: seat ``i``'s share change per unit given to seat ``j``.

    >>> J = 0.03 * (1.5 * np.eye(3) - 0.5)        # one unit: +3 pp for its seat, -1.5 pp for the others
    >>> x, v = linear_start([0.40, 0.31, 0.29], J)
    >>> np.round(x, 2).tolist(), v
    ([0.0, 2.0, 2.44], (0, 2, 2))
    """
    s0 = np.asarray(shares0, dtype=float)
    J = np.asarray(jacobian, dtype=float)
    x = np.linalg.lstsq(J, 1.0 / len(s0) - s0, rcond=None)[0]
    x = x - x.min()
    return x, tuple(int(r) for r in np.floor(x + 0.5))


# ---------------------------------------------------------------- the search

@dataclass
class SearchResult:
    best: tuple                       # the compensation found (normalised)
    converged: bool                   # False: the budget ran out before step 1 was kept
    games: int                        # games played by the search
    trace: list = field(default_factory=list)       # one dict per candidate per race round
    candidates: dict = field(default_factory=dict)  # vector -> (sums per seat, games) on the search seeds
    steps: int = 0
    probe: dict = None              # the start from the shares: start, solution, jacobian, games (or None)


class Search:
    """The sequential search for the fairest compensation vector (see the module docstring).

    Parameters
    ----------
    players : int
    play : callable
        ``play(jobs)`` with ``jobs`` a list of ``(vector, block)``; returns, in
        the same order, one array ``(block_games, players)`` of per-game win
        shares each (game indices ``block*block_games ..`` of the search seed).
    budget : int
        Games the search may play (over all candidates).
    block_games : int
        Games per block (a race round adds blocks of this size).
    valid : callable, optional
        ``valid(vector) -> bool``: False for a vector the engine refuses; it is skipped.
    step : int
        The first step size (halved down to 1).
    max_blocks : int
        Blocks per candidate at most in one race.
    final_blocks : int
        Blocks per candidate at most in the final race, among the candidates the
        last race left (too close to part within ``max_blocks``).
    level : float
        Confidence of the eliminations (one-sided, Bonferroni over the candidates).
    tol : float
        Practical equality: a race ends when every survivor's paired
        difference to the leader is known to within ``tol`` (a fraction).
    log : callable, optional
        Progress lines.
    start : None, ``"shares"`` or a vector
        Where the search starts: the zero vector (None), where a probe of the
        shares puts the fair vector (``"shares"``: see the module docstring;
        ``step`` is then the probe's move and the search starts at step 1), or
        the given vector (at ``step``).
    probe_blocks, probe_zero_blocks : int
        Blocks per probed vector, and for the zero vector (``start="shares"``).
    """

    def __init__(self, players, play, budget, block_games, valid=None, step=4, max_blocks=16, level=0.95,
                 tol=0.0015, log=None, max_steps=60, final_blocks=64, start=None, probe_blocks=4,
                 probe_zero_blocks=16):
        if block_games < 1:
            raise ValueError(f"block_games must be at least 1, not {block_games}")
        self.players, self.play, self.budget, self.b = int(players), play, int(budget), int(block_games)
        self.valid = valid or (lambda v: True)
        self.step0, self.max_blocks, self.level, self.tol = int(step), int(max_blocks), level, tol
        self.log = log or (lambda line: None)
        self.max_steps = max_steps
        self.final_blocks = int(final_blocks)
        if start is not None and not (isinstance(start, str) and start == "shares"):
            start = normalise(start)
            if len(start) != self.players:
                raise ValueError(f"the start {_fmt(start)} has {len(start)} entries for {self.players} players")
        self.start, self.probe_blocks = start, int(probe_blocks)
        self.probe_zero_blocks = max(int(probe_zero_blocks), self.probe_blocks)
        self.survivors, self.eliminated = [], set()
        self.blocks = {}        # vector -> list of per-block arrays (block 0, 1, …)
        self.used = 0
        self.trace = []

    # -- candidates
    def neighbours(self, centre, step):
        """``centre`` and its moves by ±step in one seat, normalised, valid, without duplicates (in order)."""
        out = [centre]
        for seat in range(self.players):
            for sign in (1, -1):
                v = list(centre)
                v[seat] += sign * step
                v = normalise(v)
                if v not in out and self.valid(v):
                    out.append(v)
        return out

    def probe_vectors(self, step):
        """The zero vector and, per seat, ``step`` units more for that seat (normalised; None where refused)."""
        zero = (0,) * self.players
        out = [zero]
        for j in range(self.players):
            v = list(zero)
            v[j] += step
            v = normalise(v)
            out.append(v if self.valid(v) else None)
        return out

    def first_round_games(self):
        """Games the first race round (or the probe) plays: the search needs at least this budget."""
        if self.start == "shares":
            units = sum(v is not None for v in self.probe_vectors(self.step0)[1:])
            return (units * self.probe_blocks + self.probe_zero_blocks) * self.b
        centre = (0,) * self.players if self.start is None else self.start
        return len(self.neighbours(centre, self.step0)) * self.b

    def probe_start(self):
        """Play the probe (module docstring) and return ``(start, step, probe)``: where the search starts,
        at which step, and the probe's figures (a dict; ``fallback`` says why the zero vector is kept)."""
        step, k, zero = self.step0, self.probe_blocks, (0,) * self.players
        vectors = self.probe_vectors(step)
        kz = self.probe_zero_blocks
        probe = {"step": step, "games_each": k * self.b, "zero_games": kz * self.b,
                 "vectors": [None if v is None else list(v) for v in vectors]}
        self.log(f"probe: {', '.join(_fmt(v) for v in vectors if v is not None)}: {kz * self.b:,} games "
                 f"for the first, {k * self.b:,} for the others")
        if any(v is None for v in vectors):
            return zero, step, {**probe, "fallback": "the engine refuses a probed vector"}
        if not (self._fill(vectors, k) and self._fill([zero], kz)):
            return zero, step, {**probe, "fallback": "the budget is too small for the probe"}
        means = [self._games(v, kz if v == zero else k).mean(axis=0) for v in vectors]
        for v, m in zip(vectors, means):
            self.trace.append({"step": 0, "round_games": (kz if v == zero else k) * self.b, "vector": v,
                               "gap": float(np.max(np.abs(m - 1.0 / self.players))), "shares": m.tolist(),
                               "status": "probe"})
        paired0 = self._games(zero, k).mean(axis=0)      # the same games as each unit vector's
        J = np.column_stack([(means[j + 1] - paired0) / step for j in range(self.players)])
        probe["jacobian"] = J.tolist()
        probe["shares"] = means[0].tolist()
        own = np.diag(J)
        if np.any(own <= 0):
            seat = int(np.argmin(own))
            self.log(f"probe: {step} unit(s) more for player {seat + 1} did not raise their share "
                     f"({own[seat] * step * 100:+.2f} pp): starting from the zero vector")
            return zero, step, {**probe, "fallback": f"player {seat + 1}'s own units did not raise their share"}
        x, start = linear_start(means[0], J)
        probe["solution"] = x.tolist()
        if not self.valid(start):
            self.log(f"probe: the engine refuses the start {_fmt(start)}: starting from the zero vector")
            return zero, step, {**probe, "fallback": f"the engine refuses {_fmt(start)}"}
        probe["start"] = list(start)
        self.log(f"probe: one unit moves its own seat by "
                 f"{', '.join(f'{d * 100:+.2f}' for d in own)} pp; the shares point to "
                 f"({', '.join(f'{a:.2f}' for a in x)}): starting at {_fmt(start)}, step 1 "
                 f"({self.used:,} games so far)")
        return start, 1, probe

    # -- statistics of one candidate on its first k blocks
    def _games(self, v, k):
        return np.concatenate(self.blocks[v][:k]) if k > 1 else self.blocks[v][0]

    def _centred(self, ws):
        """Per game, the centred share of the gap seat, and the gap estimate."""
        dev = ws.mean(axis=0) - 1.0 / self.players
        i = int(np.argmax(np.abs(dev)))
        sign = 1.0 if dev[i] >= 0 else -1.0
        return sign * (ws[:, i] - 1.0 / self.players), float(abs(dev[i]))

    def _fill(self, vectors, k):
        """Play the blocks ``vectors`` miss up to ``k`` each; False (nothing played) if over budget."""
        jobs = [(v, blk) for v in vectors for blk in range(len(self.blocks.get(v, [])), k)]
        if self.used + len(jobs) * self.b > self.budget:
            return False
        if jobs:
            results = self.play(jobs)
            for (v, blk), ws in zip(jobs, results):
                ws = np.asarray(ws, dtype=np.float64)
                if ws.shape != (self.b, self.players):
                    raise ValueError(f"play returned shape {ws.shape} for {v} block {blk}, "
                                     f"expected {(self.b, self.players)}")
                self.blocks.setdefault(v, []).append(ws)
            self.used += len(jobs) * self.b
        return True

    def race(self, candidates, step_no, k=1, max_blocks=None):
        """Race ``candidates`` from ``k`` blocks each (see the module docstring); return (winner, finished).

        The candidates still in the race at its end are kept in ``self.survivors``.
        """
        survivors = list(candidates)
        max_blocks = max_blocks or self.max_blocks
        self.survivors, self.eliminated = survivors, set()
        leader = survivors[0]
        while True:
            if not self._fill(survivors, k):
                if k > 1:
                    k //= 2             # the last full round
                else:                   # not one block each: race the candidates met before
                    survivors = [v for v in survivors if v in self.blocks]
                    if not survivors:
                        return candidates[0], False
                    k = min(len(self.blocks[v]) for v in survivors)
                self.survivors = survivors
                return self._leader(survivors, k, step_no, final=True)[0], False
            leader, gaps, x = self._leader(survivors, k, step_no)
            if len(survivors) == 1:
                self._record(step_no, k, survivors, gaps, leader, [])
                return leader, True
            m = len(survivors) - 1
            z = float(norm_ppf(1.0 - (1.0 - self.level) / m))
            games = {v: self._games(v, k) for v in survivors}
            out, close = [], True
            for v in survivors:
                if v == leader:
                    continue
                lower, half = self._shown_worse(x[v], games[leader], z)
                if lower > 0:
                    out.append(v)
                elif half > self.tol:
                    close = False
            self._record(step_no, k, survivors, gaps, leader, out)
            self.eliminated.update(out)
            survivors = [v for v in survivors if v not in out]
            self.survivors = survivors
            if len(survivors) == 1 or close or 2 * k > max_blocks:
                return leader, True
            k *= 2

    def _shown_worse(self, xa, ws_leader, z):
        """How far candidate a's gap is shown to exceed the leader's: (lower bound, its half-width).

        ``xa`` is a's per-game centred share of its gap seat. Its gap exceeds the
        leader's if it exceeds ``±(share_j - 1/N)`` of every seat j of the
        leader; each of those 2N differences is a mean over the common games,
        and the smallest lower bound of the 2N counts (an intersection test:
        no further correction). The sign that follows the leader's side of fair
        is the precise one on common seeds; the other keeps a leader whose side
        of fair is not yet known from being taken as exactly as far off as it
        looks on these seeds.
        """
        n = len(xa)
        lower, half = math.inf, 0.0
        for j in range(self.players):
            yj = ws_leader[:, j] - 1.0 / self.players
            for sign in (1.0, -1.0):
                d = xa - sign * yj
                se = float(d.std(ddof=1) / math.sqrt(n)) if n > 1 else math.inf
                lb = float(d.mean()) - z * se
                if lb < lower:
                    lower, half = lb, z * se
        return lower, half

    def _leader(self, survivors, k, step_no, final=False):
        x, gaps = {}, {}
        for v in survivors:
            x[v], gaps[v] = self._centred(self._games(v, k))
        leader = min(survivors, key=lambda v: (gaps[v], survivors.index(v)))
        if final:
            self._record(step_no, k, survivors, gaps, leader, [])
        return leader, gaps, x

    def _record(self, step_no, k, survivors, gaps, leader, out):
        for v in survivors:
            ws = self._games(v, k)
            self.trace.append({"step": step_no, "round_games": k * self.b, "vector": v, "gap": gaps[v],
                               "shares": ws.mean(axis=0).tolist(),
                               "status": "leader" if v == leader else ("eliminated" if v in out else "racing")})
        self.log(f"  step {step_no}, {k * self.b:,} games each: leader {_fmt(leader)} gap {gaps[leader] * 100:.2f} pp"
                 + (f"; out: {', '.join(_fmt(v) for v in out)}" if out else "")
                 + f"; {len(survivors) - len(out)} left; {self.used:,} games so far")

    def run(self, start=None) -> SearchResult:
        """Search from ``start`` (default: the constructor's, else all zeros; ``"shares"``: from a probe of
        the shares); return the best vector and the trace."""
        start = self.start if start is None else start
        step, probe = self.step0, None
        if isinstance(start, str) and start == "shares":
            start, step, probe = self.probe_start()
        centre = normalise(start if start is not None else (0,) * self.players)
        last_move, converged = None, False
        centres = set()         # (centre, step) raced so far
        for step_no in range(1, self.max_steps + 1):
            cands = self.neighbours(centre, step)
            self.log(f"step {step_no}: {len(cands)} candidates around {_fmt(centre)}, step {step}")
            centres.add((centre, step))
            winner, finished = self.race(cands, step_no)
            if finished and winner != centre and (winner, step) in centres:
                # a cycle: the first blocks favour each in turn; settle it on the most games any of them had
                k = max(len(self.blocks.get(v, [])) for v in cands)
                self.log(f"  {_fmt(centre)} and {_fmt(winner)} lead in turn: racing them all again "
                         f"from {k * self.b:,} games each")
                winner, finished = self.race(cands, step_no, k=k)
                if finished and winner != centre:
                    centre, last_move = winner, None
                    centres.add((centre, step))
                winner = centre          # settled: no move at this step
            if not finished:
                if probe is not None and centre == tuple(probe.get("start", ())) and winner != centre \
                        and centre not in self.eliminated:
                    # the budget cut the race around the probe's start: the leader is not shown fairer
                    # than the start, which has the probe's evidence behind it: keep the start
                    self.log(f"  the budget cut the race: {_fmt(winner)} leads but is not shown fairer than "
                             f"the probe's start {_fmt(centre)}: keeping the start")
                    winner = centre
                self.log(f"budget spent ({self.used:,} of {self.budget:,} games): stopping at {_fmt(winner)}")
                centre = winner
                break
            if winner == centre:
                if step == 1:
                    converged = True
                    break
                step, last_move = max(1, step // 2), None
            else:
                move = tuple(a - b for a, b in zip(winner, centre))
                if move == last_move:
                    step *= 2
                last_move, centre = move, winner
        if converged and len(self.survivors) > 1:
            # the last race left several candidates too close to part at its cap: race them on
            # (up to final_blocks each, within the budget)
            rest = list(self.survivors)
            k = min(len(self.blocks[v]) for v in rest)
            self.log(f"final: {len(rest)} candidates still close ({', '.join(_fmt(v) for v in rest)}): racing "
                     f"them on up to {self.final_blocks * self.b:,} games each")
            centre, _ = self.race(rest, step_no + 1, k=k, max_blocks=self.final_blocks)
        cands = {v: (np.concatenate(b).sum(axis=0), len(b) * self.b) for v, b in self.blocks.items()}
        return SearchResult(best=centre, converged=converged, games=self.used, trace=self.trace,
                            candidates=cands, steps=step_no, probe=probe)


def _fmt(v):
    return "(" + ", ".join(str(x) for x in v) + ")"
