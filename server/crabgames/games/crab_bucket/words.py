"""The words of Crab Bucket: move labels, chance labels, the outcome's summary, and the sentences
of the events: for each event a template with named placeholders and
the args that fill it, built from the event's data alone, and only when the event is encoded
(playouts never read them; the engine remembers each distinct event's bytes).

A template is a translation key: the same template always has the same placeholders, and every
number and name (a seat, a pile, a card, a mission) is an arg, never part of the template. Seats
and piles print the numbers their fields carry (0-based, as everywhere in Crab Bucket).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import Any, Final

from crabgames.games.crab_bucket import rules
from crabgames.games.crab_bucket.data import (
    ABILITY_NAMES,
    CARD_NAMES,
    DISCARD_ALL_TOPS,
    DISCARD_PILE,
    DRAW_ONE_PLAY_TWO,
    MAX_PLAYERS,
    NEW_MISSION,
    OXI,
    PLAY_FREELY,
    RESCUE_OXI,
    RESCUE_TOPS,
    SWAP_HAND_TOP,
    SWAP_TOPS,
    card_name,
)
from crabgames.games.crab_bucket.events import (
    AbilityUsed,
    CardDealt,
    CardDrawn,
    CardPlayed,
    DrawPileEmpty,
    Event,
    GameEnded,
    HandTopSwapped,
    MissionCompleted,
    MissionDiscarded,
    MissionDrawn,
    MissionKept,
    MissionPileChosen,
    NoMainAction,
    NoMissionDrawn,
    OxiRescued,
    OxiShuffledIn,
    PileCut,
    PileDiscarded,
    TopsDiscarded,
    TopsRescued,
    TopsSwapped,
    TurnEnded,
    TurnPassed,
)
from crabgames.games.crab_bucket.moves import (
    ChooseMissionPile,
    KeepMission,
    Move,
    Pass,
    PlayCard,
    UseAbility,
)
from crabgames.games.crab_bucket.rules import Outcome
from crabgames.games.crab_bucket.state import (
    CARDS_RAN_OUT,
    DEAL,
    LEVEL_3_COMPLETED,
    LEVELED_PENDING,
    OFFER_DRAW,
    STALLED,
    WILD_CRAB,
    CrabBucketState,
)

Words = tuple[str, dict[str, str]]
# A seat, a pile or a count as text, by table (most events name one).
NUMERALS: Final = tuple(map(str, range(max(MAX_PLAYERS, 64))))


def number(value: int) -> str:
    return NUMERALS[value] if 0 <= value < len(NUMERALS) else str(value)


def pile_cards(tops: tuple[tuple[int, int], ...]) -> str:
    """'red 5 from pile 2, green 1 from pile 4' for (pile, card) pairs."""
    return ", ".join(f"{CARD_NAMES[card]} from pile {pile}" for pile, card in tops)


def card_list(cards: tuple[int, ...]) -> str:
    return ", ".join(CARD_NAMES[card] for card in cards) or "no cards"


def _card_dealt(e: CardDealt) -> Words:
    if e.player is None:  # to the circle, face up
        assert e.card is not None and e.pile is not None
        return "{card} dealt to pile {pile}", {
            "card": CARD_NAMES[e.card],
            "pile": number(e.pile),
        }
    if e.card is None:
        return "player {player} is dealt a card", {"player": number(e.player)}
    return "player {player} is dealt {card}", {
        "player": number(e.player),
        "card": CARD_NAMES[e.card],
    }


def _card_drawn(e: CardDrawn) -> Words:
    args = {"player": number(e.player)}
    extra = ""
    if e.extra:
        extra = " for {ability}"
        args["ability"] = ABILITY_NAMES[DRAW_ONE_PLAY_TWO]
    if e.card is None:
        return "player {player} draws a card" + extra, args
    args["card"] = CARD_NAMES[e.card]
    return "player {player} draws {card}" + extra, args


def _oxi_shuffled_in(e: OxiShuffledIn) -> Words:
    return "{count} Oxi! cards shuffled into the draw pile", {"count": number(e.count)}


def _mission_drawn(e: MissionDrawn) -> Words:
    args = {"mission": e.name, "level": number(e.level)}
    if e.offered:
        return "{mission} (level {level}) drawn into the offer", args
    return "{mission} (level {level}) is the new current mission", args


def _card_played(e: CardPlayed) -> Words:
    args = {"player": number(e.player), "card": CARD_NAMES[e.card], "pile": number(e.pile)}
    if e.freely:
        return "player {player} plays {card} freely on pile {pile}", args
    return "player {player} plays {card} on pile {pile}", args


def _pile_cut(e: PileCut) -> Words:
    args = {"pile": number(e.pile), "returned": number(e.returned)}
    cut = " and cuts pile {pile}: {returned} cards go back into the draw pile"
    if e.rescued:
        return "the rescued Oxi! is discarded again" + cut, args
    args["player"] = number(e.player)
    return "player {player} discards an Oxi!" + cut, args


def _ability_used(e: AbilityUsed) -> Words:
    return "player {player} uses {ability}", {
        "player": number(e.player),
        "ability": ABILITY_NAMES[e.ability],
    }


def _tops_rescued(e: TopsRescued) -> Words:
    return "player {player} rescues {cards} into the draw pile", {
        "player": number(e.player),
        "cards": pile_cards(e.tops),
    }


def _tops_swapped(e: TopsSwapped) -> Words:
    (first_pile, first_card), (second_pile, second_card) = e.first, e.second
    return (
        "player {player} swaps {first_card} on pile {first_pile}"
        " with {second_card} on pile {second_pile}",
        {
            "player": number(e.player),
            "first_card": CARD_NAMES[first_card],
            "first_pile": number(first_pile),
            "second_card": CARD_NAMES[second_card],
            "second_pile": number(second_pile),
        },
    )


def _oxi_rescued(e: OxiRescued) -> Words:
    args = {"player": number(e.player), "pile": number(e.pile)}
    if e.from_pile is None:
        return "player {player} rescues a discarded Oxi! to cut pile {pile}", args
    args["from_pile"] = number(e.from_pile)
    return (
        "player {player} rescues the Oxi! from pile {from_pile} and plays it on pile {pile}",
        args,
    )


def _hand_top_swapped(e: HandTopSwapped) -> Words:
    return (
        "player {player} puts {given} from the hand on pile {pile} and takes {taken} into the hand",
        {
            "player": number(e.player),
            "given": CARD_NAMES[e.given],
            "pile": number(e.pile),
            "taken": CARD_NAMES[e.taken],
        },
    )


def _pile_discarded(e: PileDiscarded) -> Words:
    return "player {player} removes pile {pile} from the game: {cards}", {
        "player": number(e.player),
        "pile": number(e.pile),
        "cards": card_list(e.cards),
    }


def _tops_discarded(e: TopsDiscarded) -> Words:
    return "player {player} removes the top card of every pile from the game: {cards}", {
        "player": number(e.player),
        "cards": pile_cards(e.tops),
    }


def _mission_discarded(e: MissionDiscarded) -> Words:
    return "player {player} removes {mission} (level {level}) from the game", {
        "player": number(e.player),
        "mission": e.name,
        "level": number(e.level),
    }


def _mission_pile_chosen(e: MissionPileChosen) -> Words:
    args = {"player": number(e.player), "level": number(e.level)}
    if e.offer:
        return "player {player} draws an offered mission from the level {level} pile", args
    return "player {player} draws the next mission from the level {level} pile", args


def _no_mission_drawn(e: NoMissionDrawn) -> Words:
    offer = " into the offer" if e.offer else ""
    if e.level is None:
        return "every mission pile is empty: no mission is drawn" + offer, {}
    return "the level {level} mission pile is empty: no mission is drawn" + offer, {
        "level": number(e.level)
    }


def _mission_completed(e: MissionCompleted) -> Words:
    """By its index only: its name was told when it was drawn (a long custom name twice in one
    answer's every event list would double the largest answers, tests/test_bounds.py)."""
    return "mission {mission} (level {level}) completed", {
        "mission": number(e.mission),
        "level": number(e.level),
    }


def _mission_kept(e: MissionKept) -> Words:
    if e.player is None:
        return "{mission} is the new current mission: it was the only one drawn", {
            "mission": e.name
        }
    return "player {player} keeps {mission}; {returned} goes back to its pile", {
        "player": number(e.player),
        "mission": e.name,
        "returned": ", ".join(e.returned_names),
    }


def _draw_pile_empty(e: DrawPileEmpty) -> Words:
    return "the draw pile is empty: nobody draws again", {}


def _turn_passed(e: TurnPassed) -> Words:
    if e.automatic:
        return "player {player} cannot act and passes", {"player": number(e.player)}
    return "player {player} passes", {"player": number(e.player)}


def _no_main_action(e: NoMainAction) -> Words:
    if e.second_play:
        return "player {player} has no legal second play", {"player": number(e.player)}
    return (
        "player {player} can take no main action after the ability: the turn ends without drawing",
        {"player": number(e.player)},
    )


def _turn_ended(e: TurnEnded) -> Words:
    if e.next_player is None:
        return "player {player}'s turn ends", {"player": number(e.player)}
    return "player {player}'s turn ends; player {next_player} plays next", {
        "player": number(e.player),
        "next_player": number(e.next_player),
    }


# The end, by how it came (B7): Quick mode won or lost; Wild Crab with its title, or without one.
QUICK_END: Final = {
    LEVEL_3_COMPLETED: "the final mission is completed: the team wins with {points} points",
    CARDS_RAN_OUT: (
        "every hand is empty before the final mission: the team loses with {points} points"
    ),
    STALLED: "a full round of passes before the final mission: the team loses with {points} points",
}
WILD_END: Final = {
    CARDS_RAN_OUT: "every hand is empty: the team wins with {points} points, title {title}",
    STALLED: "a full round of passes: the team wins with {points} points, title {title}",
}
NO_TITLE: Final = " and no title (the printed levels table has none for this score)"
WILD_END_NO_TITLE: Final = {
    reason: template.replace(", title {title}", NO_TITLE) for reason, template in WILD_END.items()
}


def _game_ended(e: GameEnded) -> Words:
    args = {"points": number(e.points)}
    if not e.wild:
        return QUICK_END[e.reason], args
    if not e.title:
        return WILD_END_NO_TITLE[e.reason], args
    args["title"] = e.title
    return WILD_END[e.reason], args


WORDS: Final[dict[str, Callable[[Any], Words]]] = {
    "card_dealt": _card_dealt,
    "oxi_shuffled_in": _oxi_shuffled_in,
    "mission_drawn": _mission_drawn,
    "card_played": _card_played,
    "pile_cut": _pile_cut,
    "ability_used": _ability_used,
    "mission_completed": _mission_completed,
    "mission_kept": _mission_kept,
    "card_drawn": _card_drawn,
    "draw_pile_empty": _draw_pile_empty,
    "turn_passed": _turn_passed,
    "game_ended": _game_ended,
    "tops_rescued": _tops_rescued,
    "tops_swapped": _tops_swapped,
    "oxi_rescued": _oxi_rescued,
    "hand_top_swapped": _hand_top_swapped,
    "pile_discarded": _pile_discarded,
    "tops_discarded": _tops_discarded,
    "mission_discarded": _mission_discarded,
    "mission_pile_chosen": _mission_pile_chosen,
    "no_mission_drawn": _no_mission_drawn,
    "no_main_action": _no_main_action,
    "turn_ended": _turn_ended,
}


def words(event: Event) -> Words:
    """The event's template and args."""
    return WORDS[event.kind](event)


# ----- moves, chance outcomes and the outcome -----


def move_label(state: CrabBucketState, move: Move) -> str:
    """Each label says what the move does, with the numbers its fields carry (piles 0..7,
    missions by index and name): no two legal moves of one decision share one."""
    missions = state.options.missions
    if isinstance(move, PlayCard):
        if move.card == OXI and rules.oxi_cuts(state):
            return f"discard Oxi! and cut pile {move.pile}"
        return f"play {card_name(move.card)} on pile {move.pile}"
    if isinstance(move, Pass):
        return "pass"
    if isinstance(move, ChooseMissionPile):
        return f"draw a mission from the level {move.level} pile"
    if isinstance(move, KeepMission):
        return f"keep mission {move.mission} ({missions[move.mission].name})"
    ability = missions[move.mission].ability
    return f"use {ABILITY_NAMES[ability]!r}" + ABILITY_DETAILS[ability](move)


def move_cache_keys(state: CrabBucketState, moves: Sequence[Move]) -> list[Hashable]:
    """Each move with what its label (`move_label`) and id (move_ids.py) read besides it, for
    the engine to keep its encoding by: whether an Oxi! cuts, for a card play; the mission's
    ability, for a use; a kept mission's name and its place in the offer. A move as a player
    sends it carries none of these (the state decides them), so the listed moves cannot be
    their own keys."""
    cuts, missions = rules.oxi_cuts(state), state.options.missions
    keys: list[Hashable] = []
    for move in moves:
        if type(move) is PlayCard:
            keys.append((move, cuts))
        elif type(move) is UseAbility:
            keys.append((move, missions[move.mission].ability))
        elif type(move) is KeepMission:
            keys.append((move, missions[move.mission].name, state.offered.index(move.mission)))
        else:
            keys.append(move)
    return keys


def _piles(piles: tuple[int, ...]) -> str:
    return ("piles " if len(piles) > 1 else "pile ") + ", ".join(map(str, piles))


def _rescue_oxi_detail(move: UseAbility) -> str:
    if move.source < 0:  # from the discard (`abilities._uses_rescue_oxi`)
        return f": a discarded Oxi! to cut pile {move.piles[0]}"
    return f": the Oxi! from pile {move.source} onto pile {move.piles[0]}"


# What a use of each ability adds to its label: every choice it carries.
ABILITY_DETAILS: Final[dict[int, Callable[[UseAbility], str]]] = {
    RESCUE_TOPS: lambda m: f": the tops of {_piles(m.piles)}",
    SWAP_TOPS: lambda m: f": the tops of piles {m.piles[0]} and {m.piles[1]}",
    RESCUE_OXI: _rescue_oxi_detail,
    PLAY_FREELY: lambda m: f": {card_name(m.card)} on pile {m.piles[0]}",
    SWAP_HAND_TOP: lambda m: f": {card_name(m.card)} for the top of pile {m.piles[0]}",
    DRAW_ONE_PLAY_TWO: lambda m: "",
    DISCARD_PILE: lambda m: f": pile {m.piles[0]}",
    DISCARD_ALL_TOPS: lambda m: "",
    NEW_MISSION: lambda m: "",
}


def chance_label(state: CrabBucketState, value: int) -> str:
    """What the outcome does: where the card goes (and to whom), which mission is drawn."""
    if state.pending and state.pending[-1][0] in LEVELED_PENDING:
        kind, level = state.pending[-1]
        where = "into the offer" if kind == OFFER_DRAW else "as the current mission"
        name = state.options.missions[value].name
        return f"mission {value} ({name}) drawn from the level {level} pile {where}"
    receiver = rules.card_receiver(state)
    if receiver is None:  # the deal's first cards, face up onto the circle's piles in turn
        return f"{card_name(value)} dealt to pile {state.dealt}"
    verb = "is dealt" if state.step == DEAL else "draws"
    return f"player {receiver} {verb} {card_name(value)}"


def outcome_summary(outcome: Outcome) -> str:
    if outcome.mode == WILD_CRAB:
        title = outcome.title or "no title (B8)"
        return f"Wild Crab: the team wins with {outcome.points} points, {title}"
    result = "the team wins" if outcome.won else "the team loses"
    return f"Quick mode: {result} ({len(outcome.completed)} missions completed)"
