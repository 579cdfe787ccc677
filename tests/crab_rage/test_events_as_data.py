"""Events a front end can animate without reading English (issue 16): each one names the crab,
where it came from and went, the real change and the result, and the cause, as data."""

from __future__ import annotations

from crabgames.games.crab_rage import GAME
from crabgames.games.crab_rage.data import Action, SignatureMove
from crabgames.games.crab_rage.moves import (
    Act,
    Alliance,
    AllianceChoice,
    Destination,
    HardcoreFans,
    Pass,
    RumbleOpponent,
    Signature,
    SignatureTarget,
)
from crabgames.games.crab_rage.state import Step, Task
from crabgames.v1 import crab_rage_pb2 as pb
from crabgames.v1 import game_pb2
from tests.crab_rage.helpers import (
    AOTF,
    BB,
    BLACK,
    BLUE,
    GREEN,
    MM,
    PC,
    YELLOW,
    act,
    action_phase,
    ally,
    chance,
    play,
    put,
    run,
)

K = pb.CrabRageEventKind


def encoded(events) -> list[pb.CrabRageEvent]:
    parts = []
    for event in events:
        msg = game_pb2.Event()
        GAME.codec.encode_event(event, msg)
        parts.append(msg.crab_rage)
    return parts


def of_kind(events, kind: int) -> list[pb.CrabRageEvent]:
    return [e for e in encoded(events) if e.kind == kind]


def crab(e: pb.CrabRageEvent) -> tuple[int, int]:
    assert e.HasField("crab") and e.crab.HasField("player") and e.crab.HasField("crab")
    return e.crab.player, e.crab.crab


def test_move_with_crab_2_to_arena_b_says_the_crab_the_destination_and_the_rage_paid():
    state = action_phase(4, (AOTF, PC, BB))
    events = act(state, Action.MOVE, 2, arena=1)
    (acted,) = of_kind(events, K.CRAB_RAGE_EVENT_KIND_ACTED)
    assert (acted.player, acted.action, crab(acted)) == (BLUE, Action.MOVE, (BLUE, 2))
    assert not acted.HasField("arena")  # it acted from backstage
    assert (acted.move.crab, acted.move.arena) == (2, 1)
    assert (acted.change, acted.result, acted.first_use) == (-2, 4, True)
    (left,) = of_kind(events, K.CRAB_RAGE_EVENT_KIND_CRAB_LEFT)
    assert crab(left) == (BLUE, 2) and left.arena == 1 and not left.HasField("from_arena")
    (entered,) = of_kind(events, K.CRAB_RAGE_EVENT_KIND_CRAB_ENTERED)
    assert (crab(entered), entered.arena, entered.amount) == ((BLUE, 2), 1, 3)


def test_a_clamped_smash_reports_the_real_change_and_the_result():
    state = action_phase(4, (AOTF, PC, BB), rage=6)
    put(state, BLUE, 0, 0, 4)
    put(state, YELLOW, 0, 0, 2)
    events = act(state, Action.SMASH, 0, target=(YELLOW, 0), amount=3)  # 2 - 3: muscle 1 (R3)
    (muscle,) = of_kind(events, K.CRAB_RAGE_EVENT_KIND_MUSCLE)
    assert crab(muscle) == (YELLOW, 0) and muscle.arena == 0
    assert (muscle.change, muscle.result) == (-1, 1)
    assert (muscle.cause, muscle.action) == (pb.CRAB_RAGE_CAUSE_ACTION, Action.SMASH)


def test_psych_out_tells_both_crabs_new_muscle():
    state = action_phase(4, (AOTF, PC, BB), card=Action.PSYCH_OUT)
    put(state, BLUE, 0, 0, 1)
    put(state, YELLOW, 1, 0, 5)
    events = act(state, Action.PSYCH_OUT, 0, target=(YELLOW, 1))
    changes = [
        (crab(e), e.change, e.result) for e in of_kind(events, K.CRAB_RAGE_EVENT_KIND_MUSCLE)
    ]
    assert changes == [((BLUE, 0), 4, 5), ((YELLOW, 1), -4, 1)]


