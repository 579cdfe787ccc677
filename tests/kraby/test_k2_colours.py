"""K2: colours (docs/rules/kraby.md, "K2: colours", and the rulebook's "Setup"): with two fishers
only four colours play, 20 tiles each (80 in all), and the colour that sits out, the option
`excluded_color` (pink by default), never enters the game; with three or four fishers all five
colours play, 24 tiles each (120), whatever the option."""

from __future__ import annotations

import pytest

from crabgames.core.errors import InvalidArgument
from crabgames.games.kraby import GAME, rules
from crabgames.games.kraby.data import (
    BLUE,
    GREEN,
    ORANGE,
    PINK,
    TILE_OFFSET,
    YELLOW,
)
from crabgames.games.kraby.state import DEAL, DRAW, GAME_OVER
from crabgames.v1 import kraby_pb2
from crabgames.v1 import kraby_pb2 as pb

COLOR_FIELDS = ("orange", "green", "blue", "yellow", "pink")


def tiles_in_game(state) -> dict[str, int]:
    """Every tile of a fresh game by colour: the bag and all the hands (none on the board yet)."""
    kraby = state.kraby
    return {
        name: getattr(kraby.bag, name) + sum(getattr(hand, name) for hand in kraby.hands)
        for name in COLOR_FIELDS
    }


def new_game(engine, num_players: int, **options):
    state, _ = engine.new_game("kraby", kraby_pb2.KrabyOptions(**options), num_players, seed=4)
    return state


def test_two_players_use_80_tiles_20_per_colour():
    # "With two players, put 80 crab tiles (20 in each of 4 colors) into the bag."
    state = rules.initial_state(2, (PINK, 0))
    assert state.bag == (20, 20, 20, 20, 0)
    assert sum(state.bag) == 80


@pytest.mark.parametrize("num_players", (3, 4))
def test_three_and_four_players_use_all_120_tiles(num_players):
    # "With three players, put all the crab tiles (120) into the bag" (and with four).
    assert rules.initial_state(num_players, (PINK, 0)).bag == (24,) * 5


def test_a_new_two_player_game_holds_80_tiles_dealt_six_to_each_fisher(engine):
    state = new_game(engine, 2)
    assert tiles_in_game(state) == {
        "orange": 20,
        "green": 20,
        "blue": 20,
        "yellow": 20,
        "pink": 0,
    }
    assert [sum(getattr(h, c) for c in COLOR_FIELDS) for h in state.kraby.hands] == [6, 6]
    assert sum(getattr(state.kraby.bag, c) for c in COLOR_FIELDS) == 80 - 12


def test_a_two_player_state_with_a_24th_tile_of_a_colour_is_refused(engine):
    state = new_game(engine, 2)
    state.kraby.bag.orange += 1
    with pytest.raises(InvalidArgument) as caught:
        engine.decode(state)
    violation = caught.value.violations[0]
    assert (
        violation.field == "state.kraby.bag.orange" and "the game has 20" in violation.description
    )


@pytest.mark.parametrize(
    ("excluded", "name"),
    [(ORANGE, "orange"), (GREEN, "green"), (BLUE, "blue"), (YELLOW, "yellow"), (PINK, "pink")],
)
def test_the_option_chooses_which_colour_sits_out_with_two_players(engine, excluded, name):
    state = new_game(engine, 2, excluded_color=excluded)
    counts = tiles_in_game(state)
    assert counts == {c: (0 if c == name else 20) for c in COLOR_FIELDS}
    supply = state.kraby.figure_supply
    assert {c: getattr(supply, c) for c in COLOR_FIELDS} == {
        c: (0 if c == name else 3) for c in COLOR_FIELDS
    }


def test_the_colour_that_sits_out_is_pink_by_default():
    # K2: default pink, as in the option's description.
    assert [o.default for o in GAME.facts.options if o.name == "excluded_color"] == ["pink"]
    assert rules.initial_state(2, (PINK, 0)).bag == (20, 20, 20, 20, 0)


def test_the_colour_that_sits_out_is_pink_when_the_option_is_not_set(engine):
    counts = tiles_in_game(new_game(engine, 2))
    assert counts["pink"] == 0 and counts["blue"] == 20


@pytest.mark.parametrize("num_players", (3, 4))
def test_with_three_or_four_players_no_colour_sits_out_whatever_the_option(engine, num_players):
    state = new_game(engine, num_players, excluded_color=BLUE)
    assert tiles_in_game(state) == dict.fromkeys(COLOR_FIELDS, 24)
    assert rules.initial_state(num_players, (BLUE, 0)).bag == (24,) * 5


def test_the_colour_that_sits_out_never_enters_a_two_player_game(engine):
    # Played to the end with blue sitting out: no blue tile is ever dealt, drawn or placed.
    state = rules.initial_state(2, (BLUE, 0))
    moves = 0
    while state.step != GAME_OVER:
        if state.step in (DEAL, DRAW):
            outcomes = GAME.chance_outcomes(state)
            assert BLUE not in [c for c, _ in outcomes]
            GAME.apply_chance(state, outcomes[moves % len(outcomes)][0])
        else:
            legal = GAME.legal_moves(state)
            assert not any(getattr(m, "color", None) == BLUE for m in legal)
            GAME.apply_move(state, legal[moves % len(legal)])
        moves += 1
    assert pb.KRABY_CELL_BLUE not in state.cells
    assert sum(state.cells.count(c + TILE_OFFSET) for c in (ORANGE, GREEN, YELLOW, PINK))


def test_a_new_two_player_state_keeps_the_colour_that_sits_out():
    state = rules.initial_state(2, (BLUE, 1))
    assert (state.excluded_color, state.first_player) == (BLUE, 1)
    assert GAME.invariant_violations(state) == []
    assert GAME.invariant_violations(rules.initial_state(2, (PINK, 0))) == []
