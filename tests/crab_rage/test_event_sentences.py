"""Every event kind's exact sentence and structured fields, in scripted scenes (issue 14): the
wording, each argument (a crab, an amount, a team, an arena) and each field (player, crab,
change, result, cause) follows from the scene by the rules (docs/rules/crab_rage.md)."""

from __future__ import annotations

from crabgames.games.crab_rage import GAME
from crabgames.games.crab_rage.data import Action, SignatureMove
from crabgames.games.crab_rage.events import Cause, seen_by
from crabgames.games.crab_rage.moves import (
    Act,
    Alliance,
    AllianceChoice,
    BillboardCrab,
    Destination,
    DuelKeep,
    DuelReroll,
    HardcoreFans,
    Move,
    MutationCrab,
    Pass,
    RumbleOpponent,
    Signature,
    SignatureTarget,
    StyleBonus,
)
from crabgames.games.crab_rage.setup import default_options, initial_state
from crabgames.games.crab_rage.state import Phase, Step, Task
from crabgames.games.crab_rage.words import text
from tests.crab_rage.helpers import (
    AOTF,
    BB,
    BLACK,
    BLUE,
    GREEN,
    MM,
    PC,
    PURPLE,
    YELLOW,
    act,
    action_phase,
    ally,
    both_duelists_keep_threes_to_the_last_roll,
    chance,
    decision,
    duel_state,
    event_fields,
    kinds,
    mega_muscle_shout_out,
    play,
    put,
    run,
    set_fans,
    three_way_duel,
)

A = Action
FORM, BOOST, INDEPENDENT = AllianceChoice.FORM, AllianceChoice.BOOST, AllianceChoice.INDEPENDENT


def texts(events) -> list[str]:
    return [text(e) for e in events]


def fields(events) -> list[dict]:
    """Each event's fields, without the move (pinned through the sentence)."""
    return [{k: v for k, v in event_fields(e).items() if k != "move"} for e in events]


def choose(state, kind: type[Move], **values) -> list:
    return play(state, kind(**values))


# ----- set-up and the round -----


def test_the_set_up_tells_each_billboard_dealt_the_microphone_the_round_and_the_card_revealed():
    state = initial_state(4, default_options(4))
    events = chance(state, MM, AOTF, PC, GREEN, A.RUSH)
    assert texts(events) == [
        "arena A is dealt Mega Muscle",
        "arena B is dealt Attack of the Fans",
        "arena C is dealt Pressure Cooker",
        "Green holds the microphone",
        "round 1 starts",
        "the Referee Phase starts",
        "the referee reveals Rush",
        "the Action Phase starts",
    ]
    assert fields(events) == [
        {"arena": 0, "billboard": MM},
        {"arena": 1, "billboard": AOTF},
        {"arena": 2, "billboard": PC},
        {"player": GREEN, "cause": Cause.SET_UP},
        {"amount": 1},
        {"phase": Phase.REFEREE},
        {"action": A.RUSH},
        {"phase": Phase.ACTION},
    ]
    assert kinds(events) == [
        "billboard_dealt",
        "billboard_dealt",
        "billboard_dealt",
        "microphone",
        "round_started",
        "phase_started",
        "action_revealed",
        "phase_started",
    ]
    assert decision(state) == (GREEN, "choose_action")  # the microphone holder acts first


def test_round_two_tells_the_billboards_rotated_one_arena_clockwise_and_the_next_card():
    """R5: from round 2, after the new card (A. New Rules), every billboard moves to the next
    arena clockwise (B. Billboard Rotation): A's Mega Muscle to B, B's Attack of the Fans to C,
    C's Barnacle Brawl to A."""
    state = action_phase(4, (MM, AOTF, BB), card=A.RUSH)
    state.phase = Phase.RAGE
    events = run(state, Task(Step.ROUND_START)) + chance(state, A.SWAP)
    assert texts(events) == [
        "round 2 starts",
        "the Referee Phase starts",
        "the referee reveals Swap",
        "billboards rotate clockwise: arena A (Barnacle Brawl), arena B (Mega Muscle), "
        "arena C (Attack of the Fans)",
        "the Action Phase starts",
    ]
    assert fields(events) == [
        {"amount": 2},
        {"phase": Phase.REFEREE},
        {"action": A.SWAP},
        {"billboards": (BB, MM, AOTF)},
        {"phase": Phase.ACTION},
    ]
    assert events[3].kind == "billboards_rotated"


def test_a_four_arena_rotation_names_arena_d():
    state = action_phase(5, (MM, AOTF, PC, BB))
    state.phase = Phase.RAGE
    events = run(state, Task(Step.ROUND_START))
    events += chance(state, GAME.chance_outcomes(state)[0][0])
    assert text(events[3]) == (
        "billboards rotate clockwise: arena A (Barnacle Brawl), arena B (Mega Muscle), "
        "arena C (Attack of the Fans), arena D (Pressure Cooker)"
    )
    assert event_fields(events[3]) == {"billboards": (BB, MM, AOTF, PC)}


def test_after_round_4_the_end_of_game_starts_and_round_3_starts_round_4_instead():
    state = action_phase(4, (MM, AOTF, PC))
    state.round, state.phase = 4, Phase.RAGE
    events = run(state, Task(Step.ROUND_END))[:1]  # then hardcore fans and scoring
    assert texts(events) == ["the End of Game starts"]
    assert fields(events) == [{"phase": Phase.END_OF_GAME}]
    state = action_phase(4, (MM, AOTF, PC))
    state.round, state.phase = 3, Phase.RAGE
    assert texts(run(state, Task(Step.ROUND_END)))[:2] == [
        "round 4 starts",
        "the Referee Phase starts",
    ]


# ----- the board's actions -----


def test_a_move_from_backstage_tells_the_crab_leaving_and_entering_the_rage_paid_and_the_bonus():
    """Blue crab 2 (muscle 3, R2) moves from backstage to C (Pressure Cooker): Move costs 2 of
    the 6 rage (4 left), Pressure Cooker builds 1 (5), and the first Move of the round puts the
    style bonus fan in the destination (rules note 4)."""
    state = action_phase(4, (MM, AOTF, PC))
    events = act(state, A.MOVE, 2, arena=2)
    assert texts(events) == [
        "Blue: Move with crab 2 to arena C (Pressure Cooker) (pays 2 rage, 4 left)",
        "Blue crab 2 leaves backstage for arena C (Pressure Cooker)",
        "Blue crab 2 enters arena C (Pressure Cooker) with 3 muscle",
        "Blue builds 1 rage (Pressure Cooker), now 5",
        "Blue places 1 fan(s) in arena C (Pressure Cooker) (style bonus)",
        "Blue's action is resolved",
    ]
    assert fields(events) == [
        {
            "player": BLUE,
            "action": A.MOVE,
            "crab": (BLUE, 2),
            "change": -2,
            "result": 4,
            "first_use": True,
        },
        {"player": BLUE, "crab": (BLUE, 2), "arena": 2},
        {"player": BLUE, "crab": (BLUE, 2), "arena": 2, "amount": 3},
        {
            "player": BLUE,
            "change": 1,
            "result": 5,
            "cause": Cause.BILLBOARD,
            "billboard": PC,
            "arena": 2,
        },
        {"player": BLUE, "arena": 2, "amount": 1, "result": 1, "cause": Cause.STYLE_BONUS},
        {"player": BLUE},
    ]
    assert kinds(events) == [
        "acted",
        "crab_left",
        "crab_entered",
        "rage",
        "fans",
        "action_resolved",
    ]
    assert event_fields(events[0])["move"] == Act(action=A.MOVE, crab=2, arena=2)


def test_a_second_move_in_the_round_is_not_a_first_use_and_earns_no_style_bonus():
    state = action_phase(4, (MM, AOTF, PC))
    act(state, A.MOVE, 2, arena=2)
    events = act(state, A.MOVE, 0, arena=1)  # Yellow crab 0 (muscle 1) to Attack of the Fans
    assert texts(events) == [
        "Yellow: Move with crab 0 to arena B (Attack of the Fans) (pays 2 rage, 4 left)",
        "Yellow crab 0 leaves backstage for arena B (Attack of the Fans)",
        "Yellow crab 0 enters arena B (Attack of the Fans) with 1 muscle",
        "Yellow places 1 fan(s) in arena B (Attack of the Fans) (Attack of the Fans)",
        "Yellow's action is resolved",
    ]
    assert fields(events)[0]["first_use"] is False
    assert fields(events)[3] == {
        "player": YELLOW,
        "arena": 1,
        "amount": 1,
        "result": 1,
        "cause": Cause.BILLBOARD,
        "billboard": AOTF,
    }
    assert fields(events)[4] == {"player": YELLOW}


