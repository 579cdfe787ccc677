"""Driving the web page (clients/web) in Debian's chromium with Playwright, against a real
server started here on free loopback ports: shared by tests/test_web_page.py and `make bench`.

`play_game` plays a whole game through the page the way a person would: it fills the set-up form
(seats, names, mode), clicks a piece on the board that takes the move further (a cell's entry, a
pile, a crab, ...; the move list only when what is left is chosen there), passes the device at
each hot-seat handover, and after every step checks that the page draws what GetView returns for
the state the page holds (with that seat's token when the server seals), that it speaks to
players (sentences, names, no raw key), that its running score is the engine's count, and at the
end that the breakdown is the outcome's."""

from __future__ import annotations

import base64
import contextlib
import json
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

from crabgames.games.crab_bucket import codec as bucket_codec
from crabgames.games.crab_bucket import rules as bucket_rules
from crabgames.games.kraby import rules as kraby_rules
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
NAMES = ["Ann", "Bea", "Cyrus", "Dot", "Eli"]
# What must never reach a player's eyes: a decision's or an enum's raw key (place_tile,
# choose_mutation_crab, CRAB_RAGE_...), a board key (card:BLUE:2, crab:0:1) or a seat number
# ("player 0").
BOARD_KEYS = "card|pile|tile|entry|crab|action|arena|figure|hold|ability|level|offer|signature"
RAW = re.compile(rf"[a-z]+_[a-z_]+|[A-Z]{{3,}}_[A-Z]|\b(?:{BOARD_KEYS}):\S|\bplayer \d")


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
    # Partial picks of a multi-step move, each checked to read as words.
    picks: int = 0
    # The decisions whose rules were opened (each one click away).
    rules_opened: set[str] = field(default_factory=set)
    click_ms: list[float] = field(default_factory=list)
    # The same clicks by phase (ApplyMove, GetView, drawing, to the next frame), in ms.
    phases: list[dict[str, float]] = field(default_factory=list)
    headline: str = ""
    # The end screen's tie-break sentence, when a tie-break decided (or a tie was shared).
    tiebreak: str = ""
    animations: int = 0
    screenshots: list[Path] = field(default_factory=list)

    @property
    def median_ms(self) -> float:
        return statistics.median(self.click_ms)


def open_page(launched, url: str, width: int = 1500, height: int = 1100, anim_ms: int = 150):
    """The page in a fresh context of that size; `errors` collects every page error, console
    error and failed or refused request (a favicon's 404 included)."""
    context = launched.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(f"page error: {error}"))
    page.on("console", lambda m: m.type == "error" and errors.append(f"console: {m.text}"))
    page.on("requestfailed", lambda r: errors.append(f"request failed: {r.url}"))
    page.on("response", lambda r: r.status >= 400 and errors.append(f"{r.status}: {r.url}"))
    page.goto(f"{url}/?botDelay=0&anim={anim_ms}")
    page.wait_for_selector("#status[data-status=setup]")
    return page, errors


def play_game(
    page,
    stub,
    game: str,
    seats: list[str],
    seed: int,
    max_steps: int = 4000,
    names: list[str] | None = None,
    mode: str = "",
    shots: str = "",
    script: list[str] | None = None,
) -> Played:
    """One whole game through the page; `seats` "human" or "bot" each. `shots`: the screenshots'
    name (a middle and an end one in RESULTS), none when empty. `script`: the humans' moves in
    order, by label, chosen in the move list (else a random piece of the board, or move)."""
    script = list(script or [])
    rng = random.Random(seed)
    played = Played()
    names = names or NAMES[: len(seats)]
    page.select_option("#game", game)
    page.select_option("#players", str(len(seats)))
    if mode:
        page.select_option("#mode", mode)
    for seat, kind in enumerate(seats):
        page.select_option(f"#seat-{seat}", kind)
        page.fill(f"#name-{seat}", names[seat])
    page.fill("#seed", str(seed))
    page.click("#start")
    middle = False
    for step in range(max_steps):
        page.wait_for_function(SETTLED, timeout=30_000)
        status = page.get_attribute("#status", "data-status")
        if status == "error":
            raise AssertionError(page.text_content("#error"))
        view, snap = check_view(page, stub, game)
        check_words(page, view, snap, names)
        played.checks += 1
        if status == "over":
            played.headline, played.tiebreak = check_end(page, view, names)
            break
        if status == "handover":
            page.click("#take-seat")
            played.handovers += 1
            continue
        if shots and step >= 12 and not middle:
            played.screenshots.append(screenshot(page, f"{shots}-middle"))
            played.screenshots.append(other_width(page, view, snap, names, f"{shots}-turned"))
            middle = True
        check_rules(page, played, f"{shots}-rules" if shots and not played.rules_opened else "")
        version = page.get_attribute("#board", "data-version")
        steps = page.locator("#board .next")
        on_board = 0 if script else steps.count()
        if script:
            page.click(f"#moves button[data-label={json.dumps(script.pop(0))}]")
        elif on_board:
            steps.nth(rng.randrange(on_board)).click()
        else:
            moves = page.locator("#moves button")
            moves.nth(rng.randrange(moves.count())).click()
        page.wait_for_function(SETTLED, timeout=30_000)
        if page.get_attribute("#board", "data-version") != version:
            played.board_moves += 1 if on_board else 0
            played.list_moves += 0 if on_board else 1
        elif not page.is_hidden("#picked"):
            check_picked(page)
            played.picks += 1
    else:
        raise AssertionError(f"{game}: not over after {max_steps} steps")
    played.click_ms = page.evaluate("window.crabgames.clickTimings.splice(0)")
    played.phases = page.evaluate("window.crabgames.clickPhases.splice(0)")
    played.animations = page.evaluate("window.crabgames.animations()")
    if shots:
        played.screenshots.append(screenshot(page, f"{shots}-end"))
    page.click("#new-game")
    return played


