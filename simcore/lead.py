"""The lead over a game: per-round score snapshots through the step API.

The batch kernels reduce each game's snapshots to the ``games`` columns
``lead_changes``, ``led_from`` and ``max_deficit`` (``simcore/_lead.pxd``,
``docs/results.md``). This module states the same in Python: it replays a
game of a run through the step API, takes the same snapshots, and reduces
them the same way, so a reader can see one game's lead round by round and
the tests can check the kernel against it.

A snapshot is every seat's total "if the game ended now" (the game
contract's ``running_scores``; Akrotiri's leaves out the goals, which are
secret and score at the end only) at the first decision after a round ended
(the contract's ``round_number`` changed, from a round: a set-up is round
-1), and the final score. A round is a Hellas or Yamataï round, an Akrotiri
pair of turns (seat 0's, then seat 1's).

Examples
--------
>>> snaps = score_snapshots("hellas", 3, seed=7)
>>> len(snaps)                       # one per round, the last is the final score
3
>>> lead_columns([[3, 1], [1, 4], [2, 6]], winners=[1])
{'lead_changes': 1, 'led_from': 2, 'max_deficit': 2}
"""
from __future__ import annotations

import simcore
from simcore._contract import round_number, running_scores


def score_snapshots(game, players, seed, policies=None, config=None, **settings):
    """The seats' totals after each round of the game ``play_batch`` plays from ``seed``, and the final ones.

    Returns
    -------
    list of lists: one per snapshot, one total per seat.
    """
    mod = simcore.games[game]
    cfg = config if config is not None else mod.make_config(players, **settings)
    actions = mod.play_actions(players, seed, policies=policies, config=cfg)
    st = mod.new_game(players=players, seed=seed, config=cfg)
    snaps, rnd = [], round_number(mod, st)
    for a in actions:
        now = round_number(mod, st)
        if now != rnd:
            if rnd >= 0:                # a round ended (not a set-up: round -1)
                snaps.append(running_scores(mod, st))
            rnd = now
        st.apply(a)
    if not st.is_over():
        raise RuntimeError(f"{game} seed {seed}: the replay did not reach the end")
    snaps.append(list(st.scores()["total"]))
    return snaps


def lead_columns(snapshots, winners):
    """``lead_changes``, ``led_from``, ``max_deficit`` of one game (``winners``: the winning seats).

    As the kernels: a lead change is a snapshot whose sole leader differs from
    the last sole leader (tied tops change nothing); ``led_from`` is the
    1-based snapshot from which a winner held the top (ties included) to the
    end; ``max_deficit`` the most the winners' best total trailed the best
    other total by (0: never behind).
    """
    winners = set(winners)
    changes, prev, behind, deficit = 0, None, -1, 0
    for t, tot in enumerate(snapshots):
        top = max(tot)
        leaders = [p for p, v in enumerate(tot) if v == top]
        if len(leaders) == 1:
            if prev is not None and leaders[0] != prev:
                changes += 1
            prev = leaders[0]
        best_w = max(v for p, v in enumerate(tot) if p in winners)
        others = [v for p, v in enumerate(tot) if p not in winners]
        if others and max(others) > best_w:
            behind = t
            deficit = max(deficit, max(others) - best_w)
    return {"lead_changes": changes, "led_from": behind + 2, "max_deficit": deficit}
