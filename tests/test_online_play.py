"""Online play through the game host (clients/crabclients/host) in real Chromium: a sealing rules
service serving the page, the host on another loopback origin (CORS, links carrying `&host=`),
and browser contexts each opening one seat's link. Two contexts play a whole Kraby game against
each other by clicking their boards; each sees only its own hand, on its page and in every byte
it receives (the stream's messages read through the DevTools protocol, every other body through
Playwright), checked against the host's truth (the record's steps as the host saw them); a
reload rejoins the seat; a third context watches; the game is saved and its record replays to
the same end screen, back and forward. A CRAB RAGE! table with two humans and bots reaches its
end. Screenshots at 1280 and 390 px go to clients/web/test-results/ (online-*.png)."""

from __future__ import annotations

import contextlib
import json
import random
import re
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

from tests import web_page

# A page waiting for nobody at this screen, its own move sent, or the game over.
SETTLED = "() => !window.crabgames.busy()"


@contextlib.contextmanager
def game_host(server: web_page.Server) -> Iterator[str]:
    """crabgames-host on a free loopback port, its links opening the page the service serves
    (another origin: CORS for it), random bots without a pause."""
    command = [sys.executable, "-m", "crabclients.host", "--address", "127.0.0.1:0"]
    command += ["--rules", server.grpc_address, "--page-url", f"{server.http_url}/?anim=0"]
    command += ["--cors-origins", server.http_url, "--bot", "random", "--bot-pause-seconds", "0"]
    command += ["--tables-per-minute", "0"]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        assert process.stdout is not None
        for line in process.stdout:
            if found := re.search(r"listening on (http://\S+)", line):
                yield found.group(1)
                break
        else:
            raise AssertionError("the game host did not start")
    finally:
        process.terminate()
        process.wait(timeout=30)


def api(url: str, body: dict[str, Any] | None = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data, {"content-type": "application/json"})
    with urllib.request.urlopen(request) as answer:
        return json.load(answer)


class Seat:
    """One browser context at one link: its page, its errors, and every body it received."""

    def __init__(self, launched, link: str, width: int) -> None:
        self.context = launched.new_context(viewport={"width": width, "height": 900})
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.received: list[str] = []
        page = self.page
        page.on("pageerror", lambda error: self.errors.append(f"page error: {error}"))
        page.on("console", lambda m: m.type == "error" and self.errors.append(m.text))
        page.on("requestfailed", lambda r: self.keep_failure(r))
        page.on("response", self.keep_body)
        # The stream's messages, as the browser received them (Playwright cannot read an
        # endless body).
        cdp = self.context.new_cdp_session(page)
        cdp.send("Network.enable")
        cdp.on("Network.eventSourceMessageReceived", lambda e: self.received.append(e["data"]))
        page.goto(link)

    def keep_failure(self, request) -> None:
        # A stream, or the icon, the page's own navigation cancelled (a reload; a replay link
        # opened in the tab) is no error: anything else failing is.
        if request.failure != "net::ERR_ABORTED":
            self.errors.append(f"request failed: {request.url}")

    def keep_body(self, response) -> None:
        if response.status >= 400:
            self.errors.append(f"{response.status}: {response.url}")
        if "event-stream" in (response.headers.get("content-type") or ""):
            return
        if "/api/" in response.url:
            with contextlib.suppress(Exception):
                self.received.append(response.text())

    def status(self) -> str:
        return self.page.get_attribute("#status", "data-status") or ""

    def snapshot(self) -> dict[str, Any]:
        return self.page.evaluate("window.crabgames.snapshot()")


