"""B6: the turn (docs/rules/crab_bucket.md, "B6: the turn"): at most one ability, before the main
action; then one main action (two plays after "Draw 1 card and play 2"; "Play a card freely" is
itself the main action); then drawing back to 3. A player who can take a main action must; one
who used an ability and then has none ends the turn without drawing, and it is not a pass."""

from __future__ import annotations

from crabgames.games.crab_bucket import GAME, turn
from crabgames.games.crab_bucket.events import (
    NoMainAction,
    TurnEnded,
    TurnPassed,
)
from crabgames.games.crab_bucket.moves import (
    Pass,
    PlayCard,
    UseAbility,
)
from crabgames.v1 import crab_bucket_pb2 as pb
from tests.crab_bucket.helpers import (
    BLOCKED,
    BLOCKING,
    HAND,
    PILES,
    card,
    kinds,
    mission_index,
    position,
    ready,
    simple,
    text,
    use,
    uses,
)


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


def test_pass_is_offered_only_when_no_main_action_is_possible_but_an_ability_is():
    state = position(BLOCKING, {0: BLOCKED}, current="Mission 1-D", completed=("Mission 1-A",))
    moves = turn.legal_moves(state)
    assert Pass() in moves and not any(isinstance(m, PlayCard) for m in moves)
    normal = simple({0: ["blue 1", "green 1", "green 2"]})
    assert Pass() not in turn.legal_moves(normal)
    assert GAME.explain_illegal(normal, Pass()).rule == "B6"


def test_using_an_ability_then_having_no_main_action_is_not_a_pass():
    state = position(BLOCKING, {0: BLOCKED, 1: ["blue 8"]}, current="Mission 1-D",
                     completed=("Mission 1-B",))  # fmt: skip
    turn.apply_move(state, UseAbility(1, (0, 1)))  # Mission 1-B: swap two tops
    assert state.turn_player == 1 and state.passes == 0


def test_an_ability_then_no_main_action_ends_the_turn_without_a_pass():
    # Swapping two tops leaves player 0 with no card that fits: the turn ends, without drawing,
    # and it is not a pass (it changed the circle, B7 counts it as a turn that acted).
    state = position(BLOCKING, {0: BLOCKED, 1: ["blue 8"]}, current="Mission 1-D",
                     completed=("Mission 1-B",))  # fmt: skip
    events = turn.apply_move(state, UseAbility(mission_index("Mission 1-B"), (0, 1)))
    assert kinds(events) == ["ability_used", "tops_swapped", "no_main_action", "turn_ended"]
    assert "turn_passed" not in kinds(events)
    assert events[2] == NoMainAction(0, False)
    assert text(events[2]) == (
        "player 0 can take no main action after the ability: the turn ends without drawing"
    )
    assert events[3] == TurnEnded(0, passes=0, next_player=1)
    assert len(state.hands[0]) == 2 and state.turn_player == 1


def test_a_pass_is_a_pass_and_the_turns_end_says_who_plays_next():
    state = position(BLOCKING, {0: ["green 8"], 1: ["yellow 8"]}, current="Mission 1-D",
                     completed=("Mission 1-A",))  # fmt: skip
    events = turn.apply_move(state, Pass())
    assert kinds(events) == ["turn_passed", "turn_ended"]
    assert events[0] == TurnPassed(0, automatic=False)  # chosen, not forced (B6, G6)
    assert text(events[0]) == "player 0 passes"
    assert events[1] == TurnEnded(0, passes=1, next_player=1)
    assert text(events[1]) == "player 0's turn ends; player 1 plays next"
