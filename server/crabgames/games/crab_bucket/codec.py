"""Crab Bucket's codec: the validated decoders of cards, missions, options, the state and moves,
and the outcome. States, events, views and moves are written by the shapes messages.py
declares (core/wire.py)."""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Iterator, Mapping
from itertools import chain
from typing import Any, Final

from mypy_extensions import mypyc_attr

from crabgames.core.errors import InvalidArgument, bad_move, bad_request, bad_state
from crabgames.core.game import Codec, Messages, Words
from crabgames.games.crab_bucket import consistency, rules, turn, words
from crabgames.games.crab_bucket.abilities import DRAW_ONE_PLAYS
from crabgames.games.crab_bucket.consistency import Problem
from crabgames.games.crab_bucket.data import (
    ABILITIES,
    CARD_KINDS,
    CIRCLE,
    COLORS,
    DEFAULT_MISSIONS,
    HAND_SIZE,
    LEVELS,
    MAX_BETWEEN,
    MAX_PENDING,
    OXI,
    Adjacent,
    Gap,
    Mission,
    NotAdjacent,
    card_id,
)
from crabgames.games.crab_bucket.events import Event
from crabgames.games.crab_bucket.messages import EVENT, MOVE, OUTCOME, SHAPES, STATE, VIEW
from crabgames.games.crab_bucket.moves import (
    ChooseMissionPile,
    KeepMission,
    Move,
    Pass,
    PlayCard,
    UseAbility,
)
from crabgames.games.crab_bucket.rules import PLAY_CARD, Outcome
from crabgames.games.crab_bucket.state import (
    DEAL,
    END_REASONS,
    GAME_OVER,
    KEEP_MISSION,
    LEVELED_PENDING,
    MODES,
    NO_MISSION,
    NOT_ENDED,
    PENDING_KINDS,
    PLAY,
    QUICK,
    STEPS,
    CrabBucketState,
    Options,
)
from crabgames.v1 import crab_bucket_pb2 as pb
from crabgames.v1 import game_pb2

# Custom decks (B4) are the caller's: bounded so that every state, view and answer of such a game
# stays far below the 4 MiB message limit, and each deck the caches keep is small. The worst
# deck, MAX_MISSIONS missions named with MAX_NAME four-byte characters and MAX_REQUIREMENTS
# requirements each, encodes in about 75 KB (tests/test_bounds.py measures it): its state, its
# views and an ApplyMove answer with every event stay under 100 KB.
MAX_MISSIONS: Final = 200  # 11 times the default deck of 18
MAX_NAME: Final = 64  # characters in a mission's name
MAX_REQUIREMENTS: Final = 12  # twice the most a default mission shows (4 gaps, an X and a chain)
Fail = Callable[[str, str], InvalidArgument]


# ----- checks -----


def refuse(problems: Iterable[Problem], path: str, fail: Fail = bad_state) -> None:
    """Raise for the first problem found (a law's field path is relative to `path`)."""
    for where, problem in problems:
        raise fail(f"{path}.{where}" if where else path, problem)


def outside(values: Mapping[str, tuple[int, Collection[int]]]) -> Iterator[Problem]:
    """Each field whose value (the first of its pair) is not one of those allowed (the second)."""
    for name, (value, allowed) in values.items():
        if value not in allowed:
            shown = (
                f"{allowed.start} to {allowed.stop - 1}"
                if isinstance(allowed, range)
                else f"one of {', '.join(map(str, allowed))}"
            )
            yield name, f"is {value}; must be {shown}"


# ----- small codecs -----


def decode_card(msg: pb.CrabBucketCard, path: str, fail: Fail) -> int:
    card = CARD_IDS.get((msg.oxi, msg.color, msg.number))
    if card is not None:
        return card
    # Every valid card is in CARD_IDS: name what is wrong with this one.
    if msg.oxi:
        raise fail(path, "an Oxi! card has no colour or number")
    if msg.color - 1 not in COLORS:
        raise fail(f"{path}.color", "must be red, green, blue or yellow (or set oxi)")
    raise fail(f"{path}.number", f"is {msg.number}; crab cards are numbered 1 to 8")


