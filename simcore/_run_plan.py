"""The plan of a run: its arguments checked, its chunking and its identity (``RunPlan``).

Part of the runner (``simcore.run``): nothing here plays a game or touches a folder.
"""
import functools
import hashlib
import importlib
import json
import math
from dataclasses import dataclass, field

import numpy as np

import simcore
from simcore import _results as R
from simcore._contract import SEARCH_DEFAULTS, policy_argument, random_strategy, searches
from simcore._manifest import run_id_of

BACKENDS = ("loky", "threading", "dask")
DEFAULT_MAX_CHUNK = 100_000
DEFAULT_MIN_CHUNK = 10_000
SEARCH_CHUNK_WORK = 4000     # a search run's chunk: about this many iterations per decision x games
LEARNED_CHUNK = 500          # a learned seat's run: 2-30 ms a game, so 1-15 s a chunk
SEARCH_ESTIMATE_RUN = 100   # games from which a run with a searching seat prints its estimated time
BIG_RUN = 10_000_000          # games from which a run is sized first (time, disk) and refused if it cannot fit
# Keys that must agree between a folder's manifest and a command resuming it.
# The variant as typed is recorded; the engine's canonical settings are compared.
SPEC_KEYS = ("format", "game", "players", "strategies", "settings",
             "seed", "games", "events", "chunking")


class RunMismatch(ValueError):
    """The folder holds a different run than the one asked for."""


# ---------------------------------------------------------------- the spec

def parse_variant(items):
    """``["city_links=no_agora_chains", "start_player=0"]`` -> ``{"city_links": "no_agora_chains", ...}``.

    Values stay strings: the game's ``make_config`` parses them (it knows each
    setting's type) and its ``settings()`` is the canonical record.
    """
    variant = {}
    for item in items or ():
        key, sep, value = str(item).partition("=")
        key, value = key.strip(), value.strip()
        if not sep or not key:
            raise ValueError(f"bad variant '{item}': write KEY=VALUE, e.g. quarry_yields=falling")
        if key in variant:
            raise ValueError(f"variant {key} given twice ({key}={variant[key]}, {key}={value}); "
                             f"give each setting once")
        variant[key] = value
    return variant


