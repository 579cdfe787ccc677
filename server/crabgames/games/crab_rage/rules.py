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
chance outcome, the outcome, and the laws that hold after every one (consistency.LAWS).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from crabgames.core.game import PLAYER
from crabgames.games.crab_rage import (  # noqa: F401  (each chapter registers its step handlers)
    actions,
    endgame,
    movement,
    phases,
)
from crabgames.games.crab_rage.consistency import LAWS
from crabgames.games.crab_rage.events import Event
from crabgames.games.crab_rage.flow import HANDLERS, advance, current_decision, top
from crabgames.games.crab_rage.moves import Move
from crabgames.games.crab_rage.state import Phase, State
from crabgames.games.crab_rage.words import crab_name, team


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
    """The laws of every position (consistency.LAWS: R3, R9, R10, R12, R21; the codec refuses a
    state breaking one), each problem named by its team, crab or arena, players first."""
    found = [(*subject(state, where), why) for law in LAWS for where, why in law(state)]
    return [f"{name}: {why}" for _, name, why in sorted(found, key=lambda f: f[0])]


SUBJECT = re.compile(r"(players|arenas)\[(\d+)\](?:\.crabs\[(\d+)\])?")


def subject(state: State, where: str) -> tuple[tuple[bool, int], str]:
    """The team, crab or arena a law's field (consistency.py) is about, and its place in the
    list: the players' by seat, then the arenas'."""
    found = SUBJECT.match(where)
    assert found is not None, where
    kind, index, crab = found[1], int(found[2]), found[3]
    if kind == "arenas":
        return (True, index), f"arena {index}"
    return (False, index), crab_name(state, index, int(crab)) if crab else team(state, index)
