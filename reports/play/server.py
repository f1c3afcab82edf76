"""``boardlab play``: a game against the bots in the browser, served from 127.0.0.1.

The server is the standard library's ``http.server`` (ThreadingHTTPServer): the
page needs four JSON routes and one HTML page on the loopback interface, so a
framework would add a dependency and nothing the game uses. The page is the
viewer's (``reports/view``) in play mode.

Threads: the HTTP server answers in its own threads; one bot thread plays the
bots' moves (a search releases the GIL, so the page keeps being served while
a bot thinks). A session lock guards the game; a person's move is accepted
only when a human seat is to decide, for the newest position, with the action
text the page showed (a stale or forged request changes nothing).

Hidden information: the page shows the secrets (``hide``, ``hide_text`` of the game's board
module) of the seat at the screen only. Two or more human seats share one screen (hot seat)
rather than each having its own page: the server listens on 127.0.0.1 only, so every person
plays at this machine, and a page per seat would be one more window on the same screen. When a
human seat other than the one at the screen is to move, the page shows no seat's secrets and
asks to pass the screen to that player, who confirms (``/api/screen``); all frames are then
sent again as that seat may see them, and a person's move is accepted only from the seat at
the screen. Once the game is over everything is shown (the end reveals the cards). A game
whose board module hides nothing per seat (no ``hide_text``: Hellas, Yamataï) needs no step:
the screen goes to whichever person is to move.

Files: everything goes into the game's folder, under fixed names (``save.json``,
``results/``); nothing a browser sends is ever part of a path.
"""
import hmac
import json
import os
import secrets
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

import simcore

SAVE = "save.json"
RESULTS = "results"
MAX_BODY = 4096
HUMAN = "human"
ALL = "all"          # the perspective once the game is over: every seat's secrets are shown


def human_dict(game, seat):
    """The strategy dict a human seat has in the results folder (kind random: the kernel plays it scripted)."""
    return {"game": game, "name": HUMAN, "kind": "random", "human": True}


class Seat:
    """One seat: a person, or a bot that decides and shows its view (``reports.view.record.Viewpoint``)."""

    def __init__(self, game, spec, seat, base_seed):
        from reports.view.record import Viewpoint
        import strategies

        self.spec = spec
        self.human = spec == HUMAN
        if self.human:
            self.name, self.dict, self.view = HUMAN, human_dict(game, seat), None
            return
        strat = strategies.resolve(game, spec)
        self.name, self.dict = strat.name, strat.to_dict()
        self.view = Viewpoint(game, self.dict)
        self.base_seed = base_seed

    def decide(self, state):
        """``(action, view)`` of the bot at ``state``."""
        from simcore._search import ops_policy_action
        from strategies.agents import decision_seed

        legal = state.legal_actions()
        view = self.view(state, legal)
        if self.view.searches:
            return int(view.pop("best")), view
        return int(ops_policy_action(state, [self.view.arg] * state.players, decision_seed(state, self.base_seed))), view