def play(seats: list[Seat], seed: int, on_move=lambda: None, max_clicks: int = 3000) -> int:
    """Click on whichever page decides until every page says the game is over."""
    rng = random.Random(seed)
    clicks = 0
    for _ in range(max_clicks * 20):
        statuses = [s.status() for s in seats]
        assert "error" not in statuses, [s.page.text_content("#error") for s in seats]
        if all(status == "over" for status in statuses):
            return clicks
        deciding = [s for s, st in zip(seats, statuses, strict=True) if st == "your-turn"]
        if not deciding or not deciding[0].page.evaluate(SETTLED):
            seats[0].page.wait_for_timeout(20)
            continue
        page = deciding[0].page
        steps = page.locator("#board .next")
        if steps.count():
            steps.nth(rng.randrange(steps.count())).click()
        else:
            moves = page.locator("#moves button")
            moves.nth(rng.randrange(moves.count())).click()
        page.wait_for_function(SETTLED, timeout=30_000)  # its move's message came back
        clicks += 1
        assert clicks < max_clicks
        on_move()
    raise AssertionError(f"not over: {[s.status() for s in seats]}")


def wait_version(seat: Seat, version: int) -> None:
    try:
        seat.page.wait_for_function(
            f"() => window.crabgames.snapshot()?.online?.version === {version}", timeout=30_000
        )
    except Exception as error:
        raise AssertionError(
            (version, seat.snapshot().get("online"), seat.status(), seat.errors)
        ) from error


def drawn_hand(seat: Seat) -> dict[str, int]:
    return dict(
        seat.page.evaluate(
            "() => Array.from(document.querySelectorAll('#board [data-hand]'),"
            " e => [e.dataset.hand, Number(e.dataset.count)])"
        )
    )


def hand_of(view: dict[str, Any]) -> dict[str, int]:
    """A Kraby view's own hand as the board names it (ORANGE: 2, ...), empty colours left out."""
    own = view.get("kraby", {}).get("ownHand", {})
    return {colour.upper(): n for colour, n in own.items() if n}


def walk(value: Any) -> Iterator[dict[str, Any]]:
    if isinstance(value, dict):
        yield value
        for item in value.values():
            yield from walk(item)
    elif isinstance(value, list):
        for item in value:
            yield from walk(item)


def check_hidden(seat: int, received: list[str], truth: dict[int, list[dict[str, int]]]) -> int:
    """Every view this seat received holds its own hand at that version (the host's truth),
    never the other's; every secret draw it received of another seat has no colour. Returns
    how many views differed between the seats (the check bites only if some did)."""
    views = draws = 0
    for body in received:
        for node in walk(json.loads(body)):
            kraby = node.get("kraby")
            if isinstance(kraby, dict) and "cells" in kraby:
                version = int(node.get("version", 0))
                mine = {c.upper(): n for c, n in kraby.get("ownHand", {}).items() if n}
                assert mine == truth[seat][version], (version, mine, truth[seat][version])
                views += 1
            for secret in ("tileDealt", "tileDrawn"):
                event = kraby.get(secret) if isinstance(kraby, dict) else None
                if event is not None and event.get("player", 0) != seat:
                    assert "color" not in event, ("another seat's draw", event)
                    draws += 1
            if "forcedMove" in node:
                assert node["forcedMove"]["move"].get("player", 0) == seat, node
    assert views > 10 and draws > 5, (views, draws)
    return sum(
        truth[0][v] != truth[1][v] for v in range(len(truth[0])) if truth[0][v] and truth[1][v]
    )


@pytest.fixture(scope="module")
def launched():
    with web_page.browser() as launched:
        yield launched


