"""Cross-field checks on a decoded state: only what some sequence of legal moves can reach is
accepted (phase, round, pending steps, billboards, commitments, glory, roll-off and duel must
agree). Each check raises `bad_state` naming the first field that disagrees."""

from __future__ import annotations

from crabgames.core.errors import bad_state
from crabgames.games.crab_rage.data import BOARD_ACTIONS, SETUP, Billboard
from crabgames.games.crab_rage.endgame import (
    arena_glory,
    duel_done,
    duel_winners,
    most_glory,
    shouters,
    triggers_a_duel,
)
from crabgames.games.crab_rage.state import (
    Phase,
    State,
    Step,
    muscle_of,
    seats_of,
    turn_order,
    units_in,
)

# The bottom of the pending stack in each phase (bottom first): the rest of the round.
SKELETON = {
    Phase.SETUP: (Step.ROUND_START,),
    Phase.REFEREE: (
        Step.ROUND_END,
        Step.RAGE_PHASE,
        Step.FAN_PHASE,
        Step.RUMBLE_PHASE,
        Step.ACTION_TURN,
        Step.FLIP_ACTION,
    ),
    Phase.ACTION: (Step.ROUND_END, Step.RAGE_PHASE, Step.FAN_PHASE, Step.RUMBLE_PHASE),
    Phase.RUMBLE: (Step.ROUND_END, Step.RAGE_PHASE, Step.FAN_PHASE),
    Phase.FAN: (Step.ROUND_END, Step.RAGE_PHASE),
    Phase.RAGE: (Step.ROUND_END,),
    Phase.END_OF_GAME: (),
    Phase.GAME_OVER: (),
}
MUTATION = {Step.BUILD_RAGE, Step.MUTATION_CHOICE, Step.MUTATION_ROLL}
# The steps that can sit above the skeleton in each phase.
ABOVE = {
    Phase.SETUP: {Step.MICROPHONE, Step.DEAL_BILLBOARD},
    Phase.REFEREE: set(),
    Phase.ACTION: {
        Step.ACTION_TURN, Step.AFTER_ACTION, Step.DESTINATIONS, Step.ENTER, Step.ALLIANCE,
        Step.BILLBOARD, Step.STYLE_BONUS, Step.FRENZY, Step.SHELL_UP, Step.RIPTIDE, *MUTATION,
    },
    Phase.RUMBLE: {Step.RUMBLE, Step.TIE_BREAK, Step.RUMBLE_RESULT, *MUTATION},
    Phase.FAN: MUTATION,
    Phase.RAGE: {Step.MICROPHONE_CHECK, Step.TIE_BREAK, *MUTATION},
    Phase.END_OF_GAME: {Step.HARDCORE, Step.SCORING, Step.DUEL},
    Phase.GAME_OVER: set(),
}  # fmt: skip


def need(ok: bool, path: str, why: str) -> None:
    if not ok:
        raise bad_state(path, why)


def pending_kinds(state: State) -> list[int]:
    return [t.kind for t in state.pending]


def check_reachable(state: State, path: str) -> None:
    check_stack(state, path)
    check_round(state, path)
    check_turns(state, path)
    check_billboards(state, path)
    check_commitments(state, path)
    check_glory(state, path)
    check_duel(state, path)
    check_roll_off(state, path)


