"""End of Game: hardcore fans (R17, G4), scoring (R18), winning and the spotlight duel (R19)."""

from __future__ import annotations

import pytest

from crabgames.core.engine import AUTO, Engine, Match
from crabgames.core.errors import IllegalMove, InvalidArgument
from crabgames.core.prng import Prng
from crabgames.games.crab_rage import GAME
from crabgames.games.crab_rage.data import ACTION_CARDS, ROUNDS
from crabgames.games.crab_rage.endgame import arena_glory
from crabgames.games.crab_rage.events import Cause, seen_by
from crabgames.games.crab_rage.messages import event_fields
from crabgames.games.crab_rage.moves import DuelKeep, DuelReroll, HardcoreFans
from crabgames.games.crab_rage.state import Phase, Step, Task
from crabgames.games.crab_rage.words import text
from crabgames.v1 import crab_rage_pb2, game_pb2
from tests.crab_rage.helpers import (
    AOTF,
    BB,
    BLACK,
    BLUE,
    GREEN,
    MM,
    PC,
    PURPLE,
    YELLOW,
    action_phase,
    chance,
    decision,
    play,
    run,
)

ENGINE = Engine([GAME])


def set_fans(state, arena: int, fans: dict[int, int]) -> None:
    for seat, count in fans.items():
        state.arenas[arena].fans[seat] = count
        state.players[seat].supply -= count


def set_hardcore(state, hardcore: dict[int, int]) -> None:
    for seat, count in hardcore.items():
        state.players[seat].hardcore = count
        state.players[seat].supply -= count


def mega_muscle_shout_out():
    """Green, Black and Purple have fans in Mega Muscle; Blue has none there."""
    state = action_phase(5, (MM, AOTF, PC, BB), microphone=BLUE)
    end_of_game(state)
    set_fans(state, 0, {GREEN: 5, BLACK: 4, PURPLE: 5})
    set_fans(state, 1, {BLUE: 3})
    set_hardcore(state, {GREEN: 3, BLACK: 4, PURPLE: 5, BLUE: 2})
    run(state, Task(Step.HARDCORE, arena=0), Task(Step.SCORING))
    return state


def end_of_game(state) -> None:
    """After round 4: every action card revealed and every player passed."""
    state.round, state.phase = 4, Phase.END_OF_GAME
    state.action_cards = [5, 6, 7, 8]
    for player in state.players:
        player.passed = True


def commit(state, amount: int) -> None:
    play(state, HardcoreFans(amount=amount))


def test_mega_muscle_shout_out_green_black_purple_reveal_1_4_2_and_end_with_6_8_7():
    state = mega_muscle_shout_out()
    assert decision(state) == (GREEN, "commit_hardcore_fans")  # Blue takes no part
    commit(state, 1)
    assert decision(state) == (BLACK, "commit_hardcore_fans")
    commit(state, 4)
    commit(state, 2)
    fans = state.arenas[0].fans
    assert (fans[GREEN], fans[BLACK], fans[PURPLE], fans[BLUE]) == (6, 8, 7, 0)
    hardcore = [state.players[p].hardcore for p in (GREEN, BLACK, PURPLE, BLUE)]
    assert hardcore == [2, 0, 3, 2]
    assert GAME.invariant_violations(state) == []


def game_state(state) -> game_pb2.GameState:
    return ENGINE.encode(Match(GAME, state.num_players, 7, Prng(7), AUTO, 0, state))


def views(state) -> dict:
    msg = game_state(state)
    return {
        viewer: ENGINE.view(msg, viewer).SerializeToString(deterministic=True)
        for viewer in (BLUE, YELLOW, BLACK, PURPLE, None)
    }


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


def commit_to_seats(msg: game_pb2.GameState, amount: int):
    move = game_pb2.Move(player=msg.next.player)
    move.crab_rage.kind = crab_rage_pb2.CRAB_RAGE_MOVE_KIND_HARDCORE_FANS
    move.crab_rage.amount = amount
    return ENGINE.apply_move(msg, move)


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


