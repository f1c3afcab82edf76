"""Fingerprint of what the engines play: SHA-256 over every array ``play_batch`` returns.

    PYTHONPATH=. python bench/digest.py                  # every game, 600 games per line-up
    PYTHONPATH=. python bench/digest.py akrotiri -n 2000 -v

A speed-up of an engine or a heuristic must leave the games as they were: run
this before the change and after it, and compare the digests. For each game and
player count it plays, with events on, the line-ups

    balanced   ``balanced`` in every seat
    mixed      every heuristic preset in turn, one per seat
    random     one seat random, the others ``balanced``
    noise      ``balanced`` with a softmax temperature and an epsilon, beside a preset
    all random random play in every seat

and hashes every column of the ``games``, ``players`` and ``events`` tables
(name, dtype, shape and bytes). ``--parts games,players`` leaves the events out,
for a change that is meant to alter only the events; ``--skip COL,...`` leaves
the named columns out (any table), for a change that only adds columns: the
digest without them must equal the one from before. The digest depends on
nothing but the engines, the presets and the data files.

    PYTHONPATH=. python bench/digest.py --skip lead_changes,led_from,max_deficit,space_house,...
"""
import argparse
import hashlib
import sys

import numpy as np


def lineups(game, players):
    import strategies

    names = [n for n, s in strategies.presets(game).items() if s.kind == "heuristic"]
    pol = {n: strategies.resolve(game, n).as_policy() for n in names}
    balanced = strategies.resolve(game, "balanced")
    try:
        noisy = balanced.with_noise(temperature=0.3, epsilon=0.05).as_policy()
    except ValueError:          # an argmax-only heuristic (Akrotiri): epsilon alone
        noisy = balanced.with_noise(epsilon=0.05).as_policy()
    return {
        "balanced": [pol["balanced"]] * players,
        "mixed": [pol[names[(k + players) % len(names)]] for k in range(players)],
        "random": [None] + [pol["balanced"]] * (players - 1),
        "noise": [noisy] + [pol[names[(k + 1) % len(names)]] for k in range(players - 1)],
        "all random": [None] * players,
    }


def feed(h, res, parts, skip=()):
    for part in parts:
        for key in sorted(res[part]):
            if key in skip:
                continue
            a = np.ascontiguousarray(res[part][key])
            h.update(f"{part}/{key}/{a.dtype}/{a.shape}".encode())
            h.update(a.tobytes())


def digest(game, n=600, parts=("games", "players", "events"), verbose=False, out=print, skip=()):
    """Return the hex digest of ``game``; with ``verbose``, print one short digest per line-up."""
    import simcore
    from simcore.rng import game_seeds

    mod = simcore.games[game]
    total = hashlib.sha256()
    for players in mod.PLAYERS:
        seeds = np.asarray(game_seeds(2026, players * 1000, players * 1000 + n), dtype=np.uint64)
        for name, pols in lineups(game, players).items():
            h = hashlib.sha256()
            feed(h, mod.play_batch(players, seeds, pols, events="events" in parts), parts, skip)
            total.update(h.digest())
            if verbose:
                out(f"  {game} {players}p {name:<10} {h.hexdigest()[:16]}")
    return total.hexdigest()


def main(argv=None):
    import simcore

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("games", nargs="*", help="games (default: all registered)")
    ap.add_argument("-n", type=int, default=600, help="games per line-up and player count (default 600)")
    ap.add_argument("--parts", default="games,players,events", help="tables to hash (default: all three)")
    ap.add_argument("--skip", default="", help="columns to leave out, comma-separated (added columns)")
    ap.add_argument("-v", "--verbose", action="store_true", help="one digest per line-up too")
    args = ap.parse_args(argv)
    parts = tuple(p.strip() for p in args.parts.split(",") if p.strip())
    bad = sorted(set(parts) - {"games", "players", "events"})
    if bad or not parts:
        ap.error(f"--parts: unknown table {', '.join(bad) or '(none)'} (known: games, players, events)")
    if args.n <= 0:
        ap.error(f"-n must be a positive integer, not {args.n}")
    skip = tuple(c.strip() for c in args.skip.split(",") if c.strip())
    games = args.games or list(simcore.games)
    for g in games:
        if g not in simcore.games:
            ap.error(f"unknown game '{g}' (known: {', '.join(simcore.games)})")
    for g in games:
        print(f"{g} n={args.n} parts={','.join(parts)} {digest(g, args.n, parts, args.verbose, skip=skip)}", flush=True)


if __name__ == "__main__":
    sys.exit(main())
