"""Options and state validation: custom missions (B3), every field checked, no client input
causes an unexpected exception."""

from __future__ import annotations

import random

import pytest

from crabgames.core.engine import Engine
from crabgames.core.errors import InvalidArgument, RulesError
from crabgames.games.crab_bucket import GAME, data, state
from crabgames.games.crab_bucket.data import DEFAULT_MISSIONS, Adjacent, Gap
from crabgames.v1 import crab_bucket_pb2 as pb
from crabgames.v1 import game_pb2
from tests.cases.crab_bucket import easy_missions
from tests.playthrough import play_random


@pytest.fixture(scope="module")
def engine() -> Engine:
    return Engine([GAME])


def field_of(error: InvalidArgument) -> str:
    return error.violations[0].field


def new(engine, options, players=3):
    return engine.new_game("crab_bucket", options, players, seed=4)


# Each enum the rules name: the protocol's enum, the module naming its values, and all of them.
NATIVE_ENUMS = [
    (pb.CrabBucketMode, state, state.MODES),
    (pb.CrabBucketStep, state, state.STEPS),
    (pb.CrabBucketPendingKind, state, state.PENDING_KINDS),
    (pb.CrabBucketEndReason, state, state.END_REASONS),
    (pb.CrabBucketAbility, data, data.ABILITIES),
]


@pytest.mark.parametrize(
    "enum, module, natives",
    NATIVE_ENUMS,
    ids=[e.DESCRIPTOR.name for e, *_ in NATIVE_ENUMS],
)
def test_every_value_of_each_enum_is_named_once_by_its_own_name(enum, module, natives):
    """data.py and state.py name the protocol's modes, steps, pending kinds, ends and abilities
    for the rules: every value, each by its protocol name (a value the proto gains and the rules
    do not list fails here)."""
    prefix = enum.Name(0).removesuffix("UNSPECIFIED")  # CRAB_BUCKET_MODE_ ...
    wire = {name.removeprefix(prefix): value for name, value in enum.items() if value}
    assert {name: getattr(module, name) for name in wire} == wire
    assert sorted(natives) == sorted(wire.values())
    assert state.NOT_ENDED == pb.CRAB_BUCKET_END_REASON_UNSPECIFIED  # a game not over


def test_custom_missions_replace_the_default_deck(engine):
    state, _ = new(engine, pb.CrabBucketOptions(missions=easy_missions()))
    assert [m.name for m in state.crab_bucket.options.missions] == [f"Easy {i}" for i in range(18)]
    match = engine.decode(state)
    assert match.state.options.missions[0].requirements == (
        Adjacent(0, 1),
        Gap(2, 0),
    )


def test_a_bad_custom_mission_names_the_exact_field(engine):
    missions = easy_missions()
    missions[3].requirements[1].gap.between = 7
    with pytest.raises(InvalidArgument) as caught:
        new(engine, pb.CrabBucketOptions(missions=missions))
    assert field_of(caught.value) == "options.crab_bucket.missions[3].requirements[1].gap.between"
    assert caught.value.reason == "MALFORMED_REQUEST"


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda m: setattr(m[2], "level", 4), "options.crab_bucket.missions[2].level"),
        (lambda m: setattr(m[2], "ability", 0), "options.crab_bucket.missions[2].ability"),
        (lambda m: m[5].ClearField("requirements"), "options.crab_bucket.missions[5].requirements"),
        (
            lambda m: setattr(m[1].requirements[0].adjacent, "second", 9),
            "options.crab_bucket.missions[1].requirements[0].adjacent.second",
        ),
        (
            lambda m: m[0].requirements.add(),
            "options.crab_bucket.missions[0].requirements[2]",
        ),
    ],
)
def test_every_mission_field_is_validated(engine, change, field):
    missions = easy_missions()
    change(missions)
    with pytest.raises(InvalidArgument) as caught:
        new(engine, pb.CrabBucketOptions(missions=missions))
    assert field_of(caught.value) == field


def test_quick_mode_needs_a_mission_of_every_level(engine):
    missions = [m for m in easy_missions() if m.level != 2]
    with pytest.raises(InvalidArgument) as caught:
        new(engine, pb.CrabBucketOptions(missions=missions))
    assert field_of(caught.value) == "options.crab_bucket.missions"
    wild = pb.CrabBucketOptions(mode=pb.CRAB_BUCKET_MODE_WILD_CRAB, missions=missions)
    new(engine, wild)  # Wild Crab mode does not


def test_first_player_and_first_mission_level_options(engine):
    options = pb.CrabBucketOptions(
        mode=pb.CRAB_BUCKET_MODE_WILD_CRAB, first_player=2, first_mission_level=3
    )
    state, _ = new(engine, options)
    assert state.next.player == 2
    current = state.crab_bucket.current_mission
    assert state.crab_bucket.options.missions[current].level == 3
    with pytest.raises(InvalidArgument):
        new(engine, pb.CrabBucketOptions(first_mission_level=2))  # Quick starts at level 1
    with pytest.raises(InvalidArgument):
        new(engine, pb.CrabBucketOptions(first_player=3))


def test_the_default_deck_is_used_when_no_missions_are_given(engine):
    state, _ = new(engine, pb.CrabBucketOptions())
    assert len(state.crab_bucket.options.missions) == len(DEFAULT_MISSIONS)


# ----- state validation -----


