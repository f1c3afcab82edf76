"""Runner benchmark: games/s with 1 and 2 workers, scaling efficiency, peak RSS, Parquet size.

Each configuration runs ``boardlab simulate`` in a fresh process (pool start-up
included, as a user sees it); the process tree's resident memory is sampled
every 50 ms and the peak of its sum reported.

    PYTHONPATH=. python bench/bench_runner.py --game hellas --players 3 --games 20000
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PAGE = os.sysconf("SC_PAGE_SIZE")


def _tree_rss(pid):
    """Resident bytes of ``pid`` and all its descendants (Linux /proc)."""
    children, rss = {}, {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            children.setdefault(int(fields[1]), []).append(int(entry))
            with open(f"/proc/{entry}/statm") as f:
                rss[int(entry)] = int(f.read().split()[1]) * PAGE
        except (OSError, IndexError, ValueError):
            continue
    total, todo = 0, [pid]
    while todo:
        p = todo.pop()
        total += rss.get(p, 0)
        todo.extend(children.get(p, []))
    return total


def run_once(args, workers, out, extra=()):
    cmd = [sys.executable, "-m", "reports.cli", "simulate", args.game, "--players", str(args.players),
           "--games", str(args.games), "--seed", "1", "--workers", str(workers), "--no-progress",
           "--backend", args.backend, "--out", out, *extra]
    if args.chunk_size:
        cmd += ["--chunk-size", str(args.chunk_size)]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [ROOT, os.environ.get("PYTHONPATH")]))}
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    peak = [0]

    def sample():
        while proc.poll() is None:
            peak[0] = max(peak[0], _tree_rss(proc.pid))
            time.sleep(0.05)

    th = threading.Thread(target=sample, daemon=True)
    th.start()
    stdout, stderr = proc.communicate()
    wall = time.perf_counter() - t0
    th.join()
    if proc.returncode != 0:
        sys.exit(f"bench: simulate failed:\n{stderr.strip()}")
    with open(os.path.join(out, "manifest.json")) as f:
        manifest = json.load(f)
    sizes = {}
    for table in ("games", "players", "events"):
        d = os.path.join(out, table)
        sizes[table] = sum(os.path.getsize(os.path.join(d, n)) for n in os.listdir(d)) if os.path.isdir(d) else 0
    return {"workers": workers, "games_per_second": manifest["sessions"][-1]["games_per_second"],
            "process_wall": wall, "peak_rss": peak[0], "bytes": sizes}


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--game", default="hellas")
    p.add_argument("--players", type=int, default=3)
    p.add_argument("--games", type=int, default=20_000)
    p.add_argument("--chunk-size", type=int, default=None)
    p.add_argument("--backend", default="loky", choices=("loky", "threading", "dask"))
    p.add_argument("--keep", default=None, help="keep the result folders under this directory")
    args = p.parse_args(argv)

    base = args.keep or tempfile.mkdtemp(prefix="bench-runner-")
    results = []
    try:
        for workers in (1, 2):
            out = os.path.join(base, f"w{workers}")
            shutil.rmtree(out, ignore_errors=True)
            results.append(run_once(args, workers, out))
    finally:
        if not args.keep:
            shutil.rmtree(base, ignore_errors=True)

    one, two = results
    print(f"runner bench: {args.game}, {args.players} players, {args.games:,} games, backend {args.backend}, "
          f"{os.cpu_count()} cores")
    print(f"{'workers':>7}  {'games/s':>10}  {'process wall s':>14}  {'peak RSS (tree)':>15}")
    for r in results:
        print(f"{r['workers']:>7}  {r['games_per_second']:>10,.0f}  {r['process_wall']:>14.2f}  "
              f"{r['peak_rss'] / 2**20:>12.0f} MiB")
    eff = two["games_per_second"] / (2 * one["games_per_second"])
    print(f"scaling efficiency (2 workers vs 1): {eff:.0%}")
    per_m = {t: b / args.games * 1e6 for t, b in one["bytes"].items()}
    print("Parquet bytes per million games: " + ", ".join(f"{t} {v / 2**20:,.1f} MiB" for t, v in per_m.items())
          + f", total {sum(per_m.values()) / 2**20:,.1f} MiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
