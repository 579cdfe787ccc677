"""The web page (clients/web) in a real browser: Debian's chromium headless, driven by
Playwright, against real servers on free loopback ports that serve the page at /. A whole game
of each title is played by clicking on the board at a desktop's width (1280 px) and a phone's
(390 px), bots in some seats, humans passing the device in hot-seat in others, named at set-up.
After every step what the page draws is checked against GetView for the state the page holds,
its words against the view (a sentence for the decision, names, no raw key), its running score
against the engine's count; the rules behind each decision are opened; the end screen against
the outcome. Sealing is on for Kraby and CRAB RAGE! (the page is the host: it holds the sealed
state and every seat's token). Screenshots (the middle and the end of each game) and the
click-to-redraw times go to clients/web/test-results/."""

from __future__ import annotations

import json
import statistics
import urllib.request

import pytest

from tests import web_page

GAMES = [
    # game, seats, seed, sealed, width, mode
    ("kraby", ["human", "human"], 7, True, 1280, ""),
    ("kraby", ["human", "bot", "bot", "bot"], 3, True, 390, ""),
    ("crab_bucket", ["human", "bot", "human"], 12, False, 1280, "quick"),
    ("crab_bucket", ["human", "bot", "bot"], 5, False, 390, "wild_crab"),
    ("crab_rage", ["human", "bot", "bot"], 13, True, 1280, ""),
    ("crab_rage", ["human", "human", "bot", "bot"], 4, True, 390, ""),
]


def ids(game) -> str:
    return f"{game[0]}-{len(game[1])}p-{game[4]}px"


@pytest.fixture(scope="module")
def launched():
    with web_page.browser() as launched:
        yield launched


@pytest.mark.parametrize(
    ("game", "seats", "seed", "sealed", "width", "mode"), GAMES, ids=[ids(g) for g in GAMES]
)
def test_a_whole_game_is_played_on_the_page_by_clicking_the_board(
    launched, game, seats, seed, sealed, width, mode
):
    name = f"{game}-{len(seats)}p-{width}px"
    with web_page.server(sealed) as server:
        page, errors = web_page.open_page(launched, server.http_url, width=width, height=900)
        played = web_page.play_game(page, server.stub, game, seats, seed, mode=mode, shots=name)
        if width < 414:
            # The phone width: the board stays as wide as the screen (it once shrank to a
            # 38 px thumbnail there).
            page.set_viewport_size({"width": 414, "height": 900})
            page.click("#start")
            page.wait_for_function(web_page.SETTLED, timeout=30_000)
            box = page.locator("#board").bounding_box()
            assert box and box["width"] >= 0.9 * 414, box
        page.context.close()
    assert not errors, errors
    assert played.headline
    assert played.board_moves >= 5, played
    if seats.count("human") > 1:
        assert played.handovers >= 2, played
    assert played.rules_opened, played
    assert played.animations > 0, played
    if game != "crab_bucket":  # its multi-step moves (abilities) are rare in a random game
        assert played.picks > 0, played
    for shot in played.screenshots:
        assert shot.stat().st_size > 10_000, shot
    median = statistics.median(played.click_ms)
    by_phase = {k: statistics.median(p[k] for p in played.phases) for k in played.phases[0]}
    phases = ", ".join(f"{k} {v:.1f}" for k, v in by_phase.items())
    print(f"{name}: {played.headline}; screenshots {', '.join(map(str, played.screenshots))}")
    print(f"  {len(played.click_ms)} clicks, click to redrawn board median {median:.1f} ms")
    print(f"  by phase (medians, ms): {phases}; rules opened for {sorted(played.rules_opened)}")
    (web_page.RESULTS / f"{name}.json").write_text(
        json.dumps({"median_ms": median, "click_ms": played.click_ms}, indent=1)
    )


def test_a_kraby_tie_shows_how_it_was_broken_or_shared(launched):
    """Two Kraby games through the page ending on equal totals (found among seeded random games
    through the service, then played on the page move by move, two humans passing the device):
    the end screen says the best single figure decided (K9), or that the victory is shared."""
    with web_page.server(sealed=False) as server:
        ties = web_page.kraby_ties(server.stub, range(1, 400))
        assert set(ties) == {"decided", "shared"}, f"no such tie among 400 games: {sorted(ties)}"
        for kind, (seed, script) in sorted(ties.items()):
            page, errors = web_page.open_page(launched, server.http_url, width=1280, height=900)
            played = web_page.play_game(
                page,
                server.stub,
                "kraby",
                ["human", "human"],
                seed,
                shots=f"kraby-tie-{kind}-1280px",
                script=script,
            )
            tie = played.tiebreak
            page.context.close()
            assert not errors, errors
            assert "(K9)" in tie, tie
            if kind == "shared":
                assert "share the victory" in played.headline and "share the victory" in tie
            else:
                assert " wins with " in played.headline and "breaks the tie" in tie
            print(f"kraby tie ({kind}, seed {seed}): {played.headline}. {tie}")


def test_the_page_is_served_at_the_root_of_the_http_side_with_its_bundle():
    with web_page.server(sealed=False) as server:
        with urllib.request.urlopen(f"{server.http_url}/") as answer:
            html = answer.read().decode()
            assert answer.headers["Content-Type"].startswith("text/html")
        assert '<script type="module" src="app.js">' in html
        assert '<link rel="icon" href="favicon.svg"' in html
        with urllib.request.urlopen(f"{server.http_url}/app.js") as answer:
            assert "javascript" in answer.headers["Content-Type"]
        # The icon a browser asks for without reading the page: a real ICO, not a 404.
        with urllib.request.urlopen(f"{server.http_url}/favicon.ico") as answer:
            icon = answer.read()
        assert icon[:4] == b"\x00\x00\x01\x00" and len(icon) > 1000
        # The rules behind the decisions, from docs/rules/ (bundled by the build).
        with urllib.request.urlopen(f"{server.http_url}/rules.json") as answer:
            rules = json.load(answer)
        assert "come to rest" in rules["kraby"]["K3: sliding a tile in"]
        assert set(rules) >= {"kraby", "crab_bucket", "crab_rage"}
        with pytest.raises(urllib.error.HTTPError) as missing:
            urllib.request.urlopen(f"{server.http_url}/no-such-file.js")
        assert missing.value.code == 404
