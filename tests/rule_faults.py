"""Realistic rule faults, each killed by its own rule's test (issue 32; docs/testing.md).

mutmut (tests/mutation.py) flips operators and constants inside functions. The faults here are
the mistakes a person makes instead: a wrong formula, a boundary off by one, a direction
reversed, the wrong one among equals, a wrong data-table entry, a step skipped. Each names the
rule it breaks (a ruling id of docs/rules, a Crab Bucket ability, a CRAB RAGE! action,
billboard or signature move, or a rulebook section), the exact text it replaces in one file of
server/, and the rule test file(s) that must kill it: the file named for that rule (tests/<game>/
test_<ruling id>_<title>.py, test_ability_<name>.py, test_action_<name>.py, test_<section>.py),
never the golden playthroughs or the generic cross-checks.

    python -m tests.rule_faults            # every fault; make rule-faults
    python -m tests.rule_faults K6 R12     # the faults of these rules (or fault ids) only

The runner copies server/ (with its generated v1/) into two scratch directories once; for each
fault it puts that one replacement into a scratch copy (the replaced text must occur exactly
once, else the fault is stale: the run fails, so a fault cannot rot when the code changes), runs
only the fault's test files against the copy (`python -m pytest FILES -x -q -p no:cacheprovider`
with PYTHONPATH on the copy), requires a test to fail, and puts the file back. Two faults run at
once, one per copy. It prints a table (fault, rule, the test that killed it or SURVIVED) and the
run time, and exits 1 if any fault survived, broke the import instead of a test, or is stale.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from queue import Queue

ROOT = Path(__file__).resolve().parent.parent
KRABY = "server/crabgames/games/kraby/"
BUCKET = "server/crabgames/games/crab_bucket/"
RAGE = "server/crabgames/games/crab_rage/"
KT, BT, RT = "tests/kraby/", "tests/crab_bucket/", "tests/crab_rage/"
# The muscle billboards' table (R11), which two faults change.
MUSCLE_BILLBOARDS = (
    "MUSCLE_BILLBOARDS: dict[int, int] = {Billboard.MEGA_MUSCLE: 1, Billboard.BARNACLE_BRAWL: -1}"
)
TIMEOUT = 600  # seconds for one fault's tests; a fault that makes a rule loop forever is killed


@dataclass(frozen=True)
class Fault:
    id: str
    rule: str  # a ruling id (K3), or an ability, action, billboard or signature move by name
    file: str  # relative to the repository
    old: str  # the exact text replaced, found exactly once in `file`
    new: str
    wrong: str  # what the fault gets wrong, in a sentence
    tests: tuple[str, ...]  # the rule test files, one of which must fail


def fault(id: str, rule: str, file: str, old: str, new: str, wrong: str, *tests: str) -> Fault:
    return Fault(id, rule, file, old, new, wrong, tests)


FAULTS: tuple[Fault, ...] = (
    # ----- Kraby -----
    fault(
        "K1-two-players-area",
        "K1",
        KRABY + "data.py",
        "PLAYING_AREA: Final = {2: (1, 9), 3: (0, 10), 4: (0, 10)}",
        "PLAYING_AREA: Final = {2: (0, 8), 3: (0, 10), 4: (0, 10)}",
        "Two fishers' 9 by 9 counted from the board's corner instead of its centre.",
        KT + "test_k1_board_and_the_sand_bar.py",
    ),
    fault(
        "K1-no-sand-bar",
        "K1",
        KRABY + "rules.py",
        "    cells[ISLAND] = ISLAND_CELL\n    in_play",
        "    in_play",
        "The sand bar is never put on the centre cell.",
        KT + "test_k1_board_and_the_sand_bar.py",
    ),
    fault(
        "K2-four-fishers-drop-a-colour",
        "K2",
        KRABY + "rules.py",
        "if num_players != 2 or color != excluded)",
        "if num_players < 4 or color != excluded)",
        "The colour sits out with four fishers instead of with two.",
        KT + "test_k2_colours.py",
    ),
    fault(
        "K3-east-west-reversed",
        "K3",
        KRABY + "rules.py",
        "FROM_FIRST: Final = {NORTH: True, EAST: False, SOUTH: False, WEST: True}",
        "FROM_FIRST: Final = {NORTH: True, EAST: True, SOUTH: False, WEST: False}",
        "A tile from the east enters at the west end of its row, one from the west at the east.",
        KT + "test_k3_sliding_a_tile_in.py",
    ),
    fault(
        "K3-slides-to-the-far-edge",
        "K3",
        KRABY + "rules.py",
        "            return index - 1 if index > 0 else None\n    return None",
        "            return index - 1 if index > 0 else None\n    return len(path) - 1",
        "A tile nothing stops comes to rest on the far edge instead of being refused.",
        KT + "test_k3_sliding_a_tile_in.py",
    ),
    fault(
        "K4-one-end-only",
        "K4",
        KRABY + "rules.py",
        "    return not before or not after\n",
        "    return not before\n",
        "A free cell counts as reachable only along the line towards its first end.",
        KT + "test_k4_no_unreachable_cells.py",
    ),
    fault(
        "K5-one-colour-per-entry",
        "K5",
        KRABY + "rules.py",
        "tuple(PlaceTile(edge, lane, c, stop) for c in COLORS if colors >> (c - 1) & 1)\n",
        "tuple(PlaceTile(edge, lane, c, stop) for c in COLORS if colors >> (c - 1) & 1)[:1]\n",
        "An entry point offers only the first colour held, as if colour decided the move.",
        KT + "test_k5_colour_does_not_matter_for_legality.py",
    ),
    fault(
        "K6-other-ships-one-direction",
        "K6",
        KRABY + "rules.py",
        "        if seat != player\n        for multiplier, color in figures_on(ship)",
        "        if seat > player\n        for multiplier, color in figures_on(ship)",
        "A colour and multiplier is blocked only by the ships of later seats (issue 32).",
        KT + "test_k6_figures_in_the_holds.py",
    ),
    fault(
        "K6-four-fishers-three-figures",
        "K6",
        KRABY + "data.py",
        "FIGURES_PER_SHIP: Final = {2: 3, 3: 3, 4: 2}",
        "FIGURES_PER_SHIP: Final = {2: 3, 3: 3, 4: 3}",
        "With four fishers a ship takes three figures instead of two.",
        KT + "test_k6_figures_in_the_holds.py",
    ),
    fault(
        "K6-figure-supply-four-fishers",
        "K6",
        KRABY + "data.py",
        "FIGURES_PER_COLOR: Final = {2: 3, 3: 3, 4: 2}",
        "FIGURES_PER_COLOR: Final = {2: 3, 3: 3, 4: 3}",
        "Three figures of each colour lie beside the board with four fishers instead of two.",
        KT + "test_k6_figures_in_the_holds.py",
    ),
    fault(
        "K7-seat-0-starts",
        "K7",
        KRABY + "rules.py",
        "            state.turn_player = state.first_player\n",
        "            state.turn_player = 0\n",
        "The option `first_player` is ignored: seat 0 always starts.",
        KT + "test_k7_the_first_player.py",
    ),
    fault(
        "K8-ends-when-the-bag-is-empty",
        "K8",
        KRABY + "rules.py",
        "    return not tiles_in(state.bag) and not any(tiles_in(hand) for hand in state.hands)",
        "    return not tiles_in(state.bag)",
        "The game ends when the bag is empty, with tiles still in the hands.",
        KT + "test_k8_end.py",
    ),
    fault(
        "K9-best-contribution-floored",
        "K9",
        KRABY + "rules.py",
        "sum(values), max(values, default=0)))",
        "sum(values), max([0, *values])))",
        "A negative best contribution counts as 0, so ties at -3 become shared (issue 32).",
        KT + "test_k9_ties.py",
    ),
    fault(
        "K9-no-tie-break",
        "K9",
        KRABY + "rules.py",
        "    keys = [(f.total, f.best_contribution) for f in fishers]",
        "    keys = [(f.total, 0) for f in fishers]",
        "Equal totals always share the victory: the best contribution is not looked at.",
        KT + "test_k9_ties.py",
    ),
    fault(
        "kraby-group-of-three",
        "Groups and Scoring Values",
        KRABY + "data.py",
        "GROUP_POINTS: Final = {1: -1, 2: 0, 3: 1, 4: 3}",
        "GROUP_POINTS: Final = {1: -1, 2: 0, 3: 2, 4: 3}",
        "A group of three scores 2 instead of 1.",
        KT + "test_groups_and_scoring_values.py",
    ),
    fault(
        "kraby-multiplier-added",
        "Scoring",
        KRABY + "rules.py",
        "    return [m * points[ship[m - 1]] for m in MULTIPLIERS if not hold_is_free(ship, m)]",
        "    return [m + points[ship[m - 1]] for m in MULTIPLIERS if not hold_is_free(ship, m)]",
        "A figure's hold is added to its species' points instead of multiplying them.",
        KT + "test_scoring.py",
    ),
    fault(
        "G6-last-fisher-never-asked",
        "G6",
        KRABY + "rules.py",
        "    for _ in range(state.num_players):\n        in_hand",
        "    for _ in range(state.num_players - 1):\n        in_hand",
        "The game ends once all but one fisher passed, the last never asked whether they can play.",
        KT + "test_g6_nobody_is_ever_stuck.py",
    ),
    fault(
        "G5-kraby-draw-seen-by-all",
        "G5",
        KRABY + "events.py",
        "    if isinstance(event, (TileDealt, TileDrawn)) and event.player != viewer:",
        "    if isinstance(event, TileDealt) and event.player != viewer:",
        "A tile drawn after a move is shown to every seat; only the deal is hidden.",
        KT + "test_g5_what_each_seat_may_see.py",
    ),
    fault(
        "K6-two-of-a-colour-on-a-ship",
        "K6",
        KRABY + "rules.py",
        "if figure_beside_the_board(state.figure_supply, color) and not color_on_ship(ship, color)",
        "if figure_beside_the_board(state.figure_supply, color)",
        "A ship may take a second figure of a colour it already holds.",
        KT + "test_k6_figures_in_the_holds.py",
    ),
    fault(
        "kraby-groups-never-grow-upwards",
        "Groups and Scoring Values",
        KRABY + "rules.py",
        "    around = ((row - 1, col), (row, col - 1), (row, col + 1), (row + 1, col))",
        "    around = ((row, col - 1), (row, col + 1), (row + 1, col))",
        "A group grows right, left and down only, so tiles joined only from below count apart.",
        KT + "test_groups_and_scoring_values.py",
    ),
    fault(
        "kraby-big-group-as-four",
        "Groups and Scoring Values",
        KRABY + "data.py",
        "BIG_GROUP_POINTS: Final = 5",
        "BIG_GROUP_POINTS: Final = 3",
        "A group of five or more scores 3, as a group of four does, instead of 5.",
        KT + "test_groups_and_scoring_values.py",
    ),
    fault(
        "K3-taken-entry-cell-wraps",
        "K3",
        KRABY + "rules.py",
        "            return index - 1 if index > 0 else None\n",
        "            return index - 1 if index >= 0 else None\n",
        "A tile whose entry cell is taken is not refused: it lands on the far end of its lane.",
        KT + "test_k3_sliding_a_tile_in.py",
    ),
    fault(
        "kraby-no-draw-after-the-tile",
        "Crab Move",
        KRABY + "rules.py",
        "    if tiles_in(state.bag):\n        state.step = DRAW\n    else:\n"
        "        events += offer_figure(state)",
        "    events += offer_figure(state)",
        "The fisher does not draw back to six after placing a tile.",
        KT + "test_crab_move.py",
    ),
    # ----- Crab Bucket -----
    fault(
        "bucket-colour-by-modulo",
        "Components",
        BUCKET + "data.py",
        "    return card // 8\n",
        "    return card % 4\n",
        "A card's colour is read as its id modulo 4, so the colours interleave and repeat numbers.",
        BT + "test_components.py",
    ),
    fault(
        "B1-five-oxi-cards",
        "B1",
        BUCKET + "rules.py",
        "        num_players,\n        mission_piles=mission_piles,",
        "        MAX_PLAYERS,\n        mission_piles=mission_piles,",
        "All five Oxi! cards of the box are set aside, whatever the number of players.",
        BT + "test_b1_players_and_the_oxi_cards.py",
    ),
    fault(
        "B2-top-is-the-bottom-card",
        "B2",
        BUCKET + "rules.py",
        "    return [pile[-1] if pile else EMPTY for pile in state.piles]",
        "    return [pile[0] if pile else EMPTY for pile in state.piles]",
        "A pile's top is read from its first card, the one dealt, not the last played.",
        BT + "test_b2_circle.py",
    ),
    fault(
        "B3-distance-not-piles-between",
        "B3",
        BUCKET + "rules.py",
        "    return (second - first) % CIRCLE - 1\n",
        "    return (second - first) % CIRCLE\n",
        "A Gap counts the distance between two piles, one more than the piles between them.",
        BT + "test_b3_reading_a_mission.py",
    ),
    fault(
        "B3-neighbours-one-way",
        "B3",
        BUCKET + "rules.py",
        "    return (second - first) % CIRCLE in (1, CIRCLE - 1)",
        "    return (second - first) % CIRCLE == 1",
        "A pile neighbours only the next pile clockwise, so Chain and X read one direction.",
        BT + "test_b3_reading_a_mission.py",
    ),
    fault(
        "B4-level-1-gap-above-3",
        "B4",
        BUCKET + "data.py",
        'Mission("Mission 1-B", 1, SWAP_TOPS, _gaps(2, 1, 3, 0))',
        'Mission("Mission 1-B", 1, SWAP_TOPS, _gaps(2, 1, 4, 0))',
        "A level 1 mission of the default deck asks for 4 piles between, above level 1's 0 to 3.",
        BT + "test_b4_default_mission_deck.py",
    ),
    fault(
        "bucket-printed-example-red-and-green",
        "Mission Cards and How to Complete Them",
        BUCKET + "data.py",
        'Mission("Mission 1-A", 1, RESCUE_TOPS, _gaps(3, 2, 0, 1))',
        'Mission("Mission 1-A", 1, RESCUE_TOPS, _gaps(2, 3, 0, 1))',
        "The rulebook's example mission has red and green's gaps the wrong way round.",
        BT + "test_mission_cards_and_how_to_complete_them.py",
    ),
    fault(
        "B5-same-level-again",
        "B5",
        BUCKET + "rules.py",
        "        state.pending.append((DRAW_MISSION, mission.level + 1))",
        "        state.pending.append((DRAW_MISSION, mission.level))",
        "Quick mode draws the next mission from the level just completed, not the next level.",
        BT + "test_b5_completing_missions.py",
    ),
    fault(
        "B5-empty-pile-offered",
        "B5",
        BUCKET + "rules.py",
        "    return [level for level in LEVELS if state.mission_piles[level - 1]]",
        "    return list(LEVELS)",
        "Wild Crab offers an empty level pile to draw the next mission from.",
        BT + "test_b5_completing_missions.py",
    ),
    fault(
        "B6-ability-after-the-play",
        "B6",
        BUCKET + "rules.py",
        "    return not state.ability_used and not state.played",
        "    return not state.ability_used",
        "An ability may still be used after the main action.",
        BT + "test_b6_turn.py",
    ),
    fault(
        "B7-one-more-round-of-passes",
        "B7",
        BUCKET + "rules.py",
        "    if not holders or state.passes >= holders:",
        "    if not holders or state.passes > holders:",
        "The game goes on for one more pass after a whole round in which everyone passed.",
        BT + "test_b7_running_out_of_cards.py",
    ),
    fault(
        "B7-draws-resume",
        "B7",
        BUCKET + "turn.py",
        "        state.draws_over = True  # B7: nobody draws again\n",
        "",
        "Drawing does not stop for good: once cards go back to the draw pile, players draw again.",
        BT + "test_b7_running_out_of_cards.py",
    ),
    fault(
        "B8-five-points-apprentice",
        "B8",
        BUCKET + "data.py",
        "    if points <= 4:",
        "    if points <= 5:",
        "5 points gets the Apprentice title instead of no printed title.",
        BT + "test_b8_wild_crab_score_and_title.py",
    ),
    fault(
        "B8-guardian-from-11",
        "B8",
        BUCKET + "data.py",
        '    (10, "Guardian of the Mangrove"),',
        '    (11, "Guardian of the Mangrove"),',
        "The levels table's Guardian of the Mangrove starts at 11 points instead of 10.",
        BT + "test_b8_wild_crab_score_and_title.py",
        BT + "test_levels_table_for_wild_crab_mode.py",
    ),
    fault(
        "B9-wild-crab-talks",
        "B9",
        BUCKET + "rules.py",
        "    return not state.options.wild and not state.completed",
        "    return not state.completed",
        "Wild Crab allows talking until the first mission, as Quick mode does.",
        BT + "test_b9_talking.py",
    ),
    fault(
        "bucket-same-colour-equal",
        "1. Play a Crab Card",
        BUCKET + "rules.py",
        "        return number_of(card) > number_of(top)",
        "        return number_of(card) >= number_of(top)",
        "A card may go on its own colour when equal, not only when higher.",
        BT + "test_play_a_crab_card.py",
    ),
    fault(
        "bucket-other-colour-strictly-lower",
        "1. Play a Crab Card",
        BUCKET + "rules.py",
        "    return number_of(card) <= number_of(top)",
        "    return number_of(card) < number_of(top)",
        "A card of another colour must be strictly lower, where equal is allowed.",
        BT + "test_play_a_crab_card.py",
    ),
    fault(
        "bucket-cut-keeps-the-bottom",
        "2. Play an Oxi! Card",
        BUCKET + "rules.py",
        "    returned = stack[:-1]\n    for card in returned:\n        state.draw_pile[card] += 1\n"
        "    state.piles[pile] = stack[-1:]",
        "    returned = stack[1:]\n    for card in returned:\n        state.draw_pile[card] += 1\n"
        "    state.piles[pile] = stack[:1]",
        "A Wild Crab cut keeps the pile's bottom card instead of its top.",
        BT + "test_play_an_oxi_card.py",
    ),
    fault(
        "bucket-clockwise-reversed",
        "How to Play",
        BUCKET + "rules.py",
        "        player = (player + 1) % state.num_players",
        "        player = (player - 1) % state.num_players",
        "The turn passes anticlockwise.",
        BT + "test_how_to_play.py",
    ),
    fault(
        "bucket-ability-not-turned-down",
        "3. Use a Mission's Ability",
        BUCKET + "abilities.py",
        "    state.spent[index] = True  # turned face down (B6)\n",
        "",
        "A used ability's card stays face up and can be used again.",
        BT + "test_use_a_missions_ability.py",
    ),
    fault(
        "bucket-icons-ignored",
        "Missions of Level 2 and 3",
        BUCKET + "rules.py",
        "    return links_met(requirement_links(mission.requirements), colors)",
        "    return links_met(requirement_links(mission.requirements[:4]), colors)",
        "A mission's X and Chain icons are not checked, only its four gaps.",
        BT + "test_missions_of_level_2_and_3.py",
    ),
    fault(
        "G2-oxi-weighed-once",
        "G2",
        BUCKET + "rules.py",
        "        outcomes.append((OXI, draw_pile[OXI]))",
        "        outcomes.append((OXI, 1))",
        "An Oxi! draw weighs 1 whatever the number of Oxi! cards left in the draw pile.",
        BT + "test_g2_chance_events.py",
    ),
    fault(
        "G3-card-play-while-a-mission-is-chosen",
        "G3",
        BUCKET + "turn.py",
        "    if state.step != PLAY or state.pending or card not in state.hands[state.turn_player]:",
        "    if state.step != PLAY or card not in state.hands[state.turn_player]:",
        "A card play is accepted while a mission choice is open.",
        BT + "test_g3_one_decision_at_a_time.py",
    ),
    fault(
        "G5-bucket-receiver-sees-nothing",
        "G5",
        BUCKET + "rules.py",
        "    return [p for p in range(state.num_players) if p != receiver]",
        "    return [p for p in range(state.num_players)]",
        "A card dealt or drawn into a hand is hidden from its holder too.",
        BT + "test_g5_what_each_seat_may_see.py",
    ),
    fault(
        "rescue-tops-only-two",
        "Rescue up to 3 cards from the top",
        BUCKET + "abilities.py",
        "for size in (1, 2, 3) for combo",
        "for size in (1, 2) for combo",
        "At most two tops can be rescued.",
        BT + "test_ability_rescue_up_to_3_cards_from_the_top.py",
    ),
    fault(
        "swap-tops-whole-piles",
        "Swap two top cards of position",
        BUCKET + "abilities.py",
        "    state.piles[p], state.piles[q] = a[:-1] + b[-1:], b[:-1] + a[-1:]",
        "    state.piles[p], state.piles[q] = b, a",
        "The two whole piles change places, not only their top cards.",
        BT + "test_ability_swap_two_top_cards_of_position.py",
    ),
    fault(
        "rescue-oxi-the-lowest",
        "Rescue an Oxi! card",
        BUCKET + "abilities.py",
        "        uppermost = len(source) - 1 - source[::-1].index(OXI)  # the uppermost Oxi! there",
        "        uppermost = source.index(OXI)  # the uppermost Oxi! there",
        "The lowest Oxi! of the pile is taken instead of the uppermost (issue 32).",
        BT + "test_ability_rescue_an_oxi_card.py",
    ),
    fault(
        "play-freely-not-the-main-action",
        "Play a card freely",
        BUCKET + "abilities.py",
        "    rules.take_from_hand(state, move.card)\n    rules.count_play(state)\n",
        "    rules.take_from_hand(state, move.card)\n",
        "Playing a card freely does not count as the turn's main action: a second play follows.",
        BT + "test_ability_play_a_card_freely.py",
    ),
    fault(
        "swap-hand-top-oxi-on-a-pile",
        "Swap a card from your hand for one from the top",
        BUCKET + "abilities.py",
        "    cards = _crab_cards_in_hand(state) if rules.oxi_cuts(state) else sorted(set(hand))",
        "    cards = sorted(set(hand))",
        "In Wild Crab mode an Oxi! from the hand may be swapped onto a pile.",
        BT + "test_ability_swap_a_card_from_your_hand_for_one_from_the_top.py",
    ),
    fault(
        "draw-one-play-one",
        "Draw 1 card and play 2",
        BUCKET + "abilities.py",
        "    state.plays_left = DRAW_ONE_PLAYS\n",
        "    state.plays_left = 1\n",
        "After drawing the card only one play follows, not two.",
        BT + "test_ability_draw_1_card_and_play_2.py",
    ),
    fault(
        "discard-pile-only-its-top",
        "Discard 1 crab pile",
        BUCKET + "abilities.py",
        "    state.removed.extend(cards)  # level 3: removed from the game\n"
        "    state.removed.sort()\n    state.piles[pile] = ()",
        "    state.removed.append(cards[-1])  # level 3: removed from the game\n"
        "    state.removed.sort()\n    state.piles[pile] = cards[:-1]",
        "Only the pile's top card is removed, not the whole pile.",
        BT + "test_ability_discard_1_crab_pile.py",
    ),
    fault(
        "discard-all-tops-back-to-the-draw-pile",
        "Discard the top card of all piles",
        BUCKET + "abilities.py",
        "            state.removed.append(stack[-1])\n",
        "            state.draw_pile[stack[-1]] += 1\n",
        "The tops go back into the draw pile instead of out of the game.",
        BT + "test_ability_discard_the_top_card_of_all_piles.py",
    ),
    fault(
        "new-mission-draws-one",
        "Discard the Mission, draw 2 choose 1",
        BUCKET + "abilities.py",
        "        state.pending += [(OFFER_DRAW, discarded.level), (OFFER_DRAW, discarded.level)]",
        "        state.pending += [(OFFER_DRAW, discarded.level)]",
        "Quick mode draws one mission to choose from instead of two.",
        BT + "test_ability_discard_the_mission_draw_2_choose_1.py",
    ),
    fault(
        "B6-no-pass-beside-an-ability",
        "B6",
        BUCKET + "turn.py",
        "        return [*uses, Pass()]",
        "        return uses",
        "A player with no main action but a ready ability must use it: passing is not offered.",
        BT + "test_b6_turn.py",
    ),
    fault(
        "B7-empty-hands-not-skipped",
        "B7",
        BUCKET + "rules.py",
        "        if hands[player]:\n            break",
        "        break",
        "The turn goes to the next seat even when that player's hand is empty.",
        BT + "test_b7_running_out_of_cards.py",
    ),
    fault(
        "B8-a-point-a-mission",
        "B8",
        BUCKET + "rules.py",
        "    return sum(state.options.missions[m].level for m in state.completed)",
        "    return len(state.completed)",
        "The Wild Crab score counts the missions completed, not the sum of their levels.",
        BT + "test_b8_wild_crab_score_and_title.py",
    ),
    fault(
        "rescue-oxi-none-discarded",
        "Rescue an Oxi! card",
        BUCKET + "abilities.py",
        "        if not state.oxi_discarded:\n            return []\n",
        "",
        "In Wild Crab mode an Oxi! may be rescued when none was discarded yet.",
        BT + "test_ability_rescue_an_oxi_card.py",
    ),
    fault(
        "bucket-deal-round-robin",
        "Setup",
        BUCKET + "rules.py",
        "        player = (state.dealt - CIRCLE) // HAND_SIZE\n",
        "        player = (state.dealt - CIRCLE) % state.num_players\n",
        "The hands are dealt a card at a time round the table, not 3 to each player in turn.",
        BT + "test_setup.py",
    ),
    fault(
        "bucket-quick-won-by-any-mission",
        "End of Game",
        BUCKET + "rules.py",
        "        state.options.wild or state.end_reason == LEVEL_3_COMPLETED,",
        "        state.options.wild or bool(state.completed),",
        "A Quick game that ends with the cards run out is won if any mission was completed.",
        BT + "test_end_of_game.py",
    ),
    # ----- CRAB RAGE! -----
    fault(
        "R1-five-players-three-arenas",
        "R1",
        RAGE + "data.py",
        "5: Setup(3, 6, 4, 3)}",
        "5: Setup(3, 6, 3, 3)}",
        "Five managers play on three arenas instead of four.",
        RT + "test_setup.py",
    ),
    fault(
        "R1-three-players-rage-build",
        "R1",
        RAGE + "data.py",
        "SETUP = {3: Setup(4, 8, 3, 4),",
        "SETUP = {3: Setup(4, 8, 3, 3),",
        "Three managers build 3 rage in the Rage Phase instead of 4.",
        RT + "test_setup.py",
        RT + "test_r4_mutation.py",
    ),
    fault(
        "R2-fourth-slot",
        "R2",
        RAGE + "data.py",
        "TEAM_BOARD_MUSCLE = (1, 2, 3, 4)",
        "TEAM_BOARD_MUSCLE = (1, 2, 3, 3)",
        "The team board's fourth slot (3 players) shows muscle 3 instead of 4.",
        RT + "test_setup.py",
    ),
    fault(
        "R3-muscle-below-1",
        "R3",
        RAGE + "movement.py",
        "    c.muscle = muscle = max(MIN_MUSCLE, min(MAX_MUSCLE, before + delta))",
        "    c.muscle = muscle = min(MAX_MUSCLE, before + delta)",
        "Muscle may drop below 1: only the upper limit is kept.",
        RT + "test_r3_muscle_and_rage_limits.py",
    ),
    fault(
        "R3-last-rage-unspendable",
        "R3",
        RAGE + "actions.py",
        "    return cost <= rage\n",
        "    return cost < rage\n",
        "A cost equal to the rage held cannot be paid.",
        RT + "test_r3_muscle_and_rage_limits.py",
    ),
    fault(
        "R4-mutation-at-6",
        "R4",
        RAGE + "phases.py",
        "        if me.rage > MUTATION_ABOVE:",
        "        if me.rage >= MUTATION_ABOVE:",
        "A build that brings rage to exactly 6 mutates.",
        RT + "test_r4_mutation.py",
    ),
    fault(
        "R5-billboards-anticlockwise",
        "R5",
        RAGE + "phases.py",
        "        writable_arena(state, index).billboard = boards[index - 1]",
        "        writable_arena(state, index).billboard = boards[(index + 1) % len(boards)]",
        "The billboards move one arena anticlockwise.",
        RT + "test_r5_arenas_and_billboards.py",
        RT + "test_referee_phase.py",
    ),
    fault(
        "R5-rumbles-anticlockwise",
        "R5",
        RAGE + "state.py",
        "    return list(clockwise(arenas_alphabetical(state)[0], len(state.arenas)))",
        "    first, count = arenas_alphabetical(state)[0], len(state.arenas)\n"
        "    return [(first - i) % count for i in range(count)]",
        "The rumbles go anticlockwise from the alphabetically first billboard.",
        RT + "test_r5_arenas_and_billboards.py",
    ),
    fault(
        "R5-rotation-in-round-1",
        "R5",
        RAGE + "phases.py",
        "        if state.round > 1:  # B. Billboard Rotation",
        "        if state.round >= 1:  # B. Billboard Rotation",
        "The billboards rotate in round 1 too.",
        RT + "test_r5_arenas_and_billboards.py",
        RT + "test_referee_phase.py",
    ),
    fault(
        "R6-seat-0-acts-first",
        "R6",
        RAGE + "phases.py",
        "            Task(Step.ACTION_TURN, state.microphone),",
        "            Task(Step.ACTION_TURN, 0),",
        "The Action Phase starts at seat 0, not with the microphone holder.",
        RT + "test_r6_microphone_and_turn_order.py",
    ),
    fault(
        "R6-earliest-from-seat-0",
        "R6",
        RAGE + "state.py",
        "    order = turn_order(state, max(state.microphone, 0))\n"
        "    return min(seats, key=order.index)",
        "    order = turn_order(state, 0)\n    return min(seats, key=order.index)",
        "'First in turn order' is counted from seat 0, not from the microphone holder.",
        RT + "test_r6_microphone_and_turn_order.py",
    ),
    fault(
        "R7-actor-never-again",
        "R7",
        RAGE + "actions.py",
        "        for after in range(1, seats + 1):",
        "        for after in range(1, seats):",
        "Once all others have passed, the last manager in play is not asked again.",
        RT + "test_r7_action_phase.py",
    ),
    fault(
        "R7-charm-from-backstage",
        "R7",
        RAGE + "data.py",
        "        Action.CHARM,\n    }\n)",
        "    }\n)",
        "Charm is not marked arena only: a backstage crab may perform it.",
        RT + "test_r7_action_phase.py",
        RT + "test_action_charm.py",
    ),
    fault(
        "R8-rage-above-6",
        "R8",
        RAGE + "actions.py",
        "RAISES_MUSCLE: Final = frozenset({Action.RAGE})",
        "RAISES_MUSCLE: Final[frozenset[int]] = frozenset()",
        "Rage's X may take the crab's muscle above 6.",
        RT + "test_action_rage.py",
    ),
    fault(
        "R8-x-from-0",
        "R8",
        RAGE + "actions.py",
        "LEAST_X: Final = 1  # R8: X is at least 1",
        "LEAST_X: Final = 0  # R8: X is at least 1",
        "Smash and Rage may unleash 0 rage.",
        RT + "test_action_smash.py",
        RT + "test_action_rage.py",
    ),
    fault(
        "R9-seat-order",
        "R9",
        RAGE + "actions.py",
        "    return sorted(chosen, key=lambda r: (order.index(r[0]), r[1]))",
        "    return sorted(chosen)",
        "The leaving crabs go in seat order, not in turn order from the active player.",
        RT + "test_r9_rush_scatter_and_swap.py",
    ),
    fault(
        "R9-back-where-it-was",
        "R9",
        RAGE + "movement.py",
        "        return [DESTINATION[a] for a in range(len(state.arenas)) if a != task.arena]",
        "        return [DESTINATION[a] for a in range(len(state.arenas))]",
        "A crab forced to leave may be sent back into the arena it leaves.",
        RT + "test_r9_rush_scatter_and_swap.py",
    ),
    fault(
        "R10-allied-may-ally-again",
        "R10",
        RAGE + "movement.py",
        "        moves.append(BOOST_ALLIANCE[partners[player]])\n        return moves\n",
        "        moves.append(BOOST_ALLIANCE[partners[player]])\n",
        "A manager already allied in the arena may also form an alliance with someone else.",
        RT + "test_r10_units_and_alliances.py",
    ),
    fault(
        "R10-partner-left-allied",
        "R10",
        RAGE + "movement.py",
        "        partners[other] = partners[player] = -1",
        "        partners[player] = -1",
        "Going independent leaves the former partner marked as allied.",
        RT + "test_r10_units_and_alliances.py",
    ),
    fault(
        "R11-two-entering-not-asked",
        "R11",
        RAGE + "movement.py",
        "        if billboard in MUSCLE_BILLBOARDS and len(task.crabs) > 1:",
        "        if billboard in MUSCLE_BILLBOARDS and len(task.crabs) > 2:",
        "With two crabs entering together the manager is not asked which one the billboard hits.",
        RT + "test_r11_billboards_on_entering.py",
    ),
    fault(
        "mega-muscle-plus-2",
        "Mega Muscle",
        RAGE + "data.py",
        MUSCLE_BILLBOARDS,
        MUSCLE_BILLBOARDS.replace("MUSCLE: 1", "MUSCLE: 2"),
        "Mega Muscle gives 2 muscle instead of 1.",
        RT + "test_r11_billboards_on_entering.py",
    ),
    fault(
        "barnacle-brawl-missing",
        "Barnacle Brawl",
        RAGE + "data.py",
        MUSCLE_BILLBOARDS,
        MUSCLE_BILLBOARDS.replace(", Billboard.BARNACLE_BRAWL: -1", ""),
        "Barnacle Brawl is left out of the muscle billboards and acts as Pressure Cooker.",
        RT + "test_r11_billboards_on_entering.py",
    ),
    fault(
        "attack-of-the-fans-two",
        "Attack of the Fans",
        RAGE + "movement.py",
        "            return place_fans(state, task.player, task.arena, 1, why)",
        "            return place_fans(state, task.player, task.arena, 2, why)",
        "Attack of the Fans puts 2 fans into the arena instead of 1.",
        RT + "test_r11_billboards_on_entering.py",
    ),
    fault(
        "pressure-cooker-no-build-event",
        "Pressure Cooker",
        RAGE + "movement.py",
        "        push(state, Task(Step.BUILD_RAGE, task.player, task.arena, values=[1]))",
        "        writable_player(state, task.player).rage += 1",
        "Pressure Cooker adds 1 rage directly, not as a build event: no mutation follows.",
        RT + "test_r11_billboards_on_entering.py",
    ),
    fault(
        "R12-style-bonus-never-reset",
        "R12",
        RAGE + "phases.py",
        "        state.used_actions = []\n",
        "",
        "The actions used are not reset at a new round: the style bonus is earned once a game "
        "(issue 32).",
        RT + "test_r12_style_bonus.py",
    ),
    fault(
        "R12-every-use-earns",
        "R12",
        RAGE + "actions.py",
        "        if style:\n            state.used_actions.append(move.action)\n",
        "",
        "The action used is not noted: every use of it earns the style bonus, not only the "
        "round's first.",
        RT + "test_r12_style_bonus.py",
    ),
    fault(
        "R13-signature-reusable",
        "R13",
        RAGE + "actions.py",
        "    return not me.signature_used and can_pay(me.rage, SIGNATURE_RAGE_COST)",
        "    return can_pay(me.rage, SIGNATURE_RAGE_COST)",
        "A signature move may be used again: its card is never turned over.",
        RT + "test_r13_signature_moves.py",
    ),
    fault(
        "R13-one-fan",
        "R13",
        RAGE + "data.py",
        "SIGNATURE_FANS = 2  # printed",
        "SIGNATURE_FANS = 1  # printed",
        "A signature move puts 1 fan in the arena instead of 2.",
        RT + "test_r13_signature_moves.py",
    ),
    fault(
        "frenzy-one-hit",
        "Frenzy",
        RAGE + "actions.py",
        "        push(state, Task(Step.FRENZY, player, arena, values=[len(mine)]))",
        "        push(state, Task(Step.FRENZY, player, arena, values=[1]))",
        "Frenzy deals one hit, not one for each of the manager's crabs there.",
        RT + "test_r13_signature_moves.py",
    ),
    fault(
        "claw-snap-first-rival-only",
        "Claw Snap",
        RAGE + "actions.py",
        "        for ref in rivals_in(state, player, arena):\n",
        "        for ref in rivals_in(state, player, arena)[:1]:\n",
        "Claw Snap hits only the first rival crab, not every one.",
        RT + "test_r13_signature_moves.py",
    ),
    fault(
        "shell-up-plus-1",
        "Shell Up",
        RAGE + "data.py",
        "FRENZY_HIT, CLAW_SNAP_HIT, SHELL_UP_BOOST, HYPE_UP_BOOST = 2, 1, 2, 1",
        "FRENZY_HIT, CLAW_SNAP_HIT, SHELL_UP_BOOST, HYPE_UP_BOOST = 2, 1, 1, 1",
        "Shell Up gives +1 muscle instead of +2.",
        RT + "test_r13_signature_moves.py",
    ),
    fault(
        "riptide-same-arena",
        "Riptide",
        RAGE + "actions.py",
        "        others = [a for a in range(len(state.arenas)) if a != task.arena]",
        "        others = list(range(len(state.arenas)))",
        "Riptide may send the rival crab back into the arena it must leave.",
        RT + "test_r13_signature_moves.py",
    ),
    fault(
        "hype-up-one-crab",
        "Hype Up",
        RAGE + "actions.py",
        "        for ref in mine:\n",
        "        for ref in mine[:1]:\n",
        "Hype Up raises only the first of the manager's crabs there.",
        RT + "test_r13_signature_moves.py",
    ),
    fault(
        "R14-reward-by-arena",
        "R14",
        RAGE + "phases.py",
        "            reward = me.fanbase[arena.billboard - 1]",
        "            reward = me.fanbase[index]",
        "The fanbase reward is read by the arena's place, not by its billboard.",
        RT + "test_r14_fanbase_cards.py",
    ),
    fault(
        "R14-blue-card",
        "R14",
        RAGE + "data.py",
        "    Team.BLUE: _card(R, F, R, F),",
        "    Team.BLUE: _card(R, F, F, R),",
        "Blue's fanbase card has Pressure Cooker and Barnacle Brawl swapped.",
        RT + "test_r14_fanbase_cards.py",
    ),
    fault(
        "R15-odd-fan-to-the-weaker",
        "R15",
        RAGE + "phases.py",
        "        shares[0 if first > second else 1] += 1",
        "        shares[0 if first < second else 1] += 1",
        "The odd fan of an alliance goes to the partner with less muscle.",
        RT + "test_r15_rumble.py",
    ),
    fault(
        "R15-losers-build-1",
        "R15",
        RAGE + "phases.py",
        "            Task(Step.BUILD_RAGE, p, arena, values=[crabs_there[p]])",
        "            Task(Step.BUILD_RAGE, p, arena, values=[1])",
        "A losing manager builds 1 rage instead of 1 per own crab in the rumble.",
        RT + "test_r15_rumble.py",
    ),
    fault(
        "R16-least-rage",
        "R16",
        RAGE + "phases.py",
        "        most = max(p.rage for p in state.players)",
        "        most = min(p.rage for p in state.players)",
        "The manager with the least rage takes the microphone.",
        RT + "test_r16_microphone_in_the_rage_phase.py",
    ),
    fault(
        "R17-no-fans-shouts",
        "R17",
        RAGE + "endgame.py",
        "    return [p for p in turn_order(state, state.microphone) if fans[p] > 0]",
        "    return [p for p in turn_order(state, state.microphone) if fans[p] >= 0]",
        "A manager with no fans in the arena takes part in its shout-out.",
        RT + "test_r17_hardcore_fans_at_the_end.py",
    ),
    fault(
        "R18-competition-ranking",
        "R18",
        RAGE + "endgame.py",
        "    counts = sorted({f for f in fans if f > 0}, reverse=True)",
        "    counts = sorted([f for f in fans if f > 0], reverse=True)",
        "Glory ranks by places (1, 1, 3) instead of by distinct counts (1, 1, 2).",
        RT + "test_r18_glory.py",
    ),
    fault(
        "R19-free-reroll",
        "R19",
        RAGE + "endgame.py",
        "        me.rage -= 1\n        duel.rerolls[duel.turn] += 1",
        "        duel.rerolls[duel.turn] += 1",
        "A re-roll in the spotlight duel costs no rage.",
        RT + "test_r19_spotlight_duel.py",
    ),
    fault(
        "R20-competition-places",
        "R20",
        RAGE + "season.py",
        "    distinct = sorted(set(places))",
        "    distinct = sorted(places)",
        "After a shared place the next scores one less per manager, not per distinct place.",
        RT + "test_r20_season.py",
    ),
    fault(
        "R21-supply-below-0",
        "R21",
        RAGE + "movement.py",
        "    placed = min(count, state.players[player].supply)\n",
        "    placed = count\n",
        "Fans are placed even when the supply has run out, so it goes negative.",
        RT + "test_r21_fans_are_conserved.py",
    ),
    fault(
        "move-to-the-same-arena",
        "Move",
        RAGE + "actions.py",
        "    return [a for a in range(arenas) if a != where]",
        "    return list(range(arenas))",
        "Move and Go Clam may 'move' a crab to the arena it is in.",
        RT + "test_action_move.py",
    ),
    fault(
        "go-clam-keeps-6",
        "Go Clam",
        RAGE + "actions.py",
        "    before, c.muscle = c.muscle, GO_CLAM_MUSCLE",
        "    before, c.muscle = c.muscle, max(c.muscle, GO_CLAM_MUSCLE)",
        "Go Clam raises muscle to 5 but leaves a 6 at 6, where it sets 5 (issue 32).",
        RT + "test_action_go_clam.py",
    ),
    fault(
        "split-costs-3",
        "Split",
        RAGE + "data.py",
        "    Action.SPLIT: 2,",
        "    Action.SPLIT: 3,",
        "Split costs 3 rage instead of 2.",
        RT + "test_action_split.py",
    ),
    fault(
        "smash-own-crab",
        "Smash",
        RAGE + "actions.py",
        "    return [change_muscle(state, move.target, -move.amount, why)], [], [where]",
        "    return [change_muscle(state, (player, move.crab), -move.amount, why)], [], [where]",
        "Smash takes the muscle off the acting crab instead of the rival.",
        RT + "test_action_smash.py",
    ),
    fault(
        "rush-spares-the-actor",
        "Rush",
        RAGE + "actions.py",
        "    chosen = [r for r, m in zip(refs, muscles, strict=True) if m == edge]",
        "    chosen = [r for r, m in zip(refs, muscles, strict=True) if m == edge and r[0] != "
        "state.active]",
        "Rush and Scatter spare the actor's own crabs among the strongest (weakest).",
        RT + "test_action_rush.py",
    ),
    fault(
        "scatter-the-strongest",
        "Scatter",
        RAGE + "actions.py",
        "    return leave_effect(state, player, where, style, False)",
        "    return leave_effect(state, player, where, style, True)",
        "Scatter removes the crabs with the most muscle, as Rush does.",
        RT + "test_action_scatter.py",
    ),
    fault(
        "psych-out-one-way",
        "Psych Out",
        RAGE + "actions.py",
        "    c.muscle, other.muscle = theirs, mine\n",
        "    c.muscle = theirs\n",
        "Psych Out gives the actor's crab the rival's muscle but leaves the rival's unchanged.",
        RT + "test_action_psych_out.py",
    ),
    fault(
        "swap-one-way",
        "Swap",
        RAGE + "actions.py",
        "    events, tasks = send(state, [((player, move.crab), there), (move.target, where)])",
        "    events, tasks = send(state, [((player, move.crab), there)])",
        "Swap moves the actor's crab to the rival's arena without sending the rival back.",
        RT + "test_action_swap.py",
    ),
    fault(
        "charm-costs-1",
        "Charm",
        RAGE + "data.py",
        "    Action.CHARM: 2,",
        "    Action.CHARM: 1,",
        "Charm costs 1 rage instead of 2.",
        RT + "test_action_charm.py",
    ),
    fault(
        "rage-costs-2-plus-x",
        "Rage",
        RAGE + "data.py",
        "    Action.RAGE: 1,\n}",
        "    Action.RAGE: 2,\n}",
        "Rage costs 2 plus X instead of 1 plus X.",
        RT + "test_action_rage.py",
    ),
    fault(
        "G1-anticlockwise",
        "G1",
        RAGE + "state.py",
        "    return tuple((start + i) % seats for i in range(seats))",
        "    return tuple((start - i) % seats for i in range(seats))",
        "Turn order runs anticlockwise: to the next lower seat.",
        RT + "test_g1_seats_and_clockwise.py",
    ),
    fault(
        "G2-revealed-card-again",
        "G2",
        RAGE + "phases.py",
        "    return [a for a in sorted(ACTION_CARDS) if a not in state.action_cards]",
        "    return sorted(ACTION_CARDS)",
        "An action card already revealed may be drawn again.",
        RT + "test_g2_chance_events.py",
        RT + "test_referee_phase.py",
    ),
    fault(
        "G4-last-commitment-hidden",
        "G4",
        RAGE + "endgame.py",
        "    return len(still_to_commit(state, arena)) > 1\n",
        "    return len(still_to_commit(state, arena)) > 0\n",
        "The last hardcore fan commitment is hidden too, though all are revealed with it.",
        RT + "test_g4_secret_simultaneous_choices.py",
    ),
    fault(
        "G6-riptide-with-no-target",
        "G6",
        RAGE + "actions.py",
        "        if rivals_in(state, task.player, task.arena):\n"
        "            return CHOOSE_RIPTIDE_TARGET_BY_SEAT[task.player]",
        "        if True:\n            return CHOOSE_RIPTIDE_TARGET_BY_SEAT[task.player]",
        "Riptide asks for a target even with no rival crab in the arena: a decision with no move.",
        RT + "test_g6_nobody_is_ever_stuck.py",
    ),
    fault(
        "winning-three-way-tie-no-duel",
        "Winning the Game",
        RAGE + "endgame.py",
        "    return len(tied) > 1\n",
        "    return len(tied) == 2\n",
        "Only a tie of two triggers the spotlight duel; three tied managers all win.",
        RT + "test_winning_the_game.py",
        RT + "test_r19_spotlight_duel.py",
    ),
    fault(
        "R10-ally-with-an-allied-team",
        "R10",
        RAGE + "movement.py",
        "        if other != player and partners[other] < 0:",
        "        if other != player:",
        "An arriving manager may form an alliance with a team already allied with another.",
        RT + "test_r10_units_and_alliances.py",
    ),
    fault(
        "R10-alliance-ends-while-crabs-remain",
        "R10",
        RAGE + "movement.py",
        "    if origin >= 0 and not own_crabs_in(state, player, origin):",
        "    if origin >= 0 and own_crabs_in(state, player, origin):",
        "A crab leaving ends its manager's alliance while crabs of theirs remain, not when the "
        "last one leaves.",
        RT + "test_r10_units_and_alliances.py",
    ),
    fault(
        "R15-fans-for-the-winners-crabs",
        "R15",
        RAGE + "phases.py",
        "        fans = sum(crabs_there)\n",
        "        fans = sum(crabs_there[s] for s in seats)\n",
        "The winner adds one fan per crab of their own, not per crab in the arena.",
        RT + "test_r15_rumble.py",
    ),
    fault(
        "R17-not-all-hardcore-fans",
        "R17",
        RAGE + "endgame.py",
        "        return [HARDCORE_FANS[n] for n in range(held + 1)]",
        "        return [HARDCORE_FANS[n] for n in range(held)]",
        "A manager may shout out up to all but one of their hardcore fans.",
        RT + "test_r17_hardcore_fans_at_the_end.py",
    ),
    fault(
        "R18-one-glory-short",
        "R18",
        RAGE + "endgame.py",
        "    return [n - counts.index(f) if f > 0 else 0 for f in fans]",
        "    return [n - 1 - counts.index(f) if f > 0 else 0 for f in fans]",
        "The most fans gain N - 1 glory instead of N (the number of players).",
        RT + "test_r18_glory.py",
    ),
    fault(
        "R20-winner-scores-4",
        "R20",
        RAGE + "season.py",
        "WINNER_POINTS = 5",
        "WINNER_POINTS = 4",
        "A season game gives its winner 4 points instead of 5.",
        RT + "test_r20_season.py",
    ),
    fault(
        "R13-costs-1",
        "R13",
        RAGE + "data.py",
        "SIGNATURE_RAGE_COST = 2  # printed",
        "SIGNATURE_RAGE_COST = 1  # printed",
        "A signature move costs 1 rage instead of 2.",
        RT + "test_r13_signature_moves.py",
    ),
    fault(
        "move-costs-1",
        "Move",
        RAGE + "data.py",
        "    Action.MOVE: 2,",
        "    Action.MOVE: 1,",
        "Move costs 1 rage instead of 2.",
        RT + "test_action_move.py",
    ),
    fault(
        "go-clam-costs-2",
        "Go Clam",
        RAGE + "data.py",
        "    Action.GO_CLAM: 3,",
        "    Action.GO_CLAM: 2,",
        "Go Clam costs 2 rage instead of 3.",
        RT + "test_action_go_clam.py",
    ),
    fault(
        "rush-costs-2",
        "Rush",
        RAGE + "data.py",
        "    Action.RUSH: 3,",
        "    Action.RUSH: 2,",
        "Rush costs 2 rage instead of 3.",
        RT + "test_action_rush.py",
    ),
    fault(
        "scatter-costs-3",
        "Scatter",
        RAGE + "data.py",
        "    Action.SCATTER: 2,",
        "    Action.SCATTER: 3,",
        "Scatter costs 3 rage, as Rush does, instead of 2.",
        RT + "test_action_scatter.py",
    ),
    fault(
        "psych-out-costs-3",
        "Psych Out",
        RAGE + "data.py",
        "    Action.PSYCH_OUT: 2,",
        "    Action.PSYCH_OUT: 3,",
        "Psych Out costs 3 rage instead of 2.",
        RT + "test_action_psych_out.py",
    ),
    fault(
        "swap-costs-3",
        "Swap",
        RAGE + "data.py",
        "    Action.SWAP: 2,",
        "    Action.SWAP: 3,",
        "Swap costs 3 rage instead of 2.",
        RT + "test_action_swap.py",
    ),
    fault(
        "smash-any-arena",
        "Smash",
        RAGE + "actions.py",
        '    """Smash: "1 rival crab in this arena"."""\n    return rivals[where]',
        '    """Smash: "1 rival crab in this arena"."""\n'
        "    return [t for there in rivals for t in there]",
        "Smash may target a rival crab in any arena, not only the acting crab's.",
        RT + "test_action_smash.py",
    ),
    fault(
        "swap-same-arena",
        "Swap",
        RAGE + "actions.py",
        "    return [t for a, there in enumerate(rivals) if a != where for t in there]",
        "    return [t for there in rivals for t in there]",
        "Swap may trade places with a rival crab in the same arena.",
        RT + "test_action_swap.py",
    ),
    fault(
        "G2-five-faced-die",
        "G2",
        RAGE + "phases.py",
        "DIE = [(face, 1) for face in range(1, 7)]",
        "DIE = [(face, 1) for face in range(1, 6)]",
        "The die (mutation, roll-offs, spotlight duel) has faces 1 to 5: a 6 can never be rolled.",
        RT + "test_g2_chance_events.py",
    ),
    fault(
        "R5-hardcore-fans-by-arena-letter",
        "R5",
        RAGE + "phases.py",
        "        arenas = arenas_alphabetical(state)  # R5, R17",
        "        arenas = list(range(len(state.arenas)))  # R5, R17",
        "Hardcore fans are shouted out arena A, B, C, not in alphabetical billboard order.",
        RT + "test_r5_arenas_and_billboards.py",
        RT + "test_r17_hardcore_fans_at_the_end.py",
    ),
    fault(
        "R16-two-of-three-roll",
        "R16",
        RAGE + "phases.py",
        "        return start_roll_off(state, -1, units, list(units))  # R16",
        "        return start_roll_off(state, -1, units, units[:2])  # R16",
        "Of three managers tied for the most rage only the first two roll for the microphone.",
        RT + "test_r16_microphone_in_the_rage_phase.py",
    ),
    fault(
        "R19-last-rage-cannot-reroll",
        "R19",
        RAGE + "endgame.py",
        "            if state.players[player].rage > 0:",
        "            if state.players[player].rage > 1:",
        "A duelist with exactly 1 rage is not offered the re-roll it pays for.",
        RT + "test_r19_spotlight_duel.py",
    ),
)


# ----- the runner -----


def stale(f: Fault, root: Path = ROOT) -> str | None:
    """Why the fault cannot be applied to the code under `root` (its text is not there exactly
    once), or None."""
    text = (root / f.file).read_text()
    count = text.count(f.old)
    if count != 1:
        return f"its text occurs {count} times in {f.file}"
    return None


FAILED = re.compile(r"^(FAILED|ERROR) (\S+)", re.MULTILINE)


def run_fault(f: Fault, copy: Path) -> tuple[str, str]:
    """Apply `f` alone to the scratch copy `copy` (holding server/), run its tests, restore.
    Returns (verdict, detail): killed with the failing test, SURVIVED, BROKE (no test ran: the
    fault broke the import or collection), TIMEOUT (counted as killed) or STALE."""
    why = stale(f)
    if why:
        return "STALE", why
    target = copy / f.file
    original = target.read_text()
    target.write_text(original.replace(f.old, f.new))
    try:
        env = {**os.environ, "PYTHONPATH": str(copy / "server"), "PYTHONDONTWRITEBYTECODE": "1"}
        command = [sys.executable, "-m", "pytest", *f.tests, "-x", "-q", "-p", "no:cacheprovider"]
        try:
            done = subprocess.run(
                command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=TIMEOUT
            )
        except subprocess.TimeoutExpired:
            return "killed", f"timeout after {TIMEOUT} s"
    finally:
        target.write_text(original)
    out = done.stdout + done.stderr
    if done.returncode == 0:
        return "SURVIVED", ""
    found = FAILED.search(out)
    if done.returncode == 1 and found and found[1] == "FAILED":
        return "killed", found[2]
    tail = out.strip().splitlines()[-1:] or [f"exit {done.returncode}"]
    return "BROKE", tail[0]


# The faults patch the source, so the copies run it pure: no caches, no compiled build
# (crabgames.compiled would fall back to the source anyway, warning that its build is stale).
PURE_SOURCE = shutil.ignore_patterns("__pycache__", ".compiled")


def scratch_copy(parent: Path, name: str) -> Path:
    copy = parent / name
    shutil.copytree(ROOT / "server", copy / "server", ignore=PURE_SOURCE)
    return copy


def chosen(names: list[str]) -> list[Fault]:
    if not names:
        return list(FAULTS)
    return [f for f in FAULTS if f.id in names or f.rule in names]


def main(argv: list[str]) -> int:
    known = {f.id for f in FAULTS} | {f.rule for f in FAULTS}
    unknown = [name for name in argv if name not in known]
    if unknown:
        print(f"no fault or rule named {', '.join(unknown)}", file=sys.stderr)
        return 2
    faults = chosen(argv)
    start = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="crabgames-rule-faults-") as tmp:
        copies: Queue[Path] = Queue()
        for name in ("a", "b"):
            copies.put(scratch_copy(Path(tmp), name))

        def one(f: Fault) -> tuple[str, str]:
            copy = copies.get()
            try:
                return run_fault(f, copy)
            finally:
                copies.put(copy)

        with ThreadPoolExecutor(max_workers=2) as pool:
            results = list(pool.map(one, faults))
    elapsed = time.monotonic() - start
    width = max(len(f.id) for f in faults)
    rule_width = max(len(f.rule) for f in faults)
    for f, (verdict, detail) in zip(faults, results, strict=True):
        print(f"{f.id:<{width}}  {f.rule:<{rule_width}}  {verdict} {detail}".rstrip())
    counts = {v: sum(1 for r, _ in results if r == v) for v in ("killed", "SURVIVED", "BROKE")}
    counts["STALE"] = sum(1 for r, _ in results if r == "STALE")
    summary = ", ".join(f"{n} {v}" for v, n in counts.items())
    print(f"\n{len(faults)} faults: {summary}; {elapsed:.0f} s")
    return 0 if counts["killed"] == len(faults) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
