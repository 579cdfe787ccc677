"""B2: the circle (docs/rules/crab_bucket.md, "B2: the circle"): every card on a pile was dealt or
played face up, so sampling a state from a view, or drawing a state's hidden information again,
keeps every pile exactly and draws only the other hands and the draw pile; a view's pile cards
must agree with its top, height and Oxi! count. (A view showing every card of every pile is
checked with the views, test_views.py; a pile number outside 0 to 7, with G3's decisions,
test_g3_one_decision_at_a_time.py.)"""

from __future__ import annotations

import random

import pytest

from crabgames.core.errors import InvalidArgument
from crabgames.games.crab_bucket import GAME, rules
from crabgames.v1 import crab_bucket_pb2 as pb
from tests.crab_bucket.helpers import (
    EXAMPLE,
    MEETS_EXAMPLE,
    card,
    card_message,
    position,
)

# Buried crab cards, a buried Oxi! and an Oxi! top (both of 2 players' Oxi! cards), one pile empty.
PILES = [
    ["blue 1", "green 2", "red 8"],
    ["red 7"],
    ["oxi", "green 1", "green 8"],
    [],
    ["blue 2", "yellow 8", "oxi"],
    ["red 5", "red 6"],
    ["blue 8"],
    ["yellow 1", "red 3", "red 4"],
]


HANDS = {0: ["red 1", "blue 3", "green 3"], 1: ["yellow 3", "yellow 4", "green 5"]}


def view_of(state, player) -> pb.CrabBucketView:
    msg = pb.CrabBucketView()
    GAME.codec.encode_view(state, player, msg)
    return msg


def sampled(view: pb.CrabBucketView, player: int, seed: int):
    return GAME.state_from_view(view, player, 2, random.Random(seed))


def test_b2_a_sampled_state_keeps_every_pile_exactly():
    state = position(PILES, HANDS, num_players=2)
    for player in (0, 1):
        view = view_of(state, player)
        for seed in range(20):
            sample = sampled(view, player, seed)
            assert sample.piles == state.piles  # never redrawn (B2)
            assert sample.hands[player] == state.hands[player]


def test_b2_only_the_other_hand_and_the_draw_pile_are_drawn_from_the_unseen_cards():
    state = position(PILES, HANDS, num_players=2)
    view = view_of(state, 0)
    others = set()
    for seed in range(20):
        sample = sampled(view, 0, seed)
        hidden = list(sample.hands[1]) + [
            c for c, n in enumerate(sample.draw_pile) for _ in range(n)
        ]
        expected = list(state.hands[1]) + [
            c for c, n in enumerate(state.draw_pile) for _ in range(n)
        ]
        assert sorted(hidden) == sorted(expected)  # the same unseen cards, dealt again
        others.add(sample.hands[1])
    assert len(others) > 1  # and they are drawn at random


def test_b2_resampling_a_state_keeps_every_pile_exactly():
    state = position(PILES, HANDS, num_players=2)
    for viewer in (0, 1, None):
        for seed in range(20):
            new = GAME.resample_hidden(state, viewer, random.Random(seed))
            assert new.piles == state.piles


def refused_at(view: pb.CrabBucketView) -> str:
    with pytest.raises(InvalidArgument) as error:
        sampled(view, 0, 1)
    return error.value.violations[0].field


def test_b2_a_view_whose_pile_cards_do_not_match_its_height_is_refused():
    view = view_of(position(PILES, HANDS, num_players=2), 0)
    del view.piles[0].cards[0]
    assert refused_at(view) == "view.crab_bucket.piles[0].cards"


def test_b2_a_view_whose_pile_cards_end_under_another_top_is_refused():
    view = view_of(position(PILES, HANDS, num_players=2), 0)
    view.piles[0].cards[-1].CopyFrom(card_message(card("red 1")))  # the viewer's own card, too
    assert refused_at(view) == "view.crab_bucket.piles[0].top"


def test_b2_a_view_whose_pile_cards_hide_an_oxi_it_counts_is_refused():
    view = view_of(position(PILES, HANDS, num_players=2), 0)
    view.piles[2].cards[0].CopyFrom(card_message(card("red 2")))  # an Oxi! counted, not shown
    assert refused_at(view) == "view.crab_bucket.piles[2].oxi_count"


def test_b2_a_view_showing_a_card_on_two_piles_is_refused():
    view = view_of(position(PILES, HANDS, num_players=2), 0)
    view.piles[0].cards[0].CopyFrom(card_message(card("red 7")))  # also pile 1's top
    assert refused_at(view) == "view.crab_bucket"


def test_b2_a_view_without_pile_cards_is_refused():
    view = view_of(position(PILES, HANDS, num_players=2), 0)
    for pile in view.piles:
        del pile.cards[:]
    assert refused_at(view) == "view.crab_bucket.piles[0].cards"


def test_a_piles_top_is_the_last_card_played_on_it_and_missions_read_that_card():
    # Red 1 played onto green 3 at pile 0: the circle meets the rulebook's example with red on
    # top there; the green 3 under it counts for nothing.
    piles = [["green 3", "red 1"], *[[name] for name in MEETS_EXAMPLE[1:]]]
    state = position(piles, current=None)
    assert rules.tops(state)[0] == card("red 1")
    assert rules.mission_met(EXAMPLE, rules.top_colors(state))
