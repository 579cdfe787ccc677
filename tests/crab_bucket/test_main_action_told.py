"""The main action from the hand, as every seat is told it: "1. Play a Crab Card" (under the
placement rule, so not "Play a card freely", B6) and "2. Play an Oxi! Card" in each mode (Quick:
onto the pile; Wild Crab: discarded, cutting the pile, from the hand and not rescued). Each turn is
checked to its end: the draw back to 3 and the next player."""

from __future__ import annotations

from crabgames.games.crab_bucket import GAME, rules, turn, words
from crabgames.games.crab_bucket.data import OXI, RED, RESCUE_TOPS, Gap, Mission
from crabgames.games.crab_bucket.events import CardDrawn, CardPlayed, Event, PileCut, TurnEnded
from crabgames.games.crab_bucket.moves import PlayCard
from crabgames.games.crab_bucket.state import PLAY, REFILL, CrabBucketState
from crabgames.v1 import game_pb2
from tests.crab_bucket.helpers import QUICK, WILD_CRAB, card, cards, position

# "Red pair" wants two red tops side by side: red 8 (pile 0) and red 1 (pile 6) are not.
MISSIONS = (Mission("Red pair", 1, RESCUE_TOPS, (Gap(RED, 0),)),)
TOPS = ["red 8", "yellow 1", "green 8", "yellow 2", "blue 8", "yellow 3", "red 1", "yellow 4"]


def at(piles, hand: list[str], mode: int = QUICK) -> CrabBucketState:
    return position(piles, {0: hand}, mode=mode, missions=MISSIONS, current="Red pair")


def as_sent(event: Event) -> game_pb2.Event:
    msg = game_pb2.Event()
    GAME.codec.encode_event(event, msg)
    return msg


def play(state: CrabBucketState, move: PlayCard) -> list[Event]:
    assert GAME.is_legal(state, move), GAME.explain_illegal(state, move)
    return turn.apply_move(state, move)


def draws_back_to_3_and_ends_the_turn(state: CrabBucketState, drawn: str) -> None:
    """The one play was the main action: the player draws back to 3, then player 1 plays."""
    assert state.step == REFILL and rules.decision_name(state) == "draw_card"
    assert state.current == 0 and state.completed == []
    events = turn.apply_chance(state, card(drawn))
    assert events == [CardDrawn(0, card(drawn)), TurnEnded(0, 0, 1)]
    assert len(state.hands[0]) == 3 and state.turn_player == 1 and state.step == PLAY
    assert rules.invariant_violations(state) == []


def test_play_a_crab_card_from_your_hand_onto_a_pile_is_told_as_a_play_not_a_free_one():
    # Blue 1 on the yellow 1: another colour, lower or equal. The placement rule applied, so the
    # play is not "Play a card freely" (that ability is the only free play, B6).
    state = at(TOPS, ["blue 1", "green 1", "green 2"])
    events = play(state, PlayCard(card("blue 1"), 1))
    assert events == [CardPlayed(0, card("blue 1"), 1, False)]
    assert words.text(events[0]) == "player 0 plays blue 1 on pile 1"
    assert not as_sent(events[0]).crab_bucket.card_played.freely
    assert state.piles[1] == cards("yellow 1", "blue 1")
    assert state.hands[0] == cards("green 1", "green 2") and state.played == 1
    draws_back_to_3_and_ends_the_turn(state, "blue 3")


def test_quick_mode_the_oxi_card_is_played_from_the_hand_onto_the_crab_pile():
    state = at(TOPS, ["oxi", "blue 1", "blue 2"])
    events = play(state, PlayCard(OXI, 0))
    assert events == [CardPlayed(0, OXI, 0, False)]
    assert words.text(events[0]) == "player 0 plays Oxi! on pile 0"
    assert not as_sent(events[0]).crab_bucket.card_played.freely
    assert state.piles[0] == (card("red 8"), OXI) and state.oxi_discarded == 0
    assert state.hands[0] == cards("blue 1", "blue 2") and state.played == 1
    draws_back_to_3_and_ends_the_turn(state, "blue 3")


def test_wild_crab_mode_the_oxi_card_from_the_hand_is_discarded_and_the_pile_keeps_its_top_card():
    # Played from the hand, not brought back by "Rescue an Oxi! card": the cut is the player's.
    piles = [["blue 1", "blue 2", "red 8"], *TOPS[1:]]
    state = at(piles, ["oxi", "green 1", "green 2"], mode=WILD_CRAB)
    draw = rules.draw_total(state)
    events = play(state, PlayCard(OXI, 0))
    assert events == [PileCut(0, 0, 2, cards("blue 1", "blue 2"), False)]
    assert words.text(events[0]) == (
        "player 0 discards an Oxi! and cuts pile 0: 2 cards go back into the draw pile"
    )
    assert not as_sent(events[0]).crab_bucket.pile_cut.rescued
    assert state.piles[0] == cards("red 8") and state.oxi_discarded == 1
    assert rules.draw_total(state) == draw + 2
    assert state.hands[0] == cards("green 1", "green 2") and state.played == 1
    draws_back_to_3_and_ends_the_turn(state, "blue 1")
