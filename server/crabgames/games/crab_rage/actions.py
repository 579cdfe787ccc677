"""The Action Phase (R7): act or pass in turn order; the four board actions, the six action cards
(R8, R9), the style bonus (R12) and the signature moves (R13), in the rulebook's order.

Each printed rule is one function (what an action costs, which X can be unleashed, what it
targets); the move generator (`turn_moves`), its narrowed twin for validation (`is_turn_move`),
the payment (`ActionTurn.play`) and the explanation of an illegal move (explain.py) call them.
A turn lists up to ~130 moves, so the moves themselves are built once, at import, in tables
filled from the same functions, and a turn gathers them."""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import accumulate, chain
from typing import Final, cast, overload

from crabgames.core.game import Decision
from crabgames.games.crab_rage.data import (
    ACTION_COST,
    ARENA_COUNTS,
    ARENA_ONLY,
    BOARD_ACTIONS,
    CLAW_SNAP_HIT,
    CRAB_INDICES,
    FRENZY_HIT,
    GO_CLAM_MUSCLE,
    HYPE_UP_BOOST,
    MAX_MUSCLE,
    MIN_MUSCLE,
    SEATS,
    SHELL_UP_BOOST,
    SIGNATURE_FANS,
    SIGNATURE_RAGE_COST,
    WITH_X,
    Action,
    SignatureMove,
)
from crabgames.games.crab_rage.events import (
    ACTED,
    ACTION_RESOLVED,
    PASSED,
    SIGNATURE_MOVE_PERFORMED,
    Cause,
    Event,
    FanRiding,
    Why,
    acted_names,
    billboard_at,
)
from crabgames.games.crab_rage.flow import Handler, seat_decisions
from crabgames.games.crab_rage.movement import (
    change_muscle,
    end_alliance,
    place_fans,
    send,
    set_muscle_event,
    style_bonus,
)
from crabgames.games.crab_rage.moves import PASS, Act, Move, Pass, Signature, SignatureTarget
from crabgames.games.crab_rage.state import (
    BACKSTAGE,
    CrabRef,
    State,
    Step,
    Task,
    crab,
    crabs_in,
    own_crabs_in,
    push,
    push_all,
    seat_arena_steps,
    seat_steps,
    turn_order,
    writable_crab,
    writable_player,
)

# Who decides, by seat: a Decision is an immutable NamedTuple, asked for several times a move.
CHOOSE_ACTION_BY_SEAT: Final = seat_decisions("choose_action")
CHOOSE_FRENZY_TARGET_BY_SEAT: Final = seat_decisions("choose_frenzy_target")
CHOOSE_SHELL_UP_CRAB_BY_SEAT: Final = seat_decisions("choose_shell_up_crab")
CHOOSE_RIPTIDE_TARGET_BY_SEAT: Final = seat_decisions("choose_riptide_target")

# A turn's steps by seat, and a signature move's by seat and arena (state.seat_steps).
ACTION_TURN_BY_SEAT: Final = seat_steps(Step.ACTION_TURN)
AFTER_ACTION_BY_SEAT: Final = seat_steps(Step.AFTER_ACTION)
SHELL_UP_STEPS: Final = seat_arena_steps(Step.SHELL_UP)
RIPTIDE_STEPS: Final = seat_arena_steps(Step.RIPTIDE)

# Every crab reference (seat, crab index) by seat and index: shared tuples, not one per listing.
CRAB_REFS: Final = tuple(tuple((seat, i) for i in CRAB_INDICES) for seat in SEATS)


# ----- 2. Action Phase: "Act. Select an available action. Place rage equal to its cost." -----


def available_actions(state: State) -> list[int]:
    """The action board's four actions, then the action cards in the order they were revealed
    (Referee Phase, A. New Rules)."""
    return [*BOARD_ACTIONS, *state.action_cards]


def is_available(state: State, action: int) -> bool:
    return action in BOARD_ACTIONS or action in state.action_cards


def has_x(action: int) -> bool:
    """Smash and Rage: "cost 1 plus X", X being the rage unleashed (R8)."""
    return action in WITH_X


LEAST_X: Final = 1  # R8: X is at least 1
RAISES_MUSCLE: Final = frozenset({Action.RAGE})  # R8: Rage's X cannot take muscle above 6


def rage_cost(action: int, x: int = 0) -> int:
    """The rage placed on the action: its printed cost, plus X for Smash and Rage (R8)."""
    return ACTION_COST[action] + (x if has_x(action) else 0)


def least_cost(action: int) -> int:
    """The least the action can cost: Smash and Rage with X = 1 (R8)."""
    return rage_cost(action, LEAST_X)


def can_pay(rage: int, cost: int) -> bool:
    """R3: a cost can only be paid with rage the player has."""
    return cost <= rage


