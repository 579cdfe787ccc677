"""Movement rules: leaving and entering arenas, alliances (R10), billboards (R11), the style bonus
(R12) and destinations picked by the actor (R9)."""

from __future__ import annotations

from crabgames.core.game import Decision
from crabgames.games.crab_rage.data import MAX_MUSCLE, MIN_MUSCLE, Billboard
from crabgames.games.crab_rage.events import (
    Event,
    EventKind,
    arena_title,
    billboard_at,
    crab_title,
    place_name,
    team_name,
)
from crabgames.games.crab_rage.flow import Handler, handles, seat_decisions
from crabgames.games.crab_rage.state import (
    IN_TRANSIT,
    AllianceChoice,
    CrabRef,
    Move,
    MoveKind,
    State,
    Step,
    Task,
    managers_in,
    own_crabs_in,
    push,
    turn_order,
    writable_arena,
    writable_crab,
    writable_player,
)

# Enum members used on hot paths, read once: on Python 3.11 `Step.ENTER` goes through
# EnumType.__getattr__ (~90 ns, and a move reads dozens).
ALLIANCE_EVENT = EventKind.ALLIANCE
ALLIANCE_KIND = MoveKind.ALLIANCE
ALLIANCE_STEP = Step.ALLIANCE
BILLBOARD_CRAB_KIND = MoveKind.BILLBOARD_CRAB
BILLBOARD_STEP = Step.BILLBOARD
BUILD_RAGE_STEP = Step.BUILD_RAGE
CRAB_ENTERED_EVENT = EventKind.CRAB_ENTERED
DESTINATION_KIND = MoveKind.DESTINATION
ENTER_STEP = Step.ENTER
FANS_EVENT = EventKind.FANS
MUSCLE_EVENT = EventKind.MUSCLE
STYLE_BONUS_KIND = MoveKind.STYLE_BONUS
STYLE_BONUS_STEP = Step.STYLE_BONUS
INDEPENDENT, FORM = AllianceChoice.INDEPENDENT, AllianceChoice.FORM

# Who decides, built once (Decision is an immutable NamedTuple asked for several times a move).
CHOOSE_ALLIANCE_BY_SEAT = seat_decisions("choose_alliance")
CHOOSE_BILLBOARD_CRAB_BY_SEAT = seat_decisions("choose_billboard_crab")
CHOOSE_STYLE_BONUS_ARENA_BY_SEAT = seat_decisions("choose_style_bonus_arena")
CHOOSE_DESTINATION_BY_SEAT = seat_decisions("choose_destination")


def end_alliance(state: State, player: int, arena: int) -> None:
    if state.arenas[arena].partner[player] < 0:
        return  # independent already: nothing changes, the arena stays shared
    partners = writable_arena(state, arena).partner
    other = partners[player]
    if other >= 0:
        partners[other] = -1
    partners[player] = -1


def leave(state: State, ref: CrabRef, destination: int) -> None:
    """The crab leaves its place for `destination`; a manager's last crab leaving an arena ends
    their alliance there (R10)."""
    player, index = ref
    c = writable_crab(state, ref)
    origin = c.arena
    c.arena, c.destination = IN_TRANSIT, destination
    if origin >= 0 and not own_crabs_in(state, player, origin):
        end_alliance(state, player, origin)


def send(state: State, moves: list[tuple[CrabRef, int]]) -> list[Task]:
    """All the crabs leave at once, then enter in turn order starting with the active player
    (R9); one manager's crabs entering the same arena together enter as one team (R11)."""
    for ref, destination in moves:
        leave(state, ref, destination)
    order = turn_order(state, max(state.active, 0))
    groups: dict[tuple[int, int], list[CrabRef]] = {}
    for ref, destination in sorted(moves, key=lambda m: (order.index(m[0][0]), m[1], m[0][1])):
        groups.setdefault((ref[0], destination), []).append(ref)
    return [Task(ENTER_STEP, player, arena, refs) for (player, arena), refs in groups.items()]


