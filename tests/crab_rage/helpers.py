"""Helpers for CRAB RAGE! tests: build states directly, play moves, resolve chance explicitly."""

from __future__ import annotations

import random
from dataclasses import replace

from crabgames.core.engine import AUTO, Engine, Match
from crabgames.core.game import CHANCE, NOBODY
from crabgames.core.prng import Prng
from crabgames.games.crab_rage import GAME
from crabgames.games.crab_rage.data import Action, Billboard
from crabgames.games.crab_rage.flow import advance
from crabgames.games.crab_rage.messages import EVENT_FIELDS
from crabgames.games.crab_rage.moves import (
    Act,
    Alliance,
    AllianceChoice,
    DuelKeep,
    HardcoreFans,
    Move,
)
from crabgames.games.crab_rage.setup import default_options, initial_state
from crabgames.games.crab_rage.state import Phase, State, Step, Task
from crabgames.v1 import crab_rage_pb2 as pb
from crabgames.v1 import game_pb2

BLUE, YELLOW, GREEN, BLACK, PURPLE = range(5)  # seats with the default colours (R1)
MM = Billboard.MEGA_MUSCLE
AOTF = Billboard.ATTACK_OF_THE_FANS
PC = Billboard.PRESSURE_COOKER
BB = Billboard.BARNACLE_BRAWL


def random_game(num_players: int, seed: int, check=None, max_steps: int = 20000) -> State:
    """Play a whole game with random decisions and random chance outcomes."""
    rng = random.Random(seed)
    state = initial_state(num_players, default_options(num_players))
    for _ in range(max_steps):
        decision = GAME.next_decision(state)
        if decision.kind == NOBODY:
            return state
        if decision.kind == CHANCE:
            values = [v for v, _ in GAME.chance_outcomes(state)]
            GAME.apply_chance(state, rng.choice(values))
        else:
            moves = GAME.legal_moves(state)
            assert moves, decision
            GAME.apply_move(state, rng.choice(moves))
        if check:
            check(state)
    raise AssertionError("the game did not end")


def action_phase(
    num_players: int,
    billboards: tuple[int, ...],
    microphone: int = 0,
    card: int = Action.RUSH,
    rage: int | None = None,
    teams: tuple[int, ...] = (),
) -> State:
    """Round 1, Action Phase, with the billboards dealt in arena order and `card` revealed
    (`teams`: the team colour by seat, default blue, yellow, green, black, purple)."""
    options = replace(default_options(num_players, teams), microphone=microphone)
    if len(billboards) == 3:
        options = replace(options, billboards=tuple(billboards))
    state = initial_state(num_players, options)
    chance(state, *billboards, card)
    if rage is not None:
        for player in state.players:
            player.rage = rage
    return state


def put(state: State, player: int, crab: int, arena: int, muscle: int | None = None) -> None:
    """Place a crab as at set-up (no movement rules, no billboard)."""
    c = state.players[player].crabs[crab]
    c.arena = arena
    if muscle is not None:
        c.muscle = muscle


def ally(state: State, arena: int, a: int, b: int) -> None:
    state.arenas[arena].partner[a] = b
    state.arenas[arena].partner[b] = a


def run(state: State, *tasks: Task) -> list:
    """Replace the pending stack with `tasks` (first runs first) and run to a decision."""
    state.pending = list(reversed(tasks))
    return advance(state)


def play(state: State, move: Move) -> list:
    assert GAME.is_legal(state, move), (move, GAME.legal_moves(state))
    return GAME.apply_move(state, move)


def act(state: State, action: int, crab: int, **fields) -> list:
    return play(state, Act(action=action, crab=crab, **fields))


def chance(state: State, *values: int) -> list:
    events = []
    for value in values:
        decision = GAME.next_decision(state)
        assert decision.kind == CHANCE, decision
        assert value in [v for v, _ in GAME.chance_outcomes(state)], (value, decision)
        events += GAME.apply_chance(state, value)
    return events


def decision(state: State) -> tuple[int, str]:
    d = GAME.next_decision(state)
    return d.player, d.name


def muscles(state: State, player: int) -> list[int]:
    return [c.muscle for c in state.players[player].crabs]


def smash(x: int, crab: int = 0, target=(YELLOW, 2)) -> Move:
    return Act(action=Action.SMASH, crab=crab, target=target, amount=x)


def smashing(rage: int):
    """Blue's crab 1 and Yellow's crab 3 (muscle 6) share Attack of the Fans; Blue has `rage`."""
    state = action_phase(4, (AOTF, PC, BB), rage=rage)
    put(state, BLUE, 0, 0)
    put(state, YELLOW, 2, 0, 6)
    return state


INDEPENDENT = Alliance(alliance=AllianceChoice.INDEPENDENT)


def form(partner: int) -> Move:
    return Alliance(alliance=AllianceChoice.FORM, partner=partner)


def boost(partner: int) -> Move:
    return Alliance(alliance=AllianceChoice.BOOST, partner=partner)


def where(state, player):
    return [c.arena for c in state.players[player].crabs]