class Session:
    """A game in progress: its state, frames, seats and folder."""

    def __init__(self, game, players, seats, run_seed, variant, folder, decisions=(), views=None, bot_delay=0.6,
                 log=print):
        from reports.view.record import Recorder
        from simcore.rng import game_seeds

        self.game, self.players, self.run_seed = game, int(players), int(run_seed)
        self.variant, self.folder, self.bot_delay, self.log = dict(variant), folder, float(bot_delay), log
        self.mod = simcore.games[game]
        self.config = self.mod.make_config(self.players, **self.variant)
        self.seat_specs = list(seats)
        self.seats = [Seat(game, s, p, self.run_seed) for p, s in enumerate(seats)]
        if not any(s.human for s in self.seats):
            raise ValueError("no seat is 'human': name one, e.g. --seats human,balanced")
        self.seed = int(game_seeds(self.run_seed, 0, 1)[0])
        state = self.mod.new_game(self.players, self.seed, self.config)
        self.rec = Recorder(game, state, [s.name for s in self.seats], [s.view for s in self.seats])
        self.lock = threading.RLock()
        self.wake = threading.Condition(self.lock)
        self.token = secrets.token_urlsafe(18)
        humans = [p for p, s in enumerate(self.seats) if s.human]
        self.screen = humans[0] if len(humans) == 1 else None     # hot seat: the screen is passed first
        from reports.view.record import adapter
        self.secrets = hasattr(adapter(game), "hide_text")        # a game with a seat's secrets (Akrotiri)
        self.thinking_seat = None
        self.error = None
        self.results = None
        self.stop = False
        self._logs = None
        self._resume(decisions, views)
        if self.state.is_over():
            self._finish()

    @property
    def state(self):
        return self.rec.state

    def _resume(self, decisions, views):
        """Replay the past ``decisions`` of a resumed game with the bots' views they showed.

        The views come from the save (``views``: one per decision, None for a person's); a view
        missing there or not of the shape the page draws is computed again: the same search with
        the same seed (``decision_seed``) or the same heuristic scores, so it is the one shown then.
        """
        views = list(views) if isinstance(views, list) and len(views) == len(decisions) else [None] * len(decisions)
        for a, v in zip(decisions, views):
            st = self.state
            seat = st.current_player()
            if self.seats[seat].human or v is None or not _view_fits(v, len(st.legal_actions())):
                frame = self.rec.step(int(a), view=not self.seats[seat].human)
                if isinstance(frame.get("view"), dict):
                    frame["view"].pop("best", None)
            else:
                frame = self.rec.step(int(a), view=False)
                frame["view"] = v

    def decisions(self):
        return [f["acts"][f["chosen"]] for f in self.rec.frames if "chosen" in f]

    # -- the game folder
    def save(self):
        """Write ``save.json`` (atomically); return its path."""
        doc = {"format": 1, "game": self.game, "players": self.players, "seats": self.seat_specs,
               "run_seed": self.run_seed, "variant": self.variant, "decisions": self.decisions(),
               "views": [f.get("view") for f in self.rec.frames if "chosen" in f]}
        path = os.path.join(self.folder, SAVE)
        tmp = path + ".tmp"
        with open(tmp, "w") as f:
            json.dump(doc, f)
        os.replace(tmp, path)
        return path

    def _finish(self):
        from reports.play.results import write_results

        if self.results is not None:
            return
        if not self.rec.frames or "chosen" in self.rec.frames[-1]:
            self.rec.finish()
        out = os.path.join(self.folder, RESULTS)
        if not os.path.exists(os.path.join(out, "manifest.json")):
            write_results(out, self.game, self.players, self.run_seed, [s.dict for s in self.seats],
                          self.variant, self.decisions())
        self.results = out
        self.log(f"game over: results folder {out} (boardlab replay/view/report read it)")

    # -- moves
    def human_move(self, frame, index, text):
        """Apply a person's choice; ``ValueError`` (nothing changed) if it is not the move the page may make now."""
        with self.lock:
            st = self.state
            if st.is_over():
                raise ValueError("the game is over")
            seat = st.current_player()
            if not self.seats[seat].human:
                raise ValueError(f"seat {seat} is a bot: wait for its move")
            if self.pass_to() is not None or seat != self.screen:
                raise ValueError(f"pass the screen to player {seat + 1} (seat {seat}) first")
            if frame != len(self.rec.frames):
                raise ValueError("that page shows an older position: it has been refreshed")
            legal = st.legal_actions()
            if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < len(legal):
                raise ValueError(f"action index must be an integer from 0 to {len(legal) - 1}")
            from reports.view.record import action_text
            if action_text(self.rec.ad, st, legal[index]) != text:
                raise ValueError("that action is not the one the page showed: refresh the page")
            self.rec.step(legal[index])
            self._after_move()

    def _after_move(self):
        with self.lock:
            self.save()
            if self.state.is_over():
                self._finish()
            self.wake.notify_all()

    def bot_loop(self):
        """Play the bots' moves, one at a time, until the game ends or the server stops."""
        while True:
            with self.lock:
                while not self.stop and not self.state.is_over() and self.seats[self.state.current_player()].human:
                    self.wake.wait(0.5)
                if self.stop or self.state.is_over():
                    return
                seat = self.state.current_player()
                self.thinking_seat = seat
                work = self.state.clone()
            t0 = time.perf_counter()
            try:
                action, view = self.seats[seat].decide(work)
            except Exception as exc:     # shown on the page; the game is left as it was
                with self.lock:
                    self.error = f"seat {seat}'s bot failed: {exc}"
                    self.thinking_seat = None
                return
            spent = time.perf_counter() - t0
            if spent < self.bot_delay:
                time.sleep(self.bot_delay - spent)
            with self.lock:
                legal = self.state.legal_actions()
                frame = self.rec.current()
                frame["chosen"] = legal.index(action)
                frame["view"] = view
                frame["think_s"] = round(spent, 3)
                self.state.apply(action)
                self.rec.frames.append(frame)
                self.thinking_seat = None
                self._after_move()

    # -- who sees the screen (hidden information)
    def pass_to(self):
        """The human seat the screen must be passed to before the game goes on, or None."""
        st = self.state
        if st.is_over():
            return None
        seat = st.current_player()
        if not self.seats[seat].human or seat == self.screen:
            return None
        if not self.secrets:              # a game without a seat's secrets: nothing to hide, no step to take
            self.screen = seat
            return None
        return seat

    def perspective(self):
        """Whose secrets the page may show: the seat at the screen; None (nobody's) while the screen
        is being passed; ALL once the game is over (the end reveals everything)."""
        if self.state.is_over():
            return ALL
        return None if self.pass_to() is not None else self.screen

    def take_screen(self, seat):
        """The person of ``seat`` has the screen now; ``ValueError`` (nothing changed) unless it is theirs to take."""
        with self.lock:
            want = self.pass_to()
            if not isinstance(seat, int) or isinstance(seat, bool) or seat != want:
                raise ValueError("the screen is not to be passed now" if want is None else
                                 f"the screen goes to player {want + 1} (seat {want}) now")
            self.screen = seat
            self.wake.notify_all()

    def _hidden(self, frame, viewer, ad):
        """``frame`` (a copy, as sent) with what ``viewer`` may not see hidden."""
        if viewer == ALL:
            return frame
        hide_text = getattr(ad, "hide_text", None)
        frame["pos"] = ad.hide(frame["pos"], viewer)
        actor = frame.get("seat", -1)
        if hide_text is not None:
            if "legal" in frame and actor != viewer:
                decided = "chosen" in frame
                frame["legal"] = [hide_text(t, viewer, actor, decided, decided and k == frame["chosen"])
                                  for k, t in enumerate(frame["legal"])]
            frame["log"] = [hide_text(line, viewer) for line in frame.get("log", [])]
        if actor != viewer and "chosen" not in frame:
            frame.pop("targets", None)         # a seat not at the screen decides: nothing to click
        return frame

    # -- what the page reads
    def snapshot(self, start, held=ALL):
        """The frames from ``start`` on (the last one: the position now), and the session's status.

        ``held``: the perspective the page's frames were sent for; when it is not the one now
        (the screen was passed, or the game ended), every frame is sent again, from 0."""
        from reports.view.record import adapter

        with self.lock:
            viewer = self.perspective()
            if held != viewer:
                start = 0
            n = len(self.rec.frames)
            start = max(0, min(int(start), n))
            frames = self.rec.frames_from(start) if start < n else []
            over = self.state.is_over()
            if not over:
                now = self.rec.current()
                now.pop("acts", None)
                now["log"] = []
                frames.append(now)
            ad = adapter(self.game)
            frames = [self._hidden(f, viewer, ad) for f in frames]
            out = {"start": start, "frames": frames, "over": over, "thinking": self.thinking_seat is not None,
                   "thinking_seat": self.thinking_seat, "folder": self.results or self.folder, "error": self.error,
                   "perspective": viewer, "pass_to": self.pass_to()}
            if start == 0:
                hide_text = getattr(ad, "hide_text", None)
                setup = self.rec.logs()[0]
                out["setup"] = setup if hide_text is None or viewer == ALL else [hide_text(x, viewer) for x in setup]
            return out

    def document(self):
        doc = self.rec.header()
        snap = self.snapshot(0)
        humans = [p for p, s in enumerate(self.seats) if s.human]
        doc.update(mode="play", token=self.token, human=[s.human for s in self.seats], frames=snap["frames"],
                   setup=snap["setup"], over=snap["over"], perspective=snap["perspective"], pass_to=snap["pass_to"],
                   subtitle=f"you play {', '.join(f'player {p + 1} (seat {p})' for p in humans)}"
                            f"{' on one screen, passed between you' if len(humans) > 1 else ''} · "
                            f"seed {self.run_seed} · folder {self.folder}")
        return doc


