"""Issue 16 for Crab Bucket: every event names the cards it moves, from where to where, and why;
"Rescue an Oxi! card" is not a play from the hand; a turn that used an ability and then has no
main action is not told as a pass; the end says won or lost and why; labels are unambiguous; a
seat, a pile or a mission 0 is written in JSON; the view says what is being decided."""

from __future__ import annotations

from google.protobuf import json_format

from crabgames.core.engine import Engine
from crabgames.games.crab_bucket import GAME, rules, turn, words
from crabgames.games.crab_bucket.data import DEFAULT_MISSIONS, OXI, Mission
from crabgames.games.crab_bucket.events import (
    CardPlayed,
    Event,
    HandTopSwapped,
    MissionCompleted,
    MissionPileChosen,
    NoMainAction,
    NoMissionDrawn,
    OxiRescued,
    TurnEnded,
    TurnPassed,
)
from crabgames.games.crab_bucket.moves import (
    ChooseMissionPile,
    KeepMission,
    Pass,
    PlayCard,
    UseAbility,
)
from crabgames.games.crab_bucket.state import (
    CARDS_RAN_OUT,
    CHOOSE_MISSION_PILE,
    DRAW_MISSION,
    KEEP_MISSION,
    NO_MISSION,
    REFILL,
    STALLED,
)
from crabgames.v1 import crab_bucket_pb2 as pb
from crabgames.v1 import game_pb2
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


def ready(mission: str, piles=PILES, hand=HAND, **kw):
    kw.setdefault("current", "Mission 1-D")
    return position(piles, {0: hand}, completed=(mission,), **kw)


def use(state, mission: str, piles=(), card_=-1, source=-1) -> list[Event]:
    move = UseAbility(mission_index(mission), piles, card_, source)
    assert GAME.is_legal(state, move), GAME.explain_illegal(state, move)
    return turn.apply_move(state, move)


def kinds(events) -> list[str]:
    return [e.kind for e in events]


def only(events, kind: str) -> Event:
    (event,) = [e for e in events if e.kind == kind]
    return event


def as_json(event: Event) -> dict:
    msg = game_pb2.Event()
    GAME.codec.encode_event(event, msg)
    return json_format.MessageToDict(msg, preserving_proto_field_name=True)


# ----- abilities name the cards they move -----


def test_rescue_up_to_3_tops_names_each_pile_and_the_card_it_sends_back():
    events = use(ready("Mission 1-A"), "Mission 1-A", (0, 2, 4))
    assert kinds(events)[:2] == ["ability_used", "tops_rescued"]
    rescued = only(events, "tops_rescued")
    assert rescued.tops == ((0, card("red 8")), (2, card("green 8")), (4, card("yellow 8")))
    assert words.text(rescued) == (
        "player 0 rescues red 8 from pile 0, green 8 from pile 2, yellow 8 from pile 4"
        " into the draw pile"
    )
    assert as_json(rescued)["crab_bucket"]["tops_rescued"]["tops"][0] == {
        "pile": 0,
        "card": {"color": "CRAB_BUCKET_COLOR_RED", "number": 8},
    }


def test_swap_two_tops_names_both_cards_and_where_each_goes():
    state = ready("Mission 1-B")
    swapped = only(use(state, "Mission 1-B", (1, 6)), "tops_swapped")
    assert swapped.first == (1, card("red 7"))
    assert swapped.second == (6, card("blue 8"))
    assert state.piles[1] == cards("blue 8") and state.piles[6] == cards("red 7")
    assert words.text(swapped) == "player 0 swaps red 7 on pile 1 with blue 8 on pile 6"


def test_rescue_an_oxi_in_quick_mode_is_its_own_event_not_a_card_played_from_the_hand():
    piles = [["blue 1", "oxi", "red 8"], *PILES[1:]]
    state = ready("Mission 1-C", piles=piles)
    hand = state.hands[0]
    events = use(state, "Mission 1-C", (5,), -1, 0)
    assert "card_played" not in kinds(events)
    rescued = only(events, "oxi_rescued")
    # The Oxi! was the second card of pile 0 (from the bottom), played onto pile 5.
    assert rescued == OxiRescued(0, 5, from_pile=0, from_index=1)
    assert words.text(rescued) == "player 0 rescues the Oxi! from pile 0 and plays it on pile 5"
    assert state.piles[0] == cards("blue 1", "red 8") and state.piles[5] == cards("red 5", "oxi")
    assert state.hands[0] == hand and state.played == 0  # the main action is still to come


