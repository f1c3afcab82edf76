"""Hellas engine figures: µs/game of random play per player count, and the reference engine's ratio.

A thin script over ``reports.bench`` (``boardlab bench`` measures everything,
runner included); this prints the engine part only, for Hellas.

    PYTHONPATH=. python bench/bench_engine.py [--games 20000] [--ref-games 100] [--repeats 5] [--instructions]
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from reports.bench import format_tables, run_bench  # noqa: E402


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=20_000)
    p.add_argument("--ref-games", type=int, default=100)
    p.add_argument("--repeats", type=int, default=5)
    p.add_argument("--players", type=int, action="append", default=None)
    p.add_argument("--instructions", action="store_true", help="callgrind instruction counts (slow)")
    args = p.parse_args(argv)
    res = run_bench(games=args.games, ref_games=args.ref_games, repeats=args.repeats, game_names=["hellas"],
                    players=args.players, runner=False, instructions=args.instructions)
    print(format_tables(res))
    print()
    print("random play, per player count: µs/game (median wall), reference µs/game, ratio")
    for e in res["results"]:
        r = e["random"]
        ref = r.get("reference", {}).get("us_per_game", {}).get("median", float("nan"))
        print(f"  {e['players']} players: {r['us_per_game']['median']:8.1f} µs/game   "
              f"reference {ref:8.0f} µs/game   {r.get('reference_ratio', float('nan')):5.0f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
