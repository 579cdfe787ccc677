"""The well-behaved Connect client of bench/attack.py: 3-player Kraby games over HTTP/1.1 to
the HTTP port (Connect, binary), every call with a 2 s deadline (Connect-Timeout-Ms, and the
socket's timeout), a new connection for each game as a new visitor's page would open, from
127.0.0.1 like the well-behaved gRPC client."""

from __future__ import annotations

import http.client
import json
import random
import time

from bench.attack_kinds import Tally, asdict_tally
from bench.attack_wire import HOST, SERVICE, connect_code_name

CLIENT_DEADLINE = 2.0
HEADERS = {
    "Content-Type": "application/proto",
    "Connect-Protocol-Version": "1",
    "Connect-Timeout-Ms": str(int(CLIENT_DEADLINE * 1000)),
}
READY_SECONDS = 30.0


class Failed(Exception):
    """A call that did not answer OK: its code (gRPC's names, or what HTTP said)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(code, message)
        self.code, self.message = code, message


class ConnectCaller:
    """Calls on one HTTP/1.1 connection, each tallied with its latency."""

    def __init__(self, port: int, tally: Tally) -> None:
        self.port, self.tally = port, tally
        self.connection = http.client.HTTPConnection(
            HOST, port, timeout=CLIENT_DEADLINE + 0.5, source_address=(HOST, 0)
        )

    def call(self, method: str, request, response_class):
        start = time.perf_counter()
        try:
            answer = self.post(method, request.SerializeToString())
        except Failed as failure:
            self.failed(method, failure, time.perf_counter() - start)
            raise
        self.tally.saw("OK", time.perf_counter() - start)
        return response_class.FromString(answer)

    def post(self, method: str, body: bytes) -> bytes:
        try:
            self.connection.request("POST", SERVICE + method, body, HEADERS)
            response = self.connection.getresponse()
            data = response.read()
        except TimeoutError:
            raise Failed("DEADLINE_EXCEEDED (client)", "no answer within the deadline") from None
        except (OSError, http.client.HTTPException) as error:
            raise Failed(f"connection failed: {type(error).__name__}", str(error)) from None
        if response.status == 200:
            return data
        raise Failed(*connect_error(response.status, data))

    def failed(self, method: str, failure: Failed, seconds: float) -> None:
        self.tally.saw(failure.code, seconds)
        if "not in the freshness ledger" in failure.message:
            self.tally.detail["ABORTED not in the freshness ledger"] += 1
        if len(self.tally.failures) < 20:
            self.tally.failures.append(f"{method}: {failure.code} {failure.message}"[:300])

    def close(self) -> None:
        self.connection.close()


def connect_error(status: int, data: bytes) -> tuple[str, str]:
    try:
        error = json.loads(data)
        return connect_code_name(error["code"]), str(error.get("message", ""))
    except (ValueError, KeyError, TypeError):
        return f"HTTP {status}", data[:200].decode("latin-1")


def play_game(caller: ConnectCaller, rng: random.Random, options, stop_at: float) -> bool:
    """One 3-player Kraby game to its end (or to stop_at); whether it ended."""
    from crabgames.v1 import game_pb2
    from crabgames.v1 import rules_service_pb2 as api
    from tests.playthrough import pick

    started = caller.call(
        "NewGame", api.NewGameRequest(num_players=3, kraby=options), api.NewGameResponse
    )
    state, tokens = started.state, list(started.player_tokens)
    while state.next.kind != game_pb2.DECIDER_KIND_NONE and time.monotonic() < stop_at:
        token = tokens[state.next.player] if tokens else ""
        legal = caller.call(
            "LegalMoves",
            api.LegalMovesRequest(state=state, player_token=token),
            api.LegalMovesResponse,
        )
        request = api.ApplyMoveRequest(
            state=state,
            move=pick(rng, list(legal.moves)),
            player_token=token,
            expected_version=state.version,
        )
        state = caller.call("ApplyMove", request, api.ApplyMoveResponse).state
    return state.next.kind == game_pb2.DECIDER_KIND_NONE


def wait_ready(port: int) -> None:
    """The HTTP port answers ListGames (the server has just started)."""
    from crabgames.v1 import rules_service_pb2 as api

    deadline = time.monotonic() + READY_SECONDS
    while True:
        caller = ConnectCaller(port, Tally())
        try:
            caller.call("ListGames", api.ListGamesRequest(), api.ListGamesResponse)
            return
        except Failed:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)
        finally:
            caller.close()


def play_connect(port: int, seconds: float, go, results) -> Tally:
    from crabgames.v1 import kraby_pb2

    wait_ready(port)
    results.put(("ready", None))
    go.wait()
    tally = Tally(cpu_at_start=time.process_time())
    rng = random.Random(27)
    stop_at = time.monotonic() + seconds
    for _ in range(100_000):  # bounded: a game is at least a few calls
        if time.monotonic() >= stop_at:
            break
        caller = ConnectCaller(port, tally)
        try:
            if play_game(caller, rng, kraby_pb2.KrabyOptions(), stop_at):
                tally.games["kraby"] += 1
        except Failed:
            time.sleep(0.01)  # a failed call ends the game; the next starts on a new connection
        finally:
            caller.close()
    return tally


def connect_client_process(port: int, seconds: float, go, results) -> None:
    try:
        tally = play_connect(port, seconds, go, results)
        results.put(("connect", asdict_tally(tally)))
        results.put(("connect_cpu_seconds", round(time.process_time() - tally.cpu_at_start, 1)))
    except BaseException as error:  # noqa: BLE001 (reported, so the campaign is not silent)
        results.put(("connect-error", repr(error)))
