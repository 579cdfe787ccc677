"""Move labels: the engine builds each encoded move once, keyed by the deciding seat and the
game's move cache key (words.move_keys), so two legal moves with the same key must have the same
label (and id); and a label names a crab of seat 0 by its team's colour."""

from __future__ import annotations

import random
from dataclasses import replace

from crabgames.core.game import CHANCE, NOBODY
from crabgames.games.crab_rage import GAME
from crabgames.games.crab_rage.data import Action, SignatureMove, Team
from crabgames.games.crab_rage.moves import Act
from crabgames.games.crab_rage.setup import default_options, initial_state
from crabgames.games.crab_rage.words import move_keys
from tests.crab_rage.helpers import AOTF, BB, BLUE, GREEN, MM, action_phase, put


def test_equal_move_cache_keys_mean_equal_labels_and_ids():
    seen: dict = {}
    for seed in range(12):
        rng = random.Random(seed)
        players = 3 + seed % 3
        teams = tuple(rng.sample(list(Team), players))  # names differ from game to game
        options = default_options(players, teams)
        signatures = tuple(rng.choice(list(SignatureMove)) for _ in range(players))
        state = initial_state(players, replace(options, signatures=signatures))
        while (decision := GAME.next_decision(state)).kind != NOBODY:
            if decision.kind == CHANCE:
                values = [v for v, _ in GAME.chance_outcomes(state)]
                GAME.apply_chance(state, rng.choice(values))
                continue
            moves = GAME.legal_moves(state)
            for move in moves:
                key = (decision.player, move_keys(state, [move])[0])
                found = (GAME.codec.move_label(state, move), GAME.move_id(state, move))
                assert seen.setdefault(key, found) == found, key
            GAME.apply_move(state, rng.choice(moves))
    assert len(seen) > 1000


def test_a_turn_key_changes_with_every_team_signature_and_billboard_a_label_reads():
    """States that differ only in one seat's team, the acting seat's signature move or the
    billboards: moves whose labels differ must get different keys."""
    rng = random.Random(5)
    for players in (3, 4, 5):
        state = initial_state(players, default_options(players))
        turns = 0
        while (decision := GAME.next_decision(state)).kind != NOBODY and turns < 6:
            if decision.kind == CHANCE:
                GAME.apply_chance(state, rng.choice(GAME.chance_outcomes(state))[0])
                continue
            moves = GAME.legal_moves(state)
            if GAME.next_decision(state).name == "choose_action":
                turns += 1
                seen: dict = {}
                for variant in variants(state, decision.player):
                    for move in GAME.legal_moves(variant):
                        key = move_keys(variant, [move])[0]
                        found = GAME.codec.move_label(variant, move)
                        assert seen.setdefault(key, found) == found, key
            GAME.apply_move(state, rng.choice(moves))


def variants(state, player):
    yield state
    for signature in SignatureMove:
        copy = state.clone()
        copy.players[player].signature = signature
        copy.players[player].signature_used = False
        copy.players[player].rage = max(copy.players[player].rage, 2)
        yield copy
    for seat in range(state.num_players):
        used = {p.team for p in state.players}
        for colour in set(Team) - used:
            copy = state.clone()
            copy.players[seat].team = colour
            yield copy
    boards = [a.billboard for a in state.arenas]
    for shift in range(1, len(boards)):
        copy = state.clone()
        for arena, board in zip(copy.arenas, boards[shift:] + boards[:shift], strict=True):
            arena.billboard = board
        yield copy


def test_the_label_of_a_psych_out_on_seat_0_names_the_target_by_its_colour():
    state = action_phase(4, (MM, AOTF, BB), microphone=GREEN, card=Action.PSYCH_OUT)
    put(state, BLUE, 1, 2, 2)
    put(state, GREEN, 2, 2, 3)
    labels = {
        GAME.codec.move_label(state, m)
        for m in GAME.legal_moves(state)
        if isinstance(m, Act) and m.action == Action.PSYCH_OUT
    }
    assert labels == {"Green: Psych Out with crab 2 on Blue crab 1"}
