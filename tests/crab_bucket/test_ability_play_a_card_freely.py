"""The mission ability "Play a card freely" (docs/rules/crab_bucket.md, "Mission Abilities"): a
crab card from the hand onto any pile, whatever its top: that turn's main action, told as played
freely."""

from __future__ import annotations

from crabgames.games.crab_bucket import rules
from crabgames.games.crab_bucket.moves import (
    UseAbility,
)
from tests.crab_bucket.helpers import (
    card,
    mission_index,
    only,
    ready,
    text,
    use,
    use_mission,
)


def test_play_a_card_freely_ignores_the_placement_rule_and_is_the_main_action():
    state = ready("Mission 2-A")
    m = mission_index("Mission 2-A")
    assert not rules.can_place(card("red 1"), card("red 8"))
    use(state, UseAbility(m, (0,), card("red 1")))
    assert state.piles[0][-1] == card("red 1")
    assert state.plays_left == 0 and rules.decision_name(state) == "draw_card"


def test_play_a_card_freely_is_the_main_action_from_the_hand_said_as_free():
    played = only(
        use_mission(ready("Mission 2-A"), "Mission 2-A", (6,), card("yellow 3")), "card_played"
    )
    assert played.freely and played.pile == 6
    assert text(played) == "player 0 plays yellow 3 freely on pile 6"
