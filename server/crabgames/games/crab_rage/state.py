"""The native state of CRAB RAGE!: plain dataclasses and a pending-step stack (G3)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import IntEnum
from typing import Any, Final, Self, TypeVar

from crabgames.games.crab_rage.data import (
    ALPHABETICAL_RANK,
    ARENA_COUNTS,
    FANS_PER_PLAYER,
    SETUP,
    Reward,
)
from crabgames.v1 import crab_rage_pb2 as pb

BACKSTAGE: Final = -1
IN_TRANSIT: Final = -2  # a crab between leaving an arena and entering its destination

CrabRef = tuple[int, int]  # (seat, crab index)
NO_CRAB: Final[CrabRef] = (-1, -1)


class Phase(IntEnum):
    """CrabRagePhase's values, by their names less the prefix."""

    SETUP = pb.CRAB_RAGE_PHASE_SETUP
    REFEREE = pb.CRAB_RAGE_PHASE_REFEREE
    ACTION = pb.CRAB_RAGE_PHASE_ACTION
    RUMBLE = pb.CRAB_RAGE_PHASE_RUMBLE
    FAN = pb.CRAB_RAGE_PHASE_FAN
    RAGE = pb.CRAB_RAGE_PHASE_RAGE
    END_OF_GAME = pb.CRAB_RAGE_PHASE_END_OF_GAME
    GAME_OVER = pb.CRAB_RAGE_PHASE_GAME_OVER


class Step:
    """Kinds of pending steps: CrabRagePendingKind's values, by their names less the prefix.

    Plain int constants, not an IntEnum: they are read on every move, and Python 3.11 reads
    an enum member through its metaclass's attribute hook."""

    DEAL_BILLBOARD: Final = pb.CRAB_RAGE_PENDING_KIND_DEAL_BILLBOARD
    MICROPHONE: Final = pb.CRAB_RAGE_PENDING_KIND_MICROPHONE
    ROUND_START: Final = pb.CRAB_RAGE_PENDING_KIND_ROUND_START
    FLIP_ACTION: Final = pb.CRAB_RAGE_PENDING_KIND_FLIP_ACTION
    ACTION_TURN: Final = pb.CRAB_RAGE_PENDING_KIND_ACTION_TURN
    AFTER_ACTION: Final = pb.CRAB_RAGE_PENDING_KIND_AFTER_ACTION
    DESTINATIONS: Final = pb.CRAB_RAGE_PENDING_KIND_DESTINATIONS
    ENTER: Final = pb.CRAB_RAGE_PENDING_KIND_ENTER
    ALLIANCE: Final = pb.CRAB_RAGE_PENDING_KIND_ALLIANCE
    BILLBOARD: Final = pb.CRAB_RAGE_PENDING_KIND_BILLBOARD
    STYLE_BONUS: Final = pb.CRAB_RAGE_PENDING_KIND_STYLE_BONUS
    BUILD_RAGE: Final = pb.CRAB_RAGE_PENDING_KIND_BUILD_RAGE
    MUTATION_CHOICE: Final = pb.CRAB_RAGE_PENDING_KIND_MUTATION_CHOICE
    MUTATION_ROLL: Final = pb.CRAB_RAGE_PENDING_KIND_MUTATION_ROLL
    FRENZY: Final = pb.CRAB_RAGE_PENDING_KIND_FRENZY
    SHELL_UP: Final = pb.CRAB_RAGE_PENDING_KIND_SHELL_UP
    RIPTIDE: Final = pb.CRAB_RAGE_PENDING_KIND_RIPTIDE
    RUMBLE_PHASE: Final = pb.CRAB_RAGE_PENDING_KIND_RUMBLE_PHASE
    RUMBLE: Final = pb.CRAB_RAGE_PENDING_KIND_RUMBLE
    TIE_BREAK: Final = pb.CRAB_RAGE_PENDING_KIND_TIE_BREAK
    RUMBLE_RESULT: Final = pb.CRAB_RAGE_PENDING_KIND_RUMBLE_RESULT
    FAN_PHASE: Final = pb.CRAB_RAGE_PENDING_KIND_FAN_PHASE
    RAGE_PHASE: Final = pb.CRAB_RAGE_PENDING_KIND_RAGE_PHASE
    MICROPHONE_CHECK: Final = pb.CRAB_RAGE_PENDING_KIND_MICROPHONE_CHECK
    ROUND_END: Final = pb.CRAB_RAGE_PENDING_KIND_ROUND_END
    HARDCORE: Final = pb.CRAB_RAGE_PENDING_KIND_HARDCORE
    SCORING: Final = pb.CRAB_RAGE_PENDING_KIND_SCORING
    DUEL: Final = pb.CRAB_RAGE_PENDING_KIND_DUEL


