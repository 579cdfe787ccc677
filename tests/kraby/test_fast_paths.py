"""Every accelerator in fast.py gives exactly what the readable codec gives, over random games,
and the engine plays the golden games the same with the accelerators switched off."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from crabgames.core.engine import Engine
from crabgames.core.game import CHANCE, use_accelerators
from crabgames.games.kraby import GAME
from crabgames.games.kraby.events import Event
from crabgames.games.kraby.fast import FAST
from crabgames.games.kraby.moves import PlaceTile
from crabgames.games.kraby.state import GAME_OVER, KrabyState
from crabgames.v1 import game_pb2, kraby_pb2
from tests import golden
from tests.cases.kraby import CASES
from tests.playthrough import play_random

CODEC = GAME.codec
GOLDEN = Path(__file__).parent / "golden"


def random_games(engine: Engine) -> Iterator[KrabyState]:
    """The native state of every state of a random game of each case, with chance resolved
    automatically and by choice (the deal and the draws as states of their own)."""
    for case, (num_players, options) in enumerate(CASES):
        for seed, chance_mode in enumerate(
            (game_pb2.CHANCE_MODE_AUTO, game_pb2.CHANCE_MODE_EXPLICIT)
        ):
            record = play_random(
                engine, "kraby", num_players, options, case * 11 + seed, chance_mode
            )
            for state in record.states:
                yield engine.decode(state).state


def test_state_bytes_are_the_readable_codecs():
    assert FAST.state_bytes is not None
    for native in random_games(Engine([GAME])):
        assert FAST.state_bytes(native) == CODEC.state_bytes(native)


def events_of_random_games() -> Iterator[tuple[int, Event]]:
    """(number of players, event) for every event of a native random game of each case."""
    for case, (num_players, options) in enumerate(CASES):
        rng = random.Random(case)
        state = GAME.initial_state(num_players, CODEC.decode_options(options, num_players, "o"))
        while state.step != GAME_OVER:
            if GAME.next_decision(state).kind == CHANCE:
                values, weights = zip(*GAME.chance_outcomes(state), strict=True)
                events = GAME.apply_chance(state, rng.choices(values, weights)[0])
            else:
                events = GAME.apply_move(state, rng.choice(GAME.legal_moves(state)))
            for event in events:
                yield num_players, event


def test_event_bytes_are_the_readable_codecs_for_every_event_and_every_seats_copy():
    assert FAST.event_bytes is not None
    kinds = set()
    for num_players, event in events_of_random_games():
        for viewer in ("host", None, *range(num_players)):
            seen = event if viewer == "host" else GAME.redact_event(event, viewer)
            assert FAST.event_bytes(seen) == CODEC.event_bytes(seen), seen
            kinds.add(seen.kind)
    assert {
        "tile_dealt",
        "tile_placed",
        "tile_drawn",
        "figure_placed",
        "figure_skipped",
        "turn_began",
        "game_ended",
    } <= kinds


def test_moves_with_equal_keys_have_equal_labels_and_ids():
    assert FAST.move_cache_keys is not None
    seen: dict[object, object] = {}
    for native in random_games(Engine([GAME])):
        moves = GAME.legal_moves(native)
        for move, key in zip(moves, FAST.move_cache_keys(native, moves), strict=True):
            found = (move, CODEC.move_label(native, move), GAME.move_id(native, move))
            assert seen.setdefault(key, found) == found, key


def test_moves_that_are_not_the_states_legal_moves_are_keyed_one_by_one():
    # A tile as a fisher sends it (no stop) keys as the listed tile it is, and a few moves
    # alone key as they do in the whole list.
    native = next(
        s
        for s in random_games(Engine([GAME]))
        if len(GAME.legal_moves(s)) > 2 and isinstance(GAME.legal_moves(s)[0], PlaceTile)
    )
    moves = GAME.legal_moves(native)
    every = FAST.move_cache_keys(native, moves)
    assert FAST.move_cache_keys(native, moves[1:3]) == every[1:3]
    sent = [move._replace(stop=None) for move in moves if isinstance(move, PlaceTile)]
    assert FAST.move_cache_keys(native, sent[:2]) == every[:2]


@pytest.fixture
def accelerators_off() -> Iterator[None]:
    use_accelerators(False)
    try:
        yield
    finally:
        use_accelerators(True)


@pytest.mark.parametrize(
    ("name", "players", "options", "seed"),
    [
        ("kraby-3p-seed2026.json", 3, kraby_pb2.KrabyOptions(), 2026),
        (
            "kraby-2p-seed77.json",
            2,
            kraby_pb2.KrabyOptions(excluded_color=kraby_pb2.KRABY_COLOR_BLUE, first_player=1),
            77,
        ),
    ],
)
def test_the_golden_games_are_the_same_without_accelerators(
    accelerators_off, name, players, options, seed
):
    recorded = golden.record(Engine([GAME]), "kraby", players, options, seed=seed)
    golden.check(GOLDEN / name, recorded)
