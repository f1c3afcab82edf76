"""A game played in the browser, written as a results folder that ``replay``, ``view`` and ``report`` read.

The tables are the batch kernel's own (``play_batch`` through ``simcore.run.simulate``,
one game, one chunk): every seat is a *scripted decider* that returns the
recorded decisions in order, so every column (scores, outcome metrics,
events) is computed by the same code as in any run. The decisions are also
stored in ``decisions.json``: a human seat cannot be replayed from a
strategy, so ``simcore.run.replay`` takes them from there.

A scripted decider is a C ``Decider`` (``simcore/_game_ops.pxd``: a function
pointer and a context) made with ctypes; the kernel asks the engine's
``_external_deciders`` for its seats' deciders, which this module answers
for the duration of the one-game run.
"""
import contextlib
import ctypes
import json
import os
import threading

import simcore
from simcore.run import DECISIONS

_DECIDE = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_uint64)
_CAPSULE_NAME = b"simcore.Decider"
_capsule_new = ctypes.pythonapi.PyCapsule_New
_capsule_new.restype = ctypes.py_object
_capsule_new.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
_lock = threading.Lock()


class _CDecider(ctypes.Structure):
    _fields_ = [("decide", _DECIDE), ("ctx", ctypes.c_void_p)]


class _Script:
    """The recorded decisions, handed out in order to whichever seat decides."""

    def __init__(self, actions):
        self.actions = [int(a) for a in actions]
        self.next = 0
        self.overrun = False

        def decide(ctx, cfg, state, seed):
            if self.next >= len(self.actions):
                self.overrun = True          # cannot happen for a checked script; the caller checks
                return self.actions[-1]
            a = self.actions[self.next]
            self.next += 1
            return a

        self._fn = _DECIDE(decide)
        self._c = _CDecider(self._fn, None)
        self._capsule = _capsule_new(ctypes.addressof(self._c), _CAPSULE_NAME, None)

    def capsule(self):
        return self._capsule


@contextlib.contextmanager
def _scripted(mod, script):
    """While inside, the engine of ``mod`` gives every seat the scripted decider."""
    engine = __import__(f"{mod.__name__}._engine", fromlist=["_external_deciders"])
    original = engine._external_deciders

    def deciders(ops_capsule, policies, players):
        return [None] * players, [script] * players

    with _lock:
        engine._external_deciders = deciders
        try:
            yield
        finally:
            engine._external_deciders = original


def write_results(out, game, players, run_seed, seat_dicts, variant, actions):
    """Write the results folder ``out`` of one finished game (decisions ``actions``).

    ``seat_dicts``: one strategy dict per seat (a human seat: a ``random``-kind
    dict named ``human``). The game's seed is game 0's of ``run_seed``.
    Returns the final scores of the replayed game; ``ValueError`` if the kernel's game
    differs from the recorded one (then the folder is removed).
    """
    import shutil

    from simcore import run as simrun
    from simcore.rng import game_seeds

    mod = simcore.games[game]
    config = mod.make_config(players, **variant)
    seed = int(game_seeds(run_seed, 0, 1)[0])
    state = mod.replay(players, seed, list(actions), config=config)
    if not state.is_over():
        raise ValueError("the game is not over: nothing to write yet")
    script = _Script(actions)
    with _scripted(mod, script):
        simrun.simulate(game, players=players, games=1, seed=run_seed, out=out, strategies=seat_dicts,
                        variant=variant, workers=1, chunk_size=1, backend="threading", progress=False)
    rep_scores = state.scores()
    problem = None
    if script.overrun or script.next != len(script.actions):
        problem = f"the kernel took {script.next} decisions of {len(script.actions)}"
    else:
        import pyarrow.parquet as pq
        from simcore import _results as R
        manifest = json.load(open(os.path.join(out, R.MANIFEST)))
        part = R.part_name(0, manifest["chunking"]["file_digits"])
        tab = pq.read_table(os.path.join(out, "players", part)).to_pandas().sort_values("seat")
        if list(tab["total"]) != list(rep_scores["total"]):
            problem = f"totals {list(tab['total'])} differ from the game's {rep_scores['total']}"
    if problem:
        shutil.rmtree(out, ignore_errors=True)
        raise ValueError(f"could not write the results folder: {problem}")
    with open(os.path.join(out, DECISIONS), "w") as f:
        json.dump({"format": 1, "games": {"0": [int(a) for a in actions]}}, f)
    return rep_scores