def test_fans_and_rage_say_their_cause():
    state = action_phase(4, (AOTF, PC, BB))
    events = act(state, Action.MOVE, 2, arena=0)  # Attack of the Fans, then the style bonus
    causes = [(e.cause, e.billboard) for e in of_kind(events, K.CRAB_RAGE_EVENT_KIND_FANS)]
    assert causes == [
        (pb.CRAB_RAGE_CAUSE_BILLBOARD, pb.CRAB_RAGE_BILLBOARD_ATTACK_OF_THE_FANS),
        (pb.CRAB_RAGE_CAUSE_STYLE_BONUS, 0),
    ]
    events = act(state, Action.MOVE, 2, arena=1)  # Yellow into Pressure Cooker
    (rage,) = of_kind(events, K.CRAB_RAGE_EVENT_KIND_RAGE)
    assert (rage.player, rage.change, rage.result, rage.arena) == (YELLOW, 1, 5, 1)
    assert (rage.cause, rage.billboard) == (
        pb.CRAB_RAGE_CAUSE_BILLBOARD,
        pb.CRAB_RAGE_BILLBOARD_PRESSURE_COOKER,
    )


def test_charm_and_a_signature_move_place_fans_for_their_own_cause():
    state = action_phase(4, (MM, PC, BB), card=Action.CHARM, rage=6)
    put(state, BLUE, 0, 2)
    (charm,) = of_kind(act(state, Action.CHARM, 0), K.CRAB_RAGE_EVENT_KIND_FANS)[:1]
    assert (charm.cause, charm.action, charm.arena, charm.result) == (
        pb.CRAB_RAGE_CAUSE_ACTION,
        Action.CHARM,
        2,
        1,
    )
    state = action_phase(4, (MM, PC, BB), rage=6)
    state.players[BLUE].signature = SignatureMove.HYPE_UP
    put(state, BLUE, 0, 2)
    events = play(state, Signature(arena=2))
    (performed,) = of_kind(events, K.CRAB_RAGE_EVENT_KIND_SIGNATURE_MOVE)
    assert (performed.signature_move, performed.change, performed.result) == (
        SignatureMove.HYPE_UP,
        -2,
        4,
    )
    (fans,) = of_kind(events, K.CRAB_RAGE_EVENT_KIND_FANS)
    assert (fans.cause, fans.signature_move, fans.amount) == (
        pb.CRAB_RAGE_CAUSE_SIGNATURE_MOVE,
        SignatureMove.HYPE_UP,
        2,
    )


def test_a_split_ends_the_alliance_of_both_seats():
    state = action_phase(4, (MM, PC, BB))
    put(state, BLUE, 0, 1)
    put(state, YELLOW, 0, 1)
    put(state, GREEN, 0, 1)
    ally(state, 1, YELLOW, GREEN)
    events = act(state, Action.SPLIT, 0, partner=YELLOW)
    (ended,) = of_kind(events, K.CRAB_RAGE_EVENT_KIND_ALLIANCE_ENDED)
    assert (list(ended.seats), ended.arena, ended.cause) == (
        [YELLOW, GREEN],
        1,
        pb.CRAB_RAGE_CAUSE_ACTION,
    )


def test_the_last_crab_leaving_an_arena_ends_its_alliance_there():
    state = action_phase(4, (MM, PC, BB))
    put(state, BLUE, 0, 1)
    put(state, YELLOW, 0, 1)
    ally(state, 1, BLUE, YELLOW)
    events = act(state, Action.MOVE, 0, arena=2)
    (ended,) = of_kind(events, K.CRAB_RAGE_EVENT_KIND_ALLIANCE_ENDED)
    assert (list(ended.seats), ended.cause) == ([BLUE, YELLOW], pb.CRAB_RAGE_CAUSE_LEFT_ARENA)
    (left,) = of_kind(events, K.CRAB_RAGE_EVENT_KIND_CRAB_LEFT)
    assert (left.from_arena, left.arena) == (1, 2)


def test_a_rumble_won_by_an_alliance_names_both_seats():
    state = action_phase(4, (MM, PC, BB))
    put(state, YELLOW, 0, 0, 3)
    put(state, GREEN, 0, 0, 3)
    put(state, BLACK, 0, 0, 5)
    ally(state, 0, YELLOW, GREEN)
    events = run(state, Task(Step.RUMBLE, arena=0))
    (won,) = of_kind(events, K.CRAB_RAGE_EVENT_KIND_RUMBLE_WON)
    assert (list(won.seats), won.arena, won.amount) == ([YELLOW, GREEN], 0, 6)


