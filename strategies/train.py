"""Train a learned model from a search's decisions (expert iteration, one round).

``boardlab train GAME --players N --teacher mcts:iterations=1600 --positions 4000 --seed 1 --out FILE``

1. **Positions** (:func:`collect`): games played with the teacher in every
   seat, in chunks of :data:`CHUNK_GAMES` games; game ``i`` is dealt from
   ``game_seeds(seed, i)`` and the teacher's search at each decision is seeded
   from the seat's decision (:func:`strategies.agents.decision_seed`), so
   chunk ``k`` is a function of (game, players, teacher, seed, k) alone. Each
   decision records the model's features as the kernel computes them
   (:func:`simcore._model.features`: per legal action and per position), the
   teacher's visit shares over the legal actions and its chosen action, and
   at the game's end the deciding seat's win share. Each finished chunk is
   written to ``FILE.chunks/`` (``.npz``); a rerun after Ctrl-C reads the
   chunks it has and plays only the rest. ``--also MANIFEST`` adds the positions
   of an earlier model (a round of expert iteration keeps the last rounds'
   positions): the games its manifest's ``--play``, ``--label``, ``--positions``
   and ``--seed`` name, with this teacher, kept in ``FILE.chunks/also-N/``
   (played when absent). Their games come before this run's, so the held-out
   games are this run's last ones.
2. **Fit** (:func:`fit`): a one-hidden-layer ReLU network scores each legal
   action (``simcore/_model.pyx``); softmax over a decision's legal actions,
   cross-entropy against the visit shares, an L2 penalty on the weights.
   Adam in numpy, float64, full batch (default) or on minibatches of
   ``--batch`` decisions (``--steps`` epochs: far less CPU for the same
   held-out loss), weights and batches drawn from ``seed``: the same data and
   seed give the same bits (one BLAS thread, as the CLI sets).
   The games are split: the last :data:`HOLDOUT` of them are held out; the
   step with the best held-out loss is kept.
3. **Write**: the model file (JSON: the weights, the feature names, the
   feature context's weights) and ``FILE`` with ``.manifest.json`` in place of
   ``.json``: teacher, games, positions, seeds, held-out agreement with the
   teacher (top-1: the model's best action is the teacher's) beside the
   feature context heuristic's, the training time and the model file's SHA-256.
"""
import hashlib
import json
import math
import time
from pathlib import Path

import numpy as np

from simcore._contract import HEURISTIC
from simcore._model import TIES as _model_ties

#: Games per chunk file (the unit of resume).
CHUNK_GAMES = 4
#: Share of the games held out (the last ones).
HOLDOUT = 0.2
#: The network and its fit.
HIDDEN = 32
STEPS = 1500
LEARNING_RATE = 0.003
L2 = 1e-2
#: The heuristic whose weighted features the model reads (and the agreement's yardstick).
CONTEXT = "balanced"
FORMAT = "boardlab-mlp-1"
#: How the ``learned`` seat breaks exact ties between best-scored actions (``--ties``,
#: ``simcore/_model.pyx``): the lower action, or one drawn from the decision's seed.
TIES = tuple(_model_ties)


def _teacher_decide(game, teacher, seed):
    from strategies.imitate import _teacher
    return _teacher(game, teacher, seed)


def _player(game, play, seed):
    """``move(state) -> action`` of the strategy that plays the games of a sampled collection: a
    heuristic preset (the kernel's policy, seeded by the decision) or a learned model (its best)."""
    import simcore
    from simcore._contract import LEARNED
    from simcore._model import best_action, learned_policy
    from simcore._search import ops_policy_action
    from strategies.agents import decision_seed

    if play.kind == LEARNED.name:
        pol = learned_policy(simcore.games[game], play.to_dict())

        def move(state):
            # the best-scored action; exact ties as the model's rule (its "ties"), from the decision's seed
            return best_action(state, pol, decision_seed(state, seed))
        return move
    if play.policy_kind is not HEURISTIC:
        raise ValueError(f"--play must be a heuristic preset or learned, not {play.kind!r}")
    policy = play.as_policy()

    def move(state):
        return int(ops_policy_action(state, [policy] * state.players, decision_seed(state, seed)))
    return move