def test_two_browsers_play_kraby_through_the_host_each_seeing_only_its_own_hand(launched):
    with web_page.server(sealed=True) as server, game_host(server) as url:
        made = api(f"{url}/api/tables", {"game": "kraby", "players": 2, "seats": [
            {"name": "Ann"}, {"name": "Bea"}]})  # fmt: skip
        links = [s["link"] for s in made["seats"]]
        assert all(f"&host={url}" in link.replace("%3A", ":").replace("%2F", "/") for link in links)
        ann, bea = Seat(launched, links[0], 1280), Seat(launched, links[1], 390)
        watcher = Seat(launched, made["spectator"]["link"], 1280)
        seats = [ann, bea]
        reloaded = False

        def after_move() -> None:
            nonlocal reloaded
            for i, seat in enumerate(seats):
                key = made["seats"][i]["key"]
                truth = api(f"{url}/api/seats/{key}")
                if seat.page.evaluate(SETTLED) and seat.status() in ("your-turn", "waiting"):
                    wait_version(seat, truth["version"])
                    assert drawn_hand(seat) == hand_of(truth["view"]), i
            version = api(f"{url}/api/tables/{made['table']}")["version"]
            if not reloaded and version >= 20:
                # A reload rejoins the seat where it was: the same board, the whole log.
                reloaded = True
                before = bea.page.inner_text("#log")
                shot(bea, "online-kraby-bea-before-reload")
                bea.page.reload()
                bea.page.wait_for_selector("#status:not([data-status=connecting])")
                wait_version(bea, version)
                assert bea.snapshot()["viewer"] == 1
                assert bea.page.inner_text("#log").count("turn") >= before.count("turn") - 1
                shot(bea, "online-kraby-bea-after-reload")
                shot(watcher, "online-kraby-spectator-middle")
                assert watcher.page.locator("#board [data-hand]").count() == 0

        for seat in (*seats, watcher):
            seat.page.wait_for_selector("#status:not([data-status=connecting])")
        play(seats, 7, after_move)
        assert reloaded
        final = api(f"{url}/api/tables/{made['table']}")
        for seat in (*seats, watcher):
            wait_version(seat, final["version"])
            assert seat.page.is_visible("#outcome")
        # The same end for everyone ("(you)" marks the seat at each screen).
        headline = plain(watcher.page.inner_text("#headline"))
        assert plain(ann.page.inner_text("#headline")) == plain(bea.page.inner_text("#headline"))
        assert plain(ann.page.inner_text("#headline")) == headline
        breakdown = plain(watcher.page.inner_text("#breakdown"))
        for name, seat in (("ann", ann), ("bea", bea), ("spectator", watcher)):
            shot(seat, f"online-kraby-{name}-end")
            other_width(seat, f"online-kraby-{name}-end-turned")

        # The host's truth: every seat's view after each move (the record's steps as the host).
        ann.page.click("#save-record")
        ann.page.wait_for_selector("#record-link[data-record]")
        record = ann.page.get_attribute("#record-link", "data-record")
        record_link = ann.page.evaluate("() => document.querySelector('#record-link').href")
        steps = api(f"{url}/api/records/{record}/steps?as=host")["steps"]
        truth: dict[int, list[dict[str, int]]] = {0: [{}] * (final["version"] + 1)}
        truth[1] = list(truth[0])
        for step in steps:
            for i in (0, 1):
                truth[i][int(step["version"])] = hand_of(step["seats"][i])
        differed = check_hidden(0, ann.received, truth) + check_hidden(1, bea.received, truth)
        assert differed > 10, differed

        # The record replays to the same end screen, back and forward.
        ann.page.click("#record-link")
        ann.page.wait_for_selector("#status[data-status=replay]")
        assert ann.snapshot()["replay"]["at"] == 0
        ann.page.click("#replay-last")
        ann.page.wait_for_selector("#status[data-status=replay-end]")
        assert plain(ann.page.inner_text("#headline")) == headline
        assert plain(ann.page.inner_text("#breakdown")) == breakdown
        shot(ann, "online-kraby-replay-end")
        for _ in range(5):
            ann.page.click("#replay-back")
        at = ann.snapshot()["replay"]
        assert at["at"] == at["steps"] - 6 and ann.page.is_hidden("#outcome")
        # A replay chooses nothing: no move, no piece to click.
        assert ann.page.locator("#moves button, #board .clickable").count() == 0
        shot(ann, "online-kraby-replay-back")
        other_width(ann, "online-kraby-replay-back-turned")
        for _ in range(5):
            ann.page.click("#replay-forward")
        ann.page.wait_for_selector("#status[data-status=replay-end]")
        assert plain(ann.page.inner_text("#headline")) == headline

        # As the host saw it: every seat's view, drawn as the seat chosen saw each move.
        host_view = Seat(launched, re.sub(r"as=[^&]*", "as=host", record_link), 1280)
        host_view.page.wait_for_selector("#status[data-status=replay]")
        assert host_view.page.is_visible("#replay-eyes")
        # The table's seed is the host's own, so choose a step where the two hands differ
        # (equal hands could not tell which seat's eyes are drawn).
        differ = (
            truth[0][int(step["version"])] != truth[1][int(step["version"])] for step in steps
        )
        at_step = next(i for i, differs in enumerate(differ) if i >= 10 and differs)
        for _ in range(at_step):
            host_view.page.click("#replay-forward")
        version = int(steps[at_step]["version"])
        assert drawn_hand(host_view) == {}  # a spectator's eyes first: no hand
        for seat in (0, 1):
            host_view.page.select_option("#replay-eyes", str(seat))
            assert drawn_hand(host_view) == truth[seat][version], seat
        shot(host_view, "online-kraby-replay-as-host")
        for seat in (*seats, watcher, host_view):
            seat.context.close()
            assert not seat.errors, seat.errors


