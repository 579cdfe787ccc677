"""The rulebook's "1. Play a Crab Card" (docs/rules/crab_bucket.md, "1. Play a Crab Card"): a card
from the hand goes on a pile of the same colour only if higher, of a different colour only if
lower or equal, and on an Oxi! or an empty pile (B2) whatever it is; a play breaking this is
refused citing the section, and a play under it is told as a play, not a free one. The
rulebook's worked example is checked for every card of the hand on every pile, then played."""

from __future__ import annotations

from crabgames.games.crab_bucket import rules, turn
from crabgames.games.crab_bucket.data import CARD_NAMES
from crabgames.games.crab_bucket.events import CardPlayed
from crabgames.games.crab_bucket.moves import Pass, PlayCard
from crabgames.games.crab_bucket.state import EMPTY
from tests.crab_bucket.helpers import (
    TOPS,
    as_sent,
    card,
    cards,
    draws_back_to_3_and_ends_the_turn,
    play,
    position,
    red_pair_position,
    text,
)

# The example circle: every top the rulebook names (green 7, green 8, yellow 6, red 7, yellow 4)
# plus three (blue 3, blue 4, red 6) on which neither the red 5 nor the yellow 7 may go.
EXAMPLE_TOPS = [
    "green 7",
    "green 8",
    "yellow 6",
    "red 7",
    "yellow 4",
    "blue 3",
    "blue 4",
    "red 6",
]


def piles_for(state, name: str) -> set[int]:
    c = card(name)
    return {m.pile for m in turn.legal_moves(state) if isinstance(m, PlayCard) and m.card == c}


def example():
    return position(EXAMPLE_TOPS, {0: ["green 2", "red 5", "yellow 7"]})


def names(state, piles: set[int]) -> set[str]:
    return {EXAMPLE_TOPS[p] for p in piles}


def test_green_2_goes_on_every_card_that_is_not_green():
    state = example()
    assert names(state, piles_for(state, "green 2")) == set(EXAMPLE_TOPS) - {"green 7", "green 8"}


def test_red_5_goes_on_green_7_green_8_and_yellow_6_but_not_on_red_7():
    state = example()
    assert names(state, piles_for(state, "red 5")) == {"green 7", "green 8", "yellow 6"}


def test_yellow_7_goes_on_red_7_green_7_green_8_and_on_yellow_4_and_yellow_6():
    state = example()
    assert names(state, piles_for(state, "yellow 7")) == {
        "red 7",
        "green 7",
        "green 8",
        "yellow 4",
        "yellow 6",
    }


def test_a_card_of_a_different_colour_may_be_equal():
    assert rules.can_place(card("blue 5"), card("red 5"))
    assert not rules.can_place(card("blue 6"), card("red 5"))


def test_a_card_of_the_same_colour_must_be_strictly_higher():
    assert rules.can_place(card("red 6"), card("red 5"))
    assert not rules.can_place(card("red 5"), card("red 5"))
    assert not rules.can_place(card("red 4"), card("red 5"))


def test_any_card_goes_on_an_oxi_or_on_an_empty_pile():
    tops = ["oxi", "", "red 1", "red 2", "red 3", "red 4", "red 5", "red 6"]
    state = position(tops, {0: ["blue 8", "yellow 8", "green 8"]})
    for name in ("blue 8", "yellow 8", "green 8"):
        assert piles_for(state, name) == {0, 1}


def test_playing_a_card_that_breaks_the_placement_rule_is_illegal_and_names_the_rule():
    state = example()
    move = PlayCard(card("red 5"), EXAMPLE_TOPS.index("red 7"))
    from crabgames.games.crab_bucket import GAME

    assert not GAME.is_legal(state, move)
    assert GAME.explain_illegal(state, move).rule == "1. Play a Crab Card"


def test_a_card_not_in_hand_cannot_be_played():
    from crabgames.games.crab_bucket import GAME

    state = example()
    move = PlayCard(card("blue 1"), 0)
    assert not GAME.is_legal(state, move)
    assert "not" in GAME.explain_illegal(state, move).reason or "no" in (
        GAME.explain_illegal(state, move).reason
    )


