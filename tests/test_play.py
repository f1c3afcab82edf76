"""boardlab play: the server's guards, save and resume, the results folder, and whole games clicked in Chromium."""
import json
import os
import threading
import time
import urllib.error
import urllib.request

import pandas as pd
import pytest

import simcore
from reports.cli import main
from reports.play.server import Session, load_save, serve


class Served:
    """A session served on a free port in a thread (stopped by ``close``)."""

    def __init__(self, session):
        self.session = session
        got = threading.Event()
        self.lines = []

        def ready(server):
            self.server = server
            got.set()

        self.thread = threading.Thread(target=serve, args=(session,),
                                       kwargs=dict(port=0, open_browser=False, log=self.lines.append, ready=ready),
                                       daemon=True)
        self.thread.start()
        assert got.wait(20)
        self.url = self.server.url

    def call(self, path, body=None, token=True, host=None, raw=None):
        headers = {"Content-Type": "application/json"}
        if token:
            headers["X-Boardlab-Token"] = self.session.token if token is True else token
        if host:
            headers["Host"] = host
        data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
        req = urllib.request.Request(self.url + path, data=data, headers=headers)
        try:
            with urllib.request.urlopen(req, timeout=30) as r:
                return r.status, json.loads(r.read())
        except urllib.error.HTTPError as e:
            return e.code, json.loads(e.read())

    def close(self):
        self.server.shutdown()
        self.thread.join(20)


def _session(tmp_path, game="hellas", seats=("human", "random", "random"), seed=4, delay=0.0, **kw):
    folder = str(tmp_path / "game")
    os.makedirs(folder, exist_ok=True)
    return Session(game, len(seats), list(seats), seed, {}, folder, bot_delay=delay, log=lambda *_: None, **kw)


def _wait_human(srv, timeout=30):
    t0 = time.time()
    while time.time() - t0 < timeout:
        code, s = srv.call("api/state?from=0")
        assert code == 200
        last = s["frames"][-1]
        if s["over"] or (not s["thinking"] and last.get("legal") and srv.session.seats[last["seat"]].human):
            return s
        time.sleep(0.05)
    raise AssertionError("the bots did not move")


def test_guards_refuse_and_change_nothing(tmp_path):
    srv = Served(_session(tmp_path))
    try:
        s = _wait_human(srv)
        n = len(s["frames"]) - 1
        before = list(srv.session.decisions())
        last = s["frames"][-1]
        ok_body = {"frame": n, "index": 0, "action_text": last["legal"][0]}
        assert srv.call("api/state?from=0", token=False)[0] == 403
        assert srv.call("api/act", ok_body, token="forged")[0] == 403
        assert srv.call("api/state?from=0", host="evil.example:80")[0] == 403     # DNS rebinding
        assert srv.call("api/act", dict(ok_body, frame=n - 1))[0] == 409          # an older position
        assert srv.call("api/act", dict(ok_body, index=len(last["legal"])))[0] == 409
        assert srv.call("api/act", dict(ok_body, index="0"))[0] == 409
        assert srv.call("api/act", dict(ok_body, action_text="build a palace on the moon"))[0] == 409
        assert srv.call("api/act", raw=b"{not json")[0] == 400
        assert srv.call("api/act", raw=b"x" * 5000)[0] == 413
        for path in ("../../etc/passwd", "api/../save.json", "save.json", "results/manifest.json"):
            assert srv.call(path)[0] == 404
        code, msg = srv.call("api/act", {"frame": n})
        assert code == 409 and "required" in msg["error"]
        assert srv.session.decisions() == before
        assert set(os.listdir(srv.session.folder)) <= {"save.json"}
        code, s2 = srv.call("api/act", ok_body)                                   # the real move goes through
        assert code == 200 and len(srv.session.decisions()) == len(before) + 1
        assert srv.call("api/closed", {})[0] == 200
        assert srv.session.decisions() == before + [srv.session.rec.frames[n]["acts"][0]]
    finally:
        srv.close()


def test_busy_port_is_a_clear_error(tmp_path):
    srv = Served(_session(tmp_path))
    try:
        port = srv.server.server_address[1]
        with pytest.raises(ValueError, match=f"port {port} on 127.0.0.1 is busy"):
            serve(_session(tmp_path / "b"), port=port, open_browser=False, log=lambda *_: None)
    finally:
        srv.close()


