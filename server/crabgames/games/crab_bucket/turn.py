"""How to Play, put together: the moves of the player who decides (B6: a ready ability's uses,
from abilities.py, before the main action), each move and chance outcome applied, and the steps
that run on their own until someone (or chance) must decide (drawing back to 3 cards, a turn with
no possible move, the next player, B7). The rules it applies are in rules.py and abilities.py;
neither imports this module.
"""

from __future__ import annotations

from crabgames.games.crab_bucket import abilities, rules
from crabgames.games.crab_bucket.data import CIRCLE, HAND_SIZE
from crabgames.games.crab_bucket.events import (
    DrawPileEmpty,
    Event,
    NoMainAction,
    NoMissionDrawn,
    TurnPassed,
)
from crabgames.games.crab_bucket.moves import (
    ChooseMissionPile,
    KeepMission,
    Move,
    Pass,
    PlayCard,
    UseAbility,
)
from crabgames.games.crab_bucket.state import (
    CHOOSE_MISSION_PILE,
    DEAL,
    EXTRA_DRAW,
    GAME_OVER,
    KEEP_MISSION,
    LEVELED_PENDING,
    OFFER_CHOOSE_PILE,
    OFFER_DRAW,
    PLAY,
    REFILL,
    CrabBucketState,
)

# ----- the moves of the player who decides (B6, G3) -----


def legal_moves(state: CrabBucketState) -> list[Move]:
    """The moves of the player who decides now; none at the end or while chance decides."""
    if state.step == GAME_OVER:
        return []
    if state.pending:
        kind = state.pending[-1][0]
        if kind == KEEP_MISSION:
            return [KeepMission(m) for m in state.offered]
        if kind in rules.CHANCE_PENDING:
            return []
        return [ChooseMissionPile(level) for level in rules.levels_to_draw_from(state)]
    if state.step != PLAY:  # a card dealt or drawn: chance decides
        return []
    return play_moves(state)


def play_moves(state: CrabBucketState) -> list[Move]:
    """B6: an ability first (optional), then the main action; Pass only when no main action is
    possible but an ability is (with neither, the turn passes automatically, G6)."""
    mains = rules.main_moves(state)
    uses: list[Move] = []
    if state.completed and rules.may_use_ability(state):
        uses = abilities.ability_moves(state)  # only a completed mission has an ability
    if mains:
        return uses + mains
    if uses:
        return [*uses, Pass()]
    return []


def can_act(state: CrabBucketState) -> bool:
    """Whether `play_moves` lists any move: a main action settles it without listing the ability
    uses (which may be dozens)."""
    return rules.has_main_action(state) or bool(play_moves(state))


def is_legal(state: CrabBucketState, move: Move) -> bool:
    """Whether `legal_moves` lists `move`; a card play is looked for among the plays of its own
    card on its own pile only (the same generator), which is all it can be. A card play is
    decided in the "play" decision only: the PLAY step with nothing pending
    (`rules.decision_name`)."""
    if not isinstance(move, PlayCard):
        return move in legal_moves(state)
    card, pile = move.card, move.pile
    if state.step != PLAY or state.pending or card not in state.hands[state.turn_player]:
        return False
    return 0 <= pile < CIRCLE and move in rules.card_plays(state, (card,), (pile,))


def waits_for_decision(state: CrabBucketState) -> bool:
    """Chance, or a player with at least one legal move, or the end: nothing automatic pending."""
    if state.step == GAME_OVER:
        return True
    if rules.is_chance(state):
        return bool(rules.chance_outcomes(state))
    return bool(legal_moves(state))


# ----- the moves and chance outcomes applied -----


def apply_move(state: CrabBucketState, move: Move) -> list[Event]:
    events: list[Event] = []
    if isinstance(move, PlayCard):
        rules.play_card(state, move.card, move.pile, events)
    elif isinstance(move, Pass):
        events.append(TurnPassed(state.turn_player, False))
        rules.end_turn(state, events, passed=not state.ability_used)
    elif isinstance(move, UseAbility):
        abilities.use_ability(state, move, events)
    elif isinstance(move, ChooseMissionPile):
        rules.choose_mission_pile(state, move.level, events)
    else:
        state.pending.pop()
        rules.keep_mission(state, move.mission, state.turn_player, events)
    advance(state, events)
    return events


def apply_chance(state: CrabBucketState, value: int) -> list[Event]:
    events: list[Event] = []
    if state.pending:
        kind, level = state.pending.pop()
        if kind == EXTRA_DRAW:
            rules.draw_card(state, value, True, events)
        else:
            rules.draw_mission(state, value, level, kind == OFFER_DRAW, events)
    elif state.step == DEAL:
        rules.deal(state, value, events)
    else:
        rules.draw_card(state, value, False, events)
    advance(state, events)
    return events


# ----- the flow of turns -----


def advance(state: CrabBucketState, events: list[Event]) -> None:
    """Run every step that needs no decision, until someone (or chance) must decide."""
    while True:
        if state.step == GAME_OVER:
            state.pending.clear()
            return
        if state.pending:
            if _pending_waits(state, events):
                return
            continue
        if state.step == DEAL:
            return
        if state.step == PLAY:
            if _play_waits(state, events):
                return
            continue
        if _refill_waits(state, events):
            return


def _pending_waits(state: CrabBucketState, events: list[Event]) -> bool:
    kind, level = state.pending[-1]
    if kind in LEVELED_PENDING:
        waits = bool(state.mission_piles[level - 1])
    elif kind == EXTRA_DRAW:
        waits = rules.can_draw(state)
    elif kind in (CHOOSE_MISSION_PILE, OFFER_CHOOSE_PILE):
        waits = any(state.mission_piles)  # B5: with every pile empty there is no next mission
    else:
        waits = len(state.offered) >= 2
    if waits:
        return True
    state.pending.pop()
    if kind in LEVELED_PENDING:
        events.append(NoMissionDrawn(kind == OFFER_DRAW, level))
    elif kind in (CHOOSE_MISSION_PILE, OFFER_CHOOSE_PILE):
        events.append(NoMissionDrawn(kind == OFFER_CHOOSE_PILE))
    elif kind == KEEP_MISSION and state.offered:
        rules.keep_mission(state, state.offered[0], None, events)  # only one could be drawn
    return False


def _play_waits(state: CrabBucketState, events: list[Event]) -> bool:
    """The PLAY step always has a play left: `rules.count_play` moves on to drawing with none."""
    if can_act(state):
        return True
    player = state.turn_player
    if state.played:  # "Draw 1 card and play 2" with no legal second play: on to the draw
        state.plays_left = 0
        state.step = REFILL
        events.append(NoMainAction(player, True))
    elif state.ability_used:  # the turn ends without drawing; not a pass (rules notes)
        events.append(NoMainAction(player, False))
        rules.end_turn(state, events, passed=False)
    else:  # B6, G6: no legal decision at all
        events.append(TurnPassed(player, True))
        rules.end_turn(state, events, passed=True)
    return False


def _refill_waits(state: CrabBucketState, events: list[Event]) -> bool:
    if len(state.hands[state.turn_player]) >= HAND_SIZE or state.draws_over:
        rules.end_turn(state, events, passed=False)
        return False
    if not rules.can_draw(state):
        state.draws_over = True  # B7: nobody draws again
        events.append(DrawPileEmpty())
        rules.end_turn(state, events, passed=False)
        return False
    return True
