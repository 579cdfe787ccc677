"""Crab Bucket's codec: the validated decoders of cards, missions, options, the state and moves,
and the outcome. States, events, views and moves are written by the shapes messages.py
declares (core/wire.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from crabgames.core.errors import InvalidArgument, bad_move, bad_request, bad_state
from crabgames.core.game import Codec, Messages, Words
from crabgames.games.crab_bucket import rules, turn, words
from crabgames.games.crab_bucket.data import (
    ABILITIES,
    CARD_KINDS,
    CIRCLE,
    COLORS,
    CRAB_CARDS,
    DEFAULT_MISSIONS,
    HAND_SIZE,
    LEVELS,
    MAX_BETWEEN,
    MAX_HAND,
    MAX_PENDING,
    OXI,
    Adjacent,
    Gap,
    Mission,
    NotAdjacent,
    card_id,
    card_name,
    deck_size,
)
from crabgames.games.crab_bucket.events import Event
from crabgames.games.crab_bucket.messages import EVENT, MOVE, SHAPES, STATE, VIEW
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
MAX_MISSIONS = 200  # 11 times the default deck of 18
MAX_NAME = 64  # characters in a mission's name
MAX_REQUIREMENTS = 12  # twice the most a default mission shows (4 gaps, an X and a chain)
Fail = Callable[[str, str], InvalidArgument]

# The rules' modes, ends and abilities (state.py, data.py) hold the values of the protocol's
# enums of the same names (tests/crab_bucket/test_codec.py checks every name): each is written
# as it is, as its enum's type, and read back as the int it is.
MODE = pb.CrabBucketMode.ValueType
END_REASON = pb.CrabBucketEndReason.ValueType


# ----- small codecs -----


def decode_card(msg: pb.CrabBucketCard, path: str, fail: Fail) -> int:
    if msg.oxi:
        if msg.color or msg.number:
            raise fail(path, "an Oxi! card has no colour or number")
        return OXI
    if msg.color - 1 not in COLORS:
        raise fail(f"{path}.color", "must be red, green, blue or yellow (or set oxi)")
    if not 1 <= msg.number <= 8:
        raise fail(f"{path}.number", f"is {msg.number}; crab cards are numbered 1 to 8")
    return card_id(msg.color - 1, msg.number)


# Every valid card message's (oxi, color, number) and its card id.
CARD_IDS: dict[tuple[bool, int, int], int] = {
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
REQUIREMENTS: dict[bytes, Any] = {
    SHAPES.encoder(pb.CrabBucketRequirement)(req): req
    for req in (
        *(Gap(color, between) for color in COLORS for between in range(MAX_BETWEEN + 1)),
        *(kind(a, b) for kind in (NotAdjacent, Adjacent) for a in COLORS for b in COLORS),
    )
}


def decode_mission(msg: pb.CrabBucketMission, path: str, fail: Fail) -> Mission:
    if len(msg.name) > MAX_NAME:
        raise fail(f"{path}.name", f"at most {MAX_NAME} characters")
    if msg.level not in LEVELS:
        raise fail(f"{path}.level", f"is {msg.level}; missions are level 1, 2 or 3")
    if msg.ability not in ABILITIES:
        raise fail(f"{path}.ability", "must be one of the nine abilities")
    if not msg.requirements:
        raise fail(f"{path}.requirements", "a mission needs at least one requirement")
    if len(msg.requirements) > MAX_REQUIREMENTS:
        raise fail(f"{path}.requirements", f"at most {MAX_REQUIREMENTS} requirements")
    reqs = [_valid_requirement(r) for r in msg.requirements]
    for i, req in enumerate(reqs):
        if req is None:
            decode_requirement(msg.requirements[i], f"{path}.requirements[{i}]", fail)  # raises
    return Mission(msg.name, msg.level, msg.ability, tuple(reqs))


def _valid_requirement(msg: pb.CrabBucketRequirement) -> Any:
    """The requirement, or None where `decode_requirement` would find a problem (it names it);
    no error paths are built for the valid ones."""
    known = REQUIREMENTS.get(msg.SerializeToString())
    if known is not None:
        return known
    which = msg.WhichOneof("requirement")
    if which == "gap":
        color, between = msg.gap.color - 1, msg.gap.between
        return Gap(color, between) if color in COLORS and 0 <= between <= MAX_BETWEEN else None
    if which is None:
        return None
    pair = getattr(msg, which)
    first, second = pair.first - 1, pair.second - 1
    if first not in COLORS or second not in COLORS:
        return None
    return (NotAdjacent if which == "not_adjacent" else Adjacent)(first, second)


def decode_options_msg(
    msg: pb.CrabBucketOptions, num_players: int, path: str, fail: Fail
) -> Options:
    mode = msg.mode or QUICK
    if mode not in MODES:
        raise fail(f"{path}.mode", f"unknown mode {mode}")
    first = msg.first_player if msg.HasField("first_player") else 0
    if not 0 <= first < num_players:
        raise fail(f"{path}.first_player", f"must be a seat from 0 to {num_players - 1}")
    if len(msg.missions) > MAX_MISSIONS:
        raise fail(f"{path}.missions", f"at most {MAX_MISSIONS} missions")
    missions = tuple(
        decode_mission(m, f"{path}.missions[{i}]", fail) for i, m in enumerate(msg.missions)
    )
    missions = missions or DEFAULT_MISSIONS
    level = msg.first_mission_level if msg.HasField("first_mission_level") else 1
    if level not in LEVELS:
        raise fail(f"{path}.first_mission_level", "must be 1, 2 or 3")
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
OPTIONS_CACHE_SIZE = 256
# Each options table keeps at most this many bytes, estimated from the options' encoded size:
# the Options object (names, requirements, links) takes about 5 times its encoding (measured:
# 352 KB for the largest deck, 70 KB encoded), plus the bytes the entry holds. 16 largest decks,
# or hundreds of default-sized ones.
OPTIONS_CACHE_BYTES = 8 << 20
OPTIONS_COST = 5  # bytes kept per encoded byte, beside the entry's own bytes
ENTRY_OVERHEAD = 512  # the entry's tuple, dict slot and bytes objects


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


def decode_state(msg: pb.CrabBucketState, num_players: int, path: str) -> CrabBucketState:
    """Validate every field and build the native state; the first problem raises bad_state."""
    options = _decode_options_once(msg.options, num_players, f"{path}.options")
    state = rules.new_state(num_players, options)
    deck = deck_size(num_players)
    piles = _decode_stacks(msg.piles, CIRCLE, deck, f"{path}.piles", "8 piles (B2)")
    hands = _decode_stacks(msg.hands, num_players, MAX_HAND, f"{path}.hands", "one per player")
    state.piles = list(map(tuple, piles))
    state.hands = [tuple(sorted(hand)) for hand in hands]
    state.draw_pile = [0] * CARD_KINDS
    for card in decode_cards(
        _at_most(msg.draw_pile, deck, f"{path}.draw_pile"), f"{path}.draw_pile", bad_state
    ):
        state.draw_pile[card] += 1
    state.oxi_set_aside = _oxi_count(msg.oxi_set_aside, num_players, f"{path}.oxi_set_aside")
    state.oxi_discarded = _oxi_count(msg.oxi_discarded, num_players, f"{path}.oxi_discarded")
    removed = _at_most(msg.removed, deck, f"{path}.removed")
    state.removed = sorted(decode_cards(removed, f"{path}.removed", bad_state))
    _check_cards(state, path)
    _decode_missions(msg, state, path)
    _decode_turn(msg, state, path)
    _check_at_rest(msg, state, path)
    return state


# Options decoded lately, by their exact bytes and the player count (the only other input): a
# state's options are most of its bytes and never change during a game. Only options that passed
# every check are kept, so changed options are always checked in full (and the same bytes would
# pass the same checks again). The Options are frozen, so sharing them is safe.
# Options longer than this are more than any valid options encode to (the largest deck is
# about 70 KB): they carry fields the engine never writes, and are neither decoded nor kept.
MAX_OPTIONS_BYTES = 96 * 1024
_DECODED_OPTIONS = OptionsTable()  # (options bytes, player count) -> Options


def _decode_options_once(msg: pb.CrabBucketOptions, num_players: int, path: str) -> Options:
    if msg.ByteSize() > MAX_OPTIONS_BYTES:
        raise bad_state(path, f"{msg.ByteSize()} bytes: more than any valid options")
    key = (msg.SerializeToString(deterministic=True), num_players)
    options = _DECODED_OPTIONS.get(key)
    if options is None:
        options = decode_options_msg(msg, num_players, path, bad_state)
        _DECODED_OPTIONS.keep(key, options, len(key[0]))
    return options


def _oxi_count(value: int, num_players: int, path: str) -> int:
    if not 0 <= value <= num_players:
        raise bad_state(path, f"must be 0 to {num_players}: one Oxi! card per player (B1)")
    return value


def _at_most(cards: Any, most: int, path: str) -> Any:
    """A repeated card field, refused before decoding when longer than the game allows."""
    if len(cards) > most:
        raise bad_state(path, f"holds {len(cards)} cards; at most {most}")
    return cards


def _decode_stacks(msgs: Any, size: int, most: int, path: str, what: str) -> list[list[int]]:
    """`size` stacks of at most `most` cards each (a pile: the whole deck; a hand: MAX_HAND)."""
    if len(msgs) != size:
        raise bad_state(path, f"has {len(msgs)} entries; there must be {what}")
    return [
        decode_cards(_at_most(s.cards, most, f"{path}[{i}].cards"), f"{path}[{i}].cards", bad_state)
        for i, s in enumerate(msgs)
    ]


def _check_cards(state: CrabBucketState, path: str) -> None:
    counts = rules.card_counts(state)
    for card in range(CRAB_CARDS):
        if counts[card] != 1:
            raise bad_state(
                path, f"the {card_name(card)} is in {counts[card]} places; each crab card is in 1"
            )
    if counts[OXI] != state.num_players:
        raise bad_state(
            path, f"there are {counts[OXI]} Oxi! cards; there must be one per player (B1)"
        )
    if rules.oxi_cuts(state):
        for i, stack in enumerate(state.piles):
            if OXI in stack:
                raise bad_state(
                    f"{path}.piles[{i}]",
                    "holds an Oxi! card; in Wild Crab mode a played Oxi! card is discarded (2.)",
                )


def _mission_id(value: int, state: CrabBucketState, path: str) -> int:
    if not 0 <= value < len(state.options.missions):
        raise bad_state(path, f"is {value}; there are {len(state.options.missions)} missions")
    return value


def _decode_missions(msg: pb.CrabBucketState, state: CrabBucketState, path: str) -> None:
    if len(msg.mission_piles) != len(LEVELS):
        raise bad_state(f"{path}.mission_piles", "there must be 3 mission piles (levels 1-3)")
    missions = state.options.missions
    piles = [list(pile.missions) for pile in msg.mission_piles]
    current = [msg.current_mission] if msg.HasField("current_mission") else []
    completed = [done.mission for done in msg.completed]
    discarded, offered = list(msg.discarded_missions), list(msg.offered_missions)
    everywhere = [*piles[0], *piles[1], *piles[2], *current, *completed, *discarded, *offered]
    # Every mission in exactly one place, and each pile's in its level: checked at once, and
    # only a state that fails is walked place by place to name the first problem.
    placed_once = sorted(everywhere) == list(range(len(missions)))
    if not placed_once or any(
        missions[m].level != level for level, pile in enumerate(piles, start=1) for m in pile
    ):
        _name_misplaced_mission(msg, state, path)
    state.mission_piles = [tuple(sorted(pile)) for pile in piles]
    state.current = current[0] if current else NO_MISSION
    state.completed, state.spent = completed, [done.ability_used for done in msg.completed]
    state.discarded_missions, state.offered = discarded, offered
    if len(state.offered) > 2:
        raise bad_state(f"{path}.offered_missions", "at most 2 missions are offered")


def _name_misplaced_mission(msg: pb.CrabBucketState, state: CrabBucketState, path: str) -> None:
    """Raise for the first mission out of range, in two places, or in the wrong level's pile, in
    the order the places are listed; or, with none of those, for a mission that is nowhere."""
    seen: set[int] = set()

    def take(value: int, where: str) -> int:
        mission = _mission_id(value, state, where)
        if mission in seen:
            raise bad_state(where, f"mission {mission} is in two places")
        seen.add(mission)
        return mission

    for level, pile in enumerate(msg.mission_piles, start=1):
        where = f"{path}.mission_piles[{level - 1}].missions"
        ids = [take(m, f"{where}[{i}]") for i, m in enumerate(pile.missions)]
        if any(state.options.missions[m].level != level for m in ids):
            raise bad_state(where, f"holds a mission that is not level {level}")
    if msg.HasField("current_mission"):
        take(msg.current_mission, f"{path}.current_mission")
    for i, done in enumerate(msg.completed):
        take(done.mission, f"{path}.completed[{i}].mission")
    for i, m in enumerate(msg.discarded_missions):
        take(m, f"{path}.discarded_missions[{i}]")
    for i, m in enumerate(msg.offered_missions):
        take(m, f"{path}.offered_missions[{i}]")
    raise bad_state(f"{path}.mission_piles", "every mission must be somewhere")


def _decode_turn(msg: pb.CrabBucketState, state: CrabBucketState, path: str) -> None:
    n = state.num_players
    if msg.step not in STEPS:
        raise bad_state(f"{path}.step", f"unknown step {msg.step}")
    state.step = msg.step
    if not 0 <= msg.turn_player < n:
        raise bad_state(f"{path}.turn_player", f"must be a seat from 0 to {n - 1}")
    state.turn_player = msg.turn_player
    total = rules.deal_size(n)
    if not 0 <= msg.dealt <= total:
        raise bad_state(f"{path}.dealt", f"must be 0 to {total}")
    state.dealt = msg.dealt
    if (state.step == DEAL) != (state.dealt < total):
        raise bad_state(f"{path}.dealt", "the deal goes on exactly while cards remain to deal")
    if (state.step == DEAL) != (state.oxi_set_aside > 0):
        raise bad_state(f"{path}.oxi_set_aside", "the Oxi! cards are aside only during the deal")
    if state.step == DEAL:
        _check_deal(state, path)
    if not 0 <= msg.plays_left <= 2 or not 0 <= msg.played <= 2:
        raise bad_state(f"{path}.plays_left", "plays_left and played are 0 to 2")
    if state.step == PLAY and msg.plays_left == 0:
        raise bad_state(
            f"{path}.plays_left", "the play step has a play left; with none the turn draws (B6)"
        )
    state.ability_used, state.plays_left, state.played = (
        msg.ability_used,
        msg.plays_left,
        msg.played,
    )
    state.draws_over = msg.draws_over
    if not 0 <= msg.passes <= n:
        raise bad_state(f"{path}.passes", f"must be 0 to {n}")
    state.passes = msg.passes
    state.pending = []
    for i, item in enumerate(msg.pending):
        where = f"{path}.pending[{i}]"
        if item.kind not in PENDING_KINDS:
            raise bad_state(f"{where}.kind", f"unknown kind {item.kind}")
        wanted = LEVELS if item.kind in LEVELED_PENDING else (0,)
        if item.level not in wanted:
            raise bad_state(f"{where}.level", f"must be one of {list(wanted)}")
        state.pending.append((item.kind, item.level))
    if len(state.pending) > MAX_PENDING:
        raise bad_state(f"{path}.pending", f"at most {MAX_PENDING} pending decisions")
    if state.offered and (KEEP_MISSION, 0) not in state.pending:
        raise bad_state(f"{path}.offered_missions", "missions are offered only before a keep")
    if (state.step == GAME_OVER) != (msg.end_reason != 0):
        raise bad_state(f"{path}.end_reason", "is set exactly when the game is over")
    if msg.end_reason not in (0, *END_REASONS):
        raise bad_state(f"{path}.end_reason", f"unknown reason {msg.end_reason}")
    state.end_reason = msg.end_reason
    if msg.talking_allowed != rules.talking_allowed(state):
        raise bad_state(f"{path}.talking_allowed", "does not match the mode and missions (B9)")


def _check_deal(state: CrabBucketState, path: str) -> None:
    if state.oxi_set_aside != state.num_players:
        raise bad_state(
            f"{path}.oxi_set_aside", "every Oxi! card is set aside until the deal ends (B1)"
        )
    for i, stack in enumerate(state.piles):
        if len(stack) != (1 if i < state.dealt else 0):
            raise bad_state(f"{path}.piles[{i}]", f"does not match {state.dealt} cards dealt")
    for seat, hand in enumerate(state.hands):
        expected = min(max(state.dealt - CIRCLE - HAND_SIZE * seat, 0), HAND_SIZE)
        if len(hand) != expected:
            raise bad_state(f"{path}.hands[{seat}]", f"does not match {state.dealt} cards dealt")
    if state.pending or state.current != NO_MISSION or state.completed:
        raise bad_state(f"{path}.pending", "no mission is drawn before the deal ends")


def _check_at_rest(msg: pb.CrabBucketState, state: CrabBucketState, path: str) -> None:
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
        play = msg.play_card
        card_msg = play.card
        card = CARD_IDS.get((card_msg.oxi, card_msg.color, card_msg.number))
        if card is None:  # `decode_card` names the problem
            card = decode_card(card_msg, f"{path}.play_card.card", bad_move)
        pile = play.pile
        # the shared move for a pile of the circle
        return PLAY_CARD[card][pile] if 0 <= pile < CIRCLE else PlayCard(card, pile)
    if which == "pass":
        return Pass()
    if which == "choose_mission_pile":
        return ChooseMissionPile(msg.choose_mission_pile.level)
    if which == "keep_mission":
        return KeepMission(msg.keep_mission.mission)
    use = msg.use_ability
    card = -1
    if use.HasField("card"):
        card = decode_card(use.card, f"{path}.use_ability.card", bad_move)
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
    detail = msg.crab_bucket
    detail.mode = MODE(outcome.mode)
    detail.won = outcome.won
    detail.points = outcome.points
    detail.title = outcome.title
    detail.note = outcome.note
    detail.completed_missions.extend(outcome.completed)
    detail.end_reason = END_REASON(outcome.end_reason)
    msg.summary = words.outcome_summary(outcome)


def decode_options(options: pb.CrabBucketOptions, num_players: int, path: str) -> Options:
    return decode_options_msg(options, num_players, path, bad_request)


CODEC: Codec[CrabBucketState, Move, Event, Outcome] = Codec(
    Messages(pb.CrabBucketState, STATE, EVENT, VIEW, MOVE, encode_outcome),
    decode_options,
    decode_state,
    decode_move,
    Words(words.move_label, words.chance_label),
)
