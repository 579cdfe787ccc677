"""Conformance cases for kraby: (num_players, options message) pairs."""

CASES: list = []
