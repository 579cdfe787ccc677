"""A Kraby state no legal play could reach is rejected with the field path of the problem."""

from __future__ import annotations

import pytest

from crabgames.core.errors import InvalidArgument
from crabgames.v1 import kraby_pb2


@pytest.fixture
def state(engine):
    state, _ = engine.new_game("kraby", kraby_pb2.KrabyOptions(), 3, seed=99)
    return state


def rejected(engine, state) -> tuple[str, str]:
    with pytest.raises(InvalidArgument) as caught:
        engine.decode(state)
    assert caught.value.reason == "MALFORMED_STATE"
    violation = caught.value.violations[0]
    return violation.field, violation.description


def test_a_valid_state_decodes(engine, state):
    assert engine.decode(state).num_players == 3


def test_the_board_must_have_121_cells(engine, state):
    del state.kraby.cells[-1]
    assert rejected(engine, state)[0] == "state.kraby.cells"


def test_the_island_cannot_move(engine, state):
    state.kraby.cells[60] = kraby_pb2.KRABY_CELL_EMPTY
    assert rejected(engine, state) == ("state.kraby.cells[60]", "must be the island (K1)")


def test_tiles_cannot_appear_from_nowhere(engine, state):
    state.kraby.bag.orange += 1
    field, why = rejected(engine, state)
    assert field == "state.kraby.bag.orange" and "the game has 24" in why


def test_a_hand_holds_at_most_six(engine, state):
    state.kraby.hands[2].blue += 3
    state.kraby.bag.blue -= 3
    assert rejected(engine, state)[0] == "state.kraby.hands[2]"


def test_negative_counts_are_rejected(engine, state):
    state.kraby.bag.pink = -1
    assert rejected(engine, state) == ("state.kraby.bag.pink", "cannot be negative")


def test_a_colour_and_hold_pair_is_on_one_ship_only(engine, state):
    state.kraby.ships[0].hold_x3 = kraby_pb2.KRABY_COLOR_PINK
    state.kraby.ships[1].hold_x3 = kraby_pb2.KRABY_COLOR_PINK
    state.kraby.figure_supply.pink -= 2
    assert rejected(engine, state)[0] == "state.kraby.ships[1].hold_x3"


def test_a_board_with_an_unreachable_hole_is_rejected(engine, state):
    cells = state.kraby.cells
    tile = kraby_pb2.KRABY_CELL_BLUE
    for index in (1 * 11 + 2, 3 * 11 + 2, 2 * 11 + 1, 2 * 11 + 3):
        cells[index] = tile
    state.kraby.bag.blue -= 4
    state.kraby.turns_taken = 4
    field, why = rejected(engine, state)
    assert field == "state.kraby.cells[24]" and "K4" in why


def test_the_turn_counter_matches_the_board(engine, state):
    state.kraby.turns_taken = 3
    assert rejected(engine, state)[0] == "state.kraby.turns_taken"


def test_the_next_decision_must_match_the_state(engine, state):
    state.next.player = 2
    assert rejected(engine, state)[0] == "state.next"


def test_another_rules_version_is_rejected(engine, state):
    state.rules_version = "kraby-0"
    assert rejected(engine, state)[0] == "state.rules_version"


def test_the_player_count_must_fit_the_game(engine, state):
    state.num_players = 5
    assert rejected(engine, state)[0] == "state.num_players"
