"""What a state must be, each check a function yielding (field, problem) pairs: the field's path
relative to the state (as CrabRageState names it) and what is wrong there.

LAWS hold in every position (R3, R9, R10, R12, R21): rules.invariants lists all their problems,
and the codec refuses a state at the first. REACHABLE are the cross-field checks a decoded state
needs besides: only what some sequence of legal moves can reach is accepted (phase, round,
pending steps, billboards, commitments, glory, roll-off and duel must agree), who duels and who
won derived from the state and compared. Paths are built only for a problem found: decoding runs
on every call that carries a state."""

from __future__ import annotations

from collections.abc import Callable, Iterator

from crabgames.games.crab_rage.data import (
    BOARD_ACTIONS,
    FANS_PER_PLAYER,
    MAX_MUSCLE,
    MIN_MUSCLE,
    SETUP,
    Billboard,
)
from crabgames.games.crab_rage.endgame import (
    arena_glory,
    duel_done,
    duel_winners,
    most_glory,
    shouters,
    triggers_a_duel,
)
from crabgames.games.crab_rage.state import (
    BACKSTAGE,
    IN_TRANSIT,
    Phase,
    State,
    Step,
    muscle_of,
    seats_of,
    turn_order,
    units_in,
)
from crabgames.games.crab_rage.words import team

Problems = Iterator[tuple[str, str]]
Check = Callable[[State], Problems]

# ----- the laws of every position -----


def fans_are_conserved(state: State) -> Problems:
    """R21: supply + fans in arenas + hardcore fans (+ fans riding on crabs) = 32 per manager,
    none negative."""
    for seat, p in enumerate(state.players):
        held = [p.supply, p.hardcore, *[a.fans[seat] for a in state.arenas]]
        held += [c.riding_fans for c in p.crabs]
        total = sum(held)
        if total != FANS_PER_PLAYER or min(held) < 0:
            yield f"players[{seat}]", f"fans add up to {total}, not {FANS_PER_PLAYER} (R21)"


def muscle_and_rage_limits(state: State) -> Problems:
    """R3: rage is never negative (a cost is paid with rage the manager has), muscle is a die
    face, MIN_MUSCLE to MAX_MUSCLE."""
    for seat, p in enumerate(state.players):
        if p.rage < 0:
            yield f"players[{seat}].rage", "negative rage"
        for i, c in enumerate(p.crabs):
            if not MIN_MUSCLE <= c.muscle <= MAX_MUSCLE:
                yield f"players[{seat}].crabs[{i}].muscle", f"muscle {c.muscle} (R3)"


def crabs_in_one_place(state: State) -> Problems:
    """Every crab is backstage, in one arena, or between arenas while a step takes it on (R9:
    its destination is chosen, or it enters); a fan riding on a crab drops into the first arena
    it enters (R12), so no crab in an arena carries one."""
    moving = any(t.kind == Step.ENTER or t.kind == Step.DESTINATIONS for t in state.pending)
    arenas = len(state.arenas)
    for seat, p in enumerate(state.players):
        for i, c in enumerate(p.crabs):
            placed = c.arena == BACKSTAGE or 0 <= c.arena < arenas
            if not placed and not (c.arena == IN_TRANSIT and moving):
                yield f"players[{seat}].crabs[{i}].place", "not in exactly one place"
            if c.riding_fans and c.arena >= 0:
                yield f"players[{seat}].crabs[{i}].riding_fans", "a riding fan in an arena"


def alliances_are_pairs(state: State) -> Problems:
    """R10: an alliance is two colours, each allied with the other, both with crabs in the
    arena (a manager's last crab leaving ends it)."""
    for index, arena in enumerate(state.arenas):
        for seat, other in enumerate(arena.partner):
            if other < 0:
                continue
            where = f"arenas[{index}].partner[{seat}]"  # an alliance is rare: built for one
            if other == seat or arena.partner[other] != seat:
                yield where, f"alliance {seat}/{other} is not a pair (R10)"
            if not any(c.arena == index for c in state.players[seat].crabs):
                yield where, f"{team(state, seat)} is allied without crabs"


LAWS: tuple[Check, ...] = (
    fans_are_conserved,
    muscle_and_rage_limits,
    crabs_in_one_place,
    alliances_are_pairs,
)

# ----- reachable: the decoded state's fields agree -----

# The bottom of the pending stack in each phase (bottom first): the rest of the round.
REST = (Step.ROUND_END, Step.RAGE_PHASE, Step.FAN_PHASE, Step.RUMBLE_PHASE)
SKELETON = {
    Phase.SETUP: (Step.ROUND_START,), Phase.REFEREE: (*REST, Step.ACTION_TURN, Step.FLIP_ACTION),
    Phase.ACTION: REST, Phase.RUMBLE: REST[:3], Phase.FAN: REST[:2], Phase.RAGE: REST[:1],
    Phase.END_OF_GAME: (), Phase.GAME_OVER: (),
}  # fmt: skip
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


