"""The engine builds each legal move's message once per key the game gives
(words.move_cache_keys): moves with equal keys must be the same move with equal labels and ids,
in every mode and with every mission deck."""

from __future__ import annotations

from crabgames.core.engine import Engine
from crabgames.games.crab_bucket import GAME, words
from crabgames.v1 import game_pb2
from tests.cases.crab_bucket import CASES
from tests.playthrough import play_random


def test_moves_with_equal_cache_keys_have_equal_labels_and_ids():
    engine = Engine([GAME])
    seen: dict = {}
    kinds = set()
    for seed, (players, options) in enumerate(CASES, start=1):
        record = play_random(engine, "crab_bucket", players, options, seed)
        for state_msg in record.states:
            if state_msg.next.kind != game_pb2.DECIDER_KIND_PLAYER:
                continue
            state = engine.decode(state_msg).state
            moves = GAME.legal_moves(state)
            keys = words.move_cache_keys(state, moves)
            for move, key in zip(moves, keys, strict=True):
                found = (move, GAME.codec.move_label(state, move), GAME.move_id(state, move))
                assert seen.setdefault(key, found) == found, key
                kinds.add(type(move).__name__)
    assert kinds >= {"PlayCard", "UseAbility", "ChooseMissionPile", "KeepMission"}
