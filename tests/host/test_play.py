"""Two people play a whole Kraby game through the game host's HTTP API and event streams, with
the rules service behind it: each seat sees only its own tiles, a closed page rejoins its seat,
a spectator sees no hand, stale moves and moves from the wrong seat are refused. With the
in-process store and with Redis (conftest.py)."""

from __future__ import annotations

import random
import threading

import redis

from crabgames.core.engine import Engine
from crabgames.v1 import game_pb2
from tests.host.web import (
    Stream,
    call,
    human_keys,
    new_table,
    ok,
    play_one,
    refused,
    seat_message,
)

SECRET_EVENTS = ("tileDealt", "tileDrawn")  # Kraby's draws: a colour only its fisher may see


def kraby_draws(message: dict) -> list[dict]:
    """Every tile dealt or drawn in a message's events."""
    found = []
    for change in message["events"]:
        for event in change["events"]:
            kraby = event.get("kraby", {})
            found += [kraby[kind] for kind in SECRET_EVENTS if kind in kraby]
    return found


def test_two_seats_play_a_whole_kraby_game_each_seeing_only_its_own_tiles(host):
    created = new_table(host.port, "kraby", 2, seats=[{"name": "Ann"}, {"name": "Bob"}])
    keys = human_keys(created)
    assert sorted(keys) == [0, 1] and created["seats"][0]["name"] == "Ann"
    assert keys[0] in created["seats"][0]["link"] and "#seat=" in created["seats"][0]["link"]
    streams = {seat: Stream(host.port, f"/api/seats/{key}/events") for seat, key in keys.items()}
    watcher = Stream(host.port, f"/api/tables/{created['table']}/events")
    seen = {seat: [] for seat in keys}
    watched = []
    version, rng = created["version"], random.Random(3)
    try:
        while True:
            messages = {seat: stream.until(version).data for seat, stream in streams.items()}
            watched.append(watcher.until(version).data)
            for seat, message in messages.items():
                seen[seat].append(message)
                assert message["seat"] == seat and message["view"]["player"] == seat
            if messages[0]["status"] == "finished":
                break
            seat = next(s for s, m in messages.items() if m["decides"])
            assert not messages[1 - seat]["decides"]
            move = rng.choice(messages[seat]["view"]["legalMoves"])
            body = {"version": messages[seat]["version"], "move": move}
            version = ok(call(host.port, "POST", f"/api/seats/{keys[seat]}/moves", body))["version"]
    finally:
        for stream in [*streams.values(), watcher]:
            stream.close()
    outcome = seen[0][-1]["view"]["outcome"]
    assert outcome["summary"] and len(outcome["players"]) == 2
    for seat in keys:
        draws = [d for message in seen[seat] for d in kraby_draws(message)]
        assert any(d["player"] == seat and "color" in d for d in draws)  # its own tiles
        assert not any(d["player"] != seat and "color" in d for d in draws)  # nobody else's
    assert not any("color" in d for m in watched for d in kraby_draws(m))
    assert all(not m["view"]["kraby"].get("ownHand") for m in watched)
    assert watched[-1]["status"] == "finished" and watched[-1]["version"] == version


def test_a_seats_stream_does_not_change_when_the_other_seats_tiles_do(host, engine):
    """As tests/test_conformance.py checks views: redraw what seat 0 cannot see (seat 1's hand,
    the bag, the PRNG) in the table's stored state; seat 0's stream is the same bytes, seat 1's
    is not (so the check can fail)."""
    created = new_table(host.port, "kraby", 2)
    keys = human_keys(created)
    rng = random.Random(5)
    for _ in range(9):
        play_one(host.port, keys, rng)
    table = created["table"]
    before = {seat: first_event(host, key).raw for seat, key in keys.items()}
    changed_for_seat_1 = False
    for attempt in range(20):
        redraw_hidden_from(host, engine, table, viewer=0, rng=random.Random(attempt))
        after = {seat: first_event(host, key).raw for seat, key in keys.items()}
        assert after[0] == before[0]
        changed_for_seat_1 |= after[1] != before[1]
        if changed_for_seat_1:
            break
    assert changed_for_seat_1, "seat 1's hand never changed: the check would show nothing"


def first_event(host, key: str):
    host.serving.api.views.cache.clear()  # the views are fetched again from the service
    stream = Stream(host.port, f"/api/seats/{key}/events")
    try:
        return stream.next()
    finally:
        stream.close()


def redraw_hidden_from(host, engine: Engine, table: str, viewer: int, rng: random.Random) -> None:
    """Rewrite the stored state of `table` at the same version: what `viewer` cannot see is
    drawn again (the engine's resample_hidden), the PRNG too."""
    state = game_pb2.GameState.FromString(stored(host, table))
    match = engine.decode(state)
    match.state = match.game.resample_hidden(match.state, viewer, rng)
    match.prng.seed, match.prng.counter = rng.getrandbits(64), rng.getrandbits(20)
    match.seed = match.prng.seed
    rewritten = engine.encode(match)
    assert rewritten.version == state.version
    stored(host, table, rewritten.SerializeToString())