def test_a_move_out_of_an_alliance_ends_it_and_the_arrival_forms_one_and_picks_the_bonus_arena():
    """Blue's only crab in A (allied with Yellow) moves to B where Green is: the alliance in A
    ends (a team left, R10), Blue forms one with Green in B, Attack of the Fans puts 1 fan, and
    the style bonus (Move touched A and B) goes where Blue picks: B, now 2 Blue fans there."""
    state = action_phase(4, (MM, AOTF, PC))
    put(state, BLUE, 0, 0, 2)
    put(state, YELLOW, 0, 0, 3)
    ally(state, 0, BLUE, YELLOW)
    put(state, GREEN, 1, 1, 4)
    events = act(state, A.MOVE, 0, arena=1)
    assert decision(state) == (BLUE, "choose_alliance")
    events += choose(state, Alliance, alliance=FORM, partner=GREEN)
    assert decision(state) == (BLUE, "choose_style_bonus_arena")
    events += choose(state, StyleBonus, arena=1)
    assert texts(events) == [
        "Blue: Move with crab 0 to arena B (Attack of the Fans) (pays 2 rage, 4 left)",
        "Blue crab 0 leaves arena A (Mega Muscle) for arena B (Attack of the Fans)",
        "the alliance of Blue and Yellow in arena A (Mega Muscle) ends (a team left)",
        "Blue crab 0 enters arena B (Attack of the Fans) with 2 muscle",
        "Blue forms an alliance with Green in arena B (Attack of the Fans)",
        "Blue places 1 fan(s) in arena B (Attack of the Fans) (Attack of the Fans)",
        "Blue places 1 fan(s) in arena B (Attack of the Fans) (style bonus)",
        "Blue's action is resolved",
    ]
    assert fields(events)[:5] == [
        {
            "player": BLUE,
            "action": A.MOVE,
            "crab": (BLUE, 0),
            "change": -2,
            "result": 4,
            "first_use": True,
            "arena": 0,
        },
        {"player": BLUE, "crab": (BLUE, 0), "arena": 1, "from_arena": 0},
        {"seats": (BLUE, YELLOW), "arena": 0, "cause": Cause.LEFT_ARENA},
        {"player": BLUE, "crab": (BLUE, 0), "arena": 1, "amount": 2},
        {"player": BLUE, "arena": 1, "alliance": FORM, "partner": GREEN},
    ]
    assert fields(events)[6] == {
        "player": BLUE,
        "arena": 1,
        "amount": 1,
        "result": 2,
        "cause": Cause.STYLE_BONUS,
    }
    assert kinds(events)[2] == "alliance_ended"
    assert kinds(events)[4] == "alliance"


def test_go_clam_tells_the_muscle_set_to_5_then_the_move_and_mega_muscles_boost():
    """Go Clam (cost 3: 3 left) sets muscle 2 to 5 (+3), the crab moves B to A, and Mega Muscle
    adds 1: 6."""
    state = action_phase(4, (MM, AOTF, PC))
    put(state, BLUE, 0, 1, 2)
    events = act(state, A.GO_CLAM, 0, arena=0)
    events += choose(state, StyleBonus, arena=0)
    assert texts(events) == [
        "Blue: Go Clam with crab 0 to arena A (Mega Muscle) (pays 3 rage, 3 left)",
        "Blue crab 0: +3 muscle (Go Clam), now 5",
        "Blue crab 0 leaves arena B (Attack of the Fans) for arena A (Mega Muscle)",
        "Blue crab 0 enters arena A (Mega Muscle) with 5 muscle",
        "Blue crab 0: +1 muscle (Mega Muscle), now 6",
        "Blue places 1 fan(s) in arena A (Mega Muscle) (style bonus)",
        "Blue's action is resolved",
    ]
    assert fields(events)[1] == {
        "player": BLUE,
        "crab": (BLUE, 0),
        "change": 3,
        "result": 5,
        "arena": 1,
        "cause": Cause.ACTION,
        "action": A.GO_CLAM,
    }
    assert fields(events)[4] == {
        "player": BLUE,
        "crab": (BLUE, 0),
        "change": 1,
        "result": 6,
        "arena": 0,
        "cause": Cause.BILLBOARD,
        "billboard": MM,
    }


def test_split_tells_the_alliance_named_by_its_lowest_seat_and_the_alliance_ended_by_split():
    """Blue splits the Yellow/Green alliance it is not in (rules note 6)."""
    state = action_phase(4, (MM, AOTF, PC))
    put(state, BLUE, 0, 0, 2)
    put(state, YELLOW, 0, 0, 3)
    put(state, GREEN, 0, 0, 3)
    ally(state, 0, YELLOW, GREEN)
    events = act(state, A.SPLIT, 0, partner=YELLOW)
    assert texts(events) == [
        "Blue: Split with crab 0 (the alliance of Yellow) (pays 2 rage, 4 left)",
        "the alliance of Yellow and Green in arena A (Mega Muscle) ends (Split)",
        "Blue places 1 fan(s) in arena A (Mega Muscle) (style bonus)",
        "Blue's action is resolved",
    ]
    assert fields(events)[:2] == [
        {
            "player": BLUE,
            "action": A.SPLIT,
            "crab": (BLUE, 0),
            "change": -2,
            "result": 4,
            "first_use": True,
            "arena": 0,
        },
        {"seats": (YELLOW, GREEN), "arena": 0, "cause": Cause.ACTION, "action": A.SPLIT},
    ]


def test_a_clamped_smash_tells_x_the_rage_paid_and_the_real_muscle_lost():
    """Smash with X=3 costs 1 + 3 = 4 of 6 rage (2 left); Yellow's muscle 2 can only drop to 1
    (R3): -1, now 1."""
    state = action_phase(4, (MM, AOTF, PC))
    put(state, BLUE, 0, 0, 4)
    put(state, YELLOW, 0, 0, 2)
    events = act(state, A.SMASH, 0, target=(YELLOW, 0), amount=3)
    assert texts(events) == [
        "Blue: Smash with crab 0 on Yellow crab 0, X=3 (pays 4 rage, 2 left)",
        "Yellow crab 0: -1 muscle (Smash), now 1",
        "Blue places 1 fan(s) in arena A (Mega Muscle) (style bonus)",
        "Blue's action is resolved",
    ]
    assert fields(events)[:2] == [
        {
            "player": BLUE,
            "action": A.SMASH,
            "crab": (BLUE, 0),
            "change": -4,
            "result": 2,
            "first_use": True,
            "arena": 0,
        },
        {
            "player": YELLOW,
            "crab": (YELLOW, 0),
            "change": -1,
            "result": 1,
            "arena": 0,
            "cause": Cause.ACTION,
            "action": A.SMASH,
        },
    ]


def test_a_pass_tells_the_team_that_passes():
    state = action_phase(4, (MM, AOTF, PC))
    events = play(state, Pass())
    assert texts(events) == ["Blue passes"]
    assert fields(events) == [{"player": BLUE}]
    assert kinds(events) == ["passed"]


# ----- the action cards -----