def is_unit(unit: int, n: int) -> bool:
    """A unit is a bit set of one or two of the n seats (R10)."""
    return 0 < unit < (1 << n) and bin(unit).count("1") <= 2


def pending_kinds(state: State) -> list[int]:
    return [t.kind for t in state.pending]


def check_pending_refs(state: State) -> Problems:
    """Steps refer to things that exist: crabs in transit for ENTER, crabs in the arena for
    DESTINATIONS, the roll-off and the duel for their steps, a unit of one or two seats for a
    rumble result."""
    entering = {ref for t in state.pending if t.kind == Step.ENTER for ref in t.crabs}
    for seat, player in enumerate(state.players):
        for index, c in enumerate(player.crabs):
            if c.arena == IN_TRANSIT and (seat, index) not in entering:
                where = f"players[{seat}].crabs[{index}].place"
                yield where, "a crab in transit needs a pending ENTER step"
    for index, task in enumerate(state.pending):
        kind, crabs = task.kind, [state.players[p].crabs[i] for p, i in task.crabs]
        if kind == Step.ENTER and any(
            c.arena != IN_TRANSIT or c.destination != task.arena for c in crabs
        ):
            yield f"pending[{index}].crabs", "entering crabs must be in transit to the arena"
        if kind == Step.DESTINATIONS and any(c.arena != task.arena for c in crabs):
            yield f"pending[{index}].crabs", "leaving crabs must be in the arena"
        if kind == Step.RUMBLE_RESULT and not is_unit(task.values[0], state.num_players):
            yield f"pending[{index}].values", "a unit of one or two seats"
        if kind == Step.TIE_BREAK and state.roll_off is None:
            yield "roll_off", "a tie break needs the roll-off"
        if kind == Step.DUEL and state.duel is None:
            yield "duel", "the duel step needs the duel"


def check_stack(state: State) -> Problems:
    """G3: the pending steps are the rest of the current phase and round, in order."""
    kinds, phase = pending_kinds(state), state.phase
    skeleton = SKELETON[phase]
    if tuple(kinds[: len(skeleton)]) != skeleton:
        yield "pending", f"does not fit the {phase.name}"
    above = kinds[len(skeleton) :]
    if not all(k in ABOVE[phase] for k in above):
        yield "pending", f"a step out of {phase.name}"
    if phase == Phase.END_OF_GAME:
        hardcore = [Step.SCORING] + [Step.HARDCORE] * (len(kinds) - 1)
        if kinds != [Step.DUEL] and kinds != hardcore:
            yield "pending", "hardcore fans, scoring or duel"
        arenas = [t.arena for t in state.pending if t.kind == Step.HARDCORE]
        if len(arenas) != len(set(arenas)):
            yield "pending", "hardcore fans once per arena (R17)"
    if phase == Phase.REFEREE:
        if kinds != list(skeleton):
            yield "pending", "only the rest of the round"
        elif state.pending[-2].player != state.microphone:
            yield "pending", "the microphone holder acts first (R6)"
    if phase == Phase.SETUP:
        deals = [t.arena for t in state.pending if t.kind == Step.DEAL_BILLBOARD]
        if len(deals) != len(set(deals)):
            yield "pending", "one billboard deal per arena"
    turns = [k for k in above if k in (Step.ACTION_TURN, Step.AFTER_ACTION)]
    if phase == Phase.ACTION and len(turns) != 1:
        yield "pending", "exactly one turn of the Action Phase is running"
    if above.count(Step.TIE_BREAK) > 1:
        yield "pending", "one roll-off at a time"


def check_round(state: State) -> Problems:
    """Round, revealed action cards and microphone follow the phase (R6, Referee Phase)."""
    if (state.round == 0) != (state.phase == Phase.SETUP):
        yield "round", "round 0 is the set-up, and only it"
    revealed = state.round - 1 if state.phase == Phase.REFEREE else state.round
    if len(state.action_cards) != revealed:
        yield "action_cards", "one card is revealed in each round's Referee Phase"
    if (state.microphone < 0) != (Step.MICROPHONE in pending_kinds(state)):
        yield "microphone", "only unset while the first holder is being chosen (R6)"


def check_turns(state: State) -> Problems:
    """R7: passes and used actions belong to the round; the active player is the one acting."""
    phase, passed = state.phase, [p.passed for p in state.players]
    if phase in (Phase.SETUP, Phase.REFEREE):
        if any(passed):
            yield "players", "nobody has passed before the Action Phase"
        if state.used_actions:
            yield "used_actions", "no action used yet this round"
    elif phase == Phase.ACTION:
        if all(passed):
            yield "players", "the Action Phase ends when all have passed"
    elif not all(passed):
        yield "players", "every player passed before the Action Phase ended"
    available = {int(a) for a in BOARD_ACTIONS} | set(state.action_cards)
    if not set(state.used_actions) <= available:
        yield "used_actions", "only board actions and revealed action cards can have been used"
    acting = [t.player for t in state.pending if t.kind == Step.AFTER_ACTION]
    if state.active != (acting[0] if acting else -1):
        yield "active_player", "the player whose action is being resolved, else -1"
    turn = [t.player for t in state.pending if t.kind == Step.ACTION_TURN]
    if turn and phase == Phase.ACTION and passed[turn[0]]:
        yield "pending", "a player who passed takes no more turns"


