"""The ``learned`` strategy: a model trained from a search, played in the kernel.

``learned`` names the models shipped for a game (``strategies/models/<game>-<N>p.json``, one per
player count, each beside its ``.manifest.json``: teacher, positions, seeds, held-out agreement,
measured strength); ``learned:FILE.json`` names one model file (e.g. the output of
``boardlab train``). The seat plays the model's best-scored legal action (``simcore/_model.pyx``):
no search, no Python in the game loop; a model file with a ``"fallback"`` hands its seat to a built-in
policy from a state feature's value on (:func:`with_fallback`; the shipped Akrotiri model: ``balanced``
from the seat's 20th turn). The strategy dict a run's manifest stores names each
model file with its SHA-256, and a run refuses a file whose hash differs.

A search may take the same model as its prior: ``mcts:prior=learned`` (``docs/learned.md``).
"""
import hashlib
import json
import re
from pathlib import Path

MODEL_DIR = Path(__file__).resolve().parent / "models"
_NAME = re.compile(r"^(?P<game>[a-z0-9_]+)-(?P<players>\d+)p\.json$")


def shipped(game):
    """``{players: path}`` of the models shipped for ``game``."""
    out = {}
    for path in sorted(MODEL_DIR.glob(f"{game}-*p.json")):
        m = _NAME.match(path.name)
        if m and m["game"] == game:
            out[int(m["players"])] = path
    return out


def _ref(path):
    """A model file's reference in a strategy dict: where it is, and its SHA-256. A shipped model is
    named relative to the installed packages (``strategies/models/…``), so that a run's manifest and
    its run_id do not depend on where boardlab is checked out; any other file by its absolute path."""
    path = Path(path).resolve()
    raw = path.read_bytes()
    name = f"strategies/models/{path.name}" if path.parent == MODEL_DIR else str(path)
    return {"file": name, "sha256": hashlib.sha256(raw).hexdigest()}


def read_json(path, what):
    """The JSON document at ``path``; ValueError "cannot read <what> <path>: <reason>" or "<path> is
    not a <what> (not JSON)"."""
    try:
        return json.loads(Path(path).read_text())
    except OSError as e:
        raise ValueError(f"cannot read {what} {path}: {e.strerror}") from None
    except ValueError:
        raise ValueError(f"{path} is not a {what} (not JSON)") from None


def read_model(path, game=None):
    """A model file's document; ValueError naming the file when it is not a model (of ``game``)."""
    path = Path(path)
    doc = read_json(path, "model file")
    if not isinstance(doc, dict) or doc.get("format") != "boardlab-mlp-1":
        raise ValueError(f"{path} is not a model file (no format boardlab-mlp-1)")
    from simcore._model import TIES     # the tie rules the kernel knows

    if doc.get("ties", "first") not in TIES:
        raise ValueError(f"{path}: the model's ties is {doc['ties']!r}, not {' or '.join(map(repr, TIES))}")
    if game is not None and doc.get("game") != game:
        raise ValueError(f"{path} is a model of {doc.get('game')!r}, not of {game!r}")
    if game is not None:
        _check_features(path, doc, game)
    _check_fallback(path, doc)
    return doc


def _check_fallback(path, doc):
    """ValueError naming the file when its ``"fallback"`` is not one the kernel plays."""
    from simcore._model import fallback_rule

    try:
        if fallback_rule(doc) is not None and doc["fallback"]["strategy"].get("kind") not in ("heuristic", "random"):
            raise ValueError(f"the model's fallback strategy {doc['fallback']['strategy'].get('name')!r} is not "
                             f"a preset or a heuristic")
    except ValueError as e:
        raise ValueError(f"{path}: {e}") from None


def feature_sets(game):
    """The ``(action, state)`` feature names of each model feature set ``game``'s engine reads, the
    current one first (``MODEL_ACTION_FEATURES``; an older set ``k``: ``MODEL_ACTION_FEATURES_V<k>``)."""
    import sys

    import simcore

    eng = sys.modules[simcore.games[game].State.__module__]
    out = []
    for tag in [""] + [f"_V{k}" for k in range(1, 10)]:
        a, s = getattr(eng, f"MODEL_ACTION_FEATURES{tag}", None), getattr(eng, f"MODEL_STATE_FEATURES{tag}", None)
        if a is not None and s is not None:
            out.append((tuple(a), tuple(s)))
    return out


