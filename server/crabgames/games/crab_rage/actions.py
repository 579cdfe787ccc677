"""The Action Phase (R7): act or pass in turn order; the four board actions, the six action cards
(R8, R9), the style bonus (R12) and the signature moves (R13)."""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable, Iterator, Sequence
from itertools import accumulate, chain

from crabgames.core.game import Decision
from crabgames.games.crab_rage.data import (
    ACTION_COST,
    ACTION_NAMES,
    ARENA_ONLY,
    BOARD_ACTIONS,
    CLAW_SNAP_HIT,
    FRENZY_HIT,
    GO_CLAM_MUSCLE,
    HYPE_UP_BOOST,
    MAX_MUSCLE,
    MIN_MUSCLE,
    SETUP,
    SHELL_UP_BOOST,
    SIGNATURE_FANS,
    SIGNATURE_RAGE_COST,
    SIGNATURES,
    WITH_X,
    Action,
    Signature,
)
from crabgames.games.crab_rage.events import (
    Cause,
    Event,
    EventKind,
    Told,
    billboard_at,
    crab_title,
    place_name,
    team_name,
)
from crabgames.games.crab_rage.flow import Handler, handles, seat_decisions
from crabgames.games.crab_rage.movement import (
    change_muscle,
    end_alliance,
    place_fans,
    send,
    set_muscle_event,
    style_bonus,
)
from crabgames.games.crab_rage.state import (
    BACKSTAGE,
    NO_CRAB,
    CrabRef,
    Move,
    MoveKind,
    State,
    Step,
    Task,
    crab,
    crabs_in,
    own_crabs_in,
    push,
    turn_order,
    writable_crab,
    writable_player,
)

# Enum members used on hot paths, read once: on Python 3.11 `Step.ENTER` goes through
# EnumType.__getattr__ (~90 ns, and a move reads dozens).
MOVE, GO_CLAM, SPLIT, SMASH = Action.MOVE, Action.GO_CLAM, Action.SPLIT, Action.SMASH
PSYCH_OUT, SWAP, RAGE = Action.PSYCH_OUT, Action.SWAP, Action.RAGE
RUSH, SCATTER, CHARM = Action.RUSH, Action.SCATTER, Action.CHARM
ACTED_EVENT = EventKind.ACTED
ACTION_RESOLVED_EVENT = EventKind.ACTION_RESOLVED
SIGNATURE_MOVE_EVENT = EventKind.SIGNATURE_MOVE
FAN_RIDING_EVENT = EventKind.FAN_RIDING
ACTION_TURN_STEP = Step.ACTION_TURN
ACT_KIND = MoveKind.ACT
AFTER_ACTION_STEP = Step.AFTER_ACTION
DESTINATIONS_STEP = Step.DESTINATIONS
FANS_EVENT = EventKind.FANS
FRENZY_STEP = Step.FRENZY
MUSCLE_EVENT = EventKind.MUSCLE
PASSED_EVENT = EventKind.PASSED
PASS_KIND = MoveKind.PASS
RIPTIDE_STEP = Step.RIPTIDE
SHELL_UP_STEP = Step.SHELL_UP
SIGNATURE_KIND = MoveKind.SIGNATURE
SIGNATURE_TARGET_KIND = MoveKind.SIGNATURE_TARGET

# Who decides, built once (Decision is an immutable NamedTuple asked for several times a move).
CHOOSE_ACTION_BY_SEAT = seat_decisions("choose_action")
CHOOSE_FRENZY_TARGET_BY_SEAT = seat_decisions("choose_frenzy_target")
CHOOSE_SHELL_UP_CRAB_BY_SEAT = seat_decisions("choose_shell_up_crab")
CHOOSE_RIPTIDE_TARGET_BY_SEAT = seat_decisions("choose_riptide_target")

# A turn's steps by seat, built once: a step is never changed once pushed (Task), so every
# state shares them, with their wire bytes.
ACTION_TURN_BY_SEAT = tuple(Task(ACTION_TURN_STEP, seat) for seat in range(max(SETUP)))
AFTER_ACTION_BY_SEAT = tuple(Task(AFTER_ACTION_STEP, seat) for seat in range(max(SETUP)))