def other_width(page, view, snap, names: list[str], shot: str) -> Path:
    """The same moment on the other kind of screen (a phone for a desktop's game, a desktop for a
    phone's): the page redraws for it and fits it too."""
    size = page.viewport_size
    width = 390 if size["width"] > 700 else 1280
    page.set_viewport_size({"width": width, "height": size["height"]})
    page.wait_for_function(f"window.innerWidth === {width}")
    page.evaluate("new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
    check_words(page, view, snap, names)
    path = screenshot(page, shot)
    page.set_viewport_size(size)
    page.wait_for_function(f"window.innerWidth === {size['width']}")
    page.evaluate("new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
    return path


def scripted_game(stub, game: str, players: int, seed: int) -> tuple[list[str], game_pb2.Outcome]:
    """A game of seeded random moves through the service (unsealed): its moves' labels in order
    and its outcome."""
    rng = random.Random(seed)
    request = api.NewGameRequest(num_players=players, seed=seed)
    getattr(request, game).SetInParent()
    state = stub.NewGame(request).state
    labels = []
    while state.next.kind == game_pb2.DECIDER_KIND_PLAYER:
        move = rng.choice(stub.LegalMoves(api.LegalMovesRequest(state=state)).moves)
        labels.append(move.label)
        answer = stub.ApplyMove(api.ApplyMoveRequest(state=state, move=move))
        state = answer.state
    return labels, answer.outcome


def kraby_ties(stub, seeds: range) -> dict[str, tuple[int, list[str]]]:
    """The first two-fisher Kraby games of seeded random moves that end on equal totals: one the
    best single figure decides ("decided", K9), one shared on both ("shared")."""
    found: dict[str, tuple[int, list[str]]] = {}
    for seed in seeds:
        labels, outcome = scripted_game(stub, "kraby", 2, seed)
        first, second = outcome.kraby.fishers
        if first.total == second.total:
            shared = first.best_contribution == second.best_contribution
            found.setdefault("shared" if shared else "decided", (seed, labels))
        if len(found) == 2:
            break
    return found


def screenshot(page, name: str) -> Path:
    """The whole page, what the last move changed faded in and its animations at their end."""
    RESULTS.mkdir(parents=True, exist_ok=True)
    path = RESULTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True, animations="disabled")
    return path


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
    return view, snap


DRAWN = """() => {
  const b = document.getElementById('board');
  // Each element's data attributes, '#name' read as a number.
  const all = (root, sel, names) => Array.from(root.querySelectorAll(sel), e => names.map(
    n => n.startsWith('#') ? Number(e.dataset[n.slice(1)]) : e.dataset[n]));
  const side = document.getElementById('score-body');
  return {
    version: b.dataset.version, viewer: b.dataset.viewer,
    moves: Array.from(document.querySelectorAll('#moves button'), e => e.dataset.label),
    cells: all(b, '[data-cell]', ['cell', 'value']),
    hand: all(b, '[data-hand]', ['hand', '#count']),
    holds: all(b, '[data-ship]', ['#ship', '#hold', 'value']),
    supply: all(b, '[data-supply]', ['supply', '#count']),
    piles: all(b, '[data-pile]', ['#pile', '#height', 'top']),
    handCards: all(b, '[data-hand-card]', ['handCard']).map(([c]) => c),
    missions: all(b, '[data-mission]', ['#mission']).map(([m]) => m),
    crabs: all(b, '[data-crab]', ['crab', '#muscle', 'place', 'arena']),
    managers: all(b, '[data-manager]', ['#manager', '#rage', '#supply', '#hardcore']),
    fans: all(b, '[data-fans]', ['fans', '#count', 'leads']),
    billboards: all(b, '[data-billboard]', ['billboard']).map(([b]) => b),
    passButton: !!b.querySelector('[data-key="pass"]'),
    species: all(side, '[data-species]', ['species', '#points']),
    fishers: all(side, '[data-fisher]', ['#fisher', '#total']),
    points: all(side, '[data-points]', ['#points']).map(([p]) => p),
    requirements: all(side, '[data-requirement]', ['#requirement', 'met']),
    boardMet: all(b, '[data-met]', ['met']).map(([m]) => m),
    rages: all(side, '[data-rage]', ['#rage']).map(([r]) => r),
    leaders: all(side, '[data-leaders]', ['#arena', 'leaders']),
  };
}"""


def legal_pass(view, game: str) -> bool:
    for move in view.legal_moves:
        if game == "crab_bucket" and move.crab_bucket.WhichOneof("move") == "pass":
            return True
        if game == "crab_rage" and move.crab_rage.kind == rage_pb2.CRAB_RAGE_MOVE_KIND_PASS:
            return True
    return False


def check_kraby(board, view) -> None:
    k = view.kraby
    first, last = k.playing_area.first, k.playing_area.last
    expected = [
        [f"{r},{c}", kraby_pb2.KrabyCell.Name(k.cells[r * 11 + c])]
        for r in range(first, last + 1)
        for c in range(first, last + 1)
    ]
    assert board["cells"] == expected
    in_play = [s for s in SPECIES if not excluded(view, s)]
    hand = [[name.upper(), getattr(k.own_hand, name)] for name in in_play]
    assert board["hand"] == [h for h in hand if h[1] and not view.spectator]
    assert board["supply"] == [[n.upper(), getattr(k.figure_supply, n)] for n in in_play]
    holds = [
        [seat, i + 1, kraby_pb2.KrabyColor.Name(colour)[12:] if colour else ""]
        for seat, ship in enumerate(k.ships)
        for i, colour in enumerate((ship.hold_x1, ship.hold_x2, ship.hold_x3))
    ]
    assert board["holds"] == holds
    # The running score is the engine's count on this board (the rulebook's "Scoring").
    species = kraby_rules.score_species(bytearray(k.cells))
    assert board["species"] == [
        [kraby_pb2.KrabyColor.Name(s.color)[12:], s.points]
        for s in species
        if not excluded(view, kraby_pb2.KrabyColor.Name(s.color)[12:].lower())
    ]
    ships = [(s.hold_x1, s.hold_x2, s.hold_x3) for s in k.ships]
    fishers = kraby_rules.score_fishers(ships, species)
    assert board["fishers"] == [[f.player, f.total] for f in fishers]


def excluded(view, species: str) -> bool:
    """K2: with two fishers one colour sits out (pink unless the options say another)."""
    if view.num_players != 2:
        return False
    colour = view.kraby.options.excluded_color or kraby_pb2.KRABY_COLOR_PINK
    return kraby_pb2.KrabyColor.Name(colour)[12:].lower() == species


SPECIES = ["orange", "green", "blue", "yellow", "pink"]


def card_name(card) -> str:
    if card.oxi:
        return "Oxi!"
    if not card.number:
        return ""
    return f"{COLOURS[card.color]} {card.number}"


COLOURS = {1: "red", 2: "green", 3: "blue", 4: "yellow"}


def fail(path: str, why: str) -> Exception:
    return AssertionError(f"{path}: {why}")


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
    assert board["points"] == [b.points]
    assert board["passButton"] == legal_pass(view, "crab_bucket")
    # Each requirement of the current mission met or not, as the engine reads the circle (B3).
    tops = [
        bucket_codec.CARD_IDS[(p.top.oxi, p.top.color, p.top.number)] if p.HasField("top") else -1
        for p in b.piles
    ]
    colors = sum(bucket_rules.TOP_BITS[i][top] for i, top in enumerate(tops))
    met = []
    if b.HasField("current_mission"):
        mission = b.options.missions[b.current_mission]
        for i, req in enumerate(mission.requirements):
            decoded = bucket_codec.decode_requirement(req, f"requirements[{i}]", fail)
            met.append([i, "true" if bucket_rules.requirement_met(decoded, colors) else "false"])
    assert board["requirements"] == met
    assert board["boardMet"] == [m for _, m in met]


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
    assert board["rages"] == [m.rage for m in r.players]
    leaders = []
    for a, arena in enumerate(r.arenas):
        most = max(arena.fans)
        leaders.append([a, ",".join(str(s) for s, f in enumerate(arena.fans) if f == most and f)])
    assert board["leaders"] == leaders
    fans = [
        [f"{a}:{s}", n, "true" if str(s) in lead.split(",") else "false"]
        for (a, arena), (_, lead) in zip(enumerate(r.arenas), leaders, strict=True)
        for s, n in enumerate(arena.fans)
    ]
    assert board["fans"] == fans
    billboards = [rage_pb2.CrabRageBillboard.Name(a.billboard) for a in r.arenas]
    assert board["billboards"] == billboards
    assert board["passButton"] == legal_pass(view, "crab_rage")


CHECKS = {"kraby": check_kraby, "crab_bucket": check_crab_bucket, "crab_rage": check_crab_rage}


# ----- words: sentences, names, no raw key -----

WORDS = """() => {
  const text = (id) => document.getElementById(id)?.innerText ?? '';
  const shown = (id) => {
    const e = document.getElementById(id);
    return !!e && e.offsetParent !== null;
  };
  return {
    sentence: text('sentence'), hint: text('hint'), selection: text('selection'),
    moves: Array.from(document.querySelectorAll('#moves button'), e => e.innerText),
    log: text('log'), scores: text('score-body'), status: text('status'),
    board: Array.from(document.querySelectorAll('#board text'), e => e.textContent).join(' | '),
    movesShown: shown('moves-box'), rulesShown: shown('rules-button'),
    overflow: document.documentElement.scrollWidth - window.innerWidth,
    // What sticks out on the right, to say where a layout broke.
    wide: Array.from(document.querySelectorAll('body *'))
      .filter(e => e.getBoundingClientRect().right > window.innerWidth + 0.5)
      .slice(0, 5)
      .map(e => `${e.tagName}#${e.id}.${e.className?.baseVal ?? e.className}`
        + `: ${e.innerText?.slice(0, 60) ?? ''}`),
    boardWidth: document.getElementById('board').getBoundingClientRect().width,
    // Board texts the board's own box cuts (Kraby's "Hands: ... bag" line once was).
    cut: (() => {
      const b = document.getElementById('board');
      const box = b.viewBox.baseVal;
      const texts = b.querySelectorAll('text:not(.floating)');
      return Array.from(texts, e => [e.textContent, e.getBBox()])
        .filter(([, r]) => r.x < box.x - 0.5 || r.y < box.y - 0.5
          || r.x + r.width > box.x + box.width + 0.5 || r.y + r.height > box.y + box.height + 0.5)
        .map(([t]) => t);
    })(),
    viewport: window.innerWidth,
  };
}"""


def check_words(page, view, snap, names: list[str]) -> None:
    """The page speaks to players: the decision as a sentence naming who decides ("you" at this
    screen), no raw key anywhere, every seat's name on the page; and fits its screen."""
    seen = page.evaluate(WORDS)
    for where in ("sentence", "hint", "selection", "log", "scores", "status", "board"):
        found = RAW.search(seen[where])
        assert not found, f"raw key {found.group(0)!r} in the {where}: {seen[where][:300]!r}"
    for move in seen["moves"]:
        assert not RAW.search(move), move
    sentence = seen["sentence"]
    assert sentence.endswith(".") and sentence[0].isupper(), sentence
    if view.next.kind == game_pb2.DECIDER_KIND_PLAYER:
        decider = view.next.player
        if snap["viewer"] == decider and view.legal_moves:
            assert re.search(r"\b(You|you|Your|your)\b", sentence), sentence
        else:
            assert names[decider] in sentence, (sentence, names[decider])
    for name in names:
        assert name in seen["scores"] or name in seen["board"], (name, seen["scores"])
    if snap["viewer"] != "spectator":
        assert "(you)" in seen["board"] + seen["scores"]
    # Nothing wider than the screen, and the board as wide as it can be.
    assert seen["overflow"] <= 0, f"the page is {seen['overflow']} px too wide: {seen['wide']}"
    assert seen["boardWidth"] >= min(0.9 * seen["viewport"], 600), seen["boardWidth"]
    assert not seen["cut"], f"the board cuts {seen['cut']}"


def check_picked(page) -> None:
    """A multi-step move's first picks, in words ("You picked a green tile. Now pick ...")."""
    selection = page.inner_text("#selection")
    assert selection.startswith("You picked ") and "Now pick" in selection, selection
    assert not RAW.search(selection), selection


def check_rules(page, played: Played, shot: str) -> None:
    """The rule behind the decision, one click away: the first time each decision comes."""
    rule = page.get_attribute("#rules-button", "data-rule")
    if rule in played.rules_opened:
        return
    page.click("#rules-button")
    page.wait_for_selector("#rules[open] #rules-body section.rule")
    body = page.inner_text("#rules-body")
    assert len(body) > 200 and not RAW.search(page.inner_text("#rules-title")), body[:200]
    if shot:
        played.screenshots.append(screenshot(page, shot))
    page.click("#rules-close")
    page.wait_for_selector("#rules:not([open])", state="attached")
    played.rules_opened.add(rule)


# ----- the end -----

END = """() => ({
  headline: document.getElementById('headline').innerText,
  breakdown: document.getElementById('breakdown').innerText,
  tiebreak: document.querySelector('#breakdown .tiebreak')?.innerText ?? '',
  results: Array.from(document.querySelectorAll('#breakdown [data-result]'),
    e => [Number(e.dataset.result), Number(e.dataset.score)]),
  species: Array.from(document.querySelectorAll('#breakdown [data-species]'),
    e => [e.dataset.species, Number(e.dataset.points)]),
  score: Array.from(document.querySelectorAll('#breakdown [data-score]'),
    e => Number(e.dataset.score)),
  setupOpen: document.querySelector('#log details.setup')?.open,
  groups: document.querySelectorAll('#log details').length,
  dealtOutside: Array.from(document.querySelectorAll('#log details:not(.setup) li'))
    .filter(e => /dealt/.test(e.innerText)).length,
  playsLeft: /plays left/.test(document.body.innerText),
})"""


def check_end(page, view, names: list[str]) -> tuple[str, str]:
    """The end screen: the winners named, the rulebook's breakdown as the outcome gives it, the
    tie-break when one decided, nothing left to choose; the log by turn, the deal collapsed."""
    outcome = view.outcome
    end = page.evaluate(END)
    for seat in outcome.winners:
        # A cooperative game's headline is the team's; its players are named below it.
        said = end["headline"] + (end["breakdown"] if view.HasField("crab_bucket") else "")
        assert names[seat] in said, (end["headline"], names[seat])
    assert not RAW.search(end["headline"] + end["breakdown"]), end["breakdown"]
    game = outcome.WhichOneof("details")
    tie = ""
    if game == "kraby":
        k = outcome.kraby
        assert end["results"] == sorted(
            ([f.player, f.total] for f in k.fishers),
            key=lambda r: [p.rank for p in outcome.players if p.player == r[0]][0],
        )
        assert end["species"] == [
            [kraby_pb2.KrabyColor.Name(s.color)[12:], s.points]
            for s in k.species
            if not excluded(view, kraby_pb2.KrabyColor.Name(s.color)[12:].lower())
        ]
        best = max(f.total for f in k.fishers)
        if sum(f.total == best for f in k.fishers) > 1:
            tie = "K9"
    elif game == "crab_rage":
        r = outcome.crab_rage
        assert sorted(end["results"]) == [[s, g] for s, g in enumerate(r.glory)]
        for arena in r.arenas:
            letter = "ABCD"[arena.arena]
            assert f"Arena {letter}" in end["breakdown"]
        if r.HasField("duel") and r.duel.duelists:
            tie = "R19"
    else:
        assert end["score"] == [outcome.crab_bucket.points]
        if outcome.crab_bucket.title:
            assert outcome.crab_bucket.title in end["headline"]
    if tie:
        assert tie in end["tiebreak"], (tie, end["tiebreak"])
    else:
        assert not end["tiebreak"], end["tiebreak"]
    seen = page.evaluate(WORDS)
    assert not seen["movesShown"] and not seen["rulesShown"]
    assert not end["playsLeft"]
    assert page.locator('#board [data-key="pass"]').count() == 0
    assert end["setupOpen"] is False and end["groups"] > 3 and end["dealtOutside"] == 0, end
    return end["headline"], end["tiebreak"]
