"""The host as it is deployed beside the service: several host processes sharing one Redis
(every table served by each, a move made through one seen at once by streams of another, a
race between them won by one), a sealing service with the freshness ledger behind it, and the
`crabgames-host` command (python -m crabclients.host)."""

from __future__ import annotations

import os
import random
import re
import signal
import subprocess
import sys
import threading
import time

from google.protobuf import json_format

from crabclients.client import RulesClient
from crabclients.host.api import Links
from crabgames.v1 import game_pb2
from crabgames.v1 import rules_service_pb2 as api
from tests.host.conftest import running_host
from tests.host.test_play import stored
from tests.host.web import Stream, call, human_keys, new_table, ok, play_one, refused
from tests.test_ledger import ledger_server


def test_hosts_sharing_a_redis_serve_every_table_and_one_wins_a_race(server_address, redis_url):
    with (
        running_host(server_address, redis_url) as one,
        running_host(server_address, redis_url) as other,
    ):
        created = new_table(one.port, "kraby", 2)
        keys = human_keys(created)
        message = ok(call(other.port, "GET", f"/api/tables/{created['table']}"))
        seat = message["view"]["next"]["player"]
        watching = Stream(other.port, f"/api/seats/{keys[1 - seat]}/events")
        assert watching.next().data["version"] == created["version"]
        mine = ok(call(other.port, "GET", f"/api/seats/{keys[seat]}"))
        body = {"version": mine["version"], "move": mine["view"]["legalMoves"][0]}
        answers = []

        def post(port: int) -> None:
            answers.append(call(port, "POST", f"/api/seats/{keys[seat]}/moves", body))

        racers = [threading.Thread(target=post, args=(port,)) for port in (one.port, other.port)]
        started = time.monotonic()
        for racer in racers:
            racer.start()
        for racer in racers:
            racer.join()
        assert sorted(answer.status for answer in answers) == [200, 409]
        moved = next(answer.body for answer in answers if answer.status == 200)
        # The other host's stream hears the move through the store's channel.
        assert watching.until(moved["version"]).data["version"] == moved["version"]
        assert time.monotonic() - started < 5
        watching.close()
        log = ok(call(one.port, "GET", f"/api/tables/{created['table']}"))["events"]
        assert len(log) == 2  # nothing half-applied by the loser


def test_a_sealing_service_with_the_ledger_behind_the_host(redis_url):
    """The host holds sealed states and the seats' player tokens; seats play with their keys."""
    with ledger_server(redis_url) as port, running_host(f"127.0.0.1:{port}", redis_url) as host:
        created = new_table(host.port, "kraby", 2)
        keys, table = human_keys(created), created["table"]
        kept = game_pb2.GameState.FromString(stored(host, table))
        assert kept.sealed and kept.kraby.ByteSize() == 0  # the host cannot read the secrets
        rng = random.Random(8)
        for _ in range(6):
            play_one(host.port, keys, rng)
        message = ok(call(host.port, "GET", f"/api/tables/{table}"))
        seat = message["view"]["next"]["player"]
        mine = ok(call(host.port, "GET", f"/api/seats/{keys[seat]}"))
        move = mine["view"]["legalMoves"][0]
        path = f"/api/seats/{keys[seat]}/moves"
        refused(
            call(host.port, "POST", path, {"version": mine["version"] - 1, "move": move}),
            409,
            "stale_version",
        )
        refused(
            call(
                host.port,
                "POST",
                f"/api/seats/{keys[1 - seat]}/moves",
                {"version": mine["version"], "move": move},
            ),
            403,
            "not_your_turn",
        )
        while play_one(host.port, keys, rng) is not None:
            pass
        final = ok(call(host.port, "GET", f"/api/tables/{table}"))
        assert final["status"] == "finished"
        saved = ok(call(host.port, "POST", f"/api/tables/{table}/records"), 201)
        record = ok(call(host.port, "GET", f"/api/records/{saved['record']}"))
        replay = json_format.ParseDict(record["replay"], api.ReplayRequest())
        with RulesClient.connect(f"127.0.0.1:{port}", timeout=10) as client:
            replayed = client.replay(replay.new_game, replay.moves)
            assert replayed.ok and replayed.moves_applied == saved["moves"]
            again = json_format.MessageToDict(client.view(replayed.state, None))
        assert again == final["view"]
        steps = ok(call(host.port, "GET", f"/api/records/{saved['record']}/steps?as=host"))
        last = steps["steps"][-1]
        assert last["view"] == final["view"]
        for seat_number, key in keys.items():
            own = ok(call(host.port, "GET", f"/api/seats/{key}"))["view"]
            assert last["seats"][seat_number] == own


