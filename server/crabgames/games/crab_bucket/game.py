"""Crab Bucket plugged into the engine: facts, rule hooks and the protobuf codec."""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Sequence
from typing import Any

from crabgames.core.errors import InvalidArgument, bad_move, bad_request
from crabgames.core.game import Decision, Game, GameFacts, OptionInfo, Violation
from crabgames.games.crab_bucket import abilities, codec, data, rules
from crabgames.games.crab_bucket.codec import (
    CARD_IDS,
    CARD_MSGS,
    decode_card,
    decode_options_msg,
    decode_state,
    options_msg,
)
from crabgames.games.crab_bucket.data import (
    ABILITY_NAMES,
    CIRCLE,
    HAND_SIZE,
    LEVELS,
    MAX_PLAYERS,
    OXI,
    card_name,
)
from crabgames.games.crab_bucket.explain import explain
from crabgames.games.crab_bucket.move_ids import MOVE_ID_COUNT, move_id
from crabgames.games.crab_bucket.rules import (
    GAME_OVER,
    LEVELED_PENDING,
    PLAY_CARD,
    WILD_CRAB,
    ChooseMissionPile,
    CrabBucketState,
    KeepMission,
    Move,
    Options,
    Pass,
    PlayCard,
    UseAbility,
)
from crabgames.games.crab_bucket.sampling import redraw_hidden, state_from_view
from crabgames.v1 import crab_bucket_pb2 as pb
from crabgames.v1 import game_pb2

RULES_VERSION = "crab_bucket/1"
RESAMPLE_TRIES = 100

# Every decision (G3) built once (the engine asks who decides several times a call), by what
# decides it: the step, or the pending decision on top of the stack; then by the turn player's
# seat (a chance decision is the same at every seat).
GAME_OVER_DECISION = Decision.game_over()


def deciders(names: dict[int, str], chance: tuple[int, ...]) -> dict[int, tuple[Decision, ...]]:
    return {
        key: (Decision.chance(name),) * MAX_PLAYERS
        if key in chance
        else tuple(Decision.player_decides(seat, name) for seat in range(MAX_PLAYERS))
        for key, name in names.items()
    }


STEP_DECIDERS = deciders(rules.STEP_DECISIONS, rules.CHANCE_STEPS)
PENDING_DECIDERS = deciders(rules.PENDING_DECISIONS, rules.CHANCE_PENDING)