def test_cli_refusals_are_one_line(tmp_path, capsys):
    assert main(["play", "hellas", "--seats", "balanced,balanced", "--no-browser"]) == 2
    assert main(["play", "hellas", "--seats", "human,balanced", "--players", "3", "--no-browser"]) == 2
    assert main(["play", "chess", "--seats", "human,balanced", "--no-browser"]) == 2
    assert main(["play", "--resume", str(tmp_path), "--no-browser"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 4 and all(e.startswith("boardlab: error: ") for e in err)


def test_save_resume_and_results_folder(tmp_path):
    s = _session(tmp_path, game="akrotiri", seats=("human", "random"), seed=11)
    srv = Served(s)
    try:
        for _ in range(5):
            st = _wait_human(srv)
            last = st["frames"][-1]
            assert srv.call("api/act", {"frame": len(st["frames"]) - 1, "index": 0,
                                        "action_text": last["legal"][0]})[0] == 200
    finally:
        srv.close()
    saved = load_save(s.folder)
    assert saved["decisions"] == s.decisions() and len(saved["decisions"]) >= 5
    again = Session(saved["game"], saved["players"], saved["seats"], saved["run_seed"], saved["variant"], s.folder,
                    decisions=saved["decisions"], bot_delay=0, log=lambda *_: None)
    assert again.state.to_dict() == s.state.to_dict()
    out = _play_out(again)         # then the folder is a run's
    st = again.state
    assert out and os.path.exists(os.path.join(out, "manifest.json"))
    tab = pd.read_parquet(os.path.join(out, "players")).sort_values("seat")
    assert list(tab["total"]) == st.scores()["total"] and list(tab["strategy"]) == ["human", "random"]
    assert main(["replay", out, "--game", "0", "--quiet"]) == 0      # scores equal the stored rows
    assert main(["view", out, "--game", "0", "--out", str(tmp_path / "v.html")]) == 0


def test_a_resumed_game_shows_the_earlier_bot_moves_with_their_views(tmp_path):
    s = _session(tmp_path, seats=("human", "balanced", "mcts:iterations=20"), seed=7)
    srv = Served(s)
    try:
        for _ in range(3):
            st = _wait_human(srv)
            assert srv.call("api/act", {"frame": len(st["frames"]) - 1, "index": 0,
                                        "action_text": st["frames"][-1]["legal"][0]})[0] == 200
        _wait_human(srv)
    finally:
        srv.close()
    shown = [f.get("view") for f in s.rec.frames if "chosen" in f]
    kinds = [None if v is None else v["kind"] for v in shown]
    assert kinds.count("h") >= 3 and kinds.count("m") >= 3 and kinds.count(None) == 3
    saved = load_save(s.folder)
    assert saved["views"] == shown
    args = {k: saved[k] for k in ("game", "players", "seats", "run_seed", "variant")}
    again = Session(folder=s.folder, decisions=saved["decisions"], views=saved["views"], bot_delay=0,
                    log=lambda *_: None, **args)
    assert [f.get("view") for f in again.rec.frames if "chosen" in f] == shown
    def page(session):        # the frames the page gets (but the bots' thinking times)
        return [{k: v for k, v in f.items() if k != "think_s"} for f in session.snapshot(0)["frames"]]
    a, b = page(again), page(s)
    assert len(a) == len(b)
    for x, y in zip(a, b):
        for k in set(x) | set(y):
            assert x.get(k) == y.get(k), k
    # a save without views (or with a view the page cannot draw) gets them computed again: the same
    bad = list(saved["views"])
    bad[1] = {"kind": "h", "v": "<script>"}
    for views in (None, bad):
        again = Session(folder=s.folder, decisions=saved["decisions"], views=views, bot_delay=0,
                        log=lambda *_: None, **args)
        assert [f.get("view") for f in again.rec.frames if "chosen" in f] == shown


def _play_out(session):
    """Play ``session`` to its end outside the server: the human takes the first legal action."""
    st = session.state
    while not st.is_over():
        if session.seats[st.current_player()].human:
            session.human_move(len(session.rec.frames), 0, session.rec.current()["legal"][0])
        else:
            a, view = session.seats[st.current_player()].decide(st)
            session.rec.step(a)
            session._after_move()
    return session.results


def test_a_played_game_makes_a_report(tmp_path):
    out = _play_out(_session(tmp_path, seats=("balanced", "human", "mcts:iterations=20"), seed=2))
    assert main(["report", out, "--out", str(tmp_path / "rep")]) == 0
    assert os.path.exists(tmp_path / "rep" / "report.html")


# ---------------------------------------------------------------- clicked in a real browser

@pytest.mark.parametrize("game,seats", [("hellas", ("human", "random", "random")),
                                        ("yamatai", ("random", "human")),
                                        ("akrotiri", ("human", "random"))])
def test_a_human_game_played_to_its_end_by_clicking(tmp_path, game, seats):
    from browser import chrome
    from selenium.common.exceptions import StaleElementReferenceException, WebDriverException
    from selenium.webdriver.common.by import By

    session = _session(tmp_path, game=game, seats=seats, seed=21)
    srv = Served(session)
    drv = chrome()
    clicks = board_clicks = 0
    try:
        drv.get(srv.url)
        t0 = time.time()
        pick = ("const rows = [...document.querySelectorAll('#legal tr.pick')].filter((r) => r.style.display !== 'none');"
                "return rows.length ? rows[arguments[0] % rows.length] : null;")
        spot = ("const t = [...document.querySelectorAll('#board .tg')];"
                "return t.length ? t[arguments[0] % t.length] : null;")
        while not drv.find_elements(By.ID, "final-line"):
            assert time.time() - t0 < 900, f"{game}: not over after {clicks} clicks ({session.error})"
            try:
                row = drv.execute_script(pick, clicks)
                if row is None:
                    time.sleep(0.05)
                    continue
                before = len(session.decisions())
                target = drv.execute_script(spot, clicks) if clicks % 2 == 0 else None
                if target is not None:
                    # a click on the board: one action there is taken; several: the list keeps only them
                    drv.execute_script("arguments[0].dispatchEvent(new MouseEvent('click', {bubbles: true}))", target)
                    board_clicks += 1
                    if len(session.decisions()) == before:
                        row = drv.execute_script(pick, 0)
                        if row is not None:
                            row.click()
                else:
                    row.click()
                clicks += 1
                deadline = time.time() + 10
                while len(session.decisions()) == before and time.time() < deadline:
                    time.sleep(0.02)
            except (StaleElementReferenceException, WebDriverException):
                time.sleep(0.05)              # the page re-rendered under the click: look again
        totals = session.state.scores()["total"]
        # read in one script (no element handle the next render could make stale), until the last
        # render has landed or 10 s have passed
        read = ("return [document.getElementById('final-line').textContent,"
                " [...document.querySelectorAll('#players td[data-cat=\"total\"]')].map((c) => c.textContent)];")
        deadline = time.time() + 10
        while True:
            final, cells = drv.execute_script(read)
            shown = [int(c) for c in cells if c.strip().lstrip("-").isdigit()]
            if (shown == totals and str(max(totals)) in final) or time.time() > deadline:
                break
            time.sleep(0.1)
        assert shown == totals and str(max(totals)) in final, (shown, totals, final)
        assert board_clicks > 0
        deadline = time.time() + 30
        while session.results is None and time.time() < deadline:
            time.sleep(0.1)
        tab = pd.read_parquet(os.path.join(session.results, "players")).sort_values("seat")
        assert list(tab["total"]) == totals
        assert list(tab["strategy"]) == [s if s == "human" else "random" for s in seats]
        assert simcore.games[game].replay(len(seats), session.seed, session.decisions()).scores()["total"] == totals
    finally:
        drv.quit()
        srv.close()


# ---------------------------------------------------------------- two people at one screen (hot seat)

def _secrets(state, seat):
    """Patterns of what only ``seat`` may know in Akrotiri (rules 15.4): its goal cards and its drawn tile."""
    import re
    x = state.to_dict()["seats"][seat]
    pats = [rf"\bG{g + 1:02d}\b" for g in x["goals"]]
    if state.to_dict()["current"] == seat:
        pats += [rf"\bG{g + 1:02d}\b" for g in state.to_dict()["goal_options"]]
    if x["tile"] is not None:
        pats.append(rf"tile {x['tile']}\b")
    return [re.compile(p) for p in pats]


def _leaks(snapshot, state, seats):
    text = json.dumps(snapshot)
    return [p.pattern for s in seats for p in _secrets(state, s) if p.search(text)]


def test_hot_seat_shows_each_person_only_their_own_secrets(tmp_path):
    s = _session(tmp_path, game="akrotiri", seats=("human", "human"), seed=5)
    st = s.state
    passes, checked = [], 0
    while not st.is_over() and len(s.decisions()) < 60:
        p = s.pass_to()
        if p is not None:
            snap = s.snapshot(0)
            assert snap["pass_to"] == p and snap["perspective"] is None
            assert not _leaks(snap, st, (0, 1))                       # the screen is between people: nobody's
            assert all(isinstance(x["goals"], int) for f in snap["frames"] for x in f["pos"]["seats"])
            with pytest.raises(ValueError, match=f"pass the screen to player {p + 1}"):
                s.human_move(len(s.rec.frames), 0, s.rec.current()["legal"][0])
            with pytest.raises(ValueError, match=f"goes to player {p + 1}"):
                s.take_screen(1 - p)
            s.take_screen(p)
            passes.append(p)
        me = st.current_player()
        snap = s.snapshot(0, held=me)
        assert snap["perspective"] == me and snap["pass_to"] is None
        assert not _leaks(snap, st, (1 - me,)), f"seat {1 - me}'s secrets shown to seat {me}"
        mine = _secrets(st, me)
        assert all(p.search(json.dumps(snap)) for p in mine if "tile" in p.pattern)     # one's own: shown
        checked += 1
        s.human_move(len(s.rec.frames), 0, snap["frames"][-1]["legal"][0])
    assert passes[:3] == [0, 1, 0] and checked >= 40
    for forged in ("0", True, None, 7):
        with pytest.raises(ValueError, match="screen"):
            s.take_screen(forged)


def test_hot_seat_screen_is_passed_in_chromium(tmp_path):
    from browser import chrome
    from selenium.webdriver.common.by import By

    session = _session(tmp_path, game="akrotiri", seats=("human", "human"), seed=5)
    srv = Served(session)
    drv = chrome()
    st = session.state

    def wait(cond, what, timeout=60):
        t0 = time.time()
        while not cond():
            assert time.time() - t0 < timeout, (f"{what} (the page says: "
                                                f"{drv.find_element(By.ID, 'status').text!r}; {session.error})")
            time.sleep(0.05)

    def page_text():
        return drv.execute_script("return document.body.innerText + JSON.stringify(document.getElementById('main').innerHTML)")

    try:
        drv.get(srv.url)
        passed = 0
        while passed < 4:
            box = drv.find_element(By.ID, "passbox")
            wait(lambda: box.is_displayed() or drv.find_elements(By.CSS_SELECTOR, "#legal tr.pick"), "no move, no pass")
            if box.is_displayed():
                p = session.pass_to()
                assert f"Pass the screen to player {p + 1}" in box.text
                assert not drv.find_element(By.ID, "main").is_displayed()
                text = page_text()
                assert not [x.pattern for s in (0, 1) for x in _secrets(st, s) if x.search(text)]
                drv.find_element(By.ID, "pass-ready").click()
                wait(lambda: session.screen == p and drv.find_elements(By.CSS_SELECTOR, "#legal tr.pick"),
                     "the screen was not taken")
                passed += 1
                me = p
                wait(lambda: drv.find_element(By.ID, "status").text.startswith(f"player {me + 1} (seat {me}")
                     and drv.find_element(By.ID, "status").text.endswith("your move"), "no 'your move'")
                text = page_text()
                assert not [x.pattern for x in _secrets(st, 1 - me) if x.search(text)], "the other's secrets shown"
                if st.to_dict()["seats"][me]["tile"] is not None:
                    assert f"tile in hand #{st.to_dict()['seats'][me]['tile']}" in text     # one's own, shown
            before = len(session.decisions())
            click = "const r = document.querySelector('#legal tr.pick'); if (r) r.click(); return !!r;"
            # (the page may still show the position before the last move: then the screen is to be passed)
            wait(lambda: box.is_displayed() or drv.execute_script(click) and
                 (len(session.decisions()) > before or time.sleep(0.3) or len(session.decisions()) > before),
                 "the click made no move")
        assert passed == 4
    finally:
        drv.quit()
        srv.close()


def test_a_move_clicked_while_a_poll_is_on_its_way_is_sent_when_it_returns(tmp_path):
    from browser import chrome
    from selenium.webdriver.common.by import By

    session = _session(tmp_path, game="hellas", seats=("human", "random", "random"), seed=8)
    srv = Served(session)
    drv = chrome()
    try:
        drv.get(srv.url)
        _wait_human(srv)
        t0 = time.time()
        while not drv.find_elements(By.CSS_SELECTOR, "#legal tr.pick"):
            assert time.time() - t0 < 30, "no move offered"
            time.sleep(0.05)
        # hold every state poll 1.5 s in the browser, and count the ones on their way
        drv.execute_script("""
            window.__held = 0; const real = window.fetch;
            window.fetch = async (path, opt) => {
              if (!String(path).startsWith("api/state")) return real(path, opt);
              window.__held += 1;
              try { await new Promise((r) => setTimeout(r, 1500)); return await real(path, opt); }
              finally { window.__held -= 1; }
            };""")
        t0 = time.time()
        while not drv.execute_script("return window.__held"):
            assert time.time() - t0 < 30, "no poll was made"
            time.sleep(0.01)
        before = len(session.decisions())
        assert drv.execute_script("const r = document.querySelector('#legal tr.pick'); r.click(); return window.__held") == 1
        t0 = time.time()
        while len(session.decisions()) == before:
            assert time.time() - t0 < 20, "the click was dropped"
            time.sleep(0.05)
        made = [f for f in session.rec.frames if "chosen" in f][before]
        assert made["seat"] == 0                                 # the person's move, not a bot's
    finally:
        drv.quit()
        srv.close()


def test_two_people_in_a_game_without_secrets_need_no_screen_passing(tmp_path):
    s = _session(tmp_path, game="hellas", seats=("human", "random", "human"), seed=3)
    movers = set()
    while not s.state.is_over() and len(movers) < 2:
        st = s.state
        seat = st.current_player()
        snap = s.snapshot(0)
        assert snap["pass_to"] is None
        if s.seats[seat].human:
            assert snap["perspective"] == seat
            s.human_move(len(s.rec.frames), 0, snap["frames"][-1]["legal"][0])
            movers.add(seat)
        else:
            a, _ = s.seats[seat].decide(st)
            s.rec.step(a)
    assert movers == {0, 2}


def test_a_bots_secrets_stay_hidden_in_its_action_list_and_view(tmp_path):
    s = _session(tmp_path, game="akrotiri", seats=("human", "balanced"), seed=5)
    st, bot_moves = s.state, 0
    while not st.is_over() and len(s.decisions()) < 80:
        if s.seats[st.current_player()].human:
            snap = s.snapshot(0, held=0)
            assert not _leaks(snap, st, (1,)), "the bot's secrets shown"
            s.human_move(len(s.rec.frames), 0, snap["frames"][-1]["legal"][0])
        else:
            a, view = s.seats[1].decide(st)
            frame = s.rec.step(a)
            frame["view"] = view
            bot_moves += 1
    snap = s.snapshot(0, held=0)
    assert not st.is_over() and not _leaks(snap, st, (1,)) and bot_moves > 10
    goal = [f for f in snap["frames"] if f["seat"] == 1 and "chosen" in f and "keep a goal (hidden)" in f["legal"][0]]
    assert goal and goal[0]["view"] is not None        # the bot's view is shown, its options' secrets are not


def test_yamatai_fleet_3_names_the_peeked_tiles_to_its_owner_only(tmp_path):
    """Fleet 3's ARRANGE options say where each peeked tile goes, and applying one puts exactly
    those tiles on top and at the bottom of the building deck; another seat reads them hidden."""
    import random
    import re

    from reports.view.boards import yamatai as Y
    from reports.view.record import action_text

    cfg = simcore.games["yamatai"].make_config(3)
    checked = 0
    for seed in range(40):
        st, rng = simcore.games["yamatai"].State.new(cfg, seed), random.Random(seed)
        while not st.is_over() and checked < 12:
            legal = st.legal_actions()
            arrange = [a for a in legal if "ARRANGE" in st.action_to_str(a)]
            if not arrange:
                st.apply(rng.choice(legal))
                continue
            a = arrange[rng.randrange(len(arrange))]
            text = action_text(Y, st, a)
            m = re.search(r"\(top: (.*) · bottom: (.*)\)$", text)
            assert m, text
            top, bottom = [[] if g == "none" else g.split(", ") for g in m.groups()]
            names = [t.name for t in st.config.tiles]
            before = len(st.to_dict()["deck"])
            seat = st.current_player()
            assert Y.hide_text(text, seat, seat) == text
            hidden = Y.hide_text(text, (seat + 1) % 3, seat)
            assert hidden.endswith("(peeked tiles hidden)") and not any(n in hidden for n in top + bottom)
            st.apply(a)
            deck = [names[t] for t in st.to_dict()["deck"]]
            assert len(deck) == before and len(top) + len(bottom) == min(3, before)
            assert deck[:len(top)] == top and (not bottom or deck[-len(bottom):] == bottom)
            checked += 1
        if checked >= 12:
            break
    assert checked == 12
