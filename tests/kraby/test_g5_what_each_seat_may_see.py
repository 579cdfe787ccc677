"""G5: what each seat may see (docs/rules/general.md, "G5: what each seat may see"), for Kraby's
tiles (docs/rules/kraby.md, "What the other fishers learn of a tile dealt or drawn"): a tile
dealt or drawn is seen by its fisher only; the others and the spectators learn who received it
and the hand's and the bag's sizes, never its colour; every other event is shared whole."""

from __future__ import annotations

from crabgames.games.kraby import GAME
from crabgames.games.kraby.data import ORANGE, PINK
from crabgames.games.kraby.events import (
    TileDealt,
    TileDrawn,
)
from tests.kraby.helpers import EVERY_KIND, encoded


def test_a_tile_into_a_hand_is_seen_only_by_its_fisher_and_public_events_are_shared_whole():
    dealt = TileDealt(0, ORANGE, 1, 119)
    assert GAME.redact_event(dealt, 0) is dealt
    assert GAME.redact_event(dealt, 1) == TileDealt(0, 0, 1, 119)
    assert GAME.redact_event(dealt, None) == TileDealt(0, 0, 1, 119)
    for event in EVERY_KIND:
        if not isinstance(event, (TileDealt, TileDrawn)):
            assert GAME.redact_event(event, None) is event


def test_a_hidden_tile_still_tells_everyone_the_hand_and_bag_sizes():
    drawn = encoded(GAME.redact_event(TileDrawn(2, PINK, 6, 80), 0))
    assert drawn.text == "player 2 draws a tile"
    assert "color" not in drawn.args
    seen = drawn.kraby.tile_drawn
    assert (seen.player, seen.color, seen.hand_size, seen.bag_size) == (2, 0, 6, 80)
    mine = encoded(TileDrawn(2, PINK, 6, 80))
    assert mine.text == "player 2 draws one pink tile"
