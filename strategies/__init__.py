"""Strategies: named policy parameters per game, presets, Python agents, tuning.

A :class:`Strategy` is a game, a policy kind (``random``, ``heuristic`` or
``mcts``), one weight per feature of the game's built-in heuristic (the names
are ``simcore.<game>.FEATURES``) and noise (softmax ``temperature``,
``epsilon``). A ``mcts`` strategy searches each decision (ISMCTS in the
kernel, ``simcore/_mcts.pyx``) with the settings ``iterations``, ``c``,
``bias``, ``cutoff``, ``points`` (the point share's weight in the reward)
and ``rollout`` (a heuristic or random strategy, played with
``rollout_epsilon`` noise in the rollouts), each defaulting to the game's
(``simcore._contract.search_defaults``); it is named ``mcts`` or
``mcts:iterations=800,c=0.5`` (``resolve``), or is a preset file table with
``kind = "mcts"``.
Presets live in ``strategies/presets/<game>.toml`` (and any
``<game>_*.toml`` beside it, e.g. the output of ``boardlab tune``); a name may
also be a path to a TOML file of the same format.

Examples
--------
>>> import strategies
>>> s = strategies.resolve("hellas", "balanced")
>>> s.kind, s.as_policy().shape
('heuristic', (24,))
"""
import math
import os
from dataclasses import dataclass, field
from pathlib import Path

import simcore
from simcore._contract import check_search_settings, policy_argument, random_strategy, search_defaults

PRESET_DIR = Path(__file__).resolve().parent / "presets"


@dataclass(frozen=True)
class Strategy:
    """A named policy for one game: feature weights plus noise."""

    game: str
    name: str
    kind: str = "random"          # "random", "heuristic" or "mcts"
    weights: dict = field(default_factory=dict)
    temperature: float = 0.0
    epsilon: float = 0.0
    description: str = ""
    search: dict = field(default_factory=dict)      # kind "mcts": its settings (SEARCH_DEFAULTS' keys)
    model: dict = field(default_factory=dict)       # kind "learned": players -> {file, sha256} (learned.py)

    def as_policy(self):
        """The argument ``play_batch`` takes for one seat (``None`` = uniform random)."""
        return policy_argument(_game_module(self.game), self.to_dict())

    def to_dict(self):
        d = {"game": self.game, "name": self.name, "kind": self.kind,
             "weights": dict(self.weights), "temperature": self.temperature,
             "epsilon": self.epsilon, "description": self.description}
        if self.kind == "mcts":
            d.update(_search_dict(self.game, self.name, self.search))
        if self.kind == "learned":
            d["models"] = {k: dict(v) for k, v in self.model.items()}
        return d

    def with_noise(self, temperature=None, epsilon=None, name=None):
        """A copy with other noise settings (and optionally another name)."""
        return Strategy(game=self.game, name=name or self.name, kind=self.kind, weights=dict(self.weights),
                        temperature=self.temperature if temperature is None else float(temperature),
                        epsilon=self.epsilon if epsilon is None else float(epsilon),
                        description=self.description, search=dict(self.search), model=dict(self.model))


_SEARCH_TYPES = {"iterations": int, "c": float, "bias": float, "cutoff": int, "rollout": str,
                 "rollout_epsilon": float, "points": float, "prior": str}


def _search_defaults(game):
    """The search settings' defaults of ``game`` (the contract's, then the game's own SEARCH_DEFAULTS)."""
    return search_defaults(_game_module(game))


def _search_dict(game, name, search):
    """A search strategy's settings as its dict holds them: defaults filled in, the rollout resolved."""
    d = {k: search.get(k, v) for k, v in _search_defaults(game).items()}
    rollout = d.pop("rollout")
    eps = d.pop("rollout_epsilon")
    prior = d.pop("prior")
    if isinstance(prior, dict):                 # already resolved (a manifest's dict)
        d["prior"] = dict(prior)
    elif prior != "none":                       # a learned model as the search's prior (docs/learned.md)
        p = resolve(game, prior)
        if p.kind != "learned":
            raise ValueError(f"strategy {name!r}: its prior {prior!r} must be a learned strategy "
                             f"(learned or learned:FILE.json), not {p.kind}")
        d["prior"] = p.to_dict()
    if isinstance(rollout, dict):               # already resolved (a manifest's dict)
        d["rollout"] = dict(rollout)
        return d
    r = resolve(game, rollout)
    if r.kind not in ("random", "heuristic"):
        raise ValueError(f"strategy {name!r}: its rollout {rollout!r} must be a random or heuristic strategy, "
                         f"not {r.kind}")
    if r.kind == "heuristic":
        r = r.with_noise(epsilon=eps)
    d["rollout"] = r.to_dict()
    return d


