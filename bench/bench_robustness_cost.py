"""CPU seconds the demo's [[robustness]] parts cost (issue 35): each condition timed on a sample of games
with one thread (``time.process_time``), scaled to the part's games; CPU time is what a busy machine
distorts least. ``PYTHONPATH=. python bench/bench_robustness_cost.py``."""
import time
from reports.commands.study import load_study
from reports.study import demo_path
from reports.experiments.robustness import bots_for, _games_of
from reports.robustness import conditions, play
study = load_study(demo_path())
total = 0.0
for part in study.parts:
    if part.kind != "robustness":
        continue
    s = part.settings
    cpu = 0.0
    for n in part.players:
        bots, _ = bots_for(part.game, n, s["strategy"], s["bots"])
        comp = str(n) in s["compensation"]
        for c in conditions(part.game, n, s["strategy"], bots, s["rules"]):
            g = _games_of(part.game, c["strategy"], s)
            k = 300 if c["strategy"] == "learned" else 1500
            t = time.process_time(); play(part.game, n, c, k, part.seed, 1); dt = time.process_time() - t
            cpu += dt * g / k * (2 if comp else 1)
    print(f"{part.name}: {part.games:,} games, ~{cpu:.1f} CPU s", flush=True)
    total += cpu
print(f"all robustness parts: ~{total:.1f} CPU s (~{total / 2:.0f} s on 2 idle cores)")
