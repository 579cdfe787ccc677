"""What a turn records as it goes (B6, B7): the cards played, the passes, who may play, the
events of the deal, a cut and the end; and the abilities offered when two cards share one."""

from __future__ import annotations

from crabgames.games.crab_bucket import GAME, abilities, rules, turn, words
from crabgames.games.crab_bucket.data import DEFAULT_MISSIONS, OXI
from crabgames.games.crab_bucket.events import CardDealt, TurnEnded
from crabgames.games.crab_bucket.moves import ChooseMissionPile, PlayCard, UseAbility
from crabgames.games.crab_bucket.state import (
    CARDS_RAN_OUT,
    CHOOSE_MISSION_PILE,
    NO_MISSION,
    PLAY,
    STALLED,
    Options,
)
from tests.crab_bucket.helpers import QUICK, WILD_CRAB, card, cards, mission_index, position
from tests.crab_bucket.test_abilities import HAND, PILES


def test_the_cards_played_this_turn_are_counted_one_by_one():
    # B6: "Draw 1 card and play 2": the turn's count of plays goes 0, 1, 2.
    state = position(PILES, {0: HAND}, current="Mission 1-D", completed=("Mission 2-C",))
    turn.apply_move(state, UseAbility(mission_index("Mission 2-C")))
    turn.apply_chance(state, card("yellow 1"))
    assert state.played == 0
    turn.apply_move(state, PlayCard(card("yellow 1"), 1))
    assert state.played == 1 and state.plays_left == 1
    turn.apply_move(state, PlayCard(card("yellow 3"), 3))
    assert state.played == 2 and state.plays_left == 0


def test_play_a_card_freely_counts_as_the_turns_one_play():
    state = position(PILES, {0: HAND}, current="Mission 1-D", completed=("Mission 2-A",))
    turn.apply_move(state, UseAbility(mission_index("Mission 2-A"), (0,), card("red 1")))
    assert (state.played, state.plays_left) == (1, 0)


def test_a_card_is_played_only_in_the_play_decision_and_only_onto_one_of_the_8_piles():
    state = position(PILES, {0: HAND}, current="Mission 1-D")
    assert not GAME.is_legal(state, PlayCard(card("red 1"), 8))
    assert not GAME.is_legal(state, PlayCard(card("red 1"), -1))
    # Wild Crab: a mission completed, the pile of the next one is chosen first (B5): no card
    # may be played while that choice is pending, though the step is still the turn's play.
    tops = ["red 8", "yellow 1", "green 8", "yellow 2", "blue 8", "yellow 3", "red 1", "yellow 4"]
    state = position(tops, {0: ["red 2", "blue 1", "blue 2"]}, mode=WILD_CRAB,
                     current="Mission 1-A")  # fmt: skip
    state.current = NO_MISSION
    state.pending.append((CHOOSE_MISSION_PILE, 0))
    assert state.step == PLAY and rules.decision_name(state) == "choose_mission_pile"
    assert not GAME.is_legal(state, PlayCard(card("blue 1"), 1))
    assert GAME.is_legal(state, ChooseMissionPile(1))


def test_the_draw_pile_running_out_is_said_once_and_is_no_pass():
    # B7: the turn ends without a draw; passing is something else.
    state = position(PILES, {0: HAND}, current="Mission 1-D", draw_pile=[])
    events = turn.apply_move(state, PlayCard(card("red 1"), 3))
    said = [e for e in events if e.kind == "draw_pile_empty"]
    assert [words.text(e) for e in said] == ["the draw pile is empty: nobody draws again"]
    assert state.passes == 0 and state.turn_player == 1 and rules.decision_name(state) == "play"


def test_the_last_card_played_with_the_draw_pile_empty_ends_the_game():
    state = position(PILES, {0: ["red 1"], 1: []}, current="Mission 1-D", draw_pile=[])
    events = turn.apply_move(state, PlayCard(card("red 1"), 3))
    kinds = [e.kind for e in events][-3:]
    assert kinds == ["draw_pile_empty", "turn_ended", "game_ended"]
    assert events[-2] == TurnEnded(0, passes=0)  # no next player: the game ends
    assert events[-1].reason == CARDS_RAN_OUT and events[-1].points == 0
    assert events[-1].won is False
    assert state.end_reason == CARDS_RAN_OUT


def test_a_turn_with_a_full_hand_is_no_pass_either():
    # Draws are over (B7): the turn ends at once after the play, and nobody has passed.
    state = position(PILES, {0: HAND, 1: ["blue 4"]}, current="Mission 1-D", draw_pile=[])
    state.draws_over = True
    state.passes = 1
    turn.apply_move(state, PlayCard(card("red 1"), 3))
    assert state.passes == 0 and state.turn_player == 1


def test_the_deal_says_where_each_card_went():
    state = rules.new_state(2, Options(QUICK, 0, DEFAULT_MISSIONS, 1))
    first = turn.apply_chance(state, 5)[0]
    assert first == CardDealt(5, pile=0)
    for value in range(6, 6 + 7):
        turn.apply_chance(state, value)
    ninth = turn.apply_chance(state, 20)[0]
    assert ninth == CardDealt(20, player=0)
    assert state.piles[0] == (5,)


def test_a_wild_crab_cut_says_who_cut_which_pile():
    piles = [["yellow 5", "yellow 6", "blue 1", "red 8"], *PILES[1:]]
    state = position(piles, {0: ["oxi", "green 2", "green 3"]}, mode=WILD_CRAB,
                     current="Mission 1-D")  # fmt: skip
    events = turn.apply_move(state, PlayCard(OXI, 0))
    cut = [e for e in events if e.kind == "pile_cut"]
    assert [(e.player, e.pile, e.returned) for e in cut] == [(0, 0, 3)]
    assert state.piles[0] == cards("red 8")


def test_two_ready_cards_sharing_an_ability_still_let_the_other_abilities_be_offered():
    state = position(PILES, {0: HAND}, current="Mission 1-C",
                     completed=("Mission 1-A", "Mission 1-D", "Mission 1-B"))  # fmt: skip
    missions = {u.mission for u in abilities.ability_moves(state)}
    assert missions == {mission_index("Mission 1-A"), mission_index("Mission 1-B")}


def test_a_state_waits_for_a_decision_at_its_end_and_at_each_turn():
    state = position(PILES, {0: HAND}, current="Mission 1-D")
    assert turn.waits_for_decision(state)
    rules.game_over(state, STALLED, [])
    assert turn.waits_for_decision(state)
