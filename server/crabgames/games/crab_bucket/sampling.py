"""`resample_hidden` and `state_from_view`: drawing hidden information at random (for views that
leak nothing, and bots). What a player cannot see is the other hands and the draw pile (B2).
Every pile's whole contents are public (each card on a pile was dealt or played face up, B2):
piles are never redrawn."""

from __future__ import annotations

import random

from crabgames.core.errors import InvalidArgument, bad_request
from crabgames.games.crab_bucket import codec, rules, turn
from crabgames.games.crab_bucket.codec import decode_card, decode_options_msg
from crabgames.games.crab_bucket.data import (
    CARD_KINDS,
    CIRCLE,
    CRAB_CARDS,
    LEVELS,
    MAX_HAND,
    MAX_PENDING,
    OXI,
    deck_size,
)
from crabgames.games.crab_bucket.messages import STATE
from crabgames.games.crab_bucket.state import DEAL, EMPTY, NO_MISSION, CrabBucketState, Options
from crabgames.v1 import crab_bucket_pb2 as pb

RESAMPLE_TRIES = 100


def resample_hidden(
    state: CrabBucketState, player: int | None, rng: random.Random
) -> CrabBucketState:
    """Hidden from `player`: the other hands and the draw pile (B2). Every pile stays exactly
    as it is: each of its cards was dealt or played face up (B2). A redraw that would leave
    the turn player without the decision their view shows is drawn again (the view shows who
    decides, G3)."""
    for _ in range(RESAMPLE_TRIES):
        new = redraw_hidden(state, player, rng)
        if turn.waits_for_decision(new):
            return new
    return state.clone()  # the real state is always consistent with the view


def state_from_view(
    view: pb.CrabBucketView, player: int, num_players: int, rng: random.Random
) -> CrabBucketState:
    """Hidden cards drawn at random until the turn player's decision matches the view."""
    for _ in range(RESAMPLE_TRIES):
        state = sample_view(view, player, num_players, rng)
        msg = pb.CrabBucketState.FromString(STATE(state))
        try:
            return codec.decode_state(msg, num_players, "view.crab_bucket")
        except InvalidArgument as error:
            if error.violations[0].field != "view.crab_bucket":
                raise InvalidArgument("MALFORMED_REQUEST", error.violations) from None
    raise bad_request("view.crab_bucket", "no hidden cards fit this view")


def redraw_hidden(
    state: CrabBucketState, player: int | None, rng: random.Random
) -> CrabBucketState:
    """Pool every card hidden from `player` (the other hands and the draw pile) and deal it back
    into the same places at random; the piles stay exactly as they are (B2)."""
    new = state.clone()
    others = [q for q in range(new.num_players) if q != player]
    pool = [card for card, n in enumerate(new.draw_pile) for _ in range(n)]
    for q in others:
        pool += new.hands[q]
    _deal_pool(new, pool, others, rng)
    return new


def _deal_pool(
    state: CrabBucketState, pool: list[int], others: list[int], rng: random.Random
) -> None:
    """Deal `pool` into the hands of `others` (their sizes kept) and the draw pile."""
    rng.shuffle(pool)
    cards = iter(pool)
    for q in others:
        state.hands[q] = tuple(sorted(next(cards) for _ in state.hands[q]))
    state.draw_pile = [0] * CARD_KINDS
    for card in cards:
        state.draw_pile[card] += 1


