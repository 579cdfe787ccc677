"""G5: what each seat may see (docs/rules/general.md, "G5: what each seat may see"), for Crab
Bucket (docs/rules/crab_bucket.md, "What a seat learns from the events (G5)", and B2): a card dealt
or drawn into a hand, the extra card of "Draw 1 card and play 2" included, is seen by its holder
only; the circle, the missions and every card played, cut (named, B2) or moved by an ability are
public. Checked on the chance decisions and through the engine's `new_game` and `apply_move`, as
the service sends them."""

from __future__ import annotations

from crabgames.core.engine import EXPLICIT, Engine, Match
from crabgames.core.prng import Prng
from crabgames.games.crab_bucket import GAME, rules, turn
from crabgames.games.crab_bucket.data import CIRCLE, DEFAULT_MISSIONS, HAND_SIZE, OXI
from crabgames.games.crab_bucket.moves import (
    PlayCard,
    UseAbility,
)
from crabgames.games.crab_bucket.state import (
    DRAW_MISSION,
    NO_MISSION,
    REFILL,
    CrabBucketState,
    Options,
)
from crabgames.v1 import crab_bucket_pb2 as pb
from crabgames.v1 import game_pb2
from tests.crab_bucket.helpers import (
    HAND,
    PILES,
    QUICK,
    TOPS,
    WILD_CRAB,
    card,
    card_message,
    mission_index,
    only,
    position,
    ready,
    text,
    use_mission,
)


def test_the_circle_is_dealt_for_all_to_see_and_each_hand_to_its_holder_only():
    # G5, B2: the 8 circle cards are dealt face up; then 3 cards to each player in seat order.
    state = rules.new_state(3, Options(QUICK, 0, DEFAULT_MISSIONS, 1))
    for dealt in range(rules.deal_size(3)):
        receiver = None if dealt < CIRCLE else (dealt - CIRCLE) // HAND_SIZE
        assert rules.card_receiver(state) == receiver
        hidden = [p for p in range(3) if receiver is not None and p != receiver]
        assert rules.chance_hidden_from(state) == hidden
        turn.apply_chance(state, rules.chance_outcomes(state)[0][0])
    # Then the first mission is drawn, face up for everyone.
    assert rules.decision_name(state) == "draw_mission"
    assert rules.card_receiver(state) is None and rules.chance_hidden_from(state) == []


def test_the_extra_card_of_draw_1_and_play_2_is_seen_by_its_drawer_only():
    state = position(PILES, {0: HAND}, num_players=3, current="Mission 1-D",
                     completed=("Mission 2-C",))  # fmt: skip
    turn.apply_move(state, UseAbility(mission_index("Mission 2-C")))
    assert rules.decision_name(state) == "draw_card"
    assert rules.card_receiver(state) == 0 and rules.chance_hidden_from(state) == [1, 2]


def test_the_card_drawn_back_to_3_is_seen_by_its_drawer_only():
    state = position(PILES, {1: HAND}, num_players=3, current="Mission 1-D", turn=1)
    turn.apply_move(state, PlayCard(card("red 1"), 3))  # red 1 on red 6
    assert rules.decision_name(state) == "draw_card"
    assert rules.card_receiver(state) == 1 and rules.chance_hidden_from(state) == [0, 2]


def test_draw_1_and_play_2_draws_its_extra_card_seen_by_the_drawer_only():
    state = ready("Mission 2-C")
    use_mission(state, "Mission 2-C")
    drawn = only(turn.apply_chance(state, card("green 5")), "card_drawn")
    assert drawn.extra and text(drawn) == ("player 0 draws green 5 for Draw 1 card and play 2")
    seen = GAME.redact_event(drawn, 1)
    assert seen.card is None and seen.extra
    assert text(seen) == "player 0 draws a card for Draw 1 card and play 2"


ENGINE = Engine([GAME])


def as_message(state: CrabBucketState) -> game_pb2.GameState:
    """A hand-built position as a GameState whose chance events the caller resolves."""
    return ENGINE.encode(Match(GAME, state.num_players, 1, Prng(1), EXPLICIT, 0, state))


def play(state: game_pb2.GameState, native) -> tuple[game_pb2.GameState, object]:
    move = game_pb2.Move(player=state.crab_bucket.turn_player)
    GAME.codec.encode_move(native, move.crab_bucket)
    after, happened, _ = ENGINE.apply_move(state, move)
    return after, happened


def draw(state: game_pb2.GameState, name: str) -> object:
    move = game_pb2.Move(chance=game_pb2.ChanceOutcome(value=card(name)))
    return ENGINE.apply_move(state, move)[1]


def test_a_drawn_card_is_seen_by_its_holder_only():
    start = position(TOPS, {0: ["blue 1", "green 1", "green 2"]}, current="Mission 1-D")
    after_play, _ = play(as_message(start), PlayCard(card("blue 1"), 0))
    assert after_play.next.decision == "draw_card"
    happened = draw(after_play, "red 5")
    (host,) = [e for e in happened.events if e.crab_bucket.HasField("card_drawn")]
    assert host.text == "player 0 draws red 5"
    assert host.crab_bucket.card_drawn.card == card_message(card("red 5"))
    assert host in happened.seat_events[0]
    for seen in (happened.seat_events[1], happened.public_events):
        (other,) = [e for e in seen if e.crab_bucket.HasField("card_drawn")]
        assert other.text == "player 0 draws a card"
        assert other.crab_bucket.card_drawn.player == 0
        assert not other.crab_bucket.card_drawn.HasField("card")


