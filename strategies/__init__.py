"""Strategies: named policy parameters per game, presets, Python agents, tuning.

A :class:`Strategy` is a game, a policy kind (``random``, ``heuristic`` or
``mcts``: the kind objects of ``simcore._contract``, which check a strategy's
settings and make its kernel argument), one weight per feature of the game's
built-in heuristic (the names are ``simcore.<game>.FEATURES``) and noise
(softmax ``temperature``, ``epsilon``). A search strategy (kind ``mcts``)
searches each decision (ISMCTS in the kernel, ``simcore/_mcts.pyx``) with the
settings ``iterations``, ``c``, ``bias``, ``cutoff``, ``points`` (the point
share's weight in the reward) and ``rollout`` (a heuristic, random or learned
strategy, played with ``rollout_epsilon`` noise in the rollouts), ``prior`` (a learned model)
and ``reuse`` (1: a seat's consecutive decisions share one tree, docs/game_ops.md), each
defaulting to the game's (``simcore._contract.search_defaults``); it is named
``mcts`` or ``mcts:iterations=800,c=0.5`` (``resolve``), or is a preset file
table of that kind.
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
import os
from dataclasses import dataclass, field
from pathlib import Path

import simcore
from simcore._contract import (HEURISTIC, KINDS, LEARNED, PLAYOUT_KINDS, PLAYOUT_NAMES, RANDOM, SEARCH,
                               SEARCH_TYPES, policy_argument, policy_kind, random_strategy, search_defaults)

PRESET_DIR = Path(__file__).resolve().parent / "presets"


@dataclass(frozen=True)
class Strategy:
    """A named policy for one game: feature weights plus noise."""

    game: str
    name: str
    kind: str = "random"          # the name of its policy kind (simcore._contract.KINDS)
    weights: dict = field(default_factory=dict)
    temperature: float = 0.0
    epsilon: float = 0.0
    description: str = ""
    search: dict = field(default_factory=dict)      # a search's settings (SEARCH_DEFAULTS' keys)
    models: dict = field(default_factory=dict)      # a learned strategy's: players -> {file, sha256}

    @property
    def policy_kind(self):
        """Its :class:`simcore._contract.PolicyKind`."""
        return policy_kind(self.kind)

    @property
    def searches(self):
        """Whether its seats search each decision (a search strategy)."""
        return self.policy_kind.searches

    def as_policy(self):
        """The argument ``play_batch`` takes for one seat (``None`` = uniform random)."""
        return policy_argument(_game_module(self.game), self.to_dict())

    def to_dict(self):
        d = {"game": self.game, "name": self.name, "kind": self.kind,
             "weights": dict(self.weights), "temperature": self.temperature,
             "epsilon": self.epsilon, "description": self.description}
        if self.searches:
            d.update(_search_dict(self.game, self.name, self.search))
        if self.policy_kind is LEARNED:
            d["models"] = {k: dict(v) for k, v in self.models.items()}
        return d

    def with_noise(self, temperature=None, epsilon=None, name=None):
        """A copy with other noise settings (and optionally another name)."""
        return Strategy(game=self.game, name=name or self.name, kind=self.kind, weights=dict(self.weights),
                        temperature=self.temperature if temperature is None else float(temperature),
                        epsilon=self.epsilon if epsilon is None else float(epsilon),
                        description=self.description, search=dict(self.search), models=dict(self.models))


def _search_defaults(game):
    """The search settings' defaults of ``game`` (the contract's, then the game's own SEARCH_DEFAULTS)."""
    return search_defaults(_game_module(game))


def _search_dict(game, name, search):
    """A search strategy's settings as its dict holds them: defaults filled in, the rollout resolved."""
    d = {k: search.get(k, v) for k, v in _search_defaults(game).items()}
    rollout = d.pop("rollout")
    eps = d.pop("rollout_epsilon")
    prior = d.pop("prior")
    if not d.get("reuse") and not _search_defaults(game).get("reuse"):
        d.pop("reuse", None)                    # off, as by default: dicts and manifests as before the setting
    if isinstance(prior, dict):                 # already resolved (a manifest's dict)
        d["prior"] = dict(prior)
    elif prior != "none":                       # a learned model as the search's prior (docs/learned.md)
        p = resolve(game, prior)
        if p.policy_kind is not LEARNED:
            raise ValueError(f"strategy {name!r}: its prior {prior!r} must be a learned strategy "
                             f"(learned or learned:FILE.json), not {p.kind}")
        d["prior"] = p.to_dict()
    if isinstance(rollout, dict):               # already resolved (a manifest's dict)
        d["rollout"] = dict(rollout)
        return d
    r = resolve(game, rollout)
    if r.policy_kind not in PLAYOUT_KINDS:
        raise ValueError(f"strategy {name!r}: its rollout {rollout!r} must be a {PLAYOUT_NAMES} strategy, "
                         f"not {r.kind}")
    if r.policy_kind is HEURISTIC:
        r = r.with_noise(epsilon=eps)
    elif r.policy_kind is LEARNED:              # the model plays greedily: its noise is the search's setting
        d["rollout_epsilon"] = float(eps)
    d["rollout"] = r.to_dict()
    return d


