"""Crab Bucket's components as data: the 32 crab cards, the Oxi! card, the mission cards (the
default deck is a house default, B4) and the Wild Crab levels table (B8)."""

from __future__ import annotations

from typing import Final, Literal, NamedTuple, TypeAlias

from crabgames.v1 import crab_bucket_pb2 as pb

Ability: TypeAlias = pb.CrabBucketAbility.ValueType  # the protocol's values (see ABILITIES)

# ----- cards -----
# A card is an int: crab cards 0..31 = colour * 8 + (number - 1); every Oxi! card is OXI.
RED: Final = 0
GREEN: Final = 1
BLUE: Final = 2
YELLOW: Final = 3
COLORS: Final = (RED, GREEN, BLUE, YELLOW)
COLOR_NAMES: Final = ("red", "green", "blue", "yellow")
CRAB_CARDS: Final = 32
OXI: Final = 32
CARD_KINDS: Final = 33  # crab cards 0..31 and the Oxi! card
CIRCLE: Final = 8  # piles in the circle (B2)
HAND_SIZE: Final = 3
MAX_HAND: Final = (
    HAND_SIZE + 1
)  # "Draw 1 card and play 2" draws a fourth card before the plays (B6)
MAX_PLAYERS: Final = 5  # the most seats the engine serves (GameFacts.max_players)
MAX_PENDING: Final = 4  # interrupting decisions stacked at once (an ability's draws and choices)


def deck_size(num_players: int) -> int:
    """Every card of a game: the 32 crab cards and one Oxi! card per player (B1)."""
    return CRAB_CARDS + num_players


def card_id(color: int, number: int) -> int:
    return color * 8 + number - 1


def color_of(card: int) -> int:
    return card // 8


def number_of(card: int) -> int:
    return card % 8 + 1


def card_name(card: int) -> str:
    if card == OXI:
        return "Oxi!"
    return f"{COLOR_NAMES[color_of(card)]} {number_of(card)}"


# Every card's name, by card: the events of most moves name a card.
CARD_NAMES: Final[tuple[str, ...]] = tuple(map(card_name, range(CARD_KINDS)))


# ----- missions (B3) -----


class Gap(NamedTuple):
    """Two tops of `color` with exactly `between` piles between them, clockwise."""

    color: int
    between: int
    kind: Literal["gap"] = "gap"  # requirements of two kinds never compare equal


class NotAdjacent(NamedTuple):
    """The "X" icon: no neighbouring tops are these colours."""

    first: int
    second: int
    kind: Literal["not_adjacent"] = "not_adjacent"


class Adjacent(NamedTuple):
    """The "Chain" icon: some neighbouring tops are these colours."""

    first: int
    second: int
    kind: Literal["adjacent"] = "adjacent"


Requirement = Gap | NotAdjacent | Adjacent


class Mission(NamedTuple):
    name: str
    level: int
    ability: Ability
    requirements: tuple[Requirement, ...]


LEVELS: Final = (1, 2, 3)
MAX_BETWEEN: Final = CIRCLE - 2  # a pair at distance d satisfies n = d - 1 and n = 7 - d (B3)

# The nine Mission Abilities in the rulebook's order: the protocol's enum's values.
RESCUE_TOPS: Final = pb.CRAB_BUCKET_ABILITY_RESCUE_TOPS
SWAP_TOPS: Final = pb.CRAB_BUCKET_ABILITY_SWAP_TOPS
RESCUE_OXI: Final = pb.CRAB_BUCKET_ABILITY_RESCUE_OXI
PLAY_FREELY: Final = pb.CRAB_BUCKET_ABILITY_PLAY_FREELY
SWAP_HAND_TOP: Final = pb.CRAB_BUCKET_ABILITY_SWAP_HAND_TOP
DRAW_ONE_PLAY_TWO: Final = pb.CRAB_BUCKET_ABILITY_DRAW_ONE_PLAY_TWO
DISCARD_PILE: Final = pb.CRAB_BUCKET_ABILITY_DISCARD_PILE
DISCARD_ALL_TOPS: Final = pb.CRAB_BUCKET_ABILITY_DISCARD_ALL_TOPS
NEW_MISSION: Final = pb.CRAB_BUCKET_ABILITY_NEW_MISSION
ABILITY_NAMES: Final = {
    RESCUE_TOPS: "Rescue up to 3 cards from the top",
    SWAP_TOPS: "Swap two top cards of position",
    RESCUE_OXI: "Rescue an Oxi! card",
    PLAY_FREELY: "Play a card freely",
    SWAP_HAND_TOP: "Swap a card from your hand for one from the top",
    DRAW_ONE_PLAY_TWO: "Draw 1 card and play 2",
    DISCARD_PILE: "Discard 1 crab pile",
    DISCARD_ALL_TOPS: "Discard the top card of all piles",
    NEW_MISSION: "Discard the Mission, draw 2 choose 1",
}
ABILITIES: Final = tuple(ABILITY_NAMES)  # in the rulebook's order
# The printed level of each ability ("Mission Abilities").
ABILITY_LEVEL: Final = {
    RESCUE_TOPS: 1,
    SWAP_TOPS: 1,
    RESCUE_OXI: 1,
    PLAY_FREELY: 2,
    SWAP_HAND_TOP: 2,
    DRAW_ONE_PLAY_TWO: 2,
    DISCARD_PILE: 3,
    DISCARD_ALL_TOPS: 3,
    NEW_MISSION: 3,
}


