"""Crab Bucket's reference reducer: a `CrabBucketView` brought up to date from the events one
viewer sees, read from the events' data alone (never their text), as a front end animating them
would.

Every change at the table has its event: each card dealt, drawn, played, cut back into the draw
pile, rescued, swapped or removed names the card (hidden only when it goes into another seat's
hand) and the piles it left and reached; each mission drawn, completed, discarded or kept names
the mission; a turn's end names the next player and the count of passes in a row. The turn's
counters follow: a play spends one of the plays owed, and with none left the turn goes on to
drawing back to 3 (step REFILL).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from crabgames.v1 import crab_bucket_pb2 as pb
from crabgames.v1 import game_pb2

DERIVED_FIELDS: tuple[str, ...] = (
    # The decision being waited for, and the stack of interrupting decisions behind it (kept in
    # the view for SampleState): both follow from the rules, not from a change at the table
    # (which levels may still be chosen, whether an ability may be used), and each view brings
    # them anew.
    "decision",
    "pending",
)

OXI = pb.CrabBucketCard(oxi=True)


def card_key(card: pb.CrabBucketCard) -> int:
    """The card id order hands and removed cards are listed in (Oxi! last)."""
    return 32 if card.oxi else (card.color - 1) * 8 + card.number - 1


def insert_sorted(cards: Any, card: pb.CrabBucketCard) -> None:
    ordered = sorted([*cards, card], key=card_key)
    del cards[:]
    cards.extend(ordered)


def remove_card(cards: Any, card: pb.CrabBucketCard) -> None:
    for i, held in enumerate(cards):
        if held == card:
            del cards[i]
            return
    raise AssertionError(f"{card} is not there")


def set_pile(view: pb.CrabBucketView, pile: int, cards: list[pb.CrabBucketCard]) -> None:
    """Pile `pile` now holds `cards`, bottom to top: its top, height and Oxi! count follow."""
    shown = view.piles[pile]
    shown.Clear()
    shown.cards.extend(cards)
    shown.height = len(cards)
    shown.oxi_count = sum(1 for c in cards if c.oxi)
    if cards:
        shown.top.CopyFrom(cards[-1])


def pile_cards(view: pb.CrabBucketView, pile: int) -> list[pb.CrabBucketCard]:
    return list(view.piles[pile].cards)


def into_hand(view: pb.CrabBucketView, seat: int, card: Any, viewer: int | None) -> None:
    view.hand_sizes[seat] += 1
    if seat == viewer:
        insert_sorted(view.hand, card)


def out_of_hand(
    view: pb.CrabBucketView, seat: int, card: pb.CrabBucketCard, viewer: int | None
) -> None:
    view.hand_sizes[seat] -= 1
    if seat == viewer:
        remove_card(view.hand, card)


def count_play(view: pb.CrabBucketView) -> None:
    """B6: one play of the main action made; with none left the turn goes on to the draw."""
    view.plays_left -= 1
    view.played += 1
    if view.plays_left <= 0:
        view.step = pb.CRAB_BUCKET_STEP_REFILL


# ----- one function per event kind -----


def card_dealt(view: pb.CrabBucketView, e: pb.CrabBucketCardDealt, viewer: int | None) -> None:
    view.draw_pile_size -= 1
    if e.HasField("pile"):
        set_pile(view, e.pile, [*pile_cards(view, e.pile), e.card])
    else:
        into_hand(view, e.player, e.card, viewer)


def oxi_shuffled_in(view: pb.CrabBucketView, e: Any, viewer: int | None) -> None:
    view.draw_pile_size += e.count
    view.oxi_set_aside = 0
    view.step = pb.CRAB_BUCKET_STEP_PLAY


def mission_drawn(view: pb.CrabBucketView, e: Any, viewer: int | None) -> None:
    view.mission_pile_sizes[e.level - 1] -= 1
    if e.offered:
        view.offered_missions.append(e.mission)
    else:
        view.current_mission = e.mission


def card_played(view: pb.CrabBucketView, e: Any, viewer: int | None) -> None:
    out_of_hand(view, e.player, e.card, viewer)
    set_pile(view, e.pile, [*pile_cards(view, e.pile), e.card])
    count_play(view)


def pile_cut(view: pb.CrabBucketView, e: Any, viewer: int | None) -> None:
    cards = pile_cards(view, e.pile)
    assert cards[:-1] == list(e.returned_cards)
    set_pile(view, e.pile, cards[-1:])
    view.draw_pile_size += len(e.returned_cards)
    if not e.rescued:  # the Oxi! from the hand: the main action
        out_of_hand(view, e.player, OXI, viewer)
        view.oxi_discarded += 1
        count_play(view)


def ability_used(view: pb.CrabBucketView, e: Any, viewer: int | None) -> None:
    view.ability_used = True
    for done in view.completed:
        if done.mission == e.mission:
            done.ability_used = True  # turned face down
    if e.ability == pb.CRAB_BUCKET_ABILITY_DRAW_ONE_PLAY_TWO:
        view.plays_left = 2


def tops_rescued(view: pb.CrabBucketView, e: Any, viewer: int | None) -> None:
    for top in e.tops:
        cards = pile_cards(view, top.pile)
        assert cards[-1] == top.card
        set_pile(view, top.pile, cards[:-1])
        view.draw_pile_size += 1


def tops_swapped(view: pb.CrabBucketView, e: Any, viewer: int | None) -> None:
    first, second = pile_cards(view, e.first.pile), pile_cards(view, e.second.pile)
    assert first[-1] == e.first.card and second[-1] == e.second.card
    set_pile(view, e.first.pile, [*first[:-1], e.second.card])
    set_pile(view, e.second.pile, [*second[:-1], e.first.card])


def oxi_rescued(view: pb.CrabBucketView, e: Any, viewer: int | None) -> None:
    if not e.HasField("from_pile"):  # Wild Crab: from the discard, to cut (pile_cut follows)
        return
    source = pile_cards(view, e.from_pile)
    assert source[e.from_index].oxi
    del source[e.from_index]
    set_pile(view, e.from_pile, source)
    set_pile(view, e.pile, [*pile_cards(view, e.pile), OXI])


def hand_top_swapped(view: pb.CrabBucketView, e: Any, viewer: int | None) -> None:
    cards = pile_cards(view, e.pile)
    assert cards[-1] == e.taken
    set_pile(view, e.pile, [*cards[:-1], e.given])
    out_of_hand(view, e.player, e.given, viewer)
    into_hand(view, e.player, e.taken, viewer)


def pile_discarded(view: pb.CrabBucketView, e: Any, viewer: int | None) -> None:
    assert pile_cards(view, e.pile) == list(e.cards)
    set_pile(view, e.pile, [])
    for card in e.cards:
        insert_sorted(view.removed, card)


def tops_discarded(view: pb.CrabBucketView, e: Any, viewer: int | None) -> None:
    for top in e.tops:
        cards = pile_cards(view, top.pile)
        assert cards[-1] == top.card
        set_pile(view, top.pile, cards[:-1])
        insert_sorted(view.removed, top.card)


def mission_discarded(view: pb.CrabBucketView, e: Any, viewer: int | None) -> None:
    assert view.current_mission == e.mission
    view.ClearField("current_mission")
    view.discarded_missions.append(e.mission)


def mission_completed(view: pb.CrabBucketView, e: Any, viewer: int | None) -> None:
    view.ClearField("current_mission")
    view.completed.add(mission=e.mission)
    view.points += e.level
    view.talking_allowed = False  # B9: Quick mode talks during the first mission only


def mission_kept(view: pb.CrabBucketView, e: Any, viewer: int | None) -> None:
    for mission in e.returned:
        level = view.options.missions[mission].level
        view.mission_pile_sizes[level - 1] += 1
    view.ClearField("offered_missions")
    view.current_mission = e.mission


def card_drawn(view: pb.CrabBucketView, e: Any, viewer: int | None) -> None:
    view.draw_pile_size -= 1
    into_hand(view, e.player, e.card, viewer)


def draw_pile_empty(view: pb.CrabBucketView, e: Any, viewer: int | None) -> None:
    view.draws_over = True


def no_main_action(view: pb.CrabBucketView, e: Any, viewer: int | None) -> None:
    view.plays_left = 0
    if e.second_play:  # on to drawing back to 3; otherwise the turn ends (turn_ended follows)
        view.step = pb.CRAB_BUCKET_STEP_REFILL


def turn_ended(view: pb.CrabBucketView, e: Any, viewer: int | None) -> None:
    view.passes = e.passes
    view.ability_used = False
    view.plays_left = 1
    view.played = 0
    if e.HasField("next_player"):
        view.turn_player = e.next_player
        view.step = pb.CRAB_BUCKET_STEP_PLAY


def game_ended(view: pb.CrabBucketView, e: Any, viewer: int | None) -> None:
    view.step = pb.CRAB_BUCKET_STEP_GAME_OVER
    view.end_reason = e.reason
    assert view.points == e.points


def says_only(view: pb.CrabBucketView, e: Any, viewer: int | None) -> None:
    """Events that change only the decision to come (a pile chosen, a draw that found nothing,
    a pass: the turn's end follows)."""


APPLY: dict[str, Callable[[pb.CrabBucketView, Any, int | None], None]] = {
    "card_dealt": card_dealt,
    "oxi_shuffled_in": oxi_shuffled_in,
    "mission_drawn": mission_drawn,
    "card_played": card_played,
    "pile_cut": pile_cut,
    "ability_used": ability_used,
    "mission_completed": mission_completed,
    "mission_kept": mission_kept,
    "card_drawn": card_drawn,
    "draw_pile_empty": draw_pile_empty,
    "turn_passed": says_only,
    "game_ended": game_ended,
    "tops_rescued": tops_rescued,
    "tops_swapped": tops_swapped,
    "oxi_rescued": oxi_rescued,
    "hand_top_swapped": hand_top_swapped,
    "pile_discarded": pile_discarded,
    "tops_discarded": tops_discarded,
    "mission_discarded": mission_discarded,
    "mission_pile_chosen": says_only,
    "no_mission_drawn": says_only,
    "no_main_action": no_main_action,
    "turn_ended": turn_ended,
}


def apply_event(view: pb.CrabBucketView, event: game_pb2.Event, viewer: int | None) -> None:
    """`event` (as `viewer` sees it; None: a spectator) applied to `view`, from its data only."""
    kind = event.crab_bucket.WhichOneof("event")
    assert kind is not None, "not a Crab Bucket event"
    APPLY[kind](view, getattr(event.crab_bucket, kind), viewer)
