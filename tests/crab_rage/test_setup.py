"""The Setup (docs/rules/crab_rage.md, "### Setup", with R1, R2 and the options R5, R6 and R13
name): by player count the arenas, the crabs backstage at their team boards' muscle, the rage
and the 32 fans of each manager, and the rage each Rage Phase builds (R1); the options that fix
the microphone and the billboards, and bad options refused naming their field. The 3-player
starting rage, which does not mutate: test_r4_mutation.py; the billboards' deal:
test_r5_arenas_and_billboards.py."""

from __future__ import annotations

import pytest

from crabgames.core.errors import InvalidArgument
from crabgames.games.crab_rage.setup import default_options, initial_state
from crabgames.games.crab_rage.state import BACKSTAGE, Step, Task
from tests.crab_rage.helpers import AOTF, BB, MM, PC, action_phase, decision, new_game, run


@pytest.mark.parametrize(
    ("n", "crabs", "rage", "arenas"), [(3, 4, 8, 3), (4, 3, 6, 3), (5, 3, 6, 4)]
)
def test_setup_by_player_count(n, crabs, rage, arenas):
    state = initial_state(n, default_options(n))
    assert len(state.arenas) == arenas
    for player in state.players:
        assert [c.muscle for c in player.crabs] == [1, 2, 3, 4][:crabs]  # R2
        assert all(c.arena == BACKSTAGE for c in player.crabs)
        assert (player.rage, player.supply, player.hardcore) == (rage, 32, 0)
    assert [p.team for p in state.players] == [1, 2, 3, 4, 5][:n]  # blue, yellow, ... (R1)
    assert decision(state) == (-1, "deal_billboard")


def test_options_fix_the_microphone_and_the_billboards():
    state = new_game(3, microphone=2, billboards=[1, 3, 4])
    assert state.crab_rage.microphone == 2
    assert sorted(a.billboard for a in state.crab_rage.arenas) == [1, 3, 4]


@pytest.mark.parametrize(
    ("options", "field"),
    [
        ({"microphone": 7}, "microphone"),
        ({"teams": [1, 1, 2, 3]}, "teams"),
        ({"billboards": [1, 2]}, "billboards"),
        ({"signature_moves": [1]}, "signature_moves"),
    ],
)
def test_bad_options_name_their_field(options, field):
    with pytest.raises(InvalidArgument) as error:
        new_game(4, **options)
    assert error.value.violations[0].field == f"options.crab_rage.{field}"


@pytest.mark.parametrize(("n", "build"), [(3, 4), (4, 3), (5, 3)])
def test_each_rage_phase_builds_the_rage_r1_gives_the_player_count(n, build):
    state = action_phase(n, (MM, PC, BB, AOTF)[: max(3, n - 1)])
    for player in state.players:
        player.rage = 0
    run(state, Task(Step.RAGE_PHASE))
    assert [p.rage for p in state.players] == [build] * n
