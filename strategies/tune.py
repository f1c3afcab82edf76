"""Tuning of heuristic weights by the cross-entropy method (CEM).

``boardlab tune hellas --players 3 --budget GAMES`` searches the feature
weights of the built-in heuristic against a field of presets:

1. Start from a preset's weights (``--start``, default ``balanced``): a
   Gaussian with that mean and a standard deviation of 30 % of each weight
   (at least 0.1).
2. Each generation samples ``--population`` weight vectors and plays each one
   ``--games`` games, in one seat (rotated over the seats) against the field
   (the other seats cycle through the ``--field`` presets; by default the
   heuristic presets of the game's own preset file, ``presets/<game>.toml``,
   in file order: :func:`default_field`), all candidates on the same game
   seeds (common random numbers).
3. The best quarter (the elite) by mean win share gives the next mean and
   standard deviation (smoothed 0.7 new / 0.3 old; a noise floor that shrinks
   over the generations keeps the search from collapsing early).
4. 20 % of the budget is kept for the end: the final mean and the best
   candidate seen are played on fresh seeds, and the better one is reported
   with its win share against the field and a 95 % confidence interval
   (Wilson, over the games' win shares), then written as a preset file.

The field may hold search seats (``--field mcts:iterations=100,balanced``):
they play inside the kernel like any strategy, only about a thousand times
dearer per game, so such a run prints its estimated time after its first
candidate and its progress every ``PROGRESS_SECONDS``; size its budget for
that (a few thousand games).

``boardlab tune --imitate TEACHER`` fits the weights to a teacher's decisions
instead of searching them (:mod:`strategies.imitate`).
"""
import time

import numpy as np

import strategies
from simcore._contract import HEURISTIC


MAX_BATCH = 10_000_000       # games per candidate per generation: one in-memory batch
PROGRESS_SECONDS = 10        # a slow generation (a searching field) logs its candidates this often


def default_field(game):
    """The default opponents of ``game``: the heuristic presets of ``presets/<game>.toml``, in file order.

    Tuned preset files (``<game>_*.toml``) are left out, so a tuning run never
    plays against an earlier tuning result unless asked to with ``--field``.
    """
    path = strategies.PRESET_DIR / f"{game}.toml"
    if not path.exists():
        raise ValueError(f"no preset file for {game!r} ({path}): give the opponents with --field")
    names = [name for name, s in strategies.load_presets(path, game).items() if s.policy_kind is HEURISTIC]
    if not names:
        raise ValueError(f"{path} has no heuristic preset: give the opponents with --field")
    return ",".join(names)


def _seeds(run_seed, start, n):
    from simcore.rng import game_seeds
    return np.asarray(game_seeds(run_seed, start, start + n), dtype=np.uint64)