STEPS: Final = frozenset(v for k, v in vars(Step).items() if k.isupper())


@dataclass(slots=True, init=False)
class Task:
    """One pending step. Field use depends on `kind` (documented in the proto). A step is
    never changed once pushed (a handler replaces it: `replaced`), so clones share it, and its
    bytes (messages.py) are written once."""

    kind: int  # a Step
    player: int
    arena: int
    crabs: list[CrabRef]
    values: list[int]
    flag: bool
    written: bytes = field(init=False, compare=False, repr=False)

    # Written out rather than generated: nearly every move pushes a step, and the compiled build
    # (mypyc) compiles a written __init__ but runs a dataclass's generated one interpreted.
    def __init__(
        self,
        kind: int,
        player: int = -1,
        arena: int = -1,
        crabs: list[CrabRef] | None = None,
        values: list[int] | None = None,
        flag: bool = False,
    ) -> None:
        self.kind, self.player, self.arena, self.flag = kind, player, arena, flag
        self.crabs = [] if crabs is None else crabs
        self.values = [] if values is None else values
        self.written = b""

    def __reduce__(self) -> tuple[type[Task], tuple[int, int, int, list[CrabRef], list[int], bool]]:
        """Copied and pickled as built: compiled, the class is only made through its __init__."""
        return Task, (self.kind, self.player, self.arena, self.crabs, self.values, self.flag)

    def replaced(self, values: list[int]) -> Task:
        """This step with other values, to put in its place."""
        return Task(self.kind, self.player, self.arena, self.crabs, values, self.flag)


def seat_steps(kind: int) -> tuple[Task, ...]:
    """The step of `kind` naming only a seat, built once for each: a step is never changed once
    pushed, so every state shares it, with its bytes."""
    return tuple(Task(kind, seat) for seat in range(max(SETUP)))


def seat_arena_steps(kind: int) -> tuple[tuple[Task, ...], ...]:
    """`seat_steps` for a step naming a seat and an arena, by seat, then arena."""
    arenas = range(max(ARENA_COUNTS))
    return tuple(tuple(Task(kind, seat, arena) for arena in arenas) for seat in range(max(SETUP)))


# The state's dataclasses have their __init__ written out, as Task's: a move clones the player
# or arena it changes (copy on write), and the compiled build compiles a written __init__ but
# runs a dataclass's generated one interpreted (about 5x slower). `__reduce__` builds a copy or
# a pickle through it.


@dataclass(slots=True, init=False)
class Crab:
    muscle: int
    arena: int  # an arena index, BACKSTAGE or IN_TRANSIT
    riding_fans: int  # R12: a style bonus fan riding on a backstage crab
    destination: int  # while IN_TRANSIT: the arena it is entering

    def __init__(
        self, muscle: int, arena: int = BACKSTAGE, riding_fans: int = 0, destination: int = -1
    ) -> None:
        self.muscle = muscle
        self.arena = arena
        self.riding_fans = riding_fans
        self.destination = destination

    def __reduce__(self) -> tuple[type[Crab], tuple[int, int, int, int]]:
        return Crab, (self.muscle, self.arena, self.riding_fans, self.destination)

    def clone(self) -> Crab:
        return Crab(self.muscle, self.arena, self.riding_fans, self.destination)


class CopyOnWrite:
    """A player or an arena: shared by clones while frozen, copied before it changes
    (`writable`)."""

    __slots__ = ()
    frozen: bool

    def clone(self) -> Self:
        """A private (not frozen) deep copy."""
        raise NotImplementedError


