"""The conformance suite every game runs: random full games to the end with invariants after every
move, every listed move accepted, illegal moves rejected, same seed same game, Replay, and views
that leak nothing (G2, G3, G5, G6)."""

from __future__ import annotations

import importlib
import random

import pytest

from crabgames.core.engine import Engine
from crabgames.core.errors import GameOver, IllegalMove, RulesError
from crabgames.games import all_games
from crabgames.v1 import game_pb2, kraby_pb2
from crabgames.v1 import rules_service_pb2 as api
from tests.playthrough import GAME_OVER, encode, play_random

SERVED = {game.facts.id for game in all_games()}


def cases():
    for game_id in ("kraby", "crab_bucket", "crab_rage"):
        if game_id not in SERVED:
            continue
        module = importlib.import_module(f"tests.cases.{game_id}")
        for num_players, options in module.CASES:
            label = options.__class__.__name__ + "-" + encode(options).hex()[:12]
            yield pytest.param(
                game_id, num_players, options, id=f"{game_id}-{num_players}p-{label}"
            )


CASES = list(cases())
SEEDS = (1, 2)


def native(engine: Engine, state: game_pb2.GameState):
    return engine.decode(state)


@pytest.mark.parametrize(("game_id", "num_players", "options"), CASES)
@pytest.mark.parametrize("seed", SEEDS)
def test_random_games_end_with_invariants_after_every_move(
    engine, game_id, num_players, options, seed
):
    def check(state):
        match = native(engine, state)
        assert match.game.invariant_violations(match.state) == []
        assert encode(engine.encode(match)) == encode(state), "decode/encode is not lossless"

    record = play_random(engine, game_id, num_players, options, seed, after_move=check)
    assert record.outcome is not None and len(record.outcome.players) == num_players
    assert engine.legal_moves(record.states[-1])[0] == []


def unlabelled(move: game_pb2.Move, player: int | None = None) -> game_pb2.Move:
    copy = game_pb2.Move()
    copy.CopyFrom(move)
    copy.label = ""
    if copy.kraby.HasField("place_tile"):  # output only, like the label: where the tile stops
        copy.kraby.place_tile.ClearField("stop")
    if player is not None:
        copy.player = player
    return copy