# Every valid card message's (oxi, color, number) and its card id.
CARD_IDS: Final[dict[tuple[bool, int, int], int]] = {
    (False, color + 1, number): card_id(color, number) for color in COLORS for number in range(1, 9)
} | {(True, 0, 0): OXI}


def decode_cards(msgs: Any, path: str, fail: Fail) -> list[int]:
    """The cards of a repeated field by table lookup; the first one that is not a valid card is
    decoded by `decode_card`, which names its problem."""
    cards = [CARD_IDS.get((c.oxi, c.color, c.number)) for c in msgs]
    for i, card in enumerate(cards):
        if card is None:
            decode_card(msgs[i], f"{path}[{i}]", fail)  # raises
    return cards  # type: ignore[return-value]  # no None is left


def decode_color(value: int, path: str, fail: Fail) -> int:
    if value - 1 not in COLORS:
        raise fail(path, "must be red, green, blue or yellow")
    return value - 1


def decode_requirement(msg: pb.CrabBucketRequirement, path: str, fail: Fail) -> Any:
    which = msg.WhichOneof("requirement")
    if which is None:
        raise fail(path, "set one of gap, not_adjacent, adjacent")
    if which == "gap":
        color = decode_color(msg.gap.color, f"{path}.gap.color", fail)
        if not 0 <= msg.gap.between <= MAX_BETWEEN:
            raise fail(
                f"{path}.gap.between",
                f"is {msg.gap.between}; between two of 8 piles there are 0 to {MAX_BETWEEN}",
            )
        return Gap(color, msg.gap.between)
    pair = getattr(msg, which)
    first = decode_color(pair.first, f"{path}.{which}.first", fail)
    second = decode_color(pair.second, f"{path}.{which}.second", fail)
    return (NotAdjacent if which == "not_adjacent" else Adjacent)(first, second)


# Every valid requirement (60) by its encoding: a deck's requirements decode by lookup, one
# call each instead of reading every field; any other encoding (an invalid value, unknown
# fields) goes through the checks.
REQUIREMENTS: Final[dict[bytes, Any]] = {
    SHAPES.encoder(pb.CrabBucketRequirement)(req): req
    for req in (
        *(Gap(color, between) for color in COLORS for between in range(MAX_BETWEEN + 1)),
        *(kind(a, b) for kind in (NotAdjacent, Adjacent) for a in COLORS for b in COLORS),
    )
}


def decode_mission(msg: pb.CrabBucketMission, path: str, fail: Fail) -> Mission:
    if len(msg.name) > MAX_NAME:
        raise fail(f"{path}.name", f"at most {MAX_NAME} characters")
    refuse(outside({"level": (msg.level, LEVELS), "ability": (msg.ability, ABILITIES)}), path, fail)
    if not 1 <= len(msg.requirements) <= MAX_REQUIREMENTS:
        raise fail(f"{path}.requirements", f"1 to {MAX_REQUIREMENTS} requirements")
    reqs = tuple(
        REQUIREMENTS.get(r.SerializeToString())
        or decode_requirement(r, f"{path}.requirements[{i}]", fail)
        for i, r in enumerate(msg.requirements)
    )
    return Mission(msg.name, msg.level, msg.ability, reqs)


def decode_options(
    msg: pb.CrabBucketOptions, num_players: int, path: str, fail: Fail = bad_request
) -> Options:
    """The options of a new game (bad_request), of a state sent back (bad_state) or a view."""
    mode = msg.mode or QUICK
    first = msg.first_player if msg.HasField("first_player") else 0
    level = msg.first_mission_level if msg.HasField("first_mission_level") else 1
    values = {"mode": (mode, MODES), "first_player": (first, range(num_players))}
    refuse(outside(values | {"first_mission_level": (level, LEVELS)}), path, fail)
    if len(msg.missions) > MAX_MISSIONS:
        raise fail(f"{path}.missions", f"at most {MAX_MISSIONS} missions")
    missions = tuple(
        decode_mission(m, f"{path}.missions[{i}]", fail) for i, m in enumerate(msg.missions)
    )
    missions = missions or DEFAULT_MISSIONS
    if mode == QUICK and level != 1:
        raise fail(f"{path}.first_mission_level", "Quick mode starts with a level 1 mission")
    levels = {m.level for m in missions}
    if mode == QUICK and levels != set(LEVELS):
        raise fail(f"{path}.missions", "Quick mode needs at least one mission of each level")
    if level not in levels:
        raise fail(f"{path}.missions", f"there is no level {level} mission to start with")
    return Options(mode, first, missions, level)