@dataclass(slots=True, init=False)
class Player(CopyOnWrite):
    team: int
    rage: int
    crabs: list[Crab]
    signature: int
    fanbase: tuple[Reward, ...]
    supply: int
    hardcore: int
    passed: bool
    signature_used: bool
    committed: bool
    commitment: int
    # Copy on write (State.clone): a frozen player may be shared by several states and is never
    # changed again (`writable_player` copies it first), so its bytes (messages.py: writing
    # them freezes the player) are written once.
    frozen: bool = field(init=False, compare=False, repr=False)
    written: bytes = field(init=False, compare=False, repr=False)

    def __init__(
        self,
        team: int,
        rage: int,
        crabs: list[Crab],
        signature: int,
        fanbase: tuple[Reward, ...],
        supply: int = FANS_PER_PLAYER,
        hardcore: int = 0,
        passed: bool = False,
        signature_used: bool = False,
        committed: bool = False,
        commitment: int = 0,
    ) -> None:
        self.team = team
        self.rage = rage
        self.crabs = crabs
        self.signature = signature
        self.fanbase = fanbase
        self.supply = supply
        self.hardcore = hardcore
        self.passed = passed
        self.signature_used = signature_used
        self.committed = committed
        self.commitment = commitment
        self.frozen = False
        self.written = b""

    def __reduce__(self) -> tuple[type[Player], tuple[Any, ...]]:
        return Player, (
            self.team,
            self.rage,
            self.crabs,
            self.signature,
            self.fanbase,
            self.supply,
            self.hardcore,
            self.passed,
            self.signature_used,
            self.committed,
            self.commitment,
        )

    def clone(self) -> Player:
        """A private (not frozen) deep copy."""
        return Player(
            self.team,
            self.rage,
            [c.clone() for c in self.crabs],
            self.signature,
            self.fanbase,  # a tuple of NamedTuples: immutable, shared
            self.supply,
            self.hardcore,
            self.passed,
            self.signature_used,
            self.committed,
            self.commitment,
        )


@dataclass(slots=True, init=False)
class Arena(CopyOnWrite):
    billboard: int  # 0 until dealt
    fans: list[int]
    partner: list[int]  # R10: alliance partner by seat, -1 independent or absent
    glory: list[int]
    # Copy on write, as for Player (`writable_arena`), its bytes written once as a player's.
    frozen: bool = field(init=False, compare=False, repr=False)
    written: bytes = field(init=False, compare=False, repr=False)

    def __init__(
        self, billboard: int, fans: list[int], partner: list[int], glory: list[int]
    ) -> None:
        self.billboard = billboard
        self.fans = fans
        self.partner = partner
        self.glory = glory
        self.frozen = False
        self.written = b""

    def __reduce__(self) -> tuple[type[Arena], tuple[int, list[int], list[int], list[int]]]:
        return Arena, (self.billboard, self.fans, self.partner, self.glory)

    def clone(self) -> Arena:
        """A private (not frozen) deep copy."""
        return Arena(self.billboard, self.fans[:], self.partner[:], self.glory[:])


@dataclass(slots=True, init=False)
class RollOff:
    """A roll-off among units (bit sets of seats): R15 rumble ties, R16 microphone ties."""

    standing: list[int]
    rolling: list[int]
    dice: list[int]

    def __init__(
        self, standing: list[int], rolling: list[int], dice: list[int] | None = None
    ) -> None:
        self.standing = standing
        self.rolling = rolling
        self.dice = [] if dice is None else dice

    def __reduce__(self) -> tuple[type[RollOff], tuple[list[int], list[int], list[int]]]:
        return RollOff, (self.standing, self.rolling, self.dice)

    def clone(self) -> RollOff:
        return RollOff(self.standing[:], self.rolling[:], self.dice[:])


@dataclass(slots=True, init=False)
class Duel:
    """The spotlight duel (R19)."""

    duelists: list[int]
    rolls: list[list[int]]
    turn: int
    awaiting_keep: bool
    rerolls: list[int]
    winners: list[int]

    def __init__(
        self,
        duelists: list[int],
        rolls: list[list[int]],
        turn: int = 0,
        awaiting_keep: bool = False,
        rerolls: list[int] | None = None,
        winners: list[int] | None = None,
    ) -> None:
        self.duelists = duelists
        self.rolls = rolls
        self.turn = turn
        self.awaiting_keep = awaiting_keep
        self.rerolls = [] if rerolls is None else rerolls
        self.winners = [] if winners is None else winners

    def __reduce__(
        self,
    ) -> tuple[type[Duel], tuple[list[int], list[list[int]], int, bool, list[int], list[int]]]:
        return Duel, (
            self.duelists,
            self.rolls,
            self.turn,
            self.awaiting_keep,
            self.rerolls,
            self.winners,
        )

    def clone(self) -> Duel:
        return Duel(
            self.duelists[:],
            [r[:] for r in self.rolls],
            self.turn,
            self.awaiting_keep,
            self.rerolls[:],
            self.winners[:],
        )


