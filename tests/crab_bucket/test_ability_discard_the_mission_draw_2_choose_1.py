"""The mission ability "Discard the Mission, draw 2 choose 1" (docs/rules/crab_bucket.md,
"Mission Abilities"): the current mission leaves the game (named before the draws), two missions
are drawn (Quick mode: from the current level's pile; Wild Crab: from a pile chosen for each
draw) and one is kept, the other going back to its pile. Offered only while two can be drawn in
Quick mode; with one mission left to draw it is kept without a choice, and told as such, in both
modes; so a keep decision is only ever one between two missions (the engine's readings, same
file)."""

from __future__ import annotations

import pytest

from crabgames.core.errors import InvalidArgument
from crabgames.games.crab_bucket import GAME, abilities, rules, turn
from crabgames.games.crab_bucket.data import (
    BLUE,
    GREEN,
    NEW_MISSION,
    RED,
    RESCUE_TOPS,
    YELLOW,
    Gap,
    Mission,
    NotAdjacent,
)
from crabgames.games.crab_bucket.events import (
    AbilityUsed,
    MissionDiscarded,
    MissionDrawn,
    MissionKept,
    MissionPileChosen,
    NoMissionDrawn,
)
from crabgames.games.crab_bucket.moves import (
    ChooseMissionPile,
    KeepMission,
    PlayCard,
    UseAbility,
)
from crabgames.games.crab_bucket.state import (
    KEEP_MISSION,
    NO_MISSION,
    OFFER_CHOOSE_PILE,
    OFFER_DRAW,
    PLAY,
)
from crabgames.v1 import crab_bucket_pb2 as pb
from tests.crab_bucket.helpers import (
    APART_HAND,
    WILD_CRAB,
    as_sent,
    at,
    mission_index,
    only,
    position,
    ready,
    text,
    use,
    use_mission,
)


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
    assert text(kept[0]) == "player 0 keeps Mission 2-E; Mission 1-E goes back to its pile"
    assert mission_index("Mission 1-E") in state.mission_piles[0]


def test_discard_the_mission_names_it_before_the_offer_is_drawn():
    state = ready("Mission 3-C")
    current = state.current
    events = use_mission(state, "Mission 3-C")
    assert only(events, "mission_discarded").mission == current
    assert text(only(events, "mission_discarded")) == (
        "player 0 removes Mission 1-D (level 1) from the game"
    )


def test_draw_2_choose_1_is_offered_only_while_its_pile_can_give_two_missions():
    # Quick mode draws from the current mission's level (rules notes): "Next" is level 2 and
    # the only level 2 mission, so its pile is empty and the ability is not offered.
    state = at("New mission", current="Next")
    assert abilities.offer_levels(state) == []
    assert abilities.ability_moves(state) == []
    state = at("New mission", current="Apart")  # level 1: "Red pair" and "Rescue oxi" left
    assert abilities.offer_levels(state) == [1]
    # Wild Crab: any level whose pile is not empty.
    state = at("New mission", current="Apart", mode=WILD_CRAB)
    assert abilities.offer_levels(state) == [1, 2, 3]
    state.mission_piles[1] = ()
    assert abilities.offer_levels(state) == [1, 3]
    state.mission_piles[0] = ()
    assert abilities.offer_levels(state) == [3]


# Three missions: "Apart" is current, "Last" is the only one left in any mission pile, and "New
# mission" is completed with its ability ready. None is met by the circle below: "Apart" wants the
# red tops one pile apart (they are) and no red top beside a yellow one (red 1 is beside yellow 8);
# "Last" wants two green tops side by side (green 8 and green 7 are three piles apart, red 5
# between).
MISSIONS = (
    Mission("Apart", 1, RESCUE_TOPS, (Gap(RED, 1), NotAdjacent(RED, YELLOW))),
    Mission("Last", 1, RESCUE_TOPS, (Gap(GREEN, 0),)),
    Mission("New mission", 3, NEW_MISSION, (Gap(YELLOW, 3),)),
)


APART, LAST, NEW = 0, 1, 2


PILES = [["red 1"], ["yellow 8"], ["red 2"], ["blue 8"], ["green 8"], ["green 3", "red 5"],
         ["blue 7"], ["green 7"]]  # fmt: skip


def with_new_mission_ready(**kw):
    return position(PILES, {0: APART_HAND}, missions=MISSIONS, current="Apart",
                    completed=("New mission",), **kw)  # fmt: skip


def discard_the_mission(state) -> None:
    """Use the ability: the current mission is removed from the game, then the draws."""
    move = UseAbility(NEW)
    assert GAME.is_legal(state, move), GAME.explain_illegal(state, move)
    events = turn.apply_move(state, move)
    assert events == [
        AbilityUsed(0, NEW, NEW_MISSION, ()),
        MissionDiscarded(0, APART, 1, "Apart"),
    ]
    assert state.discarded_missions == [APART] and state.current == NO_MISSION