def most_x_paid(action: int, rage: int) -> int:
    """The largest X the player can pay for (the cost is 1 plus X, R8); there is no other limit
    on Smash's X ("There is no limit to how much rage you can unleash")."""
    return rage - ACTION_COST[action]


def x_values(action: int, rage: int, muscle: int) -> range:
    """Every X the player can unleash, in increasing order from LEAST_X: what they can pay for;
    Rage also cannot take the crab's muscle above 6 (R3, R8)."""
    most = most_x_paid(action, rage)
    if action in RAISES_MUSCLE:
        most = min(most, MAX_MUSCLE - muscle)
    return range(LEAST_X, most + 1)


def x_slice(xs: range) -> slice:
    """Where the X values `xs` sit in a row of moves listing X = LEAST_X, LEAST_X + 1, ... in
    order (the tables below are built that way, from `x_values`)."""
    return slice(xs.start - LEAST_X, xs.stop - LEAST_X) if xs else slice(0, 0)


def can_perform_from(action: int, place: int) -> bool:
    """ "Actions marked with the arena symbol can only be performed when the crab is in an
    arena" (R7); Move, Go Clam and Rage may use a backstage crab."""
    return place >= 0 or action not in ARENA_ONLY


# ----- what each action targets, in the rulebook's order -----

Rivals = list[list[CrabRef]]  # the rival crabs in each arena (`rivals_by_arena`)


def rivals_in(state: State, player: int, arena: int) -> list[CrabRef]:
    """ "A rival crab is a crab of another team, regardless of alliances.\""""
    return [ref for ref in crabs_in(state, arena) if ref[0] != player]


def rivals_by_arena(state: State, player: int) -> Rivals:
    """`rivals_in` for every arena at once (one pass over the crabs, same order)."""
    rivals: Rivals = [[] for _ in state.arenas]
    for seat, other in enumerate(state.players):
        if seat != player:
            refs = CRAB_REFS[seat]
            for i, c in enumerate(other.crabs):
                if c.arena >= 0:
                    rivals[c.arena].append(refs[i])
    return rivals


def other_arenas(where: int, arenas: int) -> list[int]:
    """Move and Go Clam: "to any other arena" (from backstage: any arena)."""
    return [a for a in range(arenas) if a != where]


def alliances_among(partner: list[int], present: Iterable[int]) -> list[int]:
    """Split: "any existing alliance in your crab's arena", given the arena's partners and the
    seats with crabs there; each named by its lowest seat, in `units_in` order (the units of two
    seats among the managers with crabs there, sorted)."""
    units = {1 << seat | 1 << partner[seat] for seat in present if partner[seat] >= 0}
    return [(u & -u).bit_length() - 1 for u in sorted(units) if u & (u - 1)]


def smash_targets(rivals: Rivals, where: int) -> list[CrabRef]:
    """Smash: "1 rival crab in this arena"."""
    return rivals[where]


def psych_out_targets(rivals: Rivals, where: int) -> list[CrabRef]:
    """Psych Out: "any 1 rival crab in its arena"."""
    return rivals[where]


def swap_targets(rivals: Rivals, where: int) -> list[CrabRef]:
    """Swap: "any rival crab in any other arena"."""
    return [t for a, there in enumerate(rivals) if a != where for t in there]


# ----- the moves, built at import from the rules above -----


def smash(index: int, target: CrabRef, x: int) -> Move:
    return Act(Action.SMASH, index, target=target, amount=x)


def smash_moves(index: int, target: CrabRef, xs: range) -> tuple[Move, ...]:
    return tuple(smash(index, target, x) for x in xs)


def rage_moves(index: int, xs: range) -> tuple[Move, ...]:
    return tuple(Act(Action.RAGE, index, amount=x) for x in xs)


# Smash: crab `index` on each target for X up to SMASH_TABLE_X, by crab index, then the target's
# seat and crab index (a turn takes the X it can pay for). A larger X (rare: rage builds slowly)
# extends that crab's row on that target to KEPT_X once, kept, so that a state with a lot of rage
# does not build its moves on every decision. Beyond KEPT_X, a `SmashRow` gives the rest as it is
# read.
SMASH_TABLE_X: Final = 16
KEPT_X: Final = 127


SMASH_MOVES: Final[list[list[list[tuple[Move, ...]]]]] = []
for index in CRAB_INDICES:
    xs = x_values(Action.SMASH, rage_cost(Action.SMASH, SMASH_TABLE_X), MIN_MUSCLE)
    SMASH_MOVES.append([[smash_moves(index, target, xs) for target in refs] for refs in CRAB_REFS])


