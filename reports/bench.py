"""``boardlab bench``: engine and runner speed of every game in ``simcore.games``.

For each game and player count, in one run:

- **kernel**: ``play_batch`` on one core, random play and the ``balanced``
  heuristic preset (a game without one is reported as such): µs/game (wall
  and CPU time of the thread) and games/s;
- **reference**: the same games' decisions (``<game>.play_actions``) replayed
  in the pure-Python reference engine (``<game>.reference.replay``), timed
  alone; the ratio reference / kernel;
- **runner**: games/s through ``simcore.run.simulate`` with 1 and 2 workers
  (random play, a results folder written to a temporary directory, pool
  start-up after a warm-up run included) and the scaling efficiency
  ``gps(2) / (2 * gps(1))``;
- **memory**: the kernel's peak allocation for its batch (``tracemalloc``,
  numpy arrays included) and the runner's peak memory of the whole process
  tree (parent and workers; proportional set size, sampled every 20 ms);
- optionally (``--instructions``) instruction counts per game of the kernel
  under ``valgrind --tool=callgrind`` — independent of machine load.

Every timing is warmed up once, then repeated; tables show the median with
[min, max]. ``bench/README.md`` explains how to read the figures.
"""
from __future__ import annotations

import json
import os
import platform
import shutil
import statistics as _st
import subprocess
import sys
import tempfile
import threading
import time
import tracemalloc

import numpy as np

HEURISTIC = "balanced"


# ---------------------------------------------------------------- machine

def machine_info():
    """Cores, CPU model and load — the context every figure needs."""
    info = {"python": platform.python_version(), "platform": platform.platform(),
            "cpu_count": os.cpu_count()}
    try:
        info["cpus_usable"] = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        info["cpus_usable"] = os.cpu_count()
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    info["cpu_model"] = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    try:
        info["loadavg"] = [round(x, 2) for x in os.getloadavg()]
    except OSError:
        pass
    return info


# ---------------------------------------------------------------- timing

def _summary(values):
    return {"median": float(_st.median(values)), "min": float(min(values)), "max": float(max(values)),
            "runs": [float(v) for v in values]}


def time_repeated(fn, repeats, per=1):
    """Call ``fn`` once to warm up, then ``repeats`` times; wall and thread CPU seconds per ``per`` unit."""
    fn()
    wall, cpu = [], []
    for _ in range(repeats):
        c0, t0 = time.thread_time(), time.perf_counter()
        fn()
        t1, c1 = time.perf_counter(), time.thread_time()
        wall.append((t1 - t0) / per)
        cpu.append((c1 - c0) / per)
    return _summary(wall), _summary(cpu)


def _us(summary):
    return {k: (v * 1e6 if k != "runs" else [x * 1e6 for x in v]) for k, v in summary.items()}