@pytest.mark.parametrize(("game_id", "num_players", "options"), CASES)
def test_every_listed_move_is_accepted_and_others_rejected(engine, game_id, num_players, options):
    record = play_random(engine, game_id, num_players, options, seed=3)
    seen: list[game_pb2.Move] = []
    rejected = 0
    for state in record.states[:: max(1, len(record.states) // 25)]:
        moves, _ = engine.legal_moves(state)
        for move in moves:
            applied, _, _ = engine.apply_move(state, move)
            assert applied.version > state.version
            unchanged, _, _ = engine.apply_move(state, move, validate_only=True)
            assert encode(unchanged) == encode(state)
        if state.next.kind != game_pb2.DECIDER_KIND_PLAYER:
            continue
        legal = {encode(unlabelled(m)) for m in moves}
        # Moves that were legal somewhere else in the game, offered by the right player here.
        for other in seen:
            candidate = unlabelled(other, state.next.player)
            if encode(candidate) not in legal:
                rejected += 1
                with pytest.raises(IllegalMove):
                    engine.apply_move(state, candidate)
        seen.extend(moves[:5])
    assert rejected > 0


@pytest.mark.parametrize(("game_id", "num_players", "options"), CASES)
def test_a_move_by_the_wrong_player_is_rejected(engine, game_id, num_players, options):
    record = play_random(engine, game_id, num_players, options, seed=4)
    for state, move in zip(record.states, record.moves, strict=False):
        if state.next.kind == game_pb2.DECIDER_KIND_PLAYER:
            wrong = game_pb2.Move()
            wrong.CopyFrom(move)
            wrong.player = (move.player + 1) % num_players
            with pytest.raises(IllegalMove) as error:
                engine.apply_move(state, wrong)
            assert error.value.rule == "G3"
            return
    pytest.fail("no player decision in the whole game")


@pytest.mark.parametrize(("game_id", "num_players", "options"), CASES)
def test_no_move_is_accepted_after_the_end(engine, game_id, num_players, options):
    record = play_random(engine, game_id, num_players, options, seed=5)
    with pytest.raises(GameOver):
        engine.apply_move(record.states[-1], record.moves[-1])


@pytest.mark.parametrize(("game_id", "num_players", "options"), CASES)
def test_same_seed_and_decisions_give_byte_identical_states(engine, game_id, num_players, options):
    first = play_random(engine, game_id, num_players, options, seed=6)
    second = play_random(engine, game_id, num_players, options, seed=6)
    assert [encode(s) for s in first.states] == [encode(s) for s in second.states]
    other_seed = play_random(engine, game_id, num_players, options, seed=7)
    assert [encode(s) for s in other_seed.states] != [encode(s) for s in first.states]


@pytest.mark.parametrize(("game_id", "num_players", "options"), CASES)
def test_replay_reproduces_the_game_and_finds_the_first_illegal_move(
    engine, game_id, num_players, options
):
    record = play_random(engine, game_id, num_players, options, seed=8)
    result = engine.replay(game_id, options, num_players, 8, record.chance_mode, record.moves)
    assert result.ok and result.moves_applied == len(record.moves)
    assert encode(result.state) == encode(record.states[-1])
    assert encode(result.outcome) == encode(record.outcome)
    # Drop one decision: somewhere later a move no longer fits.
    tampered = record.moves[:2] + record.moves[3:]
    result = engine.replay(game_id, options, num_players, 8, record.chance_mode, tampered)
    assert not result.ok and result.failed_move_index >= 2 and result.failed_reason


@pytest.mark.parametrize(("game_id", "num_players", "options"), CASES)
def test_views_do_not_change_when_hidden_information_changes(engine, game_id, num_players, options):
    record = play_random(engine, game_id, num_players, options, seed=9)
    rng = random.Random(9)
    step = max(1, len(record.states) // 20)
    for state in record.states[::step] + record.states[-1:]:
        match = engine.decode(state)
        for viewer in [*range(num_players), None]:
            view = encode(engine.view(state, viewer))
            match.state = match.game.resample_hidden(engine.decode(state).state, viewer, rng)
            match.prng.seed, match.prng.counter = rng.getrandbits(64), rng.getrandbits(20)
            match.seed = match.prng.seed
            assert encode(engine.view(engine.encode(match), viewer)) == view


@pytest.mark.parametrize(("game_id", "num_players", "options"), CASES)
def test_explicit_chance_mode_lists_outcomes_with_probabilities(
    engine, game_id, num_players, options
):
    explicit = game_pb2.CHANCE_MODE_EXPLICIT
    chance_nodes = 0

    def check(state):
        nonlocal chance_nodes
        if state.next.kind == game_pb2.DECIDER_KIND_CHANCE:
            chance_nodes += 1
            moves, _ = engine.legal_moves(state)
            assert all(m.WhichOneof("move") == "chance" for m in moves)
            assert abs(sum(m.chance.probability for m in moves) - 1) < 1e-9

    record = play_random(engine, game_id, num_players, options, 10, explicit, after_move=check)
    assert chance_nodes > 0
    assert record.states[-1].next.kind == GAME_OVER
    result = engine.replay(game_id, options, num_players, 10, explicit, record.moves)
    assert result.ok and encode(result.state) == encode(record.states[-1])


@pytest.mark.parametrize(("game_id", "num_players", "options"), CASES)
def test_move_ids_are_stable_and_the_mask_matches_the_legal_moves(
    engine, game_id, num_players, options
):
    record = play_random(engine, game_id, num_players, options, seed=11)
    for state in record.states[:: max(1, len(record.states) // 30)]:
        answer = api.LegalMovesResponse.FromString(
            engine.legal_moves_response_bytes(state, with_mask=True)
        )
        moves, next_decision = list(answer.moves), answer.next
        size, mask = answer.move_id_count, list(answer.legal_mask)
        if next_decision.kind != game_pb2.DECIDER_KIND_PLAYER:
            continue
        ids = [m.move_id for m in moves]
        assert len(set(ids)) == len(ids), "two legal moves share an id"
        assert all(0 <= i < size for i in ids)
        assert [i for i, legal in enumerate(mask) if legal] == sorted(ids)


@pytest.mark.parametrize(("game_id", "num_players", "options"), CASES)
def test_a_state_sampled_from_a_view_agrees_with_the_view_and_plays_on(
    engine, game_id, num_players, options
):
    record = play_random(engine, game_id, num_players, options, seed=12)
    for state in record.states[:: max(1, len(record.states) // 10)]:
        if state.next.kind == GAME_OVER:
            continue
        for player in range(num_players):
            view = engine.view(state, player)
            sampled = engine.sample_state(view, seed=player + 1)
            assert encode(engine.view(sampled, player)) == encode(view)
            moves, _ = engine.legal_moves(sampled)
            if sampled.next.kind == game_pb2.DECIDER_KIND_PLAYER:
                engine.apply_move(sampled, moves[0])


@pytest.mark.parametrize(("game_id", "num_players", "options"), CASES)
def test_the_events_a_seat_sees_tell_no_more_than_its_views(engine, game_id, num_players, options):
    """Apply the same decision to the real state and to one whose hidden information (from that
    seat) was redrawn: when the seat's views before and after agree, so must its events (G5)."""
    explicit = game_pb2.CHANCE_MODE_EXPLICIT
    record = play_random(engine, game_id, num_players, options, seed=13, chance_mode=explicit)
    rng = random.Random(13)
    compared = 0
    step = max(1, len(record.moves) // 40)
    for state, move in list(zip(record.states, record.moves, strict=False))[::step]:
        after, happened, _ = engine.apply_move(state, move)
        for seat in [*range(num_players), None]:
            match = engine.decode(state)
            match.state = match.game.resample_hidden(match.state, seat, rng)
            other = engine.encode(match)
            try:
                other_after, other_happened, _ = engine.apply_move(other, move)
            except RulesError:
                continue  # the decision needed information this seat does not have
            if encode(engine.view(other_after, seat)) != encode(engine.view(after, seat)):
                continue  # the decision revealed something: the views themselves differ
            pick_events = (
                (lambda h: h.public_events)
                if seat is None
                else (lambda h, s=seat: h.seat_events[s])
            )
            assert [encode(e) for e in pick_events(other_happened)] == [
                encode(e) for e in pick_events(happened)
            ], f"seat {seat} learns hidden information from the events of {move.label!r}"
            compared += 1
    assert compared > 0


@pytest.mark.parametrize(("game_id", "num_players", "options"), CASES)
def test_a_hidden_draw_looks_the_same_whatever_was_drawn(engine, game_id, num_players, options):
    """At a chance node whose outcome some seats must not see (another player's draw), every
    outcome leaves those seats' views and events, and the spectator's, exactly the same (G5)."""
    explicit = game_pb2.CHANCE_MODE_EXPLICIT
    record = play_random(engine, game_id, num_players, options, seed=14, chance_mode=explicit)
    compared = 0
    for state in record.states:
        if state.next.kind != game_pb2.DECIDER_KIND_CHANCE:
            continue
        match = engine.decode(state)
        hidden_from = set(match.game.chance_hidden_from(match.state))
        if not hidden_from or compared > 200:
            continue
        outcomes, _ = engine.legal_moves(state)
        results = [engine.apply_move(state, o) for o in outcomes[:6]]
        for seat in [*sorted(hidden_from), None]:
            seen = {
                (
                    encode(engine.view(after, seat)),
                    tuple(
                        encode(e)
                        for e in (h.public_events if seat is None else h.seat_events[seat])
                    ),
                )
                for after, h, _ in results
            }
            assert len(seen) == 1, f"seat {seat} can tell what was drawn at {state.next}"
            compared += 1
    if game_id != "crab_rage":  # every CRAB RAGE! chance event is public
        assert compared > 0


@pytest.mark.parametrize(("game_id", "num_players", "options"), CASES)
def test_a_secret_decision_looks_the_same_whatever_was_decided(
    engine, game_id, num_players, options
):
    """A decision other seats must not see (a secret commitment, G4) leaves their views and
    events, and the spectator's, exactly the same whichever legal choice was made."""
    record = play_random(engine, game_id, num_players, options, seed=15)
    compared = 0
    for state in record.states:
        if state.next.kind != game_pb2.DECIDER_KIND_PLAYER:
            continue
        match = engine.decode(state)
        hidden_from = set(match.game.decision_hidden_from(match.state))
        if not hidden_from:
            continue
        moves, _ = engine.legal_moves(state)
        results = [engine.apply_move(state, m) for m in moves[:12]]
        for seat in [*sorted(hidden_from), None]:
            assert len({seen_by(engine, seat, after, h) for after, h, _ in results}) == 1, (
                f"seat {seat} can tell what was decided at {state.next}"
            )
            compared += 1
    if engine.games[game_id].facts.has_simultaneous_choices:
        assert compared > 0, "no secret decision was checked"


def seen_by(engine, seat, state, happened) -> tuple[bytes, ...]:
    events = happened.public_events if seat is None else happened.seat_events[seat]
    return (encode(engine.view(state, seat)), *(encode(e) for e in events))


def test_kraby_draws_are_seen_by_the_drawer_only(engine):
    state, happened = engine.new_game("kraby", kraby_pb2.KrabyOptions(), 2, seed=3)
    assert happened.events[0].kraby.tile_dealt.color != 0
    assert happened.seat_events[0][0] == happened.events[0]
    assert happened.seat_events[1][0].kraby.tile_dealt.color == 0
    assert happened.public_events[0].text == "player 0 is dealt a tile"