def sample_view(
    view: pb.CrabBucketView, player: int, num_players: int, rng: random.Random
) -> CrabBucketState:
    """A native state matching `player`'s view; hidden cards drawn at random. The caller checks
    it (decode_state) and draws again if the turn player's decision does not match."""
    path = "view.crab_bucket"
    options = decode_options_msg(view.options, num_players, f"{path}.options", bad_request)
    check_view_sizes(view, options, num_players, path)
    state = rules.new_state(num_players, options)
    own = [decode_card(c, f"{path}.hand[{i}]", bad_request) for i, c in enumerate(view.hand)]
    if len(own) != view.hand_sizes[player]:
        raise bad_request(f"{path}.hand", "does not match the viewer's hand size")
    seen = [0] * CARD_KINDS
    for card in own:
        seen[card] += 1
    _piles_from_view(view, state, seen, path)
    state.removed = sorted(
        decode_card(c, f"{path}.removed[{i}]", bad_request) for i, c in enumerate(view.removed)
    )
    for card in state.removed:
        seen[card] += 1
    seen[OXI] += view.oxi_discarded + view.oxi_set_aside
    state.oxi_discarded, state.oxi_set_aside = view.oxi_discarded, view.oxi_set_aside
    pool = _unseen(seen, num_players, path)
    for seat, size in enumerate(view.hand_sizes):
        state.hands[seat] = tuple(own) if seat == player else (EMPTY,) * max(size, 0)
    if len(pool) != sum(view.hand_sizes) - len(own) + view.draw_pile_size:
        raise bad_request(f"{path}.draw_pile_size", "does not match the cards left unseen")
    _missions_from_view(view, state, path)
    _turn_from_view(view, state)
    others = [q for q in range(num_players) if q != player]
    _deal_pool(state, pool, others, rng)
    return state


def check_view_sizes(
    view: pb.CrabBucketView, options: Options, num_players: int, path: str
) -> None:
    """Every count and length the sampler builds from, against what the game holds (B1, B2),
    before anything is built: a view is the caller's, and a pile height of 10^7 would otherwise
    be a list of 10^7 cards. The cards counted everywhere must be the whole deck."""
    deck = deck_size(num_players)
    if len(view.piles) != CIRCLE:
        raise bad_request(f"{path}.piles", "there must be 8 piles (B2)")
    for p, pile in enumerate(view.piles):
        if not 0 <= pile.height <= deck:
            raise bad_request(f"{path}.piles[{p}].height", f"must be 0 to {deck} cards")
        if not 0 <= pile.oxi_count <= min(pile.height, num_players):
            raise bad_request(f"{path}.piles[{p}].oxi_count", "does not fit the pile")
        if len(pile.cards) != pile.height:
            raise bad_request(f"{path}.piles[{p}].cards", "must be the pile's height cards (B2)")
    if len(view.hand_sizes) != num_players:
        raise bad_request(f"{path}.hand_sizes", f"needs {num_players} entries")
    for seat, size in enumerate(view.hand_sizes):
        if not 0 <= size <= MAX_HAND:
            raise bad_request(f"{path}.hand_sizes[{seat}]", f"a hand holds 0 to {MAX_HAND} cards")
    if len(view.hand) > MAX_HAND:
        raise bad_request(f"{path}.hand", f"a hand holds at most {MAX_HAND} cards")
    if not 0 <= view.draw_pile_size <= deck:
        raise bad_request(f"{path}.draw_pile_size", f"must be 0 to {deck} cards")
    for name in ("oxi_set_aside", "oxi_discarded"):
        if not 0 <= getattr(view, name) <= num_players:
            raise bad_request(f"{path}.{name}", f"there are {num_players} Oxi! cards (B1)")
    if len(view.removed) > deck:
        raise bad_request(f"{path}.removed", f"at most {deck} cards")
    counted = (
        sum(pile.height for pile in view.piles)
        + sum(view.hand_sizes)
        + view.draw_pile_size
        + len(view.removed)
        + view.oxi_set_aside
        + view.oxi_discarded
    )
    if counted != deck:
        raise bad_request(
            path, f"{counted} cards in piles, hands and elsewhere; the game has {deck}"
        )
    _check_mission_sizes(view, len(options.missions), path)