# ----- the state -----

# The options are most of a state's bytes and never change during a game: the options a state
# sends back are decoded once and kept (`_decode_options_once`), in a table bounded by count
# and by the bytes it keeps.
OPTIONS_CACHE_SIZE: Final = 256
# Each options table keeps at most this many bytes, estimated from the options' encoded size:
# the Options object (names, requirements, links) takes about 5 times its encoding (measured:
# 352 KB for the largest deck, 70 KB encoded), plus the bytes the entry holds. 16 largest decks,
# or hundreds of default-sized ones.
OPTIONS_CACHE_BYTES: Final = 8 << 20
OPTIONS_COST: Final = 5  # bytes kept per encoded byte, beside the entry's own bytes
ENTRY_OVERHEAD: Final = 512  # the entry's tuple, dict slot and bytes objects


# Interpreted even in the compiled build: mypyc's native subclass of dict with attributes of
# its own breaks the garbage collector (python/mypy#21133; tests/test_compiled_build.py).
@mypyc_attr(native_class=False)
class OptionsTable(dict[Any, Any]):
    """A table of options bounded by count and by the bytes it keeps (estimated): it starts
    over rather than pass either bound."""

    def __init__(self) -> None:
        super().__init__()
        self.used = 0

    def keep(self, key: Any, value: Any, size: int) -> Any:
        """Remember `value` under `key`; `size` is the bytes of the options' encodings it holds
        beside the Options object."""
        cost = ENTRY_OVERHEAD + OPTIONS_COST * size
        if len(self) >= OPTIONS_CACHE_SIZE or self.used + cost > OPTIONS_CACHE_BYTES:
            self.clear()
        self[key] = value
        self.used += cost
        return value

    def clear(self) -> None:
        super().clear()
        self.used = 0


# Options decoded lately, by their exact bytes and the player count (the only other input): a
# state's options are most of its bytes and never change during a game. Only options that passed
# every check are kept, so changed options are always checked in full (and the same bytes would
# pass the same checks again). The Options are frozen, so sharing them is safe.
# Options longer than this are more than any valid options encode to (the largest deck is
# about 70 KB): they carry fields the engine never writes, and are neither decoded nor kept.
MAX_OPTIONS_BYTES: Final = 96 * 1024
_DECODED_OPTIONS: Final = OptionsTable()  # (options bytes, player count) -> Options


def _decode_options_once(msg: pb.CrabBucketOptions, num_players: int, path: str) -> Options:
    if msg.ByteSize() > MAX_OPTIONS_BYTES:
        raise bad_state(path, f"{msg.ByteSize()} bytes: more than any valid options")
    key = (msg.SerializeToString(deterministic=True), num_players)
    options = _DECODED_OPTIONS.get(key)
    if options is None:
        options = decode_options(msg, num_players, path, bad_state)
        _DECODED_OPTIONS.keep(key, options, len(key[0]))
    return options


