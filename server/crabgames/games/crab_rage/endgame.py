"""End of Game: hardcore fans (R17, G4), scoring (R18), winning and the spotlight duel (R19)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, NamedTuple, TypeVar

from crabgames.core.game import Decision
from crabgames.games.crab_rage.events import (
    Cause,
    DieRolled,
    DuelKept,
    DuelRerolled,
    DuelStarted,
    DuelWon,
    Event,
    GameOver,
    Glory,
    HardcoreFansCommitted,
    HardcoreFansRevealed,
    teams_of,
)
from crabgames.games.crab_rage.flow import Handler, current_decision, seat_decisions, top
from crabgames.games.crab_rage.moves import (
    DUEL_KEEP,
    DUEL_REROLL,
    HARDCORE_FANS,
    DuelKeep,
    HardcoreFans,
    Move,
)
from crabgames.games.crab_rage.phases import DIE
from crabgames.games.crab_rage.state import (
    Duel,
    Player,
    State,
    Step,
    Task,
    arenas_alphabetical,
    crab_to_roll,
    push,
    roll_to_keep,
    the_duel,
    turn_order,
    writable_arena,
    writable_player,
)
from crabgames.games.crab_rage.words import team

# Who decides, built once (Decision is an immutable NamedTuple asked for several times a move).
COMMIT_HARDCORE_FANS_BY_SEAT: Final = seat_decisions("commit_hardcore_fans")
SPOTLIGHT_REROLL_BY_SEAT: Final = seat_decisions("spotlight_reroll")
SPOTLIGHT_ROLL_CHANCE: Final = Decision.chance("spotlight_roll")

# ----- 1. Hardcore fans -----


def shouters(state: State, arena: int) -> list[int]:
    """R17: players with at least 1 fan in the arena take part, in turn order."""
    fans = state.arenas[arena].fans
    return [p for p in turn_order(state, state.microphone) if fans[p] > 0]


def asked_to_commit(player: Player) -> bool:
    """R17: a shouter who has not committed yet is asked to; one with no hardcore fans left
    commits 0 unasked."""
    return not player.committed and player.hardcore > 0


def still_to_commit(state: State, arena: int) -> list[int]:
    """R17: the shouters still asked to commit, in turn order (`next_to_commit` first)."""
    players = state.players
    return [p for p in shouters(state, arena) if asked_to_commit(players[p])]


def commitment_stays_secret(state: State, arena: int) -> bool:
    """G4: the commitment about to be made stays hidden only if another is still to come
    after it; the last one is revealed at once together with all the others."""
    return len(still_to_commit(state, arena)) > 1


def decision_hidden_from(state: State) -> list[int]:
    """A hardcore fan commitment is hidden from every other seat until all for that arena
    are in (R17, G4); the last one is revealed at once with the others."""
    task = top(state)
    decision = current_decision(state)
    if decision.name != "commit_hardcore_fans" or task is None:
        return []
    if not commitment_stays_secret(state, task.arena):
        return []
    return [p for p in range(state.num_players) if p != decision.player]


def next_to_commit(state: State, arena: int) -> int:
    """The next player asked to commit (R17), -1 when none is left."""
    for p in shouters(state, arena):
        if asked_to_commit(state.players[p]):
            return p
    return -1


class CommitHardcoreFans(Handler):
    handles = Step.HARDCORE

    def decision(self, state: State, task: Task) -> Decision | None:
        player = next_to_commit(state, task.arena)
        if player < 0:
            return None
        return COMMIT_HARDCORE_FANS_BY_SEAT[player]

    def moves(self, state: State, task: Task) -> list[Move]:
        held = state.players[next_to_commit(state, task.arena)].hardcore
        return [HARDCORE_FANS[n] for n in range(held + 1)]

    def play(self, state: State, task: Task, move: Move) -> list[Event]:
        assert isinstance(move, HardcoreFans)
        player = next_to_commit(state, task.arena)
        me = writable_player(state, player)
        me.committed, me.commitment = True, move.amount  # secret until all are in (G4)
        return [HardcoreFansCommitted(player, task.arena, move.amount, me.team)]

    def step(self, state: State, task: Task) -> list[Event]:
        """All are in: reveal together and add to the arena."""
        events: list[Event] = []
        arena = writable_arena(state, task.arena)
        for p in shouters(state, task.arena):
            me = writable_player(state, p)
            shout = me.commitment if me.committed else 0
            me.hardcore -= shout
            arena.fans[p] += shout
            me.committed, me.commitment = False, 0
            revealed = HardcoreFansRevealed(
                p, task.arena, shout, arena.fans[p], me.team, arena.billboard
            )
            events.append(revealed)
        return events


# ----- 2. Scoring -----


def arena_glory(fans: list[int]) -> list[int]:
    """R18: dense ranking; the most fans gain N glory, the next distinct count N-1, ...; no fans,
    no glory."""
    n = len(fans)
    counts = sorted({f for f in fans if f > 0}, reverse=True)
    return [n - counts.index(f) if f > 0 else 0 for f in fans]


def total_glory(state: State) -> list[int]:
    return [sum(a.glory[p] for a in state.arenas) for p in range(state.num_players)]


class Scoring(Handler):
    handles = Step.SCORING

    def step(self, state: State, task: Task) -> list[Event]:
        events: list[Event] = []
        for index in arenas_alphabetical(state):
            arena = writable_arena(state, index)
            arena.glory = arena_glory(arena.fans)
            for p, glory in enumerate(arena.glory):
                if glory:
                    team = state.players[p].team
                    events.append(Glory(p, index, glory, team, arena.billboard))
        tied = most_glory(state)
        if triggers_a_duel(tied):
            state.duel = Duel(tied, [[] for _ in tied], rerolls=[0] * len(tied))
            push(state, Task(Step.DUEL))
            events.append(DuelStarted(tuple(tied), max(total_glory(state)), teams_of(state)))
        else:
            events.append(game_over(state))
        return events


# ----- 3. Winning the game, and the spotlight duel (R19) -----


def most_glory(state: State) -> list[int]:
    """Winning the Game: "The manager with the most glory over all arenas wins". Those with the
    most glory, in turn order from the microphone holder: the order a tie duels in (R19)."""
    totals = total_glory(state)
    best = max(totals)
    return [p for p in turn_order(state, state.microphone) if totals[p] == best]


def triggers_a_duel(tied: list[int]) -> bool:
    """R19: "In the event of a tie, a spotlight duel is triggered" among the tied."""
    return len(tied) > 1


def duel_totals(duel: Duel) -> list[int]:
    """Each duelist's total muscle rolled so far, in duelist order."""
    return [sum(rolls) for rolls in duel.rolls]