class Handler(BaseHTTPRequestHandler):
    """The page and its JSON routes; every /api call carries the session's token."""

    server_version = "boardlab-play"
    session = None             # set on the subclass made per server

    def log_message(self, fmt, *args):     # quiet: the terminal shows the game's messages only
        pass

    def _send(self, code, body, ctype="application/json"):
        data = body if isinstance(body, bytes) else json.dumps(body, separators=(",", ":")).encode()
        self.send_response(code)
        self.send_header("Content-Type", ctype + "; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Content-Security-Policy",
                         "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; "
                         "connect-src 'self'; img-src data:")
        self.end_headers()
        self.wfile.write(data)

    def _error(self, code, message):
        self._send(code, {"error": message})

    def _host_ok(self):
        port = self.server.server_address[1]
        return self.headers.get("Host", "") in (f"127.0.0.1:{port}", f"localhost:{port}")

    def _token_ok(self, query):
        given = self.headers.get("X-Boardlab-Token") or (query.get("token") or [""])[0]
        return hmac.compare_digest(given.encode(), self.session.token.encode())

    def _route(self):
        parts = urlsplit(self.path)
        return parts.path, parse_qs(parts.query)

    def do_GET(self):
        if not self._host_ok():
            return self._error(403, "requests must come from this machine's page (host 127.0.0.1)")
        path, query = self._route()
        if path in ("/", "/index.html"):
            from reports.view.page import render
            return self._send(200, render(self.session.document(), play=True).encode(), "text/html")
        if path == "/api/state":
            if not self._token_ok(query):
                return self._error(403, "missing or wrong session token: reload the page from the address boardlab printed")
            try:
                start = int((query.get("from") or ["0"])[0])
            except ValueError:
                return self._error(400, "from must be an integer")
            held = (query.get("held") or [ALL])[0]
            held = int(held) if held.isdigit() else (None if held == "none" else held)
            return self._send(200, self.session.snapshot(start, held))
        return self._error(404, f"no such page: {path[:80]}")

    def do_POST(self):
        if not self._host_ok():
            return self._error(403, "requests must come from this machine's page (host 127.0.0.1)")
        path, query = self._route()
        if path not in ("/api/act", "/api/save", "/api/closed", "/api/screen"):
            return self._error(404, f"no such action: {path[:80]}")
        if not self._token_ok(query):
            return self._error(403, "missing or wrong session token: reload the page from the address boardlab printed")
        try:
            length = int(self.headers.get("Content-Length") or 0)
        except ValueError:
            return self._error(400, "bad Content-Length")
        if length > MAX_BODY:
            return self._error(413, f"request too large ({length} bytes; at most {MAX_BODY})")
        raw = self.rfile.read(length) if length > 0 else b""
        s = self.session
        if path == "/api/closed":
            s.log(f"the page was closed; the game is saved in {s.folder}. Reopen {self.server.url} to go on, "
                  f"or stop with Ctrl-C and resume later: boardlab play --resume {s.folder}")
            return self._send(200, {"ok": True})
        try:
            body = json.loads(raw.decode("utf-8") or "{}")
            if not isinstance(body, dict):
                raise ValueError
        except ValueError:
            return self._error(400, "the request body must be a JSON object")
        if path == "/api/save":
            with s.lock:
                return self._send(200, {"file": s.save()})
        if path == "/api/screen":
            try:
                s.take_screen(body.get("seat"))
            except ValueError as exc:
                return self._error(409, str(exc))
            return self._send(200, s.snapshot(0, held=None))
        try:
            frame, index, text = body.get("frame"), body.get("index"), body.get("action_text")
            if not isinstance(frame, int) or not isinstance(text, str):
                raise ValueError("frame (an integer) and action_text (a string) are required")
            s.human_move(frame, index, text)
        except ValueError as exc:
            return self._error(409, str(exc))
        return self._send(200, s.snapshot(max(0, frame), s.screen))


