"""A game as the viewer shows it: one frame per decision, with the deciding agent's view.

A frame holds the position before the decision (``pos``, the game's compact
position of ``reports/view/<game>.py``), the running score by category
(``score``: one list per category, then ``total``), the seat to decide, the
legal actions' texts and board targets, the chosen action's index, the agent's
view of every option (a heuristic's score, or a search's visit shares and
values) and the transcript lines the decision caused. The last frame is the
final position (no decision).

The agent's view is recomputed here, while the game is replayed for viewing:
the simulation itself records nothing more. A search seat's view is the same
search the run made (same seed: ``simcore._mcts.decision_seed``), so its most
visited action is the action played.
"""
import importlib
import os

import numpy as np

import simcore

def adapter(game):
    """The viewer module of ``game`` (``reports/view/boards/<game>.py``); ValueError if it has none."""
    simcore.get_game(game)                      # a game boardlab does not know: simcore's words
    try:
        return importlib.import_module(f"reports.view.boards.{game}")
    except ModuleNotFoundError as e:
        if e.name != f"reports.view.boards.{game}":
            raise
        raise ValueError(f"the viewer has no board drawing for {game!r} (reports/view/boards/ holds "
                         f"one module per game)") from None


def has_board(game):
    """Whether the viewer draws ``game`` (a board module in reports/view/boards/)."""
    import importlib.util

    return importlib.util.find_spec(f"reports.view.boards.{game}") is not None


def _strip(text):
    head, sep, rest = text.partition(": ")
    return rest if sep and head.startswith("seat ") else text


def action_text(ad, state, action):
    """The text of ``action`` at ``state`` as a page lists it: the engine's words, or the board
    module's (``action_text``: an action whose meaning rests on what only its seat knows, such as
    the tiles Yamataï's fleet 3 peeked at) — without the ``seat N:`` prefix."""
    own = getattr(ad, "action_text", None)
    return _strip(own(state, action) if own is not None else state.action_to_str(action))


class Viewpoint:
    """The agent's view of a decision, for one seat's strategy dict (``Strategy.to_dict()``)."""

    def __init__(self, game, strategy):
        from simcore._contract import policy_argument, searches
        self.game, self.mod = game, simcore.games[game]
        self.kind = strategy.get("kind", "random")
        self.searches = searches(strategy)
        self.strategy = strategy
        self.arg = policy_argument(self.mod, strategy)
        if self.kind == "heuristic":
            self.weights = np.asarray(self.arg, dtype=float)[:len(self.mod.FEATURES)]

    def __call__(self, state, legal):
        """``{"kind": "h", "v": scores}``, ``{"kind": "m", "n": visit shares, "w": values}`` or None."""
        if self.kind == "heuristic":
            if hasattr(self.mod, "policy_scores"):
                acts, sc = self.mod.policy_scores(state, self.arg)
            else:
                from strategies.imitate import action_features
                acts, F, off = action_features(self.game, state, self.arg)
                sc = F @ self.weights + off
            where = dict(zip((int(a) for a in acts), (float(x) for x in sc)))
            return {"kind": "h", "v": [round(where.get(a, float("nan")), 3) for a in legal]}
        if self.searches:
            from simcore._mcts import decision_seed, search
            a = self.arg
            r = search(state, a.iterations, a.c, [a.rollout] * state.players, decision_seed(state.seed, state.decisions),
                       a.bias, cutoff=a.cutoff, points=a.points)
            visits = dict(zip(r["actions"], r["visits"].tolist()))
            values = dict(zip(r["actions"], r["values"].tolist()))
            total = max(sum(visits.values()), 1)
            return {"kind": "m", "n": [round(visits.get(x, 0) / total, 4) for x in legal],
                    "w": [None if x not in values else round(values[x], 3) for x in legal],
                    "best": r["best"]}
        return None


def score_rows(mod, state):
    sc = state.scores()
    return [list(map(int, sc[c])) for c in list(mod.SCORE_CATEGORIES) + ["total"]]


