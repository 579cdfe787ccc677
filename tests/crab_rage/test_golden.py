"""CRAB RAGE! golden playthroughs (see tests/golden.py): a seeded game per player count, every
decision, its events and a digest of the state. Regenerate after an intended rule change with
`UPDATE_GOLDEN=1 make test PYTEST_ARGS=tests/crab_rage/test_golden.py` and review the diff."""

from __future__ import annotations

from pathlib import Path

import pytest

from crabgames.v1 import crab_rage_pb2
from tests import golden

HERE = Path(__file__).parent / "golden"


@pytest.mark.parametrize(("num_players", "seed"), [(3, 2026), (4, 7), (5, 42)])
def test_crab_rage_golden_playthrough(engine, num_players, seed):
    recorded = golden.record(
        engine, "crab_rage", num_players, crab_rage_pb2.CrabRageOptions(), seed=seed
    )
    golden.check(HERE / f"crab_rage-{num_players}p-seed{seed}.json", recorded)
