"""Set-up by player count (R1, R2, R5, R6), chance events (G2) and state validation."""

from __future__ import annotations

import pytest

from crabgames.core.engine import Engine
from crabgames.core.errors import InvalidArgument
from crabgames.games.crab_rage import GAME
from crabgames.games.crab_rage.data import ACTION_CARDS
from crabgames.games.crab_rage.setup import default_options, initial_state
from crabgames.games.crab_rage.state import BACKSTAGE
from crabgames.v1 import crab_rage_pb2 as pb
from tests.crab_rage.helpers import decision

ENGINE = Engine([GAME])


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


def new_game(n=4, **options):
    state, _ = ENGINE.new_game("crab_rage", pb.CrabRageOptions(**options), n, seed=11)
    return state


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


def unrevealed(state) -> int:
    return next(a for a in ACTION_CARDS if a not in state.action_cards)


def add_duel(state, duelists: list[int]) -> None:
    state.duel.duelists.extend(duelists)
    for _ in duelists:
        state.duel.rolls.add()
        state.duel.rerolls.append(0)


def tampered(change):
    state = new_game()
    change(state.crab_rage)
    return state


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda s: s.players[0].crabs[0].__setattr__("muscle", 7), "players[0].crabs[0].muscle"),
        (lambda s: s.players[1].__setattr__("rage", -1), "players[1].rage"),
        (lambda s: s.players[2].__setattr__("supply", 31), "players[2]"),
        (lambda s: s.arenas[0].partner.__setitem__(0, 1), "arenas[0].partner[0]"),
        (lambda s: s.players[0].crabs.pop(), "players[0].crabs"),
        (lambda s: s.action_cards.append(1), "action_cards"),
        (lambda s: s.pending.pop(), "pending"),
        (lambda s: s.pending[-1].__setattr__("player", 9), "pending["),
        # A crab backstage is in no arena; found by fuzzing (accepted, then silently re-encoded).
        (lambda s: s.players[0].crabs[1].__setattr__("arena", 4), "players[0].crabs[1].arena"),
        # Fields that must agree with the phase and the pending steps (unreachable otherwise).
        (lambda s: s.pending.__delitem__(slice(None)), "pending"),  # no steps, yet not over
        (lambda s: s.pending.add(kind=26, arena=0), "pending"),  # hardcore fans mid-round
        (lambda s: s.__setattr__("round", 3), "action_cards"),  # 3 rounds, 1 card revealed
        (lambda s: s.__setattr__("microphone", -1), "microphone"),
        (lambda s: [p.__setattr__("passed", True) for p in s.players], "players"),
        (lambda s: s.used_actions.append(unrevealed(s)), "used_actions"),
        (lambda s: s.__setattr__("active_player", 1), "active_player"),
        (lambda s: s.players[0].__setattr__("committed", True), "players[0].committed"),
        (lambda s: s.arenas[0].__setattr__("billboard", 0), "arenas[0].billboard"),
        (lambda s: s.arenas[0].glory.__setitem__(0, 4), "arenas[0].glory"),  # before scoring
        (lambda s: s.roll_off.standing.extend([1, 2]), "roll_off"),  # no tie break running
        (lambda s: add_duel(s, [0, 1]), "duel"),  # no tie for most glory yet
        # int32 on the wire: rage, fanbase rewards and re-rolls are capped so none can overflow.
        (lambda s: s.players[0].__setattr__("rage", 2**31 - 1), "players[0].rage"),
        (
            lambda s: s.players[0].fanbase_card.rewards[0].__setattr__("rage", 2**31 - 1),
            "players[0].fanbase_card.rewards[0]",
        ),
    ],
)
def test_malformed_states_are_rejected_naming_the_field(change, field):
    state = tampered(change)
    with pytest.raises(InvalidArgument) as error:
        ENGINE.legal_moves(state)
    assert error.value.violations[0].field.startswith(f"state.crab_rage.{field}")
