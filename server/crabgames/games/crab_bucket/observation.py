"""A seat's observation tensor (docs/agents.md, "Crab Bucket"), from its view message alone.

Everything a player sees: the circle's piles (the top, the card under it, height and Oxi! count
of each), their own hand, the cards they have not seen anywhere, the counts of the other hands
and the draw pile, the current and offered missions' requirements, the abilities ready, where
the turn stands and what the decision is about. Per-seat features count seats from the viewer.
"""

from __future__ import annotations

from typing import Final

from crabgames.core.observation import Feature, Layout, Writer, put_to_decide, seat_slot
from crabgames.games.crab_bucket.abilities import DRAW_ONE_PLAYS
from crabgames.games.crab_bucket.data import (
    ABILITIES,
    CARD_KINDS,
    CIRCLE,
    COLORS,
    CRAB_CARDS,
    DEFAULT_MISSIONS,
    LEVELS,
    MAX_BETWEEN,
    MAX_HAND,
    MAX_PENDING,
    MAX_PLAYERS,
    OXI,
    card_id,
    deck_size,
)
from crabgames.games.crab_bucket.strategy import MAX_TEAM_POINTS
from crabgames.v1 import crab_bucket_pb2 as pb
from crabgames.v1 import game_pb2

# The largest counts, for scaling to [0, 1].
MAX_CARDS: Final = deck_size(MAX_PLAYERS)  # every card of the largest game: 32 crab cards, 5 Oxi!
MAX_OXI: Final = MAX_PLAYERS  # one Oxi! card per player (B1)
# Counts that depend on the mission deck (an option) are scaled by the default deck's and
# clipped to 1: 6 missions per level, each ability on 2 cards, 36 points in all (the search's
# MAX_TEAM_POINTS). Plays by the most a turn owes, after "Draw 1 card and play 2".
MISSIONS_PER_LEVEL: Final = len(DEFAULT_MISSIONS) // len(LEVELS)
CARDS_PER_ABILITY: Final = len(DEFAULT_MISSIONS) // len(ABILITIES)

PLAYER_COUNTS: Final = tuple(range(2, MAX_PLAYERS + 1))
STEPS: Final = len(pb.CrabBucketStep.values()) - 1  # DEAL .. GAME_OVER
DECISION_KINDS: Final = len(pb.CrabBucketDecisionKind.values()) - 1  # DEAL .. GAME_OVER
PENDING_KINDS: Final = len(pb.CrabBucketPendingKind.values()) - 1
END_REASONS: Final = len(pb.CrabBucketEndReason.values()) - 1
GAPS: Final = len(COLORS) * (MAX_BETWEEN + 1)  # colour x piles between (0..6)
PAIRS: Final = len(COLORS) * len(COLORS)
# One mission's entries: level, ability, gaps, "X" pairs, "Chain" pairs (offsets below).
MISSION: Final = len(LEVELS) + len(ABILITIES) + GAPS + 2 * PAIRS
ABILITY_AT: Final = len(LEVELS)
GAP_AT: Final = ABILITY_AT + len(ABILITIES)
NOT_ADJACENT_AT: Final = GAP_AT + GAPS
ADJACENT_AT: Final = NOT_ADJACENT_AT + PAIRS
OFFERED: Final = 2  # "Draw 2 choose 1"
ABILITY_INDEX: Final = {ability: index for index, ability in enumerate(ABILITIES)}

