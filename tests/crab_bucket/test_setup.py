"""The rulebook's "Setup" (docs/rules/crab_bucket.md, "Setup"): the 8 circle cards are dealt first,
pile 0 to 7, then 3 cards to each player in seat order, each card one chance event (the engine's
"Order of the deal", same file); the Oxi! cards join the draw pile after the deal (B1,
test_b1_players_and_the_oxi_cards.py)."""

from __future__ import annotations

from crabgames.games.crab_bucket import rules, turn
from crabgames.games.crab_bucket.data import DEFAULT_MISSIONS
from crabgames.games.crab_bucket.events import CardDealt
from crabgames.games.crab_bucket.state import (
    Options,
)
from tests.crab_bucket.helpers import (
    QUICK,
)


def test_the_deal_says_where_each_card_went():
    state = rules.new_state(2, Options(QUICK, 0, DEFAULT_MISSIONS, 1))
    first = turn.apply_chance(state, 5)[0]
    assert first == CardDealt(5, pile=0)
    for value in range(6, 6 + 7):
        turn.apply_chance(state, value)
    ninth = turn.apply_chance(state, 20)[0]
    assert ninth == CardDealt(20, player=0)
    assert state.piles[0] == (5,)


def test_after_the_circle_each_player_is_dealt_3_cards_in_seat_order():
    # Three players: cards 8 to 16 of the deal go 3 to player 0, then 3 to player 1, then 3 to
    # player 2 (the engine's "Order of the deal"), not one at a time round the table.
    state = rules.new_state(3, Options(QUICK, 0, DEFAULT_MISSIONS, 1))
    for value in range(8):
        turn.apply_chance(state, value)
    receivers = []
    for value in range(8, 17):
        assert rules.card_receiver(state) == (value - 8) // 3
        receivers.append(turn.apply_chance(state, value)[0].player)
    assert receivers == [0, 0, 0, 1, 1, 1, 2, 2, 2]
    assert state.hands == [(8, 9, 10), (11, 12, 13), (14, 15, 16)]