def evaluate(game, players, policy, field_policies, seeds):
    """Win share of ``policy`` in one seat against ``field_policies`` (one game per seed).

    Game ``i`` puts the policy in seat ``i % players`` and fills the other
    seats with the field, cycling from game to game. Returns the per-game
    win shares (numpy array).
    """
    import simcore
    mod = simcore.games[game]
    shares = np.empty(len(seeds))
    nf = len(field_policies)
    # group games by (seat, field rotation) so each group is one play_batch call
    for seat in range(players):
        for rot in range(nf):
            idx = [i for i in range(len(seeds)) if i % players == seat and (i // players) % nf == rot]
            if not idx:
                continue
            pols, k = [], rot
            for s in range(players):
                if s == seat:
                    pols.append(policy)
                else:
                    pols.append(field_policies[k % nf])
                    k += 1
            res = mod.play_batch(players, seeds[idx], pols, events=False)
            shares[idx] = res["players"]["win_share"][:, seat]
    return shares


def cem(game="hellas", players=3, budget=50_000, population=12, games=None, field=None,
        start="balanced", seed=0, log=print):
    """Run the cross-entropy search; return a dict with the tuned weights and their evaluation.

    Parameters
    ----------
    budget : int
        Total games, the final evaluation (20 %) included.
    population : int
        Weight vectors per generation.
    games : int, optional
        Games per candidate per generation (default: sized for about 8 generations, at least 60).
    field : str or list, optional
        Comma-separated preset names (or files) of the opponents; default
        :func:`default_field` of ``game``.
    """
    import simcore
    from simcore.run import check_players
    mod = simcore.games[game]
    players = check_players(game, players)
    names = list(mod.FEATURES)
    base = strategies.resolve(game, start)
    if base.policy_kind is not HEURISTIC:
        raise ValueError(f"--start must be a heuristic preset, not {start!r}")
    if field is None:
        field = default_field(game)
    field_names = strategies.split_names(field) if isinstance(field, str) else list(field)
    field_strats = [strategies.resolve(game, n) for n in field_names]
    field_pols = [s.as_policy() for s in field_strats]
    if budget < 100:
        raise ValueError(f"budget must be at least 100 games, not {budget}")
    if isinstance(population, bool) or not isinstance(population, (int, np.integer)) or population < 2:
        raise ValueError(f"population must be at least 2 candidates (the elite is the best quarter, "
                         f"at least two), not {population}")
    search_budget = int(budget * 0.8)
    final_games = budget - search_budget
    if games is None:
        games = max(60, search_budget // (population * 8))
    elif isinstance(games, bool) or not isinstance(games, (int, np.integer)) or games < players:
        raise ValueError(f"games per candidate must be at least the player count ({players}: one game "
                         f"in each seat), not {games}")
    elif population * games > search_budget:
        raise ValueError(f"a generation needs population x games = {population} x {games} = "
                         f"{population * games:,} games, more than the search's 80 % of the budget "
                         f"({search_budget:,}): raise --budget or lower --games / --population")
    games = max(players, int(games))
    if games > MAX_BATCH:
        raise ValueError(f"{games:,} games per candidate are played in memory (at most {MAX_BATCH:,}): "
                         f"lower --budget or give --games")
    generations = max(1, search_budget // (population * games))
    mu = np.array([base.weights.get(n, 0.0) for n in names], dtype=float)
    sigma = np.maximum(0.3 * np.abs(mu), 0.1)
    floor0 = 0.05
    rng = np.random.default_rng(seed)
    best_seen, best_fit = mu.copy(), -1.0
    used = 0
    t0 = time.perf_counter()
    half = max(players, final_games // 2)
    total = generations * population * games + 2 * half
    last_log = t0
    log(f"CEM: {generations} generations x {population} candidates x {games} games, "
        f"{players} players, field: {', '.join(field_names)}")
    searching = any(s.searches for s in field_strats)
    for gen in range(generations):
        seeds = _seeds(seed, 10_000_000 + gen * games, games)
        cands = mu + sigma * rng.standard_normal((population, len(names)))
        cands[0] = mu
        fit = np.empty(population)
        for i, w in enumerate(cands):
            pol = mod.policy_vector(dict(zip(names, w.tolist())))
            fit[i] = evaluate(game, players, pol, field_pols, seeds).mean()
            used += games
            now = time.perf_counter()
            # a slow field (search seats): the estimate after the first candidate, then progress
            if (searching and used == games) or (now - last_log >= PROGRESS_SECONDS and i + 1 < population):
                last_log = now
                left = (now - t0) / used * (total - used)
                log(f"  generation {gen + 1}/{generations}: candidate {i + 1}/{population} "
                    f"({used:,}/{total:,} games, {now - t0:.0f} s, about {left:.0f} s left)")
        order = np.argsort(-fit)
        n_elite = max(2, population // 4)
        elite = cands[order[:n_elite]]
        if fit[order[0]] > best_fit:
            best_fit, best_seen = float(fit[order[0]]), cands[order[0]].copy()
        floor = floor0 * (1 - gen / generations)
        mu = 0.7 * elite.mean(0) + 0.3 * mu
        sigma = np.maximum(0.7 * elite.std(0) + 0.3 * sigma, floor)
        log(f"  generation {gen + 1}/{generations}: best {fit[order[0]]:.3f}, mean of elite "
            f"{fit[order[:n_elite]].mean():.3f}, current mean {fit[0]:.3f} ({time.perf_counter() - t0:.0f} s)")
    # final: the mean and the best candidate seen, on fresh seeds
    seeds = _seeds(seed, 20_000_000, half)
    if searching:
        log(f"  final: the mean and the best candidate on {half:,} fresh games each "
            f"(about {(time.perf_counter() - t0) / used * 2 * half:.0f} s)")
    finals = []
    for label, w in (("final mean", mu), ("best candidate", best_seen)):
        pol = mod.policy_vector(dict(zip(names, w.tolist())))
        shares = evaluate(game, players, pol, field_pols, seeds)
        finals.append((shares.mean(), label, w, shares))
    used += 2 * half
    finals.sort(key=lambda t: -t[0])
    _, label, w, shares = finals[0]
    return {"weights": dict(zip(names, [round(float(v), 4) for v in w])), "picked": label,
            "win_share": float(shares.mean()), "wins": float(shares.sum()), "n": len(shares), "games_used": used,
            "players": players, "field": field_names, "start": start, "seed": seed,
            "generations": generations, "population": population, "games_per_candidate": games,
            "seconds": time.perf_counter() - t0}


def write_preset(path, name, result, game="hellas", description=None):
    """Write a tuning result as a preset TOML file (loadable by ``strategies.resolve``).

    ``result`` is :func:`cem`'s, with ``ci``: the (lo, hi) 95 % interval of its win share.
    """
    lo, hi = result["ci"]
    desc = description or (f"tuned by CEM ({result['players']} players, {result['games_used']} games) "
                           f"against {', '.join(result['field'])}")
    lines = [f"# Tuned by `boardlab tune {game}`: cross-entropy method from '{result['start']}',",
             f"# {result['generations']} generations x {result['population']} candidates x "
             f"{result['games_per_candidate']} games, seed {result['seed']}.",
             f"# Win share in one seat of {result['players']} against {', '.join(result['field'])}: "
             f"{result['win_share']:.3f} (95% CI {lo:.3f}-{hi:.3f}, n={result['n']} fresh games)."]
    lines += [f"# {m}." for m in result.get("models", ())]         # a learned opponent's model file and hash
    lines += [f'game = "{game}"', "", f"[{name}]", f'description = "{desc}"',
              "temperature = 0.0", "epsilon = 0.0", f"[{name}.weights]"]
    lines += [f"{k} = {v!r}" for k, v in result["weights"].items()]
    from simcore._data import write_text_atomic
    write_text_atomic(path, "\n".join(lines) + "\n")       # a full disk leaves no 0-byte preset
    strategies.load_presets(path, game)      # check it loads
    return path
