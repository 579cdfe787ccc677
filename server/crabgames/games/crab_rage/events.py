"""CRAB RAGE!'s events, one class per CrabRageEventKind, and who sees each (G4, G5).

An event's fields are the CrabRageEvent fields its kind sets (native values: a crab as (seat,
index), a unit as a tuple of seats, a move as a Move; None: left unset), then what its sentence
reads that no field holds (team colours, the billboard of an arena it names), all captured when
it happened (billboards rotate, muscle changes), then its `kind`, the kind's name in
CrabRageEventKind (lower case), left at its default: events of two kinds never compare equal.
A class is named after its kind, in the past tense where that name is a move's or a
component's too (AllianceChosen, HardcoreFansGained, SignatureMovePerformed). `why` is what
caused a change: the `cause`, and the action, signature move or billboard that names it.
The sentences are in words.py, built only when an event is encoded: playouts never read them.
"""

from __future__ import annotations

from typing import Final, Literal, NamedTuple, get_args

from crabgames.core.game import built_once
from crabgames.games.crab_rage.data import SEATS, Action, Team
from crabgames.games.crab_rage.moves import Act, Signature
from crabgames.games.crab_rage.state import CrabRef, Phase, State
from crabgames.v1 import crab_rage_pb2 as pb

Units = tuple[tuple[int, ...], ...]  # units, each as its seats


class Cause:
    """Why something changed: CrabRageCause's values, by their names less the prefix.

    Plain int constants, not an IntEnum: they are read on every move, and Python 3.11 reads
    an enum member through its metaclass's attribute hook."""

    ACTION: Final = pb.CRAB_RAGE_CAUSE_ACTION
    SIGNATURE_MOVE: Final = pb.CRAB_RAGE_CAUSE_SIGNATURE_MOVE
    BILLBOARD: Final = pb.CRAB_RAGE_CAUSE_BILLBOARD
    RUMBLE: Final = pb.CRAB_RAGE_CAUSE_RUMBLE
    STYLE_BONUS: Final = pb.CRAB_RAGE_CAUSE_STYLE_BONUS
    FAN_PHASE: Final = pb.CRAB_RAGE_CAUSE_FAN_PHASE
    RAGE_PHASE: Final = pb.CRAB_RAGE_CAUSE_RAGE_PHASE
    LEFT_ARENA: Final = pb.CRAB_RAGE_CAUSE_LEFT_ARENA
    SET_UP: Final = pb.CRAB_RAGE_CAUSE_SET_UP
    ROLL_OFF: Final = pb.CRAB_RAGE_CAUSE_ROLL_OFF
    SPOTLIGHT_DUEL: Final = pb.CRAB_RAGE_CAUSE_SPOTLIGHT_DUEL


# What caused a muscle change, fan or rage (a Cause and what names it: an action, a signature
# move or a billboard, 0 for none), e.g. (Cause.ACTION, Action.SMASH).
Why = tuple[int, int]


# ----- Setup (R5, R6) -----


class BillboardDealt(NamedTuple):
    arena: int
    billboard: int
    kind: Literal["billboard_dealt"] = "billboard_dealt"


class Microphone(NamedTuple):
    player: int
    cause: int  # SET_UP, RAGE_PHASE or ROLL_OFF
    team: int
    kind: Literal["microphone"] = "microphone"


# ----- the round and the Referee Phase (R5) -----


class RoundStarted(NamedTuple):
    amount: int  # the round
    kind: Literal["round_started"] = "round_started"


class PhaseStarted(NamedTuple):
    phase: Phase
    kind: Literal["phase_started"] = "phase_started"


class ActionRevealed(NamedTuple):
    action: int
    kind: Literal["action_revealed"] = "action_revealed"


class BillboardsRotated(NamedTuple):
    billboards: tuple[int, ...]  # by arena, after the rotation
    kind: Literal["billboards_rotated"] = "billboards_rotated"


# ----- the Action Phase (R7-R9, R12, R13) -----


