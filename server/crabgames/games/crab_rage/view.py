"""What a seat sees (G5): the table, as `CrabRageView`, and the decision being made, as data.

Everything on the table is public but other players' hardcore fan commitments until all are in
(G4): a seat sees that a player has committed, and its own amount only."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from crabgames.games.crab_rage import codec
from crabgames.games.crab_rage.data import ACTION_CARDS
from crabgames.games.crab_rage.endgame import next_to_commit, shouters
from crabgames.games.crab_rage.flow import current_decision
from crabgames.games.crab_rage.phases import picker, picker_unit
from crabgames.games.crab_rage.state import (
    BACKSTAGE,
    IN_TRANSIT,
    Crab,
    State,
    Step,
    Task,
    seats_of,
)
from crabgames.v1 import crab_rage_pb2 as pb
from crabgames.v1.crab_rage_pb2 import CrabRageView


def encode_view(state: State, viewer: int | None, msg: CrabRageView) -> None:
    for seat, player in enumerate(state.players):
        manager = msg.players.add(
            team=player.team,
            rage=player.rage,
            supply=player.supply,
            hardcore_fans=player.hardcore,
            passed=player.passed,
            signature_move=player.signature,
            signature_used=player.signature_used,
            committed=player.committed,
        )
        for c in player.crabs:
            encode_crab(c, manager.crabs.add())
        codec.encode_fanbase(player.fanbase, manager.fanbase_card)
        if player.committed and seat == viewer:  # G4: the amount is the committer's alone
            manager.commitment = player.commitment
    for arena in state.arenas:
        shown = msg.arenas.add(billboard=arena.billboard, fans=arena.fans, glory=arena.glory)
        for seat, other in enumerate(arena.partner):
            if seat < other:
                shown.alliances.add(seats=(seat, other))
    msg.action_cards.extend(codec.actions_msg(state.action_cards))
    msg.action_deck_count = len(ACTION_CARDS) - len(state.action_cards)
    msg.used_actions.extend(codec.actions_msg(state.used_actions))
    msg.round, msg.phase = state.round, pb.CrabRagePhase.ValueType(state.phase)
    if state.microphone >= 0:
        msg.microphone = state.microphone
    if state.active >= 0:
        msg.active_player = state.active
    if state.roll_off is not None:
        encode_roll_off(state, msg.roll_off)
    if state.duel is not None:
        codec.encode_duel(state.duel, msg.duel)
    if state.pending:
        encode_decision(state, msg.decision)
    msg.continuation = codec.state_bytes(state, viewer)


def encode_crab(c: Crab, msg: Any) -> None:
    msg.muscle, msg.riding_fans = c.muscle, c.riding_fans
    if c.arena == BACKSTAGE:
        msg.place = pb.CRAB_RAGE_PLACE_BACKSTAGE
    elif c.arena == IN_TRANSIT:
        msg.place, msg.arena = pb.CRAB_RAGE_PLACE_TRANSIT, c.destination
    else:
        msg.place, msg.arena = pb.CRAB_RAGE_PLACE_ARENA, c.arena


def tie_break_arena(state: State) -> int:
    """The arena of the roll-off's step (-1: the microphone)."""
    return next(t.arena for t in reversed(state.pending) if t.kind == Step.TIE_BREAK)


def encode_roll_off(state: State, msg: Any) -> None:
    ro = state.roll_off
    assert ro is not None
    msg.SetInParent()
    arena = tie_break_arena(state)
    if arena >= 0:
        msg.arena = arena
    for unit in ro.standing:
        msg.standing.add(seats=seats_of(unit))
    for unit in ro.rolling:
        msg.rolling.add(seats=seats_of(unit))
    msg.dice.extend(ro.dice)


def encode_decision(state: State, msg: Any) -> None:
    """The decision the top step waits for, with what it is about (CrabRageDecision)."""
    decision = current_decision(state)
    msg.name = decision.name
    if decision.player >= 0:
        msg.player = decision.player
    task = state.pending[-1]
    about = ABOUT.get(task.kind)
    if about is not None:
        about(state, task, msg)


def about_destinations(state: State, task: Task, msg: Any) -> None:
    msg.arena = task.arena
    chosen = [v for v in task.values if v >= 0]  # chosen in order: a prefix
    msg.crab.player, msg.crab.crab = task.crabs[len(chosen)]
    for seat, index in task.crabs:
        msg.crabs.add(player=seat, crab=index)
    msg.destinations.extend(chosen)


def about_arena(state: State, task: Task, msg: Any) -> None:
    msg.arena = task.arena


def about_billboard(state: State, task: Task, msg: Any) -> None:
    msg.arena = task.arena
    msg.billboard = state.arenas[task.arena].billboard
    for seat, index in task.crabs:
        msg.crabs.add(player=seat, crab=index)


def about_style_bonus(state: State, task: Task, msg: Any) -> None:
    msg.arenas.extend(task.values)


def about_mutation_roll(state: State, task: Task, msg: Any) -> None:
    msg.crab.player, msg.crab.crab = task.crabs[0]


def about_signature(state: State, task: Task, msg: Any) -> None:
    msg.arena = task.arena
    msg.signature_move = state.players[task.player].signature
    if task.kind == Step.FRENZY:
        msg.hits_left = task.values[0]


def about_tie_break(state: State, task: Task, msg: Any) -> None:
    if task.arena >= 0:
        msg.arena = task.arena
    ro = state.roll_off
    assert ro is not None
    if ro.rolling:
        unit = ro.rolling[len(ro.dice)]
    else:
        unit = picker_unit(state)
        assert msg.player == picker(state)
    msg.unit.seats.extend(seats_of(unit))


def about_hardcore(state: State, task: Task, msg: Any) -> None:
    msg.arena = task.arena
    decider = next_to_commit(state, task.arena)
    players = state.players
    waiting = [
        p
        for p in shouters(state, task.arena)
        if p != decider and not players[p].committed and players[p].hardcore > 0
    ]
    msg.waiting.extend(waiting)


def about_duel(state: State, task: Task, msg: Any) -> None:
    duel = state.duel
    assert duel is not None
    player = duel.duelists[duel.turn]
    rolled = len(duel.rolls[duel.turn])
    msg.crab.player = player
    msg.crab.crab = rolled - 1 if duel.awaiting_keep else rolled


ABOUT: dict[int, Callable[[State, Task, Any], None]] = {
    Step.DEAL_BILLBOARD: about_arena,
    Step.DESTINATIONS: about_destinations,
    Step.ALLIANCE: about_arena,
    Step.BILLBOARD: about_billboard,
    Step.STYLE_BONUS: about_style_bonus,
    Step.MUTATION_ROLL: about_mutation_roll,
    Step.FRENZY: about_signature,
    Step.SHELL_UP: about_signature,
    Step.RIPTIDE: about_signature,
    Step.TIE_BREAK: about_tie_break,
    Step.HARDCORE: about_hardcore,
    Step.DUEL: about_duel,
}