@handles(Step.ENTER)
class EnterArena(Handler):
    def step(self, state: State, task: Task) -> list[Event]:
        arena = state.arenas[task.arena]
        team = state.players[task.player].team
        events = []
        for ref in task.crabs:
            c = writable_crab(state, ref)
            c.arena, c.destination = task.arena, -1
            events.append(
                Event(
                    CRAB_ENTERED_EVENT,
                    (entered_text, team, *ref, c.muscle, task.arena, arena.billboard),
                    task.player,
                    task.arena,
                    c.muscle,
                )
            )
            if c.riding_fans:  # R12: the riding fan drops into the first arena entered
                arena = writable_arena(state, task.arena)
                arena.fans[task.player] += c.riding_fans
                c.riding_fans = 0
        rivals = [p for p in managers_in(state, task.arena) if p != task.player]
        follow = [Task(BILLBOARD_STEP, task.player, task.arena, list(task.crabs))]
        if rivals:
            follow.insert(0, Task(ALLIANCE_STEP, task.player, task.arena))
        push(state, *follow)
        return events


def entered_text(team: int, seat: int, index: int, muscle: int, arena: int, billboard: int) -> str:
    return (
        f"{crab_title(team, seat, index)} ({muscle} muscle) enters {arena_title(arena, billboard)}"
    )


def alliance_moves(state: State, player: int, arena: int) -> list[Move]:
    """R10: boost the alliance already joined, or form one with an independent team, or go
    independent."""
    partners = state.arenas[arena].partner
    moves = [Move(ALLIANCE_KIND, alliance=AllianceChoice.INDEPENDENT)]
    if partners[player] >= 0:
        moves.append(Move(ALLIANCE_KIND, alliance=AllianceChoice.BOOST, partner=partners[player]))
        return moves
    for other in managers_in(state, arena):
        if other != player and partners[other] < 0:
            moves.append(Move(ALLIANCE_KIND, alliance=AllianceChoice.FORM, partner=other))
    return moves


@handles(Step.ALLIANCE)
class ChooseAlliance(Handler):
    def decision(self, state: State, task: Task) -> Decision | None:
        return CHOOSE_ALLIANCE_BY_SEAT[task.player]

    def moves(self, state: State, task: Task) -> list[Move]:
        return alliance_moves(state, task.player, task.arena)

    def play(self, state: State, task: Task, move: Move) -> list[Event]:
        state.pending.pop()
        player, arena = task.player, task.arena
        players = state.players
        words = (
            alliance_text,
            move,
            players[player].team,
            player,
            players[move.partner].team if move.alliance != INDEPENDENT else 0,
            arena,
            billboard_at(state, arena),
        )
        if move.alliance == INDEPENDENT:
            end_alliance(state, player, arena)
        elif move.alliance == FORM:
            partners = writable_arena(state, arena).partner
            partners[player], partners[move.partner] = move.partner, player
        return [Event(ALLIANCE_EVENT, words, player, arena, move.alliance)]


def alliance_text(
    move: Move, team: int, player: int, partner_team: int, arena: int, billboard: int | None
) -> str:
    who, where = team_name(team, player), place_name(arena, billboard)
    if move.alliance == INDEPENDENT:
        return f"{who} goes independent in {where}"
    partner = team_name(partner_team, move.partner)
    if move.alliance == FORM:
        return f"{who} forms an alliance with {partner} in {where}"
    return f"{who} boosts its alliance with {partner} in {where}"


_new = tuple.__new__  # an Event from all its fields, without the NamedTuple constructor's call


def change_muscle(state: State, ref: CrabRef, delta: int, why: str) -> Event:
    c = writable_crab(state, ref)
    c.muscle = muscle = max(MIN_MUSCLE, min(MAX_MUSCLE, c.muscle + delta))  # R3: muscle 1-6
    seat = ref[0]
    words = (muscle_text, state.players[seat].team, seat, ref[1], delta, why, muscle)
    return _new(Event, (MUSCLE_EVENT, words, seat, c.arena, muscle, ""))


def muscle_text(team: int, seat: int, index: int, delta: int, why: str, muscle: int) -> str:
    return f"{crab_title(team, seat, index)}: {delta:+d} muscle ({why}), now {muscle}"


def place_fans(state: State, player: int, arena: int, count: int, why: str) -> list[Event]:
    """Fans from the supply into an arena; a player whose supply runs out places what they have
    (R15, R21)."""
    placed = min(count, state.players[player].supply)
    if placed <= 0:
        return []
    me = writable_player(state, player)
    me.supply -= placed
    writable_arena(state, arena).fans[player] += placed
    return [
        Event(
            FANS_EVENT,
            (fans_text, me.team, player, placed, arena, billboard_at(state, arena), why),
            player,
            arena,
            placed,
        )
    ]