def _chunk(game, players, teacher, seed, k, context, play=None, label=1.0):
    """Play chunk ``k``'s games; its arrays (one row per legal action / per decision).

    ``play`` None: the teacher plays every seat and every decision is recorded. Otherwise ``play``
    (a Strategy) plays every seat and each decision with two or more legal actions is labelled by
    the teacher's search with probability ``label`` (drawn from the game's seed): one search per
    recorded position instead of a search at every decision of the game."""
    import simcore
    from simcore._model import features
    from simcore.rng import game_seeds

    mod = simcore.games[game]
    config = mod.make_config(players)
    decide = _teacher_decide(game, teacher, seed)
    move = _player(game, play, seed) if play is not None else None
    acts, sts, vis, best, sizes, games, seats, wins = [], [], [], [], [], [], [], []
    seeds = game_seeds(seed, k * CHUNK_GAMES, (k + 1) * CHUNK_GAMES)
    for j, gs in enumerate(seeds):
        g = k * CHUNK_GAMES + j
        state = mod.State.new(config, int(gs))
        first = len(sizes)
        pick = np.random.default_rng(np.random.SeedSequence([int(gs), 0x6C6162]))
        while not state.is_over():
            if move is not None:
                n = len(state.legal_actions())
                if n < 2 or pick.random() >= label:
                    state.apply(move(state) if n > 1 else state.legal_actions()[0])
                    continue
            legal, A, S = features(state, context)
            actions, p, a = decide(state)
            if list(actions) != legal:
                raise RuntimeError("the teacher's legal actions differ from the model's")
            acts.append(A)
            sts.append(S)
            vis.append(p)
            best.append(legal.index(a))
            sizes.append(len(legal))
            games.append(g)
            seats.append(state.current_player())
            state.apply(a if move is None else move(state))
        share = _returns(state)
        wins += [share[s] for s in seats[first:]]
    if not sizes:
        import sys
        eng = sys.modules[mod.State.__module__]
        na, ns = len(eng.MODEL_ACTION_FEATURES), len(eng.MODEL_STATE_FEATURES)
        return {"act": np.zeros((0, na)), "state": np.zeros((0, ns)), "visits": np.zeros(0),
                "best": np.zeros(0, dtype=np.int32), "sizes": np.zeros(0, dtype=np.int32),
                "game": np.zeros(0, dtype=np.int32), "seat": np.zeros(0, dtype=np.int8),
                "win": np.zeros(0)}
    return {"act": np.vstack(acts), "state": np.vstack(sts), "visits": np.concatenate(vis),
            "best": np.array(best, dtype=np.int32), "sizes": np.array(sizes, dtype=np.int32),
            "game": np.array(games, dtype=np.int32), "seat": np.array(seats, dtype=np.int8),
            "win": np.array(wins, dtype=np.float64)}


def _returns(state):
    """Each seat's win share at the end (ties shared)."""
    tot = np.asarray(state.scores()["total"], dtype=float)
    top = tot.max()
    w = (tot == top).astype(float)
    return w / w.sum()


def _key(game, players, teacher, seed, context, play=None, label=1.0):
    key = {"game": game, "players": players, "teacher": teacher.to_dict(), "seed": seed,
           "context": context.to_dict(), "chunk_games": CHUNK_GAMES}
    if play is not None:
        key.update(play=play.to_dict(), label=label)
    return key