def test_a_state_with_commitments_out_of_turn_order_is_rejected():
    state = mega_muscle_shout_out()
    state.players[BLACK].committed = True  # Green, first in turn order, has not committed
    with pytest.raises(InvalidArgument) as error:
        ENGINE.legal_moves(game_state(state))
    assert error.value.violations[0].field == "state.crab_rage.players"


def test_a_player_cannot_commit_twice_or_more_than_they_hold():
    state = mega_muscle_shout_out()
    too_many = HardcoreFans(amount=4)
    assert not GAME.is_legal(state, too_many)
    assert GAME.explain_illegal(state, too_many).rule == "R17"
    msg = game_state(state)
    move = game_pb2.Move(player=GREEN)
    move.crab_rage.kind = crab_rage_pb2.CRAB_RAGE_MOVE_KIND_HARDCORE_FANS
    move.crab_rage.amount = 1
    msg, _, _ = ENGINE.apply_move(msg, move)
    try:
        ENGINE.apply_move(msg, move)
        raise AssertionError("a second commitment was accepted")
    except IllegalMove as error:
        assert error.rule == "G3"


def test_resampling_hidden_commitments_keeps_them_within_the_hardcore_fans_held():
    import random

    state = mega_muscle_shout_out()
    commit(state, 3)
    for seed in range(20):
        other = GAME.resample_hidden(state, BLACK, random.Random(seed))
        assert 0 <= other.players[GREEN].commitment <= 3
    assert GAME.resample_hidden(state, GREEN, random.Random(1)).players[GREEN].commitment == 3


def test_glory_is_dense_ranked_purple_4_black_and_green_3_blue_2():
    # seats: Blue, Green, Black, Purple in a 4-player game
    assert arena_glory([4, 6, 6, 8]) == [2, 3, 3, 4]


def test_a_player_without_fans_in_an_arena_gains_no_glory_there():
    assert arena_glory([0, 2, 2, 1]) == [0, 4, 4, 3]


def duel_state(microphone: int = BLACK):
    """Purple and Black tie with 12 glory each."""
    state = action_phase(5, (MM, AOTF, PC, BB), microphone=microphone)
    state.round, state.phase = 4, Phase.END_OF_GAME
    set_fans(state, 0, {PURPLE: 9, BLACK: 8})  # Purple 5, Black 4
    set_fans(state, 1, {BLACK: 9, PURPLE: 8})  # Black 5, Purple 4
    set_fans(state, 2, {BLUE: 9, YELLOW: 8, PURPLE: 5, BLACK: 5})  # Purple and Black 3 each
    set_fans(state, 3, {GREEN: 1})
    state.players[BLACK].rage, state.players[PURPLE].rage = 1, 0
    run(state, Task(Step.SCORING))
    return state


def both_duelists_keep_threes_to_the_last_roll(state) -> None:
    """Black and Purple roll 3 with each crab and keep it, up to Purple's last crab."""
    chance(state, 3)
    play(state, DuelKeep())
    chance(state, 3, 3)
    play(state, DuelKeep())
    chance(state, 3, 3)
    play(state, DuelKeep())


def test_spotlight_duel_black_rerolls_the_third_crab_and_wins_with_10():
    state = duel_state()
    assert state.duel.duelists == [BLACK, PURPLE]
    chance(state, 3)
    assert decision(state) == (BLACK, "spotlight_reroll")
    play(state, DuelKeep())
    chance(state, 4, 2)  # Purple has no rage: no re-roll to decide
    play(state, DuelKeep())
    chance(state, 3, 1)
    play(state, DuelReroll())  # Black unleashes 1 rage
    chance(state, 5, 2)
    assert state.duel.rolls == [[3, 2, 5], [4, 3, 2]]
    assert state.players[BLACK].rage == 0
    result = GAME.outcome(state)
    assert result.glory[BLACK] == result.glory[PURPLE] == 12
    assert result.winners == [BLACK]
    assert (result.ranks[BLACK], result.ranks[PURPLE]) == (1, 2)
    outcome = game_pb2.Outcome()
    GAME.codec.encode_outcome(result, outcome)
    assert list(outcome.winners) == [BLACK] and outcome.crab_rage.duel.winners == [BLACK]


