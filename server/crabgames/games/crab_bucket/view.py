"""The current decision as a seat's view shows it (G3): what it is and what it is about, from
public facts only. The rest of the view (B2, G5) is written by the readable codec
(`codec.encode_view`), beside the state whose open fields it shares."""

from __future__ import annotations

from crabgames.games.crab_bucket import abilities, rules
from crabgames.games.crab_bucket.data import CIRCLE, HAND_SIZE, LEVELS
from crabgames.games.crab_bucket.state import CrabBucketState
from crabgames.v1 import crab_bucket_pb2 as pb

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
        msg.may_use_ability = rules.may_use_ability(state) and bool(abilities.ready_missions(state))
    elif name == "keep_mission":
        msg.missions.extend(state.offered)
    else:  # choosing a mission pile: the levels whose piles are not empty (B5)
        msg.levels.extend(level for level in LEVELS if state.mission_piles[level - 1])