def collect(game, players, teacher, positions, seed, folder, context, progress=True, play=None, label=1.0):
    """The chunks (read from ``folder`` or played and written there) until ``positions`` decisions
    (``play``, ``label``: positions sampled from ``play``'s games, :func:`_chunk`)."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    key = _key(game, players, teacher, seed, context, play, label)
    kfile = folder / "key.json"
    if kfile.exists():
        old = json.loads(kfile.read_text())
        if old != json.loads(json.dumps(key)):
            raise ValueError(f"{folder} holds positions of other settings (teacher, seed, players, "
                             f"context, --play or --label differ): delete it or give another --out")
    else:
        kfile.write_text(json.dumps(key, indent=1, sort_keys=True))
    chunks, have, k = [], 0, 0
    bar = None
    if progress:
        from tqdm import tqdm
        bar = tqdm(total=positions, unit="pos", desc=f"{game} {players}p positions", dynamic_ncols=True)
    t0 = time.perf_counter()
    seconds = 0.0
    try:
        while have < positions:
            path = folder / f"chunk-{k:05d}.npz"
            if path.exists():
                with np.load(path) as z:
                    c = {n: z[n] for n in z.files}
                seconds += float(c.pop("seconds"))
            else:
                t = time.process_time()
                c = _chunk(game, players, teacher, seed, k, context.as_policy(), play, label)
                cpu = time.process_time() - t
                seconds += cpu
                import io

                from simcore._data import write_bytes_atomic
                buf = io.BytesIO()              # a full disk or a kill leaves no torn chunk, no temporary file
                np.savez(buf, seconds=np.float64(cpu), **c)
                write_bytes_atomic(path, buf.getvalue())
            chunks.append(c)
            n = len(c["sizes"])
            have += n
            if bar is not None:
                bar.update(min(n, positions - bar.n))
            k += 1
    finally:
        if bar is not None:
            bar.close()
    del t0
    return chunks, seconds


def _stack(chunks):
    out = {n: np.concatenate([c[n] for c in chunks]) for n in chunks[0] if n != "seconds"}
    return out


def _union(sets):
    """The decisions of several position sets (each a :func:`_stack`), in order, game numbers
    shifted so that each set's games follow the previous set's."""
    if len(sets) == 1:
        return sets[0]
    out, base = [], 0
    for d in sets:
        out.append({**d, "game": d["game"] + base})
        base += int(d["game"].max()) + 1 if len(d["game"]) else 0
    return {n: np.concatenate([d[n] for d in out]) for n in out[0]}


def _also_settings(path):
    """``(teacher, play, label, positions, seed)`` of an earlier model's own positions (not those it
    added with ``--also``), read from its manifest."""
    from strategies.learned import read_json
    path = Path(path)
    try:
        man = read_json(path, "manifest")
    except ValueError as e:
        raise ValueError(f"--also: {e}") from None
    if not isinstance(man, dict) or not all(k in man for k in ("teacher", "positions_asked", "seed")):
        raise ValueError(f"--also: {path} is not a model manifest (no teacher, positions_asked, seed)")
    return (man["teacher"], man.get("play"), float(man.get("label", 1.0)), int(man["positions_asked"]),
            int(man["seed"]))


def _cap(d, k, seed):
    """``d`` with at most about ``k`` actions per decision (the fit's sampled softmax): a larger
    decision keeps the actions the teacher visited, its move, the ``k`` best of the context
    heuristic's scores and ``k // 4`` more drawn from the rest (seeded). The decisions and their
    order are kept; ``k`` 0: ``d`` itself."""
    if not k:
        return d
    rng = np.random.default_rng(np.random.SeedSequence([int(seed), 0x636170]))
    starts = np.concatenate([[0], np.cumsum(d["sizes"])[:-1]])
    heur = d["act"][:, -2]
    rows, sizes, best = [], [], []
    for i, (s0, n) in enumerate(zip(starts, d["sizes"])):
        if n <= k:
            rows.append(np.arange(s0, s0 + n))
            sizes.append(n)
            best.append(d["best"][i])
            continue
        keep = d["visits"][s0:s0 + n] > 0
        keep[d["best"][i]] = True
        keep[np.lexsort((np.arange(n), -heur[s0:s0 + n]))[:k]] = True
        rest = np.flatnonzero(~keep)
        keep[rng.choice(rest, size=min(len(rest), k // 4), replace=False)] = True
        sel = np.flatnonzero(keep)
        rows.append(s0 + sel)
        sizes.append(len(sel))
        best.append(int(np.searchsorted(sel, d["best"][i])))
    rows = np.concatenate(rows)
    return {**d, "act": d["act"][rows], "visits": d["visits"][rows], "sizes": np.array(sizes, dtype=np.int32),
            "best": np.array(best, dtype=np.int32)}


def _standardize(X):
    mean = X.mean(axis=0)
    sd = X.std(axis=0)
    scale = np.where(sd > 1e-9, 1.0 / np.where(sd > 1e-9, sd, 1.0), 0.0)
    return mean, scale


class _Data:
    """A set of decisions as the fit needs them: inputs per legal action, targets, segment starts."""

    def __init__(self, d, sel, mean, scale):
        sizes = d["sizes"][sel]
        starts_all = np.concatenate([[0], np.cumsum(d["sizes"])[:-1]])
        rows = np.concatenate([np.arange(s, s + n) for s, n in zip(starts_all[sel], sizes)])
        dec = np.repeat(np.flatnonzero(sel), sizes)
        X = np.hstack([d["act"][rows], d["state"][dec]])
        self.Z = (X - mean) * scale
        self.t = d["visits"][rows]
        self.sizes = sizes
        self.starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
        self.group = np.repeat(np.arange(len(sizes)), sizes)
        self.best = d["best"][sel]
        self.heur = d["act"][rows][:, -2]         # the context heuristic's score of each action
        self.n = len(sizes)


def _forward(p, data):
    H = data.Z @ p["W1"].T + p["b1"]
    R = np.maximum(H, 0.0)
    s = R @ p["w2"] + p["b2"]
    return H, R, s


def _log_softmax(s, data):
    m = np.maximum.reduceat(s, data.starts)
    e = np.exp(s - m[data.group])
    lse = np.log(np.add.reduceat(e, data.starts)) + m
    return s - lse[data.group]


def _loss(p, data):
    _, _, s = _forward(p, data)
    return float(-(data.t * _log_softmax(s, data)).sum() / data.n)


def _top1(scores, data):
    """Share of decisions whose best-scored action (ties: the first) is the teacher's."""
    hits = 0
    for i, (a, n) in enumerate(zip(data.starts, data.sizes)):
        hits += int(np.argmax(scores[a:a + n]) == data.best[i])
    return hits / max(1, data.n)


def _batches(tr, batch, rng):
    """One epoch of minibatches of ``tr``: :class:`_Data`-like views of ``batch`` decisions each, the
    decisions in an order drawn from ``rng``."""
    order = rng.permutation(tr.n)
    for b0 in range(0, tr.n, batch):
        dec = np.sort(order[b0:b0 + batch])
        sizes = tr.sizes[dec]
        starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
        rows = np.repeat(tr.starts[dec] - starts, sizes) + np.arange(int(sizes.sum()))
        yield _Batch(tr.Z[rows], tr.t[rows], sizes, starts)


class _Batch:
    __slots__ = ("Z", "t", "sizes", "starts", "group", "n")

    def __init__(self, Z, t, sizes, starts):
        self.Z, self.t, self.sizes, self.starts = Z, t, sizes, starts
        self.group = np.repeat(np.arange(len(sizes)), sizes)
        self.n = len(sizes)


def fit(d, seed, hidden=None, steps=None, lr=None, l2=None, progress=True, max_actions=0, batch=0, ensemble=1,
        prune=False):
    """Fit the network to the decisions ``d``; ``(params, report)`` (settings: the module's by default;
    ``max_actions``: the training decisions' actions capped by :func:`_cap`, the held-out ones whole).

    ``batch`` 0: full-batch Adam, ``steps`` steps, the held-out loss every 25 steps. ``batch`` B > 0:
    Adam on minibatches of B decisions (drawn from ``seed``), ``steps`` epochs over the training
    decisions, the held-out loss after each epoch (the same objective, estimated on each batch).
    ``ensemble`` K > 1: K networks of ``hidden`` units fitted from (seed, 1..K-1) and the first from
    ``seed``; the model scores an action with their mean score, one layer of K x ``hidden`` units.
    ``prune``: the units whose input is at most 0 at every action of every decision in ``d`` (training
    and held-out, all actions) are dropped (:func:`_prune`): the same scores on those positions at
    less cost a decision."""
    hidden, steps = hidden or HIDDEN, steps or STEPS
    full, d = d, _cap(d, max_actions, seed)
    lr, l2 = LEARNING_RATE if lr is None else lr, L2 if l2 is None else l2
    games = np.unique(d["game"])
    cut = games[int(math.floor(len(games) * (1 - HOLDOUT)))] if len(games) > 1 else games[0] + 1
    train_sel = d["game"] < cut
    hold_sel = ~train_sel
    if not hold_sel.any() or not train_sel.any():
        raise ValueError(f"{len(games)} games are too few to hold some out: give more --positions")
    starts_all = np.concatenate([[0], np.cumsum(d["sizes"])[:-1]])
    rows = np.concatenate([np.arange(s, s + n) for s, n in zip(starts_all[train_sel], d["sizes"][train_sel])])
    X = np.hstack([d["act"][rows], d["state"][np.repeat(np.flatnonzero(train_sel), d["sizes"][train_sel])]])
    mean, scale = _standardize(X)
    tr, ho = _Data(d, train_sel, mean, scale), _Data(full, hold_sel, mean, scale)
    nin = X.shape[1]

    def member(idx):
        # one network, its initial weights (and batches) drawn from (seed, idx); idx 0: from seed alone
        rng = np.random.default_rng(np.random.SeedSequence([int(seed), 0x6D6C70] + [idx] * (idx > 0)))
        p = {"W1": rng.normal(0.0, 1.0 / math.sqrt(nin), (hidden, nin)), "b1": np.zeros(hidden),
             "w2": rng.normal(0.0, 1.0 / math.sqrt(hidden), hidden), "b2": np.zeros(())}
        m = {k: np.zeros_like(v) for k, v in p.items()}
        v = {k: np.zeros_like(v) for k, v in p.items()}
        b1_, b2_ = 0.9, 0.999
        best = (math.inf, None, -1)
        bar = None
        if progress:
            from tqdm import tqdm
            bar = tqdm(total=steps, unit="epoch" if batch else "step", desc="fit", dynamic_ncols=True)
        it = 0

        def step(data):
            nonlocal it
            it += 1
            H, R, s = _forward(p, data)
            ls = _log_softmax(s, data)
            prob = np.exp(ls)
            tsum = np.add.reduceat(data.t, data.starts)[data.group]
            ds = (prob * tsum - data.t) / data.n              # d loss / d score
            g = {"w2": R.T @ ds + l2 * p["w2"], "b2": np.asarray(ds.sum())}
            dH = np.outer(ds, p["w2"]) * (H > 0)
            g["W1"] = dH.T @ data.Z + l2 * p["W1"]
            g["b1"] = dH.sum(axis=0)
            for k in p:
                m[k] = b1_ * m[k] + (1 - b1_) * g[k]
                v[k] = b2_ * v[k] + (1 - b2_) * g[k] * g[k]
                p[k] = p[k] - lr * (m[k] / (1 - b1_ ** it)) / (np.sqrt(v[k] / (1 - b2_ ** it)) + 1e-8)

        brng = np.random.default_rng(np.random.SeedSequence([int(seed), 0x626174] + [idx] * (idx > 0))) if batch else None
        for ep in range(1, steps + 1):
            if batch:
                for mb in _batches(tr, batch, brng):
                    step(mb)
            else:
                step(tr)
            if batch or ep % 25 == 0 or ep == steps:
                hl = _loss(p, ho)
                if hl < best[0]:
                    best = (hl, {k: x.copy() for k, x in p.items()}, ep)
            if bar is not None:
                bar.update(1)
        if bar is not None:
            bar.close()
        return best

    fits = [member(i) for i in range(ensemble)]
    if ensemble == 1:
        p, best = fits[0][1], fits[0]
    else:                                 # the mean of the members' scores: one wider layer
        p = {"W1": np.vstack([f[1]["W1"] for f in fits]), "b1": np.concatenate([f[1]["b1"] for f in fits]),
             "w2": np.concatenate([f[1]["w2"] for f in fits]) / ensemble,
             "b2": np.asarray(sum(float(f[1]["b2"]) for f in fits) / ensemble)}
        best = (_loss(p, ho), p, [f[2] for f in fits])
    pruned = {}
    if prune:
        units = len(p["b1"])
        p = _prune(p, [_Data(full, train_sel, mean, scale) if max_actions else tr, ho])
        pruned = {"units_kept": int(len(p["b1"])), "units_dropped": int(units - len(p["b1"]))}
    report = {"train_decisions": int(tr.n), "held_out_decisions": int(ho.n),
              "train_games": int(len(np.unique(d["game"][train_sel]))),
              "held_out_games": int(len(np.unique(d["game"][hold_sel]))),
              "held_out_loss": round(best[0], 6), "best_step": best[2],
              "held_out_agreement": round(_top1(_forward(p, ho)[2], ho), 4),
              "context_agreement": round(_top1(ho.heur, ho), 4),
              "train_agreement": round(_top1(_forward(p, tr)[2], tr), 4), **pruned}
    return {"W1": p["W1"], "b1": p["b1"], "w2": p["w2"], "b2": float(p["b2"]), "mean": mean,
            "scale": scale}, report


def _prune(p, datas, rows=16384):
    """``p`` without the hidden units that no action of ``datas`` activates (input <= 0 at every row:
    a ReLU unit that adds nothing to any of their scores); the kept units in their order."""
    top = np.full(len(p["b1"]), -np.inf)
    for data in datas:
        for r0 in range(0, len(data.Z), rows):
            top = np.maximum(top, (data.Z[r0:r0 + rows] @ p["W1"].T + p["b1"]).max(axis=0))
    keep = top > 0.0
    if not keep.any():
        keep[int(np.argmax(top))] = True        # a model keeps one unit (its scores are then b2 alone)
    return {"W1": p["W1"][keep], "b1": p["b1"][keep], "w2": p["w2"][keep], "b2": p["b2"]}


def _floats(a):
    return [float(x) for x in np.asarray(a).reshape(-1)] if np.ndim(a) <= 1 else [_floats(r) for r in a]


def model_document(game, players, params, context, ties="first"):
    import simcore
    import sys
    eng = sys.modules[simcore.games[game].State.__module__]
    extra = {} if ties == "first" else {"ties": ties}     # "first" is the default: no key (older files)
    return {"format": FORMAT, "game": game, "players": int(players),
            "action_features": list(eng.MODEL_ACTION_FEATURES), "state_features": list(eng.MODEL_STATE_FEATURES),
            "context": context.to_dict(), "hidden": int(np.shape(params["W1"])[0]),
            "mean": _floats(params["mean"]), "scale": _floats(params["scale"]), "W1": _floats(params["W1"]),
            "b1": _floats(params["b1"]), "w2": _floats(params["w2"]), "b2": float(params["b2"]), **extra}


def manifest_path(out):
    out = Path(out)
    return out.with_name(out.name[:-len(".json")] + ".manifest.json")


def train(game, players, teacher="mcts:iterations=1600", positions=4000, seed=1, out=None, progress=True,
          log=print, play=None, label=1.0, hidden=None, max_actions=0, steps=None, batch=0, lr=None, l2=None,
          ensemble=1, ties="first", prune=False, also=()):
    """Collect (or read) the positions, fit, write the model and its manifest; the manifest dict.

    ``play``: a heuristic preset or ``learned[:FILE]`` plays the games and the teacher labels a share
    ``label`` of their decisions (:func:`_chunk`); ``hidden``: the hidden units (default
    :data:`HIDDEN`); ``max_actions``: the training decisions' actions capped (:func:`_cap`); ``steps``,
    ``batch``, ``lr``, ``l2``: the fit's (:func:`fit`; None, 0: :data:`STEPS`, full batch,
    :data:`LEARNING_RATE`, :data:`L2`); ``ensemble``: networks averaged (:func:`fit`); ``ties``: how the
    ``learned`` seat breaks exact ties (:data:`TIES`; written in the model file unless "first");
    ``prune``: the units no recorded action activates dropped (:func:`fit`); ``also``: earlier
    models' manifests whose positions are added (:func:`_also_settings`)."""
    import simcore
    import strategies
    from simcore.run import check_players

    if game not in simcore.games:
        raise ValueError(f"unknown game {game!r} (known: {', '.join(simcore.games)})")
    players = check_players(game, players)
    if not hasattr(simcore.games[game], "model_ops"):
        raise ValueError(f"{game} has no model features yet (model_ops: simcore/_model.pxd)")
    teach = strategies.resolve(game, teacher)
    if not (teach.searches or teach.policy_kind is HEURISTIC):
        raise ValueError(f"the teacher must be a search (mcts:...) or a heuristic preset, not {teach.kind!r}")
    if isinstance(positions, bool) or not isinstance(positions, int) or positions < 10:
        raise ValueError(f"--positions must be a whole number >= 10, not {positions!r}")
    if not (isinstance(label, (int, float)) and 0.0 < label <= 1.0):
        raise ValueError(f"--label must be a share in (0, 1], not {label!r}")
    if hidden is not None and (isinstance(hidden, bool) or not isinstance(hidden, int) or not 1 <= hidden <= 1024):
        raise ValueError(f"--hidden must be a whole number in 1..1024, not {hidden!r}")
    if isinstance(max_actions, bool) or not isinstance(max_actions, int) or max_actions < 0 or 0 < max_actions < 4:
        raise ValueError(f"--max-actions must be 0 (all) or a whole number >= 4, not {max_actions!r}")
    if steps is not None and (isinstance(steps, bool) or not isinstance(steps, int) or not 1 <= steps <= 100_000):
        raise ValueError(f"--steps must be a whole number in 1..100000, not {steps!r}")
    if isinstance(batch, bool) or not isinstance(batch, int) or batch < 0:
        raise ValueError(f"--batch must be 0 (full batch) or a whole number of decisions >= 1, not {batch!r}")
    if isinstance(ensemble, bool) or not isinstance(ensemble, int) or not 1 <= ensemble <= 64:
        raise ValueError(f"--ensemble must be a whole number in 1..64, not {ensemble!r}")
    if (hidden or HIDDEN) * ensemble > 1024:
        raise ValueError(f"--hidden x --ensemble must be at most 1024 units, not {(hidden or HIDDEN) * ensemble}")
    for name, x in (("--lr", lr), ("--l2", l2)):
        if x is not None and (isinstance(x, bool) or not isinstance(x, (int, float)) or not 0 <= x < 10
                              or (name == "--lr" and x == 0)):
            raise ValueError(f"{name} must be a number in {'(0' if name == '--lr' else '[0'}, 10), not {x!r}")
    if ties not in TIES:
        raise ValueError(f"--ties must be one of {', '.join(TIES)}, not {ties!r}")
    player = None
    if play is not None:
        from simcore._contract import LEARNED
        player = strategies.resolve(game, play)
        if not (player.kind == LEARNED.name or player.policy_kind is HEURISTIC):
            raise ValueError(f"--play must be a heuristic preset or learned, not {play!r}")
    out = Path(out)
    if out.suffix != ".json":
        raise ValueError(f"--out must name a .json file, not {str(out)!r}")
    earlier = []
    for path in also:
        t_name, p_name, p_label, p_pos, p_seed = _also_settings(path)
        if strategies.resolve(game, t_name).to_dict() != teach.to_dict():
            raise ValueError(f"--also: {path}'s teacher is {t_name}, not {teach.name}")
        earlier.append((str(path), None if p_name is None else strategies.resolve(game, p_name), p_label,
                        p_pos, p_seed))
    context = strategies.resolve(game, CONTEXT)
    folder = out.with_name(out.name + ".chunks")
    sets, also_report = [], []
    cpu = 0.0
    for i, (path, p_play, p_label, p_pos, p_seed) in enumerate(earlier, start=1):
        ch, sec = collect(game, players, teach, p_pos, p_seed, folder / f"also-{i}", context, progress,
                          p_play, p_label)
        sets.append(_stack(ch))
        cpu += sec
        also_report.append({"manifest": path, "play": None if p_play is None else p_play.name,
                            "label": p_label, "positions_asked": p_pos, "seed": p_seed,
                            "games": int(len(np.unique(sets[-1]["game"]))),
                            "positions": int(len(sets[-1]["sizes"])), "teacher_cpu_seconds": round(sec, 1)})
    chunks, sec = collect(game, players, teach, positions, seed, folder, context, progress, player,
                          float(label))
    cpu += sec
    d = _union(sets + [_stack(chunks)])
    t = time.process_time()
    params, report = fit(d, seed, hidden=hidden, progress=progress, max_actions=max_actions, steps=steps,
                         batch=batch, lr=lr, l2=l2, ensemble=ensemble, prune=bool(prune))
    fit_cpu = time.process_time() - t
    doc = model_document(game, players, params, context, ties)
    text = json.dumps(doc, separators=(",", ":")) + "\n"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(text)
    extra = ""
    sampled = {}
    if player is not None:
        extra += f" --play {player.name} --label {label:g}"
        sampled = {"play": player.name, "label": float(label)}
    if hidden is not None:
        extra += f" --hidden {hidden}"
    if max_actions:
        extra += f" --max-actions {max_actions}"
        sampled["max_actions"] = max_actions
    for flag, x in (("--steps", steps), ("--lr", lr), ("--l2", l2)):
        if x is not None:
            extra += f" {flag} {x:g}"
    if batch:
        extra += f" --batch {batch}"
        sampled["batch"] = batch
    if ensemble > 1:
        extra += f" --ensemble {ensemble}"
        sampled["ensemble"] = ensemble
    if ties != "first":
        extra += f" --ties {ties}"
        sampled["ties"] = ties
    if prune:
        extra += " --prune"
        sampled["prune"] = True
    for a in also_report:
        extra += f" --also {a['manifest']}"
    if also_report:
        sampled["also"] = also_report
    man = {"model": out.name, "sha256": hashlib.sha256(text.encode()).hexdigest(), "game": game,
           "players": players, "teacher": teach.name, "teacher_settings": teach.to_dict(), **sampled,
           "seed": seed, "positions_asked": positions, "games": int(len(np.unique(d["game"]))),
           "positions": int(len(d["sizes"])), "hidden": (hidden or HIDDEN) * ensemble, "steps": steps or STEPS,
           "learning_rate": LEARNING_RATE if lr is None else lr,
           "l2": L2 if l2 is None else l2, "holdout": HOLDOUT, "context": CONTEXT, **report,
           "teacher_cpu_seconds": round(cpu, 1), "fit_cpu_seconds": round(fit_cpu, 1),
           "reproduce": f"boardlab train {game} --players {players} --teacher {teach.name} "
                        f"--positions {positions} --seed {seed}{extra} --out {out}"}
    mp = manifest_path(out)
    old = json.loads(mp.read_text()) if mp.exists() else {}
    if old.get("sha256") == man["sha256"] and "strength" in old:
        man["strength"] = old["strength"]            # measured by bench/bench_learned.py
    mp.write_text(json.dumps(man, indent=1) + "\n")
    if log:
        log(f"{out}: {man['positions']} positions from {man['games']} games ({teach.name}); held-out top-1 "
            f"agreement with the teacher {report['held_out_agreement']:.3f} (the {CONTEXT} heuristic: "
            f"{report['context_agreement']:.3f}); sha256 {man['sha256'][:12]}")
    return man
