"""The rulebook's "2. Play an Oxi! Card" (docs/rules/crab_bucket.md, "2. Play an Oxi! Card"): in
Quick mode the Oxi! goes on top of any pile and anything may go on it; in Wild Crab mode it is
discarded and the pile it is played on keeps only its top card, the rest going back into the
draw pile, the cut told with who made it and which cards went back."""

from __future__ import annotations

from crabgames.games.crab_bucket import rules, turn
from crabgames.games.crab_bucket.data import (
    OXI,
)
from crabgames.games.crab_bucket.events import (
    CardPlayed,
    PileCut,
)
from crabgames.games.crab_bucket.moves import PlayCard
from tests.crab_bucket.helpers import (
    PILES,
    SIMPLE,
    TOPS,
    WILD_CRAB,
    as_sent,
    card,
    cards,
    draws_back_to_3_and_ends_the_turn,
    play,
    position,
    red_pair_position,
    simple,
    text,
)


def test_quick_oxi_may_be_played_onto_any_pile_and_anything_goes_on_it():
    state = simple({0: ["oxi", "blue 1", "blue 2"]})
    assert {m.pile for m in turn.legal_moves(state) if m == PlayCard(OXI, m.pile)} == set(range(8))
    turn.apply_move(state, PlayCard(OXI, 0))
    assert state.piles[0] == (card("red 8"), OXI)
    assert rules.can_place(card("red 8"), OXI)


def test_quick_mode_the_oxi_card_is_played_from_the_hand_onto_the_crab_pile():
    state = red_pair_position(TOPS, ["oxi", "blue 1", "blue 2"])
    events = play(state, PlayCard(OXI, 0))
    assert events == [CardPlayed(0, OXI, 0, False)]
    assert text(events[0]) == "player 0 plays Oxi! on pile 0"
    assert not as_sent(events[0]).crab_bucket.card_played.freely
    assert state.piles[0] == (card("red 8"), OXI) and state.oxi_discarded == 0
    assert state.hands[0] == cards("blue 1", "blue 2") and state.played == 1
    draws_back_to_3_and_ends_the_turn(state, "blue 3")


def test_wild_crab_oxi_is_discarded_and_the_pile_keeps_only_its_top_card():
    piles = [["blue 1", "blue 2", "red 8"], *TOPS[1:]]
    state = position(piles, {0: ["oxi", "green 1", "green 2"]}, mode=WILD_CRAB, missions=SIMPLE,
                     current="Red pair")  # fmt: skip
    draw = rules.draw_total(state)
    turn.apply_move(state, PlayCard(OXI, 0))
    assert state.piles[0] == cards("red 8")
    assert state.oxi_discarded == 1
    assert rules.draw_total(state) == draw + 2  # blue 1 and blue 2 shuffled back in
    assert state.draw_pile[card("blue 1")] == state.draw_pile[card("blue 2")] == 1


def test_wild_crab_mode_the_oxi_card_from_the_hand_is_discarded_and_the_pile_keeps_its_top_card():
    # Played from the hand, not brought back by "Rescue an Oxi! card": the cut is the player's.
    piles = [["blue 1", "blue 2", "red 8"], *TOPS[1:]]
    state = red_pair_position(piles, ["oxi", "green 1", "green 2"], mode=WILD_CRAB)
    draw = rules.draw_total(state)
    events = play(state, PlayCard(OXI, 0))
    assert events == [PileCut(0, 0, 2, cards("blue 1", "blue 2"), False)]
    assert text(events[0]) == (
        "player 0 discards an Oxi! and cuts pile 0: 2 cards go back into the draw pile"
    )
    assert not as_sent(events[0]).crab_bucket.pile_cut.rescued
    assert state.piles[0] == cards("red 8") and state.oxi_discarded == 1
    assert rules.draw_total(state) == draw + 2
    assert state.hands[0] == cards("green 1", "green 2") and state.played == 1
    draws_back_to_3_and_ends_the_turn(state, "blue 1")


def test_a_wild_crab_cut_says_who_cut_which_pile():
    piles = [["yellow 5", "yellow 6", "blue 1", "red 8"], *PILES[1:]]
    state = position(piles, {0: ["oxi", "green 2", "green 3"]}, mode=WILD_CRAB,
                     current="Mission 1-D")  # fmt: skip
    events = turn.apply_move(state, PlayCard(OXI, 0))
    cut = [e for e in events if e.kind == "pile_cut"]
    assert [(e.player, e.pile, e.returned) for e in cut] == [(0, 0, 3)]
    assert state.piles[0] == cards("red 8")