def duel_winners(duel: Duel) -> list[int]:
    """R19: "The player with the highest total muscle wins"; equal totals share the victory."""
    totals = duel_totals(duel)
    best = max(totals)
    return [p for p, total in zip(duel.duelists, totals, strict=True) if total == best]


def winners(state: State) -> list[int]:
    """The most glory wins; a tie, the spotlight duel's winners (R19); in seat order."""
    return sorted(duel_winners(state.duel) if state.duel is not None else most_glory(state))


def game_over(state: State) -> Event:
    """The last step has run: the game is over (flow.advance sets the phase)."""
    return GameOver(tuple(winners(state)), teams_of(state))


def duel_done(state: State) -> bool:
    duel = the_duel(state)
    crabs = len(state.players[0].crabs)
    return not duel.awaiting_keep and all(len(r) == crabs for r in duel.rolls)


class SpotlightDuel(Handler):
    """Duelists roll one crab per turn in turn order; after each roll the roller may unleash 1
    rage to re-roll it, as often as they have rage."""

    handles = Step.DUEL

    def decision(self, state: State, task: Task) -> Decision | None:
        duel = the_duel(state)
        player = duel.duelists[duel.turn]
        if duel.awaiting_keep:
            if state.players[player].rage > 0:
                return SPOTLIGHT_REROLL_BY_SEAT[player]
            return None
        if duel_done(state):
            return None
        return SPOTLIGHT_ROLL_CHANCE

    def moves(self, state: State, task: Task) -> list[Move]:
        return [DUEL_KEEP, DUEL_REROLL]

    def play(self, state: State, task: Task, move: Move) -> list[Event]:
        duel = the_duel(state)
        player = duel.duelists[duel.turn]
        if isinstance(move, DuelKeep):
            return [self.keep(state)]
        me = writable_player(state, player)
        me.rage -= 1
        duel.rerolls[duel.turn] += 1
        ref, rolled = roll_to_keep(duel)
        duel.rolls[duel.turn].pop()
        duel.awaiting_keep = False
        return [DuelRerolled(player, ref, me.rage, rolled, me.team)]

    def keep(self, state: State) -> Event:
        """The roll stands; the next duelist in turn order rolls."""
        duel = the_duel(state)
        ref, kept = roll_to_keep(duel)
        player = ref[0]
        duel.awaiting_keep = False
        duel.turn = (duel.turn + 1) % len(duel.duelists)
        return DuelKept(player, ref, kept, state.players[player].team)

    def outcomes(self, state: State, task: Task) -> list[tuple[int, int]]:
        return DIE

    def resolve(self, state: State, task: Task, value: int) -> list[Event]:
        duel = the_duel(state)
        ref = crab_to_roll(duel)
        player = ref[0]
        duel.rolls[duel.turn].append(value)
        duel.awaiting_keep = True
        team = state.players[player].team
        rolled = DieRolled(value, Cause.SPOTLIGHT_DUEL, None, None, player, ref, (team,), None)
        return [rolled]

    def step(self, state: State, task: Task) -> list[Event]:
        duel = the_duel(state)
        events: list[Event] = []
        if duel.awaiting_keep:  # no rage to re-roll with
            events.append(self.keep(state))
        if not duel_done(state):
            push(state, task)
            return events
        duel.winners = duel_winners(duel)
        won = DuelWon(tuple(duel.winners), max(duel_totals(duel)), teams_of(state))
        return [*events, won, game_over(state)]