def test_a_tied_spotlight_duel_shares_the_victory():
    state = duel_state()
    both_duelists_keep_threes_to_the_last_roll(state)
    chance(state, 3)
    assert GAME.outcome(state).winners == [BLACK, PURPLE]


def refused_duel_field(state, name: str, seats: list[int]) -> str:
    """The field named when the duel of `state` is sent back with `seats` as its `name`."""
    msg = game_state(state)
    getattr(msg.crab_rage.duel, name)[:] = seats
    with pytest.raises(InvalidArgument) as error:
        ENGINE.legal_moves(msg)
    return error.value.violations[0].field


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


def test_the_most_glory_wins_without_a_duel():
    state = action_phase(4, (MM, PC, BB))
    state.round, state.phase = 4, Phase.END_OF_GAME
    set_fans(state, 0, {BLUE: 3, GREEN: 1})
    run(state, Task(Step.SCORING))
    result = GAME.outcome(state)
    assert result.winners == [BLUE] and result.glory == [4, 0, 3, 0]
    assert result.ranks == [1, 3, 2, 3]


# ----- each rule of the End of Game, pinned on its own -----


def test_hardcore_fans_go_arena_by_arena_in_alphabetical_billboard_order():
    # A Attack of the Fans, B Pressure Cooker, C Barnacle Brawl: A, then C, then B (R5, R17).
    state = action_phase(4, (AOTF, PC, BB), microphone=BLUE)
    state.round = 4
    state.action_cards = [5, 6, 7, 8]
    for arena in range(3):
        set_fans(state, arena, {GREEN: 1})
    set_hardcore(state, {GREEN: 3})
    run(state, Task(Step.ROUND_END))
    order = []
    while decision(state) == (GREEN, "commit_hardcore_fans"):
        order.append(state.pending[-1].arena)
        commit(state, 1)
    assert order == [0, 2, 1]


def test_the_scoring_step_gives_purple_4_black_and_green_3_and_blue_2_in_the_first_arena():
    # The rulebook's 4-player example: Purple 8 fans, Black and Green 6 each, Blue fewer.
    state = action_phase(4, (AOTF, PC, BB), teams=(1, 5, 3, 4))  # Blue, Purple, Green, Black
    blue, purple, green, black = range(4)
    state.round, state.phase = 4, Phase.END_OF_GAME
    set_fans(state, 0, {purple: 8, black: 6, green: 6, blue: 4})
    events = run(state, Task(Step.SCORING))
    assert state.arenas[0].glory == [2, 4, 3, 3]
    first = [text(e) for e in events if event_fields(e).get("arena") == 0]
    assert first == [
        "Blue gains 2 glory in arena A (Attack of the Fans)",
        "Purple gains 4 glory in arena A (Attack of the Fans)",
        "Green gains 3 glory in arena A (Attack of the Fans)",
        "Black gains 3 glory in arena A (Attack of the Fans)",
    ]


def test_purple_wins_with_13_glory():
    # 5 players, 4 arenas: Purple first in one arena (5) and second in two (4 + 4).
    state = action_phase(5, (MM, AOTF, PC, BB), microphone=BLUE)
    state.round, state.phase = 4, Phase.END_OF_GAME
    set_fans(state, 0, {PURPLE: 9, BLACK: 8})
    set_fans(state, 1, {BLACK: 9, PURPLE: 8})
    set_fans(state, 2, {GREEN: 9, PURPLE: 8, BLACK: 1})
    set_fans(state, 3, {BLUE: 2, YELLOW: 1})
    run(state, Task(Step.SCORING))
    result = GAME.outcome(state)
    assert result.glory == [5, 4, 5, 12, 13]
    assert result.winners == [PURPLE] and result.duel is None
    outcome = game_pb2.Outcome()
    GAME.codec.encode_outcome(result, outcome)
    assert outcome.summary == "Purple win(s) with 13 glory"


