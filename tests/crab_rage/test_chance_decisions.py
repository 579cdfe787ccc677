"""At a chance event (G2: a billboard dealt, the microphone drawn, an action card turned, a die
rolled) chance decides, not a player: no player move is listed then, as the plug-in lists moves
only for the player who must decide. Issue 14."""

from __future__ import annotations

from crabgames.core.game import CHANCE
from crabgames.games.crab_rage import GAME
from tests.crab_rage.helpers import random_game


def test_at_every_chance_event_of_a_game_no_player_move_is_listed():
    seen = []

    def check(state):
        if GAME.next_decision(state).kind == CHANCE:
            seen.append(state.pending[-1].kind)
            assert list(GAME.legal_moves(state)) == [], state.pending[-1]

    for players, seed in ((3, 2), (4, 3), (5, 4)):
        random_game(players, seed, check=check)
    assert len(set(seen)) >= 4  # deals, the action cards, rolls of several kinds
