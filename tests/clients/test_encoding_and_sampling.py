"""Integer move ids and masks for learning agents, and states sampled from a view, as a client
sees them through the service, for every game that implements the hooks."""

from __future__ import annotations

import random

import pytest

from crabclients.encoding import MoveSpace
from crabgames.v1 import game_pb2

from .conftest import GAMES, PLAYERS, require_move_ids, require_sampling, require_served

STEPS = 60  # moves per game walked through


def walk(client, game: str, seed: int, steps: int = STEPS):
    """States along a random game (stopping at its end)."""
    rng = random.Random(seed)
    state = client.new_game(game, PLAYERS[game], seed=seed).state
    for _ in range(steps):
        if state.next.kind == game_pb2.DECIDER_KIND_NONE:
            return
        yield state
        state = client.apply_move(state, rng.choice(client.legal_moves(state))).state


def structured(move: game_pb2.Move) -> bytes:
    """The move itself, without the server-filled label and id."""
    return getattr(move, move.WhichOneof("move")).SerializeToString(deterministic=True)


@pytest.mark.parametrize("game", GAMES)
def test_move_ids_round_trip_and_the_mask_matches_the_legal_moves(client, game_infos, game):
    require_move_ids(game_infos, game)
    id_of: dict[bytes, int] = {}
    for state in walk(client, game, seed=3):
        space = MoveSpace.of(client, state)
        moves = client.legal_moves(state)
        assert 0 < space.size <= game_infos[game].move_id_count
        assert len(space.mask) == space.size
        assert sum(space.mask) == len(moves), "one mask bit per legal move, no more"
        for move in moves:
            assert space.mask[move.move_id]
            assert space.move_for(move.move_id) == move  # id -> the same structured move
            # Stable: the same structured move always has the same id.
            assert id_of.setdefault(structured(move), move.move_id) == move.move_id
        illegal = [i for i, legal in enumerate(space.mask) if not legal]
        if illegal:
            with pytest.raises(KeyError):
                space.move_for(illegal[0])


@pytest.mark.parametrize("game", GAMES)
def test_a_move_chosen_by_id_under_the_mask_is_accepted(client, game_infos, game):
    require_move_ids(game_infos, game)
    rng = random.Random(4)
    state = client.new_game(game, PLAYERS[game], seed=4).state
    for _ in range(STEPS):
        if state.next.kind == game_pb2.DECIDER_KIND_NONE:
            break
        space = MoveSpace.of(client, state)
        move_id = rng.choice(space.legal_ids())
        state = client.apply_move(state, space.move_for(move_id)).state


@pytest.mark.parametrize("game", GAMES)
def test_a_sampled_state_agrees_with_the_view_and_is_legal(client, game_infos, game):
    require_served(game_infos, game)
    require_sampling(client, game)
    for index, state in enumerate(walk(client, game, seed=6, steps=40)):
        if index % 4:
            continue
        for seat in range(PLAYERS[game]):
            view = client.view(state, seat)
            sampled = client.sample_state(view, seed=index * 10 + seat + 1)
            assert client.view(sampled, seat) == view, "the sample looks the same to the viewer"
            moves = client.legal_moves(sampled)  # the server accepts it as a whole state
            if seat == state.next.player:
                assert moves == client.legal_moves(state)
            assert sampled.prng != state.prng, "the real PRNG stays secret"


def test_sampled_kraby_states_redraw_what_the_viewer_cannot_see(client):
    state = client.new_game("kraby", 3, seed=8).state
    view = client.view(state, 0)
    samples = [client.sample_state(view, seed=s) for s in range(1, 6)]
    assert all(s.kraby.hands[0] == state.kraby.hands[0] for s in samples)
    assert len({s.kraby.hands[1].SerializeToString() for s in samples}) > 1