def test_the_spotlight_duel_rolls_in_turn_order_from_the_microphone_holder():
    state = duel_state(microphone=PURPLE)
    assert state.duel.duelists == [PURPLE, BLACK]
    chance(state, 3)
    assert state.duel.rolls == [[3], []]  # Purple rolls first
    assert decision(state) == (-1, "spotlight_roll")  # Purple has no rage: the roll is kept
    chance(state, 4)
    assert decision(state) == (BLACK, "spotlight_reroll")


def test_a_duelist_may_reroll_the_current_crab_as_often_as_they_have_rage():
    state = duel_state()
    state.players[BLACK].rage = 2
    chance(state, 1)
    play(state, DuelReroll())
    chance(state, 1)
    play(state, DuelReroll())
    chance(state, 2)
    assert state.players[BLACK].rage == 0
    assert state.duel.rolls[0] == [2] and state.duel.rerolls[0] == 2
    assert decision(state) == (-1, "spotlight_roll")  # no rage left: no re-roll is offered


def test_a_three_player_spotlight_duel_rolls_all_four_crabs():
    state = action_phase(3, (MM, PC, BB), microphone=BLUE)
    state.round, state.phase = 4, Phase.END_OF_GAME
    set_fans(state, 0, {BLUE: 2, YELLOW: 1})
    set_fans(state, 1, {YELLOW: 2, BLUE: 1})
    for player in state.players:
        player.rage = 0
    run(state, Task(Step.SCORING))
    assert state.duel.duelists == [BLUE, YELLOW]
    chance(state, 1, 1, 1, 1, 1, 1)
    assert GAME.outcome(state) is None  # three crabs each are not the whole duel
    chance(state, 2, 1)
    assert state.duel.rolls == [[1, 1, 1, 2], [1, 1, 1, 1]]
    assert GAME.outcome(state).winners == [BLUE]


def test_a_shared_spotlight_victory_names_every_tied_duelist_as_a_winner():
    state = duel_state()
    both_duelists_keep_threes_to_the_last_roll(state)
    events = chance(state, 3)
    assert state.duel.winners == [BLACK, PURPLE]
    assert "Black and Purple win(s) the spotlight duel with 9" in [text(e) for e in events]
    result = GAME.outcome(state)
    assert result.winners == [BLACK, PURPLE] and result.ranks[BLACK] == result.ranks[PURPLE] == 1
    outcome = game_pb2.Outcome()
    GAME.codec.encode_outcome(result, outcome)
    assert list(outcome.winners) == [BLACK, PURPLE]
    assert list(outcome.crab_rage.duel.winners) == [BLACK, PURPLE]
    assert outcome.summary == "Black and Purple win(s) with 12 glory after a spotlight duel"


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


def test_the_outcome_lists_each_arena_by_index_in_alphabetical_billboard_order():
    state = action_phase(4, (PC, AOTF, BB))
    state.round, state.phase = 4, Phase.END_OF_GAME
    set_fans(state, 0, {BLUE: 3, GREEN: 1})
    run(state, Task(Step.SCORING))
    outcome = game_pb2.Outcome()
    GAME.codec.encode_outcome(GAME.outcome(state), outcome)
    arenas = [(a.arena, a.billboard) for a in outcome.crab_rage.arenas]
    assert arenas == [(1, AOTF), (2, BB), (0, PC)]
    assert list(outcome.crab_rage.arenas[2].glory) == [4, 0, 3, 0]