def test_rescue_an_oxi_in_wild_crab_cuts_a_pile_with_a_rescued_cut_not_a_play():
    state = ready("Mission 1-C", mode=WILD_CRAB)
    state.draw_pile[OXI] -= 1
    state.oxi_discarded = 1
    hand = state.hands[0]
    events = use(state, "Mission 1-C", (0,))
    assert kinds(events)[:3] == ["ability_used", "oxi_rescued", "pile_cut"]
    assert only(events, "oxi_rescued").from_pile is None
    cut = only(events, "pile_cut")
    assert cut.rescued and cut.returned_cards == cards("blue 1")
    assert words.text(cut).startswith("the rescued Oxi! is discarded again and cuts pile 0")
    assert state.hands[0] == hand and state.oxi_discarded == 1 and state.played == 0


def test_swap_a_hand_card_for_a_top_names_the_card_given_and_the_card_taken():
    state = ready("Mission 2-B")
    swapped = only(use(state, "Mission 2-B", (3,), card("blue 3")), "hand_top_swapped")
    assert swapped == HandTopSwapped(0, 3, given=card("blue 3"), taken=card("red 6"))
    assert words.text(swapped) == (
        "player 0 puts blue 3 from the hand on pile 3 and takes red 6 into the hand"
    )


def test_discard_a_pile_names_every_card_removed_from_the_game():
    discarded = only(use(ready("Mission 3-A"), "Mission 3-A", (4,)), "pile_discarded")
    assert discarded.pile == 4 and discarded.cards == cards("blue 2", "yellow 8")
    assert words.text(discarded) == "player 0 removes pile 4 from the game: blue 2, yellow 8"


def test_discard_every_top_names_each_pile_and_its_top():
    discarded = only(use(ready("Mission 3-B"), "Mission 3-B"), "tops_discarded")
    assert [pile for pile, _ in discarded.tops] == list(range(8))
    assert discarded.tops[0] == (0, card("red 8"))


def test_discard_the_mission_names_it_before_the_offer_is_drawn():
    state = ready("Mission 3-C")
    current = state.current
    events = use(state, "Mission 3-C")
    assert only(events, "mission_discarded").mission == current
    assert words.text(only(events, "mission_discarded")) == (
        "player 0 removes Mission 1-D (level 1) from the game"
    )


def test_play_a_card_freely_is_the_main_action_from_the_hand_said_as_free():
    played = only(use(ready("Mission 2-A"), "Mission 2-A", (6,), card("yellow 3")), "card_played")
    assert played.freely and played.pile == 6
    assert words.text(played) == "player 0 plays yellow 3 freely on pile 6"


def test_draw_1_and_play_2_draws_its_extra_card_seen_by_the_drawer_only():
    state = ready("Mission 2-C")
    use(state, "Mission 2-C")
    drawn = only(turn.apply_chance(state, card("green 5")), "card_drawn")
    assert drawn.extra and words.text(drawn) == (
        "player 0 draws green 5 for Draw 1 card and play 2"
    )
    seen = GAME.redact_event(drawn, 1)
    assert seen.card is None and seen.extra
    assert words.text(seen) == "player 0 draws a card for Draw 1 card and play 2"


# ----- the turn's flow tells the truth -----

BLOCKING = ["red 1", "red 2", "red 3", "red 4", "red 5", "red 6", "red 7", "blue 7"]
BLOCKED = ["green 8", "yellow 8"]


def test_an_ability_then_no_main_action_ends_the_turn_without_a_pass():
    # Swapping two tops leaves player 0 with no card that fits: the turn ends, without drawing,
    # and it is not a pass (it changed the circle, B7 counts it as a turn that acted).
    state = position(BLOCKING, {0: BLOCKED, 1: ["blue 8"]}, current="Mission 1-D",
                     completed=("Mission 1-B",))  # fmt: skip
    events = turn.apply_move(state, UseAbility(mission_index("Mission 1-B"), (0, 1)))
    assert kinds(events) == ["ability_used", "tops_swapped", "no_main_action", "turn_ended"]
    assert "turn_passed" not in kinds(events)
    assert events[2] == NoMainAction(0, False)
    assert words.text(events[2]) == (
        "player 0 can take no main action after the ability: the turn ends without drawing"
    )
    assert events[3] == TurnEnded(0, passes=0, next_player=1)
    assert len(state.hands[0]) == 2 and state.turn_player == 1


