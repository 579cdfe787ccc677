"""What a seat sees (G5), as native values messages.py writes as `CrabRageView`: the table is
public but for other players' hardcore fan commitments until all are in (G4): a seat sees that a
player has committed, and its own amount only (`commitment_seen`, the one redaction of a view);
and the decision being made, with what it is about (`decision_about`)."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import NamedTuple

from crabgames.games.crab_rage.endgame import still_to_commit
from crabgames.games.crab_rage.flow import current_decision
from crabgames.games.crab_rage.phases import picker_unit
from crabgames.games.crab_rage.state import (
    CrabRef,
    Player,
    State,
    Step,
    Task,
    crab_to_roll,
    roll_to_keep,
    seats_of,
    the_duel,
    the_roll_off,
    unit_to_roll,
)

# ----- commitments (G4) -----


def commitment_seen(player: Player, seat: int, viewer: int | None) -> int | None:
    """The amount of `seat`'s commitment as `viewer` (None: a spectator) sees it: the
    committing seat's alone (R17: a closed hand until all are in); None for everyone else."""
    return player.commitment if player.committed and seat == viewer else None


class Manager(NamedTuple):
    """A manager's board as a seat sees it: the player, and their commitment's amount when the
    seat may see it (`commitment_seen`)."""

    player: Player
    commitment: int | None


def managers(state: State, viewer: int | None) -> list[Manager]:
    return [
        Manager(player, commitment_seen(player, seat, viewer))
        for seat, player in enumerate(state.players)
    ]


def seen_state(state: State, viewer: int | None) -> State:
    """The state as `viewer` may know it (a view's continuation): every commitment it may not
    see is 0. The state itself when it hides none."""
    seen = [
        player
        if (commitment_seen(player, seat, viewer) or 0) == player.commitment
        else dataclasses.replace(player, commitment=0)
        for seat, player in enumerate(state.players)
    ]
    if all(a is b for a, b in zip(seen, state.players, strict=True)):
        return state
    return dataclasses.replace(state, players=seen)


# ----- the decision -----


class About(NamedTuple):
    """The decision the top step waits for, as `CrabRageDecision` (its fields by name): who
    decides and what it is about; only the fields its `name` uses are set."""

    name: str
    player: int | None  # None at a chance node
    arena: int | None = None
    crab: CrabRef | None = None
    crabs: tuple[CrabRef, ...] = ()
    destinations: tuple[int, ...] = ()
    hits_left: int | None = None
    billboard: int = 0
    arenas: tuple[int, ...] = ()
    unit: tuple[int, ...] | None = None  # its seats
    signature_move: int = 0
    waiting: tuple[int, ...] = ()


def decision_about(state: State) -> About | None:
    """The decision being made, None once the game is over."""
    if not state.pending:
        return None
    decision = current_decision(state)
    about = About(decision.name, decision.player if decision.player >= 0 else None)
    task = state.pending[-1]
    more = ABOUT.get(task.kind)
    return about if more is None else more(state, task, about)


def about_destinations(state: State, task: Task, about: About) -> About:
    chosen = tuple(v for v in task.values if v >= 0)  # chosen in order: a prefix
    return about._replace(
        arena=task.arena,
        crab=task.crabs[len(chosen)],
        crabs=tuple(task.crabs),
        destinations=chosen,
    )


def about_signature(state: State, task: Task, about: About) -> About:
    signature = state.players[task.player].signature
    hits_left = task.values[0] if task.kind == Step.FRENZY else None
    return about._replace(arena=task.arena, signature_move=signature, hits_left=hits_left)


def tie_break_arena(state: State) -> int:
    """The arena of the roll-off's step (-1: the microphone)."""
    return next(t.arena for t in reversed(state.pending) if t.kind == Step.TIE_BREAK)


def about_tie_break(state: State, task: Task, about: About) -> About:
    ro = the_roll_off(state)
    unit = unit_to_roll(ro) if ro.rolling else picker_unit(state)
    arena = task.arena if task.arena >= 0 else None
    return about._replace(arena=arena, unit=seats_of(unit))


def about_hardcore(state: State, task: Task, about: About) -> About:
    waiting = tuple(still_to_commit(state, task.arena)[1:])  # after the one deciding
    return about._replace(arena=task.arena, waiting=waiting)


def about_duel(state: State, task: Task, about: About) -> About:
    duel = the_duel(state)
    return about._replace(crab=roll_to_keep(duel)[0] if duel.awaiting_keep else crab_to_roll(duel))


ABOUT: dict[int, Callable[[State, Task, About], About]] = {
    Step.DEAL_BILLBOARD: lambda state, task, about: about._replace(arena=task.arena),
    Step.DESTINATIONS: about_destinations,
    Step.ALLIANCE: lambda state, task, about: about._replace(arena=task.arena),
    Step.BILLBOARD: lambda state, task, about: about._replace(
        arena=task.arena, billboard=state.arenas[task.arena].billboard, crabs=tuple(task.crabs)
    ),
    Step.STYLE_BONUS: lambda state, task, about: about._replace(arenas=tuple(task.values)),
    Step.MUTATION_ROLL: lambda state, task, about: about._replace(crab=task.crabs[0]),
    Step.FRENZY: about_signature,
    Step.SHELL_UP: about_signature,
    Step.RIPTIDE: about_signature,
    Step.TIE_BREAK: about_tie_break,
    Step.HARDCORE: about_hardcore,
    Step.DUEL: about_duel,
}