class Passed(NamedTuple):
    player: int
    team: int
    kind: Literal["passed"] = "passed"


class Acted(NamedTuple):
    """`arena`: where the crab acted from (None: backstage); `change`: minus the rage paid;
    `destination_billboard`: the billboard of Move's or Go Clam's destination; `target_team`,
    `partner_team`: the colours of the crab targeted and of the alliance split (0: none)."""

    player: int
    move: Act
    action: int
    crab: CrabRef
    change: int
    result: int
    first_use: bool
    arena: int | None
    team: int
    destination_billboard: int | None
    target_team: int
    partner_team: int
    kind: Literal["acted"] = "acted"


class SignatureMovePerformed(NamedTuple):
    player: int
    arena: int
    move: Signature
    signature_move: int
    change: int  # minus the rage paid
    result: int
    team: int
    arena_billboard: int | None
    kind: Literal["signature_move"] = "signature_move"


class FanRiding(NamedTuple):
    player: int
    crab: CrabRef
    result: int  # the fans riding on it now
    team: int
    amount: int = 1
    cause: int = Cause.STYLE_BONUS
    kind: Literal["fan_riding"] = "fan_riding"


class ActionResolved(NamedTuple):
    player: int
    team: int
    kind: Literal["action_resolved"] = "action_resolved"


# ----- Movement Rules and Billboards (R3, R9-R12) -----


class DestinationChosen(NamedTuple):
    player: int
    crab: CrabRef
    arena: int
    team: int
    crab_team: int
    arena_billboard: int | None
    kind: Literal["destination_chosen"] = "destination_chosen"


class CrabLeft(NamedTuple):
    """`from_arena` None: it left from backstage."""

    player: int
    crab: CrabRef
    arena: int
    from_arena: int | None
    team: int
    arena_billboard: int | None
    from_billboard: int | None
    kind: Literal["crab_left"] = "crab_left"


class CrabEntered(NamedTuple):
    player: int
    crab: CrabRef
    arena: int
    amount: int  # its muscle
    team: int
    arena_billboard: int
    kind: Literal["crab_entered"] = "crab_entered"


class AllianceChosen(NamedTuple):
    """`partner` None: an independent team that had no alliance to end."""

    player: int
    arena: int
    alliance: int  # an AllianceChoice
    partner: int | None
    team: int
    partner_team: int
    arena_billboard: int | None
    kind: Literal["alliance"] = "alliance"


class AllianceEnded(NamedTuple):
    """`action` Split when a Split (`cause` ACTION) ended it, else None."""

    seats: tuple[int, int]
    arena: int
    cause: int
    action: int | None
    teams: tuple[int, int]  # the colours of `seats`
    arena_billboard: int | None
    kind: Literal["alliance_ended"] = "alliance_ended"


class Muscle(NamedTuple):
    """`arena` None: the crab is backstage; `change` the real change, after R3."""

    player: int
    crab: CrabRef
    arena: int | None
    change: int
    result: int
    why: Why
    team: int
    kind: Literal["muscle"] = "muscle"


class Fans(NamedTuple):
    """`crab`: the crab the fans rode on (R12), None from the supply."""

    player: int
    arena: int
    amount: int
    result: int
    crab: CrabRef | None
    why: Why
    team: int
    arena_billboard: int | None
    kind: Literal["fans"] = "fans"


# ----- Rumble Phase, roll-offs (R15, R16) -----


class RumbleWon(NamedTuple):
    seats: tuple[int, ...]
    arena: int
    amount: int  # its muscle
    teams: tuple[int, ...]  # every seat's colour
    arena_billboard: int | None
    cause: int = Cause.RUMBLE
    kind: Literal["rumble_won"] = "rumble_won"


class RollOffStarted(NamedTuple):
    """`arena` None: the microphone (R16); `picker`: who picks an opponent (-1: `rolling`
    roll)."""

    arena: int | None
    units: Units
    rolling: Units
    teams: tuple[int, ...]  # every seat's colour
    arena_billboard: int | None
    picker: int
    cause: int = Cause.ROLL_OFF
    kind: Literal["roll_off_started"] = "roll_off_started"


