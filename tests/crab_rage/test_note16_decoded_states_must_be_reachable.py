"""Rules note 16, decoded states must be reachable (docs/rules/crab_rage.md, "Where the rulebook
and the rulings are silent", 16): every state a game reaches is accepted back: encoded and
decoded at any point of a game (mid-action, mid-rumble, in a roll-off for the microphone, in the
duel), it gives the same bytes, the same decision and the same moves, and breaks no invariant.
A state no game can reach is refused naming its field: a malformed field, fields that disagree
with the phase and the pending steps, commitments out of turn order (R17), a duel whose duelists
or winners are not the ones the glory and the rolls give (R19), a Frenzy step with no hit left
(R13), numbers past the int32 caps."""

from __future__ import annotations

import random

import pytest

from crabgames.core.errors import InvalidArgument
from crabgames.core.game import CHANCE, NOBODY
from crabgames.games.crab_rage import GAME
from crabgames.games.crab_rage.data import ACTION_CARDS, ROUNDS, SignatureMove
from crabgames.games.crab_rage.moves import Signature
from crabgames.games.crab_rage.setup import default_options, initial_state
from crabgames.games.crab_rage.state import Phase, Step, Task
from crabgames.v1.crab_rage_pb2 import CrabRageState
from tests.crab_rage.helpers import (
    AOTF,
    BLACK,
    BLUE,
    ENGINE,
    GREEN,
    MM,
    PC,
    PURPLE,
    YELLOW,
    action_phase,
    both_duelists_keep_threes_to_the_last_roll,
    chance,
    decision,
    duel_state,
    game_state,
    mega_muscle_shout_out,
    new_game,
    play,
    put,
    run,
)


def restored(state):
    data = GAME.codec.state_bytes(state)
    return GAME.codec.decode_state(CrabRageState.FromString(data), state.num_players, "state"), data


def test_every_state_of_random_games_is_saved_and_restored_unchanged():
    seen_kinds = set()
    for seed, players in enumerate((3, 4, 5, 4)):
        rng = random.Random(seed)
        state = initial_state(players, default_options(players))
        while (decision := GAME.next_decision(state)).kind != NOBODY:
            copy, data = restored(state)
            assert GAME.codec.state_bytes(copy) == data
            assert GAME.next_decision(copy) == decision
            assert GAME.invariant_violations(state) == []
            seen_kinds.add(state.pending[-1].kind if state.pending else None)
            if decision.kind == CHANCE:
                outcomes = GAME.chance_outcomes(state)
                assert list(GAME.chance_outcomes(copy)) == list(outcomes)
                GAME.apply_chance(state, rng.choice([v for v, _ in outcomes]))
            else:
                moves = list(GAME.legal_moves(state))
                assert list(GAME.legal_moves(copy)) == moves
                GAME.apply_move(state, rng.choice(moves))
        assert GAME.outcome(state) is not None
    assert len(seen_kinds) > 10  # the games went through many kinds of steps


def test_a_state_in_a_roll_off_for_the_microphone_is_saved_and_restored():
    """R16: Blue and Yellow tie on 5 rage after the Rage Phase and roll off for the
    microphone; the roll-off's step names no arena."""
    state = action_phase(4, (MM, AOTF, PC))
    for seat, p in enumerate(state.players):
        p.rage, p.passed = (2 if seat in (BLUE, YELLOW) else 0), True
    state.phase = Phase.FAN
    run(state, Task(Step.RAGE_PHASE), Task(Step.ROUND_END))
    assert decision(state) == (-1, "microphone_die")
    for value in (3, 3, 5):  # a tie again, then Blue rolls 5
        copy, data = restored(state)
        assert GAME.codec.state_bytes(copy) == data
        assert GAME.next_decision(copy) == GAME.next_decision(state)
        chance(state, value)
    copy, data = restored(state)
    assert GAME.codec.state_bytes(copy) == data


def test_a_state_whose_frenzy_has_no_hit_left_is_refused():
    """Rules note 16: Frenzy hits once per own crab in the arena (at least one, R13), and its
    step is kept only while hits are left: a Frenzy step with none left is no reachable state."""
    state = action_phase(4, (MM, AOTF, PC))
    state.players[BLUE].signature = SignatureMove.FRENZY
    put(state, BLUE, 0, 0, 2)
    put(state, YELLOW, 0, 0, 5)
    play(state, Signature(arena=0))
    assert decision(state) == (BLUE, "choose_frenzy_target")
    msg = CrabRageState.FromString(GAME.codec.state_bytes(state))
    GAME.codec.decode_state(msg, 4, "state")  # one hit left: fine
    msg.pending[-1].values[:] = [0]
    with pytest.raises(InvalidArgument):
        GAME.codec.decode_state(msg, 4, "state")


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


def refused_duel_field(state, name: str, seats: list[int]) -> str:
    """The field named when the duel of `state` is sent back with `seats` as its `name`."""
    msg = game_state(state)
    getattr(msg.crab_rage.duel, name)[:] = seats
    with pytest.raises(InvalidArgument) as error:
        ENGINE.legal_moves(msg)
    return error.value.violations[0].field


def test_a_state_with_commitments_out_of_turn_order_is_rejected():
    state = mega_muscle_shout_out()
    state.players[BLACK].committed = True  # Green, first in turn order, has not committed
    with pytest.raises(InvalidArgument) as error:
        ENGINE.legal_moves(game_state(state))
    assert error.value.violations[0].field == "state.crab_rage.players"


def test_a_sent_back_duel_must_be_the_tied_players_and_after_the_last_roll_the_highest_total():
    """R19, rules note 16: who duels and who won are derived from the state and compared."""
    state = duel_state()  # Black and Purple tie with 12 glory, Black first in turn order
    state.action_cards = list(ACTION_CARDS[:ROUNDS])  # as four rounds left it
    for player in state.players:
        player.passed = True
    ENGINE.legal_moves(game_state(state))  # accepted as it is
    for duelists in ([PURPLE, BLACK], [BLACK, BLACK], [BLACK, GREEN]):
        assert refused_duel_field(state, "duelists", duelists) == "state.crab_rage.duel.duelists"
    both_duelists_keep_threes_to_the_last_roll(state)
    chance(state, 2)  # Black 9, Purple 8: Black wins, the game is over
    assert state.duel.winners == [BLACK]
    ENGINE.legal_moves(game_state(state))  # accepted as it is
    for winners in ([PURPLE], [BLACK, PURPLE], []):
        assert refused_duel_field(state, "winners", winners) == "state.crab_rage.duel.winners"
