"""Each chance event lists its outcomes in the documented order, each kind weighted by how many
of it there are (G2): a die has six faces, each once; the first microphone holder is drawn among
the seats, each once. The weights matter: the engine's own draws pick by them (a seat weighted 2
of 8 draws differently from 1 of 4 under the same seed). Issue 14."""

from __future__ import annotations

from crabgames.games.crab_rage import GAME
from crabgames.games.crab_rage.setup import default_options, initial_state
from tests.crab_rage.helpers import AOTF, BLUE, MM, PC, chance, decision
from tests.crab_rage.test_spotlight_duel import three_way_duel


def test_a_spotlight_duel_roll_is_a_die_each_face_1_to_6_once():
    state = three_way_duel(microphone=BLUE)
    assert decision(state) == (-1, "spotlight_roll")
    assert list(GAME.chance_outcomes(state)) == [(face, 1) for face in range(1, 7)]


def test_the_first_microphone_holder_is_drawn_with_every_seat_once():
    """R6, G2: without the `microphone` option the first holder is a chance event over the
    seats, each seat once."""
    state = initial_state(4, default_options(4))
    chance(state, MM, AOTF, PC)
    assert decision(state) == (-1, "microphone")
    assert list(GAME.chance_outcomes(state)) == [(seat, 1) for seat in range(4)]
