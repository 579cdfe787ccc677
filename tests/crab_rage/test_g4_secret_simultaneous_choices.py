"""G4: secret simultaneous choices (docs/rules/general.md, "### G4: secret simultaneous choices",
with R17 and rules note 11): a hardcore fans commitment stays hidden from every other seat, in
views, events and what a search may guess of it, while another manager is still to commit after
it; the last commitment of an arena is no secret decision, since the reveal follows it at once."""

from __future__ import annotations

from crabgames.games.crab_rage import GAME
from crabgames.games.crab_rage.moves import HardcoreFans
from crabgames.games.crab_rage.state import Phase, Step, Task
from crabgames.v1 import crab_rage_pb2, game_pb2
from tests.crab_rage.helpers import (
    AOTF,
    BB,
    BLACK,
    BLUE,
    ENGINE,
    GREEN,
    MM,
    PC,
    PURPLE,
    YELLOW,
    action_phase,
    commit,
    decision,
    end_of_game,
    game_state,
    mega_muscle_shout_out,
    play,
    run,
    set_fans,
    set_hardcore,
)


def views(state) -> dict:
    msg = game_state(state)
    return {
        viewer: ENGINE.view(msg, viewer).SerializeToString(deterministic=True)
        for viewer in (BLUE, YELLOW, BLACK, PURPLE, None)
    }


def commit_to_seats(msg: game_pb2.GameState, amount: int):
    move = game_pb2.Move(player=msg.next.player)
    move.crab_rage.kind = crab_rage_pb2.CRAB_RAGE_MOVE_KIND_HARDCORE_FANS
    move.crab_rage.amount = amount
    return ENGINE.apply_move(msg, move)


def test_a_commitment_is_hidden_from_every_other_player_until_all_are_in():
    one, three = mega_muscle_shout_out(), mega_muscle_shout_out()
    commit(one, 1)
    commit(three, 3)
    assert views(one) == views(three)  # nobody else can tell 1 from 3 (G4)
    mine = ENGINE.view(game_state(one), GREEN).crab_rage.players[GREEN]
    assert (mine.committed, mine.HasField("commitment"), mine.commitment) == (True, True, 1)
    theirs = ENGINE.view(game_state(one), BLACK).crab_rage.players[GREEN]
    assert (theirs.committed, theirs.HasField("commitment")) == (True, False)
    assert theirs.hardcore_fans == mine.hardcore_fans  # nothing derived from the amount either
    assert [m.amount for m in GAME.legal_moves(one)] == [0, 1, 2, 3, 4]  # Black's own


def test_a_commitment_is_hidden_from_other_seats_in_events_until_all_are_in():
    msg = game_state(mega_muscle_shout_out())
    msg, green, _ = commit_to_seats(msg, 1)  # Green, then Black
    msg, black, _ = commit_to_seats(msg, 4)
    for happened, seat, amount in ((green, GREEN, 1), (black, BLACK, 4)):
        (full,) = happened.events  # the host sees the amount, and so does the committer
        assert (full.crab_rage.amount, happened.seat_events[seat][0]) == (amount, full)
        others = [happened.seat_events[s] for s in range(5) if s != seat]
        for (seen,) in [*others, happened.public_events]:
            kind = crab_rage_pb2.CRAB_RAGE_EVENT_KIND_HARDCORE_FANS_COMMITTED
            assert seen.crab_rage.kind == kind and not seen.crab_rage.HasField("amount")
            assert "amount" not in seen.args
            assert seen.text.endswith("has committed hardcore fans in a closed hand")
            assert str(amount) not in seen.text
    msg, purple, _ = commit_to_seats(msg, 2)  # the last one: all are revealed, publicly (R17)
    shouts = [
        (e.crab_rage.player, e.crab_rage.amount)
        for e in purple.public_events
        if e.crab_rage.kind == crab_rage_pb2.CRAB_RAGE_EVENT_KIND_HARDCORE_FANS_REVEALED
    ]
    assert shouts == [(GREEN, 1), (BLACK, 4), (PURPLE, 2)]
    for seat in range(5):
        assert purple.seat_events[seat][1:] == purple.public_events[1:]


def test_only_the_commitments_still_followed_by_another_are_secret_decisions():
    state = mega_muscle_shout_out()
    assert sorted(GAME.decision_hidden_from(state)) == [BLUE, YELLOW, BLACK, PURPLE]
    commit(state, 1)
    assert sorted(GAME.decision_hidden_from(state)) == [BLUE, YELLOW, GREEN, PURPLE]
    commit(state, 4)
    assert GAME.decision_hidden_from(state) == []  # Purple's is revealed at once with the rest


def test_a_shouter_with_no_hardcore_fans_left_does_not_keep_the_last_commitment_secret():
    # Blue has a fan in Mega Muscle but no hardcore fans: it commits 0 unasked (rules note 11),
    # so Purple's commitment is still the last one and is revealed at once (G4).
    state = action_phase(5, (MM, AOTF, PC, BB), microphone=GREEN)
    end_of_game(state)
    set_fans(state, 0, {GREEN: 5, PURPLE: 5, BLUE: 1})
    set_hardcore(state, {GREEN: 3, PURPLE: 5})
    run(state, Task(Step.HARDCORE, arena=0), Task(Step.SCORING))
    commit(state, 1)
    assert decision(state) == (PURPLE, "commit_hardcore_fans")
    assert GAME.decision_hidden_from(state) == []


def test_resampling_hidden_commitments_keeps_them_within_the_hardcore_fans_held():
    import random

    state = mega_muscle_shout_out()
    commit(state, 3)
    for seed in range(20):
        other = GAME.resample_hidden(state, BLACK, random.Random(seed))
        assert 0 <= other.players[GREEN].commitment <= 3
    assert GAME.resample_hidden(state, GREEN, random.Random(1)).players[GREEN].commitment == 3


def test_a_commitment_followed_by_one_from_a_manager_holding_a_single_hardcore_fan_is_secret():
    state = action_phase(5, (MM, AOTF, PC, BB), microphone=GREEN)
    state.round, state.phase = 4, Phase.END_OF_GAME
    state.action_cards = [5, 6, 7, 8]
    for player in state.players:
        player.passed = True
    for seat, fans, hardcore in ((GREEN, 5, 3), (PURPLE, 4, 1)):
        state.arenas[0].fans[seat] = fans
        state.players[seat].hardcore = hardcore
        state.players[seat].supply -= fans + hardcore
    run(state, Task(Step.HARDCORE, arena=0), Task(Step.SCORING))
    assert decision(state) == (GREEN, "commit_hardcore_fans")
    # Purple, with 1 hardcore fan, still commits after Green: Green's amount is hidden (G4).
    assert sorted(GAME.decision_hidden_from(state)) == [BLUE, YELLOW, BLACK, PURPLE]
    play(state, HardcoreFans(amount=2))
    assert decision(state) == (PURPLE, "commit_hardcore_fans")
    assert GAME.decision_hidden_from(state) == []  # the last one: revealed at once
    play(state, HardcoreFans(amount=1))
    assert (state.arenas[0].fans[GREEN], state.arenas[0].fans[PURPLE]) == (7, 5)
    assert (state.players[GREEN].hardcore, state.players[PURPLE].hardcore) == (1, 0)
