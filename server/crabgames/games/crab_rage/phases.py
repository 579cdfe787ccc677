"""Set-up chance, the Referee, Rumble, Fan and Rage phases, rage builds and mutation (R4-R6,
R14-R16)."""

from __future__ import annotations

from crabgames.core.game import Decision
from crabgames.games.crab_rage.data import (
    ACTION_CARDS,
    ACTION_NAMES,
    MUTATION_ABOVE,
    ROUNDS,
    SETUP,
    Action,
)
from crabgames.games.crab_rage.events import (
    Event,
    EventKind,
    arena_name,
    billboard_at,
    crab_title,
    place_name,
    team,
    team_name,
)
from crabgames.games.crab_rage.flow import Handler, handles, seat_decisions
from crabgames.games.crab_rage.movement import place_fans
from crabgames.games.crab_rage.state import (
    Move,
    MoveKind,
    Phase,
    RollOff,
    State,
    Step,
    Task,
    arenas_alphabetical,
    earliest,
    muscle_of,
    push,
    rumble_order,
    seats_of,
    turn_order,
    units_in,
    writable_arena,
    writable_crab,
    writable_player,
)

# Enum members used on hot paths, read once: on Python 3.11 `Step.ENTER` goes through
# EnumType.__getattr__ (~90 ns, and a move reads dozens).
ACTION_REVEALED_EVENT = EventKind.ACTION_REVEALED
ACTION_TURN_STEP = Step.ACTION_TURN
BILLBOARDS_ROTATED_EVENT = EventKind.BILLBOARDS_ROTATED
BILLBOARD_DEALT_EVENT = EventKind.BILLBOARD_DEALT
BUILD_RAGE_STEP = Step.BUILD_RAGE
DIE_ROLLED_EVENT = EventKind.DIE_ROLLED
FAN_PHASE_STEP = Step.FAN_PHASE
FLIP_ACTION_STEP = Step.FLIP_ACTION
HARDCORE_FANS_EVENT = EventKind.HARDCORE_FANS
HARDCORE_STEP = Step.HARDCORE
MICROPHONE_CHECK_STEP = Step.MICROPHONE_CHECK
MICROPHONE_EVENT = EventKind.MICROPHONE
MUTATION_CHOICE_STEP = Step.MUTATION_CHOICE
MUTATION_CRAB_KIND = MoveKind.MUTATION_CRAB
MUTATION_EVENT = EventKind.MUTATION
MUTATION_ROLL_STEP = Step.MUTATION_ROLL
RAGE_EVENT = EventKind.RAGE
RAGE_PHASE_STEP = Step.RAGE_PHASE
ROUND_END_STEP = Step.ROUND_END
ROUND_STARTED_EVENT = EventKind.ROUND_STARTED
ROUND_START_STEP = Step.ROUND_START
RUMBLE_EVENT = EventKind.RUMBLE
RUMBLE_OPPONENT_KIND = MoveKind.RUMBLE_OPPONENT
RUMBLE_PHASE_STEP = Step.RUMBLE_PHASE
RUMBLE_RESULT_STEP = Step.RUMBLE_RESULT
RUMBLE_STEP = Step.RUMBLE
SCORING_STEP = Step.SCORING
TIE_BREAK_STEP = Step.TIE_BREAK

# Who decides, built once (Decision is an immutable NamedTuple asked for several times a move).
CHOOSE_MUTATION_CRAB_BY_SEAT = seat_decisions("choose_mutation_crab")
CHOOSE_RUMBLE_OPPONENT_BY_SEAT = seat_decisions("choose_rumble_opponent")
DEAL_BILLBOARD_CHANCE = Decision.chance("deal_billboard")
MICROPHONE_CHANCE = Decision.chance("microphone")
FLIP_ACTION_CARD_CHANCE = Decision.chance("flip_action_card")
MUTATION_ROLL_CHANCE = Decision.chance("mutation_roll")
RUMBLE_DIE_CHANCE = Decision.chance("rumble_die")
MICROPHONE_DIE_CHANCE = Decision.chance("microphone_die")