@dataclass(slots=True, init=False)
class State:
    players: list[Player]
    arenas: list[Arena]
    action_cards: list[int]
    round: int
    phase: Phase
    microphone: int
    active: int
    used_actions: list[int]
    billboards_to_deal: list[int]
    pending: list[Task]
    roll_off: RollOff | None
    duel: Duel | None

    def __init__(
        self,
        players: list[Player],
        arenas: list[Arena],
        action_cards: list[int] | None = None,
        round: int = 0,
        phase: Phase = Phase.SETUP,
        microphone: int = -1,
        active: int = -1,
        used_actions: list[int] | None = None,
        billboards_to_deal: list[int] | None = None,
        pending: list[Task] | None = None,
        roll_off: RollOff | None = None,
        duel: Duel | None = None,
    ) -> None:
        self.players = players
        self.arenas = arenas
        self.action_cards = [] if action_cards is None else action_cards
        self.round = round
        self.phase = phase
        self.microphone = microphone
        self.active = active
        self.used_actions = [] if used_actions is None else used_actions
        self.billboards_to_deal = [] if billboards_to_deal is None else billboards_to_deal
        self.pending = [] if pending is None else pending
        self.roll_off = roll_off
        self.duel = duel

    def __reduce__(self) -> tuple[type[State], tuple[Any, ...]]:
        return State, (
            self.players,
            self.arenas,
            self.action_cards,
            self.round,
            self.phase,
            self.microphone,
            self.active,
            self.used_actions,
            self.billboards_to_deal,
            self.pending,
            self.roll_off,
            self.duel,
        )

    @property
    def num_players(self) -> int:
        return len(self.players)

    def clone(self) -> State:
        """A copy that shares the players and arenas copy-on-write: both states freeze them, and
        whichever changes one first copies it (`writable_player`, `writable_arena`); a move
        changes one or two of them. Ints, enums, tuples and NamedTuples are immutable and shared,
        and so are the pending steps (never changed, only replaced: Task); every other list and
        dataclass is copied. tests/crab_rage/test_clone.py checks that
        every field is covered and that playing on a clone never changes the original."""
        for player in self.players:
            player.frozen = True
        for arena in self.arenas:
            arena.frozen = True
        return State(
            self.players[:],
            self.arenas[:],
            self.action_cards[:],
            self.round,
            self.phase,
            self.microphone,
            self.active,
            self.used_actions[:],
            self.billboards_to_deal[:],
            self.pending[:],  # steps are never changed, only replaced (Task)
            None if self.roll_off is None else self.roll_off.clone(),
            None if self.duel is None else self.duel.clone(),
        )

    def __copy__(self) -> State:
        """Python's copy protocol, as the engine clones a state."""
        return self.clone()


Piece = TypeVar("Piece", bound=CopyOnWrite)


def writable(pieces: list[Piece], index: int) -> Piece:
    """`pieces[index]` (a player or an arena), safe to change: a frozen one (shared with a
    clone) is copied into its place first."""
    piece = pieces[index]
    if piece.frozen:
        piece = pieces[index] = piece.clone()
    return piece


def the_duel(state: State) -> Duel:
    """The spotlight duel under way: a duel's steps run only during one (R19)."""
    assert state.duel is not None, "no spotlight duel is under way"
    return state.duel


def the_roll_off(state: State) -> RollOff:
    """The roll-off under way: a tie break's steps run only during one (R15, R16)."""
    assert state.roll_off is not None, "no roll-off is under way"
    return state.roll_off


def standing_unit_of(roll_off: RollOff, seat: int) -> int:
    """The standing unit `seat` is in (R15: the earliest tied manager picks the unit to roll
    against by one of its seats)."""
    return next(u for u in roll_off.standing if u >> seat & 1)


def unit_to_roll(roll_off: RollOff) -> int:
    """The rolling unit whose die is next: the rolling units roll one after another."""
    return roll_off.rolling[len(roll_off.dice)]


def crab_to_roll(duel: Duel) -> CrabRef:
    """R19: the crab whose die is next, the duelist in turn's next crab (a duelist rolls for
    their crabs one after another)."""
    return duel.duelists[duel.turn], len(duel.rolls[duel.turn])


