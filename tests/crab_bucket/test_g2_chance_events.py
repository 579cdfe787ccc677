"""G2: chance events (docs/rules/general.md, "G2: chance events"), for Crab Bucket's draws: a card
drawn is one chance event over the cards left in the draw pile, each kind weighted by how many of
it are left (an Oxi! draw, value 32, by the Oxi! cards in the draw pile)."""

from __future__ import annotations

from crabgames.core.engine import EXPLICIT, Engine
from crabgames.games.crab_bucket import GAME
from crabgames.v1 import crab_bucket_pb2 as pb
from crabgames.v1 import game_pb2


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
