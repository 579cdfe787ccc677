"""Smash: "There is no limit to how much rage you can unleash to do this" (R8: cost 1 plus X). At
the rage where X reaches 127 (the last X with its own move id) and one past it, every X the
player can pay is listed once, as a move of its own, and each is legal. Issue 14."""

from __future__ import annotations

from crabgames.games.crab_rage import GAME
from crabgames.games.crab_rage.data import Action
from crabgames.games.crab_rage.moves import MOVE_CLASSES, Act
from tests.crab_rage.helpers import AOTF, BB, BLUE, PC, YELLOW, action_phase, put


def smash(x: int) -> Act:
    return Act(action=Action.SMASH, crab=0, target=(YELLOW, 2), amount=x)


def test_with_128_rage_smash_lists_every_x_from_1_to_127_each_as_a_move():
    for rage in (127, 128, 129):
        state = action_phase(4, (AOTF, PC, BB), rage=rage)
        put(state, BLUE, 0, 0)
        put(state, YELLOW, 2, 0, 6)
        moves = GAME.legal_moves(state)
        assert all(type(m) in MOVE_CLASSES for m in moves), rage
        assert len(moves) == len(list(moves)), rage
        xs = [m.amount for m in moves if isinstance(m, Act) and m.action == Action.SMASH]
        assert xs == list(range(1, rage)), rage  # rage pays X = rage - 1
        assert [moves[i] for i in range(len(moves))] == list(moves), rage
        assert GAME.is_legal(state, smash(rage - 1)) and not GAME.is_legal(state, smash(rage))


def test_above_127_every_crab_of_the_player_may_smash_every_rival_crab_in_its_arena():
    state = action_phase(4, (AOTF, PC, BB), rage=200)
    put(state, BLUE, 0, 0)
    put(state, BLUE, 1, 1)
    put(state, YELLOW, 2, 0, 6)
    put(state, YELLOW, 1, 1, 5)
    moves = GAME.legal_moves(state)
    pairs = sorted(
        {(m.crab, m.target) for m in moves if isinstance(m, Act) and m.action == Action.SMASH}
    )
    assert pairs == [(0, (YELLOW, 2)), (1, (YELLOW, 1))]
    for crab, target in pairs:
        xs = [
            m.amount
            for m in moves
            if isinstance(m, Act) and m.action == Action.SMASH and m.crab == crab
        ]
        assert xs == list(range(1, 200)), (crab, target)
