"""Who sees a card drawn at a chance node (G5, B2), who decides next (G3), and the check that
every card and mission is in exactly one place (B1, B2)."""

from __future__ import annotations

from crabgames.games.crab_bucket import rules, turn
from crabgames.games.crab_bucket.data import CIRCLE, DEFAULT_MISSIONS, HAND_SIZE, OXI
from crabgames.games.crab_bucket.moves import PlayCard, UseAbility
from crabgames.games.crab_bucket.state import CARDS_RAN_OUT, Options
from tests.crab_bucket.helpers import QUICK, card, mission_index, position
from tests.crab_bucket.test_abilities import HAND, PILES


def test_the_circle_is_dealt_for_all_to_see_and_each_hand_to_its_holder_only():
    # G5, B2: the 8 circle cards are dealt face up; then 3 cards to each player in seat order.
    state = rules.new_state(3, Options(QUICK, 0, DEFAULT_MISSIONS, 1))
    for dealt in range(rules.deal_size(3)):
        receiver = None if dealt < CIRCLE else (dealt - CIRCLE) // HAND_SIZE
        assert rules.card_receiver(state) == receiver
        hidden = [p for p in range(3) if receiver is not None and p != receiver]
        assert rules.chance_hidden_from(state) == hidden
        turn.apply_chance(state, rules.chance_outcomes(state)[0][0])
    # Then the first mission is drawn, face up for everyone.
    assert rules.decision_name(state) == "draw_mission"
    assert rules.card_receiver(state) is None and rules.chance_hidden_from(state) == []


def test_the_extra_card_of_draw_1_and_play_2_is_seen_by_its_drawer_only():
    state = position(PILES, {0: HAND}, num_players=3, current="Mission 1-D",
                     completed=("Mission 2-C",))  # fmt: skip
    turn.apply_move(state, UseAbility(mission_index("Mission 2-C")))
    assert rules.decision_name(state) == "draw_card"
    assert rules.card_receiver(state) == 0 and rules.chance_hidden_from(state) == [1, 2]


def test_the_card_drawn_back_to_3_is_seen_by_its_drawer_only():
    state = position(PILES, {1: HAND}, num_players=3, current="Mission 1-D", turn=1)
    turn.apply_move(state, PlayCard(card("red 1"), 3))  # red 1 on red 6
    assert rules.decision_name(state) == "draw_card"
    assert rules.card_receiver(state) == 1 and rules.chance_hidden_from(state) == [0, 2]


def test_nobody_decides_once_the_game_is_over():
    state = position(PILES, {0: HAND}, current="Mission 1-D")
    rules.game_over(state, CARDS_RAN_OUT, [])
    assert rules.decision_name(state) == "game_over"
    assert turn.legal_moves(state) == [] and rules.chance_outcomes(state) == []
    assert rules.card_receiver(state) is None and not rules.is_chance(state)


def test_a_player_can_act_exactly_when_some_move_is_listed():
    blocking = ["red 1", "red 2", "red 3", "red 4", "red 5", "red 6", "red 7", "blue 7"]
    stuck = position(blocking, {0: ["green 8", "yellow 8"]}, current="Mission 1-D")
    assert not turn.can_act(stuck) and turn.play_moves(stuck) == []
    with_ability = position(blocking, {0: ["green 8", "yellow 8"]}, current="Mission 1-D",
                            completed=("Mission 1-A",))  # fmt: skip
    assert turn.can_act(with_ability) and not rules.has_main_action(with_ability)
    assert turn.can_act(position(PILES, {0: HAND}, current="Mission 1-D"))


def test_every_card_and_mission_must_be_in_exactly_one_place():
    state = position(PILES, {0: HAND}, current="Mission 1-D")
    assert rules.invariant_violations(state) == []
    state.piles[1] += (card("red 1"),)  # red 1 also in the hand
    assert rules.invariant_violations(state) == ["red 1 is in 2 places, not 1"]
    state = position(PILES, {0: HAND}, current="Mission 1-D")
    state.draw_pile[OXI] += 1
    assert rules.invariant_violations(state) == ["3 Oxi! cards, not 2 (B1)"]


def test_each_broken_count_is_named():
    state = position(PILES, {0: HAND}, current="Mission 1-D")
    state.piles.append(())
    assert rules.invariant_violations(state) == ["the circle must have 8 piles"]
    state = position(PILES, {0: HAND}, current="Mission 1-D")
    state.discarded_missions.append(state.current)
    assert rules.invariant_violations(state) == ["every mission must be in exactly one place"]
    state = position(PILES, {0: HAND}, current="Mission 1-D")
    state.draw_pile[card("green 5")] -= 2
    state.draw_pile[card("green 6")] += 2
    assert rules.invariant_violations(state) == [
        "green 5 is in -1 places, not 1",
        "green 6 is in 3 places, not 1",
        "negative count in the draw pile",
    ]


def test_a_hand_holds_at_most_4_cards_the_fourth_only_while_drawing_1_to_play_2():
    # B6: "Draw 1 card and play 2" draws a fourth card before the plays; never a fifth.
    state = position(PILES, {0: HAND}, current="Mission 1-D")
    state.hands[0] += (card("green 5"),)
    state.draw_pile[card("green 5")] -= 1
    assert rules.invariant_violations(state) == []
    state.hands[0] += (card("green 6"),)
    state.draw_pile[card("green 6")] -= 1
    assert rules.invariant_violations(state) == ["a hand holds more than 4 cards"]