def serve(session, port=8765, open_browser=True, log=print, ready=None):
    """Serve ``session`` on 127.0.0.1:``port`` until Ctrl-C (or ``session.stop``); the bot thread plays."""
    import errno

    handler = type("SessionHandler", (Handler,), {"session": session})
    try:
        server = ThreadingHTTPServer(("127.0.0.1", port), handler)
    except OSError as exc:
        if exc.errno == errno.EADDRINUSE:
            raise ValueError(f"port {port} on 127.0.0.1 is busy (another boardlab play?): "
                             f"give another with --port, or --port 0 for any free one") from None
        raise ValueError(f"cannot listen on 127.0.0.1:{port}: {exc.strerror}") from None
    server.daemon_threads = True
    server.url = f"http://127.0.0.1:{server.server_address[1]}/"
    bots = threading.Thread(target=session.bot_loop, name="boardlab-bots", daemon=True)
    bots.start()
    log(f"playing {session.mod.TITLE} at {server.url}  (game folder {session.folder}; Ctrl-C to stop, "
        f"resume with: boardlab play --resume {session.folder})")
    if ready is not None:
        ready(server)
    if open_browser:
        import webbrowser
        threading.Timer(0.3, lambda: webbrowser.open(server.url)).start()
    try:
        server.serve_forever(poll_interval=0.2)
    finally:
        session.stop = True
        with session.lock:
            session.wake.notify_all()
        server.server_close()
        with session.lock:
            session.save()
    return server