def fans_text(
    team: int, player: int, placed: int, arena: int, billboard: int | None, why: str
) -> str:
    where = place_name(arena, billboard)
    return f"{team_name(team, player)} places {placed} fan(s) in {where} ({why})"


MUSCLE_BILLBOARDS = {Billboard.MEGA_MUSCLE: 1, Billboard.BARNACLE_BRAWL: -1}


@handles(Step.BILLBOARD)
class BillboardOnEntering(Handler):
    """R11: the billboard affects the entering team."""

    def decision(self, state: State, task: Task) -> Decision | None:
        billboard = state.arenas[task.arena].billboard
        if billboard in MUSCLE_BILLBOARDS and len(task.crabs) > 1:
            return CHOOSE_BILLBOARD_CRAB_BY_SEAT[task.player]
        return None

    def moves(self, state: State, task: Task) -> list[Move]:
        return [Move(BILLBOARD_CRAB_KIND, crab=index) for _, index in task.crabs]

    def play(self, state: State, task: Task, move: Move) -> list[Event]:
        state.pending.pop()
        return self.affect(state, task, (task.player, move.crab))

    def step(self, state: State, task: Task) -> list[Event]:
        return self.affect(state, task, task.crabs[0])

    def affect(self, state: State, task: Task, ref: CrabRef) -> list[Event]:
        billboard = state.arenas[task.arena].billboard
        if billboard in MUSCLE_BILLBOARDS:
            return [change_muscle(state, ref, MUSCLE_BILLBOARDS[billboard], "billboard")]
        if billboard == Billboard.ATTACK_OF_THE_FANS:
            return place_fans(state, task.player, task.arena, 1, "Attack of the Fans")
        push(state, Task(BUILD_RAGE_STEP, task.player, values=[1]))  # Pressure Cooker, R4
        return []


@handles(Step.STYLE_BONUS)
class StyleBonus(Handler):
    """R12: the first user of an action this round places 1 fan where it was performed."""

    def decision(self, state: State, task: Task) -> Decision | None:
        if len(task.values) > 1 and state.players[task.player].supply > 0:
            return CHOOSE_STYLE_BONUS_ARENA_BY_SEAT[task.player]
        return None

    def moves(self, state: State, task: Task) -> list[Move]:
        return [Move(STYLE_BONUS_KIND, arena=arena) for arena in task.values]

    def play(self, state: State, task: Task, move: Move) -> list[Event]:
        state.pending.pop()
        return place_fans(state, task.player, move.arena, 1, "style bonus")

    def step(self, state: State, task: Task) -> list[Event]:
        if not task.values:
            return []
        return place_fans(state, task.player, task.values[0], 1, "style bonus")


def style_bonus(player: int, arenas: list[int]) -> Task:
    return Task(STYLE_BONUS_STEP, player, values=sorted({a for a in arenas if a >= 0}))


@handles(Step.DESTINATIONS)
class ChooseDestinations(Handler):
    """R9: the actor picks each leaving crab's destination (any other arena)."""

    def decision(self, state: State, task: Task) -> Decision | None:
        if -1 in task.values:
            return CHOOSE_DESTINATION_BY_SEAT[task.player]
        return None

    def moves(self, state: State, task: Task) -> list[Move]:
        return [
            Move(DESTINATION_KIND, arena=a) for a in range(len(state.arenas)) if a != task.arena
        ]

    def play(self, state: State, task: Task, move: Move) -> list[Event]:
        values = task.values[:]  # steps are replaced, never changed (State.clone)
        values[values.index(-1)] = move.arena
        state.pending[-1] = task.replaced(values=values)
        return []

    def step(self, state: State, task: Task) -> list[Event]:
        enters = send(state, list(zip(task.crabs, task.values, strict=True)))
        follow = [style_bonus(task.player, [task.arena, *task.values])] if task.flag else []
        push(state, *enters, *follow)
        return []


def next_leaving_crab(task: Task) -> CrabRef:
    return task.crabs[task.values.index(-1)]
