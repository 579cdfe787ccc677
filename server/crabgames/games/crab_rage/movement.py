"""Movement rules: leaving and entering arenas, alliances (R10), billboards (R11), the style bonus
(R12) and destinations picked by the actor (R9)."""

from __future__ import annotations

from typing import Final

from crabgames.core.game import Decision
from crabgames.games.crab_rage.data import (
    MAX_MUSCLE,
    MIN_MUSCLE,
    MUSCLE_BILLBOARDS,
    Action,
    Billboard,
)
from crabgames.games.crab_rage.events import (
    ALLIANCE_CHOSEN,
    CRAB_ENTERED,
    FANS,
    MUSCLE,
    AllianceEnded,
    Cause,
    CrabLeft,
    DestinationChosen,
    Event,
    Why,
    billboard_at,
)
from crabgames.games.crab_rage.flow import Handler, seat_decisions
from crabgames.games.crab_rage.moves import (
    BILLBOARD_CRAB,
    BOOST_ALLIANCE,
    DESTINATION,
    FORM_ALLIANCE,
    GO_INDEPENDENT,
    STYLE_BONUS,
    Alliance,
    AllianceChoice,
    BillboardCrab,
    Destination,
    Move,
    StyleBonus,
)
from crabgames.games.crab_rage.state import (
    IN_TRANSIT,
    CrabRef,
    State,
    Step,
    Task,
    managers_in,
    next_leaving_crab,
    own_crabs_in,
    push,
    push_all,
    seat_arena_steps,
    turn_order,
    writable_arena,
    writable_crab,
    writable_player,
)

# Who decides, built once (Decision is an immutable NamedTuple asked for several times a move).
CHOOSE_ALLIANCE_BY_SEAT: Final = seat_decisions("choose_alliance")
CHOOSE_BILLBOARD_CRAB_BY_SEAT: Final = seat_decisions("choose_billboard_crab")
CHOOSE_STYLE_BONUS_ARENA_BY_SEAT: Final = seat_decisions("choose_style_bonus_arena")
CHOOSE_DESTINATION_BY_SEAT: Final = seat_decisions("choose_destination")
ALLIANCE_STEPS: Final = seat_arena_steps(Step.ALLIANCE)  # shared (state.seat_steps)

STYLE_BONUS_WHY: Final = (Cause.STYLE_BONUS, 0)


def break_alliance(state: State, player: int, arena: int) -> int:
    """The player's alliance in the arena ends: both partners are independent again. Returns the
    former partner (-1: the player was independent already, and nothing changes)."""
    other = state.arenas[arena].partner[player]
    if other >= 0:
        partners = writable_arena(state, arena).partner
        partners[other] = partners[player] = -1
    return other


def end_alliance(state: State, player: int, arena: int, cause: int) -> list[Event]:
    """`break_alliance`, told."""
    other = break_alliance(state, player, arena)
    if other < 0:
        return []
    seats = (min(player, other), max(player, other))
    teams = (state.players[seats[0]].team, state.players[seats[1]].team)
    split = Action.SPLIT if cause == Cause.ACTION else None
    return [AllianceEnded(seats, arena, cause, split, teams, billboard_at(state, arena))]


def leave(state: State, ref: CrabRef, destination: int) -> list[Event]:
    """The crab leaves its place for `destination`; a manager's last crab leaving an arena ends
    their alliance there (R10)."""
    player, index = ref
    c = writable_crab(state, ref)
    origin = c.arena
    c.arena, c.destination = IN_TRANSIT, destination
    left = CrabLeft(
        player,
        ref,
        destination,
        origin if origin >= 0 else None,
        state.players[player].team,
        billboard_at(state, destination),
        billboard_at(state, origin),
    )
    events: list[Event] = [left]
    if origin >= 0 and not own_crabs_in(state, player, origin):
        events += end_alliance(state, player, origin, Cause.LEFT_ARENA)
    return events


def send(state: State, moves: list[tuple[CrabRef, int]]) -> tuple[list[Event], list[Task]]:
    """All the crabs leave at once, then enter in turn order starting with the active player
    (R9); one manager's crabs entering the same arena together enter as one team (R11)."""
    events: list[Event] = []
    for ref, destination in moves:
        events += leave(state, ref, destination)
    order = turn_order(state, max(state.active, 0))
    groups: dict[tuple[int, int], list[CrabRef]] = {}
    for ref, destination in sorted(moves, key=lambda m: (order.index(m[0][0]), m[1], m[0][1])):
        groups.setdefault((ref[0], destination), []).append(ref)
    tasks = [Task(Step.ENTER, player, arena, refs) for (player, arena), refs in groups.items()]
    return events, tasks