def test_a_three_way_tie_is_rolled_off_with_its_own_events():
    state = action_phase(4, (MM, PC, BB), microphone=BLUE)
    for seat in (BLUE, YELLOW, GREEN):
        put(state, seat, 0, 0, 3)
    (started,) = of_kind(
        run(state, Task(Step.RUMBLE, arena=0)), K.CRAB_RAGE_EVENT_KIND_ROLL_OFF_STARTED
    )
    assert [list(u.seats) for u in started.units] == [[BLUE], [YELLOW], [GREEN]]
    assert list(started.rolling) == [] and started.arena == 0
    events = play(state, RumbleOpponent(partner=GREEN))
    (picked,) = of_kind(events, K.CRAB_RAGE_EVENT_KIND_OPPONENT_PICKED)
    assert picked.player == BLUE and [list(u.seats) for u in picked.units] == [[BLUE], [GREEN]]
    assert not of_kind(events, K.CRAB_RAGE_EVENT_KIND_RUMBLE_WON)  # no longer the same kind
    rolls = encoded(chance(state, 2, 5))
    dice = [(list(e.seats), e.amount) for e in rolls if e.kind == K.CRAB_RAGE_EVENT_KIND_DIE_ROLLED]
    assert dice == [([BLUE], 2), ([GREEN], 5)]
    (rolled,) = [e for e in rolls if e.kind == K.CRAB_RAGE_EVENT_KIND_ROLL_OFF_ROLLED]
    assert rolled.amount == 5 and not rolled.seats  # Green and Yellow still stand
    assert [list(u.seats) for u in rolled.units] == [[YELLOW], [GREEN]]
    assert [list(u.seats) for u in rolled.rolling] == [[YELLOW], [GREEN]]


def test_chance_labels_say_whose_roll():
    state = action_phase(4, (MM, PC, BB), microphone=BLUE)
    for seat in (BLUE, YELLOW):
        put(state, seat, 0, 0, 3)
    run(state, Task(Step.RUMBLE, arena=0))
    assert GAME.codec.chance_label(state, 4) == "Blue rolls 4"
    state = action_phase(4, (MM, PC, BB))
    run(state, Task(Step.MUTATION_ROLL, YELLOW, crabs=[(YELLOW, 1)]))
    assert GAME.codec.chance_label(state, 6) == "Yellow crab 1 rolls 6"


def test_labels_name_the_leaving_crab_of_a_rush():
    state = action_phase(4, (MM, PC, BB), rage=6)
    put(state, BLUE, 0, 0, 4)
    put(state, YELLOW, 0, 0, 4)
    act(state, Action.RUSH, 0)
    labels = [GAME.codec.move_label(state, m) for m in GAME.legal_moves(state)]
    assert labels == [
        "Blue: send Blue crab 0 to arena B (Pressure Cooker)",
        "Blue: send Blue crab 0 to arena C (Barnacle Brawl)",
    ]
    (chosen,) = of_kind(
        play(state, GAME.legal_moves(state)[0]), K.CRAB_RAGE_EVENT_KIND_DESTINATION_CHOSEN
    )
    assert (crab(chosen), chosen.arena) == ((BLUE, 0), 1)
    assert GAME.codec.move_label(state, GAME.legal_moves(state)[0]).startswith(
        "Blue: send Yellow crab 0"
    )


def test_labels_of_a_rumble_opponent_name_the_whole_unit():
    state = action_phase(4, (MM, PC, BB), microphone=BLUE)
    put(state, BLUE, 0, 0, 4)
    put(state, YELLOW, 0, 0, 4)
    put(state, GREEN, 0, 0, 2)
    put(state, BLACK, 0, 0, 2)
    ally(state, 0, GREEN, BLACK)
    run(state, Task(Step.RUMBLE, arena=0))
    labels = sorted(GAME.codec.move_label(state, m) for m in GAME.legal_moves(state))
    assert labels == ["Blue: roll against Green/Black", "Blue: roll against Yellow"]


def test_labels_of_billboard_crabs_and_shell_up_say_what_they_do():
    state = action_phase(4, (MM, PC, BB), rage=6)
    state.players[BLUE].signature = SignatureMove.SHELL_UP
    put(state, BLUE, 0, 2)
    put(state, BLUE, 1, 2)
    play(state, Signature(arena=2))
    labels = [GAME.codec.move_label(state, m) for m in GAME.legal_moves(state)]
    assert labels == [
        "Blue: Shell Up gives +2 muscle to Blue crab 0",
        "Blue: Shell Up gives +2 muscle to Blue crab 1",
    ]
    state = action_phase(4, (MM, PC, BB))
    put(state, YELLOW, 0, 0)
    run(state, Task(Step.BILLBOARD, BLUE, 2, [(BLUE, 0), (BLUE, 1)]))
    labels = [GAME.codec.move_label(state, m) for m in GAME.legal_moves(state)]
    assert labels == [
        "Blue: Barnacle Brawl gives -1 muscle to Blue crab 0",
        "Blue: Barnacle Brawl gives -1 muscle to Blue crab 1",
    ]


