"""The reference reducer of CRAB RAGE!: a `CrabRageView` turned into the next one by the events a
viewer sees, reading only the events' fields (never their text), as a front end animating them
would. Each kind's fields are documented with `CrabRageEventKind` in crab_rage.proto."""

from __future__ import annotations

from collections.abc import Callable

from crabgames.v1 import crab_rage_pb2 as pb
from crabgames.v1 import game_pb2

DERIVED_FIELDS: tuple[str, ...] = (
    # The decision being waited for: the state of the decision itself (whose, about which crab,
    # the destinations chosen so far), which every answer brings anew, not something on the
    # table that an event changes.
    "decision",
    # Opaque engine bookkeeping for SampleState, no table state (the proto says: do not read).
    "continuation",
)

K = pb.CrabRageEventKind
View = pb.CrabRageView
Event = pb.CrabRageEvent


def apply_event(view: View, event: game_pb2.Event, viewer: int | None) -> None:
    if event.WhichOneof("event") != "crab_rage":
        return
    part = event.crab_rage
    handler = HANDLERS.get(part.kind)
    if handler is not None:
        handler(view, part, viewer)


def crab_of(view: View, e: Event) -> pb.CrabRageCrabView:
    return view.players[e.crab.player].crabs[e.crab.crab]


def billboard_dealt(view: View, e: Event, viewer: int | None) -> None:
    view.arenas[e.arena].billboard = e.billboard


def microphone(view: View, e: Event, viewer: int | None) -> None:
    view.microphone = e.player


def round_started(view: View, e: Event, viewer: int | None) -> None:
    view.round = e.amount
    for manager in view.players:
        manager.passed = False
    del view.used_actions[:]


def phase_started(view: View, e: Event, viewer: int | None) -> None:
    view.phase = e.phase


def action_revealed(view: View, e: Event, viewer: int | None) -> None:
    view.action_cards.append(e.action)
    view.action_deck_count -= 1


def billboards_rotated(view: View, e: Event, viewer: int | None) -> None:
    for arena, billboard in zip(view.arenas, e.billboards, strict=True):
        arena.billboard = billboard


def passed(view: View, e: Event, viewer: int | None) -> None:
    view.players[e.player].passed = True


def acted(view: View, e: Event, viewer: int | None) -> None:
    view.active_player = e.player
    view.players[e.player].rage = e.result
    if e.first_use:
        view.used_actions.append(e.action)


def signature_move(view: View, e: Event, viewer: int | None) -> None:
    view.active_player = e.player
    manager = view.players[e.player]
    manager.rage, manager.signature_used = e.result, True


def action_resolved(view: View, e: Event, viewer: int | None) -> None:
    view.ClearField("active_player")


def muscle(view: View, e: Event, viewer: int | None) -> None:
    crab_of(view, e).muscle = e.result


def crab_left(view: View, e: Event, viewer: int | None) -> None:
    crab = crab_of(view, e)
    crab.place, crab.arena = pb.CRAB_RAGE_PLACE_TRANSIT, e.arena


def crab_entered(view: View, e: Event, viewer: int | None) -> None:
    crab = crab_of(view, e)
    crab.place, crab.arena = pb.CRAB_RAGE_PLACE_ARENA, e.arena


def end_alliance(view: View, arena: int, seats: set[int]) -> None:
    alliances = view.arenas[arena].alliances
    kept = [list(a.seats) for a in alliances if not seats & set(a.seats)]
    del alliances[:]
    for pair in kept:
        alliances.add(seats=pair)


def alliance(view: View, e: Event, viewer: int | None) -> None:
    if e.alliance == pb.CRAB_RAGE_ALLIANCE_CHOICE_FORM:
        alliances = view.arenas[e.arena].alliances
        pairs = sorted([list(a.seats) for a in alliances] + [sorted([e.player, e.partner])])
        del alliances[:]
        for pair in pairs:
            alliances.add(seats=pair)
    elif e.alliance == pb.CRAB_RAGE_ALLIANCE_CHOICE_INDEPENDENT and e.HasField("partner"):
        end_alliance(view, e.arena, {e.player})


def alliance_ended(view: View, e: Event, viewer: int | None) -> None:
    end_alliance(view, e.arena, set(e.seats))


def fans(view: View, e: Event, viewer: int | None) -> None:
    view.arenas[e.arena].fans[e.player] = e.result
    if e.HasField("crab"):
        crab_of(view, e).riding_fans -= e.amount
    else:
        view.players[e.player].supply -= e.amount


def fan_riding(view: View, e: Event, viewer: int | None) -> None:
    view.players[e.player].supply -= e.amount
    crab_of(view, e).riding_fans = e.result


def rage(view: View, e: Event, viewer: int | None) -> None:
    view.players[e.player].rage = e.result


def mutation(view: View, e: Event, viewer: int | None) -> None:
    crab_of(view, e).muscle = e.result


def roll_off_started(view: View, e: Event, viewer: int | None) -> None:
    ro = view.roll_off
    ro.Clear()
    ro.SetInParent()
    if e.HasField("arena"):
        ro.arena = e.arena
    ro.standing.extend(e.units)
    ro.rolling.extend(e.rolling)


def opponent_picked(view: View, e: Event, viewer: int | None) -> None:
    view.roll_off.rolling.extend(e.units)


def die_rolled(view: View, e: Event, viewer: int | None) -> None:
    if e.cause == pb.CRAB_RAGE_CAUSE_ROLL_OFF:
        view.roll_off.dice.append(e.amount)
        return
    duel = view.duel  # SPOTLIGHT_DUEL
    duel.rolls[duel.turn].values.append(e.amount)
    duel.awaiting_keep = True


