"""The laws of a Crab Bucket state's places, each a function yielding (field, problem) pairs: the
field's path relative to the state message ("" for the state as a whole) and what is wrong there.
rules.invariant_violations lists all their problems; the codec refuses a state at the first, and
the view decoder (sampling.py) a view at the first where the view states the same. Paths are
built only for a problem found: decoding runs on every call."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Final

from crabgames.games.crab_bucket.data import (
    CIRCLE,
    CRAB_CARDS,
    LEVELS,
    MAX_HAND,
    OXI,
    Mission,
    card_name,
    deck_size,
)
from crabgames.games.crab_bucket.state import NO_MISSION, CrabBucketState

Problem = tuple[str, str]  # a broken law: its field's path, and what is wrong there


def card_counts(state: CrabBucketState) -> list[int]:
    """How many of each card kind are anywhere: piles, hands, draw pile, discard, removed, aside."""
    counts = list(state.draw_pile)
    for stack in (*state.piles, *state.hands, state.removed):
        for card in stack:
            counts[card] += 1
    counts[OXI] += state.oxi_discarded + state.oxi_set_aside
    return counts


def places_hold(
    num_players: int,
    piles: Sequence[int],
    hands: Sequence[int],
    *,
    draw_pile: int,
    removed: int,
    oxi_set_aside: int,
    oxi_discarded: int,
) -> Iterator[Problem]:
    """How many cards each place holds, checked before any card is read: the circle is 8 piles
    (B2) of at most the whole deck each; there is a hand per player of at most MAX_HAND cards (the
    fourth only while drawing 1 to play 2, B6); the draw pile and the cards removed are at most
    the deck; one Oxi! card per player may be set aside or discarded (B1). `piles` and `hands`
    are each one's size."""
    deck = deck_size(num_players)
    for name, held, count, what, most in (
        ("piles", piles, CIRCLE, "8 piles (B2)", deck),
        ("hands", hands, num_players, "one per player", MAX_HAND),
    ):
        if len(held) != count:
            yield name, f"has {len(held)} entries; there must be {what}"
            continue
        for i, size in enumerate(held):
            if not 0 <= size <= most:
                yield f"{name}[{i}].cards", f"holds {size} cards; at most {most}"
    for name, size in (("draw_pile", draw_pile), ("removed", removed)):
        if not 0 <= size <= deck:
            yield name, f"holds {size} cards; at most {deck}"
    for name, size in (("oxi_set_aside", oxi_set_aside), ("oxi_discarded", oxi_discarded)):
        if not 0 <= size <= num_players:
            yield name, f"must be 0 to {num_players}: one Oxi! card per player (B1)"


ONE_OF_EACH: Final = [1] * CRAB_CARDS


def cards_conserved(counts: list[int], num_players: int) -> Iterator[Problem]:
    """B1: each crab card is in the game once, and there is one Oxi! card per player; `counts`
    is how many of each kind are anywhere (`card_counts`)."""
    if counts[OXI] == num_players and counts[:CRAB_CARDS] == ONE_OF_EACH:  # at once, most often
        return
    for card in range(CRAB_CARDS):
        if counts[card] != 1:
            yield "", f"the {card_name(card)} is in {counts[card]} places; each crab card is in 1"
    if counts[OXI] != num_players:
        yield "", f"there are {counts[OXI]} Oxi! cards; there must be one per player (B1)"


def missions_placed_once(state: CrabBucketState) -> Iterator[Problem]:
    """B5: each mission of the deck is in exactly one place (a pile of its level, the current
    mission, completed, discarded or offered), and at most 2 are offered ("draw 2 choose 1")."""
    if len(state.mission_piles) != len(LEVELS):
        yield "mission_piles", "there must be 3 mission piles (levels 1-3)"
        return
    missions, piles = state.options.missions, state.mission_piles
    current = () if state.current == NO_MISSION else (state.current,)
    everywhere = [*piles[0], *piles[1], *piles[2], *current, *state.completed]
    everywhere += [*state.discarded_missions, *state.offered]
    # Checked at once; only a state that fails is walked place by place to name each problem.
    if sorted(everywhere) != list(range(len(missions))) or any(
        missions[m].level != level for level, pile in enumerate(piles, start=1) for m in pile
    ):
        yield from _misplaced_missions(missions, _mission_places(state))
    if len(state.offered) > 2:
        yield "offered_missions", "at most 2 missions are offered"


def _mission_places(state: CrabBucketState) -> list[tuple[str, Sequence[int]]]:
    """Each place a mission can be, as its field's path ({} for the index), and the missions
    there: the three piles by level first."""
    return [
        *(
            (f"mission_piles[{i}].missions[{{}}]", pile)
            for i, pile in enumerate(state.mission_piles)
        ),
        ("current_mission", () if state.current == NO_MISSION else (state.current,)),
        ("completed[{}].mission", state.completed),
        ("discarded_missions[{}]", state.discarded_missions),
        ("offered_missions[{}]", state.offered),
    ]


def _misplaced_missions(
    missions: Sequence[Mission], places: Sequence[tuple[str, Sequence[int]]]
) -> Iterator[Problem]:
    """Each mission out of range, in two places or in another level's pile, in the order of the
    places; then, if a mission is nowhere, that."""
    seen: set[int] = set()
    for level, (where, held) in enumerate(places, start=1):
        for i, m in enumerate(held):
            if not 0 <= m < len(missions):
                yield where.format(i), f"is {m}; there are {len(missions)} missions"
            elif m in seen:
                yield where.format(i), f"mission {m} is in two places"
            seen.add(m)
        if level in LEVELS and any(
            0 <= m < len(missions) and missions[m].level != level for m in held
        ):
            yield where.removesuffix("[{}]"), f"holds a mission that is not level {level}"
    if not seen.issuperset(range(len(missions))):
        yield "mission_piles", "every mission must be somewhere"