def test_a_rush_tells_each_destination_chosen_then_the_crabs_leaving_and_entering_in_turn_order():
    """Blue crab 0 and Yellow crab 0 share the most muscle (4) in A and must leave (R9); Green's
    2 stays. Rush costs 3 (3 left). Blue sends its own crab to B (Black is there: Blue goes
    independent; Attack of the Fans: 1 fan) and Yellow's to C (Pressure Cooker: Yellow builds 1,
    3 + 1 = 4); the style bonus (A, B and C touched) goes to A."""
    state = action_phase(4, (MM, AOTF, PC), card=A.RUSH)
    put(state, BLUE, 0, 0, 4)
    put(state, YELLOW, 0, 0, 4)
    put(state, GREEN, 0, 0, 2)
    put(state, BLACK, 0, 1, 3)
    state.players[YELLOW].rage = 3
    events = act(state, A.RUSH, 0)
    assert decision(state) == (BLUE, "choose_destination")
    events += choose(state, Destination, arena=1)
    events += choose(state, Destination, arena=2)
    assert decision(state) == (BLUE, "choose_alliance")
    events += choose(state, Alliance, alliance=INDEPENDENT)
    assert decision(state) == (BLUE, "choose_style_bonus_arena")
    events += choose(state, StyleBonus, arena=0)
    assert texts(events) == [
        "Blue: Rush with crab 0 (pays 3 rage, 3 left)",
        "Blue sends Blue crab 0 to arena B (Attack of the Fans)",
        "Blue sends Yellow crab 0 to arena C (Pressure Cooker)",
        "Blue crab 0 leaves arena A (Mega Muscle) for arena B (Attack of the Fans)",
        "Yellow crab 0 leaves arena A (Mega Muscle) for arena C (Pressure Cooker)",
        "Blue crab 0 enters arena B (Attack of the Fans) with 4 muscle",
        "Blue goes independent in arena B (Attack of the Fans)",
        "Blue places 1 fan(s) in arena B (Attack of the Fans) (Attack of the Fans)",
        "Yellow crab 0 enters arena C (Pressure Cooker) with 4 muscle",
        "Yellow builds 1 rage (Pressure Cooker), now 4",
        "Blue places 1 fan(s) in arena A (Mega Muscle) (style bonus)",
        "Blue's action is resolved",
    ]
    assert fields(events)[1:7] == [
        {"player": BLUE, "crab": (BLUE, 0), "arena": 1},
        {"player": BLUE, "crab": (YELLOW, 0), "arena": 2},
        {"player": BLUE, "crab": (BLUE, 0), "arena": 1, "from_arena": 0},
        {"player": YELLOW, "crab": (YELLOW, 0), "arena": 2, "from_arena": 0},
        {"player": BLUE, "crab": (BLUE, 0), "arena": 1, "amount": 4},
        {"player": BLUE, "arena": 1, "alliance": INDEPENDENT},
    ]
    assert fields(events)[9] == {
        "player": YELLOW,
        "change": 1,
        "result": 4,
        "cause": Cause.BILLBOARD,
        "billboard": PC,
        "arena": 2,
    }
    assert kinds(events)[1:3] == ["destination_chosen"] * 2


def test_a_scatter_sends_a_team_that_enters_together_and_its_manager_picks_the_boosted_crab():
    """Yellow's two crabs share the least muscle (1) in B; Blue (Scatter costs 2: 4 left) sends
    both to A (Mega Muscle): they enter as one team, and Yellow picks crab 1 for +1 (R11)."""
    state = action_phase(4, (MM, AOTF, PC), card=A.SCATTER)
    put(state, BLUE, 0, 1, 4)
    put(state, YELLOW, 0, 1, 1)
    put(state, YELLOW, 1, 1, 1)
    events = act(state, A.SCATTER, 0)
    events += choose(state, Destination, arena=0)
    events += choose(state, Destination, arena=0)
    assert decision(state) == (YELLOW, "choose_billboard_crab")
    events += choose(state, BillboardCrab, crab=1)
    assert decision(state) == (BLUE, "choose_style_bonus_arena")
    events += choose(state, StyleBonus, arena=1)
    assert texts(events) == [
        "Blue: Scatter with crab 0 (pays 2 rage, 4 left)",
        "Blue sends Yellow crab 0 to arena A (Mega Muscle)",
        "Blue sends Yellow crab 1 to arena A (Mega Muscle)",
        "Yellow crab 0 leaves arena B (Attack of the Fans) for arena A (Mega Muscle)",
        "Yellow crab 1 leaves arena B (Attack of the Fans) for arena A (Mega Muscle)",
        "Yellow crab 0 enters arena A (Mega Muscle) with 1 muscle",
        "Yellow crab 1 enters arena A (Mega Muscle) with 1 muscle",
        "Yellow crab 1: +1 muscle (Mega Muscle), now 2",
        "Blue places 1 fan(s) in arena B (Attack of the Fans) (style bonus)",
        "Blue's action is resolved",
    ]
    assert fields(events)[7] == {
        "player": YELLOW,
        "crab": (YELLOW, 1),
        "change": 1,
        "result": 2,
        "arena": 0,
        "cause": Cause.BILLBOARD,
        "billboard": MM,
    }


def test_psych_out_tells_the_target_and_both_crabs_muscle_exchanged():
    """Blue crab 0 (1) and Yellow crab 1 (5) exchange muscle: Blue +4 to 5, Yellow -4 to 1."""
    state = action_phase(4, (MM, AOTF, PC), card=A.PSYCH_OUT)
    put(state, BLUE, 0, 2, 1)
    put(state, YELLOW, 1, 2, 5)
    events = act(state, A.PSYCH_OUT, 0, target=(YELLOW, 1))
    assert texts(events) == [
        "Blue: Psych Out with crab 0 on Yellow crab 1 (pays 2 rage, 4 left)",
        "Blue crab 0: +4 muscle (Psych Out), now 5",
        "Yellow crab 1: -4 muscle (Psych Out), now 1",
        "Blue places 1 fan(s) in arena C (Pressure Cooker) (style bonus)",
        "Blue's action is resolved",
    ]
    why = {"cause": Cause.ACTION, "action": A.PSYCH_OUT, "arena": 2}
    assert fields(events)[1:3] == [
        {"player": BLUE, "crab": (BLUE, 0), "change": 4, "result": 5} | why,
        {"player": YELLOW, "crab": (YELLOW, 1), "change": -4, "result": 1} | why,
    ]


def test_a_swap_tells_both_crabs_leaving_and_entering_with_the_actor_first():
    """Blue crab 0 (A, 3) and Green crab 2 (C, 3) trade places (R9): Blue enters C first, where
    no other team is, then Green enters A; Barnacle Brawl and Mega Muscle affect each."""
    state = action_phase(4, (MM, AOTF, BB), card=A.SWAP)
    put(state, BLUE, 0, 0, 3)
    put(state, GREEN, 2, 2, 3)
    events = act(state, A.SWAP, 0, target=(GREEN, 2))
    events += choose(state, StyleBonus, arena=2)
    assert texts(events) == [
        "Blue: Swap with crab 0 on Green crab 2 (pays 2 rage, 4 left)",
        "Blue crab 0 leaves arena A (Mega Muscle) for arena C (Barnacle Brawl)",
        "Green crab 2 leaves arena C (Barnacle Brawl) for arena A (Mega Muscle)",
        "Blue crab 0 enters arena C (Barnacle Brawl) with 3 muscle",
        "Blue crab 0: -1 muscle (Barnacle Brawl), now 2",
        "Green crab 2 enters arena A (Mega Muscle) with 3 muscle",
        "Green crab 2: +1 muscle (Mega Muscle), now 4",
        "Blue places 1 fan(s) in arena C (Barnacle Brawl) (style bonus)",
        "Blue's action is resolved",
    ]
    assert fields(events)[2] == {
        "player": GREEN,
        "crab": (GREEN, 2),
        "arena": 0,
        "from_arena": 2,
    }
    assert fields(events)[4] == {
        "player": BLUE,
        "crab": (BLUE, 0),
        "change": -1,
        "result": 2,
        "arena": 2,
        "cause": Cause.BILLBOARD,
        "billboard": BB,
    }


def test_charm_tells_the_fan_placed_by_the_action_and_the_style_bonus_after_it():
    state = action_phase(4, (MM, AOTF, PC), card=A.CHARM)
    put(state, BLUE, 1, 1, 2)
    events = act(state, A.CHARM, 1)
    assert texts(events) == [
        "Blue: Charm with crab 1 (pays 2 rage, 4 left)",
        "Blue places 1 fan(s) in arena B (Attack of the Fans) (Charm)",
        "Blue places 1 fan(s) in arena B (Attack of the Fans) (style bonus)",
        "Blue's action is resolved",
    ]
    assert fields(events)[1:3] == [
        {"player": BLUE, "arena": 1, "amount": 1, "result": 1, "cause": Cause.ACTION}
        | {"action": A.CHARM},
        {"player": BLUE, "arena": 1, "amount": 1, "result": 2, "cause": Cause.STYLE_BONUS},
    ]


