"""Crab Bucket's events, one class per field of the CrabBucketEvent oneof, and who sees each (G5).

An event's fields are its proto message's fields (cards as ints, a card on a pile as a
(pile, card) pair, repeated fields as tuples; None: left out of the message), then the names its
sentence reads that no field holds (a mission's `name`), then its `kind`, the oneof field's name,
left at its default: events of two kinds never compare equal. The sentences are in words.py.
"""

from __future__ import annotations

from typing import Final, Literal, NamedTuple

from crabgames.games.crab_bucket.data import CARD_KINDS, CIRCLE, MAX_PLAYERS, Ability
from crabgames.games.crab_bucket.state import EndReason

PileCard = tuple[int, int]  # (pile, card)


class CardDealt(NamedTuple):
    """To the circle (`pile`) or into a hand (`player`); `card` None: not seen (G5)."""

    card: int | None
    pile: int | None = None
    player: int | None = None
    kind: Literal["card_dealt"] = "card_dealt"


class OxiShuffledIn(NamedTuple):
    count: int  # type: ignore[assignment]  # the proto field's name; hides tuple.count
    kind: Literal["oxi_shuffled_in"] = "oxi_shuffled_in"


class MissionDrawn(NamedTuple):
    mission: int
    level: int
    offered: bool
    name: str
    kind: Literal["mission_drawn"] = "mission_drawn"


class CardPlayed(NamedTuple):
    player: int
    card: int
    pile: int
    freely: bool
    kind: Literal["card_played"] = "card_played"


class PileCut(NamedTuple):
    player: int
    pile: int
    returned: int
    returned_cards: tuple[int, ...] = ()
    rescued: bool = False
    kind: Literal["pile_cut"] = "pile_cut"


class AbilityUsed(NamedTuple):
    player: int
    mission: int
    ability: Ability
    piles: tuple[int, ...]
    kind: Literal["ability_used"] = "ability_used"


class MissionCompleted(NamedTuple):
    mission: int
    level: int
    kind: Literal["mission_completed"] = "mission_completed"


class MissionKept(NamedTuple):
    """`player` None: the only mission drawn, kept without a choice."""

    mission: int
    returned: tuple[int, ...]
    name: str
    player: int | None = None
    returned_names: tuple[str, ...] = ()
    kind: Literal["mission_kept"] = "mission_kept"


class CardDrawn(NamedTuple):
    """`card` None: not seen (G5); `extra`: the card of "Draw 1 card and play 2"."""

    player: int
    card: int | None = None
    extra: bool = False
    kind: Literal["card_drawn"] = "card_drawn"


class DrawPileEmpty(NamedTuple):
    kind: Literal["draw_pile_empty"] = "draw_pile_empty"


class TurnPassed(NamedTuple):
    player: int
    automatic: bool
    kind: Literal["turn_passed"] = "turn_passed"


class GameEnded(NamedTuple):
    reason: EndReason
    points: int
    won: bool
    title: str
    wild: bool
    kind: Literal["game_ended"] = "game_ended"


class TopsRescued(NamedTuple):
    player: int
    tops: tuple[PileCard, ...]
    kind: Literal["tops_rescued"] = "tops_rescued"


class TopsSwapped(NamedTuple):
    player: int
    first: PileCard
    second: PileCard
    kind: Literal["tops_swapped"] = "tops_swapped"


class OxiRescued(NamedTuple):
    """Wild Crab: from the discard, to cut `pile`; Quick: from a place in a pile, onto `pile`."""

    player: int
    pile: int
    from_pile: int | None = None
    from_index: int | None = None
    kind: Literal["oxi_rescued"] = "oxi_rescued"


class HandTopSwapped(NamedTuple):
    player: int
    pile: int
    given: int
    taken: int
    kind: Literal["hand_top_swapped"] = "hand_top_swapped"


class PileDiscarded(NamedTuple):
    player: int
    pile: int
    cards: tuple[int, ...]
    kind: Literal["pile_discarded"] = "pile_discarded"


class TopsDiscarded(NamedTuple):
    player: int
    tops: tuple[PileCard, ...]
    kind: Literal["tops_discarded"] = "tops_discarded"