class Recorder:
    """Frames of one game, built as it is played (the viewer's replay and ``boardlab play`` share it)."""

    def __init__(self, game, state, seat_names, viewpoints=None):
        self.game, self.mod, self.ad = game, simcore.games[game], adapter(game)
        self.state = state
        self.names = list(seat_names)
        self.viewpoints = viewpoints
        self.frames = []

    def header(self):
        cfg = self.state.config
        return {"game": self.game, "title": self.mod.TITLE, "players": self.state.players,
                "seats": self.names, "categories": list(self.mod.SCORE_CATEGORIES) + ["total"],
                "board": self.ad.board(cfg), "seed": int(self.state.seed)}

    def current(self):
        """The frame of the position now: its legal actions (not yet chosen)."""
        st = self.state
        legal = st.legal_actions()
        frame = {"pos": self.ad.position(st), "score": score_rows(self.mod, st),
                 "seat": int(st.current_player())}
        if legal:
            texts = [action_text(self.ad, st, a) for a in legal]
            frame.update(legal=texts, acts=legal, targets=[self.ad.target(t) for t in texts])
        return frame

    def step(self, action, view=True):
        """Record the decision ``action`` at the position now, then apply it."""
        st = self.state
        frame = self.current()
        legal = frame["acts"]
        if int(action) not in legal:
            raise ValueError(f"action {action} is not legal now")
        frame["chosen"] = legal.index(int(action))
        if view and self.viewpoints is not None:
            vp = self.viewpoints[st.current_player()]
            frame["view"] = vp(st, legal) if vp is not None else None
        st.apply(int(action))
        self.frames.append(frame)
        return frame

    def finish(self):
        """Append the final frame (the game is over)."""
        frame = self.current()
        self.frames.append(frame)
        return frame

    def logs(self):
        """``(set-up lines, lines after each decision)``: the transcript split at the decisions."""
        key = (len(self.frames), self.state.decisions)
        if getattr(self, "_logs_key", None) == key:
            return self._logs
        setup, after = [], []
        for e in self.state.transcript():
            if e.get("kind") == "decision":
                after.append([])
            else:
                (after[-1] if after else setup).append(e["text"])
        self._logs_key, self._logs = key, (setup, after)
        return setup, after

    def frames_from(self, start=0):
        """The frames from index ``start`` as sent to a page (with their transcript lines)."""
        _, after = self.logs()
        out = []
        for i in range(start, len(self.frames)):
            f = {k: v for k, v in self.frames[i].items() if k != "acts"}
            f["log"] = after[i] if i < len(after) else []
            out.append(f)
        return out

    def document(self):
        doc = self.header()
        doc["setup"] = self.logs()[0]
        doc["frames"] = self.frames_from(0)
        return doc


def record_run_game(run_dir, game_index, view=True):
    """Replay game ``game_index`` of a results folder and record every decision (the viewer's data)."""
    from simcore import run as simrun
    from simcore._contract import policy_argument
    from reports.view.positions import game_config

    rep = simrun.replay(run_dir, game_index)
    m = rep["manifest"]
    game = m["game"]
    adapter(game)
    mod, config = game_config(m)
    actions = simrun.recorded_decisions(run_dir, game_index)      # a game played in the browser
    if actions is None:
        policies = [policy_argument(mod, d) for d in m["strategies"]]
        actions = list(mod.play_actions(m["players"], rep["seed"], policies, config=config))
    state = mod.new_game(m["players"], rep["seed"], config)
    vps = [None if d.get("human") else Viewpoint(game, d) for d in m["strategies"]] if view else None
    rec = Recorder(game, state, [d.get("name", "?") for d in m["strategies"]], vps)
    for a in actions:
        rec.step(a, view=view)
    rec.finish()
    doc = rec.document()
    status = getattr(config, "data_status", None)
    doc.update(run=str(run_dir), game_index=int(game_index), run_seed=m["seed"],
               data_status=status() if callable(status) else status, mismatches=rep["mismatches"])
    return doc


def write_view(run_dir, game_index, out=None, view=True):
    """Replay game ``game_index`` of ``run_dir`` and write its viewer page; returns the path."""
    from reports.view.page import render

    doc = record_run_game(run_dir, game_index, view=view)
    seats = ", ".join(f"seat {p} {n}" for p, n in enumerate(doc["seats"]))
    doc["subtitle"] = f"game {game_index} of {os.path.basename(os.path.normpath(str(run_dir)))} · seed {doc['seed']} · {seats}"
    if out is None:
        out = os.path.join(str(run_dir), "view", f"game-{game_index}.html")
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    from simcore._data import write_text_atomic
    write_text_atomic(out, render(doc))          # a full disk leaves no half page, no temporary file
    return out