def test_rage_backstage_tells_the_fan_riding_and_its_drop_where_the_crab_next_enters():
    """Rage X=2 (cost 3: 3 left) raises backstage Blue crab 2 from 3 to 5; the style bonus fan
    rides on it (R12), and drops into B when the crab moves there, before Move's own bonus."""
    state = action_phase(4, (MM, AOTF, PC), card=A.RAGE)
    events = act(state, A.RAGE, 2, amount=2)
    assert texts(events) == [
        "Blue: Rage with crab 2, X=2 (pays 3 rage, 3 left)",
        "Blue crab 2: +2 muscle (Rage), now 5",
        "style bonus: a fan rides on Blue crab 2 (1 riding)",
        "Blue's action is resolved",
    ]
    assert fields(events) == [
        {
            "player": BLUE,
            "action": A.RAGE,
            "crab": (BLUE, 2),
            "change": -3,
            "result": 3,
            "first_use": True,
        },
        {"player": BLUE, "crab": (BLUE, 2), "change": 2, "result": 5}
        | {"cause": Cause.ACTION, "action": A.RAGE},
        {
            "player": BLUE,
            "crab": (BLUE, 2),
            "amount": 1,
            "result": 1,
            "cause": Cause.STYLE_BONUS,
        },
        {"player": BLUE},
    ]
    assert kinds(events)[2] == "fan_riding"
    play(state, Pass())  # Yellow
    play(state, Pass())  # Green
    play(state, Pass())  # Black
    events = act(state, A.MOVE, 2, arena=1)
    assert texts(events) == [
        "Blue: Move with crab 2 to arena B (Attack of the Fans) (pays 2 rage, 1 left)",
        "Blue crab 2 leaves backstage for arena B (Attack of the Fans)",
        "Blue crab 2 enters arena B (Attack of the Fans) with 5 muscle",
        "Blue places 1 fan(s) riding on Blue crab 2 in arena B (Attack of the Fans) (style bonus)",
        "Blue places 1 fan(s) in arena B (Attack of the Fans) (Attack of the Fans)",
        "Blue places 1 fan(s) in arena B (Attack of the Fans) (style bonus)",
        "Blue's action is resolved",
    ]
    assert fields(events)[3] == {
        "player": BLUE,
        "arena": 1,
        "amount": 1,
        "result": 1,
        "crab": (BLUE, 2),
        "cause": Cause.STYLE_BONUS,
    }
    assert [f.get("result") for f in fields(events)[4:6]] == [2, 3]


def test_a_crab_joining_its_alliance_boosts_it_and_going_independent_names_the_former_partner():
    """Blue and Yellow are allied in B. A second Blue crab arriving boosts the alliance; then a
    Yellow crab arriving goes independent, which ends the alliance with Blue (R10)."""
    state = action_phase(4, (MM, AOTF, PC))
    put(state, BLUE, 0, 1, 2)
    put(state, YELLOW, 0, 1, 3)
    ally(state, 1, BLUE, YELLOW)
    events = act(state, A.MOVE, 1, arena=1)  # Blue crab 1 (muscle 2)
    assert decision(state) == (BLUE, "choose_alliance")
    events += choose(state, Alliance, alliance=BOOST, partner=YELLOW)
    assert (
        texts(events)[3] == "Blue boosts its alliance with Yellow in arena B (Attack of the Fans)"
    )
    assert fields(events)[3] == {"player": BLUE, "arena": 1, "alliance": BOOST, "partner": YELLOW}
    events = act(state, A.MOVE, 1, arena=1)  # Yellow crab 1 (muscle 2)
    events += choose(state, Alliance, alliance=INDEPENDENT)
    assert texts(events)[3] == (
        "Yellow goes independent in arena B (Attack of the Fans), ending its alliance with Blue"
    )
    assert fields(events)[3] == {
        "player": YELLOW,
        "arena": 1,
        "alliance": INDEPENDENT,
        "partner": BLUE,
    }
    assert state.arenas[1].partner[BLUE] == -1


# ----- signature moves (R13) -----


def arena_a_crowd(microphone: int):
    """Five teams in arena A (Mega Muscle); the microphone holder acts first."""
    state = action_phase(5, (MM, AOTF, PC, BB), microphone=microphone)
    put(state, BLUE, 0, 0, 4)
    put(state, YELLOW, 0, 0, 3)
    put(state, YELLOW, 1, 0, 1)
    put(state, GREEN, 0, 0, 2)
    put(state, BLACK, 0, 0, 5)
    put(state, PURPLE, 0, 0, 6)
    put(state, PURPLE, 1, 0, 2)
    return state


SIGNATURE_IN_A = Signature(arena=0)


def signature_fields(player: int, signature: SignatureMove) -> dict:
    """The SIGNATURE_MOVE event: 2 rage of 6 unleashed, 4 left (R13)."""
    return {
        "player": player,
        "arena": 0,
        "signature_move": signature,
        "change": -2,
        "result": 4,
    }


def signature_fans(player: int, signature: SignatureMove) -> dict:
    """The 2 fans every signature move puts in its arena."""
    return {
        "player": player,
        "arena": 0,
        "amount": 2,
        "result": 2,
        "cause": Cause.SIGNATURE_MOVE,
        "signature_move": signature,
    }


def hit(ref, change: int, result: int, signature: SignatureMove, arena: int = 0) -> dict:
    return {
        "player": ref[0],
        "crab": ref,
        "change": change,
        "result": result,
        "arena": arena,
        "cause": Cause.SIGNATURE_MOVE,
        "signature_move": signature,
    }


def test_frenzy_tells_one_hit_per_own_crab_each_on_the_picked_rival_clamped_at_1():
    """Purple has 2 crabs in A: two -2 hits, both on Blue crab 0: 4 to 2, then 2 to 1 (R3)."""
    state = arena_a_crowd(PURPLE)
    events = play(state, SIGNATURE_IN_A)
    for _ in range(2):
        assert decision(state) == (PURPLE, "choose_frenzy_target")
        events += choose(state, SignatureTarget, target=(BLUE, 0))
    assert texts(events) == [
        "Purple performs signature move Frenzy in arena A (Mega Muscle) (pays 2 rage, 4 left)",
        "Purple places 2 fan(s) in arena A (Mega Muscle) (Frenzy)",
        "Blue crab 0: -2 muscle (Frenzy), now 2",
        "Blue crab 0: -1 muscle (Frenzy), now 1",
        "Purple's action is resolved",
    ]
    frenzy = SignatureMove.FRENZY
    assert fields(events) == [
        signature_fields(PURPLE, frenzy),
        signature_fans(PURPLE, frenzy),
        hit((BLUE, 0), -2, 2, frenzy),
        hit((BLUE, 0), -1, 1, frenzy),
        {"player": PURPLE},
    ]
    assert kinds(events)[0] == "signature_move"
    assert event_fields(events[0])["move"] == SIGNATURE_IN_A
    assert decision(state) == (BLUE, "choose_action")


def test_frenzy_with_no_rival_in_the_arena_only_places_its_2_fans():
    """Rules note 5: the fans are placed even with no target; nobody is asked for a target."""
    state = action_phase(5, (MM, AOTF, PC, BB), microphone=PURPLE)
    put(state, PURPLE, 0, 1, 6)
    events = play(state, Signature(arena=1))
    assert texts(events) == [
        "Purple performs signature move Frenzy in arena B (Attack of the Fans) "
        "(pays 2 rage, 4 left)",
        "Purple places 2 fan(s) in arena B (Attack of the Fans) (Frenzy)",
        "Purple's action is resolved",
    ]
    assert decision(state) == (BLUE, "choose_action")


def test_claw_snap_tells_minus_1_for_every_rival_crab_and_0_for_one_already_at_1():
    state = arena_a_crowd(BLACK)
    events = play(state, SIGNATURE_IN_A)
    assert texts(events) == [
        "Black performs signature move Claw Snap in arena A (Mega Muscle) (pays 2 rage, 4 left)",
        "Blue crab 0: -1 muscle (Claw Snap), now 3",
        "Yellow crab 0: -1 muscle (Claw Snap), now 2",
        "Yellow crab 1: +0 muscle (Claw Snap), now 1",
        "Green crab 0: -1 muscle (Claw Snap), now 1",
        "Purple crab 0: -1 muscle (Claw Snap), now 5",
        "Purple crab 1: -1 muscle (Claw Snap), now 1",
        "Black places 2 fan(s) in arena A (Mega Muscle) (Claw Snap)",
        "Black's action is resolved",
    ]
    snap = SignatureMove.CLAW_SNAP
    assert fields(events) == [
        signature_fields(BLACK, snap),
        hit((BLUE, 0), -1, 3, snap),
        hit((YELLOW, 0), -1, 2, snap),
        hit((YELLOW, 1), 0, 1, snap),
        hit((GREEN, 0), -1, 1, snap),
        hit((PURPLE, 0), -1, 5, snap),
        hit((PURPLE, 1), -1, 1, snap),
        signature_fans(BLACK, snap),
        {"player": BLACK},
    ]


