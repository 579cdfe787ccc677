"""Helpers for CRAB RAGE! tests: build states directly, play moves, resolve chance explicitly."""

from __future__ import annotations

import random
from dataclasses import replace

from crabgames.core.game import CHANCE, NOBODY
from crabgames.games.crab_rage import GAME
from crabgames.games.crab_rage.data import Action, Billboard
from crabgames.games.crab_rage.flow import advance
from crabgames.games.crab_rage.moves import Act, Alliance, AllianceChoice, Move
from crabgames.games.crab_rage.setup import default_options, initial_state
from crabgames.games.crab_rage.state import State, Step, Task

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
