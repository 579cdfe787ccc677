"""Set-up chance, the Referee, Rumble, Fan and Rage phases, rage builds and mutation (R4-R6,
R14-R16)."""

from __future__ import annotations

from typing import Final

from crabgames.core.game import Decision
from crabgames.games.crab_rage.data import (
    ACTION_CARDS,
    MUTATION_ABOVE,
    ROUNDS,
    SETUP,
    Billboard,
)
from crabgames.games.crab_rage.events import (
    PHASE_STARTED,
    RAGE,
    ActionRevealed,
    BillboardDealt,
    BillboardsRotated,
    Cause,
    DieRolled,
    Event,
    HardcoreFansGained,
    Microphone,
    Mutation,
    OpponentPicked,
    RollOffRolled,
    RollOffStarted,
    RoundStarted,
    RumbleWon,
    billboard_at,
    teams_of,
)
from crabgames.games.crab_rage.flow import Handler, seat_decisions
from crabgames.games.crab_rage.movement import place_fans
from crabgames.games.crab_rage.moves import (
    MUTATION_CRAB,
    RUMBLE_OPPONENT,
    Move,
    MutationCrab,
    RumbleOpponent,
)
from crabgames.games.crab_rage.state import (
    Phase,
    RollOff,
    State,
    Step,
    Task,
    arenas_alphabetical,
    earliest,
    muscle_of,
    push,
    push_all,
    rumble_order,
    seat_steps,
    seats_of,
    standing_unit_of,
    the_roll_off,
    turn_order,
    unit_to_roll,
    units_in,
    writable_arena,
    writable_crab,
    writable_player,
)

# Who decides, built once (Decision is an immutable NamedTuple asked for several times a move).
CHOOSE_MUTATION_CRAB_BY_SEAT: Final = seat_decisions("choose_mutation_crab")
CHOOSE_RUMBLE_OPPONENT_BY_SEAT: Final = seat_decisions("choose_rumble_opponent")
MUTATION_CHOICE_BY_SEAT: Final = seat_steps(Step.MUTATION_CHOICE)  # shared (state.seat_steps)
DEAL_BILLBOARD_CHANCE: Final = Decision.chance("deal_billboard")
MICROPHONE_CHANCE: Final = Decision.chance("microphone")
FLIP_ACTION_CARD_CHANCE: Final = Decision.chance("flip_action_card")
MUTATION_ROLL_CHANCE: Final = Decision.chance("mutation_roll")
RUMBLE_DIE_CHANCE: Final = Decision.chance("rumble_die")
MICROPHONE_DIE_CHANCE: Final = Decision.chance("microphone_die")

DIE = [(face, 1) for face in range(1, 7)]


def start_phase(state: State, phase: Phase) -> Event:
    state.phase = phase
    return PHASE_STARTED[phase]


# ----- set-up -----


class DealBillboard(Handler):
    """R5: billboards are dealt onto the arenas (chance; value = the billboard)."""

    handles = Step.DEAL_BILLBOARD

    def decision(self, state: State, task: Task) -> Decision | None:
        return DEAL_BILLBOARD_CHANCE

    def outcomes(self, state: State, task: Task) -> list[tuple[int, int]]:
        return [(b, 1) for b in sorted(state.billboards_to_deal)]

    def resolve(self, state: State, task: Task, value: int) -> list[Event]:
        state.pending.pop()
        state.billboards_to_deal.remove(value)
        writable_arena(state, task.arena).billboard = value
        return [BillboardDealt(task.arena, value)]


class FirstMicrophone(Handler):
    """R6: the round-1 microphone holder (chance; value = the seat)."""

    handles = Step.MICROPHONE

    def decision(self, state: State, task: Task) -> Decision | None:
        return MICROPHONE_CHANCE

    def outcomes(self, state: State, task: Task) -> list[tuple[int, int]]:
        return [(seat, 1) for seat in range(state.num_players)]

    def resolve(self, state: State, task: Task, value: int) -> list[Event]:
        state.pending.pop()
        return [give_microphone(state, value, Cause.SET_UP)]


def give_microphone(state: State, seat: int, cause: int) -> Event:
    state.microphone = seat
    return Microphone(seat, cause, state.players[seat].team)


# ----- the round -----


