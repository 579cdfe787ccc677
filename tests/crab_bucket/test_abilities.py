"""The nine mission abilities (rulebook "Mission Abilities", B6): each usable once, one per turn,
before the main action."""

from __future__ import annotations

from crabgames.games.crab_bucket import GAME, rules, turn, words
from crabgames.games.crab_bucket.data import OXI
from crabgames.games.crab_bucket.events import OxiRescued
from crabgames.games.crab_bucket.moves import ChooseMissionPile, KeepMission, PlayCard, UseAbility
from crabgames.games.crab_bucket.state import KEEP_MISSION, OFFER_CHOOSE_PILE
from crabgames.v1 import crab_bucket_pb2 as pb
from tests.crab_bucket.helpers import WILD_CRAB, card, cards, mission_index, position

# Current mission 1-D needs two neighbouring green tops: never met by these circles.
PILES = [
    ["blue 1", "red 8"],
    ["red 7"],
    ["green 1", "green 8"],
    ["red 6"],
    ["blue 2", "yellow 8"],
    ["red 5"],
    ["blue 8"],
    ["red 4"],
]
HAND = ["red 1", "blue 3", "yellow 3"]


def ready(mission: str, **kw):
    kw.setdefault("current", "Mission 1-D")
    return position(PILES, {0: kw.pop("hand", HAND)}, completed=(mission,), **kw)


def uses(state) -> list[UseAbility]:
    return [m for m in turn.legal_moves(state) if isinstance(m, UseAbility)]


def use(state, move: UseAbility) -> None:
    assert GAME.is_legal(state, move), GAME.explain_illegal(state, move)
    turn.apply_move(state, move)


def test_rescue_up_to_3_tops_sends_them_back_into_the_draw_pile():
    state = ready("Mission 1-A")
    m = mission_index("Mission 1-A")
    assert {len(u.piles) for u in uses(state)} == {1, 2, 3}
    before = rules.draw_total(state)
    use(state, UseAbility(m, (0, 2, 4)))
    assert [state.piles[p] for p in (0, 2, 4)] == [
        cards("blue 1"),
        cards("green 1"),
        cards("blue 2"),
    ]
    assert rules.draw_total(state) == before + 3
    assert all(state.draw_pile[c] == 1 for c in cards("red 8", "green 8", "yellow 8"))
    assert not GAME.is_legal(ready("Mission 1-A"), UseAbility(m, (0, 1, 2, 3)))


def test_an_ability_is_used_once_and_its_card_turned_face_down():
    state = ready("Mission 1-A")
    use(state, UseAbility(mission_index("Mission 1-A"), (0,)))
    assert state.spent == [True]
    assert uses(state) == []  # and the main action is still owed
    assert any(isinstance(m, PlayCard) for m in turn.legal_moves(state))
    assert rules.points(state) == 1  # a face-down mission still scores


def test_only_one_ability_per_turn():
    state = position(
        PILES, {0: HAND}, current="Mission 1-D", completed=("Mission 1-A", "Mission 1-B")
    )
    use(state, UseAbility(mission_index("Mission 1-B"), (0, 1)))
    assert uses(state) == []
    violation = GAME.explain_illegal(state, UseAbility(mission_index("Mission 1-A"), (0,)))
    assert violation.rule == "B6"


def test_an_ability_comes_before_the_main_action_in_the_moves_the_view_and_the_explanation():
    """B6, one predicate (`rules.may_use_ability`) for all three: a turn that has played a card
    (here by hand, with a play still owed) offers no ability, shows none, and says why."""
    state = ready("Mission 1-A")
    m = mission_index("Mission 1-A")
    assert uses(state) and view_of(state).decision.may_use_ability
    state.played = 1
    assert uses(state) == [] and any(isinstance(u, PlayCard) for u in turn.legal_moves(state))
    assert not view_of(state).decision.may_use_ability
    assert GAME.explain_illegal(state, UseAbility(m, (0,))).rule == "B6"


def view_of(state) -> pb.CrabBucketView:
    view = pb.CrabBucketView()
    GAME.codec.encode_view(state, state.turn_player, view)
    return view


def test_swap_two_top_cards_of_position():
    state = ready("Mission 1-B")
    use(state, UseAbility(mission_index("Mission 1-B"), (0, 2)))
    assert state.piles[0] == cards("blue 1", "green 8")
    assert state.piles[2] == cards("green 1", "red 8")


def test_rescue_an_oxi_in_quick_mode_takes_it_from_a_pile_and_plays_it_at_once():
    piles = [list(p) for p in PILES]
    piles[1] = ["oxi", "red 7"]
    state = position(piles, {0: HAND}, current="Mission 1-D", completed=("Mission 1-C",))
    m = mission_index("Mission 1-C")
    assert {u.source for u in uses(state)} == {1}
    use(state, UseAbility(m, (5,), source=1))
    assert state.piles[1] == cards("red 7")
    assert state.piles[5] == (card("red 5"), OXI)
    assert state.played == 0  # in addition to the main action (B6)


