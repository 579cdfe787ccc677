"""Smash: "There is no limit to how much rage you can unleash to do this" (docs/rules/crab_rage.md,
14). Every X the player can pay is offered and accepted, at any rage; move ids stay a fixed space.
"""

from __future__ import annotations

from crabgames.games.crab_rage import GAME, move_ids
from crabgames.games.crab_rage.data import Action
from crabgames.games.crab_rage.state import Move, MoveKind
from tests.crab_rage.helpers import AOTF, BB, BLUE, PC, YELLOW, act, action_phase, muscles, put


def smash(x: int, crab: int = 0, target=(YELLOW, 2)) -> Move:
    return Move(MoveKind.ACT, action=Action.SMASH, crab=crab, target=target, amount=x)


def smashing(rage: int):
    """Blue's crab 1 and Yellow's crab 3 (muscle 6) share Attack of the Fans; Blue has `rage`."""
    state = action_phase(4, (AOTF, PC, BB), rage=rage)
    put(state, BLUE, 0, 0)
    put(state, YELLOW, 2, 0, 6)
    return state


def test_smash_offers_every_x_the_player_can_pay_above_127():
    state = smashing(200)
    xs = [m.amount for m in GAME.legal_moves(state) if m.action == Action.SMASH]
    assert xs == list(range(1, 200))  # Smash costs 1 plus X (R8): 200 rage pays X = 199
    assert GAME.is_legal(state, smash(128)) and GAME.is_legal(state, smash(199))


def test_a_smash_of_x_above_127_is_played_spending_1_plus_x():
    state = smashing(200)
    act(state, Action.SMASH, 0, target=(YELLOW, 2), amount=150)
    assert state.players[BLUE].rage == 200 - 151
    assert muscles(state, YELLOW)[2] == 1  # muscle never drops below 1 (R3)


def test_a_smash_too_large_to_pay_is_refused_because_of_its_cost():
    state = smashing(200)
    assert not GAME.is_legal(state, smash(200))
    violation = GAME.explain_illegal(state, smash(250))
    assert violation.rule == "R3"
    assert violation.reason == (
        "Smash costs 1 plus X: X = 250 costs 251 rage and you have 200, so X can be at most 199"
    )


def test_smash_at_the_largest_rage_a_state_holds_lists_every_x_without_building_them():
    state = smashing(100_000)
    moves = GAME.legal_moves(state)
    smashes = [m for m in moves if m.action == Action.SMASH]
    assert len(smashes) == 99_999 and smashes[-1] == smash(99_999)
    assert smash(99_999) in moves and smash(100_000) not in moves
    assert moves[len(moves) - 1] == list(moves)[-1]
    assert GAME.is_legal(state, smash(99_999)) and not GAME.is_legal(state, smash(100_000))


def test_smash_ids_give_x_up_to_127_its_own_id_and_share_one_id_per_crab_and_target_above():
    ids = {x: move_ids.move_id(smash(x)) for x in (1, 126, 127, 128, 5000)}
    assert len({ids[1], ids[126], ids[127], ids[128]}) == 4
    assert ids[128] == ids[5000] == move_ids.SMASH_ABOVE + 0 * move_ids.TARGETS + YELLOW * 4 + 2
    other = move_ids.move_id(smash(128, crab=1, target=(YELLOW, 1)))
    assert other != ids[128] and move_ids.SMASH_ABOVE <= other < move_ids.MOVE_ID_COUNT
    assert move_ids.MOVE_ID_COUNT == move_ids.SMASH_ABOVE + move_ids.CRABS * move_ids.TARGETS