class RoundStart(Handler):
    handles = Step.ROUND_START

    def step(self, state: State, task: Task) -> list[Event]:
        state.round += 1
        state.used_actions = []
        for seat, player in enumerate(state.players):
            if player.passed:
                writable_player(state, seat).passed = False
        events = [
            RoundStarted(state.round),
            start_phase(state, Phase.REFEREE),
        ]
        push(
            state,
            Task(Step.FLIP_ACTION),
            Task(Step.ACTION_TURN, state.microphone),
            Task(Step.RUMBLE_PHASE),
            Task(Step.FAN_PHASE),
            Task(Step.RAGE_PHASE),
            Task(Step.ROUND_END),
        )
        return events


def unrevealed_cards(state: State) -> list[int]:
    return [a for a in sorted(ACTION_CARDS) if a not in state.action_cards]


class FlipAction(Handler):
    """New Rules: a card from the unrevealed ones (G2: no stored order; value = the action)."""

    handles = Step.FLIP_ACTION

    def decision(self, state: State, task: Task) -> Decision | None:
        return FLIP_ACTION_CARD_CHANCE

    def outcomes(self, state: State, task: Task) -> list[tuple[int, int]]:
        return [(a, 1) for a in unrevealed_cards(state)]

    def resolve(self, state: State, task: Task, value: int) -> list[Event]:
        state.pending.pop()
        state.action_cards.append(value)
        events: list[Event] = [ActionRevealed(value)]
        if state.round > 1:  # B. Billboard Rotation follows A. New Rules, from round 2 (R5)
            events.append(rotate_billboards(state))
        events.append(start_phase(state, Phase.ACTION))
        return events


def rotate_billboards(state: State) -> Event:
    """R5, Billboard Rotation: move the billboards one arena clockwise."""
    boards = [a.billboard for a in state.arenas]
    for index in range(len(state.arenas)):
        writable_arena(state, index).billboard = boards[index - 1]
    rotated = tuple([a.billboard for a in state.arenas])
    return BillboardsRotated(rotated)


# ----- rage and mutation (R4) -----


# What builds rage in each phase (R4): only Pressure Cooker does in the Action Phase.
RAGE_CAUSE: Final = {
    Phase.ACTION: (Cause.BILLBOARD, Billboard.PRESSURE_COOKER),
    Phase.RUMBLE: (Cause.RUMBLE, 0),
    Phase.FAN: (Cause.FAN_PHASE, 0),
    Phase.RAGE: (Cause.RAGE_PHASE, 0),
}


class BuildRage(Handler):
    handles = Step.BUILD_RAGE

    def step(self, state: State, task: Task) -> list[Event]:
        amount = task.values[0]
        if amount <= 0:
            return []
        me = writable_player(state, task.player)
        me.rage += amount
        if me.rage > MUTATION_ABOVE:  # R4: one build event, however many tokens
            push(state, MUTATION_CHOICE_BY_SEAT[task.player])
        why = RAGE_CAUSE.get(state.phase, (0, 0))
        arena = task.arena if task.arena >= 0 else None
        return [RAGE(task.player, amount, me.rage, arena, why, me.team)]


class ChooseMutationCrab(Handler):
    handles = Step.MUTATION_CHOICE

    def decision(self, state: State, task: Task) -> Decision | None:
        return CHOOSE_MUTATION_CRAB_BY_SEAT[task.player]

    def moves(self, state: State, task: Task) -> list[Move]:
        crabs = state.players[task.player].crabs
        return [MUTATION_CRAB[i] for i in range(len(crabs))]

    def play(self, state: State, task: Task, move: Move) -> list[Event]:
        assert isinstance(move, MutationCrab)
        state.pending.pop()
        push(state, Task(Step.MUTATION_ROLL, task.player, crabs=[(task.player, move.crab)]))
        return []


class MutationRoll(Handler):
    """Chance; value = the die face, the crab's new muscle."""

    handles = Step.MUTATION_ROLL

    def decision(self, state: State, task: Task) -> Decision | None:
        return MUTATION_ROLL_CHANCE

    def outcomes(self, state: State, task: Task) -> list[tuple[int, int]]:
        return DIE

    def resolve(self, state: State, task: Task, value: int) -> list[Event]:
        state.pending.pop()
        ref = task.crabs[0]
        c = writable_crab(state, ref)
        before, c.muscle = c.muscle, value
        team = state.players[ref[0]].team
        return [Mutation(ref[0], ref, value, value - before, value, team)]