def test_shell_up_tells_plus_2_on_the_own_crab_picked():
    state = arena_a_crowd(GREEN)
    events = play(state, SIGNATURE_IN_A)
    assert decision(state) == (GREEN, "choose_shell_up_crab")
    events += choose(state, SignatureTarget, crab=0)
    assert texts(events) == [
        "Green performs signature move Shell Up in arena A (Mega Muscle) (pays 2 rage, 4 left)",
        "Green places 2 fan(s) in arena A (Mega Muscle) (Shell Up)",
        "Green crab 0: +2 muscle (Shell Up), now 4",
        "Green's action is resolved",
    ]
    shell = SignatureMove.SHELL_UP
    assert fields(events) == [
        signature_fields(GREEN, shell),
        signature_fans(GREEN, shell),
        hit((GREEN, 0), 2, 4, shell),
        {"player": GREEN},
    ]


def test_hype_up_tells_plus_1_on_each_own_crab_in_the_arena():
    state = arena_a_crowd(YELLOW)
    events = play(state, SIGNATURE_IN_A)
    assert texts(events) == [
        "Yellow performs signature move Hype Up in arena A (Mega Muscle) (pays 2 rage, 4 left)",
        "Yellow crab 0: +1 muscle (Hype Up), now 4",
        "Yellow crab 1: +1 muscle (Hype Up), now 2",
        "Yellow places 2 fan(s) in arena A (Mega Muscle) (Hype Up)",
        "Yellow's action is resolved",
    ]
    hype = SignatureMove.HYPE_UP
    assert fields(events) == [
        signature_fields(YELLOW, hype),
        hit((YELLOW, 0), 1, 4, hype),
        hit((YELLOW, 1), 1, 2, hype),
        signature_fans(YELLOW, hype),
        {"player": YELLOW},
    ]


def test_riptide_tells_the_rival_crab_sent_away_and_its_arrival_under_the_movement_rules():
    """Blue sends Green crab 0 (muscle 2) from A to D (Barnacle Brawl), where Green's own crab
    is: no alliance choice (R10), and Barnacle Brawl takes 1: now 1."""
    state = arena_a_crowd(BLUE)
    put(state, GREEN, 1, 3, 2)
    events = play(state, SIGNATURE_IN_A)
    assert decision(state) == (BLUE, "choose_riptide_target")
    events += choose(state, SignatureTarget, target=(GREEN, 0), arena=3)
    assert texts(events) == [
        "Blue performs signature move Riptide in arena A (Mega Muscle) (pays 2 rage, 4 left)",
        "Blue places 2 fan(s) in arena A (Mega Muscle) (Riptide)",
        "Green crab 0 leaves arena A (Mega Muscle) for arena D (Barnacle Brawl)",
        "Green crab 0 enters arena D (Barnacle Brawl) with 2 muscle",
        "Green crab 0: -1 muscle (Barnacle Brawl), now 1",
        "Blue's action is resolved",
    ]
    riptide = SignatureMove.RIPTIDE
    assert fields(events)[:4] == [
        signature_fields(BLUE, riptide),
        signature_fans(BLUE, riptide),
        {"player": GREEN, "crab": (GREEN, 0), "arena": 3, "from_arena": 0},
        {"player": GREEN, "crab": (GREEN, 0), "arena": 3, "amount": 2},
    ]


# ----- the Rumble, Fan and Rage Phases -----


def test_the_rumble_phase_tells_each_win_the_fans_shared_by_muscle_and_the_losers_rage():
    """Yellow holds the microphone. Rumbles start at Attack of the Fans (B), then go clockwise
    (C, then the empty A; R5). In B Blue/Yellow (4 + 2 + 3 = 9) beat Green 6 and Black 2: 5
    crabs, 5 fans, the odd one to Blue (6 muscle there against 3); Green and Black build 1 each,
    in turn order from Yellow. In C Green 3 and Black 3 tie: 4-4 rolls again, then Black's 5
    beats 3; 2 crabs, 2 fans to Black; Green builds 1 more (2)."""
    state = action_phase(4, (MM, AOTF, PC), microphone=YELLOW, rage=0)
    state.phase = Phase.ACTION
    put(state, BLUE, 0, 1, 4)
    put(state, BLUE, 1, 1, 2)
    put(state, YELLOW, 0, 1, 3)
    ally(state, 1, BLUE, YELLOW)
    put(state, GREEN, 0, 1, 6)
    put(state, BLACK, 0, 1, 2)
    put(state, GREEN, 1, 2, 3)
    put(state, BLACK, 1, 2, 3)
    events = run(state, Task(Step.RUMBLE_PHASE))
    assert decision(state) == (-1, "rumble_die")
    events += chance(state, 4, 4, 3, 5)
    b, c = "arena B (Attack of the Fans)", "arena C (Pressure Cooker)"
    assert texts(events) == [
        "the Rumble Phase starts",
        f"Blue/Yellow wins the rumble in {b} with 9 muscle",
        f"Blue places 3 fan(s) in {b} (rumble)",
        f"Yellow places 2 fan(s) in {b} (rumble)",
        "Green builds 1 rage (rumble), now 1",
        "Black builds 1 rage (rumble), now 1",
        f"Green, Black tie for the rumble in {c}: Green, Black roll off",
        f"Green rolls 4 for the rumble in {c}",
        f"Black rolls 4 for the rumble in {c}",
        f"the highest roll is 4: Green, Black still stand for the rumble in {c}, Green, Black roll"
        " next",
        f"Green rolls 3 for the rumble in {c}",
        f"Black rolls 5 for the rumble in {c}",
        f"Black wins the roll-off for the rumble in {c} with 5",
        f"Black wins the rumble in {c} with 3 muscle",
        f"Black places 2 fan(s) in {c} (rumble)",
        "Green builds 1 rage (rumble), now 2",
    ]
    rumble, roll_off = Cause.RUMBLE, Cause.ROLL_OFF
    green, black = (GREEN,), (BLACK,)
    assert fields(events) == [
        {"phase": Phase.RUMBLE},
        {"seats": (BLUE, YELLOW), "arena": 1, "amount": 9, "cause": rumble},
        {"player": BLUE, "arena": 1, "amount": 3, "result": 3, "cause": rumble},
        {"player": YELLOW, "arena": 1, "amount": 2, "result": 2, "cause": rumble},
        {"player": GREEN, "change": 1, "result": 1, "cause": rumble, "arena": 1},
        {"player": BLACK, "change": 1, "result": 1, "cause": rumble, "arena": 1},
        {"units": (green, black), "rolling": (green, black), "cause": roll_off, "arena": 2},
        {"seats": green, "amount": 4, "cause": roll_off, "arena": 2},
        {"seats": black, "amount": 4, "cause": roll_off, "arena": 2},
        {"units": (green, black), "rolling": (green, black), "cause": roll_off}
        | {"arena": 2, "amount": 4},
        {"seats": green, "amount": 3, "cause": roll_off, "arena": 2},
        {"seats": black, "amount": 5, "cause": roll_off, "arena": 2},
        {"units": (), "rolling": (), "cause": roll_off, "arena": 2, "amount": 5, "seats": black},
        {"seats": black, "arena": 2, "amount": 3, "cause": rumble},
        {"player": BLACK, "arena": 2, "amount": 2, "result": 2, "cause": rumble},
        {"player": GREEN, "change": 1, "result": 2, "cause": rumble, "arena": 2},
    ]
    assert kinds(events)[1] == "rumble_won"
    assert kinds(events)[6:10] == [
        "roll_off_started",
        "die_rolled",
        "die_rolled",
        "roll_off_rolled",
    ]


