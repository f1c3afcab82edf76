"""Imitation of search: fit the heuristic's weights to a teacher's decisions.

``boardlab tune hellas --players 3 --imitate mcts:iterations=400`` plays games
with the teacher (by default the ISMCTS agent) in every seat and records, at
each decision, the heuristic's feature vector of every legal action
(:func:`action_features`) and what the teacher did: its chosen action
(``--target best``, the default) or the search's visit distribution over the
root actions (``--target visits``). The built-in heuristic scores an action as
the weighted sum of its features, so a conditional logit (softmax over the
legal actions of ``w . features``) fitted by maximum likelihood fits the
heuristic's weights directly (:func:`fit_logit`; an L2 prior toward the start
preset's direction on the standardized weights, its strength picked on
held-out games).

Where the heuristic's score also holds terms no weight multiplies (Akrotiri:
-5 for a purchase it rules out, -0.5 per drachma a purchase costs, -3 for an
unload), the engine returns them as a per-action offset and the score is
``w . features + offset``. The logit then carries the offset with its
coefficient fixed (an offset term): ``softmax((w . features + offset) / T)``,
fitted as ``softmax(b . features + offset / T)`` for each temperature ``T`` of
:data:`OFFSET_TEMPERATURES` (``T = 1``: the offset's coefficient is 1), ``T``
picked with the L2 strength on the held-out games; the preset's weights are
``T * b``, so its argmax is that of the fitted logit, offset included.

1. :func:`collect` plays ``positions`` decisions: game ``i`` from seed
   ``game_seeds(seed, i)``, every seat the teacher (its search seeded from
   the seat's decision, :func:`strategies.agents.decision_seed`), so the
   record is deterministic from the seed.
2. The last fifth of the decisions (the last games) is held out: each L2
   strength of :data:`L2_GRID` is fitted on the rest and the one with the best
   held-out log-likelihood is refitted on everything.
3. Some features depend on the weights themselves (Hellas' ``space_value`` is
   the seat's own weighted score of the best follow-up), so the features are
   first computed with the ``--start`` preset's weights, then recomputed with
   the fitted weights and fitted again (at most :data:`ROUNDS` rounds; the
   fit whose own features give the best held-out log-likelihood is kept).
4. The fitted weights (in the logit's units: at temperature 1 the preset is
   the fitted stochastic policy; the preset plays argmax, temperature 0;
   with an offset, ``T`` times the logit's, in the offset's units) are
   written as a preset file (:func:`write_preset`), with the held-out top-1
   agreement with the teacher of the start preset and of the fit, and the
   new preset's win share in one seat against the start preset.

A teacher may also be a heuristic preset with softmax noise
(``--imitate balanced`` after ``with_noise``): its sampled actions are the
targets, which is how the tests check that the fit recovers known weights.
"""
import time
from pathlib import Path

import numpy as np

import strategies
from simcore._contract import HEURISTIC, RANDOM, SEARCH

#: L2 strengths (on weights standardized by each feature's spread) tried on the held-out games.
L2_GRID = (0.1, 1.0, 10.0, 100.0, 1000.0)
#: Temperatures of the fitted logit tried where the engine has offsets (the offset's
#: coefficient in the logit is 1 / T; 1 is the offset taken as it is).
OFFSET_TEMPERATURES = (0.5, 1.0, 2.0, 4.0, 8.0, 16.0)
#: Fits in all: the first with the start preset's features, then with the fitted weights' features.
ROUNDS = 3
TARGETS = ("visits", "best")
#: The teacher when none is named: the search at the game's default settings.
DEFAULT_TEACHER = SEARCH.name


def supports(game):
    """Whether ``game``'s engine exposes the heuristic's per-action features (all three do)."""
    import simcore
    return hasattr(simcore.games[game], "policy_features")


def action_features(game, state, policy):
    """``(actions, matrix, offsets)``: the heuristic's features of every legal action at ``state``.

    The game contract's ``policy_features(state, policy)``: the heuristic's score
    of action ``i`` is ``matrix[i] @ weights + offsets[i]`` (``weights``: the
    first ``len(FEATURES)`` entries of ``policy``; the offset is the part of the
    score no weight multiplies, 0 in Hellas and Yamataï); ``policy`` matters only
    for features that depend on the weights (Hellas' ``space_value``).
    """
    import simcore
    mod = simcore.games[game]
    if not supports(game):
        raise ValueError(f"{game}'s heuristic has no per-action feature accessor (policy_features): "
                         f"imitation works for {', '.join(g for g in simcore.games if supports(g))}")
    actions, matrix, offsets = mod.policy_features(state, policy)
    actions = list(actions)
    return (actions, np.asarray(matrix, dtype=float).reshape(len(actions), len(mod.FEATURES)),
            np.asarray(offsets, dtype=float))