DIE = [(face, 1) for face in range(1, 7)]

# ----- set-up -----


@handles(Step.DEAL_BILLBOARD)
class DealBillboard(Handler):
    """R5: billboards are dealt onto the arenas (chance; value = the billboard)."""

    def decision(self, state: State, task: Task) -> Decision | None:
        return DEAL_BILLBOARD_CHANCE

    def outcomes(self, state: State, task: Task) -> list[tuple[int, int]]:
        return [(b, 1) for b in sorted(state.billboards_to_deal)]

    def resolve(self, state: State, task: Task, value: int) -> list[Event]:
        state.pending.pop()
        state.billboards_to_deal.remove(value)
        writable_arena(state, task.arena).billboard = value
        return [
            Event(
                BILLBOARD_DEALT_EVENT,
                f"{arena_name(state, task.arena)} is dealt",
                -1,
                task.arena,
                value,
            )
        ]


@handles(Step.MICROPHONE)
class FirstMicrophone(Handler):
    """R6: the round-1 microphone holder (chance; value = the seat)."""

    def decision(self, state: State, task: Task) -> Decision | None:
        return MICROPHONE_CHANCE

    def outcomes(self, state: State, task: Task) -> list[tuple[int, int]]:
        return [(seat, 1) for seat in range(state.num_players)]

    def resolve(self, state: State, task: Task, value: int) -> list[Event]:
        state.pending.pop()
        return [give_microphone(state, value)]


def give_microphone(state: State, seat: int) -> Event:
    state.microphone = seat
    return Event(MICROPHONE_EVENT, f"{team(state, seat)} holds the microphone", seat)


# ----- the round -----


@handles(Step.ROUND_START)
class RoundStart(Handler):
    def step(self, state: State, task: Task) -> list[Event]:
        state.round += 1
        state.phase = Phase.REFEREE
        state.used_actions = []
        for seat, player in enumerate(state.players):
            if player.passed:
                writable_player(state, seat).passed = False
        events = [Event(ROUND_STARTED_EVENT, f"round {state.round}", -1, -1, state.round)]
        if state.round > 1:  # R5: billboards move one arena clockwise from round 2
            boards = [a.billboard for a in state.arenas]
            for index in range(len(state.arenas)):
                writable_arena(state, index).billboard = boards[index - 1]
            events.append(Event(BILLBOARDS_ROTATED_EVENT, "billboards rotate clockwise"))
        push(
            state,
            Task(FLIP_ACTION_STEP),
            Task(ACTION_TURN_STEP, state.microphone),
            Task(RUMBLE_PHASE_STEP),
            Task(FAN_PHASE_STEP),
            Task(RAGE_PHASE_STEP),
            Task(ROUND_END_STEP),
        )
        return events


def unrevealed_cards(state: State) -> list[int]:
    return [a for a in sorted(ACTION_CARDS) if a not in state.action_cards]


@handles(Step.FLIP_ACTION)
class FlipAction(Handler):
    """New Rules: a card from the unrevealed ones (G2: no stored order; value = the action)."""

    def decision(self, state: State, task: Task) -> Decision | None:
        return FLIP_ACTION_CARD_CHANCE

    def outcomes(self, state: State, task: Task) -> list[tuple[int, int]]:
        return [(a, 1) for a in unrevealed_cards(state)]

    def resolve(self, state: State, task: Task, value: int) -> list[Event]:
        state.pending.pop()
        state.action_cards.append(value)
        state.phase = Phase.ACTION
        return [
            Event(
                ACTION_REVEALED_EVENT,
                f"the referee reveals {ACTION_NAMES[Action(value)]}",
                -1,
                -1,
                value,
            )
        ]


# ----- rage and mutation (R4) -----


