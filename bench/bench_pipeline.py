"""Pipeline benchmark: simulate, then report, for growing game counts.

For each N, ``boardlab simulate`` (the default strategy, all cores) and then
``boardlab report`` run in fresh processes; the script prints their wall
times, the report's peak RSS (``wait4`` of the child: its own high-water mark
and that of its figure workers), the report/simulate ratio, and the machine's
load average at the start and the end of each step, so a busy machine shows.
Runs are deleted when measured (a 10^7-game run is ~1 GB). Up to 10^6 games
the pair is played ``--repeat`` times (3) and the medians printed, with the
spread of the ratio. The project's modules are byte-compiled first, as an
installed package has them.

    PYTHONPATH=. python bench/bench_pipeline.py                 # N = 10^5, 10^6
    PYTHONPATH=. python bench/bench_pipeline.py --big           # and 10^7
    PYTHONPATH=. python bench/bench_pipeline.py --demo          # and demo --quick, 3 times
    PYTHONPATH=. python bench/bench_pipeline.py --sizes '' --full-demo   # the full demo: games vs analysis share
    PYTHONPATH=. python bench/bench_pipeline.py --workers 30    # 1 vs 2 workers, ~30-s heuristic run
    PYTHONPATH=. python bench/bench_pipeline.py --sizes '' --chunks 8   # where a worker's chunk time goes

The targets (issue 23): report wall <= simulate wall; report peak RSS <= 1 GB
at 10^6 games and <= 2 GB at 10^7; demo --quick <= 25 s on 2 idle cores;
2 workers >= 1.85x one; the full demo's analysis share below a third.
Every figure has its CPU time (user + sys of the command and the workers it
waited for) beside the wall time: on a shared machine compare those.
"""
import argparse
import compileall
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def load():
    return os.getloadavg()[0]


def run(cmd):
    """Run ``cmd`` (a boardlab CLI argument list); return (wall s, peak RSS MiB, load at start, at end, CPU s).

    CPU s is user + sys of the child and the children it waited for (workers),
    from ``wait4``: the load-robust figure on a shared machine.
    """
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [ROOT, os.environ.get("PYTHONPATH")]))}
    la0, t0 = load(), time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "reports.cli", *cmd], cwd=ROOT, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    err = proc.stderr.read()
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t0
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        sys.exit(f"bench_pipeline: `boardlab {' '.join(cmd)}` failed (exit {proc.returncode}): "
                 f"{err.decode(errors='replace').strip().splitlines()[-1:]}")
    return wall, usage.ru_maxrss / 1024, la0, load(), usage.ru_utime + usage.ru_stime


def pipeline(game, players, n, seed, tmp, workers=None):
    out = os.path.join(tmp, f"{game}-{n}")
    sim = ["simulate", game, "--players", str(players), "--games", str(n), "--seed", str(seed),
           "--no-progress", "--out", out]
    if workers:
        sim += ["--workers", str(workers)]
    s = run(sim)
    r = run(["report", out, "--out", os.path.join(out, "report")])
    shutil.rmtree(out, ignore_errors=True)
    return {"games": n, "simulate_s": s[0], "simulate_rss_mib": s[1], "report_s": r[0],
            "report_rss_mib": r[1], "ratio": r[0] / s[0], "simulate_cpu_s": s[4], "report_cpu_s": r[4],
            "cpu_ratio": r[4] / s[4], "load_start": s[2], "load_end": r[3]}


def workers_check(seconds, game, players, strategy, tmp, pairs=2):
    """1 vs 2 workers on a heuristic run sized to ~``seconds`` on one worker, alternating."""
    probe = os.path.join(tmp, "probe")
    walls = []
    n0 = 4000
    for n in (n0, 4 * n0):     # two sizes: the slope is the per-game time, start-up cancels out
        walls.append(run(["simulate", game, "--players", str(players), "--games", str(n), "--seed", "3",
                          "--strategy", strategy, "--workers", "1", "--no-progress", "--out", probe])[4])   # CPU: load-robust
        shutil.rmtree(probe, ignore_errors=True)
    per_game = max(walls[1] - walls[0], 1e-3) / (3 * n0)
    n = max(n0, int(seconds / per_game))
    rows = []
    setups = [(1, "loky"), (2, "loky"), (2, "threading")]    # 1 worker runs in-process whatever the backend
    for k in range(pairs):
        for w, backend in (setups if k % 2 == 0 else setups[::-1]):
            out = os.path.join(tmp, f"w{w}")
            wall, rss, la0, la1, cpu = run(["simulate", game, "--players", str(players), "--games", str(n),
                                            "--seed", "3", "--strategy", strategy, "--workers", str(w),
                                            "--backend", backend, "--no-progress", "--out", out])
            shutil.rmtree(out, ignore_errors=True)
            rows.append({"workers": w, "backend": backend, "games": n, "wall_s": wall, "cpu_s": cpu,
                         "load_start": la0, "load_end": la1})
    return rows


