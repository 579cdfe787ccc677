"""Metrics and the access log through real servers on loopback: scraped over HTTP from the
metrics port, read from the `crabgames.access` logger, and from a `crabgames-server` process
with --workers 2 (one metrics port per worker). Also reflection v1 (buf curl) and the client's
channel (the service config shipped in crabclients, the same as deploy/'s)."""

from __future__ import annotations

import json
import logging
import os
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path

import grpc
import pytest
from prometheus_client.parser import text_string_to_metric_families

from crabclients.client import SERVICE_CONFIG, RulesClient, channel_options
from crabgames.service import metrics
from crabgames.service.server import Observing, serve
from crabgames.v1 import game_pb2, kraby_pb2
from crabgames.v1 import rules_service_pb2 as api
from crabgames.v1 import rules_service_pb2_grpc as api_grpc

ROOT = Path(__file__).resolve().parents[1]
ACCESS_FIELDS = {"time", "method", "game", "code", "duration_ms", "peer"}

Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]


def scrape_until(port: int, condition: Callable[[Samples], bool], seconds: float = 3.0) -> Samples:
    """Scrape until `condition` holds (a call is counted just after its caller has the status),
    at most `seconds`; the last scrape either way."""
    deadline = time.monotonic() + seconds
    samples = scrape(port)
    while not condition(samples) and time.monotonic() < deadline:
        time.sleep(0.02)
        samples = scrape(port)
    return samples


