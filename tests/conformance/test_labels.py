"""No two legal moves of one decision share a label (issue 16): a player choosing by label
always knows which move they chose."""

from __future__ import annotations

from collections import Counter

import pytest

from tests.conformance.common import ENGINE, GAMES, games, steps


@pytest.mark.parametrize("game_id", GAMES)
def test_no_two_legal_moves_of_one_decision_share_a_label(game_id):
    decisions = 0
    for num_players, options, seed in games(game_id):
        for step in steps(game_id, num_players, options, seed):
            moves, decision = ENGINE.legal_moves(step.after)
            twice = [label for label, n in Counter(m.label for m in moves).items() if n > 1]
            assert not twice, f"{decision.decision}: {twice} label more than one move"
            decisions += 1
    assert decisions > 0