def _teacher(game, teacher, seed):
    """``decide(state) -> (actions, target distribution, chosen action)`` of the teacher strategy."""
    from simcore._search import ops_policy_action
    from strategies.agents import decision_seed
    from strategies.mcts import MCTSAgent

    if teacher.searches:
        agent = MCTSAgent(game=game, seed=seed, **teacher.search)

        def decide(state):
            r = agent.search(state)
            actions = state.legal_actions()
            visits = np.zeros(len(actions))       # the root may hold only some of the legal actions
            where = {a: i for i, a in enumerate(actions)}
            for a, v in zip(r["actions"], r["visits"]):
                visits[where[int(a)]] = v
            return actions, visits / visits.sum(), int(r["best"])
        return decide
    if teacher.policy_kind is not HEURISTIC:
        raise ValueError(f"the teacher must be a search (mcts:...) or a heuristic preset, not {teacher.kind!r}")
    policy = teacher.as_policy()

    def decide(state):
        actions = state.legal_actions()
        a = int(ops_policy_action(state, [policy] * state.players, decision_seed(state, seed)))
        p = np.zeros(len(actions))
        p[actions.index(a)] = 1.0
        return actions, p, a
    return decide


def collect(game, players, teacher=DEFAULT_TEACHER, positions=5000, seed=0, log=print):
    """Play ``positions`` decisions with ``teacher`` in every seat; return the record.

    Returns
    -------
    dict
        ``states`` (a clone per decision), ``actions`` (legal actions),
        ``visits`` (the teacher's distribution over them), ``best`` (its
        action), ``game`` (the game index of each decision), ``games`` and
        ``seconds``.
    """
    import simcore
    from simcore.rng import game_seeds
    from simcore.run import check_players

    players = check_players(game, players)
    mod = simcore.games[game]
    teach = teacher if isinstance(teacher, strategies.Strategy) else strategies.resolve(game, teacher)
    decide = _teacher(game, teach, seed)
    config = mod.make_config(players)
    rec = {"states": [], "actions": [], "visits": [], "best": [], "game": []}
    t0 = time.perf_counter()
    step = max(1, positions // 10)
    g = 0
    while len(rec["best"]) < positions:
        state = mod.State.new(config, int(game_seeds(seed, g, g + 1)[0]))
        while not state.is_over() and len(rec["best"]) < positions:
            actions, p, a = decide(state)
            rec["states"].append(state.clone())
            rec["actions"].append(actions)
            rec["visits"].append(p)
            rec["best"].append(a)
            rec["game"].append(g)
            state.apply(a)
            n = len(rec["best"])
            if log and (n % step == 0 or n == positions):
                el = time.perf_counter() - t0
                log(f"  {n:,}/{positions:,} positions ({g + 1} games, {el:.0f} s, "
                    f"about {el / n * (positions - n):.0f} s left)")
        g += 1
    rec["game"] = np.asarray(rec["game"])
    rec["games"] = g
    rec["seconds"] = time.perf_counter() - t0
    return rec


def _stack(mats, targets):
    """Stacked rows (``X``), targets, the first row of each decision and the decision of each row."""
    sizes = np.array([len(t) for t in targets])
    starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    X = np.vstack(mats) if mats else np.zeros((0, 0))
    return X, np.concatenate(targets), starts, np.repeat(np.arange(len(sizes)), sizes)


def _offset(offsets, rows):
    """The stacked offsets (0 where ``offsets`` is None)."""
    if offsets is None:
        return np.zeros(rows)
    o = np.concatenate([np.asarray(v, dtype=float).reshape(-1) for v in offsets])
    if len(o) != rows:
        raise ValueError(f"the offsets hold {len(o)} entries for {rows} legal actions")
    return o


def _scaled(offsets, temperature):
    """``offsets`` divided by ``temperature`` (the logit's offset at that temperature); None: no offset."""
    return None if temperature is None else [o / temperature for o in offsets]


def _log_softmax(z, starts, group):
    m = np.maximum.reduceat(z, starts)
    e = np.exp(z - m[group])
    lse = np.log(np.add.reduceat(e, starts)) + m
    return z - lse[group]


def fit_logit(mats, targets, l2=1.0, init=None, prior=None, offsets=None):
    """Conditional-logit maximum likelihood: the weights ``w`` of ``softmax(matrix @ w + offset)`` per decision.

    Parameters
    ----------
    mats : list of numpy.ndarray
        One ``legal x features`` matrix per decision.
    targets : list of numpy.ndarray
        One distribution over that decision's legal actions per decision (a
        one-hot vector for a single chosen action; visit shares for a search).
    l2 : float
        Strength of the Gaussian prior ``l2 / 2 * sum((w_k * s_k)**2)``, ``s_k``
        the spread (standard deviation over all rows) of feature ``k``: a
        feature that never varies gets weight 0.
    init : numpy.ndarray, optional
        Starting weights (default 0).
    prior : numpy.ndarray, optional
        The prior's direction ``m``: the penalty is on ``w - c * m`` instead of
        ``w``, with the scale ``c >= 0`` fitted too (the logit's units are not the
        preset's), so a strong prior keeps the argmax of ``m`` and a weak one lets
        the data move it. Default: no direction (shrink toward 0).
    offsets : list of numpy.ndarray, optional
        One vector per decision (one entry per legal action) added to the
        log-odds with its coefficient fixed at 1 (an offset term: the part of
        the heuristic's score no weight multiplies). Default: none.

    Returns
    -------
    numpy.ndarray
        The weights (in the logit's units: ``matrix @ w`` is the log-odds).

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> w = np.array([1.0, -2.0])
    >>> mats = [rng.normal(size=(4, 2)) for _ in range(3000)]
    >>> targets = [np.eye(4)[rng.choice(4, p=np.exp(m @ w) / np.exp(m @ w).sum())] for m in mats]
    >>> np.round(fit_logit(mats, targets, l2=0.01), 1)
    array([ 1., -2.])
    """
    from scipy.optimize import minimize

    X, p, starts, group = _stack(mats, targets)
    off = _offset(offsets, len(X))
    s = X.std(axis=0)
    live = s > 1e-12
    Z = np.where(live, X / np.where(live, s, 1.0), 0.0)
    k = X.shape[1]

    m = np.zeros(k) if prior is None else np.where(live, np.asarray(prior, dtype=float) * s, 0.0)

    def loss(bc):
        b, c = bc[:k], bc[k]
        ls = _log_softmax(Z @ b + off, starts, group)
        q = np.exp(ls)
        d = b - c * m
        f = -(p * ls).sum() + 0.5 * l2 * (d @ d)
        grad = np.append(Z.T @ (q - p) + l2 * d, -l2 * (d @ m))
        return f, grad

    b0 = np.zeros(k) if init is None else np.where(live, np.asarray(init, dtype=float) * s, 0.0)
    c0 = 0.0 if prior is None else max(0.0, float(b0 @ m) / max(float(m @ m), 1e-12))
    res = minimize(loss, np.append(b0, c0), jac=True, method="L-BFGS-B",
                   bounds=[(None, None)] * k + [(0.0, None) if prior is not None else (0.0, 0.0)],
                   options={"maxiter": 5000, "gtol": 1e-8})
    return np.where(live, res.x[:k] / np.where(live, s, 1.0), 0.0)


def log_likelihood(mats, targets, w, offsets=None):
    """Mean log-likelihood per decision of ``targets`` under ``softmax(matrix @ w + offset)``."""
    X, p, starts, group = _stack(mats, targets)
    return float((p * _log_softmax(X @ w + _offset(offsets, len(X)), starts, group)).sum() / len(targets))


def agreement(mats, best_index, w, offsets=None):
    """Share of decisions where ``argmax(matrix @ w + offset)`` is the teacher's action (ties: a share)."""
    hits = 0.0
    offsets = [0.0] * len(mats) if offsets is None else offsets
    for m, b, o in zip(mats, best_index, offsets):
        sc = m @ w + o
        top = np.flatnonzero(sc >= sc.max() - 1e-9 * max(1.0, abs(sc.max())))
        hits += (b in top) / len(top)
    return hits / len(mats)


def imitate(game="hellas", players=3, teacher=DEFAULT_TEACHER, positions=5000, seed=0, start="balanced",
            target="best", eval_games=2000, log=print):
    """Collect the teacher's decisions and fit the heuristic's weights to them; return a result dict.

    Parameters
    ----------
    teacher : str or Strategy
        ``mcts`` / ``mcts:iterations=400`` / a preset (its softmax or epsilon noise samples the actions).
    positions : int
        Decisions recorded (every seat's).
    start : str
        Heuristic preset whose weights compute the first round's weight-dependent features.
    target : str
        ``best``: the teacher's chosen action (default); ``visits``: the search's visit shares.
    eval_games : int
        Games of the new preset in one seat (rotated) against the start preset (0: none).
    """
    import simcore
    from simcore.run import check_players
    from strategies.tune import _seeds, evaluate

    players = check_players(game, players)
    if not supports(game):
        action_features(game, None, None)            # raises the error that names the supported games
    if target not in TARGETS:
        raise ValueError(f"target must be one of {', '.join(TARGETS)}, not {target!r}")
    if isinstance(positions, bool) or not isinstance(positions, (int, np.integer)) or positions < 20:
        raise ValueError(f"positions must be at least 20 decisions, not {positions}")
    mod = simcore.games[game]
    names = list(mod.FEATURES)
    base = strategies.resolve(game, start)
    if base.policy_kind is not HEURISTIC:
        raise ValueError(f"--start must be a heuristic preset, not {start!r}")
    teach = teacher if isinstance(teacher, strategies.Strategy) else strategies.resolve(game, teacher)
    if teach.policy_kind is RANDOM:
        raise ValueError("the teacher must be a search (mcts:...) or a heuristic preset, not random")
    teacher_name = teach.name if isinstance(teacher, strategies.Strategy) else str(teacher)
    log = log or (lambda line: None)
    t0 = time.perf_counter()
    log(f"imitation of {teacher_name}: {positions:,} decisions, {players} players, teacher in every seat")
    rec = collect(game, players, teach, positions, seed, log)
    targets = rec["visits"] if target == "visits" else [
        (np.asarray(a) == b).astype(float) for a, b in zip(rec["actions"], rec["best"])]
    best_index = [a.index(b) for a, b in zip(rec["actions"], rec["best"])]
    games = rec["game"]
    held = np.arange(len(games)) >= len(games) - max(1, len(games) // 5)     # the last fifth of the decisions
    train, test = np.flatnonzero(~held), np.flatnonzero(held)

    def features(policy):
        mats, offs = [], []
        for st, acts in zip(rec["states"], rec["actions"]):
            a, m, o = action_features(game, st, policy)
            if list(a) != list(acts):
                raise RuntimeError("the features' actions differ from the recorded legal actions")
            mats.append(m)
            offs.append(o)
        return mats, offs

    def pick(seq):
        return [seq[i] for i in test], [seq[i] for i in train]

    base_vec = np.array([base.weights.get(n, 0.0) for n in names])
    pol = base.as_policy()
    mats, offs = features(pol)
    has_offset = any(o.any() for o in offs)
    # offsets: softmax((w . f + offset) / T) for each T; none: softmax(b . f), T stands for the scale
    temps = OFFSET_TEMPERATURES if has_offset else (None,)
    base_agree = agreement(pick(mats)[0], pick(best_index)[0], base_vec, pick(offs)[0])
    history, w = [], base_vec
    for rnd in range(ROUNDS):
        (te_m, tr_m), (te_t, tr_t), (te_o, tr_o) = pick(mats), pick(targets), pick(offs)
        fits = [(log_likelihood(te_m, te_t, wl, _scaled(te_o, t)), -l2, t, wl)
                for t in temps for l2 in L2_GRID       # the strength (and T) with the best held-out fit
                for wl in [fit_logit(tr_m, tr_t, l2, prior=base_vec,
                                     offsets=_scaled(tr_o, t))]]
        _, neg_l2, temp, w_tr = max(fits, key=lambda f: (f[0], f[1], -(f[2] or 0)))
        beta = fit_logit(mats, targets, -neg_l2, init=w_tr, prior=base_vec,
                         offsets=_scaled(offs, temp))
        if temp is None:
            # the preset's weights: the logit's, scaled to the start preset's size (weight-dependent
            # features such as space_value grow with the weights, so the scale matters); it computes
            # those features with its own weights, so it is judged with them
            w = beta * (np.linalg.norm(base_vec) / max(np.linalg.norm(beta), 1e-12))
        else:
            w = beta * temp             # argmax of w . f + offset = argmax of the fitted logit
        before, (mats, offs) = mats, features(mod.policy_vector(dict(zip(names, w.tolist()))))
        fixed = all(np.array_equal(a, b) for a, b in zip(before, mats))    # no weight-dependent feature
        te_m, te_o = pick(mats)[0], pick(offs)[0]
        ll = log_likelihood(te_m, te_t, beta, _scaled(te_o, temp))
        agree = agreement(te_m, pick(best_index)[0], w, te_o)
        history.append({"round": rnd + 1, "l2": -neg_l2, "temperature": temp, "held_out_loglik": ll,
                        "held_out_agreement": agree, "weights": w})
        log(f"  fit {rnd + 1}/{ROUNDS}: L2 {-neg_l2:g}"
            + ("" if temp is None else f", temperature {temp:g} (the offset's coefficient 1/{temp:g})")
            + f", held-out log-likelihood {ll:.3f} per decision, "
            f"top-1 agreement with the teacher {agree:.3f} (start preset {base_agree:.3f}, "
            f"n={len(test)} held-out decisions)")
        if fixed:
            break
    chosen = max(history, key=lambda h: (h["held_out_loglik"], -h["round"]))
    w = chosen.pop("weights")
    for h in history:
        h.pop("weights", None)
    weights = dict(zip(names, [round(float(v), 4) for v in w]))
    out = {"weights": weights, "teacher": teacher_name, "target": target, "positions": positions,
           "games": rec["games"], "players": players, "seed": seed, "start": start,
           "held_out": len(test), "base_agreement": base_agree, "agreement": chosen["held_out_agreement"],
           "round": chosen["round"], "temperature": chosen["temperature"],
           "rounds": history, "collect_seconds": rec["seconds"]}
    if eval_games:
        n = max(players, int(eval_games))
        shares = evaluate(game, players, mod.policy_vector(weights), [pol], _seeds(seed, 30_000_000, n))
        out.update(win_share=float(shares.mean()), wins=float(shares.sum()), n=n)
    out["seconds"] = time.perf_counter() - t0
    return out


def write_preset(path, name, result, game="hellas", description=None):
    """Write an imitation result as a preset TOML file (loadable by ``strategies.resolve``)."""
    r = result
    desc = description or (f"fitted to {r['teacher']}'s decisions ({r['players']} players, "
                           f"{r['positions']} positions, target {r['target']})")
    lines = [f"# Imitation by `boardlab tune {game} --imitate {r['teacher']}`: conditional logit fitted to",
             f"# the {r['target']} of the teacher at {r['positions']:,} decisions of {r['games']} self-play games "
             f"({r['players']} players), seed {r['seed']},",
             f"# features first from '{r['start']}'. Held-out top-1 agreement with the teacher: "
             f"{r['agreement']:.3f} ('{r['start']}': {r['base_agreement']:.3f}; n={r['held_out']} decisions)."]
    if r.get("temperature") is not None:
        lines.append(f"# Scores are weights . features + the engine's offset; the fitted logit is "
                     f"softmax(score / {r['temperature']:g}).")
    if "ci" in r:
        lo, hi = r["ci"]
        lines.append(f"# Win share in one seat of {r['players']} against {r['start']}: {r['win_share']:.3f} "
                     f"(95% CI {lo:.3f}-{hi:.3f}, n={r['n']} games).")
    lines += [f"# {m}." for m in r.get("models", ())]              # a learned prior's model file and hash
    lines += [f'game = "{game}"', "", f"[{name}]", f'description = "{desc}"',
              "temperature = 0.0", "epsilon = 0.0", f"[{name}.weights]"]
    lines += [f"{k} = {v!r}" for k, v in r["weights"].items()]
    Path(path).write_text("\n".join(lines) + "\n", encoding="utf-8")
    strategies.load_presets(path, game)      # check it loads
    return path