def scrape(port: int) -> Samples:
    """Every sample on the metrics port, by name and sorted labels."""
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as answer:
        assert answer.status == 200
        assert answer.headers["Content-Type"].startswith("text/plain")
        text = answer.read().decode()
    samples: Samples = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            samples[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return samples


def calls(samples: Samples, method: str, game: str, code: str = "OK") -> float:
    labels = (("code", code), ("game", game), ("method", method))
    return samples.get(("crabgames_rpc_calls_total", labels), 0.0)


def duration_count(samples: Samples, method: str, game: str) -> float:
    labels = (("game", game), ("method", method))
    return samples.get(("crabgames_rpc_duration_seconds_count", labels), 0.0)


class Lines(logging.Handler):
    """The access log's lines, as a test reads them."""

    def __init__(self) -> None:
        super().__init__()
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(record.getMessage())

    def parsed(self) -> list[dict]:
        return [json.loads(line) for line in self.lines]


@pytest.fixture
def access_lines() -> Iterator[Lines]:
    handler = Lines()
    metrics.access_log.addHandler(handler)
    try:
        yield handler
    finally:
        metrics.access_log.removeHandler(handler)


@pytest.fixture
def observed_server():
    running = serve(
        "127.0.0.1:0", observing=Observing(metrics_address="127.0.0.1:0", access_log=True)
    )
    try:
        yield running
    finally:
        running.stop(0)


def play_a_little(client: RulesClient) -> None:
    """Calls of every kind for the metrics to count: each game started, legal moves and a move
    (with its state left as bytes), a refused move, a view, a replay, a stream and ListGames."""
    client.list_games()
    for game, players in (("kraby", 2), ("crab_bucket", 2), ("crab_rage", 3)):
        state = client.new_game(game, num_players=players, seed=5).state
        moves = client.legal_moves(state)
        client.apply_move(state, moves[0])
        client.view(state, player=0)
    kraby = client.new_game("kraby", num_players=2, seed=5).state
    with pytest.raises(Exception, match="INVALID_ARGUMENT"):
        client.apply_move(kraby, game_pb2.Move(player=0))  # no move chosen
    record = api.NewGameRequest(num_players=2, seed=5, kraby=kraby_pb2.KrabyOptions())
    client.replay(record, [])
    stream = client.stub.ApplyMoves(
        iter(
            [
                api.ApplyMovesRequest(request=api.ApplyMoveRequest(state=kraby, move=m))
                for m in client.legal_moves(kraby)[:1]
            ]
        )
    )
    assert len(list(stream)) == 1


def test_calls_codes_latency_in_flight_and_caches_are_scraped(observed_server, access_lines):
    port = observed_server.port
    with RulesClient.connect(f"127.0.0.1:{port}", timeout=5) as client:
        play_a_little(client)
    samples = scrape_until(
        observed_server.metrics_port,
        lambda s: calls(s, "ApplyMoves", "kraby") == 1 and calls(s, "Replay", "kraby") == 1,
    )
    assert calls(samples, "ListGames", "none") == 1
    for game in ("kraby", "crab_bucket", "crab_rage"):
        for method in ("LegalMoves", "ApplyMove", "GetView"):
            expected = 2 if (method, game) == ("LegalMoves", "kraby") else 1  # and the stream's
            assert calls(samples, method, game) == expected, (method, game)
    assert calls(samples, "NewGame", "kraby") == 2
    assert calls(samples, "ApplyMove", "kraby", "INVALID_ARGUMENT") == 1
    assert calls(samples, "Replay", "kraby") == 1
    assert calls(samples, "ApplyMoves", "kraby") == 1
    assert duration_count(samples, "ApplyMove", "kraby") == 2  # the refused one too
    bucket = (
        "crabgames_rpc_duration_seconds_bucket",
        (("game", "none"), ("le", "+Inf"), ("method", "ListGames")),
    )
    assert samples[bucket] == 1
    assert samples[("crabgames_rpc_in_flight", ())] == 0
    for cache in ("decoded_states", "remembered"):
        assert samples[("crabgames_cache_bytes", (("cache", cache),))] > 0
        assert samples[("crabgames_cache_entries", (("cache", cache),))] > 0
    assert ("crabgames_cache_bytes", (("cache", "options"),)) in samples
    assert samples[("process_resident_memory_bytes", ())] > 0
    # Health and reflection are not rules calls.
    assert not any(
        name == "crabgames_rpc_calls_total" and ("method", "Check") in labels
        for name, labels in samples
    )


def test_each_call_gets_one_json_access_line_without_states_moves_or_tokens(
    observed_server, access_lines, monkeypatch
):
    with RulesClient.connect(f"127.0.0.1:{observed_server.port}", timeout=5) as client:
        play_a_little(client)
    # ListGames, 3 x (NewGame, LegalMoves, ApplyMove, GetView), NewGame and the refused
    # ApplyMove, Replay, LegalMoves and ApplyMoves. A call is logged just after its caller has
    # the status: wait a moment for the last.
    expected = 1 + 12 + 2 + 1 + 2
    deadline = time.monotonic() + 3
    while len(access_lines.parsed()) < expected and time.monotonic() < deadline:
        time.sleep(0.02)
    lines = access_lines.parsed()
    assert len(lines) == expected
    for line in lines:
        assert set(line) - {"messages"} == ACCESS_FIELDS
        assert line["peer"].startswith("ipv4:127.0.0.1:")
        assert line["duration_ms"] >= 0
    refused = [line for line in lines if line["code"] != "OK"]
    assert [(r["method"], r["game"], r["code"]) for r in refused] == [
        ("ApplyMove", "kraby", "INVALID_ARGUMENT")
    ]
    stream = [line for line in lines if line["method"] == "ApplyMoves"]
    assert stream[0]["messages"] == 1 and stream[0]["game"] == "kraby"
    text = "\n".join(access_lines.lines)
    assert "state" not in text and 'move"' not in text and "token" not in text


def test_sealed_states_are_counted_by_game_and_tokens_never_logged(access_lines, monkeypatch):
    monkeypatch.setenv("CRABGAMES_SEAL_KEYS", "k1:" + "A" * 43 + "=")
    running = serve(
        "127.0.0.1:0", observing=Observing(metrics_address="127.0.0.1:0", access_log=True)
    )
    try:
        with RulesClient.connect(f"127.0.0.1:{running.port}", timeout=5) as client:
            started = client.new_game("kraby", num_players=2)
            token = started.player_tokens[started.state.next.player]
            moves = client.legal_moves(started.state, player_token=token)
            client.apply_move(started.state, moves[0], player_token=token)
        samples = scrape_until(running.metrics_port, lambda s: calls(s, "ApplyMove", "kraby") == 1)
        for method in ("NewGame", "LegalMoves", "ApplyMove"):
            assert calls(samples, method, "kraby") == 1, method
        assert token not in "\n".join(access_lines.lines)
    finally:
        running.stop(0)


def test_a_game_label_comes_from_a_fixed_table_never_from_the_request(observed_server):
    channel = grpc.insecure_channel(f"127.0.0.1:{observed_server.port}")
    stub = api_grpc.RulesServiceStub(channel)
    for version in ("evil-1", "x" * 100):
        state = game_pb2.GameState(rules_version=version, num_players=2)
        with pytest.raises(grpc.RpcError):
            stub.LegalMoves(api.LegalMovesRequest(state=state), timeout=5)
    channel.close()
    samples = scrape_until(
        observed_server.metrics_port,
        lambda s: calls(s, "LegalMoves", "none", "INVALID_ARGUMENT") == 2,
    )
    games = {
        dict(labels).get("game") for name, labels in samples if name == "crabgames_rpc_calls_total"
    }
    assert games == {"none"}
    assert calls(samples, "LegalMoves", "none", "INVALID_ARGUMENT") == 2


def test_a_long_call_in_flight_is_seen_while_it_runs(observed_server):
    channel = grpc.insecure_channel(f"127.0.0.1:{observed_server.port}")
    stub = api_grpc.RulesServiceStub(channel)
    state = stub.NewGame(api.NewGameRequest(num_players=5, seed=3, crab_rage={}), timeout=5).state
    worker = threading.Thread(
        target=lambda: stub.Playouts(
            api.PlayoutsRequest(state=state, count=10000, seed=1), timeout=30
        )
    )
    worker.start()
    seen = 0.0
    deadline = time.monotonic() + 5
    while worker.is_alive() and time.monotonic() < deadline and not seen:
        samples = scrape(observed_server.metrics_port)
        seen = samples[("crabgames_long_calls_in_flight", ())]
        assert samples[("crabgames_rpc_in_flight", ())] >= seen
    worker.join()
    channel.close()
    assert seen == 1
    assert calls(scrape(observed_server.metrics_port), "Playouts", "crab_rage") == 1


def test_a_suggested_move_is_counted_under_its_game_from_a_view_or_a_state(observed_server):
    channel = grpc.insecure_channel(f"127.0.0.1:{observed_server.port}")
    stub = api_grpc.RulesServiceStub(channel)
    state = stub.NewGame(api.NewGameRequest(num_players=2, seed=3, kraby={}), timeout=5).state
    before = calls(scrape(observed_server.metrics_port), "SuggestMove", "kraby")
    view = stub.GetView(api.GetViewRequest(state=state, player=state.next.player), timeout=5).view
    for request in (
        api.SuggestMoveRequest(view=view, max_simulations=5),
        api.SuggestMoveRequest(state=state, max_simulations=5),
    ):
        stub.SuggestMove(request, timeout=10)
    channel.close()
    assert calls(scrape(observed_server.metrics_port), "SuggestMove", "kraby") == before + 2


def test_metrics_and_access_log_are_off_by_default(access_lines):
    running = serve("127.0.0.1:0")
    try:
        assert running.metrics_port is None and running.edge.observer is None
        with RulesClient.connect(f"127.0.0.1:{running.port}", timeout=5) as client:
            client.list_games()
        assert access_lines.lines == []
    finally:
        running.stop(0)


def two_free_ports() -> int:
    """A port P with P and P + 1 free on loopback (for two workers' metrics)."""
    for _ in range(50):
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        try:
            with socket.socket() as other:
                other.bind(("127.0.0.1", port + 1))
            return port
        except OSError:
            continue
    raise AssertionError("no two free consecutive ports")


def test_two_workers_serve_their_metrics_on_port_and_port_plus_one_and_log_every_call():
    port = two_free_ports()
    process = subprocess.Popen(
        [sys.executable, "-m", "crabgames.service", "--address", "127.0.0.1:0", "--workers", "2"]
        + ["--metrics-address", f"127.0.0.1:{port}"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "CRABGAMES_LOG_LEVEL": "WARNING", "CRABGAMES_ACCESS_LOG": "1"},
    )
    try:
        line = process.stdout.readline()
        assert "listening on" in line, line
        address = line.split()[-1]
        # Separate connections, so that the kernel may hand them to either worker.
        for _ in range(8):
            options = [("grpc.use_local_subchannel_pool", 1)]
            with RulesClient.connect(address, timeout=5, options=options) as client:
                client.list_games()
        per_worker = [calls(scrape(p), "ListGames", "none") for p in (port, port + 1)]
        assert sum(per_worker) == 8
    finally:
        process.terminate()
        _, stderr = process.communicate(timeout=30)
    assert process.returncode == 0
    logged = [json.loads(line) for line in stderr.splitlines() if line.startswith("{")]
    assert [line["method"] for line in logged] == ["ListGames"] * 8


def test_reflection_v1_lists_the_methods_for_buf_curl(server_address):
    buf = ROOT / ".venv" / "bin" / "buf"
    assert buf.exists(), "buf comes with the dev extras"
    base = [str(buf), "curl", "--protocol", "grpc", "--http2-prior-knowledge"]
    for protocol in ("grpc-v1", "grpc-v1alpha"):
        done = subprocess.run(
            [*base, "--reflect-protocol", protocol, "--list-methods", f"http://{server_address}"],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 0, done.stderr
        methods = done.stdout.split()
        assert "crabgames.v1.RulesService/ApplyMove" in methods
        assert "grpc.health.v1.Health/Check" in methods
        assert "grpc.reflection.v1.ServerReflection/ServerReflectionInfo" in methods
    done = subprocess.run(
        [*base, f"http://{server_address}/crabgames.v1.RulesService/ListGames"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert len(json.loads(done.stdout)["games"]) == 3


def test_the_client_ships_the_deploy_service_config_and_opens_channels_with_it():
    assert (ROOT / "deploy" / "service_config.json").read_text() == SERVICE_CONFIG
    config = json.loads(SERVICE_CONFIG)
    assert config["methodConfig"][0]["retryPolicy"]["retryableStatusCodes"] == ["UNAVAILABLE"]
    options = dict(channel_options())
    assert options["grpc.service_config"] == SERVICE_CONFIG
    assert options["grpc.enable_retries"] == 1
    assert options["grpc.keepalive_time_ms"] == 60_000
    node = (ROOT / "clients" / "node" / "play_kraby.js").read_text()
    assert '"deploy", "service_config.json"' in node and "grpc.keepalive_time_ms" in node