def mid_game(engine) -> game_pb2.GameState:
    options = pb.CrabBucketOptions(missions=easy_missions())
    record = play_random(engine, "crab_bucket", 3, options, seed=3)
    return record.states[len(record.states) // 2]


def broken(state, change) -> game_pb2.GameState:
    copy = game_pb2.GameState()
    copy.CopyFrom(state)
    change(copy.crab_bucket)
    return copy


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda s: s.piles.add(), "state.crab_bucket.piles"),
        (lambda s: s.draw_pile.add(oxi=True), "state.crab_bucket"),
        (lambda s: s.draw_pile.add(color=1, number=9), "state.crab_bucket.draw_pile"),
        (
            lambda s: setattr(s, "talking_allowed", not s.talking_allowed),
            "state.crab_bucket.talking_allowed",
        ),  # fmt: skip
        (lambda s: s.mission_piles[0].missions.append(99), "state.crab_bucket.mission_piles[0]"),
        (lambda s: s.pending.add(kind=77), "state.crab_bucket.pending"),
        (lambda s: setattr(s, "turn_player", 5), "state.crab_bucket.turn_player"),
        (lambda s: setattr(s, "step", 9), "state.crab_bucket.step"),
    ],
)
def test_a_malformed_state_names_the_field(engine, change, field):
    with pytest.raises(InvalidArgument) as caught:
        engine.decode(broken(mid_game(engine), change))
    assert field_of(caught.value).startswith(field)
    assert caught.value.reason == "MALFORMED_STATE"


def mutate(message, rng: random.Random) -> None:
    """Change one scalar somewhere in the message tree to a random value."""
    fields = []

    def walk(msg):
        for desc, value in msg.ListFields():
            if desc.message_type is not None:
                for item in value if desc.is_repeated else [value]:
                    walk(item)
            else:
                fields.append((msg, desc))

    walk(message)
    msg, desc = rng.choice(fields)
    value = rng.choice([-1, 0, 1, 2, 3, 7, 8, 9, 33, 2**31 - 1])
    if desc.type == desc.TYPE_BOOL:
        value = bool(value % 2)
    elif desc.type == desc.TYPE_STRING:
        value = "x"
    if desc.is_repeated:
        items = getattr(msg, desc.name)
        if len(items):
            items[rng.randrange(len(items))] = value
    else:
        setattr(msg, desc.name, value)


def test_no_mutated_state_causes_an_unexpected_exception(engine):
    rng = random.Random(1)
    options = pb.CrabBucketOptions(mode=pb.CRAB_BUCKET_MODE_WILD_CRAB, missions=easy_missions())
    record = play_random(engine, "crab_bucket", 4, options, seed=5)
    for _ in range(400):
        state = game_pb2.GameState()
        state.CopyFrom(rng.choice(record.states))
        mutate(state.crab_bucket, rng)
        try:
            moves, _ = engine.legal_moves(state)
            if moves:
                engine.apply_move(state, rng.choice(moves))
            engine.view(state, 0)
        except RulesError:
            pass


def test_during_the_deal_every_oxi_card_is_set_aside(engine):
    """B1: the Oxi! cards wait aside until the deal ends; a deal state with one already in the
    draw pile is refused (shuffling them in adds them to a draw pile without any)."""
    state, _ = engine.new_game(
        "crab_bucket", pb.CrabBucketOptions(), 2, 5, game_pb2.CHANCE_MODE_EXPLICIT
    )
    assert state.crab_bucket.step == pb.CRAB_BUCKET_STEP_DEAL

    def one_oxi_in_the_draw_pile(s: pb.CrabBucketState) -> None:
        s.oxi_set_aside -= 1
        s.draw_pile.add(oxi=True)

    with pytest.raises(InvalidArgument) as caught:
        engine.decode(broken(state, one_oxi_in_the_draw_pile))
    assert field_of(caught.value) == "state.crab_bucket.oxi_set_aside"
    assert "set aside until the deal ends (B1)" in str(caught.value)


def test_in_wild_crab_mode_no_oxi_card_lies_on_a_pile(engine):
    """2. Play an Oxi! Card: in Wild Crab mode a played Oxi! is discarded, so a state with one
    on a pile is refused; the same state in Quick mode is one an Oxi! play can leave."""
    options = pb.CrabBucketOptions(missions=easy_missions(), mode=pb.CRAB_BUCKET_MODE_WILD_CRAB)
    record = play_random(engine, "crab_bucket", 3, options, seed=3)
    state = next(s for s in record.states[1:] if any(c.oxi for c in s.crab_bucket.draw_pile))

    def an_oxi_from_the_draw_pile_onto_pile_5(s: pb.CrabBucketState) -> None:
        index = next(i for i, c in enumerate(s.draw_pile) if c.oxi)
        del s.draw_pile[index]
        s.piles[5].cards.add(oxi=True)

    with pytest.raises(InvalidArgument) as caught:
        engine.decode(broken(state, an_oxi_from_the_draw_pile_onto_pile_5))
    assert field_of(caught.value) == "state.crab_bucket.piles[5]"
    assert "in Wild Crab mode a played Oxi! card is discarded" in str(caught.value)


def test_a_turn_in_the_play_step_has_a_play_left(engine):
    """B6: a turn plays one card (two after "Draw 1 card and play 2"), then draws back to 3: a
    state still playing with no play left is refused."""
    state = mid_game(engine)
    assert state.crab_bucket.step == pb.CRAB_BUCKET_STEP_PLAY and state.crab_bucket.plays_left
    with pytest.raises(InvalidArgument) as caught:
        engine.decode(broken(state, lambda s: setattr(s, "plays_left", 0)))
    assert field_of(caught.value) == "state.crab_bucket.plays_left"
    assert "the play step has a play left; with none the turn draws (B6)" in str(caught.value)