class CrabBucketGame(Game[CrabBucketState, Move, Any, Any]):
    facts = GameFacts(
        id="crab_bucket",
        title="Crab Bucket",
        min_players=2,
        max_players=MAX_PLAYERS,
        rules_version=RULES_VERSION,
        former_rules_versions=("crab_bucket-1",),
        has_chance=True,
        has_hidden_information=True,
        has_simultaneous_choices=False,
        modes=("quick", "wild_crab"),
        options=(
            OptionInfo(
                "mode",
                "Quick (levels 1, 2, 3 in order; completing level 3 wins) or Wild Crab (as many"
                " missions as possible, scored by level)",
                "CRAB_BUCKET_MODE_QUICK",
                allowed_values=("CRAB_BUCKET_MODE_QUICK", "CRAB_BUCKET_MODE_WILD_CRAB"),
            ),
            OptionInfo(
                "first_player",
                "The seat that starts (a seat of the game: 0 to the number of players - 1)",
                "0",
                minimum=0,
                maximum=MAX_PLAYERS - 1,
                seat=True,
            ),
            OptionInfo(
                "missions",
                "The mission cards (B3, B4); empty: the default deck of 18. Quick mode needs a"
                " mission of each level",
                "",
                min_items=1,
                max_items=codec.MAX_MISSIONS,
            ),
            OptionInfo(
                "first_mission_level",
                "Wild Crab: the level of the pile the first mission is drawn from (Quick mode: 1)",
                "1",
                minimum=1,
                maximum=3,
            ),
        ),
    )

    # ----- rules -----

    def decode_options(self, options: Any, num_players: int, path: str) -> Options:
        return decode_options_msg(options, num_players, path, bad_request)

    def initial_state(self, num_players: int, options: Options) -> CrabBucketState:
        return rules.new_state(num_players, options)

    def next_decision(self, state: CrabBucketState) -> Decision:
        if state.step == GAME_OVER:
            return GAME_OVER_DECISION
        if state.pending:
            return PENDING_DECIDERS[state.pending[-1][0]][state.turn_player]
        return STEP_DECIDERS[state.step][state.turn_player]

    # The rules' own functions, bound without a wrapper: the engine calls them on every move.
    legal_moves = staticmethod(rules.legal_moves)
    is_legal = staticmethod(rules.is_legal)
    apply_move = staticmethod(rules.apply_move)
    chance_outcomes = staticmethod(rules.chance_outcomes)
    apply_chance = staticmethod(rules.apply_chance)
    outcome = staticmethod(rules.outcome)
    clone = staticmethod(CrabBucketState.clone)

    def explain_illegal(self, state: CrabBucketState, move: Move) -> Violation:
        return explain(state, move)

    def invariant_violations(self, state: CrabBucketState) -> list[str]:
        return rules.invariant_violations(state)

    def resample_hidden(
        self, state: CrabBucketState, player: int | None, rng: random.Random
    ) -> CrabBucketState:
        """Hidden from `player`: the other hands and the draw pile (B2). Every pile stays exactly
        as it is: each of its cards was dealt or played face up (B2). A redraw that would leave
        the turn player without the decision their view shows is drawn again (the view shows who
        decides, G3)."""
        for _ in range(RESAMPLE_TRIES):
            new = redraw_hidden(state, player, rng)
            if rules.waits_for_decision(new):
                return new
        return state.clone()  # the real state is always consistent with the view

    # ----- for learning agents and bots -----

    def move_id_count(self, num_players: int) -> int:
        return MOVE_ID_COUNT

    def move_id(self, state: CrabBucketState, move: Move) -> int:
        return move_id(state, move)

    def state_from_view(
        self, view: pb.CrabBucketView, player: int, num_players: int, rng: random.Random
    ) -> CrabBucketState:
        """Hidden cards drawn at random until the turn player's decision matches the view."""
        for _ in range(RESAMPLE_TRIES):
            state = state_from_view(view, player, num_players, rng)
            msg = pb.CrabBucketState.FromString(self.encode_state_bytes(state))
            try:
                return decode_state(msg, num_players, "view.crab_bucket")
            except InvalidArgument as error:
                if error.violations[0].field != "view.crab_bucket":
                    raise InvalidArgument("MALFORMED_REQUEST", error.violations) from None
        raise bad_request("view.crab_bucket", "no hidden cards fit this view")

    # ----- codec -----

    def decode_state(self, msg: pb.CrabBucketState, num_players: int, path: str):
        return decode_state(msg, num_players, path)

    encode_state_bytes = staticmethod(codec.encode_state_bytes)  # bound: runs on every call

    def decode_move(self, msg: pb.CrabBucketMove, path: str) -> Move:
        which = msg.WhichOneof("move")
        if which is None:
            raise bad_move(path, "set one of play_card, pass, use_ability, ...")
        if which == "play_card":  # most moves: decoded here, without a further call
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

    def encode_move(self, move: Move, msg: pb.CrabBucketMove) -> None:
        if isinstance(move, PlayCard):
            msg.play_card.card.CopyFrom(CARD_MSGS[move.card])
            msg.play_card.pile = move.pile
        elif isinstance(move, Pass):
            getattr(msg, "pass").SetInParent()
        elif isinstance(move, UseAbility):
            msg.use_ability.mission = move.mission
            msg.use_ability.piles.extend(move.piles)
            msg.use_ability.SetInParent()
            if move.card >= 0:
                msg.use_ability.card.CopyFrom(CARD_MSGS[move.card])
            if move.source >= 0:
                msg.use_ability.oxi_from_pile = move.source
        elif isinstance(move, ChooseMissionPile):
            msg.choose_mission_pile.level = move.level
            msg.choose_mission_pile.SetInParent()
        else:
            msg.keep_mission.mission = move.mission
            msg.keep_mission.SetInParent()

    def move_cache_key(self, state: CrabBucketState, move: Move) -> Hashable:
        """What a move's label and id read besides the move: the mode for a card play (Oxi!), the
        mission's ability for a use; a kept mission's name and offer slot take the full key. A
        card play is keyed by ints (hashed in C, unlike the frozen move itself)."""
        if isinstance(move, PlayCard):
            return move.card, move.pile, state.options.wild
        if isinstance(move, UseAbility):
            return move, state.options.missions[move.mission].ability
        if isinstance(move, KeepMission):
            return move, self.move_label(state, move), self.move_id(state, move)
        return move

    def move_cache_keys(self, state: CrabBucketState, moves: Sequence[Move]) -> list[Hashable]:
        # The card plays' keys built in the list itself: most legal moves are card plays.
        wild, key = state.options.wild, self.move_cache_key
        return [
            (move.card, move.pile, wild) if type(move) is PlayCard else key(state, move)
            for move in moves
        ]

    def move_label(self, state: CrabBucketState, move: Move) -> str:
        """Each label says what the move does, with the numbers its fields carry (piles 0..7,
        missions by index and name): no two legal moves of one decision share one."""
        missions = state.options.missions
        if isinstance(move, PlayCard):
            if move.card == OXI and state.options.wild:
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

    def chance_label(self, state: CrabBucketState, value: int) -> str:
        """What the outcome does: where the card goes (and to whom), which mission is drawn."""
        if state.pending and state.pending[-1][0] in LEVELED_PENDING:
            kind, level = state.pending[-1]
            where = "into the offer" if kind == rules.OFFER_DRAW else "as the current mission"
            name = state.options.missions[value].name
            return f"mission {value} ({name}) drawn from the level {level} pile {where}"
        if state.step == rules.DEAL and state.dealt < CIRCLE:
            return f"{card_name(value)} dealt to pile {state.dealt}"
        receiver = rules.card_receiver(state)
        verb = "is dealt" if state.step == rules.DEAL else "draws"
        return f"player {receiver} {verb} {card_name(value)}"

    encode_event = staticmethod(codec.encode_event)

    # Written directly, cheaper than building the message to serialize it (tests compare them).
    # The codec's function itself, as these run for every event of every call.
    encode_event_bytes = staticmethod(codec.encode_event_bytes)

    def chance_hidden_from(self, state: CrabBucketState) -> list[int]:
        # A card dealt or drawn into a hand: everyone but its holder (G5, B2).
        return rules.chance_hidden_from(state)

    def decision_hidden_from(self, state: CrabBucketState) -> list[int]:
        # No Crab Bucket decision is secret: every card a player chooses from the hand lands
        # face up on a pile, and missions and mission piles are face up (rules notes).
        return []

    # Who sees what of an event (G5, B2): the public event itself for most.
    redact_event = staticmethod(rules.seen_by)

    def encode_view(self, state: CrabBucketState, player: int | None, msg: pb.CrabBucketView):
        options_msg(state.options, msg.options)
        for stack in state.piles:  # every card of every pile, for every viewer (B2)
            pile = msg.piles.add(height=len(stack), oxi_count=stack.count(OXI))
            if stack:
                pile.top.CopyFrom(CARD_MSGS[stack[-1]])
                pile.cards.extend([CARD_MSGS[c] for c in stack])
        if player is not None:
            msg.hand.extend([CARD_MSGS[c] for c in state.hands[player]])
        msg.hand_sizes.extend(len(h) for h in state.hands)
        msg.draw_pile_size = rules.draw_total(state)
        msg.removed.extend([CARD_MSGS[c] for c in state.removed])
        msg.mission_pile_sizes.extend(len(p) for p in state.mission_piles)
        msg.points = rules.points(state)
        codec.encode_public(state, msg)
        decision_msg(state, msg.decision)

    def encode_outcome(self, outcome: rules.Outcome, msg: game_pb2.Outcome) -> None:
        num_players = outcome.num_players
        team_wins = outcome.won or outcome.mode == WILD_CRAB
        for seat in range(num_players):
            msg.players.add(player=seat, score=outcome.points, rank=1, winner=team_wins)
        if team_wins:
            msg.winners.extend(range(num_players))
        detail = msg.crab_bucket
        detail.mode = outcome.mode
        detail.won = outcome.won
        detail.points = outcome.points
        detail.title = outcome.title
        detail.note = outcome.note
        detail.completed_missions.extend(outcome.completed)
        detail.end_reason = outcome.end_reason
        if outcome.mode == WILD_CRAB:
            title = outcome.title or "no title (B8)"
            msg.summary = f"Wild Crab: the team wins with {outcome.points} points, {title}"
        else:
            result = "the team wins" if outcome.won else "the team loses"
            msg.summary = f"Quick mode: {result} ({len(outcome.completed)} missions completed)"