def smash_row(index: int, target: CrabRef, xs: range) -> tuple[Move, ...]:
    """The row of Smash moves of crab `index` on `target` holding the X values `xs` (up to
    KEPT_X): the table's, extended to KEPT_X (and kept) when it holds fewer."""
    seat, crab = target
    table = SMASH_MOVES[index][seat]
    row = table[crab]
    if len(row) < len(xs):
        kept = x_values(Action.SMASH, rage_cost(Action.SMASH, KEPT_X), MIN_MUSCLE)
        row = table[crab] = smash_moves(index, target, kept)
    return row


class SmashRow(Sequence[Move]):
    """Smash with crab `index` on `target` for every X from 1 to `top`: the rulebook sets no
    limit on X (R3: rage is unlimited, and a cost is paid with rage the player has), so `top`
    can be any rage a state holds (up to codec.MAX_RAGE). The first KEPT_X moves are the kept
    ones; the others are built when read, so listing a turn costs the same at any rage."""

    __slots__ = ("crab", "target", "xs", "kept")

    def __init__(self, index: int, target: CrabRef, top: int) -> None:
        self.crab, self.target, self.xs = index, target, range(LEAST_X, top + 1)
        self.kept = smash_row(index, target, range(LEAST_X, KEPT_X + 1))[:KEPT_X]

    def __len__(self) -> int:
        return len(self.xs)

    @overload
    def __getitem__(self, k: int) -> Move: ...
    @overload
    def __getitem__(self, k: slice) -> list[Move]: ...
    def __getitem__(self, k: int | slice) -> Move | list[Move]:
        if isinstance(k, slice):
            return [self[i] for i in range(*k.indices(len(self)))]
        x = self.xs[k]  # raises IndexError past either end
        return self.kept[x - LEAST_X] if x <= KEPT_X else smash(self.crab, self.target, x)

    def __iter__(self) -> Iterator[Move]:
        yield from self.kept[x_slice(self.xs)]
        for x in range(KEPT_X + 1, self.xs.stop):
            yield smash(self.crab, self.target, x)

    def __contains__(self, move: object) -> bool:
        return (
            isinstance(move, Act)
            # an int X, not a float or a bool equal to one (asked without reading it as an int)
            and isinstance(move.amount, int)
            and not isinstance(move.amount, bool)
            and move.amount in self.xs
            and move == smash(self.crab, self.target, move.amount)
        )


class Listing(Sequence[Move]):
    """Moves listed in parts (lists of moves and `SmashRow`s), in order, without copying them:
    a turn with a Smash of large X lists it this way."""

    __slots__ = ("parts", "ends")

    def __init__(self, parts: list[Sequence[Move]]) -> None:
        self.parts = parts
        self.ends = list(accumulate(map(len, parts)))

    def __len__(self) -> int:
        return self.ends[-1] if self.ends else 0

    @overload
    def __getitem__(self, k: int) -> Move: ...
    @overload
    def __getitem__(self, k: slice) -> list[Move]: ...
    def __getitem__(self, k: int | slice) -> Move | list[Move]:
        if isinstance(k, slice):
            return [self[i] for i in range(*k.indices(len(self)))]
        if k < 0:
            k += len(self)
        if not 0 <= k < len(self):
            raise IndexError(k)
        part = bisect_right(self.ends, k)
        return self.parts[part][k - (self.ends[part - 1] if part else 0)]

    def __iter__(self) -> Iterator[Move]:
        return chain.from_iterable(self.parts)

    def __contains__(self, move: object) -> bool:
        return any(move in part for part in self.parts)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Sequence) and list(self) == list(other)

    __hash__ = None  # type: ignore[assignment]


def listed(moves: list[Move | SmashRow]) -> Sequence[Move]:
    """The moves, with each `SmashRow` (a Smash of X above KEPT_X) unfolded in its place: the
    list itself when it holds none, else a `Listing` of the plain runs and those rows."""
    if not any(type(m) is SmashRow for m in moves):
        return cast("list[Move]", moves)
    parts: list[Sequence[Move]] = []
    run: list[Move] = []
    for m in moves:
        if isinstance(m, SmashRow):
            if run:
                parts.append(run)
                run = []
            parts.append(m)
        else:
            run.append(m)
    if run:
        parts.append(run)
    return Listing(parts)


# Rage: crab `index` for every X it can take, by crab index, its muscle and the player's rage
# (from RAGE_FOR_ALL on, the player can pay for every X a crab can take).
RAGE_FOR_ALL: Final = rage_cost(Action.RAGE, MAX_MUSCLE - MIN_MUSCLE)
RAGE_MOVES: Final[list[list[list[tuple[Move, ...]]]]] = []
for index in CRAB_INDICES:
    RAGE_MOVES.append([])
    for muscle in range(MAX_MUSCLE + 1):
        RAGE_MOVES[index].append([])
        for rage in range(RAGE_FOR_ALL + 1):
            RAGE_MOVES[index][muscle].append(rage_moves(index, x_values(Action.RAGE, rage, muscle)))