def check_stack(state: State, path: str) -> None:
    """G3: the pending steps are the rest of the current phase and round, in order."""
    kinds = pending_kinds(state)
    skeleton = SKELETON[state.phase]
    where = f"{path}.pending"
    need(tuple(kinds[: len(skeleton)]) == skeleton, where, f"does not fit the {state.phase.name}")
    above = kinds[len(skeleton) :]
    need(all(k in ABOVE[state.phase] for k in above), where, f"a step out of {state.phase.name}")
    if state.phase == Phase.END_OF_GAME:
        hardcore = [Step.SCORING] + [Step.HARDCORE] * (len(kinds) - 1)
        need(kinds == [Step.DUEL] or kinds == hardcore, where, "hardcore fans, scoring or duel")
    if state.phase == Phase.REFEREE:
        need(kinds == list(skeleton), where, "only the rest of the round")
        first = state.pending[-2].player
        need(first == state.microphone, where, "the microphone holder acts first (R6)")
    if state.phase == Phase.END_OF_GAME:
        arenas = [t.arena for t in state.pending if t.kind == Step.HARDCORE]
        need(len(arenas) == len(set(arenas)), where, "hardcore fans once per arena (R17)")
    if state.phase == Phase.SETUP:
        deals = [t.arena for t in state.pending if t.kind == Step.DEAL_BILLBOARD]
        need(len(deals) == len(set(deals)), where, "one billboard deal per arena")
    if state.phase == Phase.ACTION:
        turns = [k for k in above if k in (Step.ACTION_TURN, Step.AFTER_ACTION)]
        need(len(turns) == 1, where, "exactly one turn of the Action Phase is running")
    need(above.count(Step.TIE_BREAK) <= 1, where, "one roll-off at a time")


def check_round(state: State, path: str) -> None:
    """Round, revealed action cards and microphone follow the phase (R6, Referee Phase)."""
    setup = state.phase == Phase.SETUP
    need((state.round == 0) == setup, f"{path}.round", "round 0 is the set-up, and only it")
    revealed = state.round - 1 if state.phase == Phase.REFEREE else state.round
    need(
        len(state.action_cards) == revealed,
        f"{path}.action_cards",
        "one card is revealed in each round's Referee Phase",
    )
    choosing = Step.MICROPHONE in pending_kinds(state)
    need(
        (state.microphone < 0) == choosing,
        f"{path}.microphone",
        "only unset while the first holder is being chosen (R6)",
    )


def check_turns(state: State, path: str) -> None:
    """R7: passes and used actions belong to the round; the active player is the one acting."""
    phase = state.phase
    passed = [p.passed for p in state.players]
    if phase in (Phase.SETUP, Phase.REFEREE):
        need(not any(passed), f"{path}.players", "nobody has passed before the Action Phase")
        need(not state.used_actions, f"{path}.used_actions", "no action used yet this round")
    elif phase == Phase.ACTION:
        need(not all(passed), f"{path}.players", "the Action Phase ends when all have passed")
    else:
        need(all(passed), f"{path}.players", "every player passed before the Action Phase ended")
    available = {int(a) for a in BOARD_ACTIONS} | set(state.action_cards)
    need(
        set(state.used_actions) <= available,
        f"{path}.used_actions",
        "only board actions and revealed action cards can have been used",
    )
    acting = [t.player for t in state.pending if t.kind == Step.AFTER_ACTION]
    need(
        state.active == (acting[0] if acting else -1),
        f"{path}.active_player",
        "the player whose action is being resolved, else -1",
    )
    turn = [t.player for t in state.pending if t.kind == Step.ACTION_TURN]
    if turn and phase == Phase.ACTION:
        need(not passed[turn[0]], f"{path}.pending", "a player who passed takes no more turns")


def check_billboards(state: State, path: str) -> None:
    """R5: an arena has no billboard only while its deal is pending; with 4 arenas, or 3 and
    chance picking them, all 4 billboards are accounted for; with 3 chosen ones, 3."""
    dealing = {t.arena for t in state.pending if t.kind == Step.DEAL_BILLBOARD}
    for index, arena in enumerate(state.arenas):
        need(
            (arena.billboard == 0) == (index in dealing),
            f"{path}.arenas[{index}].billboard",
            "dealt at set-up, and only then empty",
        )
    boards = len([a for a in state.arenas if a.billboard]) + len(state.billboards_to_deal)
    allowed = {len(Billboard)} | ({3} if SETUP[state.num_players].arenas == 3 else set())
    need(boards in allowed, f"{path}.billboards_to_deal", "billboards are missing")
    need(
        len(state.billboards_to_deal) >= len(dealing),
        f"{path}.billboards_to_deal",
        "not enough billboards left to deal",
    )


