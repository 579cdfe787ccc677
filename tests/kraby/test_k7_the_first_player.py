"""K7: the first player (docs/rules/kraby.md, "K7: the first player"): the rulebook's "youngest
player" is the game option `first_player`, seat 0 when it is not given. The deal itself goes seat
by seat from seat 0 (test_setup.py); the option says who places the first tile after it."""

from __future__ import annotations

import pytest

from crabgames.core.engine import Engine
from crabgames.games.kraby import GAME
from crabgames.v1 import kraby_pb2 as pb

ENGINE = Engine([GAME])


@pytest.mark.parametrize("num_players", (2, 3, 4))
def test_the_first_player_option_names_the_fisher_who_places_the_first_tile(num_players):
    for seat in range(num_players):
        state, _ = ENGINE.new_game("kraby", pb.KrabyOptions(first_player=seat), num_players, 7)
        assert state.kraby.turn_player == seat
        assert ENGINE.view(state, None).kraby.decision.player == seat


@pytest.mark.parametrize("num_players", (2, 3, 4))
def test_without_the_option_seat_0_places_the_first_tile(num_players):
    state, _ = ENGINE.new_game("kraby", pb.KrabyOptions(), num_players, 7)
    assert state.kraby.turn_player == 0