def stored(host, table: str, state: bytes | None = None) -> bytes:
    """The state the host's store holds for `table` (replaced by `state` when given), read
    and written as another process would: Redis through a client of its own."""
    store = host.serving.store
    if store.name == "memory":
        if state is not None:
            store.tables[table].state = state
        return store.tables[table].state
    kwargs = store.client.connection_pool.connection_kwargs
    with redis.Redis(host=kwargs["host"], port=kwargs["port"], db=kwargs.get("db", 0)) as client:
        key = f"crabhost:v1:table:{table}"
        if state is not None:
            client.hset(key, "state", state)
        return client.hget(key, "state")


def test_a_closed_page_rejoins_its_seat_with_what_it_missed(host):
    created = new_table(host.port, "kraby", 2)
    keys = human_keys(created)
    first = Stream(host.port, f"/api/seats/{keys[0]}/events")
    opened = first.next()
    first.close()
    assert opened.kind == "table" and int(opened.ident) == created["version"]
    assert opened.data["events"][0]["seat"] is None  # the set-up, dealt tiles and all
    rng = random.Random(7)
    for _ in range(4):
        play_one(host.port, keys, rng)
    # EventSource sends the last id it got when it reconnects.
    again = Stream(host.port, f"/api/seats/{keys[0]}/events", {"last-event-id": opened.ident})
    rejoined = again.next().data
    again.close()
    now = seat_message(host.port, keys[0])
    assert rejoined["view"] == now["view"] and rejoined["version"] == now["version"]
    missed = [change["version"] for change in rejoined["events"]]
    assert len(missed) == 4 and all(v > created["version"] for v in missed)
    assert missed == [change["version"] for change in now["events"][1:]]
    # The link opened again in a new tab: everything from the set-up.
    fresh = Stream(host.port, f"/api/seats/{keys[0]}/events")
    assert fresh.next().data["events"] == now["events"]
    fresh.close()


def test_a_spectator_sees_no_hand(host):
    created = new_table(host.port, "kraby", 3)
    table = created["table"]
    assert created["spectator"]["link"].endswith(f"#watch={table}")
    watched = ok(call(host.port, "GET", f"/api/tables/{table}"))
    assert watched["seat"] is None and watched["view"]["spectator"] is True
    assert not watched["view"]["kraby"].get("ownHand") and not watched["decides"]
    assert "legalMoves" not in watched["view"]
    draws = kraby_draws(watched)
    assert len(draws) >= 3 and not any("color" in draw for draw in draws)
    assert all(size > 0 for size in watched["view"]["kraby"]["handSizes"])  # hands exist


def test_stale_and_wrong_seat_moves_are_refused_and_change_nothing(host):
    created = new_table(host.port, "kraby", 2)
    keys = human_keys(created)
    table = created["table"]
    rng = random.Random(11)
    illegal_seen = False
    for _ in range(6):
        spectator = ok(call(host.port, "GET", f"/api/tables/{table}"))
        seat, version = spectator["view"]["next"]["player"], spectator["version"]
        mine = seat_message(host.port, keys[seat])
        move = rng.choice(mine["view"]["legalMoves"])
        path = f"/api/seats/{keys[seat]}/moves"
        other = f"/api/seats/{keys[1 - seat]}/moves"
        refused(
            call(host.port, "POST", other, {"version": version, "move": move}), 403, "not_your_turn"
        )
        stale = refused(
            call(host.port, "POST", path, {"version": version - 1, "move": move}),
            409,
            "stale_version",
        )
        assert stale["reason"] == "STALE_STATE" and stale["field"] == "version"
        theirs = {**move, "player": 1 - seat}
        refused(
            call(host.port, "POST", path, {"version": version, "move": theirs}),
            403,
            "not_your_turn",
        )
        assert ok(call(host.port, "GET", f"/api/tables/{table}"))["version"] == version
        answer = ok(call(host.port, "POST", path, {"version": version, "move": move}))
        after = ok(call(host.port, "GET", f"/api/tables/{table}"))
        if after["view"]["next"].get("player") == seat:  # the same seat again: K's turn goes on
            again = call(host.port, "POST", path, {"version": answer["version"], "move": move})
            if again.status == 409:
                illegal = refused(again, 409, "illegal_move")
                assert illegal["reason"] == "ILLEGAL_MOVE" and illegal["rule"]
                illegal_seen = True
    assert illegal_seen, "no move was refused by the rules: the check saw nothing"


def test_the_same_move_twice_at_once_is_applied_once(host):
    """Two requests of one seat at one version, together: one is applied, the other is a stale
    move (the store's compare-and-set), and the log holds one entry for it."""
    created = new_table(host.port, "kraby", 2)
    keys = human_keys(created)
    spectator = ok(call(host.port, "GET", f"/api/tables/{created['table']}"))
    seat = spectator["view"]["next"]["player"]
    message = seat_message(host.port, keys[seat])
    body = {"version": message["version"], "move": message["view"]["legalMoves"][0]}
    answers = []

    def post() -> None:
        answers.append(call(host.port, "POST", f"/api/seats/{keys[seat]}/moves", body))

    threads = [threading.Thread(target=post) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(answer.status for answer in answers) == [200, 409, 409, 409]
    after = ok(call(host.port, "GET", f"/api/tables/{created['table']}"))
    assert len(after["events"]) == 2  # the set-up and the one move