# Psych Out and Swap: crab `index` on each target, by action, crab index, then the target's seat
# and crab index.
TARGET_MOVES: Final[dict[int, list[list[list[Move]]]]] = {}
for action in (Action.PSYCH_OUT, Action.SWAP):
    TARGET_MOVES[action] = [
        [[Act(action, index, target=target) for target in refs] for refs in CRAB_REFS]
        for index in CRAB_INDICES
    ]


def moves_away(action: Action, index: int, where: int, arenas: int) -> tuple[Move, ...]:
    """Move or Go Clam with crab `index` from `where` to each other arena (of `arenas`)."""
    return tuple(Act(action, index, a) for a in other_arenas(where, arenas))


# The actions that send their crab to another arena of the player's choice (Move, Go Clam).
TO_ANOTHER_ARENA: Final = frozenset({Action.MOVE, Action.GO_CLAM})

# Move and Go Clam: `moves_away` by action and number of arenas, then by crab index and place:
# each crab's row lists the arenas in order, then backstage last, so that indexing it by a crab's
# place reads BACKSTAGE (-1) too.
MOVES_AWAY: Final[dict[tuple[int, int], list[list[tuple[Move, ...]]]]] = {}
for action in TO_ANOTHER_ARENA:
    for arenas in ARENA_COUNTS:
        MOVES_AWAY[action, arenas] = [
            [moves_away(action, index, where, arenas) for where in [*range(arenas), BACKSTAGE]]
            for index in CRAB_INDICES
        ]

# Split: crab `index` naming the alliance of each seat, by crab index and seat.
SPLIT_MOVES: Final[list[tuple[Move, ...]]] = []
for index in CRAB_INDICES:
    SPLIT_MOVES.append(tuple(Act(Action.SPLIT, index, partner=s) for s in SEATS))

# Rush, Scatter and Charm: no choice beyond the crab; one move per crab, by action and crab index.
PLAIN_MOVES: Final[dict[int, tuple[Move, ...]]] = {}
for action in (Action.RUSH, Action.SCATTER, Action.CHARM):
    PLAIN_MOVES[action] = tuple(Act(action, index) for index in CRAB_INDICES)

# A signature move names its arena.
SIGNATURE_MOVES: Final = tuple(Signature(arena=a) for a in range(max(ARENA_COUNTS)))


# ----- the generator: every legal way to act -----

Placed = list[tuple[int, int]]  # (crab index, place) of the crabs that may act

# What the rules above say of each action, read by every turn's listing: which actions a
# player holding `rage` can pay for (every action from AFFORD_ALL rage on), and which may be
# performed by a backstage crab.
LEAST_COST: Final[dict[int, int]] = {action: least_cost(action) for action in Action}
AFFORD_ALL: Final = max(LEAST_COST.values())
AFFORDABLE: Final[list[frozenset[int]]] = []
for rage in range(AFFORD_ALL + 1):
    AFFORDABLE.append(frozenset(a for a in Action if can_pay(rage, LEAST_COST[a])))
FROM_BACKSTAGE: Final[dict[int, bool]] = {
    action: can_perform_from(action, BACKSTAGE) for action in Action
}


Generator = Callable[[State, int, int, Placed, Rivals, int], list["Move | SmashRow"]]


def action_moves(
    state: State, player: int, action: int, placed: Placed, in_arenas: Placed, rivals: Rivals
) -> list[Move | SmashRow]:
    """Every way `player` can perform `action` with each of the `placed` crabs (`in_arenas`:
    those of them in an arena; `rivals`: `rivals_by_arena`): the turn lists all crabs,
    `is_turn_move` only the move's own (the same code validates)."""
    rage = state.players[player].rage
    if rage < AFFORD_ALL and action not in AFFORDABLE[rage]:
        return []
    crabs = placed if FROM_BACKSTAGE[action] else in_arenas
    return MOVES_OF_ACTION[action](state, player, action, crabs, rivals, rage)


def move_away_moves(
    state: State, player: int, action: int, placed: Placed, rivals: Rivals, rage: int
) -> list[Move | SmashRow]:
    """Move and Go Clam: to any other arena."""
    by_crab = MOVES_AWAY[action, len(state.arenas)]
    moves: list[Move | SmashRow] = []
    for i, where in placed:
        moves += by_crab[i][where]
    return moves