def _check_features(path, doc, game):
    """ValueError naming the file when its feature names are none of the engine's sets: the kernel checks
    only their count, and a model read with other features plays, silently, on numbers it was not trained on."""
    names = tuple(tuple(doc.get(k) or ()) if isinstance(doc.get(k) or (), (list, tuple)) else None
                  for k in ("action_features", "state_features"))
    sets = feature_sets(game)
    if not sets or names in sets:        # no sets: a game without learned features (its own error)
        return
    cur = sets[0]
    if None in names:
        odd = "action_features and state_features must be lists of names"
    else:
        odd = f"{len(names[0])} + {len(names[1])} features, not {len(cur[0])} + {len(cur[1])}"
        for got, want, what in zip(names, cur, ("action", "state")):
            i = next((i for i, (h, w) in enumerate(zip(got, want)) if h != w), None)
            if i is not None:
                odd = f"{what} feature {i} is {got[i]!r}, not {want[i]!r}"
                break
    raise ValueError(f"{path}: its feature names are none of the {game} engine's feature sets ({odd}): retrain it")


def model_ref(strategy, players):
    """The ``{"file", "sha256"}`` of the model a strategy dict plays at ``players``: a ``learned`` seat's,
    or a search's learned prior's, else its learned rollout policy's; None for any other strategy or
    player count."""
    d = strategy or {}
    if d.get("kind") != "learned":
        learned = [x for x in (d.get("prior"), d.get("rollout")) if isinstance(x, dict) and x.get("kind") == "learned"]
        d = learned[0] if learned else {}
    return (d.get("models") or {}).get(str(players))


def manifest(game, players):
    """The manifest of the model shipped for ``game`` and ``players`` (None when there is none)."""
    path = shipped(game).get(players)
    if path is None:
        return None
    mp = path.with_name(path.name[:-len(".json")] + ".manifest.json")
    return json.loads(mp.read_text()) if mp.exists() else None


def resolve_learned(game, text):
    """The :class:`strategies.Strategy` of ``learned`` or ``learned:FILE.json``."""
    from simcore._contract import LEARNED
    from strategies import Strategy

    head, _, rest = text.partition(":")
    if rest:
        doc = read_model(rest, game)
        models = {int(doc["players"]): _ref(rest)}
        desc = f"learned model {Path(rest).name}"
    else:
        files = shipped(game)
        if not files:
            raise ValueError(f"no learned model is shipped for {game}: train one with boardlab train {game} "
                             f"--players N --out FILE.json and name it learned:FILE.json")
        models = {p: _ref(path) for p, path in files.items()}
        desc = (f"learned models ({', '.join(f'{p}p' for p in sorted(models))}) trained from search, "
                f"strategies/models/")
    return Strategy(game=game, name=text, kind=LEARNED.name, description=desc,
                    models={str(p): ref for p, ref in sorted(models.items())})


def with_fallback(path, strategy, state_feature, start, out):
    """Write to ``out`` the model file ``path`` with a ``"fallback"``: from the decision where its state
    feature ``state_feature`` (e.g. the seat's ``turn``) is at least ``start`` on, the ``learned`` seat
    plays the built-in strategy ``strategy``'s choice (a preset or heuristic of the model's game, stored
    as its resolved dict) instead of the network's. The rest of the file is kept; written as
    ``boardlab train`` writes a model, so the same inputs give the same file. Returns the document."""
    import strategies

    doc = read_model(path)
    game = doc.get("game")
    st = strategies.resolve(game, strategy)
    if st.kind not in ("heuristic", "random"):
        raise ValueError(f"the fallback must be a preset or a heuristic of {game}, not {strategy!r} ({st.kind})")
    doc["fallback"] = {"strategy": st.to_dict(), "state_feature": state_feature, "from": start}
    _check_fallback(out, doc)
    Path(out).write_text(json.dumps(doc, separators=(",", ":")) + "\n")
    return doc


def main(argv=None):
    """``python -m strategies.learned fallback MODEL --strategy S --state-feature F --from V --out FILE``:
    :func:`with_fallback` (a post-step of ``boardlab train``, named in the model's manifest)."""
    import argparse
    import sys

    ap = argparse.ArgumentParser(prog="python -m strategies.learned", description="Edit a learned model file.")
    sub = ap.add_subparsers(dest="command", required=True)
    f = sub.add_parser("fallback", help="add a fallback to a built-in strategy from a state feature's value on")
    f.add_argument("model")
    f.add_argument("--strategy", required=True, help="a preset or heuristic of the model's game, e.g. balanced")
    f.add_argument("--state-feature", required=True, help="one of the model's state features, e.g. turn")
    f.add_argument("--from", dest="start", type=float, required=True, help="the feature's value from which on")
    f.add_argument("--out", required=True)
    args = ap.parse_args(argv)
    start = int(args.start) if args.start.is_integer() else args.start
    try:
        with_fallback(args.model, args.strategy, args.state_feature, start, args.out)
    except ValueError as e:
        print(f"boardlab: error: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
