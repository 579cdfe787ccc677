"""Conformance cases for crab_bucket: (num_players, options message) pairs."""

CASES: list = []
