"""The viewer's and ``boardlab play``'s targets (issue 36), measured.

    PYTHONPATH=. python bench/bench_view.py [--shots DIR] [--decisions N] [--skip-bot]

1. The viewer page of a 4-player Hellas game (balanced seats, and MCTS-100 seats whose views
   are searches): its size (target <= 2 MB) and the time to draw it in headless Chromium
   (``data-draw-ms``: from the navigation's start to the first frame drawn; target <= 1 s).
2. A screenshot of a middle and the last decision of every game at every player count
   (``--shots``), to look at beside the spec's board description.
3. A bot's move in ``play`` at MCTS-400 in Hellas (2, 3 and 4 players): wall and CPU seconds of
   ``Seat.decide`` over the first ``--decisions`` decisions of a game (target <= 2 s).
4. The page while a bot thinks: a served game whose bots are MCTS-400, the page polling; the
   longest gap between two animation frames of the page and the slowest ``/api/state`` answer
   while the bots moved (the page never freezes).

Prints one line per figure and the machine's load average (timings are noisy on a shared machine).
"""
import argparse
import os
import statistics
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests"))


def _run(root, game, players, seats, games=1, seed=3):
    import strategies
    from simcore.run import simulate

    out = os.path.join(root, f"{game}-{players}-{seats[0].split(':')[0]}-{seed}")
    simulate(game, players=players, games=games, seed=seed, out=out,
             strategies=strategies.resolve_seats(game, players, None, seats), workers=1, backend="threading",
             progress=False)
    return out


def _ready(drv):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    WebDriverWait(drv, 30).until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready") == "1")
    return float(drv.find_element(By.TAG_NAME, "body").get_attribute("data-draw-ms"))


def page_targets(root, drv):
    from reports.view.record import write_view

    for label, seats in (("balanced", ["balanced"] * 4), ("mcts-100", ["mcts:iterations=100"] * 4)):
        run = _run(root, "hellas", 4, seats, seed=5)
        t0 = time.perf_counter()
        page = write_view(run, 0, os.path.join(root, f"hellas4-{label}.html"))
        written = time.perf_counter() - t0
        draws = []
        for _ in range(5):
            drv.get("file://" + page)
            draws.append(_ready(drv))
        print(f"hellas 4p viewer page, {label} seats: {os.path.getsize(page) / 1e6:.2f} MB (target <= 2), drawn in "
              f"{statistics.median(draws):.0f} ms median of 5 [{min(draws):.0f}, {max(draws):.0f}] (target <= 1000); "
              f"written in {written:.1f} s")


