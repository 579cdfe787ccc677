"""Conformance cases for crab_rage: (num_players, options message) pairs."""

CASES: list = []
