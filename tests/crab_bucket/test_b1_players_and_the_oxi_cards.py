"""B1: players and the Oxi! cards (docs/rules/crab_bucket.md, "B1: players and the Oxi! cards"):
one Oxi! card per player takes part, set aside during the deal (only the 32 crab cards are dealt)
and shuffled into the draw pile once it is done."""

from __future__ import annotations

from crabgames.core.engine import EXPLICIT, Engine
from crabgames.games.crab_bucket import GAME
from crabgames.v1 import crab_bucket_pb2 as pb
from crabgames.v1 import game_pb2


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