def check_billboards(state: State) -> Problems:
    """R5: an arena has no billboard only while its deal is pending; with 4 arenas, or 3 and
    chance picking them, all 4 billboards are accounted for; with 3 chosen ones, 3."""
    dealing = {t.arena for t in state.pending if t.kind == Step.DEAL_BILLBOARD}
    for index, arena in enumerate(state.arenas):
        if (arena.billboard == 0) != (index in dealing):
            yield f"arenas[{index}].billboard", "dealt at set-up, and only then empty"
    boards = len([a for a in state.arenas if a.billboard]) + len(state.billboards_to_deal)
    allowed = {len(Billboard)} | ({3} if SETUP[state.num_players].arenas == 3 else set())
    if boards not in allowed:
        yield "billboards_to_deal", "billboards are missing"
    if len(state.billboards_to_deal) < len(dealing):
        yield "billboards_to_deal", "not enough billboards left to deal"


def check_commitments(state: State) -> Problems:
    """R17, G4: commitments exist only while an arena's are collected, in turn order among the
    players with fans there and hardcore fans left."""
    top = state.pending[-1] if state.pending else None
    waiting = []
    if top is not None and top.kind == Step.HARDCORE:
        waiting = [p for p in shouters(state, top.arena) if state.players[p].hardcore > 0]
    order = turn_order(state, max(state.microphone, 0))
    committed = [p for p in order if state.players[p].committed]
    for seat in committed:
        if seat not in waiting:
            why = "no hardcore fan commitment is being collected from this player"
            yield f"players[{seat}].committed", why
    if committed != waiting[: len(committed)]:
        yield "players", "commitments are collected in turn order"


def scored(state: State) -> bool:
    return state.phase == Phase.GAME_OVER or pending_kinds(state) == [Step.DUEL]


def check_glory(state: State) -> Problems:
    """R18: glory is all 0 until scoring, then the dense ranking of the fans in each arena."""
    for index, arena in enumerate(state.arenas):
        if arena.glory != (arena_glory(arena.fans) if scored(state) else [0] * state.num_players):
            why = "must be 0 before scoring and the dense ranking of fans after (R18)"
            yield f"arenas[{index}].glory", why


def check_duel(state: State) -> Problems:
    """R19: a duel exists exactly when scoring left a tie for most glory, among the tied; its
    winners are the highest totals once all have rolled."""
    duel, tied = state.duel, most_glory(state) if scored(state) else []
    if not triggers_a_duel(tied):
        if duel is not None:
            yield "duel", "only a tie for most glory triggers a duel"
        return
    if duel is None:
        yield "duel", "a tie for most glory needs its duel"
        return
    if duel.duelists != tied:
        yield "duel.duelists", "the tied players, in turn order"
    done = duel_done(state)
    if done != (state.phase == Phase.GAME_OVER):
        yield "duel", "unfinished"
    lengths = [len(r) for r in duel.rolls]
    rolled = duel.turn + (1 if duel.awaiting_keep else 0)
    base = lengths[-1] - (1 if rolled == len(lengths) else 0)
    expected = [base + 1 if i < rolled else base for i in range(len(lengths))]
    if lengths != expected and not (done and duel.turn == 0):
        yield "duel.rolls", "duelists roll one crab each in turn"
    if duel.winners != (duel_winners(duel) if done else []):
        yield "duel.winners", "the highest totals once all rolled"


def check_roll_off(state: State) -> Problems:
    """R15, R16: a roll-off exists only during its tie break, among the tied units."""
    ro = state.roll_off
    task = next((t for t in state.pending if t.kind == Step.TIE_BREAK), None)
    if ro is None or task is None:
        if (ro is None) != (task is None):
            yield "roll_off", "exists only during a tie break"
        return
    if not (
        len(ro.standing) == len(set(ro.standing)) >= 2
        and len(ro.rolling) == len(set(ro.rolling)) != 1
    ):
        yield "roll_off", "two or more distinct units stand; none or two or more roll"
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
    if not ok:
        yield "roll_off.standing", "only the tied units stand"


REACHABLE: tuple[Check, ...] = (
    check_pending_refs,
    check_stack,
    check_round,
    check_turns,
    check_billboards,
    check_commitments,
    check_glory,
    check_duel,
    check_roll_off,
)
