"""Positions of a replayed game, one per decision: for ``boardlab replay --states`` and the viewer.

A run stores no positions: a game is replayed from its seed (``simcore.run.replay``)
and stepped again here through the step API, so each decision's position,
legal actions and the deciding agent's view can be read.
"""
import simcore


def game_config(manifest):
    """The game module and engine config of a run's manifest."""
    mod = simcore.games[manifest["game"]]
    return mod, mod.make_config(manifest["players"], **manifest.get("variant", {}))


def transcript_with_states(rep, indent="    "):
    """The lines of ``rep``'s transcript (``simcore.run.replay``) with the position after each
    decision (``State.describe()``, indented) once the steps that decision caused are printed."""
    mod, config = game_config(rep["manifest"])
    state = mod.new_game(rep["manifest"]["players"], rep["seed"], config)
    lines = []

    def position(title):
        lines.append(f"{indent}-- {title}")
        lines.extend(indent + row for row in state.describe().splitlines())

    seen_decision = False
    for entry in rep["transcript"]:
        kind = entry.get("kind") if isinstance(entry, dict) else None
        if kind == "decision":
            position(f"position after decision {state.decisions}" if seen_decision else "position at the start")
            seen_decision = True
            lines.append(entry["text"])
            state.apply(int(entry["action"]))
        else:
            lines.append(entry["text"] if isinstance(entry, dict) else str(entry))
    if seen_decision:
        position(f"position after decision {state.decisions} (the last)")
    return lines