# ----- Rumble Phase (R15) -----


class RumblePhase(Handler):
    handles = Step.RUMBLE_PHASE

    def step(self, state: State, task: Task) -> list[Event]:
        push(state, *(Task(Step.RUMBLE, arena=a) for a in rumble_order(state)))
        return [start_phase(state, Phase.RUMBLE)]


class Rumble(Handler):
    handles = Step.RUMBLE

    def step(self, state: State, task: Task) -> list[Event]:
        units = units_in(state, task.arena)
        if not units:
            return []
        muscles = [muscle_of(state, u, task.arena) for u in units]
        best = max(muscles)
        tied = [u for u, m in zip(units, muscles, strict=True) if m == best]
        if len(tied) == 1:
            push(state, Task(Step.RUMBLE_RESULT, arena=task.arena, values=tied))
            return []
        return start_roll_off(state, task.arena, tied, tied if len(tied) == 2 else [])


def start_roll_off(
    state: State, arena: int, standing: list[int], rolling: list[int]
) -> list[Event]:
    """A tie is rolled off (R15 in a rumble's `arena`, R16 for the microphone: arena -1)."""
    state.roll_off = RollOff(standing=standing, rolling=rolling)
    push(state, Task(Step.TIE_BREAK, arena=arena))
    started = RollOffStarted(
        arena if arena >= 0 else None,
        units_of(standing),
        units_of(rolling),
        teams_of(state),
        billboard_at(state, arena),
        -1 if rolling else picker(state),
    )
    return [started]


def units_of(units: list[int]) -> tuple[tuple[int, ...], ...]:
    """Units (bit sets) as the seats of each, to capture for an event."""
    return tuple([seats_of(u) for u in units])


class TieBreak(Handler):
    """R15 rumble ties (two units roll off; with three or more the earliest tied manager picks an
    opponent) and R16 microphone ties (all tied roll; the tied highest roll again)."""

    handles = Step.TIE_BREAK

    def decision(self, state: State, task: Task) -> Decision | None:
        ro = the_roll_off(state)
        if ro.rolling and len(ro.dice) < len(ro.rolling):
            return RUMBLE_DIE_CHANCE if task.arena >= 0 else MICROPHONE_DIE_CHANCE
        if not ro.rolling:
            return CHOOSE_RUMBLE_OPPONENT_BY_SEAT[picker(state)]
        return None

    def moves(self, state: State, task: Task) -> list[Move]:
        mine = picker_unit(state)
        return [RUMBLE_OPPONENT[seats_of(u)[0]] for u in the_roll_off(state).standing if u != mine]

    def play(self, state: State, task: Task, move: Move) -> list[Event]:
        assert isinstance(move, RumbleOpponent)
        ro = the_roll_off(state)
        opponent = standing_unit_of(ro, move.partner)
        ro.rolling = [picker_unit(state), opponent]
        picked = OpponentPicked(
            picker(state),
            task.arena,
            units_of(ro.rolling),
            teams_of(state),
            billboard_at(state, task.arena),
        )
        return [picked]

    def outcomes(self, state: State, task: Task) -> list[tuple[int, int]]:
        return DIE

    def resolve(self, state: State, task: Task, value: int) -> list[Event]:
        ro = the_roll_off(state)
        unit = unit_to_roll(ro)
        ro.dice.append(value)
        rolled = DieRolled(
            value,
            Cause.ROLL_OFF,
            seats_of(unit),
            task.arena if task.arena >= 0 else None,
            None,
            None,
            teams_of(state),
            billboard_at(state, task.arena),
        )
        return [rolled]

    def step(self, state: State, task: Task) -> list[Event]:
        ro = the_roll_off(state)
        high = max(ro.dice)
        top = [u for u, d in zip(ro.rolling, ro.dice, strict=True) if d == high]
        ro.standing = [u for u in ro.standing if u in top or u not in ro.rolling]
        ro.dice = []
        winner = 0
        if len(top) > 1:
            ro.rolling = top
        elif len(ro.standing) == 1:
            state.roll_off = None
            winner = top[0]
        else:
            ro.rolling = ro.standing if len(ro.standing) == 2 else []
        rolled = RollOffRolled(
            task.arena if task.arena >= 0 else None,
            high,
            units_of(ro.standing) if not winner else (),
            units_of(ro.rolling) if not winner else (),
            seats_of(winner) if winner else None,
            teams_of(state),
            billboard_at(state, task.arena),
        )
        events: list[Event] = [rolled]
        if winner:
            return events + self.finish(state, task, winner)
        push(state, task)
        return events

    def finish(self, state: State, task: Task, winner: int) -> list[Event]:
        if task.arena >= 0:
            push(state, Task(Step.RUMBLE_RESULT, arena=task.arena, values=[winner]))
            return []
        return [give_microphone(state, seats_of(winner)[0], Cause.ROLL_OFF)]


