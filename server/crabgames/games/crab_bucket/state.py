"""Crab Bucket's native state: the options of a game, and where every card and mission is.

A card is an int (data.py). The draw pile is a multiset (counts per card kind, G2): a draw is a
chance event over what is in it. Decisions that interrupt a turn (choosing the next mission pile,
"draw 2 choose 1", the extra draw) live on a small stack, `pending`, decided last-in first-out.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final, TypeAlias

from crabgames.games.crab_bucket.data import Mission
from crabgames.v1 import crab_bucket_pb2 as pb

# The modes, steps, pending decisions and ends below are the protocol's enums' values (generated
# from the proto, named once here), so the codec writes them as they are.
Mode: TypeAlias = pb.CrabBucketMode.ValueType
Step: TypeAlias = pb.CrabBucketStep.ValueType
PendingKind: TypeAlias = pb.CrabBucketPendingKind.ValueType
EndReason: TypeAlias = pb.CrabBucketEndReason.ValueType

# The rulebook's two game modes.
QUICK: Final = pb.CRAB_BUCKET_MODE_QUICK
WILD_CRAB: Final = pb.CRAB_BUCKET_MODE_WILD_CRAB
MODES: Final = (QUICK, WILD_CRAB)

# The steps of a game: the deal, a turn's main action, drawing back to 3, the end.
DEAL: Final = pb.CRAB_BUCKET_STEP_DEAL
PLAY: Final = pb.CRAB_BUCKET_STEP_PLAY
REFILL: Final = pb.CRAB_BUCKET_STEP_REFILL
GAME_OVER: Final = pb.CRAB_BUCKET_STEP_GAME_OVER
STEPS: Final = (DEAL, PLAY, REFILL, GAME_OVER)

# The decisions that interrupt a turn, on the `pending` stack as (kind, level).
DRAW_MISSION: Final = pb.CRAB_BUCKET_PENDING_KIND_DRAW_MISSION
CHOOSE_MISSION_PILE: Final = pb.CRAB_BUCKET_PENDING_KIND_CHOOSE_MISSION_PILE
EXTRA_DRAW: Final = pb.CRAB_BUCKET_PENDING_KIND_EXTRA_DRAW
OFFER_CHOOSE_PILE: Final = pb.CRAB_BUCKET_PENDING_KIND_OFFER_CHOOSE_PILE
OFFER_DRAW: Final = pb.CRAB_BUCKET_PENDING_KIND_OFFER_DRAW
KEEP_MISSION: Final = pb.CRAB_BUCKET_PENDING_KIND_KEEP_MISSION
PENDING_KINDS: Final = tuple(kind for kind in pb.CrabBucketPendingKind.values() if kind)
LEVELED_PENDING: Final = (DRAW_MISSION, OFFER_DRAW)  # the pending kinds that name a level's pile

# How a game ends (End of Game, B7).
NOT_ENDED: Final = pb.CRAB_BUCKET_END_REASON_UNSPECIFIED
LEVEL_3_COMPLETED: Final = pb.CRAB_BUCKET_END_REASON_LEVEL_3_COMPLETED
CARDS_RAN_OUT: Final = pb.CRAB_BUCKET_END_REASON_CARDS_RAN_OUT
STALLED: Final = pb.CRAB_BUCKET_END_REASON_STALLED
END_REASONS: Final = (LEVEL_3_COMPLETED, CARDS_RAN_OUT, STALLED)

EMPTY: Final = -1  # the "top" of an empty pile
NO_MISSION: Final = -1


@dataclass(frozen=True)
class Options:
    mode: Mode
    first_player: int
    missions: tuple[Mission, ...]
    first_mission_level: int
    # Read from the fields once, as the options never change (fields, not cached properties: a
    # class compiled by mypyc has no __dict__ to cache in): whether the mode is Wild Crab, and
    # the hash of the fields (the options are looked up by their value, and a deck is hundreds
    # of values). Their field in a state's bytes is written once and kept here, b"" until then
    # (messages.options_field): they never change.
    wild: bool = field(init=False, repr=False, compare=False)
    hashed: int = field(init=False, repr=False, compare=False)
    encoded: bytes = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # A frozen dataclass sets its own fields through object.__setattr__.
        object.__setattr__(self, "wild", self.mode == WILD_CRAB)
        fields = (self.mode, self.first_player, self.missions, self.first_mission_level)
        object.__setattr__(self, "hashed", hash(fields))
        object.__setattr__(self, "encoded", b"")

    def __hash__(self) -> int:
        return self.hashed


@dataclass(init=False)
class CrabBucketState:
    """The __init__ is written out (the state before the deal, rules.new_state) and a clone
    sets what differs: mypyc compiles both, but runs a dataclass's generated __init__
    interpreted (a clone is made on every call)."""

    options: Options
    num_players: int
    # The piles, hands and mission piles are tuples, replaced when they change and never
    # changed in place, so a clone shares them (copy-on-write): it copies only the lists.
    piles: list[tuple[int, ...]]  # 8 stacks, bottom first (B2)
    hands: list[tuple[int, ...]]  # sorted
    draw_pile: list[int]  # count per card kind (CARD_KINDS entries)
    oxi_set_aside: int
    oxi_discarded: int
    removed: list[int]  # sorted
    mission_piles: list[tuple[int, ...]]  # levels 1..3, sorted
    current: int
    completed: list[int]
    spent: list[bool]  # parallel to `completed`
    discarded_missions: list[int]
    offered: list[int]
    step: Step
    turn_player: int
    dealt: int
    ability_used: bool
    plays_left: int
    played: int
    draws_over: bool
    passes: int
    pending: list[tuple[PendingKind, int]]  # (kind, level)
    end_reason: EndReason

    def __init__(
        self,
        options: Options,
        num_players: int,
        piles: list[tuple[int, ...]],
        hands: list[tuple[int, ...]],
        draw_pile: list[int],
        oxi_set_aside: int,
        mission_piles: list[tuple[int, ...]],
        turn_player: int,
    ) -> None:
        self.options, self.num_players, self.piles, self.hands = options, num_players, piles, hands
        self.draw_pile, self.oxi_set_aside, self.oxi_discarded = draw_pile, oxi_set_aside, 0
        self.removed, self.mission_piles, self.current = [], mission_piles, NO_MISSION
        self.completed, self.spent, self.discarded_missions, self.offered = [], [], [], []
        self.step, self.turn_player, self.dealt, self.ability_used = DEAL, turn_player, 0, False
        self.plays_left, self.played, self.draws_over, self.passes = 1, 0, False, 0
        self.pending, self.end_reason = [], NOT_ENDED

    def clone(self) -> CrabBucketState:
        new = CrabBucketState(
            self.options,
            self.num_players,
            list(self.piles),
            list(self.hands),
            list(self.draw_pile),
            self.oxi_set_aside,
            list(self.mission_piles),
            self.turn_player,
        )
        new.oxi_discarded, new.removed = self.oxi_discarded, list(self.removed)
        new.current, new.completed, new.spent = self.current, list(self.completed), list(self.spent)
        new.discarded_missions, new.offered = list(self.discarded_missions), list(self.offered)
        new.step, new.dealt, new.ability_used = self.step, self.dealt, self.ability_used
        new.plays_left, new.played, new.draws_over = self.plays_left, self.played, self.draws_over
        new.passes, new.pending, new.end_reason = self.passes, list(self.pending), self.end_reason
        return new

    def __copy__(self) -> CrabBucketState:
        """Python's copy protocol, as the engine clones a state (a compiled class's methods
        are not its attributes, so `__copy__ = clone` would not do)."""
        return self.clone()
