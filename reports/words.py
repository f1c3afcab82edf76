"""The words a person reads: one numbering convention for seats and rounds, and the glossary.

Data keep their own numbering: the ``seat`` column of the Parquet tables, the frames of
``reports.api`` and the CSV tables count seats from 0 (seat 0 starts). Everything written for
a person (report text, figure axes, terminal tables) counts from 1: seat 0 is "player 1
(starts)", seat 1 "player 2"; round 0 of the engines is "round 1".
"""
import polars as pl


def player_name(seat, starts=True) -> str:
    """``0`` -> ``"player 1 (starts)"``, ``1`` -> ``"player 2"`` (``starts=False``: no note on player 1)."""
    seat = int(seat)
    return f"player {seat + 1}" + (" (starts)" if starts and seat == 0 else "")


def player_label(seat) -> str:
    """Short form for axes and table cells: ``0`` -> ``"P1"``."""
    return f"P{int(seat) + 1}"


def round_name(round_index) -> str:
    """An engine's 0-based round -> ``"round 1"``."""
    return f"round {int(round_index) + 1}"


#: the smallest seat effect worth detecting (a fraction: 1 pp), the balance target of ``boardlab balance``
EFFECT = 0.01
#: fewer games than this: under-powered whatever the interval
MIN_GAMES = 100


def underpowered(lo, hi, n=None, null=0.0, effect=EFFECT) -> bool:
    """True when the interval ``[lo, hi]`` (fractions) is too wide to answer its question.

    The question is whether the estimate differs from ``null`` by ``effect`` or more (a seat's win share
    from the fair share, a gap from 0): the interval is under-powered when it holds ``null`` and also
    reaches ``null ± effect`` (a no-effect and an effect that matters cannot be told apart), or when it
    rests on fewer than :data:`MIN_GAMES` games. ``null=effect`` asks "is the gap at most ``effect``?"
    (a compensation's target): under-powered when the interval holds it.

    >>> underpowered(-0.004, 0.016), underpowered(0.004, 0.016), underpowered(-0.003, 0.003)
    (True, False, False)
    """
    if n is not None and n < MIN_GAMES:
        return True
    if not (lo <= null <= hi):
        return False
    return null == effect or hi >= null + effect or lo <= null - effect


def knob_words(game, knob, n=2) -> str:
    """What ``n`` units of a seat-compensation ``knob`` are in ``game``: "points" for ``seat_points``, else
    the starting resource the game's ``SEAT_BONUS_UNIT`` names ("starting marble", "starting coins")."""
    if knob == "seat_points":
        return "point" if abs(n) == 1 else "points"
    import simcore

    one, many = getattr(simcore.get_game(game), "SEAT_BONUS_UNIT", None) or ("resource", "resources")
    return "starting " + (one if abs(n) == 1 else many)


#: Every statistic and column a report uses, in plain words (the report's glossary).
GLOSSARY = {
    "player 1 (starts)": "The player who takes the first turn (seat 0 in the data files); player 2 "
                         "plays next, and so on.",
    "win share": "The share of games a player wins; a k-way tie counts 1/k of a win for each of the k "
                 "players. Fair share: 1/n for n players.",
    "fair share": "1/n of the games for n players: what every player would win if the seats were equal.",
    "deviation, pp": "A win share minus the fair share, in percentage points (pp): +3 pp means 3 more "
                     "games won in 100 than the fair share.",
    "largest seat gap": "The largest distance of any player's win share from the fair share, in pp, with "
                        "a 95% interval that holds for all players at once.",
    "95% CI / interval": "The range that holds the true value in 95% of repeated experiments; `lo`/`hi` "
                         "columns (`win_lo`, `win_hi`, `dev_lo`, ...) are its ends. Two intervals that "
                         "overlap do not show a difference.",
    "Wilson interval": "The 95% interval of a share used for win shares (good near 0% and 100% and for "
                       "small counts).",
    "n, games": "How many games an estimate rests on; more games, narrower intervals.",
    "compensation": "Points (seat_points: added to a player's final total) or starting resources "
                    "(seat_bonus) given per seat to even out the seats; searched on common seeds and "
                    "verified on fresh games.",
    "verified": "Checked on games the search never saw, the same seeds with and without the compensation.",
    "chi-square test, p": "Whether all seats win equally often: a small p (below 0.05) means the seats "
                          "differ by more than chance explains.",
    "coef, logit": "The change in the log-odds of winning per point of a score category (a logistic "
                   "regression); larger means that category decides more games.",
    "uplift": "The difference in win share between players who took a component and comparable players "
              "who did not (a regression with the other choices held fixed).",
    "Bradley–Terry rating, Elo": "A strength per strategy from who finished ahead of whom; 1500 is the "
                                 "field's average, +100 means ahead in about 64% of pairs.",
    "margin": "The winner's score minus the runner-up's.",
    "lead changes, comeback": "How often the leader changed during a game; a comeback is a win by a player "
                              "who trailed at the chosen point.",
    "random play": "Every player picks uniformly among its legal moves: a floor, not how people play; "
                   "seat advantages under random play say little about real games.",
    "quick run": "A small run (--quick) to try the pipeline: its intervals are wide and its findings are "
                 "not settled.",
    "under-powered": "An estimate whose 95% interval is too wide to answer its question: a win share or a "
                     "seat's gap from fair whose interval holds 0 (no gap) and also reaches 1 pp (so a fair "
                     "seat and one 1 pp off cannot be told apart); a compensation whose remaining gap's "
                     "interval holds the 1 pp target (neither met nor missed); a robustness condition whose "
                     "interval holds 0 (unclear); or any estimate from fewer than 100 games. The figure, the "
                     "cell and the report's first line say so; more games narrow the interval "
                     "(its half-width shrinks as 1/√games).",
    "holds across bots and assumed rules": "The seat advantage found with the study's bot, replayed on the "
                     "same seeds with every other bot in every seat and with each assumed rule of the spec "
                     "(H-D, Y-D, A-D decisions) switched to its alternative. Per condition, the player with the "
                     "largest gap: *holds* (same side of fair, interval excluding 0), *flips* (the other "
                     "side), *unclear* (interval holding 0; intervals simultaneous over the conditions). The "
                     "compensation *holds* under a condition when the largest gap with it has an interval "
                     "reaching down to 1 pp.",
    "pp": "Percentage points: the difference of two percentages (35% − 33% = 2 pp).",
}