def default_chunk_size(games, strategies=()):
    """Chunk size from the game count and the seats' strategies only, so a resumed run (any workers)
    finds the same parts.

    Seats that search (a searching kind) make a game thousands of times dearer:
    then a chunk holds about ``SEARCH_CHUNK_WORK`` iterations per decision
    summed over the seats' games (MCTS-400 in one seat: 10 games, a few
    seconds), and at most 500 chunks in all. A ``learned`` seat (milliseconds
    a game) gets chunks of ``LEARNED_CHUNK`` games (more past 250,000 games).
    """
    work = sum(int(s.get("iterations", SEARCH_DEFAULTS["iterations"])) for s in strategies
               if searches(s))
    if work:
        return int(min(games, max(1, SEARCH_CHUNK_WORK // work, math.ceil(games / 500))))
    if any(s.get("kind") == "learned" for s in strategies):
        # a model's seat costs milliseconds a game: chunks of the presets' 10,000 games left a run of
        # 9,604 on one thread for minutes, deaf to signals until its chunk ended
        return int(min(games, max(LEARNED_CHUNK, math.ceil(games / 500))))
    return int(min(DEFAULT_MAX_CHUNK, max(DEFAULT_MIN_CHUNK, math.ceil(games / 64)), games))


def _jsonable(obj):
    """Settings and strategy dicts as plain JSON (numpy arrays/scalars to lists/numbers)."""
    return json.loads(json.dumps(obj, default=_json_default))


def _json_default(o):
    if isinstance(o, np.ndarray):
        return o.tolist()
    if isinstance(o, np.generic):
        return o.item()
    if isinstance(o, (set, tuple)):
        return list(o)
    return str(o)


@dataclass
class RunPlan:
    """Everything a run needs, checked; ``manifest_spec()`` is what resume compares."""

    game: str
    module: str
    players: int
    strategies: list          # one resolved strategy dict per seat (strategies.Strategy.to_dict())
    variant: dict
    settings: dict
    data_status: dict
    seed: int
    games: int
    chunk_size: int
    events: bool = True

    @property
    def n_chunks(self):
        return -(-self.games // self.chunk_size)

    @property
    def digits(self):
        return R.part_digits(self.n_chunks)

    def chunk_bounds(self, chunk):
        start = chunk * self.chunk_size
        return start, min(start + self.chunk_size, self.games)

    def manifest_spec(self):
        return {
            "format": R.FORMAT,
            "game": self.game,
            "players": self.players,
            "strategies": [_jsonable(s) for s in self.strategies],
            "settings": _jsonable(self.settings),
            "seed": self.seed,
            "games": self.games,
            "events": self.events,
            "chunking": {"chunk_size": self.chunk_size, "n_chunks": self.n_chunks,
                         "file_digits": self.digits},
        }

    @property
    def config_hash(self):
        """A digest of what a game is played with (game, players, strategies, settings), not seed or count."""
        return config_hash(self.manifest_spec())

    @property
    def run_id(self):
        """A digest of what determines the results (not chunking): equal ids, equal tables."""
        return run_id_of(self.manifest_spec())


def config_hash(spec):
    """What the games are played with, digested: game, players, strategies, settings, events."""
    keys = ("format", "game", "players", "strategies", "settings", "events")
    blob = json.dumps({k: spec.get(k) for k in keys}, sort_keys=True).encode()
    return hashlib.sha256(blob).hexdigest()[:16]


def plan_run(game, players, games, seed, strategies=None, variant=None, chunk_size=None, events=True):
    """Check the arguments of a run and its config.

    ``strategies``: one resolved strategy per seat (``Strategy.to_dict()``
    dicts, or objects with ``to_dict()``; ``strategies.resolve_seats`` makes
    them from names); ``None``: uniformly random play in every seat. Raises
    ``ValueError`` with a message naming the bad argument.
    """
    mod = _get_game(game)
    players = check_players(game, players)
    if isinstance(games, bool) or not isinstance(games, (int, np.integer)) or games <= 0:
        raise ValueError(f"number of games must be a positive integer, not {games}")
    games = int(games)
    if not isinstance(seed, (int, np.integer)) or isinstance(seed, bool) or not 0 <= seed < 2 ** 63:
        raise ValueError(f"seed must be an integer 0..2^63-1, not {seed}")
    if chunk_size is not None and (not isinstance(chunk_size, (int, np.integer)) or chunk_size <= 0):
        raise ValueError(f"chunk size must be a positive integer, not {chunk_size}")

    resolved = seat_strategy_dicts(mod, game, players, strategies)

    variant = parse_variant(variant) if not isinstance(variant, dict) else dict(variant or {})
    config = mod.make_config(players, **variant)
    settings = config.settings()
    data_status = config.data_status()
    size = int(min(chunk_size, games)) if chunk_size else default_chunk_size(games, resolved)
    return RunPlan(game=game, module=mod.__name__, players=players, strategies=resolved,
                   variant=variant, settings=settings, data_status=data_status,
                   seed=int(seed), games=games, chunk_size=size, events=bool(events))


def seat_strategy_dicts(mod, game, players, strategies):
    """One checked strategy dict per seat (``None``: random play everywhere); ValueError otherwise."""
    if strategies is None:
        return [random_strategy(game) for _ in range(players)]
    out = [dict(s.to_dict() if hasattr(s, "to_dict") else s) for s in strategies]
    if len(out) != players:
        raise ValueError(f"{len(out)} strategies for {players} players: give one per seat")
    for s in out:
        if s.get("game") != game:
            raise ValueError(f"strategy {s.get('name')!r} is for {s.get('game')}, not {game}")
        policy_argument(mod, s)            # a bad kind or weight fails here, before any game
    return out


def check_players(game, players):
    """Return ``players`` as an int if ``game`` is played by that many, else raise ``ValueError``."""
    allowed = tuple(_get_game(game).PLAYERS)
    if isinstance(players, bool) or not isinstance(players, (int, np.integer)) or players not in allowed:
        raise ValueError(f"{game} is played by {', '.join(map(str, allowed))} players, not {players}")
    return int(players)


def _get_game(name):
    # an import-time ValueError (a bad BOARDLAB_ISA) passes through with its own message
    if name not in simcore.games:
        raise ValueError(f"unknown game '{name}' (known: {', '.join(simcore.games.keys())})")
    return simcore.get_game(name)


@functools.lru_cache(maxsize=8)
def _config(module, players, variant_items):
    mod = importlib.import_module(module)
    return mod.make_config(players, **dict(variant_items))


@dataclass
class RunResult:
    out: str
    plan: RunPlan
    games: int                 # games in the folder (all finished chunks)
    games_run: int             # games played by this call
    chunks_run: int
    wall_seconds: float
    win_share: list            # per seat, summed win shares (ties 1/k)
    resumed: bool = False
    extra: dict = field(default_factory=dict)

    @property
    def games_per_second(self):
        return self.games_run / self.wall_seconds if self.wall_seconds > 0 else float("nan")