def test_the_spotlight_duels_events_tell_each_roll_keep_re_roll_and_the_winner():
    """Black and Purple tie with 12 glory (duel_state); the duel of
    test_spotlight_duel_black_rerolls_the_third_crab_and_wins_with_10, told event by event.
    Purple has no rage, so each of its rolls is kept at once; Black re-rolls its third crab
    with its one rage and keeps the 5: Black 3 + 2 + 5 = 10 beats Purple 4 + 3 + 2 = 9."""
    state = action_phase(5, (MM, AOTF, PC, BB), microphone=BLACK)
    state.round, state.phase = 4, Phase.END_OF_GAME
    set_fans(state, 0, {PURPLE: 9, BLACK: 8})
    set_fans(state, 1, {BLACK: 9, PURPLE: 8})
    set_fans(state, 2, {BLUE: 9, YELLOW: 8, PURPLE: 5, BLACK: 5})
    set_fans(state, 3, {GREEN: 1})
    state.players[BLACK].rage, state.players[PURPLE].rage = 1, 0
    started = [text(e) for e in run(state, Task(Step.SCORING)) if "spotlight" in text(e)]
    assert started == ["Black, Purple tie with 12 glory: a spotlight duel is triggered"]
    events = chance(state, 3) + play(state, DuelKeep()) + chance(state, 4, 2)
    events += play(state, DuelKeep()) + chance(state, 3, 1)
    events += play(state, DuelReroll()) + chance(state, 5, 2)
    assert [text(e) for e in events] == [
        "Black crab 0 rolls 3 in the spotlight duel",
        "Black keeps 3 for crab 0",
        "Purple crab 0 rolls 4 in the spotlight duel",
        "Purple keeps 4 for crab 0",
        "Black crab 1 rolls 2 in the spotlight duel",
        "Black keeps 2 for crab 1",
        "Purple crab 1 rolls 3 in the spotlight duel",
        "Purple keeps 3 for crab 1",
        "Black crab 2 rolls 1 in the spotlight duel",
        "Black unleashes 1 rage to re-roll crab 2 (it rolled 1), now 0 rage",
        "Black crab 2 rolls 5 in the spotlight duel",
        "Black keeps 5 for crab 2",
        "Purple crab 2 rolls 2 in the spotlight duel",
        "Purple keeps 2 for crab 2",
        "Black win(s) the spotlight duel with 10",
        "the game is over: Black win(s)",
    ]
    reroll = event_fields(events[9])
    assert (reroll["player"], reroll["crab"], reroll["change"], reroll["result"]) == (
        BLACK,
        (BLACK, 2),
        -1,
        0,
    )


# ----- the End of Game's events, told (issue 14) -----


def test_the_mega_muscle_shout_out_is_told_each_commitment_redacted_for_others_then_revealed():
    """Green, Black, Purple commit 1, 4, 2 (in turn order from Blue, who has no fan there and
    takes no part): each commitment names its amount to its committer only (G4); the reveal
    adds them to 5, 4, 5 fans: 6, 8, 7. Scoring then goes Attack of the Fans (B) before Mega
    Muscle (A) (R5): Blue alone in B gains 5, A ranks Black 8 (5), Purple 7 (4), Green 6 (3);
    Blue and Black tie with 5 glory: a spotlight duel, Blue first in turn order."""
    state = mega_muscle_shout_out()
    events = []
    for amount in (1, 4, 2):
        events += play(state, HardcoreFans(amount=amount))
    committed = events[:3]
    assert [text(e) for e in committed] == [
        "Green commits 1 hardcore fan(s) in a closed hand",
        "Black commits 4 hardcore fan(s) in a closed hand",
        "Purple commits 2 hardcore fan(s) in a closed hand",
    ]
    assert [event_fields(e) for e in committed] == [
        {"player": GREEN, "arena": 0, "amount": 1},
        {"player": BLACK, "arena": 0, "amount": 4},
        {"player": PURPLE, "arena": 0, "amount": 2},
    ]
    assert [e.player for e in committed] == [GREEN, BLACK, PURPLE]
    for e in committed:
        assert e.kind == "hardcore_fans_committed"
        assert seen_by(e, e.player) is e
        for viewer in (BLUE, YELLOW, None, *[p for p in (GREEN, BLACK, PURPLE) if p != e.player]):
            seen = seen_by(e, viewer)
            name = {GREEN: "Green", BLACK: "Black", PURPLE: "Purple"}[e.player]
            assert text(seen) == f"{name} has committed hardcore fans in a closed hand"
            assert event_fields(seen) == {"player": e.player, "arena": 0}
    a, b = "arena A (Mega Muscle)", "arena B (Attack of the Fans)"
    assert [text(e) for e in events[3:]] == [
        f"Green shouts out 1 hardcore fan(s) in {a}, now 6 fans there",
        f"Black shouts out 4 hardcore fan(s) in {a}, now 8 fans there",
        f"Purple shouts out 2 hardcore fan(s) in {a}, now 7 fans there",
        f"Blue gains 5 glory in {b}",
        f"Green gains 3 glory in {a}",
        f"Black gains 5 glory in {a}",
        f"Purple gains 4 glory in {a}",
        "Blue, Black tie with 5 glory: a spotlight duel is triggered",
    ]
    assert [event_fields(e) for e in events[3:]] == [
        {"player": GREEN, "arena": 0, "amount": 1, "result": 6},
        {"player": BLACK, "arena": 0, "amount": 4, "result": 8},
        {"player": PURPLE, "arena": 0, "amount": 2, "result": 7},
        {"player": BLUE, "arena": 1, "amount": 5},
        {"player": GREEN, "arena": 0, "amount": 3},
        {"player": BLACK, "arena": 0, "amount": 5},
        {"player": PURPLE, "arena": 0, "amount": 4},
        {"seats": (BLUE, BLACK), "amount": 5, "cause": Cause.SPOTLIGHT_DUEL},
    ]
    assert [e.kind for e in events[3:6]] == ["hardcore_fans_revealed"] * 3
    assert [seen_by(e, YELLOW) for e in events[3:]] == events[3:]  # public (R17)