def picker(state: State) -> int:
    """R15: the earliest tied manager in turn order picks the opponent."""
    return earliest(state, [s for u in the_roll_off(state).standing for s in seats_of(u)])


def picker_unit(state: State) -> int:
    return standing_unit_of(the_roll_off(state), picker(state))


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


RUMBLE_WHY: Final = (Cause.RUMBLE, 0)


class RumbleResult(Handler):
    handles = Step.RUMBLE_RESULT

    def step(self, state: State, task: Task) -> list[Event]:
        arena, winner = task.arena, task.values[0]
        seats = seats_of(winner)
        total = muscle_of(state, winner, arena)
        crabs_there = [[c.arena for c in p.crabs].count(arena) for p in state.players]  # by seat
        fans = sum(crabs_there)
        won = RumbleWon(seats, arena, total, teams_of(state), billboard_at(state, arena))
        events: list[Event] = [won]
        for seat, share in zip(
            seats, alliance_shares(state, list(seats), arena, fans), strict=True
        ):
            events.extend(place_fans(state, seat, arena, share, RUMBLE_WHY))
        losers = [p for p in turn_order(state, state.microphone) if not winner >> p & 1]
        builds = [
            Task(Step.BUILD_RAGE, p, arena, values=[crabs_there[p]])
            for p in losers
            if crabs_there[p]
        ]
        push_all(state, builds)
        return events


# ----- Fan Phase (R14) -----


class FanPhase(Handler):
    handles = Step.FAN_PHASE

    def step(self, state: State, task: Task) -> list[Event]:
        events = [start_phase(state, Phase.FAN)]
        builds = []
        for seat in turn_order(state, state.microphone):
            rage, fans = fanbase_rewards(state, seat)
            me = state.players[seat]
            gained = min(fans, me.supply)
            if gained:
                me = writable_player(state, seat)
                me.supply -= gained
                me.hardcore += gained
                events.append(HardcoreFansGained(seat, gained, me.hardcore, me.team))
            builds.append(Task(Step.BUILD_RAGE, seat, values=[rage]))
        push_all(state, builds)
        return events


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


class RagePhase(Handler):
    handles = Step.RAGE_PHASE

    def step(self, state: State, task: Task) -> list[Event]:
        started = start_phase(state, Phase.RAGE)
        build = SETUP[state.num_players].rage_phase_build
        order = turn_order(state, state.microphone)
        push(
            state,
            *(Task(Step.BUILD_RAGE, p, values=[build]) for p in order),
            Task(Step.MICROPHONE_CHECK),
        )
        return [started]


class MicrophoneCheck(Handler):
    handles = Step.MICROPHONE_CHECK

    def step(self, state: State, task: Task) -> list[Event]:
        most = max(p.rage for p in state.players)
        tied = [s for s, p in enumerate(state.players) if p.rage == most]
        if len(tied) == 1:
            return [give_microphone(state, tied[0], Cause.RAGE_PHASE)]
        units = [1 << s for s in tied]
        return start_roll_off(state, -1, units, list(units))  # R16


class RoundEnd(Handler):
    handles = Step.ROUND_END

    def step(self, state: State, task: Task) -> list[Event]:
        if state.round < ROUNDS:
            push(state, Task(Step.ROUND_START))
            return []
        started = start_phase(state, Phase.END_OF_GAME)
        arenas = arenas_alphabetical(state)  # R5, R17
        push(state, *(Task(Step.HARDCORE, arena=a) for a in arenas), Task(Step.SCORING))
        return [started]