class MissionDiscarded(NamedTuple):
    player: int
    mission: int
    level: int
    name: str
    kind: Literal["mission_discarded"] = "mission_discarded"


class MissionPileChosen(NamedTuple):
    player: int
    level: int
    offer: bool
    kind: Literal["mission_pile_chosen"] = "mission_pile_chosen"


class NoMissionDrawn(NamedTuple):
    """`level` None: every mission pile is empty."""

    offer: bool
    level: int | None = None
    kind: Literal["no_mission_drawn"] = "no_mission_drawn"


class NoMainAction(NamedTuple):
    player: int
    second_play: bool
    kind: Literal["no_main_action"] = "no_main_action"


class TurnEnded(NamedTuple):
    """`next_player` None: the game ends with this turn."""

    player: int
    passes: int
    next_player: int | None = None
    kind: Literal["turn_ended"] = "turn_ended"


Event = (
    CardDealt
    | OxiShuffledIn
    | MissionDrawn
    | CardPlayed
    | PileCut
    | AbilityUsed
    | MissionCompleted
    | MissionKept
    | CardDrawn
    | DrawPileEmpty
    | TurnPassed
    | GameEnded
    | TopsRescued
    | TopsSwapped
    | OxiRescued
    | HandTopSwapped
    | PileDiscarded
    | TopsDiscarded
    | MissionDiscarded
    | MissionPileChosen
    | NoMissionDrawn
    | NoMainAction
    | TurnEnded
)


# ----- the events of every turn, built once -----

# An event never changes, so the events every turn makes (a card played, a card drawn, the turn
# passed on) are built once for every value they can hold and shared, as the moves of
# rules.PLAY_CARD are: a NamedTuple built during play runs its Python-level __new__, a playout's
# dearest step once the rules are compiled.
# CARDS_PLAYED[player][card][pile][freely], CARDS_DRAWN[player][card][extra]:
CARDS_PLAYED: Final = tuple(
    tuple(
        tuple(
            (CardPlayed(player, card, pile, False), CardPlayed(player, card, pile, True))
            for pile in range(CIRCLE)
        )
        for card in range(CARD_KINDS)
    )
    for player in range(MAX_PLAYERS)
)
CARDS_DRAWN: Final = tuple(
    tuple(
        (CardDrawn(player, card, False), CardDrawn(player, card, True))
        for card in range(CARD_KINDS)
    )
    for player in range(MAX_PLAYERS)
)
# TURNS_PASSED_ON[player][passes][next_player]: the turn ends and `next_player` plays (the turn
# that ends the game is a TurnEnded of its own). A turn ends with fewer passes in a row than
# there are players (a full round ends the game).
TURNS_PASSED_ON: Final = tuple(
    tuple(
        tuple(TurnEnded(player, passes, next_player) for next_player in range(MAX_PLAYERS))
        for passes in range(MAX_PLAYERS)
    )
    for player in range(MAX_PLAYERS)
)


# ----- what each seat sees (G5) -----

# What every other seat and the spectators see of a card dealt or drawn into a hand: one shared
# event per holder (and per `extra`, the card of "Draw 1 card and play 2", whose use is public),
# so the engine encodes it once for them all.
UNSEEN_DEALS: Final = tuple(CardDealt(None, player=holder) for holder in range(MAX_PLAYERS))
UNSEEN_DRAWS: Final = {
    (holder, extra): CardDrawn(holder, None, extra)
    for holder in range(MAX_PLAYERS)
    for extra in (False, True)
}


def seen_by(event: Event, viewer: int | None) -> Event:
    """G5, B2: a card dealt or drawn into a hand is seen by its holder only; the others (and
    spectators) see that the player got a card. Every other event is public (rules notes)."""
    if type(event) is CardDealt:
        if event.player is None or event.player == viewer:
            return event
        return UNSEEN_DEALS[event.player]
    if type(event) is CardDrawn:
        if event.player == viewer:
            return event
        return UNSEEN_DRAWS[event.player, event.extra]
    return event
