"""Smash (docs/rules/crab_rage.md, "#### Smash", with R3, R8 and rules note 14): arena only,
cost 1 plus X; X rage off one rival crab in this arena, never below 1 muscle. "There is no limit
to how much rage you can unleash to do this": every X the player can pay is offered and
accepted, at any rage, and one it cannot pay is refused for its cost; move ids stay a fixed
space (X up to 127 has its own id, a larger X one id per crab and target), and a turn lists the
X above 127 lazily (`actions.SmashRow`, `actions.Listing`)."""

from __future__ import annotations

from crabgames.games.crab_rage import GAME, move_ids
from crabgames.games.crab_rage.data import Action
from crabgames.games.crab_rage.moves import MOVE_CLASSES, Act, Move
from tests.crab_rage.helpers import (
    AOTF,
    BB,
    BLUE,
    PC,
    YELLOW,
    act,
    action_phase,
    muscles,
    put,
    smash,
    smashing,
)


def test_smash_costs_1_plus_x_and_muscle_never_drops_below_1():
    state = action_phase(4, (AOTF, PC, BB))
    put(state, BLUE, 0, 0)
    put(state, YELLOW, 2, 0, 3)
    xs = sorted(
        m.amount for m in GAME.legal_moves(state) if isinstance(m, Act) and m.action == Action.SMASH
    )
    assert xs == [1, 2, 3, 4, 5]  # X from 1 to what 6 rage can pay (R8)
    act(state, Action.SMASH, 0, target=(YELLOW, 2), amount=4)
    assert muscles(state, YELLOW)[2] == 1
    assert state.players[BLUE].rage == 1


def test_smash_offers_every_x_the_player_can_pay_above_127():
    state = smashing(200)
    xs = [
        m.amount for m in GAME.legal_moves(state) if isinstance(m, Act) and m.action == Action.SMASH
    ]
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
    smashes = [m for m in moves if isinstance(m, Act) and m.action == Action.SMASH]
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


def every_smash(crab: int, target, top: int) -> list[Move]:
    """What a Smash row lists, written out: crab `crab` on `target` for X from 1 to `top`."""
    return [smash(x, crab, target) for x in range(1, top + 1)]


def test_a_smash_row_lists_every_x_from_1_to_the_top_as_a_list_would():
    from crabgames.games.crab_rage.actions import KEPT_X, SmashRow

    for top in (KEPT_X - 2, KEPT_X, KEPT_X + 5):
        row, written = SmashRow(1, (YELLOW, 2), top), every_smash(1, (YELLOW, 2), top)
        assert len(row) == top and list(row) == written
        assert [row[k] for k in range(-top, top)] == written + written
        for k in (top, -top - 1):
            try:
                row[k]
            except IndexError:
                continue
            raise AssertionError(f"row[{k}] of {top} moves")
        assert row[KEPT_X - 3 : KEPT_X + 3] == written[KEPT_X - 3 : KEPT_X + 3]
        assert row[::-7] == written[::-7]
        assert all(move in row for move in written)
        others = [
            smash(0, 1),
            smash(top + 1, 1),
            smash(5, 0),  # another crab
            smash(5, 1, (YELLOW, 1)),  # another target
            smash(5, 1)._replace(arena=1),
            smash(5, 1)._replace(partner=1),
            smash(5, 1)._replace(action=Action.RAGE),
            smash(5, 1)._replace(amount=5.0),
            "not a move",
        ]
        assert not any(move in row for move in others)


def test_a_turns_listing_reads_as_its_parts_one_after_another():
    from crabgames.games.crab_rage.actions import KEPT_X, Listing, SmashRow

    head, tail = every_smash(0, (YELLOW, 0), 3), every_smash(2, (YELLOW, 1), 2)
    row = SmashRow(1, (YELLOW, 2), KEPT_X + 4)
    listing = Listing([head, row, [], tail])
    written = head + every_smash(1, (YELLOW, 2), KEPT_X + 4) + tail
    assert len(listing) == len(written) and list(listing) == written
    assert listing == written and listing != written[:-1] and listing != 7
    assert [listing[k] for k in range(-len(written), len(written))] == written + written
    for k in (len(written), -len(written) - 1):
        try:
            listing[k]
        except IndexError:
            continue
        raise AssertionError(f"listing[{k}]")
    assert listing[1:9] == written[1:9] and listing[-3:] == written[-3:]
    assert all(move in listing for move in written)
    assert smash(1, 3) not in listing
    assert len(Listing([])) == 0 and list(Listing([])) == []


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