def split_moves(
    state: State, player: int, action: int, placed: Placed, rivals: Rivals, rage: int
) -> list[Move | SmashRow]:
    """Split: any existing alliance in the crab's arena."""
    moves: list[Move | SmashRow] = []
    for i, where in placed:
        partner = state.arenas[where].partner
        if any(p >= 0 for p in partner):  # else no alliance there (the usual case)
            # The seats there: the player's (crab i is there) and the rivals already listed.
            present = {player, *[seat for seat, _ in rivals[where]]}
            row = SPLIT_MOVES[i]
            moves += [row[s] for s in alliances_among(partner, present)]
    return moves


def smash_action_moves(
    state: State, player: int, action: int, placed: Placed, rivals: Rivals, rage: int
) -> list[Move | SmashRow]:
    """Smash: a rival crab in the crab's arena, for every X the player can unleash."""
    return smash_listing(placed, rivals, x_values(action, rage, MIN_MUSCLE))


def psych_out_moves(
    state: State, player: int, action: int, placed: Placed, rivals: Rivals, rage: int
) -> list[Move | SmashRow]:
    table = TARGET_MOVES[action]
    return [table[i][s][c] for i, where in placed for s, c in psych_out_targets(rivals, where)]


def swap_moves(
    state: State, player: int, action: int, placed: Placed, rivals: Rivals, rage: int
) -> list[Move | SmashRow]:
    table = TARGET_MOVES[action]
    return [table[i][s][c] for i, where in placed for s, c in swap_targets(rivals, where)]


def rage_action_moves(
    state: State, player: int, action: int, placed: Placed, rivals: Rivals, rage: int
) -> list[Move | SmashRow]:
    """Rage: every X the player can unleash on each crab."""
    crabs = state.players[player].crabs
    moves: list[Move | SmashRow] = []
    for i, _ in placed:
        moves += RAGE_MOVES[i][crabs[i].muscle][min(rage, RAGE_FOR_ALL)]
    return moves


def plain_moves(
    state: State, player: int, action: int, placed: Placed, rivals: Rivals, rage: int
) -> list[Move | SmashRow]:
    """Rush, Scatter and Charm: no choice beyond the crab."""
    plain = PLAIN_MOVES[action]
    return [plain[i] for i, _ in placed]


MOVES_OF_ACTION: Final[dict[int, Generator]] = {
    Action.MOVE: move_away_moves,
    Action.GO_CLAM: move_away_moves,
    Action.SPLIT: split_moves,
    Action.SMASH: smash_action_moves,
    Action.RUSH: plain_moves,
    Action.SCATTER: plain_moves,
    Action.PSYCH_OUT: psych_out_moves,
    Action.SWAP: swap_moves,
    Action.CHARM: plain_moves,
    Action.RAGE: rage_action_moves,
}


# The rage above which a Smash can unleash more than KEPT_X (listed through `SmashRow`s).
LARGE_SMASH_RAGE: Final = rage_cost(Action.SMASH, KEPT_X)


def smash_listing(placed: Placed, rivals: Rivals, xs: range) -> list[Move | SmashRow]:
    """Smash by each placed crab on each target for every X in `xs`; X above KEPT_X comes as one
    `SmashRow` per target (`listed` unfolds it)."""
    moves: list[Move | SmashRow] = []
    if len(xs) > KEPT_X:
        for i, where in placed:
            moves += [SmashRow(i, t, xs.stop - 1) for t in smash_targets(rivals, where)]
        return moves
    span = x_slice(xs)
    for i, where in placed:
        for target in smash_targets(rivals, where):
            moves += smash_row(i, target, xs)[span]
    return moves


def can_sign(state: State, player: int) -> bool:
    """R13: a signature move is used once per game and costs 2 rage."""
    me = state.players[player]
    return not me.signature_used and can_pay(me.rage, SIGNATURE_RAGE_COST)


def signature_arenas(state: State, player: int) -> list[int]:
    """ "Choose an arena with at least 1 of their crabs in it.\""""
    return sorted({c.arena for c in state.players[player].crabs if c.arena >= 0})


def signature_moves(state: State, player: int) -> list[Move]:
    if not can_sign(state, player):
        return []
    return [SIGNATURE_MOVES[a] for a in signature_arenas(state, player)]


def turn_moves(state: State, player: int) -> Sequence[Move]:
    """Pass, then each available action (the board's, then the action cards in the order they
    were revealed) with each crab, then the signature moves."""
    placed = [(i, c.arena) for i, c in enumerate(state.players[player].crabs)]
    in_arenas = [(i, where) for i, where in placed if where >= 0]
    rivals = rivals_by_arena(state, player)
    moves: list[Move | SmashRow] = [PASS]
    for action in available_actions(state):
        moves += action_moves(state, player, action, placed, in_arenas, rivals)
    moves += signature_moves(state, player)
    if state.players[player].rage > LARGE_SMASH_RAGE:
        return listed(moves)
    return cast("list[Move]", moves)  # no SmashRow: no X above KEPT_X