def search_name(settings, game=None):
    """The canonical name of a search strategy: ``mcts``, or ``mcts:`` and its settings that differ
    from the defaults (``mcts:iterations=800,c=0.5``; the game's own defaults when ``game`` is given)."""
    defaults = _search_defaults(game) if game is not None else search_defaults(None)
    diff = [f"{k}={_fmt(settings[k])}" for k in defaults if k in settings
            and settings[k] != defaults[k]]
    return SEARCH.name + (":" + ",".join(diff) if diff else "")


def _fmt(v):
    return f"{v:g}" if isinstance(v, float) else str(v)


def parse_search(game, text):
    """The :class:`Strategy` of a name ``mcts`` / ``mcts:key=value,...``; ValueError naming a bad part."""
    head, _, rest = text.partition(":")
    settings = {}
    for part in filter(None, (p.strip() for p in rest.split(","))):
        key, eq, value = part.partition("=")
        key = key.strip()
        if not eq or key not in SEARCH_TYPES:
            raise ValueError(f"strategy {text!r}: {part!r} is not a search setting "
                             f"(give key=value with key one of {', '.join(SEARCH_TYPES)})")
        if key in settings:
            raise ValueError(f"strategy {text!r}: {key} given twice; give each search setting once")
        kind = SEARCH_TYPES[key]
        try:
            settings[key] = kind(value.strip()) if kind is not float else float(value)
        except ValueError:
            raise ValueError(f"strategy {text!r}: {key} must be {'a whole number' if kind is int else 'a number'}"
                             f", not {value.strip()!r}") from None
    settings = SEARCH.check(_game_module(game), f"strategy {text!r}", settings)
    s = Strategy(game=game, name=search_name(settings, game), kind=SEARCH.name,
                 description=f"ISMCTS, {settings.get('iterations', _search_defaults(game)['iterations'])} iterations "
                             f"per decision", search=settings)
    s.to_dict()                 # the rollout strategy resolves (or a one-line error)
    return s


def split_names(text):
    """A comma-separated list of strategy names, the settings of a search name kept with it:
    ``"mcts:iterations=800,c=0.5,balanced"`` -> ``["mcts:iterations=800,c=0.5", "balanced"]``."""
    out = []
    for part in (p.strip() for p in str(text).split(",")):
        if out and "=" in part and ":" not in part.partition("=")[0] and _is_search_name(out[-1]):
            out[-1] += "," + part
        else:
            out.append(part)
    return out


def _is_search_name(text):
    """Whether a strategy name is a search's: ``mcts`` or ``mcts:key=value,...``."""
    return str(text).partition(":")[0] == SEARCH.name


def from_dict(d):
    """The strategy of ``Strategy.to_dict()`` (as stored in a run's manifest), validated."""
    d = dict(d)
    d.setdefault("description", "")
    kind = policy_kind(d.get("kind", RANDOM.name))
    where = f"strategy {d.get('name')!r}"
    if kind.searches:
        d["search"] = {k: d.pop(k) for k in list(d) if k in SEARCH_TYPES}
        kind.check(_module_or_none(d.get("game")), where, d["search"])
    else:
        kind.check(_module_or_none(d.get("game")), where, d)
    s = Strategy(**d)
    if kind is not RANDOM:
        s.as_policy()
    return s


def _game_module(game):
    return simcore.games[game]


def _module_or_none(game):
    try:
        return simcore.games[game]
    except KeyError:
        return None


def load_presets(path, game=None):
    """Read a preset TOML file: ``{name: Strategy}``.

    Each top-level table is one strategy: ``kind`` (default ``heuristic``),
    ``description`` and the kind's settings (``simcore._contract``'s kind
    objects check them): ``temperature``, ``epsilon`` and a ``weights`` table
    with one number per feature; or, for a search (kind ``mcts``),
    ``iterations``, ``c``, ``bias``, ``cutoff``, ``rollout``,
    ``rollout_epsilon`` (the rollout is resolved when the strategy is used).
    ``game`` defaults to the file's ``game`` key or its name (``hellas.toml``,
    ``hellas_tuned.toml`` -> ``hellas``). Errors name the file and the key.
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
        name_of_kind = table.get("kind", HEURISTIC.name)
        if name_of_kind not in KINDS:
            raise ValueError(f"{where}: kind must be {', '.join(map(repr, KINDS))}, not {name_of_kind!r}")
        kind = KINDS[name_of_kind]
        allowed = {"kind", "description"} | set(kind.keys)
        extra = [k for k in table if k not in allowed]
        if extra:
            raise ValueError(f"{where}: unknown key {extra[0]!r} (known: {', '.join(sorted(allowed))})")
        settings = kind.check(_module_or_none(game), where, {k: v for k, v in table.items() if k in kind.keys},
                              weights_where=f"{path}: [{name}.weights]")
        description = str(table.get("description", ""))
        if kind.searches:
            out[name] = Strategy(game=game, name=name, kind=kind.name, search=settings, description=description)
        else:
            out[name] = Strategy(game=game, name=name, kind=kind.name, description=description, **settings)
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
    if _is_search_name(text):
        return parse_search(game, text)
    if text.partition(":")[0] == LEARNED.name:
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
    if s.searches:
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