# ----- legal actions -----


# The actions as members, by value: `Action(value)` goes through the enum's metaclass call.
ACTION_OF = {int(a): a for a in Action}
# Every crab reference (seat, crab index) by seat and index, built once.
CRAB_REFS = tuple(
    tuple((seat, i) for i in range(max(s.crabs for s in SETUP.values())))
    for seat in range(max(SETUP))
)


def rivals_in(state: State, player: int, arena: int) -> list[CrabRef]:
    """Rival crabs: crabs of any other team, regardless of alliances."""
    return [ref for ref in crabs_in(state, arena) if ref[0] != player]


def alliances_in(state: State, arena: int) -> list[int]:
    """Each alliance in the arena, named by its lowest seat, in `units_in` order (the units of
    two seats among those of the managers with crabs there, sorted)."""
    partner = state.arenas[arena].partner
    if max(partner) < 0:
        return []  # no alliance anywhere in the arena
    present = [s for s, p in enumerate(state.players) if arena in [c.arena for c in p.crabs]]
    return alliances_among(partner, present)


def alliances_among(partner: list[int], present: Iterable[int]) -> list[int]:
    """`alliances_in` given the arena's partners and the seats with crabs there."""
    units = {1 << seat | 1 << partner[seat] for seat in present if partner[seat] >= 0}
    return [(u & -u).bit_length() - 1 for u in sorted(units) if u & (u - 1)]


def rivals_by_arena(state: State, player: int) -> list[list[CrabRef]]:
    """`rivals_in` for every arena at once (one pass over the crabs, same order)."""
    rivals: list[list[CrabRef]] = [[] for _ in state.arenas]
    for seat, other in enumerate(state.players):
        if seat != player:
            refs = CRAB_REFS[seat]  # shared tuples: no new (seat, index) per crab
            for i, c in enumerate(other.crabs):
                if c.arena >= 0:
                    rivals[c.arena].append(refs[i])
    return rivals


# Moves are built by `_new` from all eight fields: the NamedTuple constructor with defaults
# costs twice as much, and `Move._make` adds a Python call and a length check; a turn can have
# over a hundred moves (docs/performance.md). A crab's moves for one action (or one target) are
# built once, at import, in tables (so they sit together in memory: the server calls the
# generator with cold CPU caches, where every scattered object read costs), and a turn only
# gathers them.
_new = tuple.__new__
# R8: X is at least 1, so Smash and Rage need 1 rage beyond the printed cost.
LEAST_RAGE = {a: ACTION_COST[a] + (1 if a in WITH_X else 0) for a in Action}
CRAB_INDICES = range(len(CRAB_REFS[0]))
TARGETS = [t for refs in CRAB_REFS for t in refs]


def x_moves(action: Action, index: int, target: CrabRef, top: int) -> tuple[Move, ...]:
    """Smash or Rage with crab `index` (on `target`) for X from 1 to `top`."""
    return tuple(
        _new(Move, (ACT_KIND, action, index, 0, target, x, 0, 0)) for x in range(1, top + 1)
    )


# Smash: crab `index` on each target for X from 1 to SMASH_TABLE_X, by crab index and target (a
# turn takes the first `top`). A larger X (rare: rage builds slowly) extends that crab's row on
# target to KEPT_X once, kept (a state with a lot of rage would otherwise build its moves on
# every decision: a Playouts call from rage 100000 cost 20 times a normal one). At most 4 crabs
# x 20 targets x KEPT_X moves in all. Beyond KEPT_X, a `SmashRow` lists the rest as it is read.
SMASH_TABLE_X = 16
KEPT_X = 127
SMASH_MOVES = tuple({t: x_moves(SMASH, i, t, SMASH_TABLE_X) for t in TARGETS} for i in CRAB_INDICES)


