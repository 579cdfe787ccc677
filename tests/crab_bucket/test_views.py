"""Views (G5, B2): your own hand, other hands and the draw pile as counts, every card of each pile
(with its top card, height and Oxi! count); and the Wild Crab ending reported through the
engine."""

from __future__ import annotations

from crabgames.core.engine import Engine
from crabgames.games.crab_bucket import GAME, rules, turn
from crabgames.games.crab_bucket.moves import PlayCard
from crabgames.games.crab_bucket.state import CARDS_RAN_OUT, GAME_OVER
from crabgames.v1 import crab_bucket_pb2 as pb
from tests.crab_bucket.helpers import WILD_CRAB, card, card_message, cards, position

PILES = [
    ["blue 1", "red 8"],
    ["red 7"],
    ["green 1", "green 8"],
    ["red 6"],
    ["blue 2", "yellow 8"],
    ["red 5"],
    ["blue 8"],
    ["oxi", "red 4"],
]


def view_of(state, player):
    msg = pb.CrabBucketView()
    GAME.codec.encode_view(state, player, msg)
    return msg


def test_a_player_sees_their_own_hand_and_only_counts_of_the_others():
    state = position(PILES, {0: ["red 1", "blue 3"], 1: ["yellow 3", "yellow 4", "green 5"]})
    view = view_of(state, 1)
    hand = sorted(cards("yellow 3", "yellow 4", "green 5"))  # hands are kept in card-id order
    assert list(view.hand) == [card_message(c) for c in hand]
    assert list(view.hand_sizes) == [2, 3]
    assert view.draw_pile_size == rules.draw_total(state)
    assert not view_of(state, None).hand  # a spectator sees no hand


def test_each_pile_shows_its_top_card_height_and_oxi_count():
    view = view_of(position(PILES), 0)
    assert [p.height for p in view.piles] == [2, 1, 2, 1, 2, 1, 1, 2]
    assert view.piles[0].top == card_message(card("red 8"))
    assert [p.oxi_count for p in view.piles] == [0] * 7 + [1]
    assert not any(p.top == card_message(card("blue 1")) for p in view.piles)


def test_b2_a_view_shows_every_card_of_every_pile_to_every_viewer():
    # B2: every card on a pile was dealt or played face up, buried ones included.
    state = position(PILES, {0: ["red 1", "blue 3"], 1: ["yellow 3"]})
    for viewer in (0, 1, None):  # each seat and a spectator
        view = view_of(state, viewer)
        assert [list(p.cards) for p in view.piles] == [
            [card_message(c) for c in cards(*pile)] for pile in PILES
        ]


def test_b2_an_empty_pile_shows_no_cards():
    piles = [list(p) for p in PILES]
    piles[3] = []
    assert not view_of(position(piles), None).piles[3].cards


def test_an_empty_pile_has_no_top_in_the_view():
    piles = [list(p) for p in PILES]
    piles[3] = []
    assert not view_of(position(piles), 0).piles[3].HasField("top")


def test_wild_crab_game_ends_when_every_hand_is_empty_with_points_and_title():
    done = ("Mission 2-A", "Mission 3-A", "Mission 1-A")
    state = position(PILES, {0: ["red 1"], 1: []}, mode=WILD_CRAB, current=None,
                     completed=done, draw_pile=[])  # fmt: skip
    state.draws_over = True
    turn.apply_move(state, PlayCard(card("red 1"), 1))
    assert state.step == GAME_OVER
    outcome = rules.outcome(state)
    assert (outcome.points, outcome.title) == (6, "Crab Shell Grabber")
    assert outcome.end_reason == CARDS_RAN_OUT


def test_views_never_show_the_prng_or_other_hands_through_the_engine():
    engine = Engine([GAME])
    state, _ = engine.new_game("crab_bucket", pb.CrabBucketOptions(), 4, seed=9)
    view = engine.view(state, 2)
    own = list(state.crab_bucket.hands[2].cards)
    assert list(view.crab_bucket.hand) == own
    assert not view.HasField("outcome") and "prng" not in str(view)