def decode_state(msg: pb.CrabBucketState, num_players: int, path: str) -> CrabBucketState:
    """The native state the message holds, refused (bad_state) for the first law it breaks: the
    places' sizes before any card is read, then the cards and missions each in one place (the
    laws in consistency.py), then the turn, and last that it waits for a decision."""
    options = _decode_options_once(msg.options, num_players, f"{path}.options")
    piles = [stack.cards for stack in msg.piles]
    hands = [hand.cards for hand in msg.hands]
    sizes = consistency.places_hold(
        num_players,
        list(map(len, piles)),
        list(map(len, hands)),
        draw_pile=len(msg.draw_pile),
        removed=len(msg.removed),
        oxi_set_aside=msg.oxi_set_aside,
        oxi_discarded=msg.oxi_discarded,
    )
    refuse(sizes, path)
    state = rules.new_state(num_players, options)
    state.piles = [
        tuple(decode_cards(cards, f"{path}.piles[{i}].cards", bad_state))
        for i, cards in enumerate(piles)
    ]
    state.hands = [
        tuple(sorted(decode_cards(cards, f"{path}.hands[{i}].cards", bad_state)))
        for i, cards in enumerate(hands)
    ]
    state.draw_pile = [0] * CARD_KINDS
    for card in decode_cards(msg.draw_pile, f"{path}.draw_pile", bad_state):
        state.draw_pile[card] += 1
    state.mission_piles = [tuple(pile.missions) for pile in msg.mission_piles]
    state.dealt = msg.dealt
    read_seen(msg, state, path, bad_state)
    conserved = consistency.cards_conserved(consistency.card_counts(state), num_players)
    wild = rules.no_oxi_on_a_pile_in_wild_crab(state)
    # a pile's missions as listed, so that a problem names one by its index; then sorted
    refuse(chain(conserved, wild, consistency.missions_placed_once(state)), path)
    state.mission_piles = [tuple(sorted(pile)) for pile in state.mission_piles]
    refuse(_turn_problems(msg, state), path)
    _check_at_rest(state, path)
    return state


def read_seen(
    msg: pb.CrabBucketState | pb.CrabBucketView, state: CrabBucketState, path: str, fail: Fail
) -> None:
    """The fields a state and every view share (messages.SHARED), read alike from either: the
    cards removed, the Oxi! cards aside and discarded, the missions shown, the turn."""
    state.removed = sorted(decode_cards(msg.removed, f"{path}.removed", fail))
    state.oxi_set_aside, state.oxi_discarded = msg.oxi_set_aside, msg.oxi_discarded
    if msg.HasField("current_mission") and msg.current_mission == NO_MISSION:  # the wire's "none"
        raise fail(f"{path}.current_mission", "is set to no mission; leave it unset")
    state.current = msg.current_mission if msg.HasField("current_mission") else NO_MISSION
    state.completed = [done.mission for done in msg.completed]
    state.spent = [done.ability_used for done in msg.completed]
    state.discarded_missions = list(msg.discarded_missions)
    state.offered = list(msg.offered_missions)
    state.step, state.turn_player, state.end_reason = msg.step, msg.turn_player, msg.end_reason
    state.plays_left, state.played, state.passes = msg.plays_left, msg.played, msg.passes
    state.ability_used, state.draws_over = msg.ability_used, msg.draws_over
    state.pending = [(item.kind, item.level) for item in msg.pending]


# A turn plays one card, two after "Draw 1 card and play 2" (B6).
PLAYS: Final = range(DRAW_ONE_PLAYS + 1)
ENDS: Final = (NOT_ENDED, *END_REASONS)


def _turn_problems(msg: pb.CrabBucketState, state: CrabBucketState) -> Iterator[Problem]:
    """The turn's fields in range, and as the step has them: the deal (B1) goes on while cards
    remain to deal, with the Oxi! cards aside; a play step has a play left (B6); a pending
    decision's level names a pile; the end reason is set once the game is over; talking (B9)."""
    n, total = state.num_players, rules.deal_size(state.num_players)
    yield from outside(
        {
            "step": (state.step, STEPS),
            "turn_player": (state.turn_player, range(n)),
            "dealt": (state.dealt, range(total + 1)),
            "plays_left": (state.plays_left, PLAYS),
            "played": (state.played, PLAYS),
            "passes": (state.passes, range(n + 1)),
            "end_reason": (state.end_reason, ENDS),
        }
    )
    if len(state.pending) > MAX_PENDING:
        yield "pending", f"at most {MAX_PENDING} pending decisions"
    for i, (kind, level) in enumerate(state.pending):
        levels = LEVELS if kind in LEVELED_PENDING else (0,)  # a pile's level, or none
        yield from outside(
            {f"pending[{i}].kind": (kind, PENDING_KINDS), f"pending[{i}].level": (level, levels)}
        )
    dealing = state.step == DEAL
    if dealing != (state.dealt < total):
        yield "dealt", "the deal goes on exactly while cards remain to deal"
    if dealing != (state.oxi_set_aside > 0):
        yield "oxi_set_aside", "the Oxi! cards are aside only during the deal"
    if dealing:
        yield from _deal_problems(state)
    if state.step == PLAY and state.plays_left == 0:
        yield "plays_left", "the play step has a play left; with none the turn draws (B6)"
    if state.offered and (KEEP_MISSION, 0) not in state.pending:
        yield "offered_missions", "missions are offered only before a keep"
    if (state.step == GAME_OVER) != (state.end_reason != NOT_ENDED):
        yield "end_reason", "is set exactly when the game is over"
    if msg.talking_allowed != rules.talking_allowed(state):
        yield "talking_allowed", "does not match the mode and missions (B9)"