def test_purple_wins_with_13_is_told_glory_arena_by_arena_and_the_game_over():
    """The glory of test_purple_wins_with_13_glory, told in alphabetical billboard order:
    Attack of the Fans (B), Barnacle Brawl (D), Mega Muscle (A), Pressure Cooker (C)."""
    state = action_phase(5, (MM, AOTF, PC, BB), microphone=BLUE)
    state.round, state.phase = 4, Phase.END_OF_GAME
    set_fans(state, 0, {PURPLE: 9, BLACK: 8})
    set_fans(state, 1, {BLACK: 9, PURPLE: 8})
    set_fans(state, 2, {GREEN: 9, PURPLE: 8, BLACK: 1})
    set_fans(state, 3, {BLUE: 2, YELLOW: 1})
    events = run(state, Task(Step.SCORING))
    a, b, c, d = (
        "arena A (Mega Muscle)",
        "arena B (Attack of the Fans)",
        "arena C (Pressure Cooker)",
        "arena D (Barnacle Brawl)",
    )
    assert [text(e) for e in events] == [
        f"Black gains 5 glory in {b}",
        f"Purple gains 4 glory in {b}",
        f"Blue gains 5 glory in {d}",
        f"Yellow gains 4 glory in {d}",
        f"Black gains 4 glory in {a}",
        f"Purple gains 5 glory in {a}",
        f"Green gains 5 glory in {c}",
        f"Black gains 3 glory in {c}",
        f"Purple gains 4 glory in {c}",
        "the game is over: Purple win(s)",
    ]
    assert events[-1].kind == "game_over"
    assert event_fields(events[-1]) == {"seats": (PURPLE,), "phase": Phase.GAME_OVER}
    assert [event_fields(e) for e in events[:3]] == [
        {"player": BLACK, "arena": 1, "amount": 5},
        {"player": PURPLE, "arena": 1, "amount": 4},
        {"player": BLUE, "arena": 3, "amount": 5},
    ]


def test_a_shared_spotlight_victory_ends_the_game_naming_both_winners():
    """Black and Purple roll 3 with every crab: 9 each, a shared victory (R19)."""
    state = duel_state()
    both_duelists_keep_threes_to_the_last_roll(state)
    events = chance(state, 3)
    assert [text(e) for e in events] == [
        "Purple crab 2 rolls 3 in the spotlight duel",
        "Purple keeps 3 for crab 2",
        "Black and Purple win(s) the spotlight duel with 9",
        "the game is over: Black and Purple win(s)",
    ]
    assert event_fields(events[-1]) == {"seats": (BLACK, PURPLE), "phase": Phase.GAME_OVER}
    assert event_fields(events[-2]) == {
        "seats": (BLACK, PURPLE),
        "amount": 9,
        "cause": Cause.SPOTLIGHT_DUEL,
    }