def roll_off_rolled(view: View, e: Event, viewer: int | None) -> None:
    if e.seats:  # won: the roll-off is over
        view.ClearField("roll_off")
        return
    ro = view.roll_off
    del ro.standing[:], ro.rolling[:], ro.dice[:]
    ro.standing.extend(e.units)
    ro.rolling.extend(e.rolling)


def hardcore_fans(view: View, e: Event, viewer: int | None) -> None:
    manager = view.players[e.player]
    manager.supply -= e.amount
    manager.hardcore_fans = e.result


def committed(view: View, e: Event, viewer: int | None) -> None:
    manager = view.players[e.player]
    manager.committed = True
    if e.HasField("amount"):  # the committing seat's own events only (G4)
        manager.commitment = e.amount


def revealed(view: View, e: Event, viewer: int | None) -> None:
    manager = view.players[e.player]
    manager.hardcore_fans -= e.amount
    manager.committed = False
    manager.ClearField("commitment")
    view.arenas[e.arena].fans[e.player] = e.result


def glory(view: View, e: Event, viewer: int | None) -> None:
    view.arenas[e.arena].glory[e.player] = e.amount


def duel_started(view: View, e: Event, viewer: int | None) -> None:
    duel = view.duel
    duel.duelists.extend(e.seats)
    for _ in e.seats:
        duel.rolls.add()
    duel.turn = 0
    duel.rerolls.extend([0] * len(e.seats))


def duel_rerolled(view: View, e: Event, viewer: int | None) -> None:
    view.players[e.player].rage = e.result
    duel = view.duel
    duel.rerolls[duel.turn] += 1
    duel.rolls[duel.turn].values.pop()
    duel.awaiting_keep = False


def duel_kept(view: View, e: Event, viewer: int | None) -> None:
    duel = view.duel
    duel.awaiting_keep = False
    duel.turn = (duel.turn + 1) % len(duel.duelists)


def duel_won(view: View, e: Event, viewer: int | None) -> None:
    view.duel.winners.extend(e.seats)


def game_over(view: View, e: Event, viewer: int | None) -> None:
    view.phase = pb.CRAB_RAGE_PHASE_GAME_OVER


def nothing(view: View, e: Event, viewer: int | None) -> None:
    """The event tells what happened; its changes follow in other events (a rumble's fans) or
    are the decision's (a destination chosen)."""


HANDLERS: dict[int, Callable[[View, Event, int | None], None]] = {
    K.CRAB_RAGE_EVENT_KIND_BILLBOARD_DEALT: billboard_dealt,
    K.CRAB_RAGE_EVENT_KIND_MICROPHONE: microphone,
    K.CRAB_RAGE_EVENT_KIND_ROUND_STARTED: round_started,
    K.CRAB_RAGE_EVENT_KIND_ACTION_REVEALED: action_revealed,
    K.CRAB_RAGE_EVENT_KIND_BILLBOARDS_ROTATED: billboards_rotated,
    K.CRAB_RAGE_EVENT_KIND_PASSED: passed,
    K.CRAB_RAGE_EVENT_KIND_ACTED: acted,
    K.CRAB_RAGE_EVENT_KIND_MUSCLE: muscle,
    K.CRAB_RAGE_EVENT_KIND_CRAB_ENTERED: crab_entered,
    K.CRAB_RAGE_EVENT_KIND_ALLIANCE: alliance,
    K.CRAB_RAGE_EVENT_KIND_FANS: fans,
    K.CRAB_RAGE_EVENT_KIND_RAGE: rage,
    K.CRAB_RAGE_EVENT_KIND_MUTATION: mutation,
    K.CRAB_RAGE_EVENT_KIND_RUMBLE_WON: nothing,
    K.CRAB_RAGE_EVENT_KIND_DIE_ROLLED: die_rolled,
    K.CRAB_RAGE_EVENT_KIND_HARDCORE_FANS: hardcore_fans,
    K.CRAB_RAGE_EVENT_KIND_GLORY: glory,
    K.CRAB_RAGE_EVENT_KIND_DUEL_STARTED: duel_started,
    K.CRAB_RAGE_EVENT_KIND_GAME_OVER: game_over,
    K.CRAB_RAGE_EVENT_KIND_HARDCORE_FANS_COMMITTED: committed,
    K.CRAB_RAGE_EVENT_KIND_CRAB_LEFT: crab_left,
    K.CRAB_RAGE_EVENT_KIND_ALLIANCE_ENDED: alliance_ended,
    K.CRAB_RAGE_EVENT_KIND_PHASE_STARTED: phase_started,
    K.CRAB_RAGE_EVENT_KIND_SIGNATURE_MOVE: signature_move,
    K.CRAB_RAGE_EVENT_KIND_ACTION_RESOLVED: action_resolved,
    K.CRAB_RAGE_EVENT_KIND_OPPONENT_PICKED: opponent_picked,
    K.CRAB_RAGE_EVENT_KIND_ROLL_OFF_STARTED: roll_off_started,
    K.CRAB_RAGE_EVENT_KIND_ROLL_OFF_ROLLED: roll_off_rolled,
    K.CRAB_RAGE_EVENT_KIND_HARDCORE_FANS_REVEALED: revealed,
    K.CRAB_RAGE_EVENT_KIND_DUEL_REROLLED: duel_rerolled,
    K.CRAB_RAGE_EVENT_KIND_DUEL_KEPT: duel_kept,
    K.CRAB_RAGE_EVENT_KIND_DUEL_WON: duel_won,
    K.CRAB_RAGE_EVENT_KIND_FAN_RIDING: fan_riding,
    K.CRAB_RAGE_EVENT_KIND_DESTINATION_CHOSEN: nothing,
}
