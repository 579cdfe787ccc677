"""Every accelerator in fast.py gives exactly what the readable codec gives, over random games,
and the engine plays the golden games the same with the accelerators switched off."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from crabgames.core.engine import Engine
from crabgames.core.game import use_accelerators
from crabgames.games.crab_bucket import GAME
from crabgames.games.crab_bucket.fast import FAST
from crabgames.games.crab_bucket.state import QUICK, WILD_CRAB
from crabgames.v1 import crab_bucket_pb2 as pb
from crabgames.v1 import game_pb2
from tests import golden
from tests.cases.crab_bucket import CASES, easy_missions
from tests.playthrough import play_random

CODEC = GAME.codec
GOLDEN = Path(__file__).parent / "golden"


def random_games(engine: Engine) -> Iterator[tuple[object, object]]:
    """(native state, its state message) for every state of a random game of each case, with
    chance resolved automatically and by choice."""
    for case, (num_players, options) in enumerate(CASES):
        for seed, chance_mode in enumerate(
            (game_pb2.CHANCE_MODE_AUTO, game_pb2.CHANCE_MODE_EXPLICIT)
        ):
            record = play_random(
                engine, "crab_bucket", num_players, options, case * 11 + seed, chance_mode
            )
            for state in record.states:
                yield engine.decode(state).state, state


def test_state_bytes_are_the_readable_codecs():
    assert FAST.state_bytes is not None
    engine = Engine([GAME])
    for native, _ in random_games(engine):
        assert FAST.state_bytes(native) == CODEC.state_bytes(native)


def test_event_bytes_are_the_readable_codecs_for_every_event_and_every_seats_copy():
    assert FAST.event_bytes is not None
    engine = Engine([GAME])
    kinds = set()
    for native, _ in random_games(engine):
        state = native.clone()
        moves = GAME.legal_moves(state)
        outcomes = GAME.chance_outcomes(state)
        if moves:
            events = GAME.apply_move(state, moves[len(moves) // 2])
        elif outcomes:
            events = GAME.apply_chance(state, outcomes[len(outcomes) // 2][0])
        else:
            continue
        for event in events:
            for viewer in ("host", None, *range(state.num_players)):
                seen = event if viewer == "host" else GAME.redact_event(event, viewer)
                assert seen is not None
                assert FAST.event_bytes(seen) == CODEC.event_bytes(seen), seen
                kinds.add(seen.kind)
    assert {"card_dealt", "card_drawn", "card_played", "mission_completed"} <= kinds


def test_moves_with_equal_keys_have_equal_labels_and_ids():
    assert FAST.move_cache_keys is not None
    engine = Engine([GAME])
    seen: dict[object, object] = {}
    for native, _ in random_games(engine):
        moves = GAME.legal_moves(native)
        for move, key in zip(moves, FAST.move_cache_keys(native, moves), strict=True):
            found = (move, CODEC.move_label(native, move), GAME.move_id(native, move))
            assert seen.setdefault(key, found) == found, key


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
        ("crab_bucket-quick-3p-seed2026.json", 3, pb.CrabBucketOptions(mode=QUICK), 2026),
        (
            "crab_bucket-wild-4p-seed77.json",
            4,
            pb.CrabBucketOptions(mode=WILD_CRAB, first_player=1),
            77,
        ),
        (
            "crab_bucket-quick-easy-3p-seed100.json",
            3,
            pb.CrabBucketOptions(mode=QUICK, missions=easy_missions()),
            100,
        ),
        (
            "crab_bucket-wild-easy-2p-seed98.json",
            2,
            pb.CrabBucketOptions(mode=WILD_CRAB, missions=easy_missions()),
            98,
        ),
    ],
)
def test_the_golden_games_are_the_same_without_accelerators(
    accelerators_off, name, players, options, seed
):
    engine = Engine([GAME])
    recorded = golden.record(engine, "crab_bucket", players, options, seed=seed)
    golden.check(GOLDEN / name, recorded)