def is_turn_move(state: State, player: int, move: Move) -> bool:
    """`move in turn_moves(state, player)`, generating only the moves of the move's own action
    and crab (or the signature moves): the same generator decides, at a fraction of the cost."""
    if isinstance(move, Act):
        mine = state.players[player].crabs
        if not 0 <= move.crab < len(mine) or not is_available(state, move.action):
            return False
        placed = [(move.crab, mine[move.crab].arena)]
        in_arenas = placed if placed[0][1] >= 0 else []
        rivals = rivals_by_arena(state, player)
        moves = action_moves(state, player, move.action, placed, in_arenas, rivals)
        return move in listed(moves)
    if isinstance(move, Signature):
        return move in signature_moves(state, player)
    return move == PASS


# ----- performing an action -----


# What an action did: its events, the steps that follow, and the places it touched (where a
# style bonus may go, R12); None for Rush and Scatter, whose destinations step places it (an
# effect is told `style`, whether this is the action's first use this round).
Effect = tuple[list[Event], list[Task], list[int] | None]


def move_effect(state: State, player: int, move: Act, where: int, style: bool) -> Effect:
    """Move: "Move your chosen crab (from an arena or backstage) to any other arena"."""
    events, tasks = send(state, [((player, move.crab), move.arena)])
    return events, tasks, [where, move.arena]


def go_clam_effect(state: State, player: int, move: Act, where: int, style: bool) -> Effect:
    """Go Clam: "Set the muscle of your chosen crab to 5 AND then move it to any other arena"."""
    ref = (player, move.crab)
    c = writable_crab(state, ref)
    before, c.muscle = c.muscle, GO_CLAM_MUSCLE
    events = [set_muscle_event(state, ref, before, GO_CLAM_MUSCLE, (Cause.ACTION, move.action))]
    left, tasks = send(state, [(ref, move.arena)])
    return events + left, tasks, [where, move.arena]


def split_effect(state: State, player: int, move: Act, where: int, style: bool) -> Effect:
    """Split: "Both teams from that alliance must go independent"."""
    return end_alliance(state, move.partner, where, Cause.ACTION), [], [where]


def smash_effect(state: State, player: int, move: Act, where: int, style: bool) -> Effect:
    """Smash: "deal -X muscle to 1 rival crab in this arena" (never below 1, R3)."""
    why = (Cause.ACTION, move.action)
    return [change_muscle(state, move.target, -move.amount, why)], [], [where]


def leaving_crabs(state: State, arena: int, most: bool) -> list[CrabRef]:
    """R9: every crab tied for the most (Rush) or least (Scatter) muscle leaves, in turn order
    starting with the active player."""
    refs = crabs_in(state, arena)
    muscles = [crab(state, r).muscle for r in refs]
    edge = max(muscles) if most else min(muscles)
    order = turn_order(state, state.active)
    chosen = [r for r, m in zip(refs, muscles, strict=True) if m == edge]
    return sorted(chosen, key=lambda r: (order.index(r[0]), r[1]))


def leave_effect(state: State, player: int, where: int, style: bool, most: bool) -> Effect:
    """Rush and Scatter: the leaving crabs, then "You then choose where the crabs move to"; the
    style bonus (the step's flag) follows the destinations."""
    leaving = leaving_crabs(state, where, most)
    task = Task(Step.DESTINATIONS, player, where, leaving, [-1] * len(leaving), style)
    return [], [task], None


def rush_effect(state: State, player: int, move: Act, where: int, style: bool) -> Effect:
    """Rush: "The crab/s with the most muscle must leave your crab's arena"."""
    return leave_effect(state, player, where, style, True)


def scatter_effect(state: State, player: int, move: Act, where: int, style: bool) -> Effect:
    """Scatter: "The crab/s with the least muscle must leave your crab's arena"."""
    return leave_effect(state, player, where, style, False)


def psych_out_effect(state: State, player: int, move: Act, where: int, style: bool) -> Effect:
    """Psych Out: "Switch the muscle of your chosen crab with any 1 rival crab in its arena"."""
    ref, why = (player, move.crab), (Cause.ACTION, move.action)
    c, other = writable_crab(state, ref), writable_crab(state, move.target)
    mine, theirs = c.muscle, other.muscle
    c.muscle, other.muscle = theirs, mine
    events = [
        set_muscle_event(state, ref, mine, theirs, why),
        set_muscle_event(state, move.target, theirs, mine, why),
    ]
    return events, [], [where]


