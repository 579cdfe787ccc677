"""Views (G5, B2): your own hand, other hands and the draw pile as counts, every card of each pile
(with its top card, height and Oxi! count), and what is being decided, the same for every viewer;
one numbering for labels and fields (seat, pile and mission 0 written in JSON, two missions of one
name told apart by number); the options as ListGames types them."""

from __future__ import annotations

from google.protobuf import json_format

from crabgames.core.engine import Engine
from crabgames.games.crab_bucket import GAME, rules, turn
from crabgames.games.crab_bucket.data import DEFAULT_MISSIONS, Mission
from crabgames.games.crab_bucket.events import (
    CardPlayed,
    MissionCompleted,
)
from crabgames.games.crab_bucket.moves import (
    KeepMission,
    PlayCard,
    UseAbility,
)
from crabgames.games.crab_bucket.state import (
    KEEP_MISSION,
    NO_MISSION,
)
from crabgames.v1 import crab_bucket_pb2 as pb
from crabgames.v1 import game_pb2
from tests.crab_bucket.helpers import (
    HAND,
    PILES,
    PILES_WITH_AN_OXI,
    as_json,
    card,
    card_message,
    cards,
    mission_index,
    position,
    ready,
)


def view_of(state, player):
    msg = pb.CrabBucketView()
    GAME.codec.encode_view(state, player, msg)
    return msg


def test_a_player_sees_their_own_hand_and_only_counts_of_the_others():
    state = position(
        PILES_WITH_AN_OXI, {0: ["red 1", "blue 3"], 1: ["yellow 3", "yellow 4", "green 5"]}
    )
    view = view_of(state, 1)
    hand = sorted(cards("yellow 3", "yellow 4", "green 5"))  # hands are kept in card-id order
    assert list(view.hand) == [card_message(c) for c in hand]
    assert list(view.hand_sizes) == [2, 3]
    assert view.draw_pile_size == rules.draw_total(state)
    assert not view_of(state, None).hand  # a spectator sees no hand


def test_each_pile_shows_its_top_card_height_and_oxi_count():
    view = view_of(position(PILES_WITH_AN_OXI), 0)
    assert [p.height for p in view.piles] == [2, 1, 2, 1, 2, 1, 1, 2]
    assert view.piles[0].top == card_message(card("red 8"))
    assert [p.oxi_count for p in view.piles] == [0] * 7 + [1]
    assert not any(p.top == card_message(card("blue 1")) for p in view.piles)


def test_b2_a_view_shows_every_card_of_every_pile_to_every_viewer():
    # B2: every card on a pile was dealt or played face up, buried ones included.
    state = position(PILES_WITH_AN_OXI, {0: ["red 1", "blue 3"], 1: ["yellow 3"]})
    for viewer in (0, 1, None):  # each seat and a spectator
        view = view_of(state, viewer)
        assert [list(p.cards) for p in view.piles] == [
            [card_message(c) for c in cards(*pile)] for pile in PILES_WITH_AN_OXI
        ]


def test_b2_an_empty_pile_shows_no_cards():
    piles = [list(p) for p in PILES_WITH_AN_OXI]
    piles[3] = []
    assert not view_of(position(piles), None).piles[3].cards


def test_an_empty_pile_has_no_top_in_the_view():
    piles = [list(p) for p in PILES_WITH_AN_OXI]
    piles[3] = []
    assert not view_of(position(piles), 0).piles[3].HasField("top")


def test_views_never_show_the_prng_or_other_hands_through_the_engine():
    engine = Engine([GAME])
    state, _ = engine.new_game("crab_bucket", pb.CrabBucketOptions(), 4, seed=9)
    view = engine.view(state, 2)
    own = list(state.crab_bucket.hands[2].cards)
    assert list(view.crab_bucket.hand) == own
    assert not view.HasField("outcome") and "prng" not in str(view)