def screenshots(root, drv, shots):
    import simcore

    from reports.view.record import write_view

    os.makedirs(shots, exist_ok=True)
    for game, mod in simcore.games.items():
        for n in mod.PLAYERS:
            run = _run(root, game, n, ["balanced"] * n, seed=7)
            page = write_view(run, 0, os.path.join(root, f"{game}{n}.html"), view=False)
            drv.get("file://" + page)
            _ready(drv)
            last = int(drv.execute_script("return +document.getElementById('slider').max"))
            for name, k in (("mid", last // 2), ("end", last)):
                drv.get("about:blank")          # a new load: the page reads its #decision on loading
                drv.get("file://" + page + f"#{k}")
                _ready(drv)
                path = os.path.join(shots, f"{game}-{n}p-{name}.png")
                drv.save_screenshot(path)
            print(f"screenshots: {game} {n}p -> {shots}/{game}-{n}p-{{mid,end}}.png")


def bot_move(decisions):
    import simcore
    from reports.play.server import Seat

    mod = simcore.games["hellas"]
    for n in (2, 3, 4):
        seat = Seat("hellas", "mcts:iterations=400", 0, 11)          # the seat plays every seat's decisions
        st = mod.new_game(n, 11, mod.make_config(n))
        wall, cpu = [], []
        while not st.is_over() and len(wall) < decisions:
            t0, c0 = time.perf_counter(), time.thread_time()
            a, _ = seat.decide(st.clone())
            wall.append(time.perf_counter() - t0)
            cpu.append(time.thread_time() - c0)
            st.apply(a)
        wall.sort()
        print(f"play bot move, hellas {n}p MCTS-400: {len(wall)} decisions, wall median {statistics.median(wall):.2f} s, "
              f"p95 {wall[int(0.95 * (len(wall) - 1))]:.2f} s, max {wall[-1]:.2f} s; CPU median "
              f"{statistics.median(cpu):.2f} s, max {max(cpu):.2f} s (target <= 2 s)")


def no_freeze(root, drv, seconds=15, bot="mcts:iterations=20000"):
    """A served Hellas game, two bots that think about a second a move and a person (answered here
    with the first legal action); the page in Chromium polls as it does in use."""
    import json
    import urllib.request

    from reports.play.server import Session, serve

    folder = os.path.join(root, "play")
    os.makedirs(folder, exist_ok=True)
    session = Session("hellas", 3, [bot, bot, "human"], 5, {}, folder, bot_delay=0, log=lambda *_: None)
    got = threading.Event()
    box = {}

    def ready(server):
        box["server"] = server
        got.set()

    thread = threading.Thread(target=serve, args=(session,), daemon=True,
                              kwargs=dict(port=0, open_browser=False, log=lambda *_: None, ready=ready))
    thread.start()
    got.wait(20)
    server = box["server"]

    def call(path, body=None):
        req = urllib.request.Request(server.url + path, data=None if body is None else json.dumps(body).encode(),
                                     headers={"X-Boardlab-Token": session.token, "Content-Type": "application/json"})
        with urllib.request.urlopen(req, timeout=30) as r:
            return json.loads(r.read())

    try:
        drv.get(server.url)
        _ready(drv)
        # the page keeps the longest gap between two of its animation frames
        drv.execute_script("window.__gap = 0; let last = performance.now();"
                           "function tick(t) { window.__gap = Math.max(window.__gap, t - last); last = t;"
                           " requestAnimationFrame(tick); } requestAnimationFrame(tick);")
        slow, thinking, t0 = 0.0, 0, time.time()
        while time.time() - t0 < seconds:
            q0 = time.perf_counter()
            snap = call("api/state?from=0&held=2")
            slow = max(slow, time.perf_counter() - q0)
            thinking += bool(snap["thinking"])
            last = snap["frames"][-1]
            if not snap["thinking"] and last.get("legal") and last["seat"] == 2:
                call("api/act", {"frame": len(snap["frames"]) - 1, "index": 0, "action_text": last["legal"][0]})
            time.sleep(0.1)
        gap = drv.execute_script("return window.__gap")
        frames = [f for f in session.rec.frames if "think_s" in f]
        think = max((f["think_s"] for f in frames), default=0)
        print(f"page while the bots think (hellas 3p, two {bot} seats, {seconds} s, {len(frames)} bot moves of up to "
              f"{think:.1f} s, {thinking} of the polls while a bot thought): longest animation-frame gap {gap:.0f} ms, "
              f"slowest /api/state {slow * 1000:.0f} ms")
    finally:
        server.shutdown()
        thread.join(60)            # it saves the game on its way out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--shots", default=None, help="folder for the screenshots (default: none taken)")
    ap.add_argument("--decisions", type=int, default=1000,
                    help="decisions timed per player count (default 1000: the whole game)")
    ap.add_argument("--skip-bot", action="store_true", help="skip the MCTS-400 timings")
    args = ap.parse_args()
    from browser import chrome

    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    with tempfile.TemporaryDirectory() as root:
        drv = chrome()
        try:
            page_targets(root, drv)
            if args.shots:
                screenshots(root, drv, args.shots)
            if not args.skip_bot:
                no_freeze(root, drv)
        finally:
            drv.quit()
    if not args.skip_bot:
        bot_move(args.decisions)
    print(f"load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