def swap_effect(state: State, player: int, move: Act, where: int, style: bool) -> Effect:
    """Swap: "Swap the position of your chosen crab with that of any rival crab in any other
    arena. Both crabs must follow movement rules"."""
    there = crab(state, move.target).arena
    events, tasks = send(state, [((player, move.crab), there), (move.target, where)])
    return events, tasks, [where, there]


def charm_effect(state: State, player: int, move: Act, where: int, style: bool) -> Effect:
    """Charm: "Add 1 fan from your supply to your crab's arena"."""
    return place_fans(state, player, where, 1, (Cause.ACTION, move.action)), [], [where]


def rage_effect(state: State, player: int, move: Act, where: int, style: bool) -> Effect:
    """Rage: "increase the muscle of your chosen crab by X" (never above 6, R3)."""
    why = (Cause.ACTION, move.action)
    return [change_muscle(state, (player, move.crab), move.amount, why)], [], [where]


EFFECTS: Final[dict[int, Callable[[State, int, Act, int, bool], Effect]]] = {
    Action.MOVE: move_effect,
    Action.GO_CLAM: go_clam_effect,
    Action.SPLIT: split_effect,
    Action.SMASH: smash_effect,
    Action.RUSH: rush_effect,
    Action.SCATTER: scatter_effect,
    Action.PSYCH_OUT: psych_out_effect,
    Action.SWAP: swap_effect,
    Action.CHARM: charm_effect,
    Action.RAGE: rage_effect,
}


def perform(state: State, player: int, move: Act, style: bool) -> tuple[list[Event], list[Task]]:
    """Resolve the action's own effect, then the style bonus of its first use this round (R12);
    return the events and the follow-up steps."""
    where = state.players[player].crabs[move.crab].arena
    events, tasks, touched = EFFECTS[move.action](state, player, move, where, style)
    if style and touched is not None:
        events += style_bonus_now(state, player, (player, move.crab), touched, tasks)
    return events, tasks


def style_bonus_now(
    state: State, player: int, ref: CrabRef, touched: list[int], tasks: list[Task]
) -> list[Event]:
    """R12: backstage only, the fan rides on the crab; otherwise a step after the action."""
    if all(a == BACKSTAGE for a in touched):
        me = state.players[player]
        if me.supply > 0:
            me = writable_player(state, player)
            me.supply -= 1
            me.crabs[ref[1]].riding_fans += 1
            return [FanRiding(player, ref, me.crabs[ref[1]].riding_fans, me.team)]
        return []
    tasks.append(style_bonus(player, touched))
    return []


class ActionTurn(Handler):
    handles = Step.ACTION_TURN

    def decision(self, state: State, task: Task) -> Decision | None:
        return CHOOSE_ACTION_BY_SEAT[task.player]

    def moves(self, state: State, task: Task) -> Sequence[Move]:
        return turn_moves(state, task.player)

    def is_legal(self, state: State, task: Task, move: Move) -> bool:
        # A player always decides a turn. It lists up to ~130 moves (more with a Smash of
        # large X): the same generator, narrowed to the move's own action and crab, decides.
        return is_turn_move(state, task.player, move)

    def play(self, state: State, task: Task, move: Move) -> list[Event]:
        assert isinstance(move, (Pass, Act, Signature))
        player = task.player
        state.pending[-1] = AFTER_ACTION_BY_SEAT[player]  # in this step's place
        if isinstance(move, Pass):
            me = writable_player(state, player)
            me.passed = True
            return [PASSED[player][me.team]]
        state.active = player
        if isinstance(move, Signature):
            billboard = billboard_at(state, move.arena)
            effects = signature(state, player, move.arena)
            me = state.players[player]
            performed = SIGNATURE_MOVE_PERFORMED(
                player,
                move.arena,
                move,
                me.signature,
                -SIGNATURE_RAGE_COST,
                me.rage,
                me.team,
                billboard,
            )
            return [performed, *effects]
        me = writable_player(state, player)
        cost = rage_cost(move.action, move.amount)
        me.rage -= cost
        style = move.action not in state.used_actions
        if style:
            state.used_actions.append(move.action)
        where = me.crabs[move.crab].arena
        billboard, target_team, partner_team = acted_names(state, move)
        acted = ACTED(
            player,
            move,
            move.action,
            (player, move.crab),
            -cost,
            me.rage,
            style,
            where if where >= 0 else None,
            me.team,
            billboard,
            target_team,
            partner_team,
        )
        effect, tasks = perform(state, player, move, style)
        push_all(state, tasks)
        return [acted, *effect]


