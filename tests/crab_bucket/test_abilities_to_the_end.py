"""Mission abilities checked to the end (B5, B6): a change an ability makes to the circle
completes the current mission at once, as a card played does; what each ability offers when
it has nothing to act on; the event naming the use."""

from __future__ import annotations

from crabgames.games.crab_bucket import abilities, rules, turn
from crabgames.games.crab_bucket.data import (
    BLUE,
    DISCARD_ALL_TOPS,
    DISCARD_PILE,
    DRAW_ONE_PLAY_TWO,
    GREEN,
    NEW_MISSION,
    OXI,
    RED,
    RESCUE_OXI,
    RESCUE_TOPS,
    YELLOW,
    Gap,
    Mission,
    NotAdjacent,
)
from crabgames.games.crab_bucket.events import AbilityUsed
from crabgames.games.crab_bucket.moves import UseAbility
from crabgames.games.crab_bucket.state import EXTRA_DRAW
from tests.crab_bucket.helpers import WILD_CRAB, card, cards, mission_index, position

# Current: "Apart" wants the red tops one pile apart and no red top beside a yellow one.
MISSIONS = (
    Mission("Apart", 1, RESCUE_TOPS, (Gap(RED, 1), NotAdjacent(RED, YELLOW))),
    Mission("Red pair", 1, RESCUE_TOPS, (Gap(RED, 0),)),
    Mission("Discard all", 3, DISCARD_ALL_TOPS, (Gap(GREEN, 0),)),
    Mission("Discard pile", 3, DISCARD_PILE, (Gap(BLUE, 0),)),
    Mission("Rescue oxi", 1, RESCUE_OXI, (Gap(YELLOW, 0),)),
    Mission("Next", 2, RESCUE_TOPS, (Gap(GREEN, 3),)),
    Mission("New mission", 3, NEW_MISSION, (Gap(YELLOW, 3),)),
)
# Red 1 and red 2 with yellow 8 between them: "Apart" waits only for the yellow to go.
PILES = [["red 1"], ["yellow 8"], ["red 2"], ["blue 8"], ["green 8"], ["green 3", "oxi"],
         ["blue 7"], ["green 7"]]  # fmt: skip
HAND = ["blue 1", "blue 2", "green 1"]


def at(ability_mission: str, current: str = "Apart", piles=PILES, **kw):
    return position(piles, {0: HAND}, missions=MISSIONS, current=current,
                    completed=(ability_mission,), **kw)  # fmt: skip


def completes_apart(state, move: UseAbility) -> None:
    assert not rules.mission_met(MISSIONS[0], rules.top_colors(state))
    events = turn.apply_move(state, move)
    done = [e for e in events if e.kind == "mission_completed"]
    assert [e.mission for e in done] == [0]
    assert 0 in state.completed and rules.decision_name(state) == "draw_mission"


def test_discarding_a_pile_that_breaks_a_requirement_completes_the_mission_at_once():
    state = at("Discard pile")
    completes_apart(state, UseAbility(mission_index("Discard pile", MISSIONS), (1,)))
    assert state.piles[1] == ()


def test_discarding_every_top_completes_the_mission_it_reveals():
    piles = [["red 1", "yellow 8"], ["yellow 7"], ["red 2", "yellow 6"], ["blue 8"],
             ["green 8"], ["green 3"], ["blue 7"], ["green 7"]]  # fmt: skip
    state = at("Discard all", current="Red pair", piles=piles)
    m = mission_index("Discard all", MISSIONS)
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
    completes_apart(state, UseAbility(mission_index("Rescue oxi", MISSIONS), (1,), -1, 5))
    assert state.piles[1] == (card("yellow 8"), OXI) and state.piles[5] == cards("green 3")


def test_rescuing_an_oxi_top_returns_it_beside_the_oxi_cards_still_in_the_draw_pile():
    piles = [["red 1"], ["blue 3", "blue 4", "oxi"], *PILES[2:]]
    piles[5] = ["green 3"]
    state = at("Next", piles=piles)  # "Next": Rescue up to 3 tops
    assert state.draw_pile[OXI] == 1  # the other player's Oxi! card, not drawn yet
    turn.apply_move(state, UseAbility(mission_index("Next", MISSIONS), (1,)))
    assert state.draw_pile[OXI] == 2
    assert state.piles[1] == cards("blue 3", "blue 4")  # only the top card goes


def test_the_use_of_an_ability_is_named_in_its_event():
    state = at("Discard pile")
    m = mission_index("Discard pile", MISSIONS)
    events = turn.apply_move(state, UseAbility(m, (1,)))
    assert events[0].kind == "ability_used"
    assert events[0] == AbilityUsed(0, m, DISCARD_PILE, (1,))


def test_discard_the_top_of_all_piles_is_not_offered_when_every_pile_is_empty():
    state = at("Discard all", current="Red pair", piles=[""] * 8)
    assert abilities.ability_moves(state) == []


def test_draw_1_and_play_2_waits_for_one_card_drawn():
    swap = Mission("Draw 2", 2, DRAW_ONE_PLAY_TWO, (Gap(RED, 5),))
    state = position(PILES, {0: HAND}, missions=(*MISSIONS, swap), current="Apart",
                     completed=("Draw 2",))  # fmt: skip
    turn.apply_move(state, UseAbility(len(MISSIONS)))
    assert state.pending == [(EXTRA_DRAW, 0)] and state.plays_left == 2


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