def test_a_played_card_goes_on_top_and_the_pile_grows():
    state = example()
    turn.apply_move(state, PlayCard(card("red 5"), 0))
    assert state.piles[0] == (card("green 7"), card("red 5"))
    assert card("red 5") not in state.hands[0]


def test_play_a_crab_card_from_your_hand_onto_a_pile_is_told_as_a_play_not_a_free_one():
    # Blue 1 on the yellow 1: another colour, lower or equal. The placement rule applied, so the
    # play is not "Play a card freely" (that ability is the only free play, B6).
    state = red_pair_position(TOPS, ["blue 1", "green 1", "green 2"])
    events = play(state, PlayCard(card("blue 1"), 1))
    assert events == [CardPlayed(0, card("blue 1"), 1, False)]
    assert text(events[0]) == "player 0 plays blue 1 on pile 1"
    assert not as_sent(events[0]).crab_bucket.card_played.freely
    assert state.piles[1] == cards("yellow 1", "blue 1")
    assert state.hands[0] == cards("green 1", "green 2") and state.played == 1
    draws_back_to_3_and_ends_the_turn(state, "blue 3")


# The whole example as a table: for each card of the first player's hand, the tops it may go
# on (the rulebook's reasons: green 2 is lower than or equal to every card not green, and
# every green on the table is higher; red 5 is lower than green 7, green 8 and yellow 6, not
# lower than red 6 or red 7 (both red, and higher); yellow 7 is lower than or equal to red 7,
# green 7 and green 8, and higher than the yellow 4 and yellow 6).
EXAMPLE_ANSWERS = {
    "green 2": {"yellow 6", "red 7", "yellow 4", "blue 3", "blue 4", "red 6"},
    "red 5": {"green 7", "green 8", "yellow 6"},
    "yellow 7": {"green 7", "green 8", "yellow 6", "red 7", "yellow 4"},
}


def test_the_rulebook_placement_example_to_its_end_every_card_on_every_pile():
    from crabgames.games.crab_bucket import GAME

    state = example()
    for name, allowed in EXAMPLE_ANSWERS.items():
        for pile, top in enumerate(EXAMPLE_TOPS):
            move = PlayCard(card(name), pile)
            assert GAME.is_legal(state, move) == (top in allowed), (name, top)
            assert (move in turn.legal_moves(state)) == (top in allowed), (name, top)
            if top not in allowed:
                assert GAME.explain_illegal(state, move).rule == "1. Play a Crab Card"
    # Every card in hand has somewhere to go: this turn has a main action, and no Pass (B6).
    assert Pass() not in turn.legal_moves(state)
    # Played: the card goes on top of its pile, and the other piles keep theirs.
    turn.apply_move(state, PlayCard(card("yellow 7"), EXAMPLE_TOPS.index("yellow 4")))
    tops = [CARD_NAMES[t] for t in rules.tops(state)]
    assert tops == [*EXAMPLE_TOPS[:4], "yellow 7", *EXAMPLE_TOPS[5:]]


def test_a_card_of_the_same_colour_and_value_never_meets_its_twin_in_play():
    # The rulebook's example has no equal-value same-colour case, and play never has one: each
    # crab card exists once (32 cards, numbered 1 to 8 in four colours). The rule "same colour:
    # only if higher" still refuses it in the table moves are listed from; the tests above pin
    # it for can_place.
    assert len({(c // 8, c % 8) for c in range(32)}) == 32
    for c in range(32):
        assert not rules.PLACEABLE[c][c]


def test_the_move_table_agrees_with_the_placement_rule_for_every_card_and_top():
    from crabgames.games.crab_bucket.data import OXI

    for c in range(32):
        for top in (*range(33), EMPTY):
            assert rules.PLACEABLE[c][top] == rules.can_place(c, top), (c, top)
    # The Oxi! card, in Quick mode, may be played onto any pile (and is discarded in Wild Crab).
    assert all(rules.PLACEABLE[OXI])