def _check_mission_sizes(view: pb.CrabBucketView, missions: int, path: str) -> None:
    if len(view.mission_pile_sizes) != len(LEVELS):
        raise bad_request(f"{path}.mission_pile_sizes", "one size per level (3)")
    for level, size in enumerate(view.mission_pile_sizes):
        if not 0 <= size <= missions:
            raise bad_request(f"{path}.mission_pile_sizes[{level}]", f"must be 0 to {missions}")
    for name in ("completed", "discarded_missions"):
        if len(getattr(view, name)) > missions:
            raise bad_request(f"{path}.{name}", f"there are {missions} missions")
    if len(view.offered_missions) > 2:
        raise bad_request(f"{path}.offered_missions", "at most 2 missions are offered")
    if len(view.pending) > MAX_PENDING:
        raise bad_request(f"{path}.pending", f"at most {MAX_PENDING} pending decisions")


def _piles_from_view(
    view: pb.CrabBucketView, state: CrabBucketState, seen: list[int], path: str
) -> None:
    """Every pile exactly as the view shows it (B2: its cards are public), checked against its
    top, height and Oxi! count (`check_view_sizes` has bounded each to the pile's height)."""
    for p, pile in enumerate(view.piles):
        where = f"{path}.piles[{p}]"
        top = decode_card(pile.top, f"{where}.top", bad_request) if pile.HasField("top") else EMPTY
        if (top == EMPTY) != (pile.height == 0) or pile.height < 0:
            raise bad_request(f"{where}.height", "a pile has a top card exactly when not empty")
        stack = [
            decode_card(c, f"{where}.cards[{i}]", bad_request) for i, c in enumerate(pile.cards)
        ]
        if stack and stack[-1] != top:
            raise bad_request(f"{where}.top", "must be the last of the pile's cards (B2)")
        if stack.count(OXI) != pile.oxi_count:
            raise bad_request(
                f"{where}.oxi_count", "must count the Oxi! cards among the pile's cards"
            )
        for card in stack:
            seen[card] += 1
        state.piles[p] = tuple(stack)


def _unseen(seen: list[int], num_players: int, path: str) -> list[int]:
    for card in range(CRAB_CARDS):
        if seen[card] > 1:
            raise bad_request(path, f"card id {card} is seen in {seen[card]} places")
    if seen[OXI] > num_players:
        raise bad_request(path, f"{seen[OXI]} Oxi! cards seen; there are {num_players}")
    return [c for c in range(CRAB_CARDS) if not seen[c]] + [OXI] * (num_players - seen[OXI])


def _missions_from_view(view: pb.CrabBucketView, state: CrabBucketState, path: str) -> None:
    missions = state.options.missions
    for ids in (view.completed, view.discarded_missions, view.offered_missions):
        if any(not 0 <= (m if isinstance(m, int) else m.mission) < len(missions) for m in ids):
            raise bad_request(path, "a mission id is out of range")
    state.completed = [c.mission for c in view.completed]
    state.spent = [c.ability_used for c in view.completed]
    state.discarded_missions = list(view.discarded_missions)
    state.offered = list(view.offered_missions)
    state.current = view.current_mission if view.HasField("current_mission") else NO_MISSION
    seen = {*state.completed, *state.discarded_missions, *state.offered, state.current}
    for level in LEVELS:
        rest = [i for i, m in enumerate(missions) if m.level == level and i not in seen]
        state.mission_piles[level - 1] = tuple(rest)
        sizes = list(view.mission_pile_sizes)
        if len(sizes) != len(LEVELS) or sizes[level - 1] != len(rest):
            raise bad_request(f"{path}.mission_pile_sizes", "does not match the missions seen")


def _turn_from_view(view: pb.CrabBucketView, state: CrabBucketState) -> None:
    state.step = view.step
    state.turn_player = view.turn_player
    state.dealt = rules.deal_size(state.num_players)
    if view.step == DEAL:
        state.dealt = sum(p.height for p in view.piles) + sum(view.hand_sizes)
    state.ability_used = view.ability_used
    state.plays_left = view.plays_left
    state.played = view.played
    state.draws_over = view.draws_over
    state.passes = view.passes
    state.pending = [(p.kind, p.level) for p in view.pending]
    state.end_reason = view.end_reason