@handles(Step.BUILD_RAGE)
class BuildRage(Handler):
    def step(self, state: State, task: Task) -> list[Event]:
        amount = task.values[0]
        if amount <= 0:
            return []
        me = writable_player(state, task.player)
        me.rage += amount
        if me.rage > MUTATION_ABOVE:  # R4: one build event, however many tokens
            push(state, Task(MUTATION_CHOICE_STEP, task.player))
        return [
            Event(
                RAGE_EVENT,
                (rage_text, me.team, task.player, amount, me.rage),
                task.player,
                -1,
                amount,
            )
        ]


def rage_text(team: int, player: int, amount: int, rage: int) -> str:
    return f"{team_name(team, player)} builds {amount} rage ({rage})"


@handles(Step.MUTATION_CHOICE)
class ChooseMutationCrab(Handler):
    def decision(self, state: State, task: Task) -> Decision | None:
        return CHOOSE_MUTATION_CRAB_BY_SEAT[task.player]

    def moves(self, state: State, task: Task) -> list[Move]:
        crabs = state.players[task.player].crabs
        return [Move(MUTATION_CRAB_KIND, crab=i) for i in range(len(crabs))]

    def play(self, state: State, task: Task, move: Move) -> list[Event]:
        state.pending.pop()
        push(state, Task(MUTATION_ROLL_STEP, task.player, crabs=[(task.player, move.crab)]))
        return []


@handles(Step.MUTATION_ROLL)
class MutationRoll(Handler):
    """Chance; value = the die face, the crab's new muscle."""

    def decision(self, state: State, task: Task) -> Decision | None:
        return MUTATION_ROLL_CHANCE

    def outcomes(self, state: State, task: Task) -> list[tuple[int, int]]:
        return DIE

    def resolve(self, state: State, task: Task, value: int) -> list[Event]:
        state.pending.pop()
        player, index = task.crabs[0]
        writable_crab(state, (player, index)).muscle = value
        return [
            Event(
                MUTATION_EVENT,
                (mutation_text, state.players[player].team, player, index, value),
                player,
                -1,
                value,
            )
        ]


def mutation_text(team: int, player: int, index: int, value: int) -> str:
    return f"{crab_title(team, player, index)} mutates: rolls {value}"


# ----- Rumble Phase (R15) -----


@handles(Step.RUMBLE_PHASE)
class RumblePhase(Handler):
    def step(self, state: State, task: Task) -> list[Event]:
        state.phase = Phase.RUMBLE
        push(state, *(Task(RUMBLE_STEP, arena=a) for a in rumble_order(state)))
        return []


@handles(Step.RUMBLE)
class Rumble(Handler):
    def step(self, state: State, task: Task) -> list[Event]:
        units = units_in(state, task.arena)
        if not units:
            return []
        muscles = [muscle_of(state, u, task.arena) for u in units]
        best = max(muscles)
        tied = [u for u, m in zip(units, muscles, strict=True) if m == best]
        if len(tied) == 1:
            push(state, Task(RUMBLE_RESULT_STEP, arena=task.arena, values=tied))
            return []
        state.roll_off = RollOff(standing=tied, rolling=tied if len(tied) == 2 else [])
        push(state, Task(TIE_BREAK_STEP, arena=task.arena))
        return []


def unit_name(state: State, unit: int) -> str:
    return "/".join(team(state, s) for s in seats_of(unit))


def unit_teams(state: State, unit: int) -> tuple[int, ...]:
    """What `unit_name` reads, to capture for a deferred sentence."""
    players = state.players
    return tuple([players[s].team for s in seats_of(unit)])


def unit_title(unit: int, teams: tuple[int, ...]) -> str:
    """`unit_name` from the captured team colours."""
    return "/".join(map(team_name, teams, seats_of(unit)))