def _tree_rss(pid):
    """Resident bytes of ``pid`` and all its descendants.

    With psutil on Linux: proportional set size (PSS), so pages shared by a
    forked child and its parent are not counted twice; otherwise RSS from
    ``/proc`` (an upper bound).
    """
    try:
        import psutil
    except ImportError:
        psutil = None
    if psutil is not None:
        try:
            root = psutil.Process(pid)
            procs = [root] + root.children(recursive=True)
        except psutil.Error:
            return 0
        total = 0
        for p in procs:
            try:  # PSS: shared pages (a forked child, common libraries) counted once in total
                total += p.memory_full_info().pss
            except (psutil.Error, AttributeError):
                try:
                    total += p.memory_info().rss
                except psutil.Error:
                    pass
        return total
    page = os.sysconf("SC_PAGE_SIZE")
    children, rss = {}, {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    ppid = int(f.read().rsplit(")", 1)[1].split()[1])
                with open(f"/proc/{entry}/statm") as f:
                    rss[int(entry)] = int(f.read().split()[1]) * page
                children.setdefault(ppid, []).append(int(entry))
            except (OSError, IndexError, ValueError):
                continue
    total, todo = 0, [pid]
    while todo:
        p = todo.pop()
        total += rss.get(p, 0)
        todo.extend(children.get(p, []))
    return total


def _memory_measure():
    try:
        import psutil
        psutil.Process().memory_full_info().pss
        return "pss"
    except Exception:
        return "rss"


class _TreePeak:
    """Peak resident memory of a process tree, sampled every ``interval`` seconds in a thread."""

    def __init__(self, pid, interval=0.02):
        self.pid, self.interval, self.peak = pid, interval, 0
        self._stop = threading.Event()

    def _sample(self):
        while not self._stop.is_set():
            self.peak = max(self.peak, _tree_rss(self.pid))
            self._stop.wait(self.interval)

    def __enter__(self):
        self._thread = threading.Thread(target=self._sample, daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        self._thread.join()
        return False


# ---------------------------------------------------------------- pieces

def heuristic_policy(game):
    """The ``balanced`` preset's policy argument, or ``(None, reason)`` when the game has none."""
    import strategies
    try:
        s = strategies.resolve(game, HEURISTIC)
    except Exception as exc:  # no preset file, no features yet, ...
        return None, f"no heuristic preset '{HEURISTIC}' ({' '.join(str(exc).split())[:80]})"
    if s.kind != "heuristic":
        return None, f"'{HEURISTIC}' is not a heuristic strategy for {game}"
    try:
        return s.as_policy(), None
    except Exception as exc:
        return None, f"'{HEURISTIC}' cannot be built ({' '.join(str(exc).split())[:80]})"


def bench_kernel(mod, players, seeds, policy, repeats):
    """µs/game of ``play_batch`` (wall and CPU), games/s, and its peak allocation."""
    n = len(seeds)
    pols = None if policy is None else [policy] * players
    config = mod.make_config(players)

    def run():
        mod.play_batch(players, seeds, policies=pols, config=config, events=False)

    wall, cpu = time_repeated(run, repeats, per=n)
    tracemalloc.start()
    mod.play_batch(players, seeds, policies=pols, config=config, events=True)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return {"games": n, "us_per_game": _us(wall), "cpu_us_per_game": _us(cpu),
            "games_per_second": 1.0 / wall["median"], "games_per_cpu_second": 1.0 / cpu["median"], "peak_alloc_bytes": int(peak),
            "peak_alloc_bytes_per_game": peak / n}


def bench_reference(mod, players, seeds, policy, repeats):
    """µs/game of the reference engine replaying the decisions the kernel takes in these games."""
    ref = mod.reference                    # the game contract's reference engine
    pols = None if policy is None else [policy] * players
    seeds = [int(s) for s in seeds]
    actions = [mod.play_actions(players, s, pols) for s in seeds]

    def run():
        for s, a in zip(seeds, actions):
            ref.replay(players, s, a)

    wall, cpu = time_repeated(run, repeats, per=len(seeds))
    return {"games": len(seeds), "us_per_game": _us(wall), "cpu_us_per_game": _us(cpu),
            "decisions_per_game": float(np.mean([len(a) for a in actions]))}


def _runner_child(spec):
    """In a fresh process: warm-up run, then ``repeats`` timed runs; games/s of each."""
    import strategies
    from simcore import run as simrun

    base = tempfile.mkdtemp(prefix="boardlab-bench-")
    gps = []
    try:
        for i in range(spec["repeats"] + 1):
            folder = os.path.join(base, f"r{i}")
            t0 = time.perf_counter()
            simrun.simulate(spec["game"], players=spec["players"], games=spec["games"], seed=1, out=folder,
                            strategies=strategies.resolve_seats(spec["game"], spec["players"], spec["strategy"]),
                            workers=spec["workers"], chunk_size=spec["chunk_size"],
                            progress=False)
            wall = time.perf_counter() - t0
            shutil.rmtree(folder, ignore_errors=True)
            if i:  # the first run warms up: imports, pool start-up
                gps.append(spec["games"] / wall)
    finally:
        shutil.rmtree(base, ignore_errors=True)
    return gps


def bench_runner(game, players, games, repeats, workers_list=(1, 2), strategy="random"):
    """games/s through the runner with each worker count, each in a fresh process.

    The process tree's resident memory (parent and loky workers) is sampled
    over the child's whole life; its peak is reported.
    """
    chunk = max(500, games // 8)
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [root, os.environ.get("PYTHONPATH")]))}
    workers = {}
    for w in workers_list:
        spec = {"game": game, "players": players, "games": games, "repeats": repeats, "workers": w,
                "chunk_size": chunk, "strategy": strategy}
        proc = subprocess.Popen([sys.executable, "-m", "reports.bench", "--runner-child", json.dumps(spec)],
                                cwd=root, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        peak = _TreePeak(proc.pid)
        with peak:
            stdout, stderr = proc.communicate()
        if proc.returncode != 0:
            raise RuntimeError(f"runner bench ({w} workers) failed: {stderr.strip()[-500:]}")
        gps = json.loads(stdout.strip().splitlines()[-1])
        # string keys: the same in memory and after a JSON round trip
        workers[str(w)] = {"games_per_second": _summary(gps), "peak_memory_bytes": int(peak.peak)}
    out = {"games": games, "chunk_size": chunk, "strategy": strategy, "workers": workers,
           "memory_measure": _memory_measure()}
    if "1" in workers and "2" in workers:
        out["efficiency"] = workers["2"]["games_per_second"]["median"] / (2 * workers["1"]["games_per_second"]["median"])
    return out


_VG_SCRIPT = """
import sys, numpy as np
sys.path.insert(0, {root!r})
import simcore, strategies
mod = simcore.games[{game!r}]
pol = None
if {heuristic!r}:
    pol = [strategies.resolve({game!r}, {heuristic!r}).as_policy()] * {players}
config = mod.make_config({players})
mod.play_batch({players}, np.arange(4, dtype=np.uint64), policies=pol, config=config, events=False)
mod.play_batch({players}, np.arange({n}, dtype=np.uint64), policies=pol, config=config, events=False)
"""


def instructions_per_game(game, players, heuristic, n):
    """Instructions per game of ``play_batch`` under callgrind (difference of n and 2n games).

    Returns None when valgrind is missing. Counting only inside the
    ``play_batch`` wrapper and subtracting two batch sizes removes start-up
    and per-call costs; the count does not depend on machine load.
    """
    vg = shutil.which("valgrind")
    if vg is None:
        return None
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    py = os.path.realpath(sys.executable)
    counts = []
    with tempfile.TemporaryDirectory(prefix="boardlab-vg-") as tmp:
        for k in (n, 2 * n):
            script = os.path.join(tmp, "vg.py")
            with open(script, "w") as f:
                f.write(_VG_SCRIPT.format(root=root, game=game, heuristic=heuristic or "", players=players, n=k))
            outfile = os.path.join(tmp, f"cg.{k}")
            proc = subprocess.run([vg, "--tool=callgrind", f"--callgrind-out-file={outfile}",
                                   "--collect-atstart=no", "--toggle-collect=__pyx_pw_*play_batch*", py, script],
                                  capture_output=True, text=True)
            if proc.returncode != 0:
                return None
            total = None
            with open(outfile) as f:
                for line in f:
                    if line.startswith("totals:") or line.startswith("summary:"):
                        total = int(line.split()[1])
            if total is None:
                return None
            counts.append(total)
    # the first (4-game) call is counted in both runs and cancels out
    return (counts[1] - counts[0]) / n


# ---------------------------------------------------------------- the whole bench

def run_bench(games=20_000, ref_games=100, repeats=5, game_names=None, players=None, runner=True,
              runner_games=None, heuristic_games=None, instructions=False, log=None):
    """Measure every game and player count; return the JSON-able result dict."""
    import simcore
    log = log or (lambda msg: None)
    names = list(game_names) if game_names else list(simcore.games.keys())
    for n in names:
        if n not in simcore.games:     # a name it does not know: simcore's one-line error (a game that
            simcore.get_game(n)        # fails to import is skipped below, not refused here)
    if players:
        played = {}
        for n in names:
            try:
                played[n] = tuple(simcore.games[n].PLAYERS)
            except Exception:        # a game that fails to import is reported as skipped below
                continue
        for p in players:
            if not any(p in counts for counts in played.values()):
                raise ValueError(f"no game measured here is played by {p} players ("
                                 + "; ".join(f"{n}: {', '.join(map(str, c))}" for n, c in played.items()) + ")")
    heuristic_games = heuristic_games or max(200, games // 10)
    runner_games = runner_games or games
    result = {"machine": machine_info(), "started": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
              "params": {"games": games, "heuristic_games": heuristic_games, "ref_games": ref_games,
                         "repeats": repeats, "runner_games": runner_games if runner else None,
                         "heuristic": HEURISTIC},
              "results": []}
    for name in names:
        try:
            mod = simcore.get_game(name)
            counts = [p for p in mod.PLAYERS if players is None or p in players]
            policy, why = heuristic_policy(name)
            for p in counts:
                result["results"].append(_bench_one(mod, name, p, policy, why, games, heuristic_games,
                                                    ref_games, repeats, runner, runner_games, instructions, log))
        except Exception as exc:
            if game_names:  # asked for by name: the error is the answer
                raise
            # a game being written by others must not stop the bench of the rest
            msg = f"{type(exc).__name__}: {' '.join(str(exc).split())}"[:200]
            log(f"{name}: not measured ({msg})")
            result.setdefault("skipped", {})[name] = msg
    result["machine"]["loadavg_end"] = machine_info().get("loadavg")
    from simcore import _isa
    result["machine"]["engine_builds"] = _isa.selected()
    return result


def _bench_one(mod, name, p, policy, why, games, heuristic_games, ref_games, repeats, runner, runner_games,
               instructions, log):
    from simcore.run import chunk_seeds

    entry = {"game": name, "players": p}
    seeds = chunk_seeds(1, 0, games)
    log(f"{name} {p}p: kernel random")
    entry["random"] = bench_kernel(mod, p, seeds, None, repeats)
    log(f"{name} {p}p: reference random")
    entry["random"]["reference"] = bench_reference(mod, p, seeds[:ref_games], None, repeats)
    if policy is None:
        entry["heuristic"] = {"note": why}
    else:
        log(f"{name} {p}p: kernel {HEURISTIC}")
        entry["heuristic"] = bench_kernel(mod, p, seeds[:heuristic_games], policy, repeats)
        log(f"{name} {p}p: reference {HEURISTIC}")
        entry["heuristic"]["reference"] = bench_reference(mod, p, seeds[:ref_games], policy, repeats)
    for kind in ("random", "heuristic"):
        e = entry[kind]
        r = e.get("reference", {})
        if "us_per_game" in r:
            e["reference_ratio"] = r["us_per_game"]["median"] / e["us_per_game"]["median"]
            e["reference_cpu_ratio"] = r["cpu_us_per_game"]["median"] / e["cpu_us_per_game"]["median"]
    if instructions:
        log(f"{name} {p}p: instruction counts (valgrind)")
        entry["random"]["instructions_per_game"] = instructions_per_game(name, p, None, 500)
        if policy is not None:
            entry["heuristic"]["instructions_per_game"] = instructions_per_game(name, p, HEURISTIC, 100)
    if runner:
        log(f"{name} {p}p: runner 1 and 2 workers")
        entry["runner"] = bench_runner(name, p, runner_games, repeats)
    return entry


# ---------------------------------------------------------------- tables

def _mmm(s, fmt="{:,.1f}"):
    return f"{fmt.format(s['median'])} [{fmt.format(s['min'])}, {fmt.format(s['max'])}]"


def format_tables(res):
    m = res["machine"]
    pr = res["params"]
    lines = [f"boardlab bench — {m.get('cpu_model', '?')}, {m.get('cpus_usable')} usable cores, "
             f"load average {m.get('loadavg')} -> {m.get('loadavg_end')}; engine builds "
             f"{', '.join(f'{g} {b}' for g, b in (m.get('engine_builds') or {}).items()) or '?'}",
             f"median [min, max] of {pr['repeats']} runs after a warm-up; kernel: {pr['games']:,} games random, "
             f"{pr['heuristic_games']:,} {pr['heuristic']}; reference: {pr['ref_games']} games"]
    start = (m.get("loadavg") or [0.0])[0]
    if start >= 0.5:  # the bench itself adds about 1 while it runs, so judge by the load before it
        lines.append(f"note: 1-min load average {start:.1f} on {m.get('cpus_usable')} cores before the bench: other "
                     f"processes shared the cores; trust min, CPU µs and instruction counts over wall medians")
    lines.append("")
    # games/s from the wall median and from the thread's CPU time: on a shared machine the second is the fair one
    head = ["game", "P", "policy", "µs/game (wall)", "CPU µs/game", "games/s", "games/CPU s", "ref µs/game",
            "ref/kernel", "Minstr/game", "alloc/game"]
    rows = []
    for e in res["results"]:
        for kind, label in (("random", "random"), ("heuristic", pr["heuristic"])):
            k = e[kind]
            if "us_per_game" not in k:
                note = "no preset yet" if "no heuristic preset" in k.get("note", "") else "n/a"
                rows.append([e["game"], str(e["players"]), label, note] + [""] * (len(head) - 4))
                continue
            r = k.get("reference", {})
            ins = k.get("instructions_per_game")
            rows.append([e["game"], str(e["players"]), label, _mmm(k["us_per_game"]),
                         f"{k['cpu_us_per_game']['median']:,.1f}", f"{k['games_per_second']:,.0f}",
                         f"{1e6 / k['cpu_us_per_game']['median']:,.0f}",
                         _mmm(r["us_per_game"], "{:,.0f}") if "us_per_game" in r else r.get("note", "-"),
                         f"{k['reference_ratio']:,.0f}x" if "reference_ratio" in k else "-",
                         f"{ins / 1e6:.3f}" if ins else "-",
                         f"{k['peak_alloc_bytes_per_game']:,.0f} B"])
    lines += _grid(head, rows)
    missing = sorted({e["game"] for e in res["results"] if "us_per_game" not in e["heuristic"]})
    if missing:
        lines.append(f"no heuristic preset '{pr['heuristic']}' yet for: {', '.join(missing)} (random play only)")
    for game, msg in res.get("skipped", {}).items():
        lines.append(f"{game}: not measured ({msg})")
    runner_rows = []
    for e in res["results"]:
        rn = e.get("runner")
        if not rn:
            continue
        w = rn["workers"]
        runner_rows.append([e["game"], str(e["players"]), f"{rn['games']:,}",
                            _mmm(w["1"]["games_per_second"], "{:,.0f}"), _mmm(w["2"]["games_per_second"], "{:,.0f}"),
                            f"{rn.get('efficiency', float('nan')):.0%}",
                            f"{w['1']['peak_memory_bytes'] / 2**20:,.0f} / {w['2']['peak_memory_bytes'] / 2**20:,.0f} MiB"])
    if runner_rows:
        lines += ["", f"runner (simcore.run.simulate, {res['results'][0]['runner']['strategy']} play, "
                      f"chunks of {res['results'][0]['runner']['chunk_size']:,}, Parquet written):"]
        lines += _grid(["game", "P", "games", "games/s 1 worker", "games/s 2 workers", "efficiency",
                        "peak PSS tree 1 / 2"], runner_rows)
    return "\n".join(lines)


def _grid(head, rows):
    table = [head] + rows
    widths = [max(len(r[i]) for r in table) for i in range(len(head))]
    out = []
    for j, r in enumerate(table):
        out.append("  ".join(c.ljust(w) if i < 3 else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths))).rstrip())
        if j == 0:
            out.append("  ".join("-" * w for w in widths))
    return out


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--runner-child":
        print(json.dumps(_runner_child(json.loads(sys.argv[2]))))
        sys.exit(0)
    sys.exit("usage: boardlab bench (python -m reports.bench is the runner bench's child process)")
