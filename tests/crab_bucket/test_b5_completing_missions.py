"""B5: completing missions (docs/rules/crab_bucket.md, "B5: completing missions"): whenever the
circle changes (a card played, or the whole of an ability's change) the current mission is
checked; once met it is completed and replaced at once: in Quick mode by the next level, in Wild
Crab mode from the level pile its player picks (never an empty one; with all empty there is no
current mission, and no play completes one any more). A new mission already met is completed at
once (the engine's reading, same file)."""

from __future__ import annotations

from crabgames.games.crab_bucket import GAME, rules, turn
from crabgames.games.crab_bucket.data import (
    OXI,
)
from crabgames.games.crab_bucket.events import (
    CardDrawn,
    CardPlayed,
    MissionCompleted,
    MissionPileChosen,
    NoMissionDrawn,
    TurnEnded,
)
from crabgames.games.crab_bucket.moves import (
    ChooseMissionPile,
    PlayCard,
    UseAbility,
)
from crabgames.games.crab_bucket.state import (
    CHOOSE_MISSION_PILE,
    DRAW_MISSION,
    NO_MISSION,
    PLAY,
    REFILL,
)
from crabgames.v1 import game_pb2
from tests.crab_bucket.helpers import (
    APART_MISSIONS,
    ONLY,
    TOPS,
    WILD_CRAB,
    at,
    card,
    cards,
    mission_index,
    only,
    position,
    ready,
    simple,
    text,
)


def test_quick_mode_completes_level_1_then_draws_level_2_at_once():
    state = simple({0: ["red 2", "blue 1", "blue 2"]})
    turn.apply_move(state, PlayCard(card("red 2"), 7))  # red 1 at 6, red 2 at 7: a red pair
    assert state.completed == [0] and state.spent == [False]
    assert rules.decision_name(state) == "draw_mission"
    assert rules.chance_outcomes(state) == [(1, 1)]


def test_wild_crab_mode_lets_the_player_pick_the_next_missions_level():
    state = simple({0: ["red 2", "blue 1", "blue 2"]}, mode=WILD_CRAB)
    turn.apply_move(state, PlayCard(card("red 2"), 7))
    assert rules.decision_name(state) == "choose_mission_pile"
    assert turn.legal_moves(state) == [ChooseMissionPile(1), ChooseMissionPile(2),
                                        ChooseMissionPile(3)]  # fmt: skip
    turn.apply_move(state, ChooseMissionPile(3))
    assert {v for v, _ in rules.chance_outcomes(state)} == {2, 4}


def test_wild_crab_mode_cannot_pick_an_empty_mission_pile():
    state = simple({0: ["red 2", "blue 1", "blue 2"]}, mode=WILD_CRAB,
                   completed=("Spare 1",))  # fmt: skip
    turn.apply_move(state, PlayCard(card("red 2"), 7))
    assert ChooseMissionPile(1) not in turn.legal_moves(state)


def test_a_new_mission_already_met_by_the_circle_is_completed_at_once():
    state = simple({0: ["green 7", "blue 1", "blue 2"]}, current="Spare 3")
    state.piles[6] = (card("red 1"), card("green 1"))  # green 8 at 2, green 1 at 6: 3 between
    rules.check_mission(state, [])
    assert state.completed == [4]


def completes_apart(state, move: UseAbility) -> None:
    assert not rules.mission_met(APART_MISSIONS[0], rules.top_colors(state))
    events = turn.apply_move(state, move)
    done = [e for e in events if e.kind == "mission_completed"]
    assert [e.mission for e in done] == [0]
    assert 0 in state.completed and rules.decision_name(state) == "draw_mission"


def test_discarding_a_pile_that_breaks_a_requirement_completes_the_mission_at_once():
    state = at("Discard pile")
    completes_apart(state, UseAbility(mission_index("Discard pile", APART_MISSIONS), (1,)))
    assert state.piles[1] == ()