def _deal_problems(state: CrabBucketState) -> Iterator[Problem]:
    """B1: during the deal the Oxi! cards are aside, and the cards dealt lie one on each of the
    first piles, then three in each hand in turn; no mission is drawn yet."""
    if state.oxi_set_aside != state.num_players:
        yield "oxi_set_aside", "every Oxi! card is set aside until the deal ends (B1)"
    for i, stack in enumerate(state.piles):
        if len(stack) != (1 if i < state.dealt else 0):
            yield f"piles[{i}]", f"does not match {state.dealt} cards dealt"
    for seat, hand in enumerate(state.hands):
        if len(hand) != min(max(state.dealt - CIRCLE - HAND_SIZE * seat, 0), HAND_SIZE):
            yield f"hands[{seat}]", f"does not match {state.dealt} cards dealt"
    if state.pending or state.current != NO_MISSION or state.completed:
        yield "pending", "no mission is drawn before the deal ends"


def _check_at_rest(state: CrabBucketState, path: str) -> None:
    """A valid state waits for a decision someone can make (nothing automatic is left to run)."""
    probe = state.clone()
    try:
        events: list[Event] = []
        turn.advance(probe, events)
        waiting = turn.waits_for_decision(state)
    except (ValueError, IndexError, KeyError, AttributeError) as error:
        raise bad_state(path, f"inconsistent state ({error})") from error
    if events or probe.step != state.step or probe.pending != state.pending or not waiting:
        raise bad_state(path, "the state is not waiting for a decision anyone can make")


# ----- moves -----


def decode_move(msg: pb.CrabBucketMove, path: str) -> Move:
    which = msg.WhichOneof("move")
    if which is None:
        raise bad_move(path, "set one of play_card, pass, use_ability, ...")
    if which == "play_card":
        play = msg.play_card  # read once: a message's field is a lookup each time
        card, pile = decode_card(play.card, f"{path}.play_card.card", bad_move), play.pile
        # the shared move for a pile of the circle:
        return PLAY_CARD[card][pile] if 0 <= pile < CIRCLE else PlayCard(card, pile)
    if which == "pass":
        return Pass()
    if which == "choose_mission_pile":
        return ChooseMissionPile(msg.choose_mission_pile.level)
    if which == "keep_mission":
        return KeepMission(msg.keep_mission.mission)
    use = msg.use_ability
    has_card = use.HasField("card")
    card = decode_card(use.card, f"{path}.use_ability.card", bad_move) if has_card else -1
    source = use.oxi_from_pile if use.HasField("oxi_from_pile") else -1
    # Piles of RESCUE_TOPS and SWAP_TOPS are a set: listed in increasing order.
    return UseAbility(use.mission, tuple(sorted(use.piles)), card, source)


# ----- the outcome -----


def encode_outcome(outcome: Outcome, msg: game_pb2.Outcome) -> None:
    num_players = outcome.num_players
    for seat in range(num_players):  # one team: every seat wins or loses with it
        msg.players.add(player=seat, score=outcome.points, rank=1, winner=outcome.won)
    if outcome.won:
        msg.winners.extend(range(num_players))
    msg.crab_bucket.MergeFromString(OUTCOME(outcome))
    msg.summary = words.outcome_summary(outcome)


CODEC: Final[Codec[CrabBucketState, Move, Event, Outcome]] = Codec(
    Messages(pb.CrabBucketState, STATE, EVENT, VIEW, MOVE, encode_outcome),
    decode_options,
    decode_state,
    decode_move,
    Words(words.move_label, words.chance_label),
)
