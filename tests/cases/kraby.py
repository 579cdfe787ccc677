"""Conformance cases for Kraby: every player count, and the two-player colour option (K2)."""

from crabgames.v1 import kraby_pb2

CASES = [
    (2, kraby_pb2.KrabyOptions()),
    (2, kraby_pb2.KrabyOptions(excluded_color=kraby_pb2.KRABY_COLOR_GREEN, first_player=1)),
    (3, kraby_pb2.KrabyOptions()),
    (4, kraby_pb2.KrabyOptions(first_player=2)),
]