class EnterArena(Handler):
    handles = Step.ENTER

    def step(self, state: State, task: Task) -> list[Event]:
        arena = state.arenas[task.arena]
        team = state.players[task.player].team
        events: list[Event] = []
        for ref in task.crabs:
            c = writable_crab(state, ref)
            c.arena, c.destination = task.arena, -1
            events.append(CRAB_ENTERED(ref[0], ref, task.arena, c.muscle, team, arena.billboard))
            if c.riding_fans:  # R12: the riding fan drops into the first arena entered
                events += drop_riding_fans(state, ref, task.arena)
        rivals = [p for p in managers_in(state, task.arena) if p != task.player]
        follow = [Task(Step.BILLBOARD, task.player, task.arena, list(task.crabs))]
        if rivals:
            follow.insert(0, ALLIANCE_STEPS[task.player][task.arena])
        push_all(state, follow)
        return events


def drop_riding_fans(state: State, ref: CrabRef, arena: int) -> list[Event]:
    """R12: the style bonus fans riding on the crab drop into the arena it enters."""
    c = writable_crab(state, ref)
    count, c.riding_fans = c.riding_fans, 0
    fans = writable_arena(state, arena).fans
    fans[ref[0]] += count
    team = state.players[ref[0]].team
    billboard = billboard_at(state, arena)
    return [FANS(ref[0], arena, count, fans[ref[0]], ref, STYLE_BONUS_WHY, team, billboard)]


def alliance_moves(state: State, player: int, arena: int) -> list[Move]:
    """R10: boost the alliance already joined, or form one with an independent team, or go
    independent."""
    partners = state.arenas[arena].partner
    moves: list[Move] = [GO_INDEPENDENT]
    if partners[player] >= 0:
        moves.append(BOOST_ALLIANCE[partners[player]])
        return moves
    for other in managers_in(state, arena):
        if other != player and partners[other] < 0:
            moves.append(FORM_ALLIANCE[other])
    return moves


class ChooseAlliance(Handler):
    handles = Step.ALLIANCE

    def decision(self, state: State, task: Task) -> Decision | None:
        return CHOOSE_ALLIANCE_BY_SEAT[task.player]

    def moves(self, state: State, task: Task) -> list[Move]:
        return alliance_moves(state, task.player, task.arena)

    def play(self, state: State, task: Task, move: Move) -> list[Event]:
        assert isinstance(move, Alliance)
        state.pending.pop()
        player, arena = task.player, task.arena
        players = state.players
        partner = (
            move.partner
            if move.alliance != AllianceChoice.INDEPENDENT
            else state.arenas[arena].partner[player]
        )
        chosen = ALLIANCE_CHOSEN(
            player,
            arena,
            move.alliance,
            partner if partner >= 0 else None,
            players[player].team,
            players[partner].team if partner >= 0 else 0,
            billboard_at(state, arena),
        )
        if move.alliance == AllianceChoice.INDEPENDENT:
            break_alliance(state, player, arena)  # the ALLIANCE event names the former partner
        elif move.alliance == AllianceChoice.FORM:
            partners = writable_arena(state, arena).partner
            partners[player], partners[move.partner] = move.partner, player
        return [chosen]


def change_muscle(state: State, ref: CrabRef, delta: int, why: Why) -> Event:
    """R3: muscle stays within 1-6; the event tells the real change and the result."""
    c = writable_crab(state, ref)
    before = c.muscle
    c.muscle = muscle = max(MIN_MUSCLE, min(MAX_MUSCLE, before + delta))
    return set_muscle_event(state, ref, before, muscle, why)


def set_muscle_event(state: State, ref: CrabRef, before: int, muscle: int, why: Why) -> Event:
    """The MUSCLE event of a crab whose muscle went from `before` to `muscle`."""
    seat = ref[0]
    arena = state.players[seat].crabs[ref[1]].arena
    team = state.players[seat].team
    return MUSCLE(seat, ref, arena if arena >= 0 else None, muscle - before, muscle, why, team)


