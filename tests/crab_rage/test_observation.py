"""CRAB RAGE!'s observation tensor (docs/agents.md): each feature encodes what the docs say."""

from __future__ import annotations

import random
from pathlib import Path

from crabgames.core.agents import Table
from crabgames.core.engine import Engine
from crabgames.games import all_games
from crabgames.games.crab_rage.observation import (
    ARENA,
    BILLBOARDS,
    CRAB,
    CRABS,
    DECISION_NAMES,
    LAYOUT,
    MANAGER,
    SEATS,
)
from crabgames.v1 import crab_rage_pb2 as pb
from crabgames.v1 import game_pb2

ENGINE = Engine(all_games())
ARENA_PLACE = pb.CRAB_RAGE_PLACE_ARENA


def observe(view: game_pb2.View) -> list[float]:
    return ENGINE.observation(view)


def feature(values: list[float], name: str) -> list[float]:
    first, end = LAYOUT.spans[name]
    return values[first:end]


def started_view(player: int = 0, num_players: int = 4) -> game_pb2.View:
    return Table.new(ENGINE, "crab_rage", num_players, seed=3).view(player)


def test_every_decision_a_game_reaches_is_one_of_the_named_decisions():
    for num_players in (3, 4, 5):
        table = Table.new(ENGINE, "crab_rage", num_players, seed=num_players)
        rng = random.Random(num_players)
        while not table.is_over():
            view = table.view(0)
            assert view.crab_rage.decision.name in DECISION_NAMES
            index = DECISION_NAMES.index(view.crab_rage.decision.name)
            assert feature(observe(view), "decision")[index] == 1
            table.play(rng.choice(table.legal_move_ids()))


def test_a_crab_in_an_arena_shows_its_muscle_place_and_arena_in_its_managers_slot():
    view = started_view(player=3)
    crab = view.crab_rage.players[1].crabs[2]
    crab.muscle, crab.place, crab.arena, crab.riding_fans = 4, ARENA_PLACE, 1, 2
    crabs = feature(observe(view), "crabs")
    at = (2 * CRABS + 2) * CRAB  # seat 1 is two seats after the viewer, seat 3
    assert crabs[at : at + CRAB] == [4 / 6, 0, 1, 0, 0, 1, 0, 0, 0.5]


def test_a_manager_shows_rage_fans_signature_move_and_fanbase_card():
    view = started_view(player=0)
    manager = view.crab_rage.players[0]
    manager.rage, manager.supply, manager.passed = 8, 16, True
    manager.signature_move = pb.CRAB_RAGE_SIGNATURE_MOVE_SHELL_UP
    values = feature(observe(view), "managers")[:MANAGER]
    assert values[:6] == [0.5, 0.5, 0, 1, 0, 0]
    assert values[6:11] == [0, 0, 1, 0, 0]
    rewards = [(r.rage, r.fans) for r in manager.fanbase_card.rewards]
    assert values[11:15] == [rage / 2 for rage, _ in rewards]
    assert values[15:19] == [fans for _, fans in rewards]


def test_rage_beyond_the_scale_is_clipped():
    view = started_view()
    view.crab_rage.players[2].rage = 40  # no upper limit (R3)
    assert feature(observe(view), "managers")[2 * MANAGER] == 1


def test_an_arena_shows_fans_by_slot_and_alliances_both_ways():
    view = started_view(player=1)
    arena = view.crab_rage.arenas[2]
    arena.billboard = pb.CRAB_RAGE_BILLBOARD_PRESSURE_COOKER
    arena.fans[:] = [8, 0, 0, 16]
    arena.alliances.add(seats=[0, 3])
    values = feature(observe(view), "arenas")[2 * ARENA : 3 * ARENA]
    assert values[:BILLBOARDS] == [0, 0, 1, 0]
    assert values[BILLBOARDS : BILLBOARDS + SEATS] == [0, 0, 0.5, 0.25, 0]  # seats 1, 2, 3, 0
    pairs = values[BILLBOARDS + 2 * SEATS :]
    assert [i for i, v in enumerate(pairs) if v] == [2 * SEATS + 3, 3 * SEATS + 2]


def test_the_viewer_sees_their_own_commitment_and_no_one_elses():
    view = started_view(player=2)
    view.crab_rage.players[2].commitment = 8
    assert feature(observe(view), "own_commitment") == [0.25]
    view = started_view(player=2)
    view.crab_rage.players[1].commitment = 8  # never in seat 2's view; ignored if it were
    assert feature(observe(view), "own_commitment") == [0]


def test_the_microphone_and_the_decider_are_counted_from_the_viewer():
    table = Table.new(ENGINE, "crab_rage", 5, seed=8)
    view = table.view(4)
    part = view.crab_rage
    values = observe(view)
    assert feature(values, "microphone")[(part.microphone - 4) % 5] == 1
    assert feature(values, "decider")[(part.decision.player - 4) % 5] == 1
    assert feature(values, "to_decide") == [1 if part.decision.player == 4 else 0]
    assert feature(values, "players") == [0, 0, 1]
    assert sum(feature(values, "action_board")) == 4 + len(part.action_cards)


def test_at_the_end_the_winners_and_their_glory_are_by_slot():
    table = Table.new(ENGINE, "crab_rage", 3, seed=9)
    rng = random.Random(9)
    while not table.is_over():
        table.play(rng.choice(table.legal_move_ids()))
    view = table.view(1)
    values = observe(view)
    glory = view.outcome.crab_rage.glory
    assert feature(values, "total_glory")[:3] == [glory[1] / 20, glory[2] / 20, glory[0] / 20]
    winners = {(seat - 1) % 3 for seat in view.outcome.winners}
    assert {i for i, v in enumerate(feature(values, "winners")) if v} == winners


def test_docs_list_the_decision_names_in_the_tensors_order():
    docs = (Path(__file__).resolve().parents[2] / "docs" / "agents.md").read_text()
    flat = " ".join(docs.split()).replace("then chance's ", "")
    assert ", ".join(DECISION_NAMES) + "." in flat