def test_the_fan_phase_tells_hardcore_fans_in_turn_order_then_each_rage_build():
    """Green holds the microphone (turn order Green, Black, Blue, Yellow). Blue is in A (Mega
    Muscle: 2 rage) and B (Attack of the Fans: 1 fan), twice in A but rewarded once; Yellow in C
    (Pressure Cooker: 1 fan, added to the 2 it holds: 3); Green in A (Mega Muscle: 2 rage,
    6 + 2 = 8: a mutation, R4); Black nowhere (R14)."""
    state = action_phase(4, (MM, AOTF, PC), microphone=GREEN)
    put(state, BLUE, 0, 0)
    put(state, BLUE, 1, 0)
    put(state, BLUE, 2, 1)
    put(state, YELLOW, 0, 2)
    put(state, GREEN, 0, 0)
    state.players[YELLOW].hardcore, state.players[YELLOW].supply = 2, 30  # from round 1
    state.phase = Phase.RUMBLE
    events = run(state, Task(Step.FAN_PHASE))
    assert texts(events) == [
        "the Fan Phase starts",
        "Blue gains 1 hardcore fan(s) (Fan Phase), now 1",
        "Yellow gains 1 hardcore fan(s) (Fan Phase), now 3",
        "Green builds 2 rage (Fan Phase), now 8",
    ]
    fan = Cause.FAN_PHASE
    assert fields(events) == [
        {"phase": Phase.FAN},
        {"player": BLUE, "amount": 1, "result": 1, "cause": fan},
        {"player": YELLOW, "amount": 1, "result": 3, "cause": fan},
        {"player": GREEN, "change": 2, "result": 8, "cause": fan},
    ]
    assert kinds(events)[1:] == ["hardcore_fans"] * 2 + ["rage"]
    assert decision(state) == (GREEN, "choose_mutation_crab")
    events = choose(state, MutationCrab, crab=0) + chance(state, 6)
    assert texts(events) == [
        "Green crab 0 mutates: rolls 6 (+5 muscle)",  # muscle 1 (R2) rolled to 6
        "Blue builds 2 rage (Fan Phase), now 8",
    ]
    assert fields(events) == [
        {"player": GREEN, "crab": (GREEN, 0), "amount": 6, "change": 5, "result": 6},
        {"player": BLUE, "change": 2, "result": 8, "cause": fan},
    ]
    assert kinds(events) == ["mutation", "rage"]


def test_the_rage_phase_tells_each_build_a_mutation_and_the_new_microphone_holder():
    """Each of 4 managers builds 3 (R1), in turn order from Green: Green 0 to 3, Black 1 to 4,
    Blue 4 to 7 (above 6: Blue rolls crab 2, muscle 3, a 1: -2), Yellow 2 to 5; Blue has the
    most rage and takes the microphone (R16)."""
    state = action_phase(4, (MM, AOTF, PC), microphone=GREEN)
    for seat, rage in ((BLUE, 4), (YELLOW, 2), (GREEN, 0), (BLACK, 1)):
        state.players[seat].rage = rage
    state.phase = Phase.FAN
    events = run(state, Task(Step.RAGE_PHASE))
    assert decision(state) == (BLUE, "choose_mutation_crab")
    events += choose(state, MutationCrab, crab=2) + chance(state, 1)
    assert texts(events) == [
        "the Rage Phase starts",
        "Green builds 3 rage (Rage Phase), now 3",
        "Black builds 3 rage (Rage Phase), now 4",
        "Blue builds 3 rage (Rage Phase), now 7",
        "Blue crab 2 mutates: rolls 1 (-2 muscle)",
        "Yellow builds 3 rage (Rage Phase), now 5",
        "Blue holds the microphone",
    ]
    rage = Cause.RAGE_PHASE
    assert fields(events) == [
        {"phase": Phase.RAGE},
        {"player": GREEN, "change": 3, "result": 3, "cause": rage},
        {"player": BLACK, "change": 3, "result": 4, "cause": rage},
        {"player": BLUE, "change": 3, "result": 7, "cause": rage},
        {"player": BLUE, "crab": (BLUE, 2), "amount": 1, "change": -2, "result": 1},
        {"player": YELLOW, "change": 3, "result": 5, "cause": rage},
        {"player": BLUE, "cause": rage},
    ]
    assert kinds(events)[-1] == "microphone"


def test_a_microphone_tie_is_rolled_off_among_the_tied_and_told_with_the_winner():
    """Yellow and Black tie with the most rage (R16): both roll, 6-6 rolls again, then Black's 4
    beats 2: Black holds the microphone (cause roll-off)."""
    state = action_phase(4, (MM, AOTF, PC), microphone=GREEN)
    for seat, rage in ((BLUE, 1), (YELLOW, 5), (GREEN, 2), (BLACK, 5)):
        state.players[seat].rage = rage
    events = run(state, Task(Step.MICROPHONE_CHECK))
    assert decision(state) == (-1, "microphone_die")
    events += chance(state, 6, 6, 2, 4)
    assert texts(events) == [
        "Yellow, Black tie for the microphone: Yellow, Black roll off",
        "Yellow rolls 6 for the microphone",
        "Black rolls 6 for the microphone",
        "the highest roll is 6: Yellow, Black still stand for the microphone, Yellow, Black roll"
        " next",
        "Yellow rolls 2 for the microphone",
        "Black rolls 4 for the microphone",
        "Black wins the roll-off for the microphone with 4",
        "Black holds the microphone",
    ]
    roll_off, yellow, black = Cause.ROLL_OFF, (YELLOW,), (BLACK,)
    assert fields(events) == [
        {"units": (yellow, black), "rolling": (yellow, black), "cause": roll_off},
        {"seats": yellow, "amount": 6, "cause": roll_off},
        {"seats": black, "amount": 6, "cause": roll_off},
        {"units": (yellow, black), "rolling": (yellow, black), "cause": roll_off, "amount": 6},
        {"seats": yellow, "amount": 2, "cause": roll_off},
        {"seats": black, "amount": 4, "cause": roll_off},
        {"units": (), "rolling": (), "cause": roll_off, "amount": 4, "seats": black},
        {"player": BLACK, "cause": roll_off},
    ]
    assert state.microphone == BLACK


def test_a_rush_by_green_sends_and_enters_the_crabs_in_turn_order_from_green():
    """Green (seat 2) rushes: the four crabs with 5 muscle leave in turn order from the active
    player (R9): Green crab 0, Black crab 2, Blue crab 0, Blue crab 1. They enter in that order
    of managers, one manager's groups by destination (rules note 2): Blue crab 1 (to B) before
    Blue crab 0 (to C); each arriving crab's own manager chooses its alliance."""
    state = action_phase(4, (MM, AOTF, BB), microphone=GREEN, card=A.RUSH)
    for seat, index in ((BLUE, 0), (BLUE, 1), (GREEN, 0), (BLACK, 2)):
        put(state, seat, index, 0, 5)
    put(state, YELLOW, 0, 0, 2)
    events = act(state, A.RUSH, 0)
    for arena in (1, 2, 2, 1):
        assert decision(state) == (GREEN, "choose_destination")
        events += choose(state, Destination, arena=arena)
    assert decision(state) == (BLUE, "choose_alliance")
    events += choose(state, Alliance, alliance=FORM, partner=GREEN)
    assert decision(state) == (BLUE, "choose_alliance")
    events += choose(state, Alliance, alliance=FORM, partner=BLACK)
    assert decision(state) == (GREEN, "choose_style_bonus_arena")
    events += choose(state, StyleBonus, arena=2)
    b, c = "arena B (Attack of the Fans)", "arena C (Barnacle Brawl)"
    assert texts(events) == [
        "Green: Rush with crab 0 (pays 3 rage, 3 left)",
        f"Green sends Green crab 0 to {b}",
        f"Green sends Black crab 2 to {c}",
        f"Green sends Blue crab 0 to {c}",
        f"Green sends Blue crab 1 to {b}",
        f"Green crab 0 leaves arena A (Mega Muscle) for {b}",
        f"Black crab 2 leaves arena A (Mega Muscle) for {c}",
        f"Blue crab 0 leaves arena A (Mega Muscle) for {c}",
        f"Blue crab 1 leaves arena A (Mega Muscle) for {b}",
        f"Green crab 0 enters {b} with 5 muscle",
        f"Green places 1 fan(s) in {b} (Attack of the Fans)",
        f"Black crab 2 enters {c} with 5 muscle",
        "Black crab 2: -1 muscle (Barnacle Brawl), now 4",
        f"Blue crab 1 enters {b} with 5 muscle",
        f"Blue forms an alliance with Green in {b}",
        f"Blue places 1 fan(s) in {b} (Attack of the Fans)",
        f"Blue crab 0 enters {c} with 5 muscle",
        f"Blue forms an alliance with Black in {c}",
        "Blue crab 0: -1 muscle (Barnacle Brawl), now 4",
        f"Green places 1 fan(s) in {c} (style bonus)",
        "Green's action is resolved",
    ]
    assert fields(events)[1:5] == [
        {"player": GREEN, "crab": (GREEN, 0), "arena": 1},
        {"player": GREEN, "crab": (BLACK, 2), "arena": 2},
        {"player": GREEN, "crab": (BLUE, 0), "arena": 2},
        {"player": GREEN, "crab": (BLUE, 1), "arena": 1},
    ]
    assert fields(events)[17] == {"player": BLUE, "arena": 2, "alliance": FORM, "partner": BLACK}
    assert fields(events)[-1] == {"player": GREEN}