@handles(Step.TIE_BREAK)
class TieBreak(Handler):
    """R15 rumble ties (two units roll off; with three or more the earliest tied manager picks an
    opponent) and R16 microphone ties (all tied roll; the tied highest roll again)."""

    def decision(self, state: State, task: Task) -> Decision | None:
        ro = state.roll_off
        if ro.rolling and len(ro.dice) < len(ro.rolling):
            return RUMBLE_DIE_CHANCE if task.arena >= 0 else MICROPHONE_DIE_CHANCE
        if not ro.rolling:
            return CHOOSE_RUMBLE_OPPONENT_BY_SEAT[self.picker(state)]
        return None

    def picker(self, state: State) -> int:
        return earliest(state, [s for u in state.roll_off.standing for s in seats_of(u)])

    def moves(self, state: State, task: Task) -> list[Move]:
        mine = self.picker_unit(state)
        return [
            Move(RUMBLE_OPPONENT_KIND, partner=seats_of(u)[0])
            for u in state.roll_off.standing
            if u != mine
        ]

    def picker_unit(self, state: State) -> int:
        picker = self.picker(state)
        return next(u for u in state.roll_off.standing if u >> picker & 1)

    def play(self, state: State, task: Task, move: Move) -> list[Event]:
        ro = state.roll_off
        opponent = next(u for u in ro.standing if u >> move.partner & 1)
        ro.rolling = [self.picker_unit(state), opponent]
        return [
            Event(
                RUMBLE_EVENT,
                f"{unit_name(state, ro.rolling[0])} picks "
                f"{unit_name(state, opponent)} to roll against",
                self.picker(state),
                task.arena,
            )
        ]

    def outcomes(self, state: State, task: Task) -> list[tuple[int, int]]:
        return DIE

    def resolve(self, state: State, task: Task, value: int) -> list[Event]:
        ro = state.roll_off
        unit = ro.rolling[len(ro.dice)]
        ro.dice.append(value)
        return [
            Event(
                DIE_ROLLED_EVENT,
                f"{unit_name(state, unit)} rolls {value}",
                seats_of(unit)[0],
                task.arena,
                value,
            )
        ]

    def step(self, state: State, task: Task) -> list[Event]:
        ro = state.roll_off
        high = max(ro.dice)
        top = [u for u, d in zip(ro.rolling, ro.dice, strict=True) if d == high]
        ro.standing = [u for u in ro.standing if u in top or u not in ro.rolling]
        ro.dice = []
        if len(top) > 1:
            ro.rolling = top
        elif len(ro.standing) == 1:
            state.roll_off = None
            return self.finish(state, task, top[0])
        else:
            ro.rolling = ro.standing if len(ro.standing) == 2 else []
        push(state, task)
        return []

    def finish(self, state: State, task: Task, winner: int) -> list[Event]:
        if task.arena >= 0:
            push(state, Task(RUMBLE_RESULT_STEP, arena=task.arena, values=[winner]))
            return []
        return [give_microphone(state, seats_of(winner)[0])]