def host_command(*args: str, env: dict[str, str] | None = None) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "crabclients.host", "--address", "127.0.0.1:0", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "CRABGAMES_LOG_LEVEL": "WARNING", **(env or {})},
    )


def test_the_command_serves_beside_the_service_and_stops_on_sigterm(server_address, redis_url):
    # The rules service's address as every client reads it: CRABGAMES_ADDRESS.
    process = host_command("--redis-url", redis_url, env={"CRABGAMES_ADDRESS": server_address})
    try:
        line = process.stdout.readline()
        assert line.startswith("crabgames-host listening on http://127.0.0.1:"), line
        assert f"rules service {server_address}," in line and f"store {redis_url}," in line
        port = int(line.split()[3].rsplit(":", 1)[1])
        created = new_table(port, "kraby", 2)
        assert created["seats"][0]["link"].startswith(f"http://127.0.0.1:{port}/#seat=")
        assert ok(call(port, "GET", "/api/health"))["store"] == "redis"
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=15) == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


def test_every_flag_names_its_environment_variable():
    shown = subprocess.run(
        [sys.executable, "-m", "crabclients.host", "--help"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    flags = set(re.findall(r"^  (--[a-z-]+)", shown, re.M)) - {"--help"}
    assert len(flags) >= 15
    for flag in flags:
        name = flag.removeprefix("--").replace("-", "_").upper()
        wanted = {"RULES": "CRABGAMES_ADDRESS", "LOG_LEVEL": "CRABGAMES_LOG_LEVEL"}.get(
            name, f"CRABGAMES_HOST_{name}"
        )
        assert wanted in " ".join(shown.split()), f"{flag}'s help does not name {wanted}"


def test_bad_settings_and_an_absent_service_stop_the_command_saying_why():
    bad = host_command("--streams", "none")
    assert bad.wait(timeout=30) == 2 and "--streams must be a int" in bad.stderr.read()
    bad = host_command("--bot", "deep-blue")
    assert bad.wait(timeout=30) == 2 and "--bot must be one of" in bad.stderr.read()
    absent = host_command("--rules", "127.0.0.1:9", "--rules-wait-seconds", "1")
    assert absent.wait(timeout=30) == 1
    assert "no rules server answers at 127.0.0.1:9" in absent.stderr.read()
    for process in (bad, absent):
        process.stdout.close()
        process.stderr.close()


def test_links_name_the_page_and_the_host_when_they_differ():
    same = Links("http://games.example/", "http://games.example")
    assert same.link(seat="t.0.s") == "http://games.example/#seat=t.0.s"
    apart = Links("https://crabs.example/play", "https://host.crabs.example:8443")
    assert apart.link(watch="t") == (
        "https://crabs.example/play#watch=t&host=https%3A%2F%2Fhost.crabs.example%3A8443"
    )


def test_the_page_served_beside_the_api_and_other_origins_only_when_named(server_address, tmp_path):
    (tmp_path / "index.html").write_text("<title>crabs</title>")
    config = {
        "web_root": str(tmp_path),
        "cors_origins": ("http://page.example",),
        "page_url": "http://page.example/play",
        "public_url": "http://host.example:8090",
    }
    with running_host(server_address, config=config) as host:
        page = call(host.port, "GET", "/")
        assert page.status == 200 and b"<title>crabs</title>" in page.raw
        created = new_table(host.port, "kraby", 2)
        assert created["api"] == "http://host.example:8090"
        assert created["seats"][0]["link"].startswith("http://page.example/play#seat=")
        assert created["seats"][0]["link"].endswith("&host=http%3A%2F%2Fhost.example%3A8090")
        asked = {
            "origin": "http://page.example",
            "access-control-request-method": "POST",
            "access-control-request-headers": "content-type",
        }
        allowed = call(host.port, "OPTIONS", "/api/tables", headers=asked)
        assert allowed.status == 200
        assert allowed.headers["access-control-allow-origin"] == "http://page.example"
        stranger = call(
            host.port, "OPTIONS", "/api/tables", headers={**asked, "origin": "http://evil.example"}
        )
        assert stranger.status == 400 and "access-control-allow-origin" not in stranger.headers
        refused(call(host.port, "GET", "/api/unknown"), 404, "not_found")  # not the page's 404
