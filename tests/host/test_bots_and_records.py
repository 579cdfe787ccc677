"""Bots in the empty chairs of a CRAB RAGE! table play it to its end beside two people; a
finished game's record replays through the service's Replay to the same final state, and its
steps show each move as the host saw it and as each seat saw it; a running game's record keeps
its seed and moves secret until the end."""

from __future__ import annotations

import random

from google.protobuf import json_format

from crabclients.client import RulesClient
from crabgames.v1 import rules_service_pb2 as api
from tests.host.test_play import stored
from tests.host.web import Stream, call, human_keys, new_table, ok, play_one, refused

BOT_SEATS = [{"name": "Ann"}, {"name": "Bob"}, {"bot": "lookahead"}]  # seat 3: an empty chair


def test_bots_fill_the_empty_chairs_of_a_crab_rage_table_that_reaches_its_end(host):
    created = new_table(host.port, "crab_rage", 4, seats=BOT_SEATS)
    bots = [seat["bot"] for seat in created["seats"]]
    assert bots == [None, None, "lookahead", "random"]  # the host's --bot in the empty chair
    assert [seat["key"] is None for seat in created["seats"]] == [False, False, True, True]
    keys = human_keys(created)
    watcher = Stream(host.port, f"/api/tables/{created['table']}/events")
    rng, played = random.Random(2), 0
    try:
        while True:
            message = watcher.next().data
            if message["status"] == "finished":
                break
            seat = message["view"]["next"]["player"]
            if seat in keys:
                mine = ok(call(host.port, "GET", f"/api/seats/{keys[seat]}"))
                if mine["version"] == message["version"]:
                    move = rng.choice(mine["view"]["legalMoves"])
                    body = {"version": mine["version"], "move": move}
                    ok(call(host.port, "POST", f"/api/seats/{keys[seat]}/moves", body))
                    played += 1
    finally:
        watcher.close()
    assert message["view"]["outcome"]["summary"] and played > 0
    log = ok(call(host.port, "GET", f"/api/tables/{created['table']}"))["events"]
    movers = {change["seat"] for change in log[1:]}
    assert {2, 3} <= movers  # both bots moved


def finished_game(port: int, seed: int) -> tuple[dict, dict[int, str]]:
    created = new_table(port, "kraby", 2)
    keys = human_keys(created)
    rng = random.Random(seed)
    while play_one(port, keys, rng) is not None:
        pass
    return created, keys


def test_a_record_replays_to_the_same_final_state(host, server_address):
    created, keys = finished_game(host.port, 4)
    table = created["table"]
    saved = ok(call(host.port, "POST", f"/api/tables/{table}/records"), 201)
    assert saved["finished"] and saved["moves"] > 10 and saved["table"] == table
    record = ok(call(host.port, "GET", f"/api/records/{saved['record']}"))
    replay = json_format.ParseDict(record["replay"], api.ReplayRequest())
    assert len(replay.moves) == saved["moves"] and replay.new_game.seed != 0
    with RulesClient.connect(server_address, timeout=10) as client:
        replayed = client.replay(replay.new_game, replay.moves)
    assert replayed.ok and replayed.moves_applied == saved["moves"]
    assert replayed.state.SerializeToString() == stored(host, table)
    final = ok(call(host.port, "GET", f"/api/tables/{table}"))
    assert json_format.MessageToDict(replayed.outcome) == final["view"]["outcome"]

    steps = ok(call(host.port, "GET", f"/api/records/{saved['record']}/steps?as=host"))["steps"]
    assert len(steps) == saved["moves"] + 1 and all("move" in step for step in steps[1:])
    assert steps[-1]["view"] == final["view"] and steps[-1]["version"] == final["version"]
    for seat, key in keys.items():
        assert steps[-1]["seats"][seat] == ok(call(host.port, "GET", f"/api/seats/{key}"))["view"]
    mine = ok(call(host.port, "GET", f"/api/records/{saved['record']}/steps?as=1"))["steps"]
    assert [step["view"]["player"] for step in mine] == [1] * len(steps)
    own = [step for step in mine if "move" in step]
    assert own and all(step["move"]["player"] == 1 for step in own)
    assert len(own) < saved["moves"]  # seat 0's moves are not shown as moves to seat 1


def test_a_running_games_record_keeps_its_secrets_until_the_end(host):
    created = new_table(host.port, "kraby", 2)
    keys = human_keys(created)
    table, rng = created["table"], random.Random(6)
    for _ in range(5):
        play_one(host.port, keys, rng)
    saved = ok(call(host.port, "POST", f"/api/tables/{table}/records"), 201)
    assert not saved["finished"] and saved["moves"] == 5
    path = f"/api/records/{saved['record']}"
    refused(call(host.port, "GET", path), 403, "secret_until_the_end")
    refused(call(host.port, "GET", f"{path}/steps?as=host"), 403, "secret_until_the_end")
    refused(call(host.port, "GET", f"{path}/steps?as=0"), 403, "bad_key")
    refused(call(host.port, "GET", f"{path}/steps?as=0&key={keys[1]}"), 403, "secret_until_the_end")
    watched = ok(call(host.port, "GET", f"{path}/steps"))
    assert watched["as"] == "spectator" and len(watched["steps"]) == 6
    assert not any(
        "move" in step or step["view"]["kraby"].get("ownHand") for step in watched["steps"]
    )
    seat0 = ok(call(host.port, "GET", f"{path}/steps?as=0&key={keys[0]}"))["steps"]
    assert seat0[-1]["view"] == ok(call(host.port, "GET", f"/api/seats/{keys[0]}"))["view"]
    for _ in range(15):  # RECORDS_PER_TABLE in all
        ok(call(host.port, "POST", f"/api/tables/{table}/records"), 201)
    refused(call(host.port, "POST", f"/api/tables/{table}/records"), 409, "too_many_records")
    while play_one(host.port, keys, rng) is not None:
        pass
    record = ok(call(host.port, "GET", path))  # the game is over: the seed may be told
    assert record["moves"] == 5 and "seed" in record["replay"]["newGame"]