def place_fans(state: State, player: int, arena: int, count: int, why: Why) -> list[Event]:
    """Fans from the supply into an arena; a player whose supply runs out places what they have
    (R15, R21)."""
    placed = min(count, state.players[player].supply)
    if placed <= 0:
        return []
    me = writable_player(state, player)
    me.supply -= placed
    fans = writable_arena(state, arena).fans
    fans[player] += placed
    billboard = billboard_at(state, arena)
    return [FANS(player, arena, placed, fans[player], None, why, me.team, billboard)]


class BillboardOnEntering(Handler):
    """R11: the billboard affects the entering team."""

    handles = Step.BILLBOARD

    def decision(self, state: State, task: Task) -> Decision | None:
        billboard = state.arenas[task.arena].billboard
        if billboard in MUSCLE_BILLBOARDS and len(task.crabs) > 1:
            return CHOOSE_BILLBOARD_CRAB_BY_SEAT[task.player]
        return None

    def moves(self, state: State, task: Task) -> list[Move]:
        return [BILLBOARD_CRAB[index] for _, index in task.crabs]

    def play(self, state: State, task: Task, move: Move) -> list[Event]:
        assert isinstance(move, BillboardCrab)
        state.pending.pop()
        return self.affect(state, task, (task.player, move.crab))

    def step(self, state: State, task: Task) -> list[Event]:
        return self.affect(state, task, task.crabs[0])

    def affect(self, state: State, task: Task, ref: CrabRef) -> list[Event]:
        billboard = state.arenas[task.arena].billboard
        why = (Cause.BILLBOARD, billboard)
        if billboard in MUSCLE_BILLBOARDS:
            return [change_muscle(state, ref, MUSCLE_BILLBOARDS[billboard], why)]
        if billboard == Billboard.ATTACK_OF_THE_FANS:
            return place_fans(state, task.player, task.arena, 1, why)
        push(state, Task(Step.BUILD_RAGE, task.player, task.arena, values=[1]))  # Pressure Cooker
        return []


class PlaceStyleBonus(Handler):
    """R12: the first user of an action this round places 1 fan where it was performed."""

    handles = Step.STYLE_BONUS

    def decision(self, state: State, task: Task) -> Decision | None:
        if len(task.values) > 1 and state.players[task.player].supply > 0:
            return CHOOSE_STYLE_BONUS_ARENA_BY_SEAT[task.player]
        return None

    def moves(self, state: State, task: Task) -> list[Move]:
        return [STYLE_BONUS[arena] for arena in task.values]

    def play(self, state: State, task: Task, move: Move) -> list[Event]:
        assert isinstance(move, StyleBonus)
        state.pending.pop()
        return place_fans(state, task.player, move.arena, 1, STYLE_BONUS_WHY)

    def step(self, state: State, task: Task) -> list[Event]:
        if not task.values:
            return []
        return place_fans(state, task.player, task.values[0], 1, STYLE_BONUS_WHY)


def style_bonus(player: int, arenas: list[int]) -> Task:
    return Task(Step.STYLE_BONUS, player, values=sorted({a for a in arenas if a >= 0}))


class ChooseDestinations(Handler):
    """R9: the actor picks each leaving crab's destination (any other arena)."""

    handles = Step.DESTINATIONS

    def decision(self, state: State, task: Task) -> Decision | None:
        if -1 in task.values:
            return CHOOSE_DESTINATION_BY_SEAT[task.player]
        return None

    def moves(self, state: State, task: Task) -> list[Move]:
        return [DESTINATION[a] for a in range(len(state.arenas)) if a != task.arena]

    def play(self, state: State, task: Task, move: Move) -> list[Event]:
        assert isinstance(move, Destination)
        values = task.values[:]  # steps are replaced, never changed (State.clone)
        ref = next_leaving_crab(task)
        values[values.index(-1)] = move.arena
        state.pending[-1] = task.replaced(values=values)
        players = state.players
        chosen = DestinationChosen(
            task.player,
            ref,
            move.arena,
            players[task.player].team,
            players[ref[0]].team,
            billboard_at(state, move.arena),
        )
        return [chosen]

    def step(self, state: State, task: Task) -> list[Event]:
        events, enters = send(state, list(zip(task.crabs, task.values, strict=True)))
        follow = [style_bonus(task.player, [task.arena, *task.values])] if task.flag else []
        push_all(state, enters + follow)
        return events
