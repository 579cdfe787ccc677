"""Decoded states are remembered by their exact bytes for speed only: behaviour never depends on
it (the server stays stateless) and an altered state is always checked in full."""

from __future__ import annotations

import pytest

from crabgames.core.engine import MAX_REMEMBERED_MOVE_BYTES, Engine
from crabgames.core.errors import IllegalMove, InvalidArgument
from crabgames.core.game import decoded_move, paths
from crabgames.games import all_games
from crabgames.v1 import game_pb2, kraby_pb2
from tests.playthrough import encode

# Weight of one 2-player Kraby state in the cache (engine.DecodedStates.weight).
KRABY_ENTRY_BYTES = 1024 + 4 * 300


@pytest.fixture
def engine():
    return Engine(all_games(), cache_bytes=4 * KRABY_ENTRY_BYTES)


def test_a_state_the_engine_returned_is_taken_from_memory(engine):
    state, _ = engine.new_game("kraby", kraby_pb2.KrabyOptions(), 3, seed=1)
    moves, _ = engine.legal_moves(state)
    after, _, _ = engine.apply_move(state, moves[0])
    assert encode(after) in engine.decoded.entries


def test_every_decode_hands_out_its_own_copy(engine):
    state, _ = engine.new_game("kraby", kraby_pb2.KrabyOptions(), 3, seed=1)
    first = engine.decode(state)
    first.state.hands[0] = [9, 9, 9, 9, 9]
    first.prng.counter += 100
    second = engine.decode(state)
    assert second.state.hands[0] != [9, 9, 9, 9, 9]
    assert encode(engine.encode(second)) == encode(state)


def test_an_altered_state_is_checked_in_full_even_after_its_original_was_seen(engine):
    state, _ = engine.new_game("kraby", kraby_pb2.KrabyOptions(), 3, seed=1)
    engine.decode(state)
    state.kraby.hands[1].orange += 5
    with pytest.raises(InvalidArgument):
        engine.decode(state)


def test_memory_is_bounded_in_bytes(engine):
    for seed in range(1, 10):
        state, _ = engine.new_game("kraby", kraby_pb2.KrabyOptions(), 2, seed=seed)
        engine.decode(state)
    assert engine.decoded.bytes <= engine.decoded.max_bytes
    assert len(engine.decoded.entries) == 4  # each weighs about a quarter of the bound
    assert engine.decoded.bytes == sum(map(engine.decoded.weight, engine.decoded.entries))


def test_a_state_too_large_to_keep_is_decoded_but_not_kept(engine, monkeypatch):
    from crabgames.core import engine as engine_module

    state, _ = engine.new_game("kraby", kraby_pb2.KrabyOptions(), 2, seed=3)
    monkeypatch.setattr(engine_module, "MAX_KEPT_STATE_BYTES", len(encode(state)) - 1)
    kept = dict(engine.decoded.entries)
    assert engine.decode(encode(state)).num_players == 2
    assert encode(state) not in engine.decoded.entries
    assert dict(engine.decoded.entries).keys() <= kept.keys() | set()


