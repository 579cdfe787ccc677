"""Crab Bucket's golden playthroughs, one per mode (see tests/golden.py).

Regenerate after an intended rule change with
`UPDATE_GOLDEN=1 make test PYTEST_ARGS="tests/crab_bucket/test_golden.py"` and review the diff.
"""

from __future__ import annotations

from pathlib import Path

from crabgames.v1 import crab_bucket_pb2 as pb
from tests import golden
from tests.cases.crab_bucket import easy_missions

HERE = Path(__file__).parent / "golden"


def test_quick_mode_golden_playthrough(engine):
    options = pb.CrabBucketOptions(mode=pb.CRAB_BUCKET_MODE_QUICK)
    recorded = golden.record(engine, "crab_bucket", 3, options, seed=2026)
    golden.check(HERE / "crab_bucket-quick-3p-seed2026.json", recorded)


def test_wild_crab_mode_golden_playthrough(engine):
    options = pb.CrabBucketOptions(mode=pb.CRAB_BUCKET_MODE_WILD_CRAB, first_player=1)
    recorded = golden.record(engine, "crab_bucket", 4, options, seed=77)
    golden.check(HERE / "crab_bucket-wild-4p-seed77.json", recorded)


# The easy deck (tests/cases/crab_bucket.py) completes missions often, so missions, abilities and
# a Quick win appear in these records.


def test_quick_mode_win_golden_playthrough(engine):
    options = pb.CrabBucketOptions(mode=pb.CRAB_BUCKET_MODE_QUICK, missions=easy_missions())
    recorded = golden.record(engine, "crab_bucket", 3, options, seed=100)
    golden.check(HERE / "crab_bucket-quick-easy-3p-seed100.json", recorded)


def test_wild_crab_mode_with_abilities_golden_playthrough(engine):
    options = pb.CrabBucketOptions(mode=pb.CRAB_BUCKET_MODE_WILD_CRAB, missions=easy_missions())
    recorded = golden.record(engine, "crab_bucket", 2, options, seed=98)
    golden.check(HERE / "crab_bucket-wild-easy-2p-seed98.json", recorded)
