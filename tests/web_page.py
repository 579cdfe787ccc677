"""Driving the web page (clients/web) in Debian's chromium with Playwright, against a real
server started here on free loopback ports: shared by tests/test_web_page.py and `make bench`.

`play_game` plays a whole game through the page the way a person would: it picks the seats in
the set-up form, clicks a piece on the board that takes the move further (a cell's entry, a
pile, a crab, ...; the move list only when what is left is chosen there), passes the device at
each hot-seat handover, and after every step checks that the page draws what GetView returns
for the state the page holds (with that seat's token when the server seals)."""

from __future__ import annotations

import base64
import contextlib
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import grpc

from crabgames.v1 import crab_rage_pb2 as rage_pb2
from crabgames.v1 import game_pb2, kraby_pb2
from crabgames.v1 import rules_service_pb2 as api
from crabgames.v1.rules_service_pb2_grpc import RulesServiceStub

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "clients" / "web" / "dist" / "index.html"
# Screenshots and timings of the last run (not committed: .gitignore).
RESULTS = ROOT / "clients" / "web" / "test-results"
SEAL_KEYS = "web1:" + base64.b64encode(bytes(range(32))).decode()
# The page waits for a person (or is over), checked every frame: cheap, as it runs in the
# page's own thread while clicks are timed.
SETTLED = (
    "() => { const s = document.getElementById('status').dataset.status;"
    " return ['your-turn', 'handover', 'over', 'error'].includes(s)"
    " && !(window.crabgames && window.crabgames.busy()); }"
)


def chromium() -> str:
    """Debian's chromium (Playwright's own browser download is not used)."""
    path = shutil.which("chromium") or "/usr/bin/chromium"
    if not os.access(path, os.X_OK):
        raise RuntimeError("chromium is missing: apt-get install chromium (.ci/run does)")
    return path


@dataclass
class Server:
    grpc_address: str
    http_url: str
    stub: RulesServiceStub


@contextlib.contextmanager
def server(sealed: bool) -> Iterator[Server]:
    """crabgames-server on free loopback ports, gRPC and HTTP (which serves the page)."""
    if not PAGE.is_file():
        raise RuntimeError(f"{PAGE} is not built: run `make web`")
    env = {**os.environ, "CRABGAMES_WEB_ROOT": str(PAGE.parent)}
    env.pop("CRABGAMES_SEAL_KEYS", None)
    if sealed:
        env["CRABGAMES_SEAL_KEYS"] = SEAL_KEYS
    command = [sys.executable, "-m", "crabgames.service", "--address", "127.0.0.1:0"]
    command += ["--http-address", "127.0.0.1:0", "--log-level", "WARNING"]
    process = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, text=True)
    try:
        grpc_address = http_url = ""
        assert process.stdout is not None
        for line in process.stdout:
            if found := re.search(r"listening on (\S+)", line):
                grpc_address = found.group(1)
            if found := re.search(r"HTTP on (http://\S+)", line):
                http_url = found.group(1)
                break
        assert grpc_address and http_url, "the server did not start"
        with grpc.insecure_channel(grpc_address) as channel:
            yield Server(grpc_address, http_url, RulesServiceStub(channel))
    finally:
        process.terminate()
        process.wait(timeout=30)


@contextlib.contextmanager
def browser() -> Iterator[object]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=chromium(), args=["--no-sandbox"])
        try:
            yield launched
        finally:
            launched.close()


@dataclass
class Played:
    board_moves: int = 0
    list_moves: int = 0
    handovers: int = 0
    checks: int = 0
    click_ms: list[float] = field(default_factory=list)
    # The same clicks by phase (ApplyMove, GetView, drawing, to the next frame), in ms.
    phases: list[dict[str, float]] = field(default_factory=list)
    summary: str = ""
    screenshot: Path | None = None

    @property
    def median_ms(self) -> float:
        return statistics.median(self.click_ms)


def open_page(launched, url: str):
    page = launched.new_page(viewport={"width": 1500, "height": 1100})
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{url}/?botDelay=0")
    page.wait_for_selector("#status[data-status=setup]")
    return page, errors


def play_game(page, stub, game: str, seats: list[str], seed: int, max_steps: int = 4000) -> Played:
    """One whole game through the page; `seats` "human" or "bot" each."""
    rng = random.Random(seed)
    played = Played()
    page.select_option("#game", game)
    page.select_option("#players", str(len(seats)))
    for seat, kind in enumerate(seats):
        page.select_option(f"#seat-{seat}", kind)
    page.fill("#seed", str(seed))
    page.click("#start")
    for _ in range(max_steps):
        page.wait_for_function(SETTLED, timeout=30_000)
        status = page.get_attribute("#status", "data-status")
        if status == "error":
            raise AssertionError(page.text_content("#error"))
        view = check_view(page, stub, game)
        played.checks += 1
        if status == "over":
            outcome = page.text_content("#outcome h2")
            assert outcome == view.outcome.summary, (outcome, view.outcome.summary)
            played.summary = outcome
            break
        if status == "handover":
            page.click("#take-seat")
            played.handovers += 1
            continue
        version = page.get_attribute("#board", "data-version")
        steps = page.locator("#board .next")
        on_board = steps.count()
        if on_board:
            steps.nth(rng.randrange(on_board)).click()
        else:
            moves = page.locator("#moves button")
            moves.nth(rng.randrange(moves.count())).click()
        page.wait_for_function(SETTLED, timeout=30_000)
        if page.get_attribute("#board", "data-version") != version:
            played.board_moves += 1 if on_board else 0
            played.list_moves += 0 if on_board else 1
    else:
        raise AssertionError(f"{game}: not over after {max_steps} steps")
    played.click_ms = page.evaluate("window.crabgames.clickTimings.splice(0)")
    played.phases = page.evaluate("window.crabgames.clickPhases.splice(0)")
    RESULTS.mkdir(parents=True, exist_ok=True)
    played.screenshot = RESULTS / f"{game}.png"
    page.screenshot(path=str(played.screenshot), full_page=True)
    page.click("#new-game")
    return played


