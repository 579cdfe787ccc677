"""CRAB RAGE!'s rules (rulebooks/crab_rage.txt, rulings R1-R21), in the rulebook's order.

The rulebook's chapters are modules, each in its own order:
- setup.py: Setup (R1, R2) and the options;
- flow.py: the Round Overview as a stack of pending steps (G3), each kind with its handler;
- phases.py: 1. Referee Phase, 3. Rumble Phase, 4. Fan Phase, 5. Rage Phase, and Mutation
  (R4-R6, R14-R16);
- actions.py: 2. Action Phase: the action board, the action cards, the Style Bonus and the
  Signature Moves (R7-R9, R12, R13);
- movement.py: Movement Rules and Billboards (R10, R11), and the style bonus's placing;
- endgame.py: End of Game: Hardcore Fans, Scoring, Winning the Game, Spotlight Duel (R17-R19);
- season.py: Crab Rage Season (R20).

This module runs them for the plug-in's hooks: who decides, the legal moves, playing a move or a
chance outcome, the outcome, and the conservation laws (R3, R10, R21) that hold after every one.
"""

from __future__ import annotations

from collections.abc import Sequence

from crabgames.core.game import PLAYER, Decision
from crabgames.games.crab_rage import (  # noqa: F401  (each chapter registers its step handlers)
    actions,
    endgame,
    movement,
    phases,
)
from crabgames.games.crab_rage.data import FANS_PER_PLAYER
from crabgames.games.crab_rage.events import Event
from crabgames.games.crab_rage.flow import HANDLERS, advance, current_decision, top
from crabgames.games.crab_rage.moves import Move
from crabgames.games.crab_rage.state import BACKSTAGE, IN_TRANSIT, Phase, State, Step
from crabgames.games.crab_rage.words import crab_name, team


def next_decision(state: State) -> Decision:
    return current_decision(state)


def legal_moves(state: State) -> Sequence[Move]:
    if not state.pending or current_decision(state).kind != PLAYER:
        return []
    task = state.pending[-1]
    return HANDLERS[task.kind].moves(state, task)


def is_legal(state: State, move: Move) -> bool:
    if not state.pending:
        return False
    task = state.pending[-1]
    return HANDLERS[task.kind].is_legal(state, task, move)


def apply_move(state: State, move: Move) -> list[Event]:
    task = state.pending[-1]  # a move is only checked and played while someone decides
    events = HANDLERS[task.kind].play(state, task, move)
    return events + advance(state)


def chance_outcomes(state: State) -> Sequence[tuple[int, int]]:
    task = top(state)
    return HANDLERS[task.kind].outcomes(state, task) if task else []


def apply_chance(state: State, value: int) -> list[Event]:
    task = top(state)
    assert task is not None, "no chance event is pending"
    events = HANDLERS[task.kind].resolve(state, task, value)
    return events + advance(state)


def outcome(state: State) -> endgame.Result | None:
    if state.pending or state.phase != Phase.GAME_OVER:
        return None
    return endgame.result(state)


def invariants(state: State) -> list[str]:
    """R21 fans conserved, R3 muscle 1-6, every crab in one place, rage never negative, R10
    alliances of exactly two colours."""
    problems = []
    transit_ok = any(t.kind in (Step.ENTER, Step.DESTINATIONS) for t in state.pending)
    for seat, p in enumerate(state.players):
        total = p.supply + p.hardcore + sum(a.fans[seat] for a in state.arenas)
        total += sum(c.riding_fans for c in p.crabs)
        if total != FANS_PER_PLAYER or min(p.supply, p.hardcore) < 0:
            problems.append(f"{team(state, seat)}: fans add up to {total}, not 32 (R21)")
        if p.rage < 0:
            problems.append(f"{team(state, seat)}: negative rage")
        for i, c in enumerate(p.crabs):
            if not 1 <= c.muscle <= 6:
                problems.append(f"{crab_name(state, seat, i)}: muscle {c.muscle} (R3)")
            in_place = c.arena == BACKSTAGE or 0 <= c.arena < len(state.arenas)
            if not in_place and not (c.arena == IN_TRANSIT and transit_ok):
                problems.append(f"{crab_name(state, seat, i)}: not in exactly one place")
            if c.riding_fans and c.arena >= 0:
                problems.append(f"{crab_name(state, seat, i)}: a riding fan in an arena")
    for index, arena in enumerate(state.arenas):
        for seat, other in enumerate(arena.partner):
            if other >= 0 and (other == seat or arena.partner[other] != seat):
                problems.append(f"arena {index}: alliance {seat}/{other} is not a pair (R10)")
            present = any(c.arena == index for c in state.players[seat].crabs)
            if other >= 0 and not present:
                problems.append(f"arena {index}: {team(state, seat)} is allied without crabs")
    return problems
