"""Chance events (G2) and their documented `value` encodings (docs/games/crab_bucket.md)."""

from __future__ import annotations

from crabgames.core.engine import Engine
from crabgames.games.crab_bucket import GAME
from crabgames.v1 import crab_bucket_pb2 as pb
from crabgames.v1 import game_pb2

EXPLICIT = game_pb2.CHANCE_MODE_EXPLICIT


def chance(value: int) -> game_pb2.Move:
    return game_pb2.Move(chance=game_pb2.ChanceOutcome(value=value))


def test_the_deal_draws_card_ids_from_the_32_crab_cards_then_oxi_cards_join_the_draw_pile():
    engine = Engine([GAME])
    state, _ = engine.new_game("crab_bucket", pb.CrabBucketOptions(), 3, seed=1,
                               chance_mode=EXPLICIT)  # fmt: skip
    moves, decision = engine.legal_moves(state)
    assert decision.decision == "deal"
    assert [m.chance.value for m in moves] == list(range(32))  # no Oxi! during the deal (B1)
    assert all(abs(m.chance.probability - 1 / 32) < 1e-12 for m in moves)
    # Green 2 is 1 * 8 + (2 - 1) = 9.
    assert moves[9].label == "green 2 dealt to pile 0"
    for value in range(8 + 3 * 3):  # 8 piles, 3 cards to each of 3 players
        state, _, _ = engine.apply_move(state, chance(value))
    assert state.crab_bucket.piles[1].cards[0] == pb.CrabBucketCard(color=1, number=2)  # red 2
    moves, decision = engine.legal_moves(state)
    assert decision.decision == "draw_mission"
    assert [m.chance.value for m in moves] == list(range(6))  # the level 1 mission indices
    state, _, _ = engine.apply_move(state, chance(0))
    assert state.crab_bucket.current_mission == 0 and state.next.decision == "play"
    assert sum(1 for c in state.crab_bucket.draw_pile if c.oxi) == 3


def test_an_oxi_draw_is_value_32_weighted_by_the_oxi_cards_in_the_draw_pile():
    engine = Engine([GAME])
    state, _ = engine.new_game("crab_bucket", pb.CrabBucketOptions(), 2, seed=3,
                               chance_mode=EXPLICIT)  # fmt: skip
    while state.next.kind == game_pb2.DECIDER_KIND_CHANCE:
        moves, _ = engine.legal_moves(state)
        state, _, _ = engine.apply_move(state, moves[0])
    moves, _ = engine.legal_moves(state)
    state, _, _ = engine.apply_move(state, moves[0])  # a main action: then a draw
    moves, decision = engine.legal_moves(state)
    assert decision.decision == "draw_card"
    oxi = [m for m in moves if m.chance.value == 32]
    assert len(oxi) == 1 and oxi[0].label == "player 0 draws Oxi!"
    remaining = 32 - 8 - 6 + 2  # crab cards left plus 2 Oxi!
    assert abs(oxi[0].chance.probability - 2 / remaining) < 1e-12