def test_rescue_an_oxi_takes_the_uppermost_oxi_of_a_pile_holding_two():
    # Quick mode, rules notes: "the uppermost Oxi! of the chosen pile". Pile 1 holds both Oxi!
    # cards of a 2-player game, one at the bottom and one above red 7: the upper one goes.
    piles = [list(p) for p in PILES]
    piles[1] = ["oxi", "red 7", "oxi", "yellow 7"]
    state = position(piles, {0: HAND}, current="Mission 1-D", completed=("Mission 1-C",))
    rescue = UseAbility(mission_index("Mission 1-C"), (5,), source=1)
    assert GAME.is_legal(state, rescue)
    events = GAME.apply_move(state, rescue)
    assert state.piles[1] == cards("oxi", "red 7", "yellow 7")
    assert state.piles[5] == (card("red 5"), OXI)
    # Told as taken from pile 1 at place 2 (bottom first), onto pile 5.
    assert [e for e in events if e.kind == "oxi_rescued"] == [OxiRescued(0, 5, 1, 2)]


def test_rescue_an_oxi_in_wild_crab_mode_takes_it_from_the_discard_and_cuts_a_pile():
    state = ready("Mission 1-C", mode=WILD_CRAB, draw_pile=["yellow 1"])
    assert state.oxi_discarded == 2
    use(state, UseAbility(mission_index("Mission 1-C"), (4,)))
    assert state.piles[4] == cards("yellow 8")
    assert state.draw_pile[card("blue 2")] == 1
    assert state.oxi_discarded == 2  # discarded again once used


def test_rescue_an_oxi_needs_a_played_oxi():
    assert uses(ready("Mission 1-C")) == []
    assert uses(ready("Mission 1-C", mode=WILD_CRAB)) == []


def test_play_a_card_freely_ignores_the_placement_rule_and_is_the_main_action():
    state = ready("Mission 2-A")
    m = mission_index("Mission 2-A")
    assert not rules.can_place(card("red 1"), card("red 8"))
    use(state, UseAbility(m, (0,), card("red 1")))
    assert state.piles[0][-1] == card("red 1")
    assert state.plays_left == 0 and rules.decision_name(state) == "draw_card"


def test_swap_a_card_from_your_hand_for_one_from_the_top():
    state = ready("Mission 2-B")
    use(state, UseAbility(mission_index("Mission 2-B"), (0,), card("blue 3")))
    assert state.piles[0] == cards("blue 1", "blue 3")
    assert state.hands[0] == tuple(sorted(cards("red 1", "yellow 3", "red 8")))
    assert rules.decision_name(state) == "play"  # the main action follows


def test_draw_1_card_and_play_2():
    state = ready("Mission 2-C")
    use(state, UseAbility(mission_index("Mission 2-C"), ()))
    assert rules.decision_name(state) == "draw_card" and rules.is_chance(state)
    turn.apply_chance(state, card("yellow 1"))
    assert len(state.hands[0]) == 4
    turn.apply_move(state, PlayCard(card("yellow 1"), 1))
    assert rules.decision_name(state) == "play"  # the second play
    turn.apply_move(state, PlayCard(card("yellow 3"), 3))
    assert len(state.hands[0]) == 2 and rules.decision_name(state) == "draw_card"
    turn.apply_chance(state, card("yellow 2"))
    assert len(state.hands[0]) == 3 and state.turn_player == 1


def test_draw_1_and_play_2_needs_a_card_to_draw():
    assert uses(ready("Mission 2-C", draw_pile=[])) == []


def test_discard_1_crab_pile_removes_it_from_the_game_and_frees_the_space():
    state = ready("Mission 3-A")
    use(state, UseAbility(mission_index("Mission 3-A"), (0,)))
    assert state.piles[0] == ()
    assert set(cards("blue 1", "red 8")) <= set(state.removed)
    assert all(PlayCard(c, 0) in turn.legal_moves(state) for c in state.hands[0])


def test_discard_the_top_card_of_all_piles():
    state = ready("Mission 3-B")
    use(state, UseAbility(mission_index("Mission 3-B"), ()))
    assert state.piles == [
        cards("blue 1"),
        (),
        cards("green 1"),
        (),
        cards("blue 2"),
        (),
        (),
        (),
    ]
    assert set(cards("red 8", "red 7", "green 8", "yellow 8", "blue 8")) <= set(state.removed)