class OpponentPicked(NamedTuple):
    player: int
    arena: int
    units: Units  # the picker's, then the opponent's
    teams: tuple[int, ...]  # every seat's colour
    arena_billboard: int | None
    kind: Literal["opponent_picked"] = "opponent_picked"


class DieRolled(NamedTuple):
    """`cause` ROLL_OFF: the unit `seats` rolls in the roll-off of `arena` (None: the
    microphone), `teams` every seat's colour; SPOTLIGHT_DUEL: `player` rolls for `crab`, `teams`
    their colour alone."""

    amount: int
    cause: int
    seats: tuple[int, ...] | None
    arena: int | None
    player: int | None
    crab: CrabRef | None
    teams: tuple[int, ...]
    arena_billboard: int | None
    kind: Literal["die_rolled"] = "die_rolled"


class RollOffRolled(NamedTuple):
    """`amount`: the highest roll; `seats`: the winner, when the roll-off is over (then `units`
    and `rolling` are empty)."""

    arena: int | None
    amount: int
    units: Units
    rolling: Units
    seats: tuple[int, ...] | None
    teams: tuple[int, ...]  # every seat's colour
    arena_billboard: int | None
    cause: int = Cause.ROLL_OFF
    kind: Literal["roll_off_rolled"] = "roll_off_rolled"


# ----- Fan Phase (R14), Rage Phase and Mutation (R4, R16) -----


class HardcoreFansGained(NamedTuple):
    player: int
    amount: int
    result: int
    team: int
    cause: int = Cause.FAN_PHASE
    kind: Literal["hardcore_fans"] = "hardcore_fans"


class Rage(NamedTuple):
    """`arena`: the rumble lost or the Pressure Cooker entered, None for a phase's build."""

    player: int
    change: int
    result: int
    arena: int | None
    why: Why
    team: int
    kind: Literal["rage"] = "rage"


class Mutation(NamedTuple):
    player: int
    crab: CrabRef
    amount: int  # the roll, its new muscle
    change: int
    result: int
    team: int
    kind: Literal["mutation"] = "mutation"


# ----- End of Game (R17-R19) -----


class HardcoreFansCommitted(NamedTuple):
    """`amount` None in the copy every other seat sees (G4, `seen_by`)."""

    player: int
    arena: int
    amount: int | None
    team: int
    kind: Literal["hardcore_fans_committed"] = "hardcore_fans_committed"


class HardcoreFansRevealed(NamedTuple):
    player: int
    arena: int
    amount: int
    result: int  # the fans there now
    team: int
    arena_billboard: int
    kind: Literal["hardcore_fans_revealed"] = "hardcore_fans_revealed"


class Glory(NamedTuple):
    player: int
    arena: int
    amount: int
    team: int
    arena_billboard: int
    kind: Literal["glory"] = "glory"


class DuelStarted(NamedTuple):
    seats: tuple[int, ...]  # in turn order
    amount: int  # the glory tied
    teams: tuple[int, ...]  # every seat's colour
    cause: int = Cause.SPOTLIGHT_DUEL
    kind: Literal["duel_started"] = "duel_started"


class GameOver(NamedTuple):
    seats: tuple[int, ...]  # the winners
    teams: tuple[int, ...]  # every seat's colour
    phase: Phase = Phase.GAME_OVER
    kind: Literal["game_over"] = "game_over"


class DuelRerolled(NamedTuple):
    player: int
    crab: CrabRef
    result: int  # rage left
    rolled: int  # the roll given up
    team: int
    change: int = -1
    cause: int = Cause.SPOTLIGHT_DUEL
    kind: Literal["duel_rerolled"] = "duel_rerolled"


