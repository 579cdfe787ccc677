"""The web page (clients/web) in a real browser: Debian's chromium headless, driven by
Playwright, against real servers on free loopback ports that serve the page at /. A whole game
of each title is played by clicking on the board (bots for the other seats, two humans
passing the device in hot-seat for Kraby and Crab Bucket), and after every step what the page
draws is checked against GetView for the state the page holds; sealing is on for Kraby and
CRAB RAGE! (the page is the host: it holds the sealed state and every seat's token). A
screenshot of each game's end and the click-to-redraw times go to clients/web/test-results/."""

from __future__ import annotations

import json
import statistics
import urllib.request

import pytest

from tests import web_page

GAMES = [
    # game, seats, seed, sealed
    ("kraby", ["human", "human"], 7, True),
    ("crab_bucket", ["human", "bot", "human"], 12, False),
    ("crab_rage", ["human", "bot", "bot"], 13, True),
]


@pytest.fixture(scope="module")
def launched():
    with web_page.browser() as launched:
        yield launched


@pytest.mark.parametrize(("game", "seats", "seed", "sealed"), GAMES, ids=[g[0] for g in GAMES])
def test_a_whole_game_is_played_on_the_page_by_clicking_the_board(
    launched, game, seats, seed, sealed
):
    with web_page.server(sealed) as server:
        page, errors = web_page.open_page(launched, server.http_url)
        played = web_page.play_game(page, server.stub, game, seats, seed)
        page.close()
    assert not errors
    assert played.summary
    assert played.board_moves >= 5, played
    if seats.count("human") > 1:
        assert played.handovers >= 2, played
    assert played.screenshot and played.screenshot.stat().st_size > 10_000
    median = statistics.median(played.click_ms)
    by_phase = {k: statistics.median(p[k] for p in played.phases) for k in played.phases[0]}
    phases = ", ".join(f"{k} {v:.1f}" for k, v in by_phase.items())
    print(f"{game}: {len(played.click_ms)} clicks, click to redrawn board median {median:.1f} ms")
    print(f"  by phase (medians, ms): {phases}")
    (web_page.RESULTS / f"{game}.json").write_text(
        json.dumps({"median_ms": median, "click_ms": played.click_ms}, indent=1)
    )


def test_the_page_is_served_at_the_root_of_the_http_side_with_its_bundle():
    with web_page.server(sealed=False) as server:
        with urllib.request.urlopen(f"{server.http_url}/") as answer:
            html = answer.read().decode()
            assert answer.headers["Content-Type"].startswith("text/html")
        assert '<script type="module" src="app.js">' in html
        with urllib.request.urlopen(f"{server.http_url}/app.js") as answer:
            assert "javascript" in answer.headers["Content-Type"]
        with pytest.raises(urllib.error.HTTPError) as missing:
            urllib.request.urlopen(f"{server.http_url}/no-such-file.js")
        assert missing.value.code == 404