class AfterAction(Handler):
    """R7: the next manager clockwise who has not passed acts, until all have passed."""

    handles = Step.AFTER_ACTION

    def step(self, state: State, task: Task) -> list[Event]:
        events: list[Event] = []
        if state.active >= 0:
            events.append(ACTION_RESOLVED[state.active][state.players[state.active].team])
        state.active = -1
        players = state.players
        seats = len(players)
        for after in range(1, seats + 1):  # clockwise from the next seat, this one last
            seat = (task.player + after) % seats
            if not players[seat].passed:
                state.pending.append(ACTION_TURN_BY_SEAT[seat])
                break
        return events


# ----- signature moves (R13) -----


# What caused a signature move's changes (events.Why), by the move: built once, as turning a
# player's int into its SignatureMove is a call the compiled build runs interpreted.
SIGNATURE_WHY: Final[dict[int, Why]] = {
    kind: (Cause.SIGNATURE_MOVE, kind) for kind in SignatureMove
}


def signature(state: State, player: int, arena: int) -> list[Event]:
    me = writable_player(state, player)
    me.rage -= SIGNATURE_RAGE_COST
    me.signature_used = True
    kind = me.signature
    why = SIGNATURE_WHY[kind]
    events: list[Event] = []
    mine = [(player, i) for i in own_crabs_in(state, player, arena)]
    if kind == SignatureMove.FRENZY:
        push(state, Task(Step.FRENZY, player, arena, values=[len(mine)]))
    elif kind == SignatureMove.CLAW_SNAP:
        for ref in rivals_in(state, player, arena):
            events.append(change_muscle(state, ref, -CLAW_SNAP_HIT, why))
    elif kind == SignatureMove.SHELL_UP:
        push(state, SHELL_UP_STEPS[player][arena])
    elif kind == SignatureMove.RIPTIDE:
        push(state, RIPTIDE_STEPS[player][arena])
    elif kind == SignatureMove.HYPE_UP:
        for ref in mine:
            events.append(change_muscle(state, ref, HYPE_UP_BOOST, why))
    events.extend(place_fans(state, player, arena, SIGNATURE_FANS, why))
    return events


FRENZY_WHY: Final = SIGNATURE_WHY[SignatureMove.FRENZY]
SHELL_UP_WHY: Final = SIGNATURE_WHY[SignatureMove.SHELL_UP]


class Frenzy(Handler):
    """Printed: for each of your crabs in the arena, -2 muscle to any rival crab there."""

    handles = Step.FRENZY

    def decision(self, state: State, task: Task) -> Decision | None:
        if task.values[0] > 0 and rivals_in(state, task.player, task.arena):
            return CHOOSE_FRENZY_TARGET_BY_SEAT[task.player]
        return None

    def moves(self, state: State, task: Task) -> list[Move]:
        refs = rivals_in(state, task.player, task.arena)
        return [SignatureTarget(target=r) for r in refs]

    def play(self, state: State, task: Task, move: Move) -> list[Event]:
        assert isinstance(move, SignatureTarget)
        state.pending.pop()
        left = task.values[0] - 1  # targets still to pick
        if left:
            push(state, task.replaced(values=[left]))  # steps are replaced, never changed
        return [change_muscle(state, move.target, -FRENZY_HIT, FRENZY_WHY)]


# Shell Up's moves, by own crab, built once (as SIGNATURE_MOVES).
SHELL_UP_CRAB: Final = tuple(SignatureTarget(crab=i) for i in CRAB_INDICES)


class ShellUp(Handler):
    handles = Step.SHELL_UP

    def decision(self, state: State, task: Task) -> Decision | None:
        if own_crabs_in(state, task.player, task.arena):
            return CHOOSE_SHELL_UP_CRAB_BY_SEAT[task.player]
        return None

    def moves(self, state: State, task: Task) -> list[Move]:
        return [SHELL_UP_CRAB[i] for i in own_crabs_in(state, task.player, task.arena)]

    def play(self, state: State, task: Task, move: Move) -> list[Event]:
        assert isinstance(move, SignatureTarget)
        state.pending.pop()
        return [change_muscle(state, (task.player, move.crab), SHELL_UP_BOOST, SHELL_UP_WHY)]


class Riptide(Handler):
    handles = Step.RIPTIDE

    def decision(self, state: State, task: Task) -> Decision | None:
        if rivals_in(state, task.player, task.arena):
            return CHOOSE_RIPTIDE_TARGET_BY_SEAT[task.player]
        return None

    def moves(self, state: State, task: Task) -> list[Move]:
        others = [a for a in range(len(state.arenas)) if a != task.arena]
        return [
            SignatureTarget(target=r, arena=a)
            for r in rivals_in(state, task.player, task.arena)
            for a in others
        ]

    def play(self, state: State, task: Task, move: Move) -> list[Event]:
        assert isinstance(move, SignatureTarget)
        state.pending.pop()
        events, enters = send(state, [(move.target, move.arena)])
        push_all(state, enters)
        return events