def load_save(folder):
    """The arguments of a saved game (``save.json`` of ``folder``); ValueError naming what is wrong."""
    path = os.path.join(folder, SAVE)
    if not os.path.isfile(path):
        raise ValueError(f"{folder} holds no {SAVE}: is it the folder of a boardlab play game?")
    try:
        with open(path) as f:
            doc = json.load(f)
        game, players, seats = doc["game"], int(doc["players"]), list(doc["seats"])
        run_seed, variant, decisions = int(doc["run_seed"]), dict(doc.get("variant") or {}), list(doc["decisions"])
        views = doc.get("views")         # a save of an older boardlab has none: they are computed again
    except (ValueError, KeyError, TypeError) as exc:
        raise ValueError(f"{path} is not a saved game ({exc})") from None
    simcore.get_game(game)                  # a game simcore lacks: one line naming the known ones
    whole = [doc["run_seed"], doc["players"], *decisions]
    if any(isinstance(v, bool) or not isinstance(v, int) for v in whole) or any(a < 0 for a in decisions):
        raise ValueError(f"{path}: run_seed, players and decisions must be whole numbers (decisions >= 0)")
    return dict(game=game, players=players, seats=seats, run_seed=run_seed, variant=variant, decisions=decisions,
                views=views)


def _view_fits(v, n):
    """Whether a saved view is one the page can draw for a decision of ``n`` legal actions."""
    def numbers(xs, none_ok=False):
        return isinstance(xs, list) and len(xs) == n and all(
            (x is None and none_ok) or (isinstance(x, (int, float)) and not isinstance(x, bool)) for x in xs)

    if not isinstance(v, dict):
        return False
    if v.get("kind") == "h":
        return set(v) == {"kind", "v"} and numbers(v["v"])
    if v.get("kind") == "m":
        return set(v) == {"kind", "n", "w"} and numbers(v["n"]) and numbers(v["w"], none_ok=True)
    return False


def print_err(line):
    print(line, file=sys.stderr, flush=True)