def _gaps(red: int, green: int, blue: int, yellow: int) -> tuple[Gap, ...]:
    return (Gap(RED, red), Gap(GREEN, green), Gap(BLUE, blue), Gap(YELLOW, yellow))


# House default deck (B4): the rulebook prints only the example mission (1-A) and the icons, not
# the cards. 6 missions per level; each level's three abilities appear on two cards each. Every
# mission is satisfiable (tests/crab_bucket/test_b4_default_mission_deck.py proves it with a
# witness circle).
DEFAULT_MISSIONS: Final[tuple[Mission, ...]] = (
    # Printed: the rulebook's example (green 2, red 3, blue 0, yellow 1).
    Mission("Mission 1-A", 1, RESCUE_TOPS, _gaps(3, 2, 0, 1)),
    Mission("Mission 1-B", 1, SWAP_TOPS, _gaps(2, 1, 3, 0)),
    Mission("Mission 1-C", 1, RESCUE_OXI, _gaps(0, 0, 2, 0)),
    Mission("Mission 1-D", 1, RESCUE_TOPS, _gaps(1, 0, 0, 3)),
    Mission("Mission 1-E", 1, SWAP_TOPS, _gaps(3, 0, 1, 0)),
    Mission("Mission 1-F", 1, RESCUE_OXI, _gaps(3, 0, 0, 1)),
    Mission("Mission 2-A", 2, PLAY_FREELY, (*_gaps(5, 5, 4, 0), NotAdjacent(YELLOW, RED))),
    Mission("Mission 2-B", 2, SWAP_HAND_TOP, (*_gaps(4, 0, 4, 2), NotAdjacent(GREEN, RED))),
    Mission("Mission 2-C", 2, DRAW_ONE_PLAY_TWO, (*_gaps(2, 4, 0, 0), Adjacent(YELLOW, RED))),
    Mission("Mission 2-D", 2, PLAY_FREELY, (*_gaps(5, 4, 5, 6), Adjacent(YELLOW, GREEN))),
    Mission("Mission 2-E", 2, SWAP_HAND_TOP, (*_gaps(4, 0, 0, 0), NotAdjacent(GREEN, BLUE))),
    Mission("Mission 2-F", 2, DRAW_ONE_PLAY_TWO, (*_gaps(2, 4, 0, 0), Adjacent(GREEN, BLUE))),
    Mission(
        "Mission 3-A",
        3,
        DISCARD_PILE,
        (*_gaps(5, 2, 6, 5), NotAdjacent(RED, BLUE), Adjacent(RED, GREEN)),
    ),
    Mission(
        "Mission 3-B",
        3,
        DISCARD_ALL_TOPS,
        (*_gaps(6, 5, 6, 1), NotAdjacent(YELLOW, RED), Adjacent(YELLOW, BLUE)),
    ),
    Mission(
        "Mission 3-C",
        3,
        NEW_MISSION,
        (*_gaps(2, 0, 2, 0), NotAdjacent(GREEN, YELLOW), Adjacent(RED, GREEN)),
    ),
    Mission(
        "Mission 3-D",
        3,
        DISCARD_PILE,
        (*_gaps(6, 0, 0, 0), NotAdjacent(BLUE, YELLOW), Adjacent(GREEN, YELLOW)),
    ),
    Mission(
        "Mission 3-E",
        3,
        DISCARD_ALL_TOPS,
        (*_gaps(0, 2, 4, 0), NotAdjacent(GREEN, RED), Adjacent(YELLOW, GREEN)),
    ),
    Mission(
        "Mission 3-F",
        3,
        NEW_MISSION,
        (*_gaps(1, 1, 1, 1), NotAdjacent(BLUE, YELLOW), Adjacent(GREEN, YELLOW)),
    ),
)


# ----- Wild Crab levels table (B8) -----
# (lowest points, title) as printed; 5 points has no printed entry.
TITLES: Final = (
    (20, "Oxi!"),
    (16, "King of the Mangrove Swamp"),
    (10, "Guardian of the Mangrove"),
    (6, "Crab Shell Grabber"),
)
APPRENTICE: Final = "Apprentice Crab Catcher"
NO_TITLE_NOTE: Final = "the printed levels table has no title for exactly 5 points (B8)"


def title_for(points: int) -> str:
    """The printed title for a Wild Crab score, or "" for 5 points (B8)."""
    if points <= 4:
        return APPRENTICE
    for lowest, title in TITLES:
        if points >= lowest:
            return title
    return ""
