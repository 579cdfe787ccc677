"""The rulebook's "Setup" (docs/rules/kraby.md, "Setup"): the figures beside the board by number of
fishers (K6: 3 of each colour in play, 2 with four fishers); six tiles dealt to each fisher, in
seat order (the engine's "The deal"), then the first player starts (K7). The tiles in play are
K2's (test_k2_colours.py), the playing area K1's (test_k1_board_and_the_sand_bar.py)."""

from __future__ import annotations

import pytest

from crabgames.core.game import Decision
from crabgames.games.kraby import GAME, rules
from crabgames.games.kraby.data import (
    BLUE,
    ORANGE,
    PINK,
)


@pytest.mark.parametrize(
    ("num_players", "figures"),
    [(2, (3, 3, 3, 3, 0)), (3, (3, 3, 3, 3, 3)), (4, (2, 2, 2, 2, 2))],
)
def test_figures_next_to_the_board_by_number_of_fishers(num_players, figures):
    # Two players: 12 figures, 3 in each colour in the bag; three: all 15; four: 10, 2 each.
    assert rules.initial_state(num_players, (PINK, 0)).figure_supply == figures


def test_the_deal_gives_six_tiles_to_each_fisher_then_the_first_player_starts():
    state = rules.initial_state(3, (5, 2))
    for _ in range(18):
        assert GAME.next_decision(state).name == "deal_tile"
        GAME.apply_chance(state, ORANGE if sum(state.bag[1:]) == 0 else BLUE)
    assert [sum(h) for h in state.hands] == [6, 6, 6]
    assert GAME.next_decision(state) == Decision.player_decides(2, "place_tile")