def test_discard_the_mission_draw_2_choose_1_in_wild_crab_mode():
    state = ready("Mission 3-C", mode=WILD_CRAB)
    m = mission_index("Mission 3-C")
    use(state, UseAbility(m, ()))
    assert state.discarded_missions == [mission_index("Mission 1-D")]
    assert rules.decision_name(state) == "choose_offer_pile"
    turn.apply_move(state, ChooseMissionPile(2))
    assert rules.chance_outcomes(state) == [(i, 1) for i in range(6, 12)]
    turn.apply_chance(state, mission_index("Mission 2-D"))
    turn.apply_move(state, ChooseMissionPile(3))
    turn.apply_chance(state, mission_index("Mission 3-E"))
    assert turn.legal_moves(state) == [
        KeepMission(mission_index("Mission 2-D")),
        KeepMission(mission_index("Mission 3-E")),
    ]
    turn.apply_move(state, KeepMission(mission_index("Mission 3-E")))
    assert state.current == mission_index("Mission 3-E")
    assert mission_index("Mission 2-D") in state.mission_piles[1]  # the other goes back
    assert rules.decision_name(state) == "play"
    assert rules.invariant_violations(state) == []


def test_discard_the_mission_in_quick_mode_draws_from_the_current_level():
    state = ready("Mission 3-C", current="Mission 2-A")
    use(state, UseAbility(mission_index("Mission 3-C"), ()))
    assert rules.decision_name(state) == "draw_offer"
    assert {v for v, _ in rules.chance_outcomes(state)} == set(range(7, 12))
    turn.apply_chance(state, 7)
    turn.apply_chance(state, 9)
    turn.apply_move(state, KeepMission(9))
    assert state.current == 9 and 7 in state.mission_piles[1]


def test_an_illegal_ability_use_says_which_rule_it_breaks():
    state = ready("Mission 1-A")
    m = mission_index("Mission 1-A")
    assert GAME.explain_illegal(state, UseAbility(m, (0, 1, 2, 3))).rule == "Mission Abilities"
    not_done = UseAbility(mission_index("Mission 1-B"), (0, 1))
    assert GAME.explain_illegal(state, not_done).rule == "B5"
    use(state, UseAbility(m, (0,)))
    assert GAME.explain_illegal(state, UseAbility(m, (1,))).rule == "B6"


def test_two_ready_cards_with_one_ability_are_offered_once():
    both = ("Mission 1-A", "Mission 1-D")  # both "Rescue up to 3 cards from the top"
    state = position(PILES, {0: HAND}, current="Mission 1-B", completed=both)
    assert {u.mission for u in uses(state)} == {mission_index("Mission 1-A")}
    second = UseAbility(mission_index("Mission 1-D"), (0,))
    assert "mission 0" in GAME.explain_illegal(state, second).reason


def test_wild_crab_swap_from_hand_cannot_put_an_oxi_on_a_pile():
    # "Wild Crab Mode: the Oxi! card is discarded": an Oxi! never lies on a pile there, so
    # "Swap a card from your hand for one from the top" offers only the crab cards in hand.
    state = ready("Mission 2-B", mode=WILD_CRAB, hand=["oxi", "red 1", "blue 3"])
    m = mission_index("Mission 2-B")
    offered = uses(state)
    assert {u.card for u in offered} == set(cards("red 1", "blue 3"))
    assert len(offered) == 2 * 8  # each crab card in hand with each of the 8 piles' tops
    assert not GAME.is_legal(state, UseAbility(m, (0,), OXI))
    assert GAME.explain_illegal(state, UseAbility(m, (0,), OXI)).rule == "Mission Abilities"


def test_quick_swap_from_hand_may_put_an_oxi_on_a_pile():
    # Quick mode: "the Oxi! card may be played onto any crab pile", so it may be swapped on.
    state = ready("Mission 2-B", hand=["oxi", "red 1", "blue 3"])
    m = mission_index("Mission 2-B")
    assert {u.card for u in uses(state)} == {OXI, *cards("red 1", "blue 3")}
    use(state, UseAbility(m, (1,), OXI))
    assert state.piles[1] == (OXI,)
    assert state.hands[0] == tuple(sorted(cards("red 1", "blue 3", "red 7")))


def test_draw_2_choose_1_keeps_one_mission_and_returns_the_other_to_its_pile():
    # Wild Crab: two chosen piles, one draw from each, then the kept mission is named and the
    # other is returned (both said in the event).
    state = ready("Mission 3-C", mode=WILD_CRAB)
    use(state, UseAbility(mission_index("Mission 3-C"), ()))
    assert state.pending == [
        (KEEP_MISSION, 0),
        (OFFER_CHOOSE_PILE, 0),
        (OFFER_CHOOSE_PILE, 0),
    ]
    turn.apply_move(state, ChooseMissionPile(1))
    turn.apply_chance(state, mission_index("Mission 1-E"))
    turn.apply_move(state, ChooseMissionPile(2))
    turn.apply_chance(state, mission_index("Mission 2-E"))
    events = turn.apply_move(state, KeepMission(mission_index("Mission 2-E")))
    kept = [e for e in events if e.kind == "mission_kept"]
    assert [(e.mission, e.returned, e.player) for e in kept] == [
        (mission_index("Mission 2-E"), (mission_index("Mission 1-E"),), 0)
    ]
    assert words.text(kept[0]) == "player 0 keeps Mission 2-E; Mission 1-E goes back to its pile"
    assert mission_index("Mission 1-E") in state.mission_piles[0]