DEMO_DRIVER = """
import json, os, resource, sys, time
import psutil
from reports.commands.study import study_main
from reports.study import demo_path

def cpu():
    own = resource.getrusage(resource.RUSAGE_SELF)
    gone = resource.getrusage(resource.RUSAGE_CHILDREN)
    live = 0.0
    for child in psutil.Process().children(recursive=True):
        try:
            t = child.cpu_times()
            live += t.user + t.system
        except psutil.Error:
            pass
    return own.ru_utime + own.ru_stime + gone.ru_utime + gone.ru_stime + live

marks = {"start": (time.perf_counter(), cpu())}

def log(msg):
    if msg.startswith("analysing"):
        marks["analysis"] = (time.perf_counter(), cpu())

study_main(demo_path(), sys.argv[1], quick_games=0 if sys.argv[2] == "quick" else None, log=log)
marks["end"] = (time.perf_counter(), cpu())
print(json.dumps(marks))
"""


def demo_split(out, quick=False):
    """Wall and CPU seconds of the demo's games and of its analysis + report (``study_main`` in a child).

    The child gets the CLI's ``OPENBLAS_NUM_THREADS=1`` (``reports/cli.py``), as ``boardlab demo`` has:
    without it the fits' BLAS threads spin beside the figure workers (the analysis took ~1.5x the CPU).
    """
    env = {"OPENBLAS_NUM_THREADS": "1", **os.environ,
           "PYTHONPATH": os.pathsep.join(filter(None, [ROOT, os.environ.get("PYTHONPATH")]))}
    la0 = load()
    res = subprocess.run([sys.executable, "-c", DEMO_DRIVER, out, "quick" if quick else "full"], cwd=ROOT, env=env,
                         capture_output=True, text=True, check=False)
    if res.returncode:
        sys.exit(f"bench_pipeline: the demo failed: {res.stderr.strip().splitlines()[-1:]}")
    m = json.loads(res.stdout.strip().splitlines()[-1])
    games = [m["analysis"][i] - m["start"][i] for i in (0, 1)]
    analysis = [m["end"][i] - m["analysis"][i] for i in (0, 1)]
    return {"games_wall_s": games[0], "games_cpu_s": games[1], "analysis_wall_s": analysis[0],
            "analysis_cpu_s": analysis[1], "analysis_share_wall": analysis[0] / (games[0] + analysis[0]),
            "analysis_share_cpu": analysis[1] / (games[1] + analysis[1]), "load_start": la0, "load_end": load()}