def test_no_legal_second_play_after_draw_1_and_play_2_is_said_and_the_turn_draws():
    # Green 7 fits only on the yellow 7 (every red top is lower, green 8 is the same colour and
    # higher); blue 1 played there first leaves it nowhere to go.
    piles = ["red 1", "red 2", "red 3", "red 4", "red 5", "red 6", "yellow 7", "green 8"]
    state = position(piles, {0: ["blue 1"]}, current="Mission 1-D", completed=("Mission 2-C",))
    use(state, "Mission 2-C")
    turn.apply_chance(state, card("green 7"))
    assert state.plays_left == 2 and PlayCard(card("green 7"), 6) in turn.legal_moves(state)
    events = turn.apply_move(state, PlayCard(card("blue 1"), 6))
    assert kinds(events) == ["card_played", "no_main_action"]
    assert events[1] == NoMainAction(0, True)
    assert words.text(events[1]) == "player 0 has no legal second play"
    assert state.step == REFILL and state.plays_left == 0 and state.played == 1


def test_a_pass_is_a_pass_and_the_turns_end_says_who_plays_next():
    state = position(BLOCKING, {0: ["green 8"], 1: ["yellow 8"]}, current="Mission 1-D",
                     completed=("Mission 1-A",))  # fmt: skip
    events = turn.apply_move(state, Pass())
    assert kinds(events) == ["turn_passed", "turn_ended"]
    assert events[0] == TurnPassed(0, automatic=False)  # chosen, not forced (B6, G6)
    assert words.text(events[0]) == "player 0 passes"
    assert events[1] == TurnEnded(0, passes=1, next_player=1)
    assert words.text(events[1]) == "player 0's turn ends; player 1 plays next"


def test_wild_crab_mission_pile_choice_is_said():
    state = ready("Mission 1-A", mode=WILD_CRAB)
    state.completed.pop(), state.spent.pop()
    state.pending.append((CHOOSE_MISSION_PILE, 0))
    events = turn.apply_move(state, ChooseMissionPile(2))
    assert only(events, "mission_pile_chosen") == MissionPileChosen(0, 2, False)


def test_a_mission_draw_from_an_empty_pile_says_there_is_none():
    state = ready("Mission 1-A", mode=WILD_CRAB)
    state.mission_piles[2] = ()
    state.current = NO_MISSION
    state.pending.append((DRAW_MISSION, 3))
    events: list = []
    turn.advance(state, events)
    assert only(events, "no_mission_drawn") == NoMissionDrawn(False, 3)
    assert words.text(events[0]) == "the level 3 mission pile is empty: no mission is drawn"


# ----- the end: won or lost, and why -----


def test_completing_the_level_3_mission_in_quick_mode_ends_the_game_won():
    state = ready("Mission 1-A")
    events: list = []
    rules.game_over(state, rules.LEVEL_3_COMPLETED, events)
    assert events[0].won and events[0].reason == rules.LEVEL_3_COMPLETED
    assert words.text(events[0]) == "the final mission is completed: the team wins with 1 points"
    assert rules.outcome(state).won


def test_running_out_of_cards_in_quick_mode_ends_the_game_lost():
    state = ready("Mission 1-A")
    events: list = []
    rules.game_over(state, CARDS_RAN_OUT, events)
    assert events[0].won is False
    assert words.text(events[0]) == (
        "every hand is empty before the final mission: the team loses with 1 points"
    )
    assert not rules.outcome(state).won


def test_wild_crab_ends_won_with_the_title_of_its_points_or_without_one_at_5():
    state = ready("Mission 3-A", mode=WILD_CRAB)
    events: list = []
    rules.game_over(state, CARDS_RAN_OUT, events)
    assert events[0].won and events[0].title == "Apprentice Crab Catcher"
    assert words.text(events[0]) == (
        "every hand is empty: the team wins with 3 points, title Apprentice Crab Catcher"
    )
    five = position(PILES, {0: HAND}, mode=WILD_CRAB, current="Mission 1-D",
                    completed=("Mission 3-A", "Mission 2-A"))  # fmt: skip
    events = []
    rules.game_over(five, STALLED, events)
    assert events[0].won and events[0].title == ""
    assert "no title" in words.text(events[0])
    outcome = game_pb2.Outcome()
    GAME.codec.encode_outcome(rules.outcome(five), outcome)
    assert outcome.crab_bucket.won and list(outcome.winners) == [0, 1]


# ----- labels, presence, the decision -----