# What a use of each ability adds to its label: every choice it carries.
def _piles(piles: tuple[int, ...]) -> str:
    return ("piles " if len(piles) > 1 else "pile ") + ", ".join(map(str, piles))


def _rescue_oxi_detail(move: UseAbility) -> str:
    if move.source < 0:  # Wild Crab: from the discard
        return f": a discarded Oxi! to cut pile {move.piles[0]}"
    return f": the Oxi! from pile {move.source} onto pile {move.piles[0]}"


ABILITY_DETAILS: dict[int, Callable[[UseAbility], str]] = {
    data.RESCUE_TOPS: lambda m: f": the tops of {_piles(m.piles)}",
    data.SWAP_TOPS: lambda m: f": the tops of piles {m.piles[0]} and {m.piles[1]}",
    data.RESCUE_OXI: _rescue_oxi_detail,
    data.PLAY_FREELY: lambda m: f": {card_name(m.card)} on pile {m.piles[0]}",
    data.SWAP_HAND_TOP: lambda m: f": {card_name(m.card)} for the top of pile {m.piles[0]}",
    data.DRAW_ONE_PLAY_TWO: lambda m: "",
    data.DISCARD_PILE: lambda m: f": pile {m.piles[0]}",
    data.DISCARD_ALL_TOPS: lambda m: "",
    data.NEW_MISSION: lambda m: "",
}

