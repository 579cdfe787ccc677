"""The sentences of Crab Bucket's events: for each event a template with named placeholders and
the args that fill it, built from the event's data alone, and only when the event is encoded
(playouts never read them; the engine remembers each distinct event's bytes).

A template is a translation key: the same template always has the same placeholders, and every
number and name (a seat, a pile, a card, a mission) is an arg, never part of the template. Seats
and piles print the numbers their fields carry (0-based, as everywhere in Crab Bucket).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from crabgames.games.crab_bucket.data import (
    ABILITY_NAMES,
    CARD_NAMES,
    DRAW_ONE_PLAY_TWO,
    MAX_PLAYERS,
)
from crabgames.v1 import crab_bucket_pb2 as pb

Words = tuple[str, dict[str, str]]
# A seat, a pile or a count as text, by table (most events name one).
NUMERALS = tuple(map(str, range(max(MAX_PLAYERS, 64))))


def number(value: int) -> str:
    return NUMERALS[value] if 0 <= value < len(NUMERALS) else str(value)


def pile_cards(tops: tuple[tuple[int, int], ...]) -> str:
    """'red 5 from pile 2, green 1 from pile 4' for (pile, card) pairs."""
    return ", ".join(f"{CARD_NAMES[card]} from pile {pile}" for pile, card in tops)


def card_list(cards: tuple[int, ...]) -> str:
    return ", ".join(CARD_NAMES[card] for card in cards) or "no cards"


def _card_dealt(d: dict[str, Any]) -> Words:
    if "pile" in d:
        return "{card} dealt to pile {pile}", {
            "card": CARD_NAMES[d["card"]],
            "pile": number(d["pile"]),
        }
    if "card" not in d:
        return "player {player} is dealt a card", {"player": number(d["player"])}
    return "player {player} is dealt {card}", {
        "player": number(d["player"]),
        "card": CARD_NAMES[d["card"]],
    }


def _card_drawn(d: dict[str, Any]) -> Words:
    args = {"player": number(d["player"])}
    extra = ""
    if d.get("extra"):
        extra = " for {ability}"
        args["ability"] = ABILITY_NAMES[DRAW_ONE_PLAY_TWO]
    if "card" not in d:
        return "player {player} draws a card" + extra, args
    args["card"] = CARD_NAMES[d["card"]]
    return "player {player} draws {card}" + extra, args


def _oxi_shuffled_in(d: dict[str, Any]) -> Words:
    return "{count} Oxi! cards shuffled into the draw pile", {"count": number(d["count"])}


def _mission_drawn(d: dict[str, Any]) -> Words:
    args = {"mission": d["name"], "level": number(d["level"])}
    if d["offered"]:
        return "{mission} (level {level}) drawn into the offer", args
    return "{mission} (level {level}) is the new current mission", args


def _card_played(d: dict[str, Any]) -> Words:
    args = {"player": number(d["player"]), "card": CARD_NAMES[d["card"]], "pile": number(d["pile"])}
    if d.get("freely"):
        return "player {player} plays {card} freely on pile {pile}", args
    return "player {player} plays {card} on pile {pile}", args


def _pile_cut(d: dict[str, Any]) -> Words:
    args = {"pile": number(d["pile"]), "returned": number(d["returned"])}
    if d.get("rescued"):
        return (
            "the rescued Oxi! is discarded again and cuts pile {pile}:"
            " {returned} cards go back into the draw pile",
            args,
        )
    args["player"] = number(d["player"])
    return (
        "player {player} discards an Oxi! and cuts pile {pile}:"
        " {returned} cards go back into the draw pile",
        args,
    )


def _ability_used(d: dict[str, Any]) -> Words:
    return "player {player} uses {ability}", {
        "player": number(d["player"]),
        "ability": ABILITY_NAMES[d["ability"]],
    }


def _tops_rescued(d: dict[str, Any]) -> Words:
    return "player {player} rescues {cards} into the draw pile", {
        "player": number(d["player"]),
        "cards": pile_cards(d["tops"]),
    }


def _tops_swapped(d: dict[str, Any]) -> Words:
    (first_pile, first_card), (second_pile, second_card) = d["first"], d["second"]
    return (
        "player {player} swaps {first_card} on pile {first_pile}"
        " with {second_card} on pile {second_pile}",
        {
            "player": number(d["player"]),
            "first_card": CARD_NAMES[first_card],
            "first_pile": number(first_pile),
            "second_card": CARD_NAMES[second_card],
            "second_pile": number(second_pile),
        },
    )


def _oxi_rescued(d: dict[str, Any]) -> Words:
    args = {"player": number(d["player"]), "pile": number(d["pile"])}
    if "from_pile" not in d:
        return "player {player} rescues a discarded Oxi! to cut pile {pile}", args
    args["from_pile"] = number(d["from_pile"])
    return (
        "player {player} rescues the Oxi! from pile {from_pile} and plays it on pile {pile}",
        args,
    )


def _hand_top_swapped(d: dict[str, Any]) -> Words:
    return (
        "player {player} puts {given} from the hand on pile {pile} and takes {taken} into the hand",
        {
            "player": number(d["player"]),
            "given": CARD_NAMES[d["given"]],
            "pile": number(d["pile"]),
            "taken": CARD_NAMES[d["taken"]],
        },
    )


def _pile_discarded(d: dict[str, Any]) -> Words:
    return "player {player} removes pile {pile} from the game: {cards}", {
        "player": number(d["player"]),
        "pile": number(d["pile"]),
        "cards": card_list(d["cards"]),
    }


def _tops_discarded(d: dict[str, Any]) -> Words:
    return "player {player} removes the top card of every pile from the game: {cards}", {
        "player": number(d["player"]),
        "cards": pile_cards(d["tops"]),
    }


def _mission_discarded(d: dict[str, Any]) -> Words:
    return "player {player} removes {mission} (level {level}) from the game", {
        "player": number(d["player"]),
        "mission": d["name"],
        "level": number(d["level"]),
    }


def _mission_pile_chosen(d: dict[str, Any]) -> Words:
    args = {"player": number(d["player"]), "level": number(d["level"])}
    if d["offer"]:
        return "player {player} draws an offered mission from the level {level} pile", args
    return "player {player} draws the next mission from the level {level} pile", args


def _no_mission_drawn(d: dict[str, Any]) -> Words:
    offer = " into the offer" if d["offer"] else ""
    if "level" not in d:
        return "every mission pile is empty: no mission is drawn" + offer, {}
    return "the level {level} mission pile is empty: no mission is drawn" + offer, {
        "level": number(d["level"])
    }


def _mission_completed(d: dict[str, Any]) -> Words:
    """By its index only: its name was told when it was drawn (a long custom name twice in one
    answer's every event list would double the largest answers, tests/test_bounds.py)."""
    return "mission {mission} (level {level}) completed", {
        "mission": number(d["mission"]),
        "level": number(d["level"]),
    }


def _mission_kept(d: dict[str, Any]) -> Words:
    if "player" not in d:
        return "{mission} is the new current mission: it was the only one drawn", {
            "mission": d["name"]
        }
    return "player {player} keeps {mission}; {returned} goes back to its pile", {
        "player": number(d["player"]),
        "mission": d["name"],
        "returned": ", ".join(d["returned_names"]),
    }


def _draw_pile_empty(d: dict[str, Any]) -> Words:
    return "the draw pile is empty: nobody draws again", {}


def _turn_passed(d: dict[str, Any]) -> Words:
    if d["automatic"]:
        return "player {player} cannot act and passes", {"player": number(d["player"])}
    return "player {player} passes", {"player": number(d["player"])}


def _no_main_action(d: dict[str, Any]) -> Words:
    if d["second_play"]:
        return "player {player} has no legal second play", {"player": number(d["player"])}
    return (
        "player {player} can take no main action after the ability: the turn ends without drawing",
        {"player": number(d["player"])},
    )


def _turn_ended(d: dict[str, Any]) -> Words:
    if "next_player" not in d:
        return "player {player}'s turn ends", {"player": number(d["player"])}
    return "player {player}'s turn ends; player {next_player} plays next", {
        "player": number(d["player"]),
        "next_player": number(d["next_player"]),
    }


# The end, by how it came (B7): Quick mode won or lost; Wild Crab with its title, or without one.
LEVEL_3 = pb.CRAB_BUCKET_END_REASON_LEVEL_3_COMPLETED
RAN_OUT = pb.CRAB_BUCKET_END_REASON_CARDS_RAN_OUT
STALLED = pb.CRAB_BUCKET_END_REASON_STALLED
QUICK_END = {
    LEVEL_3: "the final mission is completed: the team wins with {points} points",
    RAN_OUT: "every hand is empty before the final mission: the team loses with {points} points",
    STALLED: "a full round of passes before the final mission: the team loses with {points} points",
}
WILD_END = {
    RAN_OUT: "every hand is empty: the team wins with {points} points, title {title}",
    STALLED: "a full round of passes: the team wins with {points} points, title {title}",
}
NO_TITLE = " (the printed levels table has none for this score)"
WILD_END_NO_TITLE = {
    RAN_OUT: "every hand is empty: the team wins with {points} points and no title" + NO_TITLE,
    STALLED: "a full round of passes: the team wins with {points} points and no title" + NO_TITLE,
}


def _game_ended(d: dict[str, Any]) -> Words:
    args = {"points": number(d["points"])}
    if not d["wild"]:
        return QUICK_END[d["reason"]], args
    if not d["title"]:
        return WILD_END_NO_TITLE[d["reason"]], args
    args["title"] = d["title"]
    return WILD_END[d["reason"]], args


WORDS: dict[str, Callable[[dict[str, Any]], Words]] = {
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


def words(kind: str, data: dict[str, Any]) -> Words:
    """The event's template and args."""
    return WORDS[kind](data)


def text(kind: str, data: dict[str, Any]) -> str:
    template, args = words(kind, data)
    return template.format_map(args)