LAYOUT: Final = Layout(
    [
        Feature("pile_tops", CIRCLE * CARD_KINDS, "pile p's top is card k: entry p*33+k is 1"),
        Feature("pile_unders", CIRCLE * CARD_KINDS, "pile p's card under the top is k: p*33+k"),
        Feature("pile_heights", CIRCLE, "cards in each pile / 37"),
        Feature("pile_oxi", CIRCLE, "Oxi! cards anywhere in each pile / 5"),
        Feature("hand", CARD_KINDS, "the viewer's cards: crab card k 0 or 1, Oxi! (k=32) / 4"),
        Feature(
            "unseen",
            CARD_KINDS,
            "cards seen nowhere (draw pile, other hands): crab 0 or 1, Oxi! / 5",
        ),
        Feature("hand_sizes", MAX_PLAYERS, "cards in each slot's hand / 4"),
        Feature("draw_pile_size", 1, "cards in the draw pile / 37"),
        Feature("oxi_set_aside", 1, "Oxi! cards set aside during the deal / 5"),
        Feature("oxi_discarded", 1, "Oxi! cards discarded (Wild Crab) / 5"),
        Feature("removed", CARD_KINDS, "cards removed from the game: crab card 0 or 1, Oxi! / 5"),
        Feature("current_mission", MISSION, "the current mission (mission encoding, see below)"),
        Feature("offered_missions", OFFERED * MISSION, "the offered missions, in order"),
        Feature("abilities_ready", len(ABILITIES), "completed missions with ability a ready / 2"),
        Feature("completed", len(LEVELS), "completed missions of each level / 6, clipped"),
        Feature("mission_piles", len(LEVELS), "missions in the level 1, 2, 3 piles / 6, clipped"),
        Feature("points", 1, "the team's points / 36, clipped"),
        Feature("step", STEPS, "one-hot: deal, play, refill, game over"),
        Feature("decision", DECISION_KINDS, "one-hot CrabBucketDecisionKind - 1"),
        Feature("decider", MAX_PLAYERS, "one-hot slot deciding, or receiving the card dealt"),
        Feature("deal_pile", CIRCLE, "one-hot pile the next card is dealt onto"),
        Feature("decision_level", len(LEVELS), "one-hot level of the mission pile drawn from"),
        Feature("choosable_levels", len(LEVELS), "1 for each level whose pile may be chosen"),
        Feature("plays_left", 1, "main-action plays still owed this turn / 2"),
        Feature("may_use_ability", 1, "1 when an ability may still be used this turn"),
        Feature("extra_draw", 1, "1 when the card drawn is the extra card of Draw 1 play 2"),
        Feature("turn_player", MAX_PLAYERS, "one-hot slot whose turn it is"),
        Feature("to_decide", 1, "1 when the viewer must decide now"),
        Feature("ability_used", 1, "1 when an ability was used this turn"),
        Feature("played", 1, "main-action plays made this turn / 2"),
        Feature("draws_over", 1, "1 once the draw pile ran out (B7)"),
        Feature("passes", 1, "consecutive turns that were passes / 5, clipped (B7)"),
        Feature("talking_allowed", 1, "1 when the players may talk (B9)"),
        Feature("pending", PENDING_KINDS, "interrupting decisions of each kind / 4"),
        Feature("mode", 2, "one-hot: Quick, Wild Crab"),
        Feature("players", len(PLAYER_COUNTS), "one-hot number of players: 2, 3, 4, 5"),
        Feature("end_reason", END_REASONS, "one-hot: level 3 completed, cards ran out, stalled"),
        Feature("won", 1, "1 once the team has won"),
    ]
)


def card_index(card: pb.CrabBucketCard) -> int:
    """The card's id (data.card_id; the message's colours count from 1), Oxi! 32."""
    if card.oxi:
        return OXI
    return card_id(card.color - 1, card.number)


def observe(view: game_pb2.View, writer: Writer) -> None:
    """Fill the viewer's tensor from their view (docs/agents.md)."""
    part = view.crab_bucket
    write_piles(part, writer)
    write_cards(view, part, writer)
    write_missions(part, writer)
    write_turn(view, part, writer)
    write_decision(view, part.decision, writer)
    write_outcome(view, writer)


def write_piles(part: pb.CrabBucketView, writer: Writer) -> None:
    for pile, shown in enumerate(part.piles):
        cards = shown.cards  # looked up in the message once, not at each use
        if cards:
            writer.put("pile_tops", pile * CARD_KINDS + card_index(cards[-1]))
        if len(cards) > 1:
            writer.put("pile_unders", pile * CARD_KINDS + card_index(cards[-2]))
        writer.put("pile_heights", pile, shown.height / MAX_CARDS)
        writer.put("pile_oxi", pile, shown.oxi_count / MAX_OXI)


def write_cards(view: game_pb2.View, part: pb.CrabBucketView, writer: Writer) -> None:
    for card in part.hand:
        writer.add("hand", card_index(card), 1 / MAX_HAND if card.oxi else 1.0)
    for card in part.removed:
        writer.add("removed", card_index(card), 1 / MAX_OXI if card.oxi else 1.0)
    for seat, size in enumerate(part.hand_sizes):
        writer.put("hand_sizes", slot(view, seat), size / MAX_HAND)
    writer.put("draw_pile_size", 0, part.draw_pile_size / MAX_CARDS)
    writer.put("oxi_set_aside", 0, part.oxi_set_aside / MAX_OXI)
    writer.put("oxi_discarded", 0, part.oxi_discarded / MAX_OXI)
    write_unseen(view, part, writer)


def write_unseen(view: game_pb2.View, part: pb.CrabBucketView, writer: Writer) -> None:
    """The cards the viewer cannot see: in the draw pile or another hand (a card is counted
    once wherever it lies, so the rest of the deck is what no part of the view shows)."""
    left = [1] * CRAB_CARDS + [view.num_players - part.oxi_set_aside - part.oxi_discarded]
    seen = [card for pile in part.piles for card in pile.cards]
    for card in (*seen, *part.hand, *part.removed):
        left[card_index(card)] -= 1
    writer.put_all("unseen", [max(count, 0) for count in left[:CRAB_CARDS]])
    writer.put("unseen", OXI, max(left[OXI], 0) / MAX_OXI)