def test_keeping_one_of_two_same_named_missions_has_two_labels():
    twins = (
        *DEFAULT_MISSIONS[:17],
        Mission("Mission 3-E", 3, DEFAULT_MISSIONS[17].ability, DEFAULT_MISSIONS[17].requirements),
    )
    state = position(PILES, {0: HAND}, missions=twins, current=None)
    state.offered = [16, 17]
    state.mission_piles[2] = tuple(m for m in state.mission_piles[2] if m not in (16, 17))
    state.pending.append((KEEP_MISSION, 0))
    labels = [GAME.codec.move_label(state, m) for m in turn.legal_moves(state)]
    assert labels == ["keep mission 16 (Mission 3-E)", "keep mission 17 (Mission 3-E)"]
    assert KeepMission(16) in turn.legal_moves(state)


def test_ability_labels_say_what_each_choice_is():
    state = ready("Mission 2-B")
    move = UseAbility(mission_index("Mission 2-B"), (3,), card("blue 3"))
    label = GAME.codec.move_label(state, move)
    assert (
        label
        == "use 'Swap a card from your hand for one from the top': blue 3 for the top of pile 3"
    )
    piles = [["blue 1", "oxi", "red 8"], *PILES[1:]]
    quick = ready("Mission 1-C", piles=piles)
    rescue = UseAbility(mission_index("Mission 1-C"), (5,), -1, 0)
    assert GAME.codec.move_label(quick, rescue).endswith(": the Oxi! from pile 0 onto pile 5")


def test_seat_0_pile_0_and_mission_0_are_written_in_json():
    played = CardPlayed(0, 0, 0, False)
    assert as_json(played)["crab_bucket"]["card_played"] == {
        "player": 0,
        "card": {"color": "CRAB_BUCKET_COLOR_RED", "number": 1},
        "pile": 0,
    }
    completed = MissionCompleted(0, 1)
    assert as_json(completed)["crab_bucket"]["mission_completed"]["mission"] == 0
    move = game_pb2.Move()
    GAME.codec.encode_move(PlayCard(0, 0), move.crab_bucket)
    assert json_format.MessageToDict(move)["crabBucket"]["playCard"]["pile"] == 0


ENGINE = Engine([GAME])


def test_the_view_says_what_is_decided_and_about_what():
    state, _ = ENGINE.new_game("crab_bucket", pb.CrabBucketOptions(), 3, 5)
    views = [ENGINE.view(state, viewer).crab_bucket.decision for viewer in (None, 0, 1, 2)]
    assert all(view == views[0] for view in views)  # public: the same for every viewer
    assert views[0].kind == pb.CRAB_BUCKET_DECISION_KIND_PLAY
    assert views[0].HasField("player") and views[0].player == 0 and views[0].plays_left == 1
    dealing, _ = ENGINE.new_game(
        "crab_bucket", pb.CrabBucketOptions(), 3, 5, game_pb2.CHANCE_MODE_EXPLICIT
    )
    deal = ENGINE.view(dealing, None).crab_bucket.decision
    assert deal.kind == pb.CRAB_BUCKET_DECISION_KIND_DEAL and deal.pile == 0
    assert deal.HasField("pile") and not deal.HasField("player")


def test_the_keep_decision_lists_the_offered_missions():
    state = ready("Mission 3-C")
    state.offered = [mission_index("Mission 1-E"), mission_index("Mission 1-F")]
    for m in state.offered:
        state.mission_piles[0] = rules.without(state.mission_piles[0], m)
    state.discarded_missions.append(state.current)
    state.current = NO_MISSION
    state.spent[0] = True
    state.ability_used = True
    state.pending.append((KEEP_MISSION, 0))
    view = pb.CrabBucketView()
    GAME.codec.encode_view(state, None, view)
    assert view.decision.kind == pb.CRAB_BUCKET_DECISION_KIND_KEEP_MISSION
    assert list(view.decision.missions) == state.offered and view.decision.player == 0


def test_options_are_typed_for_a_new_game_form():
    options = {o.name: o for o in GAME.facts.options}
    assert options["first_player"].minimum == 0 and options["first_player"].maximum == 4
    assert options["first_mission_level"].minimum == 1
    assert options["first_mission_level"].maximum == 3
    assert options["missions"].max_items == 200
    assert set(options["mode"].allowed_values) == {
        "CRAB_BUCKET_MODE_QUICK",
        "CRAB_BUCKET_MODE_WILD_CRAB",
    }