def test_an_alliance_choice_says_the_choice_and_the_partner():
    state = action_phase(4, (MM, PC, BB))
    put(state, YELLOW, 0, 0)
    act(state, Action.MOVE, 2, arena=0)
    labels = [GAME.codec.move_label(state, m) for m in GAME.legal_moves(state)]
    assert labels == ["Blue: go independent", "Blue: form an alliance with Yellow"]
    (chose,) = of_kind(
        play(state, Alliance(alliance=AllianceChoice.FORM, partner=YELLOW)),
        K.CRAB_RAGE_EVENT_KIND_ALLIANCE,
    )
    assert (chose.player, chose.partner, chose.alliance) == (BLUE, YELLOW, AllianceChoice.FORM)


def test_a_move_sets_exactly_the_fields_its_kind_uses():
    """Presence: crab 0, arena 0, seat 0 and X are told apart from a field a move does not use."""
    msg = pb.CrabRageMove()
    GAME.codec.encode_move(Act(action=Action.MOVE, crab=0, arena=0), msg)
    assert [f.name for f, _ in msg.ListFields()] == ["kind", "action", "crab", "arena"]
    msg = pb.CrabRageMove()
    GAME.codec.encode_move(Pass(), msg)
    assert [f.name for f, _ in msg.ListFields()] == ["kind"]
    msg = pb.CrabRageMove()
    GAME.codec.encode_move(HardcoreFans(amount=0), msg)
    assert [f.name for f, _ in msg.ListFields()] == ["kind", "amount"]
    msg = pb.CrabRageMove()
    GAME.codec.encode_move(SignatureTarget(target=(0, 0), arena=1), msg)
    assert (msg.target.HasField("player"), msg.target.HasField("crab")) == (True, True)
    assert not msg.HasField("crab")


def negatives(message) -> list[str]:
    """Every integer field (or list entry) below 0 in a message and its sub-messages, but an
    event's `change` (a loss of muscle or rage is a real negative number)."""
    found = []
    for field, value in message.ListFields():
        if field.message_type is not None and field.message_type.GetOptions().map_entry:
            continue  # Event.args: text
        values = value if field.is_repeated else [value]
        for v in values:
            if field.type == field.TYPE_MESSAGE:
                found += [f"{field.name}.{n}" for n in negatives(v)]
            elif (
                field.name != "change" and isinstance(v, int) and not isinstance(v, bool) and v < 0
            ):
                found.append(field.name)
    return found


def test_no_view_or_event_says_none_with_minus_one():
    import random

    from tests.crab_rage.test_view_updates import ENGINE
    from tests.playthrough import GAME_OVER, pick

    for players, seed in ((3, 1), (4, 2), (5, 3)):
        rng = random.Random(seed)
        state, _ = ENGINE.new_game("crab_rage", pb.CrabRageOptions(), players, seed)
        while state.next.kind != GAME_OVER:
            for viewer in (None, *range(players)):
                view = ENGINE.view(state, viewer).crab_rage
                assert negatives(view) == [], negatives(view)
            moves, _ = ENGINE.legal_moves(state)
            for move in moves:
                assert negatives(move) == [], move
            state, happened, _ = ENGINE.apply_move(state, pick(rng, moves))
            for event in [*happened.events, *happened.public_events]:
                assert negatives(event) == [], event


def decision_of(state) -> pb.CrabRageDecision:
    msg = pb.CrabRageView()
    GAME.codec.encode_view(state, None, msg)  # a spectator sees every decision's context
    return msg.decision


def test_a_rush_decision_names_the_leaving_crabs_and_the_one_being_placed():
    state = action_phase(4, (MM, PC, BB), rage=6)
    put(state, BLUE, 0, 0, 4)
    put(state, YELLOW, 0, 0, 4)
    act(state, Action.RUSH, 0)
    d = decision_of(state)
    assert (d.name, d.player, d.arena) == ("choose_destination", BLUE, 0)
    assert [(c.player, c.crab) for c in d.crabs] == [(BLUE, 0), (YELLOW, 0)]
    assert crab(d) == (BLUE, 0)
    play(state, Destination(arena=2))
    d = decision_of(state)
    assert crab(d) == (YELLOW, 0) and list(d.destinations) == [2]


def test_a_frenzy_decision_counts_its_hits_left():
    state = action_phase(4, (MM, PC, BB), rage=6)
    state.players[BLUE].signature = SignatureMove.FRENZY
    put(state, BLUE, 0, 2)
    put(state, BLUE, 1, 2)
    put(state, YELLOW, 0, 2, 6)
    play(state, Signature(arena=2))
    d = decision_of(state)
    assert (d.name, d.arena, d.hits_left, d.signature_move) == (
        "choose_frenzy_target",
        2,
        2,
        SignatureMove.FRENZY,
    )
    play(state, SignatureTarget(target=(YELLOW, 0)))
    assert decision_of(state).hits_left == 1