def roll_to_keep(duel: Duel) -> tuple[CrabRef, int]:
    """R19: the crab the duelist in turn has just rolled for, and its roll, which they keep or
    re-roll next."""
    rolls = duel.rolls[duel.turn]
    return (duel.duelists[duel.turn], len(rolls) - 1), rolls[-1]


def next_leaving_crab(task: Task) -> CrabRef:
    """R9: the leaving crab whose destination the actor picks next (the first without one)."""
    return task.crabs[task.values.index(-1)]


def writable_player(state: State, seat: int) -> Player:
    """The seat's player, safe to change. Every change to a player or one of its crabs goes
    through here."""
    return writable(state.players, seat)


def writable_crab(state: State, ref: CrabRef) -> Crab:
    """The crab, safe to change (its player is made writable)."""
    return writable(state.players, ref[0]).crabs[ref[1]]


def writable_arena(state: State, index: int) -> Arena:
    """The arena, safe to change. Every change to an arena (its billboard, fans, alliances or
    glory) goes through here."""
    return writable(state.arenas, index)


# ----- small queries used everywhere -----


def turn_order(state: State, start: int) -> tuple[int, ...]:
    """Seats clockwise from `start` (G1, R6)."""
    return CLOCKWISE[len(state.players)][start]


def clockwise(start: int, seats: int) -> tuple[int, ...]:
    """Seats clockwise from `start` at a table of `seats`."""
    return tuple((start + i) % seats for i in range(seats))


# `clockwise` by table size and start, built once: asked for several times a move.
CLOCKWISE: Final = tuple(
    tuple(clockwise(start, seats) for start in range(seats)) for seats in range(max(SETUP) + 1)
)


def crab(state: State, ref: CrabRef) -> Crab:
    return state.players[ref[0]].crabs[ref[1]]


def crabs_in(state: State, arena: int) -> list[CrabRef]:
    return [
        (p, i)
        for p, player in enumerate(state.players)
        for i, c in enumerate(player.crabs)
        if c.arena == arena
    ]


def own_crabs_in(state: State, player: int, arena: int) -> list[int]:
    return [i for i, c in enumerate(state.players[player].crabs) if c.arena == arena]


def managers_in(state: State, arena: int) -> list[int]:
    """The seats with a crab in `arena`, in seat order."""
    return [
        p for p, player in enumerate(state.players) if any(c.arena == arena for c in player.crabs)
    ]


def unit_of(state: State, player: int, arena: int) -> int:
    """The unit (bit set of seats) the player's crabs in `arena` belong to (R10)."""
    partner = state.arenas[arena].partner[player]
    return (1 << player) | (1 << partner if partner >= 0 else 0)


def units_in(state: State, arena: int) -> list[int]:
    return sorted({unit_of(state, p, arena) for p in managers_in(state, arena)})


# The seats of each unit (a bit set of seats), lowest first, by unit: built once, asked for
# several times a move.
UNIT_SEATS: Final = tuple(
    tuple(p for p in range(max(SETUP)) if unit >> p & 1) for unit in range(1 << max(SETUP))
)


def seats_of(unit: int) -> tuple[int, ...]:
    """The seats of a unit, lowest first."""
    return UNIT_SEATS[unit]


def muscle_of(state: State, seats: Sequence[int] | int, arena: int) -> int:
    if isinstance(seats, int):
        seats = seats_of(seats)
    players = state.players
    return sum([c.muscle for p in seats for c in players[p].crabs if c.arena == arena])


def arenas_alphabetical(state: State) -> list[int]:
    """Arena indices in alphabetical billboard order (R5)."""
    return sorted(
        range(len(state.arenas)), key=lambda a: ALPHABETICAL_RANK.get(state.arenas[a].billboard, 9)
    )


def rumble_order(state: State) -> list[int]:
    """R5: start at the arena whose billboard comes first alphabetically, then clockwise."""
    return list(clockwise(arenas_alphabetical(state)[0], len(state.arenas)))


def earliest(state: State, seats: list[int]) -> int:
    """The first of `seats` in turn order from the microphone holder (R6)."""
    order = turn_order(state, max(state.microphone, 0))
    return min(seats, key=order.index)


def push(state: State, *tasks: Task) -> None:
    """Push steps so that the first given runs first."""
    push_all(state, list(tasks))


def push_all(state: State, tasks: list[Task]) -> None:
    """`push` for steps gathered in a list (compiled, a call unpacking one with * is a slow,
    generic one)."""
    for task in reversed(tasks):
        state.pending.append(task)