def chunk_profile(game, players, strategy, chunks, chunk_size, tmp):
    """CPU seconds of each step of ``simcore.run.run_chunk`` (play, Arrow tables, zstd + write), per chunk.

    The steps are those of ``run_chunk``, called one by one in this process on
    ``chunks`` chunks of ``chunk_size`` games; ``startup`` is the wall
    time of a fresh interpreter importing what a worker imports.
    """
    import importlib

    from simcore import _results as R
    from simcore.run import _config, plan_run, policy_argument
    from simcore.rng import chunk_seeds
    from strategies import resolve_seats

    plan = plan_run(game, players, chunks * chunk_size, 3, strategies=resolve_seats(game, players, strategy),
                    chunk_size=chunk_size)
    mod = importlib.import_module(plan.module)
    policies = [policy_argument(mod, st) for st in plan.strategies]
    names = [st["name"] for st in plan.strategies]
    config = _config(plan.module, players, tuple(sorted(plan.variant.items())))
    idx = R.index_dtype(plan.games)
    cost = {"play": 0.0, "arrow": 0.0, "write": 0.0}
    for c in range(plan.n_chunks):
        start, stop = plan.chunk_bounds(c)
        seeds = chunk_seeds(plan.seed, start, stop)
        t0 = time.process_time()
        out = mod.play_batch(players, seeds, policies=policies, config=config, events=True)
        t1 = time.process_time()
        tabs = {"events": R.events_table(out["events"], start, idx),
                "players": R.players_table(out["players"], start, stop - start, players, names, idx),
                "games": R.games_table(out["games"], start, seeds, plan.run_id, idx)}
        t2 = time.process_time()
        for t, tab in tabs.items():
            os.makedirs(os.path.join(tmp, t), exist_ok=True)
            R.write_parquet(os.path.join(tmp, t, f"part-{c}.parquet"), tab)
        t3 = time.process_time()
        cost["play"] += t1 - t0
        cost["arrow"] += t2 - t1
        cost["write"] += t3 - t2
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-c", f"import numpy, pyarrow, simcore.run, {plan.module}"], check=True,
                   env={**os.environ, "PYTHONPATH": ROOT})
    cost["startup"] = time.perf_counter() - t0
    return {"chunks": plan.n_chunks, "chunk_size": plan.chunk_size, **cost}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default="hellas")
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--sizes", default="100000,1000000", help="comma-separated game counts")
    ap.add_argument("--big", action="store_true", help="also 10^7 games (~1 GB of disk, minutes)")
    ap.add_argument("--demo", action="store_true", help="also time `boardlab demo --quick` three times")
    ap.add_argument("--full-demo", action="store_true",
                    help="also run the full `boardlab demo` once: games vs analysis + report, wall and CPU")
    ap.add_argument("--workers", type=float, default=0, metavar="SECONDS",
                    help="also compare 1 and 2 workers on a heuristic run of about SECONDS on one worker")
    ap.add_argument("--strategy", default="balanced", help="strategy of the workers check")
    ap.add_argument("--chunks", type=int, default=0, metavar="K",
                    help="also time the steps of K worker chunks (play, Arrow, write) of the --strategy run")
    ap.add_argument("--chunk-size", type=int, default=10_000,
                    help="games a chunk in --chunks (10,000: the chunk of the ~30-s workers run)")
    ap.add_argument("--repeat", type=int, default=3,
                    help="simulate + report pairs per size up to 10^6 games (the medians are printed; 1 above)")
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--json", default=None, help="also write the figures as JSON")
    args = ap.parse_args(argv)
    sizes = [int(float(x)) for x in args.sizes.split(",") if x] + ([10_000_000] if args.big else [])
    res = {"cpus": os.cpu_count(), "pipeline": [], "demo": [], "workers": []}
    # bytecode as an installed package has it (pip compiles it; PYTHONDONTWRITEBYTECODE would
    # otherwise make every command compile the project's modules again, ~0.1 s a command)
    for pkg in ("simcore", "strategies", "analysis", "reports"):
        compileall.compile_dir(os.path.join(ROOT, pkg), quiet=1)
    tmp = tempfile.mkdtemp(prefix="bench-pipeline-")
    try:
        print(f"{args.game} {args.players}p, default strategy, all cores ({os.cpu_count()})")
        print(f"{'games':>10} {'simulate s':>10} {'sim MiB':>8} {'report s':>9} {'report MiB':>10} "
              f"{'report/sim':>10} {'sim CPU s':>9} {'rep CPU s':>9} {'CPU ratio':>9} {'load start':>10} "
              f"{'load end':>8}")
        for n in sizes:
            pairs = [pipeline(args.game, args.players, n, args.seed, tmp)
                     for _ in range(max(1, args.repeat) if n <= 1_000_000 else 1)]
            r = {k: statistics.median(p[k] for p in pairs) for k in pairs[0]}
            r.update(games=n, load_start=pairs[0]["load_start"], load_end=pairs[-1]["load_end"], pairs=pairs)
            res["pipeline"].append(r)
            spread = (f"  (ratio {min(p['ratio'] for p in pairs):.2f}–{max(p['ratio'] for p in pairs):.2f} "
                      f"over {len(pairs)} pairs)" if len(pairs) > 1 else "")
            print(f"{n:>10,} {r['simulate_s']:>10.2f} {r['simulate_rss_mib']:>8.0f} {r['report_s']:>9.2f} "
                  f"{r['report_rss_mib']:>10.0f} {r['ratio']:>10.2f} {r['simulate_cpu_s']:>9.1f} "
                  f"{r['report_cpu_s']:>9.1f} {r['cpu_ratio']:>9.2f} {r['load_start']:>10.2f} "
                  f"{r['load_end']:>8.2f}{spread}", flush=True)
        p = res["pipeline"]
        for a, b in zip(p, p[1:]):
            g = b["games"] / a["games"]
            print(f"  {a['games']:,} -> {b['games']:,} games (x{g:g}): report wall x"
                  f"{b['report_s'] / a['report_s']:.2f}, report RSS x{b['report_rss_mib'] / a['report_rss_mib']:.2f}, "
                  f"simulate wall x{b['simulate_s'] / a['simulate_s']:.2f}")
        if args.demo:
            for k in range(3):
                out = os.path.join(tmp, "demo")
                wall, rss, la0, la1, cpu = run(["demo", "--quick", "--out", out])
                shutil.rmtree(out, ignore_errors=True)
                res["demo"].append({"wall_s": wall, "cpu_s": cpu, "rss_mib": rss, "load_start": la0,
                                    "load_end": la1})
                print(f"demo --quick: {wall:.1f} s ({cpu:.1f} s CPU), peak RSS {rss:.0f} MiB, "
                      f"load {la0:.2f} -> {la1:.2f}", flush=True)
        if args.full_demo:
            d = demo_split(os.path.join(tmp, "full-demo"))
            shutil.rmtree(os.path.join(tmp, "full-demo"), ignore_errors=True)
            res["full_demo"] = d
            print(f"full demo: games {d['games_wall_s']:.1f} s wall / {d['games_cpu_s']:.1f} s CPU, analysis + report "
                  f"{d['analysis_wall_s']:.1f} s wall / {d['analysis_cpu_s']:.1f} s CPU: analysis share "
                  f"{d['analysis_share_wall']:.1%} of the wall, {d['analysis_share_cpu']:.1%} of the CPU "
                  f"(load {d['load_start']:.2f} -> {d['load_end']:.2f})", flush=True)
        if args.workers:
            rows = workers_check(args.workers, args.game, args.players, args.strategy, tmp)
            res["workers"] = rows
            for r in rows:
                print(f"workers {r['workers']} ({r['backend']}): {r['games']:,} {args.strategy} games in "
                      f"{r['wall_s']:.1f} s, {r['cpu_s']:.1f} s CPU (load {r['load_start']:.2f} -> "
                      f"{r['load_end']:.2f})")
            one = [r for r in rows if r["workers"] == 1]
            for backend in ("loky", "threading"):
                two = [r for r in rows if r["workers"] == 2 and r["backend"] == backend]
                speed = sum(r["wall_s"] for r in one) / sum(r["wall_s"] for r in two)
                cpu = sum(r["cpu_s"] for r in two) / sum(r["cpu_s"] for r in one)
                res[f"workers_speedup_{backend}"], res[f"workers_cpu_ratio_{backend}"] = speed, cpu
                print(f"2 workers ({backend}) / 1 worker: {speed:.2f}x wall (alternating runs, same minutes); "
                      f"CPU {cpu:.3f}x one worker's, so at most {2 / cpu:.2f}x on 2 idle cores")
        if args.chunks:
            la0 = load()
            c = chunk_profile(args.game, args.players, args.strategy, args.chunks, args.chunk_size,
                              os.path.join(tmp, "chunks"))
            res["chunks"] = {**c, "load_start": la0, "load_end": load()}
            busy = c["play"] + c["arrow"] + c["write"]
            print(f"{c['chunks']} chunks of {c['chunk_size']:,} {args.strategy} games, CPU s: play {c['play']:.2f}, "
                  f"Arrow tables {c['arrow']:.2f} ({c['arrow'] / busy:.1%}), zstd + write {c['write']:.2f} "
                  f"({c['write'] / busy:.1%}); worker start-up (imports) {c['startup']:.2f} s wall; "
                  f"load {la0:.2f} -> {load():.2f}")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(res, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