# ----- what the page draws, against GetView -----


def check_view(page, stub, game: str):
    """GetView for the state and viewer the page holds; the page must draw that view."""
    snap = page.evaluate("window.crabgames.snapshot()")
    state = game_pb2.GameState.FromString(base64.b64decode(snap["state"]))
    request = api.GetViewRequest(state=state)
    if snap["viewer"] == "spectator":
        request.spectator = True
    else:
        request.player = snap["viewer"]
        request.player_token = snap["tokens"][snap["viewer"]] if snap["tokens"] else ""
    view = stub.GetView(request).view
    board = page.evaluate(DRAWN)
    assert board["version"] == str(view.version)
    assert board["viewer"] == str(snap["viewer"])
    labels = [m.label for m in view.legal_moves]
    if snap["viewer"] == "spectator":
        assert board["moves"] == []
    elif not snap["prefix"]:
        assert board["moves"] == labels
    else:
        assert set(board["moves"]) <= set(labels) and board["moves"]
    CHECKS[game](board, view)
    return view


DRAWN = """() => {
  const b = document.getElementById('board');
  // Each element's data attributes, '#name' read as a number.
  const all = (sel, names) => Array.from(b.querySelectorAll(sel), e => names.map(
    n => n.startsWith('#') ? Number(e.dataset[n.slice(1)]) : e.dataset[n]));
  return {
    version: b.dataset.version, viewer: b.dataset.viewer,
    moves: Array.from(document.querySelectorAll('#moves button'), e => e.dataset.label),
    cells: all('[data-cell]', ['cell', 'value']),
    hand: all('[data-hand]', ['hand', '#count']),
    holds: all('[data-ship]', ['#ship', '#hold', 'value']),
    supply: all('[data-supply]', ['supply', '#count']),
    piles: all('[data-pile]', ['#pile', '#height', 'top']),
    handCards: all('[data-hand-card]', ['handCard']).map(([c]) => c),
    missions: all('[data-mission]', ['#mission']).map(([m]) => m),
    crabs: all('[data-crab]', ['crab', '#muscle', 'place', 'arena']),
    managers: all('[data-manager]', ['#manager', '#rage', '#supply', '#hardcore']),
    fans: all('[data-fans]', ['fans', '#count']),
    billboards: all('[data-billboard]', ['billboard']).map(([b]) => b),
  };
}"""


def check_kraby(board, view) -> None:
    k = view.kraby
    first, last = k.playing_area.first, k.playing_area.last
    expected = [
        [f"{r},{c}", kraby_pb2.KrabyCell.Name(k.cells[r * 11 + c])]
        for r in range(first, last + 1)
        for c in range(first, last + 1)
    ]
    assert board["cells"] == expected
    hand = [[name.upper(), getattr(k.own_hand, name)] for name in SPECIES]
    assert board["hand"] == [h for h in hand if h[1] and not view.spectator]
    assert board["supply"] == [[n.upper(), getattr(k.figure_supply, n)] for n in SPECIES[:4]]
    holds = [
        [seat, i + 1, kraby_pb2.KrabyColor.Name(colour)[12:] if colour else ""]
        for seat, ship in enumerate(k.ships)
        for i, colour in enumerate((ship.hold_x1, ship.hold_x2, ship.hold_x3))
    ]
    assert board["holds"] == holds


SPECIES = ["orange", "green", "blue", "yellow", "pink"]


def card_name(card) -> str:
    if card.oxi:
        return "Oxi!"
    if not card.number:
        return ""
    return f"{COLOURS[card.color]} {card.number}"


COLOURS = {1: "red", 2: "green", 3: "blue", 4: "yellow"}


def check_crab_bucket(board, view) -> None:
    b = view.crab_bucket
    piles = [
        [i, p.height, card_name(p.top) if p.HasField("top") else ""] for i, p in enumerate(b.piles)
    ]
    assert board["piles"] == piles
    assert board["handCards"] == [card_name(c) for c in b.hand]
    shown = [b.current_mission] if b.HasField("current_mission") else []
    shown += list(b.offered_missions) + [c.mission for c in b.completed]
    assert board["missions"] == shown


def check_crab_rage(board, view) -> None:
    r = view.crab_rage
    crabs = {}
    for seat, manager in enumerate(r.players):
        for i, crab in enumerate(manager.crabs):
            arena = str(crab.arena) if crab.HasField("arena") else ""
            place = rage_pb2.CrabRagePlace.Name(crab.place)
            crabs[f"{seat}:{i}"] = [f"{seat}:{i}", crab.muscle, place, arena]
    assert sorted(board["crabs"]) == sorted(crabs.values())
    managers = [[s, m.rage, m.supply, m.hardcore_fans] for s, m in enumerate(r.players)]
    assert board["managers"] == managers
    fans = [[f"{a}:{s}", n] for a, arena in enumerate(r.arenas) for s, n in enumerate(arena.fans)]
    assert board["fans"] == fans
    billboards = [rage_pb2.CrabRageBillboard.Name(a.billboard) for a in r.arenas]
    assert board["billboards"] == billboards


CHECKS = {"kraby": check_kraby, "crab_bucket": check_crab_bucket, "crab_rage": check_crab_rage}