def write_missions(part: pb.CrabBucketView, writer: Writer) -> None:
    missions = part.options.missions
    if part.HasField("current_mission"):
        write_mission(missions[part.current_mission], "current_mission", 0, writer)
    for place, index in enumerate(part.offered_missions[:OFFERED]):
        write_mission(missions[index], "offered_missions", place * MISSION, writer)
    ready = [0] * len(ABILITIES)
    done = [0] * len(LEVELS)
    for completed in part.completed:
        mission = missions[completed.mission]
        done[mission.level - 1] += 1
        if not completed.ability_used:
            ready[ABILITY_INDEX[mission.ability]] += 1
    writer.put_all("abilities_ready", [min(count / CARDS_PER_ABILITY, 1.0) for count in ready])
    writer.put_all("completed", [min(count / MISSIONS_PER_LEVEL, 1.0) for count in done])
    sizes = part.mission_pile_sizes
    writer.put_all("mission_piles", [min(size / MISSIONS_PER_LEVEL, 1.0) for size in sizes])
    writer.put("points", 0, min(part.points / MAX_TEAM_POINTS, 1.0))


def write_mission(mission: pb.CrabBucketMission, name: str, at: int, writer: Writer) -> None:
    """One mission: its level and ability one-hot, and its requirements (B3) as 1s: a gap at
    (colour, piles between), an "X" or a "Chain" at (first, second) and (second, first)."""
    writer.put(name, at + mission.level - 1)
    writer.put(name, at + ABILITY_AT + ABILITY_INDEX[mission.ability])
    for requirement in mission.requirements:
        kind = requirement.WhichOneof("requirement")
        if kind == "gap":
            gap = requirement.gap
            writer.put(name, at + GAP_AT + (gap.color - 1) * (MAX_BETWEEN + 1) + gap.between)
        else:
            pair = requirement.adjacent if kind == "adjacent" else requirement.not_adjacent
            start = at + (ADJACENT_AT if kind == "adjacent" else NOT_ADJACENT_AT)
            first, second = pair.first - 1, pair.second - 1
            writer.put(name, start + first * len(COLORS) + second)
            writer.put(name, start + second * len(COLORS) + first)


def write_turn(view: game_pb2.View, part: pb.CrabBucketView, writer: Writer) -> None:
    if part.step:
        writer.put("step", part.step - 1)
    if part.HasField("turn_player"):
        writer.put("turn_player", slot(view, part.turn_player))
    put_to_decide(view, writer)
    writer.put("ability_used", 0, 1.0 if part.ability_used else 0.0)
    writer.put("played", 0, min(part.played / DRAW_ONE_PLAYS, 1.0))
    writer.put("draws_over", 0, 1.0 if part.draws_over else 0.0)
    writer.put("passes", 0, min(part.passes / MAX_PLAYERS, 1.0))
    writer.put("talking_allowed", 0, 1.0 if part.talking_allowed else 0.0)
    for pending in part.pending:
        writer.add("pending", pending.kind - 1, 1 / MAX_PENDING)
    wild = part.options.mode == pb.CRAB_BUCKET_MODE_WILD_CRAB  # UNSPECIFIED is Quick
    writer.put("mode", 1 if wild else 0)
    writer.put("players", PLAYER_COUNTS.index(view.num_players))
    if part.end_reason:
        writer.put("end_reason", part.end_reason - 1)


def write_decision(view: game_pb2.View, decision: pb.CrabBucketDecision, writer: Writer) -> None:
    if decision.kind:
        writer.put("decision", decision.kind - 1)
    if decision.HasField("player"):
        writer.put("decider", slot(view, decision.player))
    if decision.HasField("pile"):
        writer.put("deal_pile", decision.pile)
    if decision.level:
        writer.put("decision_level", decision.level - 1)
    for level in decision.levels:
        writer.put("choosable_levels", level - 1)
    writer.put("plays_left", 0, min(decision.plays_left / DRAW_ONE_PLAYS, 1.0))
    writer.put("may_use_ability", 0, 1.0 if decision.may_use_ability else 0.0)
    writer.put("extra_draw", 0, 1.0 if decision.extra else 0.0)


def write_outcome(view: game_pb2.View, writer: Writer) -> None:
    won = view.HasField("outcome") and view.outcome.crab_bucket.won
    writer.put("won", 0, 1.0 if won else 0.0)


def slot(view: game_pb2.View, seat: int) -> int:
    return seat_slot(seat, view.player, view.num_players)