def check_commitments(state: State, path: str) -> None:
    """R17, G4: commitments exist only while an arena's are collected, in turn order among the
    players with fans there and hardcore fans left."""
    top = state.pending[-1] if state.pending else None
    waiting = []
    if top is not None and top.kind == Step.HARDCORE:
        waiting = [p for p in shouters(state, top.arena) if state.players[p].hardcore > 0]
    committed = [
        p for p in turn_order(state, max(state.microphone, 0)) if state.players[p].committed
    ]
    for seat in committed:
        need(
            seat in waiting,
            f"{path}.players[{seat}].committed",
            "no hardcore fan commitment is being collected from this player",
        )
    need(
        committed == waiting[: len(committed)],
        f"{path}.players",
        "commitments are collected in turn order",
    )


def scored(state: State) -> bool:
    kinds = pending_kinds(state)
    return state.phase == Phase.GAME_OVER or kinds == [Step.DUEL]


def check_glory(state: State, path: str) -> None:
    """R18: glory is all 0 until scoring, then the dense ranking of the fans in each arena."""
    for index, arena in enumerate(state.arenas):
        expected = arena_glory(arena.fans) if scored(state) else [0] * state.num_players
        need(
            arena.glory == expected,
            f"{path}.arenas[{index}].glory",
            "must be 0 before scoring and the dense ranking of fans after (R18)",
        )


def check_duel(state: State, path: str) -> None:
    """R19: a duel exists exactly when scoring left a tie for most glory, among the tied; its
    winners are the highest totals once all have rolled."""
    duel = state.duel
    tied = most_glory(state) if scored(state) else []
    if not triggers_a_duel(tied):
        need(duel is None, f"{path}.duel", "only a tie for most glory triggers a duel")
        return
    if duel is None:
        raise bad_state(f"{path}.duel", "a tie for most glory needs its duel")
    need(duel.duelists == tied, f"{path}.duel.duelists", "the tied players, in turn order")
    done = duel_done(state)
    need(done == (state.phase == Phase.GAME_OVER), f"{path}.duel", "unfinished")
    lengths = [len(r) for r in duel.rolls]
    rolled = duel.turn + (1 if duel.awaiting_keep else 0)
    base = lengths[-1] - (1 if rolled == len(lengths) else 0)
    expected = [base + 1 if i < rolled else base for i in range(len(lengths))]
    need(
        lengths == expected or done and duel.turn == 0,
        f"{path}.duel.rolls",
        "duelists roll one crab each in turn",
    )
    winners = duel_winners(duel) if done else []
    need(duel.winners == winners, f"{path}.duel.winners", "the highest totals once all rolled")


def check_roll_off(state: State, path: str) -> None:
    """R15, R16: a roll-off exists only during its tie break, among the tied units."""
    ro = state.roll_off
    task = next((t for t in state.pending if t.kind == Step.TIE_BREAK), None)
    need((ro is None) == (task is None), f"{path}.roll_off", "exists only during a tie break")
    if ro is None or task is None:
        return
    need(
        len(ro.standing) == len(set(ro.standing)) >= 2
        and len(ro.rolling) == len(set(ro.rolling)) != 1,
        f"{path}.roll_off",
        "two or more distinct units stand; none or two or more roll",
    )
    if task.arena >= 0:  # R15: the units tied for most muscle in the arena
        units = units_in(state, task.arena)
        best = max((muscle_of(state, u, task.arena) for u in units), default=0)
        ok = all(u in units and muscle_of(state, u, task.arena) == best for u in ro.standing)
    else:  # R16: single players tied for most rage
        most = max(p.rage for p in state.players)
        ok = all(
            len(seats_of(u)) == 1 and state.players[seats_of(u)[0]].rage == most
            for u in ro.standing
        )
    need(ok, f"{path}.roll_off.standing", "only the tied units stand")