def offered(state, action: int) -> list[Move]:
    return [m for m in GAME.legal_moves(state) if m.kind == "act" and m.action == action]


def four_managers() -> State:
    """Round 1's Action Phase with 4 managers (3 arenas, 3 crabs each, all backstage): a turn
    is pending, no crab is entering an arena."""
    state = action_phase(4, (MM, AOTF, PC))
    assert len(state.arenas) == 3
    assert all(t.kind not in (Step.ENTER, Step.DESTINATIONS) for t in state.pending)
    return state


def problems(state: State) -> list[str]:
    return GAME.invariant_violations(state)


def kinds(events) -> list[str]:
    return [e.kind for e in events]


ENGINE = Engine([GAME])


def new_game(n=4, **options):
    state, _ = ENGINE.new_game("crab_rage", pb.CrabRageOptions(**options), n, seed=11)
    return state


def set_fans(state, arena: int, fans: dict[int, int]) -> None:
    for seat, count in fans.items():
        state.arenas[arena].fans[seat] = count
        state.players[seat].supply -= count


def set_hardcore(state, hardcore: dict[int, int]) -> None:
    for seat, count in hardcore.items():
        state.players[seat].hardcore = count
        state.players[seat].supply -= count


def mega_muscle_shout_out():
    """Green, Black and Purple have fans in Mega Muscle; Blue has none there."""
    state = action_phase(5, (MM, AOTF, PC, BB), microphone=BLUE)
    end_of_game(state)
    set_fans(state, 0, {GREEN: 5, BLACK: 4, PURPLE: 5})
    set_fans(state, 1, {BLUE: 3})
    set_hardcore(state, {GREEN: 3, BLACK: 4, PURPLE: 5, BLUE: 2})
    run(state, Task(Step.HARDCORE, arena=0), Task(Step.SCORING))
    return state


def end_of_game(state) -> None:
    """After round 4: every action card revealed and every player passed."""
    state.round, state.phase = 4, Phase.END_OF_GAME
    state.action_cards = [5, 6, 7, 8]
    for player in state.players:
        player.passed = True


def commit(state, amount: int) -> None:
    play(state, HardcoreFans(amount=amount))


def game_state(state) -> game_pb2.GameState:
    return ENGINE.encode(Match(GAME, state.num_players, 7, Prng(7), AUTO, 0, state))


def duel_state(microphone: int = BLACK):
    """Purple and Black tie with 12 glory each."""
    state = action_phase(5, (MM, AOTF, PC, BB), microphone=microphone)
    state.round, state.phase = 4, Phase.END_OF_GAME
    set_fans(state, 0, {PURPLE: 9, BLACK: 8})  # Purple 5, Black 4
    set_fans(state, 1, {BLACK: 9, PURPLE: 8})  # Black 5, Purple 4
    set_fans(state, 2, {BLUE: 9, YELLOW: 8, PURPLE: 5, BLACK: 5})  # Purple and Black 3 each
    set_fans(state, 3, {GREEN: 1})
    state.players[BLACK].rage, state.players[PURPLE].rage = 1, 0
    run(state, Task(Step.SCORING))
    return state


def both_duelists_keep_threes_to_the_last_roll(state) -> None:
    """Black and Purple roll 3 with each crab and keep it, up to Purple's last crab."""
    chance(state, 3)
    play(state, DuelKeep())
    chance(state, 3, 3)
    play(state, DuelKeep())
    chance(state, 3, 3)
    play(state, DuelKeep())


def after_round_4(microphone: int, billboards=(MM, AOTF, PC)) -> State:
    """After round 4 with 4 managers (end_of_game)."""
    state = action_phase(4, billboards, microphone=microphone)
    end_of_game(state)
    return state


def give(state: State, arena: int, seat: int, fans: int, hardcore: int = 0) -> None:
    state.arenas[arena].fans[seat] = fans
    state.players[seat].hardcore = hardcore
    state.players[seat].supply -= fans + hardcore


def three_way_duel(microphone: int):
    """Blue, Yellow and Green each come first, second and third in one of arenas A-C (5 + 4 +
    3 = 12 glory each, R18); Black has the only fans in D (5 glory): a three-way tie."""
    state = action_phase(5, (MM, AOTF, PC, BB), microphone=microphone)
    state.round, state.phase = 4, Phase.END_OF_GAME
    set_fans(state, 0, {BLUE: 3, YELLOW: 2, GREEN: 1})
    set_fans(state, 1, {YELLOW: 3, GREEN: 2, BLUE: 1})
    set_fans(state, 2, {GREEN: 3, BLUE: 2, YELLOW: 1})
    set_fans(state, 3, {BLACK: 1})
    for player in state.players:
        player.rage = 0  # no re-rolls: every roll is kept at once (rules note 12)
    run(state, Task(Step.SCORING))
    return state


def event_fields(event: object) -> dict[str, object]:
    """The CrabRageEvent fields the event sets (but its kind), as native values: read as the
    event encoder reads them (messages.EVENT_FIELDS)."""
    fields = {name: read(event) for name, read in EVENT_FIELDS.items()}
    return {name: value for name, value in fields.items() if value is not None}
