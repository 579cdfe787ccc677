"""Components (docs/rules/crab_bucket.md, "### Components"): 32 crab cards, numbered 1 to 8 in
each of four colours (red, green, blue, yellow), each once; the Oxi! cards, one per player of up
to five (B1); 18 mission cards in three levels (the default deck, B4)."""

from __future__ import annotations

from itertools import product

from crabgames.games.crab_bucket.data import (
    COLOR_NAMES,
    COLORS,
    CRAB_CARDS,
    DEFAULT_MISSIONS,
    LEVELS,
    MAX_PLAYERS,
    OXI,
    card_id,
    card_name,
    color_of,
    deck_size,
    number_of,
)


def test_32_crab_cards_numbered_1_to_8_in_each_of_four_colours_each_once():
    assert COLOR_NAMES == ("red", "green", "blue", "yellow")
    cards = [(color_of(card), number_of(card)) for card in range(CRAB_CARDS)]
    assert sorted(cards) == list(product(COLORS, range(1, 9)))
    for color, number in cards:
        card = card_id(color, number)
        assert card_name(card) == f"{COLOR_NAMES[color]} {number}"


def test_five_oxi_cards_one_per_player_take_part():
    assert MAX_PLAYERS == 5
    assert [deck_size(n) for n in range(2, MAX_PLAYERS + 1)] == [34, 35, 36, 37]
    assert card_name(OXI) == "Oxi!"


def test_18_mission_cards_in_three_levels():
    assert len(DEFAULT_MISSIONS) == 18
    assert sorted({m.level for m in DEFAULT_MISSIONS}) == list(LEVELS) == [1, 2, 3]