def test_a_fresh_engine_plays_the_same_game(engine):
    """Same seed, same decisions: the same states with or without anything remembered."""
    finals = []
    for e in (engine, Engine(all_games(), cache_bytes=0)):
        state, _ = e.new_game("kraby", kraby_pb2.KrabyOptions(), 2, seed=5)
        for _ in range(20):
            moves, _ = e.legal_moves(state)
            state, _, _ = e.apply_move(state, moves[len(moves) // 2])
        finals.append(encode(state))
    assert finals[0] == finals[1]


@pytest.mark.parametrize("game_id", ["kraby", "crab_bucket", "crab_rage"])
def test_read_only_calls_leave_the_remembered_state_as_it_was(game_id):
    """LegalMoves, views, outcomes and playouts read the remembered match itself, uncopied:
    none of them may change it."""
    import importlib

    from crabgames.core.playouts import playouts
    from tests.playthrough import play_random

    engine = Engine(all_games())
    num_players, options = importlib.import_module(f"tests.cases.{game_id}").CASES[-1]
    states = play_random(engine, game_id, num_players, options, seed=6).states
    for state in states[:: max(1, len(states) // 15)] + [states[-1]]:
        key = encode(state)
        engine.legal_moves_response_bytes(state, with_mask=True)
        engine.legal_moves(state)
        for viewer in [None, *range(num_players)]:
            engine.view(state, viewer)
        engine.outcome(state)
        playouts(engine, state, 2, seed=3)
        assert encode(engine.encode(engine.decoded.entries[key])) == key


@pytest.mark.parametrize("game_id", ["kraby", "crab_bucket", "crab_rage"])
def test_a_state_is_remembered_by_the_bytes_a_client_sends_back(game_id):
    """ApplyMove answers with (and remembers the state by) bytes built from the game's own
    encoding (Game.encode_state_bytes): they must be exactly protobuf's deterministic bytes of
    the state, or a client sending the state back would never find it remembered."""
    import importlib

    from tests.playthrough import play_random

    engine = Engine(all_games())
    for num_players, options in importlib.import_module(f"tests.cases.{game_id}").CASES:
        record = play_random(engine, game_id, num_players, options, seed=8)
        for state, move in list(zip(record.states, record.moves, strict=False))[::2]:
            data, _, _ = engine.apply_move_serialized(state, move)
            after = engine.decode(state)
            after.play(move)
            assert data == encode(engine.encode(after))
            assert data in engine.decoded.entries


# ----- decoded moves (core/game.py Paths.decoded_moves) -----


def test_a_move_is_decoded_once_by_its_bytes_and_checked_every_time(engine):
    state, _ = engine.new_game("kraby", kraby_pb2.KrabyOptions(), 3, seed=1)
    moves, _ = engine.legal_moves(state)
    engine.apply_move(state, moves[0])
    game = engine.games["kraby"]
    player, native = paths(game).decoded_moves[moves[0].SerializeToString()]
    assert (player, native) == decoded_move(game, moves[0], "move")
    # The same bytes, remembered, from a seat that is not to decide: still refused (G3).
    wrong = game_pb2.Move.FromString(moves[0].SerializeToString())
    wrong.player = (player + 1) % 3
    with pytest.raises(IllegalMove) as refused:
        engine.apply_move(state, wrong)
    assert refused.value.rule == "G3"
    # A remembered move sent when it is no longer legal: refused by the rules, not by memory.
    after, _, _ = engine.apply_move(state, moves[0])
    later, _ = engine.legal_moves(after)
    if moves[0] not in later:
        with pytest.raises(IllegalMove):
            engine.apply_move(after, moves[0])


def test_a_move_that_does_not_decode_names_its_own_path_and_is_not_kept(engine):
    state, _ = engine.new_game("kraby", kraby_pb2.KrabyOptions(), 3, seed=1)
    moves, _ = engine.legal_moves(state)
    bad = game_pb2.Move.FromString(moves[0].SerializeToString())
    bad.kraby.place_tile.lane = 99
    with pytest.raises(InvalidArgument) as refused:
        engine.decode(state).play(bad, "moves[1]")
    assert refused.value.violations[0].field == "moves[1].kraby.place_tile.lane"
    assert bad.SerializeToString() not in paths(engine.games["kraby"]).decoded_moves


def test_a_padded_move_is_decoded_every_time_and_never_kept(engine):
    state, _ = engine.new_game("kraby", kraby_pb2.KrabyOptions(), 3, seed=1)
    moves, _ = engine.legal_moves(state)
    padded = game_pb2.Move.FromString(moves[0].SerializeToString())
    padded.label = "x" * MAX_REMEMBERED_MOVE_BYTES
    engine.apply_move(state, padded)
    assert padded.SerializeToString() not in paths(engine.games["kraby"]).decoded_moves