class DuelKept(NamedTuple):
    player: int
    crab: CrabRef
    amount: int
    team: int
    cause: int = Cause.SPOTLIGHT_DUEL
    kind: Literal["duel_kept"] = "duel_kept"


class DuelWon(NamedTuple):
    seats: tuple[int, ...]
    amount: int  # the winning total
    teams: tuple[int, ...]  # every seat's colour
    cause: int = Cause.SPOTLIGHT_DUEL
    kind: Literal["duel_won"] = "duel_won"


# Every kind, in CrabRageEventKind's order.
Event = (
    BillboardDealt
    | Microphone
    | RoundStarted
    | ActionRevealed
    | BillboardsRotated
    | Passed
    | Acted
    | Muscle
    | CrabEntered
    | AllianceChosen
    | Fans
    | Rage
    | Mutation
    | RumbleWon
    | DieRolled
    | HardcoreFansGained
    | Glory
    | DuelStarted
    | GameOver
    | HardcoreFansCommitted
    | CrabLeft
    | AllianceEnded
    | PhaseStarted
    | SignatureMovePerformed
    | ActionResolved
    | OpponentPicked
    | RollOffStarted
    | RollOffRolled
    | HardcoreFansRevealed
    | DuelRerolled
    | DuelKept
    | DuelWon
    | FanRiding
    | DestinationChosen
)
EVENT_CLASSES: tuple[type[Event], ...] = get_args(Event)


# ----- events built once -----

# The events that name only a phase, or a seat and its colour, built once and shared (a playout
# meets several a round, and building a NamedTuple is a call the compiled build runs
# interpreted): by phase, and by seat then colour.
PHASE_STARTED: Final = {phase: PhaseStarted(phase) for phase in Phase}
PASSED: Final[tuple[dict[int, Passed], ...]] = tuple(
    {team: Passed(seat, team) for team in Team} for seat in SEATS
)
ACTION_RESOLVED: Final[tuple[dict[int, ActionResolved], ...]] = tuple(
    {team: ActionResolved(seat, team) for team in Team} for seat in SEATS
)
# The events a round meets most, each built once per value met and shared
# (core.game.built_once), as Kraby's are.
ACTED: Final = built_once(Acted)
SIGNATURE_MOVE_PERFORMED: Final = built_once(SignatureMovePerformed)
CRAB_ENTERED: Final = built_once(CrabEntered)
ALLIANCE_CHOSEN: Final = built_once(AllianceChosen)
MUSCLE: Final = built_once(Muscle)
FANS: Final = built_once(Fans)
RAGE: Final = built_once(Rage)


# ----- what each seat sees (G4, G5) -----


def seen_by(event: Event, viewer: int | None) -> Event:
    """G4: hardcore fans committed in a closed hand are seen by the committing seat only; the
    others (and spectators) see that the player committed, not how many. Every other event is
    public (G5)."""
    if type(event) is HardcoreFansCommitted and event.player != viewer:
        return event._replace(amount=None)
    return event


# ----- what an event captures from the state -----


def teams_of(state: State) -> tuple[int, ...]:
    """Every seat's team colour, to capture for a sentence naming several seats."""
    return tuple([p.team for p in state.players])


def billboard_at(state: State, arena: int) -> int | None:
    """The billboard of `arena` (None: backstage), to capture for a sentence naming it."""
    return state.arenas[arena].billboard if 0 <= arena < len(state.arenas) else None


def acted_names(state: State, move: Act) -> tuple[int | None, int, int]:
    """What an action's sentence names besides its own crab: the billboard of Move's or Go
    Clam's destination (None: no destination), the colours of the crab targeted and of the
    alliance split (0: none)."""
    players = state.players
    billboard = None
    if move.action in (Action.MOVE, Action.GO_CLAM):
        billboard = billboard_at(state, move.arena)
    target_team = players[move.target[0]].team if move.target[0] >= 0 else 0
    partner_team = players[move.partner].team if move.action == Action.SPLIT else 0
    return billboard, target_team, partner_team
