"""The Cython Hellas engine behind the reference engine's face, so each rule test runs on both.

``CYTHON`` offers what the scenario tests use of ``simcore.hellas.reference``:
``RefState.new/from_dict``, ``replay``, ``load_settings`` and the action
constants; the state's attributes are read from ``to_dict``.
"""
import types

from simcore import hellas
from simcore.hellas import reference as ref


class CyState:
    def __init__(self, st):
        self._st = st

    @classmethod
    def new(cls, players=3, seed=0, **settings):
        return cls(hellas.new_game(players=players, seed=seed, **settings))

    @classmethod
    def from_dict(cls, d):
        return cls(hellas.State.from_dict(d))

    # the step API, as it is
    def apply(self, a):
        self._st.apply(a)

    def legal_actions(self):
        return self._st.legal_actions()

    def current_player(self):
        return self._st.current_player()

    def is_over(self):
        return self._st.is_over()

    def scores(self):
        return self._st.scores()

    def to_dict(self):
        return self._st.to_dict()

    def describe(self):
        return self._st.describe()

    def clone(self):
        return CyState(self._st.clone())

    @property
    def phase(self):
        return self._st.phase

    @property
    def decisions(self):
        return self._st.decisions

    @property
    def transcript(self):
        return self._st.transcript()

    @property
    def quarry_log(self):
        return self._st.quarry_log()

    @property
    def cfg(self):
        settings = dict(self._st.config.settings())
        return ref.load_settings(**settings)

    # position parts, from the dictionary
    def __getattr__(self, name):
        d = self._st.to_dict()
        if name == "pieces":
            return {p["field"]: (p["kind"], p["owner"]) for p in d["pieces"]}
        if name == "temple_columns":
            return {t["field"]: t["columns"] for t in d["temples"]}
        if name == "quarries":
            return {q["field"]: {"status": q["status"], "top": q["top"]} for q in d["quarries"]}
        if name == "stack":
            return d["stack"]
        if name in d:
            return d[name]
        raise AttributeError(name)


def _replay(players, seed, actions, **settings):
    if actions and isinstance(actions[0], dict):
        actions = [e["action"] for e in actions if e["kind"] == "decision"]
    return CyState(hellas.replay(players, seed, actions, **settings))


CYTHON = types.SimpleNamespace(
    RefState=CyState, replay=_replay, load_settings=ref.load_settings, temple_splits=ref.temple_splits,
    PASS=ref.PASS, FIELD0=ref.FIELD0, SPLIT0=ref.SPLIT0, DATA=ref.DATA,
    name="cython")
REFERENCE = ref

TEMPLES3 = ref.load_settings(3).temples          # Minotaur's temple fields [8, 20, 31, 43, 62]


def position(eng, players=3, phase="over", pieces=(), temples=None, rings=None, marble=None,
             quarries=None, worker=71, stack=None, monuments_built=None, **fields):
    """A position dictionary of engine ``eng`` (``CYTHON`` or ``REFERENCE``): a fresh game's, with the
    given parts replaced. ``pieces`` = (field, kind, owner); ``temples`` = {field: columns} (Minotaur's
    temples); ``quarries`` = {field: (status, top)}, the rest of the 40 tiles in the stack after
    ``stack``; ``phase="over"`` ends the game at round 3; other keys replace the dictionary's."""
    d = eng.RefState.new(players=players, seed=1).to_dict()
    n = players
    d["pieces"] = [{"field": f, "kind": k, "owner": o} for f, k, o in pieces]
    temples = temples or {}
    d["temples"] = [{"field": t, "columns": temples.get(t, 0)} for t in TEMPLES3]
    d["rings"] = list(rings or [0] * n)
    d["marble"] = list(marble or [10] * n)
    n_mon = sum(1 for _, k, _ in pieces if k == "monument")
    d["monuments_built"] = list(monuments_built or [n_mon] + [0] * (n - 1))
    d["supply"] = {"columns": 30 - sum(temples.values()), "rings": 14 - sum(d["rings"]),
                   "monuments": 3 - n_mon}
    if quarries is not None:
        d["quarries"] = [{"field": f, "status": s, "top": t} for f, (s, t) in sorted(quarries.items())]
        d["worker"] = worker
        tops = {t for _, t in quarries.values()}
        rest = [t for t in range(1, 41) if t not in tops]
        if stack is not None:
            rest = list(stack) + [t for t in rest if t not in stack]
        d["stack"] = rest
    if phase == "over":
        d.update(round=3, phase="over", cubes_left=[0] * n, spaces_used=[])
    d.update(fields)
    return d