# ----- the outcome -----


class ArenaGlory(NamedTuple):
    arena: int
    billboard: int
    fans: list[int]
    glory: list[int]


class Result(NamedTuple):
    glory: list[int]
    ranks: list[int]
    winners: list[int]
    arenas: list[ArenaGlory]  # in alphabetical billboard order (the scoring order)
    duel: Duel | None
    teams: list[str]


Score = TypeVar("Score", int, tuple[int, int])


def ranks_of(scores: Sequence[Score]) -> list[int]:
    """Each score's place: 1 + the number of scores above it, so equal scores share a place and
    the next place skips them (1, 1, 3): the game's ranks, and the season's (R20)."""
    return [1 + sum(other > score for other in scores) for score in scores]


def result(state: State) -> Result:
    """Winners (`winners`) and ranks: 1 + the number of players with more glory, the duel total
    breaking ties among the duelists (rules note 13)."""
    glory = total_glory(state)
    duel_total = [0] * state.num_players
    if state.duel is not None:
        for p, total in zip(state.duel.duelists, duel_totals(state.duel), strict=True):
            duel_total[p] = total
    ranks = ranks_of(list(zip(glory, duel_total, strict=True)))
    arenas = [
        ArenaGlory(
            a, state.arenas[a].billboard, list(state.arenas[a].fans), list(state.arenas[a].glory)
        )
        for a in arenas_alphabetical(state)
    ]
    teams = [team(state, p) for p in range(state.num_players)]
    return Result(glory, ranks, winners(state), arenas, state.duel, teams)