DECISION_KINDS = {
    "deal": pb.CRAB_BUCKET_DECISION_KIND_DEAL,
    "play": pb.CRAB_BUCKET_DECISION_KIND_PLAY,
    "draw_card": pb.CRAB_BUCKET_DECISION_KIND_DRAW_CARD,
    "draw_mission": pb.CRAB_BUCKET_DECISION_KIND_DRAW_MISSION,
    "choose_mission_pile": pb.CRAB_BUCKET_DECISION_KIND_CHOOSE_MISSION_PILE,
    "draw_offer": pb.CRAB_BUCKET_DECISION_KIND_DRAW_OFFER,
    "choose_offer_pile": pb.CRAB_BUCKET_DECISION_KIND_CHOOSE_OFFER_PILE,
    "keep_mission": pb.CRAB_BUCKET_DECISION_KIND_KEEP_MISSION,
    "game_over": pb.CRAB_BUCKET_DECISION_KIND_GAME_OVER,
}


def decision_msg(state: CrabBucketState, msg: pb.CrabBucketDecision) -> None:
    """The current decision and what it is about, from public facts only (every view shows the
    same): who decides or receives the card, which pile or level, which choices."""
    name = rules.decision_name(state)
    msg.kind = DECISION_KINDS[name]
    if name == "game_over":
        return
    if name == "deal":
        if state.dealt < CIRCLE:
            msg.pile = state.dealt
        else:
            msg.player = (state.dealt - CIRCLE) // HAND_SIZE
        return
    if name in ("draw_mission", "draw_offer"):
        msg.level = state.pending[-1][1]
        return
    msg.player = state.turn_player
    if name == "draw_card":
        msg.extra = bool(state.pending)  # the extra draw is a pending decision; a refill is not
    elif name == "play":
        msg.plays_left = state.plays_left
        msg.may_use_ability = bool(
            abilities.ready_missions(state) and not state.ability_used and not state.played
        )
    elif name == "keep_mission":
        msg.missions.extend(state.offered)
    else:  # choosing a mission pile: the levels whose piles are not empty (B5)
        msg.levels.extend(level for level in LEVELS if state.mission_piles[level - 1])