def test_discarding_every_top_completes_the_mission_it_reveals():
    piles = [["red 1", "yellow 8"], ["yellow 7"], ["red 2", "yellow 6"], ["blue 8"],
             ["green 8"], ["green 3"], ["blue 7"], ["green 7"]]  # fmt: skip
    state = at("Discard all", current="Red pair", piles=piles)
    m = mission_index("Discard all", APART_MISSIONS)
    events = turn.apply_move(state, UseAbility(m))
    assert [e.mission for e in events if e.kind == "mission_completed"] == []
    # Red 1 and red 2 are two apart once the tops go: not a red pair; now the same with the
    # reds side by side.
    piles[1], piles[2] = ["red 2", "yellow 6"], ["yellow 7"]
    state = at("Discard all", current="Red pair", piles=piles)
    events = turn.apply_move(state, UseAbility(m))
    assert [e.mission for e in events if e.kind == "mission_completed"] == [1]


def test_rescuing_an_oxi_onto_a_pile_completes_the_mission_it_covers_for():
    # Quick mode: the Oxi! from pile 5 goes onto the yellow 8; an Oxi! top has no colour (B3).
    state = at("Rescue oxi")
    completes_apart(state, UseAbility(mission_index("Rescue oxi", APART_MISSIONS), (1,), -1, 5))
    assert state.piles[1] == (card("yellow 8"), OXI) and state.piles[5] == cards("green 3")


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
    assert text(events[0]) == "the level 3 mission pile is empty: no mission is drawn"


def test_wild_crab_with_every_mission_pile_empty_there_is_no_current_mission():
    """B5: with every pile empty nothing is offered to choose and no mission is drawn."""
    state = position(TOPS, {0: ["red 2", "blue 1", "blue 2"]}, mode=WILD_CRAB, missions=ONLY,
                     current="Red pair")  # fmt: skip
    assert state.mission_piles == [(), (), ()]
    # Red 2 on the yellow 4 (lower, another colour): red 1 and red 2 side by side, a red pair.
    events = turn.apply_move(state, PlayCard(card("red 2"), 7))
    assert events == [
        CardPlayed(0, card("red 2"), 7, False),
        MissionCompleted(0, 1),
        NoMissionDrawn(False),
    ]
    assert text(events[2]) == "every mission pile is empty: no mission is drawn"
    msg = game_pb2.Event()
    GAME.codec.encode_event(events[2], msg)
    none_drawn = msg.crab_bucket.no_mission_drawn
    assert not none_drawn.offer and not none_drawn.HasField("level")
    assert state.current == NO_MISSION and state.completed == [0] and state.spent == [False]
    assert state.pending == [] and state.mission_piles == [(), (), ()]
    # No pile to choose: the turn goes straight on to drawing back to 3 (B6).
    assert state.step == REFILL and rules.decision_name(state) == "draw_card"
    assert turn.legal_moves(state) == []
    assert rules.points(state) == 1
    events = turn.apply_chance(state, card("green 1"))
    assert events == [CardDrawn(0, card("green 1")), TurnEnded(0, 0, 1)]
    assert state.hands[0] == tuple(sorted(cards("green 1", "blue 1", "blue 2")))
    assert state.current == NO_MISSION and state.turn_player == 1 and state.step == PLAY
    assert rules.decision_name(state) == "play" and rules.points(state) == 1
    assert rules.invariant_violations(state) == []


def test_with_no_current_mission_a_play_completes_nothing():
    """B5: "if all are empty there is no current mission", so no play completes a mission any
    more, even one that leaves the completed mission's red pair side by side on the circle."""
    red_pair = ["red 8", "yellow 1", "green 8", "yellow 2", "blue 8", "yellow 3", "red 1", "red 2"]
    state = position(red_pair, {0: ["blue 1", "green 1", "green 2"]}, mode=WILD_CRAB,
                     missions=ONLY, current=None, completed=("Red pair",))  # fmt: skip
    assert state.current == NO_MISSION and state.mission_piles == [(), (), ()]
    # Blue 1 on the yellow 1 (another colour, equal): the red pair stays side by side.
    events = turn.apply_move(state, PlayCard(card("blue 1"), 1))
    assert events == [CardPlayed(0, card("blue 1"), 1, False)]
    assert state.current == NO_MISSION and state.completed == [0] and state.pending == []
    assert state.step == REFILL and rules.points(state) == 1