def test_pressure_cooker_in_arena_a_tells_the_rage_built_in_arena_a():
    """The build names its arena even when it is the first one (index 0)."""
    state = action_phase(4, (PC, MM, AOTF))
    events = act(state, A.MOVE, 0, arena=0)
    assert texts(events)[3] == "Blue builds 1 rage (Pressure Cooker), now 5"
    assert fields(events)[3] == {
        "player": BLUE,
        "change": 1,
        "result": 5,
        "cause": Cause.BILLBOARD,
        "billboard": PC,
        "arena": 0,
    }


def test_a_smash_on_a_crab_of_seat_0_names_it_by_its_colour():
    state = action_phase(4, (MM, AOTF, BB), microphone=YELLOW)
    put(state, BLUE, 0, 0, 4)
    put(state, YELLOW, 0, 0, 2)
    events = act(state, Action.SMASH, 0, target=(BLUE, 0), amount=1)
    assert events[0].kind == "acted"
    assert text(events[0]) == "Yellow: Smash with crab 0 on Blue crab 0, X=1 (pays 2 rage, 4 left)"


def test_the_three_way_tie_is_told_pick_rolls_roll_off_and_rewards_in_order():
    """The rulebook's three-way tie (test_r15_rumble.py), in the Rumble Phase, told event by event:
    Green picks Blue, beats it 5 to 2, ties Purple/Black at 2, loses 1 to 6; Purple/Black take
    the arena, 3 fans each; the losers build a rage per crab (Green 1, Blue 2, Yellow 2)."""
    state = action_phase(5, (MM, AOTF, PC, BB), microphone=GREEN, rage=0)
    state.phase = Phase.RUMBLE
    put(state, GREEN, 0, 0, 6)
    put(state, BLUE, 0, 0, 3)
    put(state, BLUE, 1, 0, 3)
    put(state, PURPLE, 0, 0, 3)
    put(state, BLACK, 0, 0, 3)
    ally(state, 0, PURPLE, BLACK)
    put(state, YELLOW, 0, 0, 1)
    put(state, YELLOW, 1, 0, 1)
    events = run(state, Task(Step.RUMBLE, arena=0))
    events += play(state, RumbleOpponent(partner=BLUE))
    events += chance(state, 5, 2, 2, 2, 1, 6)
    a = "arena A (Mega Muscle)"
    assert [text(e) for e in events] == [
        f"Blue, Green, Black/Purple tie for the rumble in {a}: Green picks an opponent",
        f"Green picks Blue to roll against in {a}",
        f"Green rolls 5 for the rumble in {a}",
        f"Blue rolls 2 for the rumble in {a}",
        f"the highest roll is 5: Green, Black/Purple still stand for the rumble in {a},"
        " Green, Black/Purple roll next",
        f"Green rolls 2 for the rumble in {a}",
        f"Black/Purple rolls 2 for the rumble in {a}",
        f"the highest roll is 2: Green, Black/Purple still stand for the rumble in {a},"
        " Green, Black/Purple roll next",
        f"Green rolls 1 for the rumble in {a}",
        f"Black/Purple rolls 6 for the rumble in {a}",
        f"Black/Purple wins the roll-off for the rumble in {a} with 6",
        f"Black/Purple wins the rumble in {a} with 6 muscle",
        f"Black places 3 fan(s) in {a} (rumble)",
        f"Purple places 3 fan(s) in {a} (rumble)",
        "Green builds 1 rage (rumble), now 1",
        "Blue builds 2 rage (rumble), now 2",
        "Yellow builds 2 rage (rumble), now 2",
    ]
    kinds = [e.kind for e in events]
    assert kinds[:2] == ["roll_off_started", "opponent_picked"]
    assert kinds.count("die_rolled") == 6 and kinds.count("roll_off_rolled") == 3


def test_the_losers_rage_names_the_rumbles_arena():
    state = action_phase(4, (MM, PC, BB), rage=0)
    put(state, BLUE, 0, 2, 6)
    put(state, YELLOW, 0, 2, 2)
    put(state, YELLOW, 1, 2, 2)
    state.phase = Phase.RUMBLE
    events = run(state, Task(Step.RUMBLE, arena=2))
    (rage,) = [e for e in events if e.kind == "rage"]
    assert event_fields(rage)["arena"] == 2
    assert event_fields(rage)["change"] == 2
    assert text(rage) == "Yellow builds 2 rage (rumble), now 2"


def test_a_four_way_tie_in_arena_a_is_told_with_its_arena_up_to_the_next_pick():
    """The four-way tie of test_r15_rumble.py, told: every roll-off event names arena A (index 0),
    and after Yellow is out the three left wait for a pick, not a roll."""
    state = action_phase(5, (MM, AOTF, PC, BB), microphone=YELLOW, rage=0)
    for seat in (BLUE, YELLOW, GREEN, BLACK):
        put(state, seat, 0, 0, 4)
    put(state, PURPLE, 0, 0, 2)
    events = run(state, Task(Step.RUMBLE, arena=0))
    events += play(state, RumbleOpponent(partner=GREEN))
    events += chance(state, 2, 5)
    arena_a = "arena A (Mega Muscle)"
    assert [text(e) for e in events] == [
        f"Blue, Yellow, Green, Black tie for the rumble in {arena_a}: Yellow picks an opponent",
        f"Yellow picks Green to roll against in {arena_a}",
        f"Yellow rolls 2 for the rumble in {arena_a}",
        f"Green rolls 5 for the rumble in {arena_a}",
        f"the highest roll is 5: Blue, Green, Black still stand for the rumble in {arena_a}, an "
        "opponent is picked",
    ]
    assert [e.kind for e in events] == [
        "roll_off_started",
        "opponent_picked",
        "die_rolled",
        "die_rolled",
        "roll_off_rolled",
    ]
    assert all(event_fields(e)["arena"] == 0 for e in events)
    assert event_fields(events[0])["units"] == ((BLUE,), (YELLOW,), (GREEN,), (BLACK,))
    assert event_fields(events[0])["rolling"] == ()
    assert event_fields(events[2])["seats"] == (YELLOW,)
    assert event_fields(events[4])["units"] == ((BLUE,), (GREEN,), (BLACK,))
    assert event_fields(events[4])["rolling"] == ()
    assert event_fields(events[4])["amount"] == 5