def dominance_text(dom: pl.DataFrame) -> str:
    """One sentence: the dominant strategy (beats every other head-to-head, 95% CIs), or why there is none."""
    if dom.height < 2:
        return "Strategy dominance: one strategy only, nothing to compare."
    top = dom.filter(pl.col("dominant"))
    if top.height:
        r = top.row(0, named=True)
        return (f"Dominant strategy: {r['strategy']} beats every other strategy head-to-head (each 95% CI "
                f"above ½); its closest match-up is {r['weakest_against']}, "
                f"{r['weakest_share'] * 100:.1f}% [{r['weakest_lo'] * 100:.1f}, {r['weakest_hi'] * 100:.1f}] "
                f"of {r['n_min']:,}+ pairs.")
    r = dom.row(0, named=True)
    return (f"No strategy beats every other one head-to-head (95% CIs): the best, {r['strategy']}, beats "
            f"{r['beats']} of {r['opponents']}; against {r['weakest_against']} it finishes ahead in "
            f"{r['weakest_share'] * 100:.1f}% [{r['weakest_lo'] * 100:.1f}, {r['weakest_hi'] * 100:.1f}] of pairs.")


# ---------------------------------------------------------------- robustness, in a cell of the first screen
# (``reports.render.robustness`` has the sections; these words are here so that ``reports.firstscreen``
# needs no section builder)

def _pp(x, digits=1):
    return f"{x:+.{digits}f}".replace("-", "−")


def _short(label):
    """A rule switch's label without its value's long tail (``H-D3 board=pegasus`` stays)."""
    return label if len(label) <= 34 else label[:32] + "…"


def seat_verdicts(entry, seat, sign):
    """``[(condition, kind, status, advantage_pp, change_pp)]`` of ``seat`` under every condition but the
    baseline; ``sign``: +1 (the finding favours the seat), -1 (disfavours) or 0 (no gap shown)."""
    out = []
    for r in entry["table"]:
        if r["seat"] != seat or r["kind"] == "baseline":
            continue
        now = 1 if r["lo_pp"] > 0 else -1 if r["hi_pp"] < 0 else 0
        if sign == 0:
            status = "even" if now == 0 else ("favoured" if now > 0 else "disfavoured")
        else:
            status = "unclear" if now == 0 else ("holds" if now == sign else "flips")
        out.append((r["condition"], r["kind"], status, r["advantage_pp"], r["change_pp"]))
    return out


def _names(labels, most=2):
    labels = [_short(x) for x in labels]
    return ", ".join(labels) if len(labels) <= most else ", ".join(labels[:most]) + f" +{len(labels) - most}"


def glance_text(entry, seat, sign):
    """The first screen's "holds across bots and assumed rules" cell for one player count, terse: per
    kind of condition how many keep the finding about player ``seat`` (``sign``: +1 favoured, -1
    disfavoured, 0 no gap shown), where it flips and how many are unclear (under-powered); then
    under how many conditions the compensation keeps the gap within 1 pp.

    E.g. ``bots: 4/6 hold, 1 flips (random +3.1 pp), 1 unclear · assumed rules: 11/11 hold ·
    compensation ≤ 1 pp under 15/18; misses random 6.0 pp +2``."""
    v = seat_verdicts(entry, seat, sign)
    if not v:
        return "no other condition played"
    ok = "even" if sign == 0 else "holds"
    parts = []
    for kind, word in (("bot", "bots"), ("rule", "assumed rules")):
        mine = [x for x in v if x[1] == kind]
        if not mine:
            continue
        good = sum(x[2] == ok for x in mine)
        bits = [f"{good}/{len(mine)} {'even' if sign == 0 else 'hold'}"]
        flips = [x for x in mine if x[2] in ("flips", "favoured", "disfavoured")]
        if flips:
            bits.append(f"{len(flips)} {'flip' + 's' * (len(flips) == 1) if sign else 'show a gap'} ("
                        + ", ".join(f"{_short(x[0])} {_pp(x[3])} pp" for x in flips[:2])
                        + (f" +{len(flips) - 2}" if len(flips) > 2 else "") + ")")
        unclear = sum(x[2] == "unclear" for x in mine)
        if unclear:
            bits.append(f"{unclear} unclear")
        parts.append(f"{word}: " + ", ".join(bits))
    text = " · ".join(parts)
    if entry.get("missing"):
        text += " (no learned model at this count)"
    comp = entry.get("compensation")
    if comp:
        rows = comp["rows"]
        missed = sorted((r for r in rows if not r["holds"]), key=lambda r: -r["gap_pp"])
        text += (f" · compensation ≤ 1 pp under {len(rows) - len(missed)}/{len(rows)}"
                 + ("" if not missed else "; misses " + ", ".join(
                     f"{_short(r['condition'])} {r['gap_pp']:.1f} pp" for r in missed[:2])
                     + (f" +{len(missed) - 2}" if len(missed) > 2 else "")))
    return text
