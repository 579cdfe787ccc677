"""Crab Bucket's observation tensor (docs/agents.md): each feature encodes what the docs say."""

from __future__ import annotations

import random

from crabgames.core.agents import Table
from crabgames.core.engine import Engine
from crabgames.games import all_games
from crabgames.games.crab_bucket.data import CRAB_CARDS, MAX_BETWEEN, OXI, card_id
from crabgames.games.crab_bucket.observation import (
    ADJACENT_AT,
    GAP_AT,
    LAYOUT,
    MISSION,
    NOT_ADJACENT_AT,
)
from crabgames.v1 import crab_bucket_pb2 as pb
from crabgames.v1 import game_pb2
from tests.cases.crab_bucket import easy_missions
from tests.crab_bucket.helpers import card_message

ENGINE = Engine(all_games())
RED, GREEN, BLUE, YELLOW = 0, 1, 2, 3  # colour indices in the tensor (CrabBucketColor - 1)


def observe(view: game_pb2.View) -> list[float]:
    return ENGINE.observation(view)


def feature(values: list[float], name: str) -> list[float]:
    first, end = LAYOUT.spans[name]
    return values[first:end]


def started_view(player: int = 0, num_players: int = 3) -> game_pb2.View:
    return Table.new(ENGINE, "crab_bucket", num_players, seed=1).view(player)


def test_a_piles_top_and_the_card_under_it_are_one_hot_by_card_id():
    view = started_view()
    pile = view.crab_bucket.piles[3]
    del pile.cards[:]
    pile.cards.extend([card_message(card_id(RED, 5)), card_message(card_id(BLUE, 2))])
    pile.height = 2
    values = observe(view)
    assert feature(values, "pile_tops")[3 * 33 : 4 * 33] == one_hot(33, card_id(BLUE, 2))
    assert feature(values, "pile_unders")[3 * 33 : 4 * 33] == one_hot(33, card_id(RED, 5))
    assert feature(values, "pile_heights")[3] == 2 / 37


def test_the_hand_counts_crab_cards_once_and_oxi_cards_by_quarters():
    view = started_view()
    del view.crab_bucket.hand[:]
    view.crab_bucket.hand.extend(
        [card_message(card_id(YELLOW, 8)), card_message(OXI), card_message(OXI)]
    )
    hand = feature(observe(view), "hand")
    assert hand[card_id(YELLOW, 8)] == 1 and hand[OXI] == 0.5 and sum(hand) == 1.5


def test_unseen_cards_are_exactly_the_draw_pile_and_the_other_hands():
    table = Table.new(ENGINE, "crab_bucket", 4, seed=6)
    rng = random.Random(6)
    while not table.is_over():
        for seat in range(4):
            view = table.view(seat)
            unseen = feature(observe(view), "unseen")
            others = sum(size for s, size in enumerate(view.crab_bucket.hand_sizes) if s != seat)
            hidden = sum(unseen[:CRAB_CARDS]) + round(unseen[OXI] * 5)
            assert hidden == view.crab_bucket.draw_pile_size + others
            own = [card_index(c) for c in view.crab_bucket.hand]
            assert all(unseen[card] == 0 for card in own if card != OXI)
        table.play(rng.choice(table.legal_move_ids()))


def card_index(card: pb.CrabBucketCard) -> int:
    return OXI if card.oxi else card_id(card.color - 1, card.number)


def test_the_current_mission_shows_its_level_ability_and_gaps():
    view = started_view()  # the default deck: mission 1-A is green 2, red 3, blue 0, yellow 1
    part = view.crab_bucket
    part.current_mission = 0
    assert part.options.missions[0].name == "Mission 1-A"
    mission = feature(observe(view), "current_mission")
    assert mission[:3] == [1, 0, 0]  # level 1
    assert mission[3] == 1  # Rescue up to 3 cards from the top, the first ability
    gaps = {(i - GAP_AT) // (MAX_BETWEEN + 1): (i - GAP_AT) % 7 for i in ones(mission, GAP_AT)}
    assert gaps == {RED: 3, GREEN: 2, BLUE: 0, YELLOW: 1}


def test_a_chain_and_an_x_are_marked_in_both_orders():
    mission = pb.CrabBucketMission(
        level=2,
        ability=pb.CRAB_BUCKET_ABILITY_PLAY_FREELY,
        requirements=[
            pb.CrabBucketRequirement(
                adjacent=pb.CrabBucketColorPair(first=pb.CRAB_BUCKET_COLOR_RED, second=3)
            ),
            pb.CrabBucketRequirement(not_adjacent=pb.CrabBucketColorPair(first=4, second=4)),
        ],
    )
    view = started_view()
    view.crab_bucket.options.missions.append(mission)
    view.crab_bucket.offered_missions.extend([0, len(view.crab_bucket.options.missions) - 1])
    second = feature(observe(view), "offered_missions")[MISSION:]
    assert ones(second, ADJACENT_AT, ADJACENT_AT + 16) == [
        ADJACENT_AT + RED * 4 + BLUE,
        ADJACENT_AT + BLUE * 4 + RED,
    ]
    assert ones(second, NOT_ADJACENT_AT, ADJACENT_AT) == [NOT_ADJACENT_AT + YELLOW * 5]
    assert second[:3] == [0, 1, 0]


def test_ready_abilities_count_completed_missions_not_yet_turned_down():
    view = started_view()
    part = view.crab_bucket
    del part.options.missions[:]
    part.options.missions.extend(easy_missions())  # missions i and i + 9 share ability i
    part.completed.add(mission=0)
    part.completed.add(mission=9)
    part.completed.add(mission=1, ability_used=True)
    values = observe(view)
    assert feature(values, "abilities_ready") == [1, 0, 0, 0, 0, 0, 0, 0, 0]
    assert feature(values, "completed") == [2 / 6, 1 / 6, 0]


def test_hand_sizes_and_the_decider_are_counted_from_the_viewer():
    table = Table.new(ENGINE, "crab_bucket", 5, seed=2)
    decider = table.decision().player
    viewer = (decider + 2) % 5
    values = observe(table.view(viewer))
    assert feature(values, "decider") == one_hot(5, 3)  # two seats after the viewer's decider
    assert feature(values, "turn_player") == one_hot(5, 3)
    assert feature(values, "to_decide") == [0]
    assert feature(values, "hand_sizes") == [0.75] * 5  # 3 cards each
    assert feature(values, "players") == [0, 0, 0, 1]
    values = observe(table.view(decider))
    assert feature(values, "to_decide") == [1]
    assert feature(values, "decision")[pb.CRAB_BUCKET_DECISION_KIND_PLAY - 1] == 1
    assert feature(values, "plays_left") == [0.5]


def test_the_team_that_wins_is_told_so():
    view = started_view()
    view.outcome.crab_bucket.won = True
    assert feature(observe(view), "won") == [1]


def one_hot(size: int, index: int) -> list[float]:
    return [1.0 if i == index else 0.0 for i in range(size)]


def ones(values: list[float], first: int, end: int | None = None) -> list[int]:
    stop = len(values) if end is None else end
    return [i for i in range(first, stop) if values[i]]