def _check_search(game, name, search):
    """ValueError naming the strategy and its first bad search setting; the checked settings."""
    out = {}
    for key, value in search.items():
        if key not in _SEARCH_TYPES:
            raise ValueError(f"strategy {name!r}: unknown search setting {key!r} "
                             f"(known: {', '.join(_SEARCH_TYPES)})")
        out[key] = value
    defaults = _search_defaults(game)
    try:
        check_search_settings(*(out.get(k, defaults[k]) for k in ("iterations", "c", "bias", "cutoff", "points")))
    except ValueError as e:
        raise ValueError(f"strategy {name!r}: {e}") from None
    eps = out.get("rollout_epsilon", 0.0)
    if isinstance(eps, bool) or not isinstance(eps, (int, float)) or not 0 <= eps <= 1:
        raise ValueError(f"strategy {name!r}: rollout_epsilon must be a number in [0, 1], not {eps!r}")
    if not isinstance(out.get("prior", ""), (str, dict)):
        raise ValueError(f"strategy {name!r}: prior must be 'none' or a learned strategy name, not {out['prior']!r}")
    if not isinstance(out.get("rollout", ""), (str, dict)):
        raise ValueError(f"strategy {name!r}: rollout must be a strategy name, not {out['rollout']!r}")
    return out


def search_name(settings, game=None):
    """The canonical name of a search strategy: ``mcts``, or ``mcts:`` and its settings that differ
    from the defaults (``mcts:iterations=800,c=0.5``; the game's own defaults when ``game`` is given)."""
    defaults = _search_defaults(game) if game is not None else search_defaults(None)
    diff = [f"{k}={_fmt(settings[k])}" for k in defaults if k in settings
            and settings[k] != defaults[k]]
    return "mcts" + (":" + ",".join(diff) if diff else "")


def _fmt(v):
    return f"{v:g}" if isinstance(v, float) else str(v)


def parse_search(game, text):
    """The :class:`Strategy` of a name ``mcts`` / ``mcts:key=value,...``; ValueError naming a bad part."""
    head, _, rest = text.partition(":")
    settings = {}
    for part in filter(None, (p.strip() for p in rest.split(","))):
        key, eq, value = part.partition("=")
        key = key.strip()
        if not eq or key not in _SEARCH_TYPES:
            raise ValueError(f"strategy {text!r}: {part!r} is not a search setting "
                             f"(give key=value with key one of {', '.join(_SEARCH_TYPES)})")
        kind = _SEARCH_TYPES[key]
        try:
            settings[key] = kind(value.strip()) if kind is not float else float(value)
        except ValueError:
            raise ValueError(f"strategy {text!r}: {key} must be {'a whole number' if kind is int else 'a number'}"
                             f", not {value.strip()!r}") from None
    settings = _check_search(game, text, settings)
    s = Strategy(game=game, name=search_name(settings, game), kind="mcts",
                 description=f"ISMCTS, {settings.get('iterations', _search_defaults(game)['iterations'])} iterations "
                             f"per decision", search=settings)
    s.to_dict()                 # the rollout strategy resolves (or a one-line error)
    return s


def split_names(text):
    """A comma-separated list of strategy names, the settings of a search name kept with it:
    ``"mcts:iterations=800,c=0.5,balanced"`` -> ``["mcts:iterations=800,c=0.5", "balanced"]``."""
    out = []
    for part in (p.strip() for p in str(text).split(",")):
        if out and "=" in part and ":" not in part.partition("=")[0] and out[-1].startswith("mcts:"):
            out[-1] += "," + part
        else:
            out.append(part)
    return out


