"""Kraby's golden playthrough (see tests/golden.py)."""

from __future__ import annotations

from pathlib import Path

from crabgames.v1 import kraby_pb2
from tests import golden

HERE = Path(__file__).parent / "golden"


def test_kraby_three_player_golden_playthrough(engine):
    recorded = golden.record(engine, "kraby", 3, kraby_pb2.KrabyOptions(), seed=2026)
    golden.check(HERE / "kraby-3p-seed2026.json", recorded)


def test_kraby_two_player_golden_playthrough(engine):
    options = kraby_pb2.KrabyOptions(excluded_color=kraby_pb2.KRABY_COLOR_BLUE, first_player=1)
    recorded = golden.record(engine, "kraby", 2, options, seed=77)
    golden.check(HERE / "kraby-2p-seed77.json", recorded)