def test_the_mega_muscle_shout_out_is_told_each_commitment_redacted_for_others_then_revealed():
    """Green, Black, Purple commit 1, 4, 2 (in turn order from Blue, who has no fan there and
    takes no part): each commitment names its amount to its committer only (G4); the reveal
    adds them to 5, 4, 5 fans: 6, 8, 7. Scoring then goes Attack of the Fans (B) before Mega
    Muscle (A) (R5): Blue alone in B gains 5, A ranks Black 8 (5), Purple 7 (4), Green 6 (3);
    Blue and Black tie with 5 glory: a spotlight duel, Blue first in turn order."""
    state = mega_muscle_shout_out()
    events = []
    for amount in (1, 4, 2):
        events += play(state, HardcoreFans(amount=amount))
    committed = events[:3]
    assert [text(e) for e in committed] == [
        "Green commits 1 hardcore fan(s) in a closed hand",
        "Black commits 4 hardcore fan(s) in a closed hand",
        "Purple commits 2 hardcore fan(s) in a closed hand",
    ]
    assert [event_fields(e) for e in committed] == [
        {"player": GREEN, "arena": 0, "amount": 1},
        {"player": BLACK, "arena": 0, "amount": 4},
        {"player": PURPLE, "arena": 0, "amount": 2},
    ]
    assert [e.player for e in committed] == [GREEN, BLACK, PURPLE]
    for e in committed:
        assert e.kind == "hardcore_fans_committed"
        assert seen_by(e, e.player) is e
        for viewer in (BLUE, YELLOW, None, *[p for p in (GREEN, BLACK, PURPLE) if p != e.player]):
            seen = seen_by(e, viewer)
            name = {GREEN: "Green", BLACK: "Black", PURPLE: "Purple"}[e.player]
            assert text(seen) == f"{name} has committed hardcore fans in a closed hand"
            assert event_fields(seen) == {"player": e.player, "arena": 0}
    a, b = "arena A (Mega Muscle)", "arena B (Attack of the Fans)"
    assert [text(e) for e in events[3:]] == [
        f"Green shouts out 1 hardcore fan(s) in {a}, now 6 fans there",
        f"Black shouts out 4 hardcore fan(s) in {a}, now 8 fans there",
        f"Purple shouts out 2 hardcore fan(s) in {a}, now 7 fans there",
        f"Blue gains 5 glory in {b}",
        f"Green gains 3 glory in {a}",
        f"Black gains 5 glory in {a}",
        f"Purple gains 4 glory in {a}",
        "Blue, Black tie with 5 glory: a spotlight duel is triggered",
    ]
    assert [event_fields(e) for e in events[3:]] == [
        {"player": GREEN, "arena": 0, "amount": 1, "result": 6},
        {"player": BLACK, "arena": 0, "amount": 4, "result": 8},
        {"player": PURPLE, "arena": 0, "amount": 2, "result": 7},
        {"player": BLUE, "arena": 1, "amount": 5},
        {"player": GREEN, "arena": 0, "amount": 3},
        {"player": BLACK, "arena": 0, "amount": 5},
        {"player": PURPLE, "arena": 0, "amount": 4},
        {"seats": (BLUE, BLACK), "amount": 5, "cause": Cause.SPOTLIGHT_DUEL},
    ]
    assert [e.kind for e in events[3:6]] == ["hardcore_fans_revealed"] * 3
    assert [seen_by(e, YELLOW) for e in events[3:]] == events[3:]  # public (R17)


def test_purple_wins_with_13_is_told_glory_arena_by_arena_and_the_game_over():
    """The glory of test_purple_wins_with_13_glory, told in alphabetical billboard order:
    Attack of the Fans (B), Barnacle Brawl (D), Mega Muscle (A), Pressure Cooker (C)."""
    state = action_phase(5, (MM, AOTF, PC, BB), microphone=BLUE)
    state.round, state.phase = 4, Phase.END_OF_GAME
    set_fans(state, 0, {PURPLE: 9, BLACK: 8})
    set_fans(state, 1, {BLACK: 9, PURPLE: 8})
    set_fans(state, 2, {GREEN: 9, PURPLE: 8, BLACK: 1})
    set_fans(state, 3, {BLUE: 2, YELLOW: 1})
    events = run(state, Task(Step.SCORING))
    a, b, c, d = (
        "arena A (Mega Muscle)",
        "arena B (Attack of the Fans)",
        "arena C (Pressure Cooker)",
        "arena D (Barnacle Brawl)",
    )
    assert [text(e) for e in events] == [
        f"Black gains 5 glory in {b}",
        f"Purple gains 4 glory in {b}",
        f"Blue gains 5 glory in {d}",
        f"Yellow gains 4 glory in {d}",
        f"Black gains 4 glory in {a}",
        f"Purple gains 5 glory in {a}",
        f"Green gains 5 glory in {c}",
        f"Black gains 3 glory in {c}",
        f"Purple gains 4 glory in {c}",
        "the game is over: Purple win(s)",
    ]
    assert events[-1].kind == "game_over"
    assert event_fields(events[-1]) == {"seats": (PURPLE,), "phase": Phase.GAME_OVER}
    assert [event_fields(e) for e in events[:3]] == [
        {"player": BLACK, "arena": 1, "amount": 5},
        {"player": PURPLE, "arena": 1, "amount": 4},
        {"player": BLUE, "arena": 3, "amount": 5},
    ]


def test_the_spotlight_duels_events_tell_each_roll_keep_re_roll_and_the_winner():
    """Black and Purple tie with 12 glory (duel_state); the duel of
    test_spotlight_duel_black_rerolls_the_third_crab_and_wins_with_10, told event by event.
    Purple has no rage, so each of its rolls is kept at once; Black re-rolls its third crab
    with its one rage and keeps the 5: Black 3 + 2 + 5 = 10 beats Purple 4 + 3 + 2 = 9."""
    state = action_phase(5, (MM, AOTF, PC, BB), microphone=BLACK)
    state.round, state.phase = 4, Phase.END_OF_GAME
    set_fans(state, 0, {PURPLE: 9, BLACK: 8})
    set_fans(state, 1, {BLACK: 9, PURPLE: 8})
    set_fans(state, 2, {BLUE: 9, YELLOW: 8, PURPLE: 5, BLACK: 5})
    set_fans(state, 3, {GREEN: 1})
    state.players[BLACK].rage, state.players[PURPLE].rage = 1, 0
    started = [text(e) for e in run(state, Task(Step.SCORING)) if "spotlight" in text(e)]
    assert started == ["Black, Purple tie with 12 glory: a spotlight duel is triggered"]
    events = chance(state, 3) + play(state, DuelKeep()) + chance(state, 4, 2)
    events += play(state, DuelKeep()) + chance(state, 3, 1)
    events += play(state, DuelReroll()) + chance(state, 5, 2)
    assert [text(e) for e in events] == [
        "Black crab 0 rolls 3 in the spotlight duel",
        "Black keeps 3 for crab 0",
        "Purple crab 0 rolls 4 in the spotlight duel",
        "Purple keeps 4 for crab 0",
        "Black crab 1 rolls 2 in the spotlight duel",
        "Black keeps 2 for crab 1",
        "Purple crab 1 rolls 3 in the spotlight duel",
        "Purple keeps 3 for crab 1",
        "Black crab 2 rolls 1 in the spotlight duel",
        "Black unleashes 1 rage to re-roll crab 2 (it rolled 1), now 0 rage",
        "Black crab 2 rolls 5 in the spotlight duel",
        "Black keeps 5 for crab 2",
        "Purple crab 2 rolls 2 in the spotlight duel",
        "Purple keeps 2 for crab 2",
        "Black win(s) the spotlight duel with 10",
        "the game is over: Black win(s)",
    ]
    reroll = event_fields(events[9])
    assert (reroll["player"], reroll["crab"], reroll["change"], reroll["result"]) == (
        BLACK,
        (BLACK, 2),
        -1,
        0,
    )


def test_a_shared_spotlight_victory_ends_the_game_naming_both_winners():
    """Black and Purple roll 3 with every crab: 9 each, a shared victory (R19)."""
    state = duel_state()
    both_duelists_keep_threes_to_the_last_roll(state)
    events = chance(state, 3)
    assert [text(e) for e in events] == [
        "Purple crab 2 rolls 3 in the spotlight duel",
        "Purple keeps 3 for crab 2",
        "Black and Purple win(s) the spotlight duel with 9",
        "the game is over: Black and Purple win(s)",
    ]
    assert event_fields(events[-1]) == {"seats": (BLACK, PURPLE), "phase": Phase.GAME_OVER}
    assert event_fields(events[-2]) == {
        "seats": (BLACK, PURPLE),
        "amount": 9,
        "cause": Cause.SPOTLIGHT_DUEL,
    }


def test_each_duel_roll_and_keep_is_told_for_the_duelist_rolling_in_turn():
    """Green (seat 2) rolls its crab 0 first and, with no rage, keeps it at once (rules note
    12); then Blue (seat 0)."""
    state = three_way_duel(microphone=GREEN)
    events = chance(state, 4) + chance(state, 5)
    assert [text(e) for e in events] == [
        "Green crab 0 rolls 4 in the spotlight duel",
        "Green keeps 4 for crab 0",
        "Blue crab 0 rolls 5 in the spotlight duel",
        "Blue keeps 5 for crab 0",
    ]
    assert [e.kind for e in events] == [
        "die_rolled",
        "duel_kept",
        "die_rolled",
        "duel_kept",
    ]
    duel = Cause.SPOTLIGHT_DUEL
    assert [event_fields(e) for e in events] == [
        {"player": GREEN, "crab": (GREEN, 0), "amount": 4, "cause": duel},
        {"player": GREEN, "crab": (GREEN, 0), "amount": 4, "cause": duel},
        {"player": BLUE, "crab": (BLUE, 0), "amount": 5, "cause": duel},
        {"player": BLUE, "crab": (BLUE, 0), "amount": 5, "cause": duel},
    ]
