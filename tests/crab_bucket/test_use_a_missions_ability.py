"""The rulebook's "3. Use a Mission's Ability" (docs/rules/crab_bucket.md, "3. Use a Mission's
Ability", and "Mission Abilities"): a completed mission's ability is used once, then turned face
down (it still scores); a use that breaks a rule says which; two ready cards with one ability
offer it once, and the other abilities still (the engine's reading, same file); the use is named
in its event. (Each ability's effect: test_ability_*.py; when in the turn: B6.)"""

from __future__ import annotations

from crabgames.games.crab_bucket import GAME, abilities, rules, turn
from crabgames.games.crab_bucket.data import (
    DISCARD_PILE,
)
from crabgames.games.crab_bucket.events import AbilityUsed
from crabgames.games.crab_bucket.moves import PlayCard, UseAbility
from tests.crab_bucket.helpers import (
    APART_MISSIONS,
    HAND,
    PILES,
    at,
    mission_index,
    position,
    ready,
    use,
    uses,
)


def test_an_ability_is_used_once_and_its_card_turned_face_down():
    state = ready("Mission 1-A")
    use(state, UseAbility(mission_index("Mission 1-A"), (0,)))
    assert state.spent == [True]
    assert uses(state) == []  # and the main action is still owed
    assert any(isinstance(m, PlayCard) for m in turn.legal_moves(state))
    assert rules.points(state) == 1  # a face-down mission still scores


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


def test_two_ready_cards_sharing_an_ability_still_let_the_other_abilities_be_offered():
    state = position(PILES, {0: HAND}, current="Mission 1-C",
                     completed=("Mission 1-A", "Mission 1-D", "Mission 1-B"))  # fmt: skip
    missions = {u.mission for u in abilities.ability_moves(state)}
    assert missions == {mission_index("Mission 1-A"), mission_index("Mission 1-B")}


def test_the_use_of_an_ability_is_named_in_its_event():
    state = at("Discard pile")
    m = mission_index("Discard pile", APART_MISSIONS)
    events = turn.apply_move(state, UseAbility(m, (1,)))
    assert events[0].kind == "ability_used"
    assert events[0] == AbilityUsed(0, m, DISCARD_PILE, (1,))