def smash_row(index: int, target: CrabRef, top: int) -> tuple[Move, ...]:
    """The kept Smash moves of crab `index` on `target`, X from 1 to at least min(top, KEPT_X)."""
    table = SMASH_MOVES[index]
    row = table[target]
    if len(row) < top:
        row = table[target] = x_moves(SMASH, index, target, KEPT_X)
    return row


class SmashRow(Sequence[Move]):
    """Smash with crab `index` on `target` for every X from 1 to `top`: the rulebook sets no
    limit on X (R3: rage is unlimited, and a cost is paid with rage the player has), so `top`
    can be any rage a state holds (up to codec.MAX_RAGE). The first KEPT_X moves are the kept
    ones; the others are built when read, so listing a turn costs the same at any rage."""

    __slots__ = ("crab", "target", "top", "kept")

    def __init__(self, index: int, target: CrabRef, top: int) -> None:
        self.crab, self.target, self.top = index, target, top
        self.kept = smash_row(index, target, KEPT_X)

    def __len__(self) -> int:
        return self.top

    def __getitem__(self, k):  # type: ignore[override]
        if isinstance(k, slice):
            return [self[i] for i in range(*k.indices(self.top))]
        if k < 0:
            k += self.top
        if not 0 <= k < self.top:
            raise IndexError(k)
        if k < KEPT_X:
            return self.kept[k]
        return _new(Move, (ACT_KIND, SMASH, self.crab, 0, self.target, k + 1, 0, 0))

    def __iter__(self) -> Iterator[Move]:
        yield from self.kept[: self.top]
        for x in range(KEPT_X + 1, self.top + 1):
            yield _new(Move, (ACT_KIND, SMASH, self.crab, 0, self.target, x, 0, 0))

    def __contains__(self, move: object) -> bool:
        return (
            isinstance(move, tuple)
            and move[:5] == (ACT_KIND, SMASH, self.crab, 0, self.target)
            and move[6:] == (0, 0)
            and type(move[5]) is int
            and 1 <= move[5] <= self.top
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

    def __getitem__(self, k):  # type: ignore[override]
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


def listed(moves: list) -> Sequence[Move]:
    """`moves` itself, or, when it holds `SmashRow`s (a Smash of X above KEPT_X), a `Listing`
    of its plain runs and those rows, in order."""
    if not any(type(m) is SmashRow for m in moves):
        return moves
    parts: list[Sequence[Move]] = []
    run: list[Move] = []
    for m in moves:
        if type(m) is SmashRow:
            if run:
                parts.append(run)
                run = []
            parts.append(m)
        else:
            run.append(m)
    if run:
        parts.append(run)
    return Listing(parts)


# Rage: crab `index` for X from 1 to 5 (R8: muscle 1 can rise by at most 5), by crab index.
RAGE_MOVES = tuple(x_moves(RAGE, i, NO_CRAB, MAX_MUSCLE - MIN_MUSCLE) for i in CRAB_INDICES)


# Psych Out and Swap: crab `index` on each target, by action, crab index and target.
TARGET_MOVES = {
    a: tuple(
        {t: _new(Move, (ACT_KIND, a, i, 0, t, 0, 0, 0)) for t in TARGETS} for i in CRAB_INDICES
    )
    for a in (PSYCH_OUT, SWAP)
}


def moves_away(action: Action, index: int, where: int, arenas: int) -> tuple[Move, ...]:
    """Move or Go Clam with crab `index` from `where` to each other arena (of `arenas`)."""
    return tuple(
        _new(Move, (ACT_KIND, action, index, a, NO_CRAB, 0, 0, 0))
        for a in range(arenas)
        if a != where
    )


# Move and Go Clam: `moves_away` by action, crab index, place (backstage or an arena) and number
# of arenas.
MOVES_AWAY = {
    (a, i, where, arenas): moves_away(a, i, where, arenas)
    for a in (MOVE, GO_CLAM)
    for arenas in sorted({s.arenas for s in SETUP.values()})
    for i in CRAB_INDICES
    for where in range(BACKSTAGE, arenas)
}

# Split: crab `index` naming the alliance of each seat, by crab index and seat.
SPLIT_MOVES = tuple(
    tuple(
        _new(Move, (ACT_KIND, SPLIT, i, 0, NO_CRAB, 0, seat, 0)) for seat in range(len(CRAB_REFS))
    )
    for i in CRAB_INDICES
)

# Rush, Scatter and Charm: one move per crab, by action and crab index.
PLAIN_MOVES = {
    a: tuple(_new(Move, (ACT_KIND, a, i, 0, NO_CRAB, 0, 0, 0)) for i in CRAB_INDICES)
    for a in (RUSH, SCATTER, CHARM)
}


Placed = list[tuple[int, int]]  # (crab index, place)
Rivals = list[list[CrabRef]]  # by arena


def action_moves(
    state: State, player: int, action: Action, placed: Placed, in_arenas: Placed, rivals: Rivals
) -> list[Move]:
    """Every way `player` can perform `action` with each of the `placed` crabs (`in_arenas`:
    those of them in an arena; `rivals`: `rivals_by_arena`): the turn lists all crabs,
    `is_turn_move` only the move's own (the same code validates)."""
    spare = state.players[player].rage - ACTION_COST[action]  # rage left for X (R8)
    if spare < (1 if action in WITH_X else 0):
        return []  # R3: a cost can only be paid with rage the player has; R8: X >= 1
    if action in ARENA_ONLY:
        placed = in_arenas  # R7
    return MOVES_OF_ACTION[action](state, player, action, placed, rivals, spare)


def _smash(
    state: State, player: int, action: Action, placed: Placed, rivals: Rivals, spare: int
) -> list[Move]:
    """Smash a rival crab in the crab's arena, unleashing any X the player can pay: there is no
    limit (R8); X above KEPT_X comes as one `SmashRow` per target (`listed` unfolds it)."""
    moves: list = []
    for i, where in placed:
        for t in rivals[where]:
            if spare > KEPT_X:
                moves.append(SmashRow(i, t, spare))
            else:
                moves += smash_row(i, t, spare)[:spare]
    return moves


def _move_away(
    state: State, player: int, action: Action, placed: Placed, rivals: Rivals, spare: int
) -> list[Move]:
    arenas = len(state.arenas)
    moves: list[Move] = []
    for i, where in placed:
        away = MOVES_AWAY.get((action, i, where, arenas))
        moves += moves_away(action, i, where, arenas) if away is None else away
    return moves


def _psych_out(
    state: State, player: int, action: Action, placed: Placed, rivals: Rivals, spare: int
) -> list[Move]:
    table = TARGET_MOVES[PSYCH_OUT]
    return [table[i][t] for i, where in placed for t in rivals[where]]


def _swap(
    state: State, player: int, action: Action, placed: Placed, rivals: Rivals, spare: int
) -> list[Move]:
    """Swap with a rival crab in any other arena."""
    table = TARGET_MOVES[SWAP]
    return [
        table[i][t]
        for i, where in placed
        for a, there in enumerate(rivals)
        if a != where
        for t in there
    ]


def _split(
    state: State, player: int, action: Action, placed: Placed, rivals: Rivals, spare: int
) -> list[Move]:
    moves: list[Move] = []
    alliances: dict[int, list[int]] = {}  # by arena: several crabs often share one
    arenas = state.arenas
    for i, where in placed:
        seats = alliances.get(where)
        if seats is None:
            partner = arenas[where].partner
            # The seats there: the player (crab i is there) and the rivals' managers.
            seats = alliances[where] = (
                alliances_among(partner, {player, *[seat for seat, _ in rivals[where]]})
                if max(partner) >= 0
                else []
            )
        table = SPLIT_MOVES[i]
        moves += [table[s] for s in seats]
    return moves


def _rage(
    state: State, player: int, action: Action, placed: Placed, rivals: Rivals, spare: int
) -> list[Move]:
    mine = state.players[player].crabs
    moves: list[Move] = []
    for i, _ in placed:
        top = min(spare, MAX_MUSCLE - mine[i].muscle)
        if top > 0:
            moves += RAGE_MOVES[i][:top]
    return moves


def _plain(
    state: State, player: int, action: Action, placed: Placed, rivals: Rivals, spare: int
) -> list[Move]:
    """Rush, Scatter, Charm: no choice beyond the crab."""
    table = PLAIN_MOVES[action]
    return [table[i] for i, _ in placed]


MOVES_OF_ACTION = {
    MOVE: _move_away,
    GO_CLAM: _move_away,
    SPLIT: _split,
    SMASH: _smash,
    RUSH: _plain,
    SCATTER: _plain,
    PSYCH_OUT: _psych_out,
    SWAP: _swap,
    CHARM: _plain,
    RAGE: _rage,
}
SIGNATURE_MOVES = tuple(
    _new(Move, (SIGNATURE_KIND, 0, 0, a, NO_CRAB, 0, 0, 0))
    for a in range(max(s.arenas for s in SETUP.values()))
)


def signature_moves(state: State, player: int) -> list[Move]:
    me = state.players[player]
    if me.signature_used or me.rage < SIGNATURE_RAGE_COST:
        return []
    arenas = sorted({c.arena for c in me.crabs if c.arena >= 0})
    return [SIGNATURE_MOVES[a] for a in arenas]


PASS = Move(PASS_KIND)


# Rage above this allows a Smash of X above KEPT_X (Smash costs 1 plus X, R8).
LARGE_SMASH_RAGE = ACTION_COST[SMASH] + KEPT_X


def turn_moves(state: State, player: int) -> Sequence[Move]:
    """Pass, then each available action (the board's, then the action cards in the order they
    were revealed) with each crab, then the signature moves."""
    placed: Placed = []
    in_arenas: Placed = []
    for i, c in enumerate(state.players[player].crabs):
        place = (i, c.arena)
        placed.append(place)
        if place[1] >= 0:
            in_arenas.append(place)
    rivals = rivals_by_arena(state, player)
    moves = [PASS]
    for action in BOARD_ACTIONS:
        moves += action_moves(state, player, action, placed, in_arenas, rivals)
    for card in state.action_cards:
        moves += action_moves(state, player, ACTION_OF[card], placed, in_arenas, rivals)
    moves += signature_moves(state, player)
    if state.players[player].rage > LARGE_SMASH_RAGE:
        return listed(moves)  # a Smash of X above KEPT_X is possible
    return moves


def is_turn_move(state: State, player: int, move: Move) -> bool:
    """`move in turn_moves(state, player)`, generating only the moves of the move's own action
    and crab (or the signature moves): the same generator decides, at a fraction of the cost."""
    kind = move.kind
    if kind == ACT_KIND:
        action, index = move.action, move.crab
        mine = state.players[player].crabs
        if not 0 <= index < len(mine):
            return False
        if action not in BOARD_ACTIONS and action not in state.action_cards:
            return False  # not available this round
        placed = [(index, mine[index].arena)]
        in_arenas = placed if placed[0][1] >= 0 else []
        rivals = rivals_by_arena(state, player)
        return move in listed(
            action_moves(state, player, ACTION_OF[action], placed, in_arenas, rivals)
        )
    if kind == SIGNATURE_KIND:
        return move in signature_moves(state, player)
    return move == PASS


# ----- performing an action -----


def leaving_crabs(state: State, arena: int, most: bool) -> list[CrabRef]:
    """R9: every crab tied for the most (Rush) or least (Scatter) muscle leaves, in turn order
    starting with the active player."""
    refs = crabs_in(state, arena)
    muscles = [crab(state, r).muscle for r in refs]
    edge = max(muscles) if most else min(muscles)
    order = turn_order(state, state.active)
    chosen = [r for r, m in zip(refs, muscles, strict=True) if m == edge]
    return sorted(chosen, key=lambda r: (order.index(r[0]), r[1]))


def perform(state: State, player: int, move: Move, style: bool) -> tuple[list[Event], list[Task]]:
    """Resolve the action's own effect; return its events and the follow-up steps."""
    ref = (player, move.crab)
    where, action = state.players[player].crabs[move.crab].arena, move.action
    why = (Cause.ACTION, action)
    events: list[Event] = []
    tasks: list[Task] = []
    touched = [where]
    if action in (MOVE, GO_CLAM):
        if action == GO_CLAM:
            c = writable_crab(state, ref)
            before, c.muscle = c.muscle, GO_CLAM_MUSCLE
            events.append(set_muscle_event(state, ref, before, GO_CLAM_MUSCLE, why))
        left, tasks = send(state, [(ref, move.arena)])
        events += left
        touched = [where, move.arena]
    elif action == SPLIT:
        events += end_alliance(state, move.partner, where, Cause.ACTION)
    elif action == SMASH:
        events.append(change_muscle(state, move.target, -move.amount, why))
    elif action in (RUSH, SCATTER):
        leaving = leaving_crabs(state, where, action == RUSH)
        tasks = [Task(DESTINATIONS_STEP, player, where, leaving, [-1] * len(leaving), style)]
        return events, tasks  # the style bonus follows the destinations
    elif action == PSYCH_OUT:
        c, other = writable_crab(state, ref), writable_crab(state, move.target)
        mine, theirs = c.muscle, other.muscle
        c.muscle, other.muscle = theirs, mine
        events.append(set_muscle_event(state, ref, mine, theirs, why))
        events.append(set_muscle_event(state, move.target, theirs, mine, why))
    elif action == SWAP:
        there = crab(state, move.target).arena
        events, tasks = send(state, [(ref, there), (move.target, where)])
        touched = [where, there]
    elif action == CHARM:
        events.extend(place_fans(state, player, where, 1, why))
    elif action == RAGE:
        events.append(change_muscle(state, ref, move.amount, why))
    if style:
        events.extend(style_bonus_now(state, player, ref, touched, tasks))
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
            words = (riding_text, me.team, ref, me.crabs[ref[1]].riding_fans)
            return [_new(Event, (FAN_RIDING_EVENT, words, -1, ()))]
        return []
    tasks.append(style_bonus(player, touched))
    return []


def riding_text(team: int, ref: CrabRef, riding: int) -> Told:
    return Told(
        "style bonus: a fan rides on {crab} ({riding} riding)",
        {"crab": crab_title(team, *ref), "riding": str(riding)},
        {
            "player": ref[0],
            "crab": ref,
            "amount": 1,
            "result": riding,
            "cause": Cause.STYLE_BONUS,
        },
    )


def describe(state: State, player: int, move: Move) -> str:
    """A turn move's label (the same sentence as its event)."""
    words = describe_words(state, player, move)
    return words[0](*words[1:]).text


def describe_words(state: State, player: int, move: Move) -> tuple:
    """What `describe_text` reads, captured now (an event's deferred sentence)."""
    players = state.players
    me = players[player]
    kind, action = move.kind, move.action
    acted = kind == ACT_KIND
    billboard = None
    if kind == SIGNATURE_KIND or (acted and action in (MOVE, GO_CLAM)):
        billboard = billboard_at(state, move.arena)
    target = move.target[0]
    return (
        describe_text,
        player,
        move,
        me.team,
        me.signature,
        billboard,
        players[target].team if acted and target >= 0 else 0,
        players[move.partner].team if acted and action == SPLIT else 0,
    )


def describe_text(
    player: int,
    move: Move,
    team: int,
    signature: int,
    billboard: int | None,
    target_team: int,
    partner_team: int,
) -> Told:
    """The label of a turn move, and the sentence of its PASSED, ACTED or SIGNATURE_MOVE event
    (the event adds its fields)."""
    args = {"team": team_name(team, player)}
    if move.kind == PASS_KIND:
        return Told("{team} passes", args, {})
    if move.kind == SIGNATURE_KIND:
        args["signature_move"] = SIGNATURES[Signature(signature)].name
        args["arena"] = place_name(move.arena, billboard)
        return Told("{team} performs signature move {signature_move} in {arena}", args, {})
    template = "{team}: {action} with crab {crab}"
    args["action"] = ACTION_NAMES[move.action]
    args["crab"] = str(move.crab)
    if move.action in (MOVE, GO_CLAM):
        template += " to {arena}"
        args["arena"] = place_name(move.arena, billboard)
    if move.target[0] >= 0:
        template += " on {target}"
        args["target"] = crab_title(target_team, *move.target)
    if move.action in WITH_X:
        template += ", X={x}"
        args["x"] = str(move.amount)
    if move.action == SPLIT:
        template += " (the alliance of {partner})"  # named by its lowest seat
        args["partner"] = team_name(partner_team, move.partner)
    return Told(template, args, {})


def acted_text(words: tuple, where: int, rage: int, cost: int, first_use: bool) -> Told:
    """The ACTED event: the move's sentence, with what changed."""
    told = words[0](*words[1:])
    player, move = words[1], words[2]
    fields: dict = {
        "player": player,
        "move": move,
        "action": move.action,
        "crab": (player, move.crab),
        "change": -cost,
        "result": rage,
        "first_use": first_use,
    }
    if where >= 0:
        fields["arena"] = where
    args = told.args | {"cost": str(cost), "rage": str(rage)}
    return Told(told.template + " (pays {cost} rage, {rage} left)", args, fields)


def passed_text(words: tuple) -> Told:
    told = words[0](*words[1:])
    return Told(told.template, told.args, {"player": words[1]})


def signature_text(words: tuple, rage: int) -> Told:
    told = words[0](*words[1:])
    player, move, signature = words[1], words[2], words[4]
    fields = {
        "player": player,
        "arena": move.arena,
        "move": move,
        "signature_move": signature,
        "change": -SIGNATURE_RAGE_COST,
        "result": rage,
    }
    args = told.args | {"cost": str(SIGNATURE_RAGE_COST), "rage": str(rage)}
    return Told(told.template + " (pays {cost} rage, {rage} left)", args, fields)


@handles(Step.ACTION_TURN)
class ActionTurn(Handler):
    def decision(self, state: State, task: Task) -> Decision | None:
        return CHOOSE_ACTION_BY_SEAT[task.player]

    def moves(self, state: State, task: Task) -> Sequence[Move]:
        return turn_moves(state, task.player)

    def play(self, state: State, task: Task, move: Move) -> list[Event]:
        player = task.player
        state.pending[-1] = AFTER_ACTION_BY_SEAT[player]  # in this step's place
        words = describe_words(state, player, move)
        if move.kind == PASS_KIND:
            writable_player(state, player).passed = True
            return [_new(Event, (PASSED_EVENT, (passed_text, words), -1, ()))]
        state.active = player
        if move.kind == SIGNATURE_KIND:
            effects = signature(state, player, move.arena)
            told = (signature_text, words, state.players[player].rage)
            return [_new(Event, (SIGNATURE_MOVE_EVENT, told, -1, ())), *effects]
        me = writable_player(state, player)
        cost = ACTION_COST[move.action] + move.amount
        me.rage -= cost
        style = move.action not in state.used_actions
        if style:
            state.used_actions.append(move.action)
        where = me.crabs[move.crab].arena
        acted = (acted_text, words, where, me.rage, cost, style)
        effect, tasks = perform(state, player, move, style)
        push(state, *tasks)
        return [_new(Event, (ACTED_EVENT, acted, -1, ())), *effect]


@handles(Step.AFTER_ACTION)
class AfterAction(Handler):
    """R7: the next manager clockwise who has not passed acts, until all have passed."""

    def step(self, state: State, task: Task) -> list[Event]:
        events = []
        if state.active >= 0:
            words = (resolved_text, state.players[state.active].team, state.active)
            events.append(_new(Event, (ACTION_RESOLVED_EVENT, words, -1, ())))
        state.active = -1
        players = state.players
        seats = len(players)
        for after in range(1, seats + 1):  # clockwise from the next seat, this one last
            seat = (task.player + after) % seats
            if not players[seat].passed:
                state.pending.append(ACTION_TURN_BY_SEAT[seat])
                break
        return events


def resolved_text(team: int, player: int) -> Told:
    return Told(
        "{team}'s action is resolved", {"team": team_name(team, player)}, {"player": player}
    )


# ----- signature moves (R13) -----


def signature(state: State, player: int, arena: int) -> list[Event]:
    me = writable_player(state, player)
    me.rage -= SIGNATURE_RAGE_COST
    me.signature_used = True
    kind = Signature(me.signature)
    why = (Cause.SIGNATURE_MOVE, kind)
    events: list[Event] = []
    mine = [(player, i) for i in own_crabs_in(state, player, arena)]
    if kind == Signature.FRENZY:
        push(state, Task(FRENZY_STEP, player, arena, values=[len(mine)]))
    elif kind == Signature.CLAW_SNAP:
        for ref in rivals_in(state, player, arena):
            events.append(change_muscle(state, ref, -CLAW_SNAP_HIT, why))
    elif kind == Signature.SHELL_UP:
        push(state, Task(SHELL_UP_STEP, player, arena))
    elif kind == Signature.RIPTIDE:
        push(state, Task(RIPTIDE_STEP, player, arena))
    elif kind == Signature.HYPE_UP:
        for ref in mine:
            events.append(change_muscle(state, ref, HYPE_UP_BOOST, why))
    events.extend(place_fans(state, player, arena, SIGNATURE_FANS, why))
    return events


FRENZY_WHY = (Cause.SIGNATURE_MOVE, Signature.FRENZY)
SHELL_UP_WHY = (Cause.SIGNATURE_MOVE, Signature.SHELL_UP)


@handles(Step.FRENZY)
class Frenzy(Handler):
    """Printed: for each of your crabs in the arena, -2 muscle to any rival crab there."""

    def decision(self, state: State, task: Task) -> Decision | None:
        if task.values[0] > 0 and rivals_in(state, task.player, task.arena):
            return CHOOSE_FRENZY_TARGET_BY_SEAT[task.player]
        return None

    def moves(self, state: State, task: Task) -> list[Move]:
        refs = rivals_in(state, task.player, task.arena)
        return [Move(SIGNATURE_TARGET_KIND, target=r) for r in refs]

    def play(self, state: State, task: Task, move: Move) -> list[Event]:
        state.pending.pop()
        left = task.values[0] - 1  # targets still to pick
        if left:
            push(state, task.replaced(values=[left]))  # steps are replaced, never changed
        return [change_muscle(state, move.target, -FRENZY_HIT, FRENZY_WHY)]


@handles(Step.SHELL_UP)
class ShellUp(Handler):
    def decision(self, state: State, task: Task) -> Decision | None:
        if own_crabs_in(state, task.player, task.arena):
            return CHOOSE_SHELL_UP_CRAB_BY_SEAT[task.player]
        return None

    def moves(self, state: State, task: Task) -> list[Move]:
        mine = own_crabs_in(state, task.player, task.arena)
        return [Move(SIGNATURE_TARGET_KIND, crab=i) for i in mine]

    def play(self, state: State, task: Task, move: Move) -> list[Event]:
        state.pending.pop()
        return [change_muscle(state, (task.player, move.crab), SHELL_UP_BOOST, SHELL_UP_WHY)]


@handles(Step.RIPTIDE)
class Riptide(Handler):
    def decision(self, state: State, task: Task) -> Decision | None:
        if rivals_in(state, task.player, task.arena):
            return CHOOSE_RIPTIDE_TARGET_BY_SEAT[task.player]
        return None

    def moves(self, state: State, task: Task) -> list[Move]:
        others = [a for a in range(len(state.arenas)) if a != task.arena]
        return [
            Move(SIGNATURE_TARGET_KIND, target=r, arena=a)
            for r in rivals_in(state, task.player, task.arena)
            for a in others
        ]

    def play(self, state: State, task: Task, move: Move) -> list[Event]:
        state.pending.pop()
        events, enters = send(state, [(move.target, move.arena)])
        push(state, *enters)
        return events