def from_dict(d):
    """The strategy of ``Strategy.to_dict()`` (as stored in a run's manifest), validated."""
    d = dict(d)
    d.setdefault("description", "")
    if d.get("kind") == "mcts":
        d["search"] = {k: d.pop(k) for k in list(d) if k in _SEARCH_TYPES}
    if d.get("kind") == "learned":
        d["model"] = d.pop("models", {})
    s = Strategy(**d)
    if s.kind == "learned":
        s.as_policy()
    if s.kind == "mcts":
        _check_search(s.game, s.name, s.search)
        s.as_policy()
    if s.kind == "heuristic":
        _check_weights(s.game, s.weights, f"strategy {s.name!r}")
        s.as_policy()
    return s


def _game_module(game):
    return simcore.games[game]


def _features(game):
    try:
        return tuple(_game_module(game).FEATURES)
    except (KeyError, AttributeError):
        return None


def _optional(game):
    """Features that may be left out of a weight table: the game's ``OPTIONAL_FEATURES``."""
    return dict(getattr(_game_module(game), "OPTIONAL_FEATURES", {}))


def _check_weights(game, weights, where):
    names = _features(game)
    if names is None:
        raise ValueError(f"{where}: game {game!r} has no heuristic features")
    for key, value in weights.items():
        if key not in names:
            raise ValueError(f"{where}: unknown feature {key!r} (known: {', '.join(names)})")
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            raise ValueError(f"{where}: weight {key!r} must be a finite number, not {value!r}")
    optional = _optional(game)
    missing = [k for k in names if k not in weights and k not in optional]
    if missing:
        raise ValueError(f"{where}: missing weight for feature {missing[0]!r} "
                         f"(every feature needs one: {', '.join(names)})")


def load_presets(path, game=None):
    """Read a preset TOML file: ``{name: Strategy}``.

    Each top-level table is one strategy: ``kind`` (default ``heuristic``),
    ``description``, ``temperature``, ``epsilon`` and a ``weights`` table with
    one number per feature; or ``kind = "mcts"`` with the search settings
    (``iterations``, ``c``, ``bias``, ``cutoff``, ``rollout``,
    ``rollout_epsilon``: the rollout is resolved when the strategy is used). ``game`` defaults to the file's ``game`` key or
    its name (``hellas.toml``, ``hellas_tuned.toml`` -> ``hellas``). Errors
    name the file and the key.
    """
    from simcore._data import read_toml

    path = Path(path)
    doc = read_toml(path, "preset")
    game = game or doc.pop("game", None) or path.stem.split("_")[0]
    doc.pop("game", None)
    out = {}
    for name, table in doc.items():
        where = f"{path}: [{name}]"
        if not isinstance(table, dict):
            raise ValueError(f"{where} must be a table of settings, not {table!r}")
        kind = table.get("kind", "heuristic")
        if kind not in ("random", "heuristic", "mcts"):
            raise ValueError(f"{where}: kind must be 'random', 'heuristic' or 'mcts', not {kind!r}")
        allowed = {"kind", "description"} | (set(_SEARCH_TYPES) if kind == "mcts" else
                                             {"temperature", "epsilon", "weights"})
        extra = [k for k in table if k not in allowed]
        if extra:
            raise ValueError(f"{where}: unknown key {extra[0]!r} (known: {', '.join(sorted(allowed))})")
        if kind == "mcts":
            search = _check_search(game, f"{path}: [{name}]", {k: v for k, v in table.items() if k in _SEARCH_TYPES})
            out[name] = Strategy(game=game, name=name, kind="mcts", search=search,
                                 description=str(table.get("description", "")))
            continue
        noise = {}
        for key in ("temperature", "epsilon"):
            v = table.get(key, 0.0)
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v) or v < 0:
                raise ValueError(f"{where}: {key} must be a number >= 0, not {v!r}")
            noise[key] = float(v)
        if noise["epsilon"] > 1:
            raise ValueError(f"{where}: epsilon must be <= 1, not {noise['epsilon']}")
        weights = table.get("weights", {})
        if kind == "heuristic":
            if not isinstance(weights, dict):
                raise ValueError(f"{where}: weights must be a table")
            _check_weights(game, weights, f"{path}: [{name}.weights]")
            weights = {k: float(v) for k, v in weights.items()}
        out[name] = Strategy(game=game, name=name, kind=kind, weights=weights,
                             description=str(table.get("description", "")), **noise)
    return out