def test_a_crab_rage_table_with_two_people_and_bots_is_played_to_its_end(launched):
    with web_page.server(sealed=True) as server, game_host(server) as url:
        made = api(f"{url}/api/tables", {"game": "crab_rage", "players": 4, "seats": [
            {"name": "Ann"}, None, {"name": "Cyrus"}, None]})  # fmt: skip
        assert [s["bot"] is not None for s in made["seats"]] == [False, True, False, True]
        ann = Seat(launched, made["seats"][0]["link"], 1280)
        cyrus = Seat(launched, made["seats"][2]["link"], 390)
        for seat in (ann, cyrus):
            seat.page.wait_for_selector("#status:not([data-status=connecting])")
        play([ann, cyrus], 13)
        final = api(f"{url}/api/tables/{made['table']}")
        assert final["status"] == "finished"
        for name, seat in (("ann", ann), ("cyrus", cyrus)):
            wait_version(seat, final["version"])
            text = seat.page.inner_text("#breakdown")
            assert "Arena A" in text, text
            shot(seat, f"online-crab-rage-{name}-end")
            other_width(seat, f"online-crab-rage-{name}-end-turned")
            seat.context.close()
            assert not seat.errors, seat.errors


def test_play_online_on_the_set_up_form_gives_every_human_seat_a_link(launched):
    with web_page.server(sealed=True) as server, game_host(server) as url:
        page, errors = web_page.open_page(launched, server.http_url, width=390, height=900)
        page.fill("#host-url", url)
        page.select_option("#game", "kraby")
        page.select_option("#players", "3")
        chairs = [("human", "Ann"), ("bot", "Pinchy"), ("human", "Dot")]
        for seat, (kind, name) in enumerate(chairs):
            page.select_option(f"#seat-{seat}", kind)
            page.fill(f"#name-{seat}", name)
        page.click("#play-online")
        page.wait_for_selector("#links:not([hidden])")
        shown = page.eval_on_selector_all(
            "#links-list a", "as => as.map(a => [a.dataset.link, a.textContent, a.href])"
        )
        assert [s[:2] for s in shown] == [
            ["seat-0", "Ann's seat"],
            ["seat-2", "Dot's seat"],
            ["watch", "Watch the game"],
        ]
        web_page.screenshot(page, "online-setup-links-390px")
        page.click("#links-list a[data-link=seat-2]")
        page.wait_for_selector("#status:not([data-status=connecting]):not([data-status=links])")
        assert page.evaluate("window.crabgames.snapshot().viewer") == 2
        assert "Dot" in page.inner_text("#score-body")
        page.context.close()
        assert not errors, errors


def plain(text: str) -> str:
    return text.replace(" (you)", "")


def shot(seat: Seat, name: str) -> None:
    web_page.screenshot(seat.page, name)


def other_width(seat: Seat, name: str) -> None:
    """The same screen at the other width (390 px for a desktop's, 1280 for a phone's): it fits."""
    size = seat.page.viewport_size
    width = 390 if size["width"] > 700 else 1280
    seat.page.set_viewport_size({"width": width, "height": size["height"]})
    seat.page.wait_for_function(f"window.innerWidth === {width}")
    overflow = seat.page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, (name, overflow)
    web_page.screenshot(seat.page, name)
    seat.page.set_viewport_size(size)