def test_keeping_one_of_two_same_named_missions_has_two_labels():
    twins = (
        *DEFAULT_MISSIONS[:17],
        Mission("Mission 3-E", 3, DEFAULT_MISSIONS[17].ability, DEFAULT_MISSIONS[17].requirements),
    )
    state = position(PILES, {0: HAND}, missions=twins, current=None)
    state.offered = [16, 17]
    state.mission_piles[2] = tuple(m for m in state.mission_piles[2] if m not in (16, 17))
    state.pending.append((KEEP_MISSION, 0))
    labels = [GAME.codec.move_label(state, m) for m in turn.legal_moves(state)]
    assert labels == ["keep mission 16 (Mission 3-E)", "keep mission 17 (Mission 3-E)"]
    assert KeepMission(16) in turn.legal_moves(state)


def test_ability_labels_say_what_each_choice_is():
    state = ready("Mission 2-B")
    move = UseAbility(mission_index("Mission 2-B"), (3,), card("blue 3"))
    label = GAME.codec.move_label(state, move)
    assert (
        label
        == "use 'Swap a card from your hand for one from the top': blue 3 for the top of pile 3"
    )
    piles = [["blue 1", "oxi", "red 8"], *PILES[1:]]
    quick = ready("Mission 1-C", piles=piles)
    rescue = UseAbility(mission_index("Mission 1-C"), (5,), -1, 0)
    assert GAME.codec.move_label(quick, rescue).endswith(": the Oxi! from pile 0 onto pile 5")


def test_seat_0_pile_0_and_mission_0_are_written_in_json():
    played = CardPlayed(0, 0, 0, False)
    assert as_json(played)["crab_bucket"]["card_played"] == {
        "player": 0,
        "card": {"color": "CRAB_BUCKET_COLOR_RED", "number": 1},
        "pile": 0,
    }
    completed = MissionCompleted(0, 1)
    assert as_json(completed)["crab_bucket"]["mission_completed"]["mission"] == 0
    move = game_pb2.Move()
    GAME.codec.encode_move(PlayCard(0, 0), move.crab_bucket)
    assert json_format.MessageToDict(move)["crabBucket"]["playCard"]["pile"] == 0


ENGINE = Engine([GAME])


def test_the_view_says_what_is_decided_and_about_what():
    state, _ = ENGINE.new_game("crab_bucket", pb.CrabBucketOptions(), 3, 5)
    views = [ENGINE.view(state, viewer).crab_bucket.decision for viewer in (None, 0, 1, 2)]
    assert all(view == views[0] for view in views)  # public: the same for every viewer
    assert views[0].kind == pb.CRAB_BUCKET_DECISION_KIND_PLAY
    assert views[0].HasField("player") and views[0].player == 0 and views[0].plays_left == 1
    dealing, _ = ENGINE.new_game(
        "crab_bucket", pb.CrabBucketOptions(), 3, 5, game_pb2.CHANCE_MODE_EXPLICIT
    )
    deal = ENGINE.view(dealing, None).crab_bucket.decision
    assert deal.kind == pb.CRAB_BUCKET_DECISION_KIND_DEAL and deal.pile == 0
    assert deal.HasField("pile") and not deal.HasField("player")


def test_the_keep_decision_lists_the_offered_missions():
    state = ready("Mission 3-C")
    state.offered = [mission_index("Mission 1-E"), mission_index("Mission 1-F")]
    for m in state.offered:
        state.mission_piles[0] = rules.without(state.mission_piles[0], m)
    state.discarded_missions.append(state.current)
    state.current = NO_MISSION
    state.spent[0] = True
    state.ability_used = True
    state.pending.append((KEEP_MISSION, 0))
    view = pb.CrabBucketView()
    GAME.codec.encode_view(state, None, view)
    assert view.decision.kind == pb.CRAB_BUCKET_DECISION_KIND_KEEP_MISSION
    assert list(view.decision.missions) == state.offered and view.decision.player == 0


def test_options_are_typed_for_a_new_game_form():
    options = {o.name: o for o in GAME.facts.options}
    assert options["first_player"].minimum == 0 and options["first_player"].maximum == 4
    assert options["first_mission_level"].minimum == 1
    assert options["first_mission_level"].maximum == 3
    assert options["missions"].max_items == 200
    assert set(options["mode"].allowed_values) == {
        "CRAB_BUCKET_MODE_QUICK",
        "CRAB_BUCKET_MODE_WILD_CRAB",
    }
