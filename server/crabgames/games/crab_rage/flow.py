"""The pending-step machinery (G3): each step kind has a handler that says who decides, lists the
legal moves, applies a move or a chance outcome, or runs on its own when nobody decides."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, Final

from crabgames.core.game import PLAYER, Decision
from crabgames.games.crab_rage.data import SETUP
from crabgames.games.crab_rage.events import Event
from crabgames.games.crab_rage.moves import Move
from crabgames.games.crab_rage.state import Phase, State, Task


class Handler:
    """Default: an automatic step (nobody decides). A handler names the kind of step it handles
    (`handles = Step.RUMBLE`); defining it registers it in HANDLERS."""

    handles: ClassVar[int]  # a Step

    def __init__(self) -> None:
        # A handler keeping the default `decision` never asks anybody: `advance` runs its steps
        # without asking.
        self.automatic = type(self).decision is Handler.decision

    def __init_subclass__(cls) -> None:
        HANDLERS[cls.handles] = cls()

    def decision(self, state: State, task: Task) -> Decision | None:
        return None

    def moves(self, state: State, task: Task) -> Sequence[Move]:
        return []

    def is_legal(self, state: State, task: Task, move: Move) -> bool:
        """One source of truth: a move is legal when a player decides and `moves` lists it (a
        handler may answer faster by asking the same generator narrowed to the move)."""
        decision = self.decision(state, task)
        return decision is not None and decision.kind == PLAYER and move in self.moves(state, task)

    def play(self, state: State, task: Task, move: Move) -> list[Event]:
        raise AssertionError("not a player decision")

    def outcomes(self, state: State, task: Task) -> list[tuple[int, int]]:
        return []

    def resolve(self, state: State, task: Task, value: int) -> list[Event]:
        raise AssertionError("not a chance event")

    def step(self, state: State, task: Task) -> list[Event]:
        """Run an automatic step; the task has already been popped."""
        return []


# Each kind of step's handler, by the kind (every chapter's handlers, as rules.py imports them).
HANDLERS: Final[dict[int, Handler]] = {}


def seat_decisions(name: str) -> tuple[Decision, ...]:
    """The decision `name` for each seat (index it by the seat), built once: a Decision is an
    immutable NamedTuple, and a playout asks who decides several times a move."""
    return tuple(Decision.player_decides(seat, name) for seat in range(max(SETUP)))


GAME_OVER: Final = Decision.game_over()


def top(state: State) -> Task | None:
    return state.pending[-1] if state.pending else None


def current_decision(state: State) -> Decision:
    if not state.pending:
        return GAME_OVER
    task = state.pending[-1]
    decision = HANDLERS[task.kind].decision(state, task)
    if decision is None:
        raise AssertionError("the state was left at an automatic step")
    return decision


def advance(state: State) -> list[Event]:
    """Run automatic steps until someone (a player or chance) must decide or the game is over."""
    events: list[Event] = []
    pending = state.pending
    while pending:
        task = pending[-1]
        handler = HANDLERS[task.kind]
        if not handler.automatic and handler.decision(state, task) is not None:
            break
        pending.pop()
        events.extend(handler.step(state, task))
    if not pending:
        state.phase = Phase.GAME_OVER
    return events
