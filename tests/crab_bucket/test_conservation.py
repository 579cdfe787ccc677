"""Card conservation: the 32 crab cards and the N Oxi! cards (B1) are always somewhere (piles,
hands, draw pile, Oxi! discard or set aside, removed from the game), after every move."""

from __future__ import annotations

import pytest

from crabgames.v1 import crab_bucket_pb2 as pb
from tests.cases.crab_bucket import easy_missions
from tests.playthrough import play_random


def every_card(state: pb.CrabBucketState) -> list[tuple[bool, int, int]]:
    cards = [c for pile in state.piles for c in pile.cards]
    cards += [c for hand in state.hands for c in hand.cards]
    cards += [*state.draw_pile, *state.removed]
    return [(c.oxi, c.color, c.number) for c in cards]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("mode", [pb.CRAB_BUCKET_MODE_QUICK, pb.CRAB_BUCKET_MODE_WILD_CRAB])
def test_every_card_is_somewhere_after_every_move(engine, players, mode):
    options = pb.CrabBucketOptions(mode=mode, missions=easy_missions())
    record = play_random(engine, "crab_bucket", players, options, seed=players)
    for state in record.states:
        part = state.crab_bucket
        found = every_card(part)
        crabs = sorted(c for c in found if not c[0])
        assert crabs == [(False, color, n) for color in range(1, 5) for n in range(1, 9)]
        oxi = sum(1 for c in found if c[0]) + part.oxi_discarded + part.oxi_set_aside
        assert oxi == players
    assert record.outcome is not None