def test_the_circle_is_dealt_face_up_and_each_hand_to_its_holder_only():
    _, happened = ENGINE.new_game("crab_bucket", pb.CrabBucketOptions(), 2, seed=5)
    circle = happened.events[:CIRCLE]
    assert all(e.crab_bucket.card_dealt.HasField("card") for e in circle)
    for seen in (*happened.seat_events, happened.public_events):
        assert seen[:CIRCLE] == circle
    to_player_1 = slice(CIRCLE + HAND_SIZE, CIRCLE + 2 * HAND_SIZE)
    for host, own, other, public in zip(
        happened.events[to_player_1],
        happened.seat_events[1][to_player_1],
        happened.seat_events[0][to_player_1],
        happened.public_events[to_player_1],
        strict=True,
    ):
        assert own == host and host.text.startswith("player 1 is dealt ")
        assert host.text != "player 1 is dealt a card"
        assert other == public
        assert other.text == "player 1 is dealt a card"
        assert not other.crab_bucket.card_dealt.HasField("card")


def test_b2_the_cut_event_names_the_cards_it_shuffles_back_to_every_seat():
    piles = [["blue 1", "blue 2", "red 8"], *TOPS[1:]]
    hands = {0: ["oxi", "green 1", "green 2"]}
    start = position(piles, hands, mode=WILD_CRAB, current="Mission 1-D")
    _, happened = play(as_message(start), PlayCard(OXI, 0))
    (cut,) = [e for e in happened.events if e.crab_bucket.HasField("pile_cut")]
    assert cut.crab_bucket.pile_cut.returned == 2
    # B2: the cards under the top were dealt or played face up, so the cut names them.
    expected = [card_message(card("blue 1")), card_message(card("blue 2"))]
    assert list(cut.crab_bucket.pile_cut.returned_cards) == expected
    for seen in (*happened.seat_events, happened.public_events):
        assert seen == happened.events  # nothing secret: everyone sees the same


def test_rescued_top_cards_and_mission_draws_are_public():
    start = position(TOPS, {0: ["blue 1", "green 1", "green 2"]}, current="Mission 1-D",
                     completed=("Mission 1-A",))  # fmt: skip
    _, happened = play(as_message(start), UseAbility(mission_index("Mission 1-A"), (0, 2)))
    assert happened.events
    for seen in (*happened.seat_events, happened.public_events):
        assert seen == happened.events
    start.current = NO_MISSION
    start.pending.append((DRAW_MISSION, 2))
    assert GAME.chance_hidden_from(start) == []


def test_only_a_card_into_a_hand_is_hidden_from_the_other_seats():
    state = rules.new_state(3, position(TOPS).options)
    assert GAME.chance_hidden_from(state) == []  # the first card goes face up on pile 0
    state.dealt = CIRCLE + HAND_SIZE  # the next card goes to player 1
    assert GAME.chance_hidden_from(state) == [0, 2]
    refill = position(TOPS, {0: ["blue 1", "green 1"]}, num_players=3, turn=2)
    refill.step = REFILL
    assert GAME.chance_hidden_from(refill) == [0, 1]


def test_every_ability_effect_is_public_and_the_extra_draw_hidden_from_the_others():
    """B2: an ability moves only face-up cards (tops, a pile, a discarded Oxi!, a hand card that
    lands face up, a top taken into the hand in full view), so every seat and the spectators see
    its events whole; only the extra card of "Draw 1 card and play 2" is its drawer's."""
    piles = [["blue 1", "oxi", "red 8"], *TOPS[1:]]
    uses = {
        "Mission 1-A": UseAbility(mission_index("Mission 1-A"), (0, 2)),
        "Mission 1-B": UseAbility(mission_index("Mission 1-B"), (0, 2)),
        "Mission 1-C": UseAbility(mission_index("Mission 1-C"), (3,), -1, 0),
        "Mission 2-A": UseAbility(mission_index("Mission 2-A"), (3,), card("green 1")),
        "Mission 2-B": UseAbility(mission_index("Mission 2-B"), (3,), card("green 1")),
        "Mission 3-A": UseAbility(mission_index("Mission 3-A"), (0,)),
        "Mission 3-B": UseAbility(mission_index("Mission 3-B"), ()),
    }
    for mission, move in uses.items():
        start = position(piles, {0: ["blue 2", "green 1", "green 2"]}, num_players=3,
                         current="Mission 1-D", completed=(mission,))  # fmt: skip
        after, happened = play(as_message(start), move)
        effects = [e for e in happened.events if not e.crab_bucket.HasField("card_drawn")]
        assert len(effects) >= 2, mission  # the ability and its effect
        for seen in (*happened.seat_events, happened.public_events):
            assert [e for e in seen if not e.crab_bucket.HasField("card_drawn")] == effects
    start = position(piles, {0: ["blue 2", "green 1", "green 2"]}, num_players=3,
                     current="Mission 1-D", completed=("Mission 2-C",))  # fmt: skip
    after, _ = play(as_message(start), UseAbility(mission_index("Mission 2-C"), ()))
    happened = draw(after, "blue 5")
    (host,) = happened.events
    assert host.crab_bucket.card_drawn.extra and host.crab_bucket.card_drawn.HasField("card")
    assert happened.seat_events[0] == [host]
    for seen in (happened.seat_events[1], happened.seat_events[2], happened.public_events):
        (other,) = seen
        assert other.crab_bucket.card_drawn.extra
        assert not other.crab_bucket.card_drawn.HasField("card")
        assert "blue 5" not in other.text and "blue 5" not in dict(other.args).values()