def kept_without_a_choice(state) -> None:
    """The only mission drawn is the current one: nothing left offered or pending, the circle
    unchanged, and the turn's main action still owed (the ability came first, B6)."""
    assert state.current == LAST and state.offered == [] and state.pending == []
    assert state.mission_piles == [(), (), ()]
    assert state.discarded_missions == [APART]
    assert state.completed == [NEW] and state.spent == [True]
    assert state.step == PLAY and state.turn_player == 0 and state.ability_used
    assert state.played == 0 and state.plays_left == 1
    assert rules.decision_name(state) == "play"
    moves = turn.legal_moves(state)
    assert moves and all(isinstance(m, PlayCard) for m in moves)
    assert KeepMission(LAST) not in moves
    assert rules.invariant_violations(state) == []


def test_the_only_mission_drawn_is_kept_and_told():
    # Quick mode draws both from the current mission's level (rules notes): level 1 holds "Last"
    # only, so the second draw finds the pile empty and "Last" is kept without a choice.
    state = with_new_mission_ready()
    discard_the_mission(state)
    assert state.pending == [(KEEP_MISSION, 0), (OFFER_DRAW, 1), (OFFER_DRAW, 1)]
    assert rules.decision_name(state) == "draw_offer"
    assert rules.chance_outcomes(state) == [(LAST, 1)]
    events = turn.apply_chance(state, LAST)
    assert events == [
        MissionDrawn(LAST, 1, True, "Last"),
        NoMissionDrawn(True, 1),
        MissionKept(LAST, (), "Last"),
    ]
    assert [text(e) for e in events] == [
        "Last (level 1) drawn into the offer",
        "the level 1 mission pile is empty: no mission is drawn into the offer",
        "Last is the new current mission: it was the only one drawn",
    ]
    kept = as_sent(events[2]).crab_bucket.mission_kept
    assert kept.mission == LAST and not kept.HasField("player")  # nobody chose it
    assert list(kept.returned) == []  # nothing goes back to a pile
    kept_without_a_choice(state)


def test_wild_crab_with_every_pile_empty_for_the_second_draw_the_only_mission_drawn_is_kept():
    # Wild Crab: a pile is chosen for each draw (rules notes); once "Last" is drawn every pile is
    # empty, so there is no pile to choose for the second (B5) and "Last" is kept without a choice.
    state = with_new_mission_ready(mode=WILD_CRAB)
    discard_the_mission(state)
    assert state.pending == [(KEEP_MISSION, 0), (OFFER_CHOOSE_PILE, 0), (OFFER_CHOOSE_PILE, 0)]
    assert rules.decision_name(state) == "choose_offer_pile"
    assert turn.legal_moves(state) == [ChooseMissionPile(1)]
    assert turn.apply_move(state, ChooseMissionPile(1)) == [MissionPileChosen(0, 1, True)]
    assert rules.decision_name(state) == "draw_offer"
    assert rules.chance_outcomes(state) == [(LAST, 1)]
    events = turn.apply_chance(state, LAST)
    assert events == [
        MissionDrawn(LAST, 1, True, "Last"),
        NoMissionDrawn(True),
        MissionKept(LAST, (), "Last"),
    ]
    assert [text(e) for e in events] == [
        "Last (level 1) drawn into the offer",
        "every mission pile is empty: no mission is drawn into the offer",
        "Last is the new current mission: it was the only one drawn",
    ]
    none_drawn = as_sent(events[1]).crab_bucket.no_mission_drawn
    assert none_drawn.offer and not none_drawn.HasField("level")
    assert not as_sent(events[2]).crab_bucket.mission_kept.HasField("player")
    kept_without_a_choice(state)


# The deck with one more mission, "Spare" (two blue tops side by side: blue 8 and blue 7 are not).
WITH_SPARE = (*MISSIONS, Mission("Spare", 2, RESCUE_TOPS, (Gap(BLUE, 0),)))


SPARE = 3


def waiting_to_keep(offered: list[int]) -> pb.CrabBucketState:
    """The state message of a Wild Crab turn waiting to keep one of `offered` after "Apart" was
    discarded by the ability; the missions not offered are in their piles."""
    state = position(PILES, {0: APART_HAND}, mode=WILD_CRAB, missions=WITH_SPARE, current=None,
                     completed=("New mission",))  # fmt: skip
    state.mission_piles = [
        tuple(m for m in pile if m != APART and m not in offered) for pile in state.mission_piles
    ]
    state.discarded_missions = [APART]
    state.spent, state.ability_used = [True], True
    state.offered = offered
    state.pending = [(KEEP_MISSION, 0)]
    msg = pb.CrabBucketState()
    GAME.codec.encode_state(state, msg)
    return msg


def test_a_keep_decision_is_a_choice_between_two_missions_drawn():
    """G3: a state says who decides what. Keeping is a decision only between two missions drawn;
    with one it is kept at once (the state never waits on it), and with none there is nothing to
    keep: a state waiting to keep then is refused as waiting for no decision anyone can make."""
    two = GAME.codec.decode_state(waiting_to_keep([LAST, SPARE]), 2, "state")
    assert rules.decision_name(two) == "keep_mission" and two.turn_player == 0
    assert turn.legal_moves(two) == [KeepMission(LAST), KeepMission(SPARE)]
    for offered in ([LAST], []):
        with pytest.raises(InvalidArgument) as refused:
            GAME.codec.decode_state(waiting_to_keep(offered), 2, "state")
        assert refused.value.reason == "MALFORMED_STATE"
        (violation,) = refused.value.violations
        assert (violation.field, violation.description) == (
            "state",
            "the state is not waiting for a decision anyone can make",
        )