def alliance_shares(state: State, seats: list[int], arena: int, fans: int) -> list[int]:
    """R15: an alliance splits the fans; on an odd number the partner with more muscle there
    places the extra one, and on equal muscle nobody does."""
    if len(seats) == 1:
        return [fans]
    shares = [fans // 2, fans // 2]
    first, second = (muscle_of(state, [s], arena) for s in seats)
    if fans % 2 and first != second:
        shares[0 if first > second else 1] += 1
    return shares


@handles(Step.RUMBLE_RESULT)
class RumbleResult(Handler):
    def step(self, state: State, task: Task) -> list[Event]:
        arena, winner = task.arena, task.values[0]
        seats = seats_of(winner)
        total = muscle_of(state, winner, arena)
        crabs_there = [[c.arena for c in p.crabs].count(arena) for p in state.players]  # by seat
        fans = sum(crabs_there)
        events = [
            Event(
                RUMBLE_EVENT,
                (
                    rumble_won_text,
                    winner,
                    unit_teams(state, winner),
                    arena,
                    billboard_at(state, arena),
                    total,
                ),
                seats[0],
                arena,
                total,
            )
        ]
        for seat, share in zip(seats, alliance_shares(state, seats, arena, fans), strict=True):
            events.extend(place_fans(state, seat, arena, share, "rumble"))
        losers = [p for p in turn_order(state, state.microphone) if not winner >> p & 1]
        builds = [
            Task(BUILD_RAGE_STEP, p, values=[crabs_there[p]]) for p in losers if crabs_there[p]
        ]
        push(state, *builds)
        return events


def rumble_won_text(
    winner: int, teams: tuple[int, ...], arena: int, billboard: int | None, total: int
) -> str:
    return (
        f"{unit_title(winner, teams)} wins the rumble in "
        f"{place_name(arena, billboard)} with {total} muscle"
    )


# ----- Fan Phase (R14) -----


@handles(Step.FAN_PHASE)
class FanPhase(Handler):
    def step(self, state: State, task: Task) -> list[Event]:
        state.phase = Phase.FAN
        events: list[Event] = []
        builds = []
        for seat in turn_order(state, state.microphone):
            rage, fans = fanbase_rewards(state, seat)
            me = state.players[seat]
            gained = min(fans, me.supply)
            if gained:
                me = writable_player(state, seat)
                me.supply -= gained
                me.hardcore += gained
            if gained:
                events.append(
                    Event(
                        HARDCORE_FANS_EVENT,
                        (hardcore_text, me.team, seat, gained),
                        seat,
                        -1,
                        gained,
                    )
                )
            builds.append(Task(BUILD_RAGE_STEP, seat, values=[rage]))
        push(state, *builds)
        return events


def hardcore_text(team: int, seat: int, gained: int) -> str:
    return f"{team_name(team, seat)} gains {gained} hardcore fan(s)"


def fanbase_rewards(state: State, seat: int) -> tuple[int, int]:
    """The rage and hardcore fans a player earns for each arena holding 1+ of their crabs."""
    me = state.players[seat]
    places = {c.arena for c in me.crabs}
    rage = fans = 0
    for index, arena in enumerate(state.arenas):
        if index in places:
            reward = me.fanbase[arena.billboard - 1]  # fanbase cards list billboards in order
            rage, fans = rage + reward.rage, fans + reward.fans
    return rage, fans


# ----- Rage Phase (R16) -----


@handles(Step.RAGE_PHASE)
class RagePhase(Handler):
    def step(self, state: State, task: Task) -> list[Event]:
        state.phase = Phase.RAGE
        build = SETUP[state.num_players].rage_phase_build
        order = turn_order(state, state.microphone)
        push(
            state,
            *(Task(BUILD_RAGE_STEP, p, values=[build]) for p in order),
            Task(MICROPHONE_CHECK_STEP),
        )
        return []


@handles(Step.MICROPHONE_CHECK)
class MicrophoneCheck(Handler):
    def step(self, state: State, task: Task) -> list[Event]:
        most = max(p.rage for p in state.players)
        tied = [s for s, p in enumerate(state.players) if p.rage == most]
        if len(tied) == 1:
            return [give_microphone(state, tied[0])]
        units = [1 << s for s in tied]
        state.roll_off = RollOff(standing=units, rolling=list(units))
        push(state, Task(TIE_BREAK_STEP, arena=-1))
        return []


@handles(Step.ROUND_END)
class RoundEnd(Handler):
    def step(self, state: State, task: Task) -> list[Event]:
        if state.round < ROUNDS:
            push(state, Task(ROUND_START_STEP))
            return []
        state.phase = Phase.END_OF_GAME
        arenas = arenas_alphabetical(state)  # R5, R17
        push(state, *(Task(HARDCORE_STEP, arena=a) for a in arenas), Task(SCORING_STEP))
        return []