def preset_files(game):
    """The preset files of ``game``: ``presets/<game>.toml``, ``presets/<game>_*.toml``, then the
    file the game itself ships (its ``PRESETS``, for a game that lives outside boardlab)."""
    main = PRESET_DIR / f"{game}.toml"
    files = [main] if main.exists() else []
    files += sorted(PRESET_DIR.glob(f"{game}_*.toml"))
    own = getattr(simcore.games[game], "PRESETS", None) if game in simcore.games else None
    if own is not None and Path(own).exists():
        files.append(Path(own))
    return files


def presets(game):
    """All preset strategies of ``game`` by name (``random`` always included)."""
    out = {"random": Strategy(**random_strategy(game))}
    for path in preset_files(game):
        out.update(load_presets(path, game))
    return out


def known(game):
    """Names of the strategies available for ``game``."""
    return list(presets(game))


def resolve(game, name):
    """The strategy called ``name`` for ``game``; ``ValueError`` naming the known ones otherwise.

    ``name`` may be a preset name, ``FILE.toml`` (its only strategy),
    ``FILE.toml:NAME``, or a search: ``mcts`` / ``mcts:iterations=800,c=0.5``.
    """
    if isinstance(name, Strategy):
        return name
    text = str(name)
    if text == "mcts" or text.startswith("mcts:"):
        return parse_search(game, text)
    if text == "learned" or text.startswith("learned:"):
        from strategies.learned import resolve_learned
        return resolve_learned(game, text)
    if text.endswith(".toml") or ".toml:" in text or os.sep in text:
        if ".toml" not in text:
            raise ValueError(f"strategy {text!r} looks like a path but is not a .toml file "
                             f"(give FILE.toml, FILE.toml:NAME or a preset name)")
        path, _, sub = text.partition(".toml")
        path += ".toml"
        sub = sub.lstrip(":")
        found = load_presets(path, game)
        if sub:
            if sub not in found:
                raise ValueError(f"{path} has no strategy {sub!r} (it has: {', '.join(found)})")
            return _usable(found[sub])
        if len(found) != 1:
            raise ValueError(f"{path} holds {len(found)} strategies ({', '.join(found)}); "
                             f"name one as {path}:NAME")
        return _usable(next(iter(found.values())))
    table = presets(game)
    if text in table:
        return _usable(table[text])
    raise ValueError(f"unknown strategy '{text}' for {game} (known: {', '.join(table)}; "
                     f"or a search, mcts[:iterations=N,...])")


def _usable(s):
    # a search strategy's rollout is resolved when it is first used: here (a one-line error if unknown)
    if s.kind == "mcts":
        s.to_dict()
    return s


def resolve_seats(game, players, strategy=None, seat_strategies=None):
    """One :class:`Strategy` per seat: ``strategy`` in every seat (default ``random``), or the names in
    ``seat_strategies`` (not both).

    What the runner takes (``simcore.run.simulate(..., strategies=...)``);
    ``ValueError`` naming a bad name, or a list that is not one per seat.
    """
    if seat_strategies and strategy is not None:
        raise ValueError(f"give a strategy for every seat ({strategy}) or one per seat "
                         f"({','.join(map(str, seat_strategies))}), not both")
    strategy = "random" if strategy is None else strategy
    if seat_strategies:
        names = list(seat_strategies)
        if len(names) != players:
            raise ValueError(f"{len(names)} strategies for {players} players: give exactly one per seat, "
                             f"e.g. {','.join([strategy] * players)}")
    else:
        names = [strategy] * players
    return [resolve(game, name) for name in names]


from strategies.agents import PolicyAgent, RandomAgent, play_python  # noqa: E402
from strategies.mc import FlatMonteCarloAgent  # noqa: E402
from strategies.mcts import MCTSAgent  # noqa: E402

__all__ = ["Strategy", "known", "resolve", "resolve_seats", "split_names", "search_name", "from_dict", "load_presets", "presets", "preset_files",
           "PolicyAgent", "RandomAgent", "FlatMonteCarloAgent", "MCTSAgent", "play_python"]
