"""`resample_hidden` and `state_from_view`: drawing hidden information at random (for views that
leak nothing, and bots). What a player cannot see is the other hands and the draw pile (B2).
Every pile's whole contents are public (each card on a pile was dealt or played face up, B2):
piles are never redrawn."""

from __future__ import annotations

import random
from typing import Final

from crabgames.core.errors import InvalidArgument, bad_request
from crabgames.games.crab_bucket import codec, consistency, rules, turn
from crabgames.games.crab_bucket.codec import (
    decode_card,
    decode_cards,
    decode_options,
    outside,
    read_seen,
    refuse,
)
from crabgames.games.crab_bucket.data import (
    CARD_KINDS,
    CRAB_CARDS,
    LEVELS,
    OXI,
    deck_size,
)
from crabgames.games.crab_bucket.messages import STATE
from crabgames.games.crab_bucket.state import DEAL, EMPTY, CrabBucketState
from crabgames.v1 import crab_bucket_pb2 as pb

RESAMPLE_TRIES: Final = 100
PATH: Final = "view.crab_bucket"  # the path of every field a view is refused for


def resample_hidden(
    state: CrabBucketState, player: int | None, rng: random.Random
) -> CrabBucketState:
    """Hidden from `player`: the other hands and the draw pile (B2), pooled and dealt back into
    the same places at random. Every pile stays exactly as it is: each of its cards was dealt or
    played face up (B2). A redraw that would leave the turn player without the decision their
    view shows is drawn again (the view shows who decides, G3)."""
    others = [q for q in range(state.num_players) if q != player]
    for _ in range(RESAMPLE_TRIES):
        new = state.clone()
        pool = [card for card, n in enumerate(new.draw_pile) for _ in range(n)]
        pool += [card for q in others for card in new.hands[q]]
        _deal_pool(new, pool, others, rng)
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
            return codec.decode_state(msg, num_players, PATH)
        except InvalidArgument as error:
            if error.violations[0].field != PATH:
                raise InvalidArgument("MALFORMED_REQUEST", error.violations) from None
    raise bad_request(PATH, "no hidden cards fit this view")


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
    """A native state matching `player`'s view; hidden cards drawn at random. The view is checked
    by the laws a state's places keep (consistency.py) where it states the same, before anything is
    built from its counts; the caller checks the state drawn (decode_state) and draws again if
    the turn player's decision does not match."""
    options = decode_options(view.options, num_players, f"{PATH}.options", bad_request)
    _check_counts(view, player, num_players)
    state = rules.new_state(num_players, options)
    own = tuple(decode_cards(view.hand, f"{PATH}.hand", bad_request))
    state.piles = [_pile_from_view(pile, f"{PATH}.piles[{p}]") for p, pile in enumerate(view.piles)]
    read_seen(view, state, PATH, bad_request)
    state.dealt = rules.deal_size(num_players)
    if view.step == DEAL:
        state.dealt = sum(p.height for p in view.piles) + sum(view.hand_sizes)
    state.hands = [own if seat == player else () for seat in range(num_players)]
    state.draw_pile = [0] * CARD_KINDS
    seen = consistency.card_counts(state)
    # Every card not seen is in another hand or the draw pile: with those, each card is in one
    # place (B1), so the view shows no card twice and no Oxi! card too many.
    unseen = [int(not n) for n in seen[:CRAB_CARDS]] + [max(num_players - seen[OXI], 0)]
    counts = [n + more for n, more in zip(seen, unseen, strict=True)]
    refuse(consistency.cards_conserved(counts, num_players), PATH, bad_request)
    hidden = enumerate(view.hand_sizes)  # the others' hands, of the sizes shown, dealt below
    state.hands = [own if seat == player else (EMPTY,) * size for seat, size in hidden]
    _missions_from_view(view, state)
    pool = [card for card, n in enumerate(unseen) for _ in range(n)]
    _deal_pool(state, pool, [q for q in range(num_players) if q != player], rng)
    return state


def _view_field(where: str) -> str:
    """The view's field showing the size of the state's field `where` (consistency.places_hold)."""
    if where.startswith("hands"):
        return where.replace("hands", "hand_sizes").removesuffix(".cards")
    return "draw_pile_size" if where == "draw_pile" else where.replace(".cards", ".height")


def _check_counts(view: pb.CrabBucketView, player: int, num_players: int) -> None:
    """Every count and length the sampler builds from, against what the game holds (B1, B2),
    before anything is built: a view is the caller's, and a pile height of 10^7 would otherwise
    be a list of 10^7 cards. The cards counted everywhere must be the whole deck."""
    sizes = consistency.places_hold(
        num_players,
        [pile.height for pile in view.piles],
        list(view.hand_sizes),
        draw_pile=view.draw_pile_size,
        removed=len(view.removed),
        oxi_set_aside=view.oxi_set_aside,
        oxi_discarded=view.oxi_discarded,
    )
    refuse(((_view_field(where), problem) for where, problem in sizes), PATH, bad_request)
    for p, pile in enumerate(view.piles):  # its Oxi! count is checked on its cards
        if len(pile.cards) != pile.height:
            raise bad_request(f"{PATH}.piles[{p}].cards", "must be the pile's height cards (B2)")
    counted = (
        sum(pile.height for pile in view.piles)
        + sum(view.hand_sizes)
        + view.draw_pile_size
        + len(view.removed)
        + view.oxi_set_aside
        + view.oxi_discarded
    )
    deck = deck_size(num_players)
    if counted != deck:
        raise bad_request(
            PATH, f"{counted} cards in piles, hands and elsewhere; the game has {deck}"
        )
    if len(view.hand) != view.hand_sizes[player]:
        raise bad_request(f"{PATH}.hand", "does not match the viewer's hand size")


def _pile_from_view(pile: pb.CrabBucketPileView, where: str) -> tuple[int, ...]:
    """A pile exactly as the view shows it (B2: its cards are public), checked against its top,
    height and Oxi! count (`_check_counts` has bounded each to the pile's height)."""
    top = decode_card(pile.top, f"{where}.top", bad_request) if pile.HasField("top") else EMPTY
    if (top == EMPTY) != (pile.height == 0):
        raise bad_request(f"{where}.height", "a pile has a top card exactly when not empty")
    stack = tuple(decode_cards(pile.cards, f"{where}.cards", bad_request))
    if stack and stack[-1] != top:
        raise bad_request(f"{where}.top", "must be the last of the pile's cards (B2)")
    if stack.count(OXI) != pile.oxi_count:
        raise bad_request(f"{where}.oxi_count", "must count the Oxi! cards among the pile's cards")
    return stack


def _missions_from_view(view: pb.CrabBucketView, state: CrabBucketState) -> None:
    """The missions the view shows where it shows them, the others in their level's pile; each
    in one place (consistency.missions_placed_once), the piles of the sizes the view shows."""
    missions = state.options.missions
    seen = {*state.completed, *state.discarded_missions, *state.offered, state.current}
    state.mission_piles = [
        tuple(i for i, m in enumerate(missions) if m.level == level and i not in seen)
        for level in LEVELS
    ]
    sizes = list(view.mission_pile_sizes)
    most = range(len(missions) + 1)
    in_range = outside({f"mission_pile_sizes[{i}]": (n, most) for i, n in enumerate(sizes)})
    refuse(in_range, PATH, bad_request)
    refuse(consistency.missions_placed_once(state), PATH, bad_request)
    if sizes != [len(pile) for pile in state.mission_piles]:
        raise bad_request(f"{PATH}.mission_pile_sizes", "does not match the missions seen")
