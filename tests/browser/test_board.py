"""A second phone follows a game live from the QR code's link while the first scores it:
the board updates by itself after a save, an undo and an edit, answers 304 while nothing
changed, and never swaps an unchanged board. Screenshots: phone (light, dark, 320 px), big
screen, the scorer's share page."""

import json
import urllib.request
from pathlib import Path

import pytest
from playwright.sync_api import expect

from scorepad import services
from scorepad.extensions import db

EXAMPLE = json.loads((Path(__file__).parent.parent / "data" / "examples" / "tournament-full.json").read_text())
ROUNDS = EXAMPLE["game"]["rounds"]
EXPECTED = EXAMPLE["expected"]
WAIT = 8000  # ms: a few polls (every 3 s)


def points(value: int) -> str:
    return f"−{-value}" if value < 0 else str(value)


def api(base: str, method: str, path: str, token: str, body=None) -> int:
    """Call the JSON API like another client would; the HTTP status."""
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(
        base + path,
        data=data,
        method=method,
        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request) as response:
        return response.status


@pytest.fixture
def statuses(app):
    """The status of every poll of a board's live fragment the server answered."""
    seen: list[int] = []
    inner = app.wsgi_app

    def counting(environ, start_response):
        def spy(status, headers, *args):
            if environ["PATH_INFO"].endswith("/live"):
                seen.append(int(status.split()[0]))
            return start_response(status, headers, *args)

        return inner(environ, spy)

    app.wsgi_app = counting
    return seen


def start(app, rounds: int):
    with app.app_context():
        stored, _ = services.create_game({**EXAMPLE["game"], "title": "Club night", "rounds": ROUNDS[:rounds]})
        ids = stored.id, stored.edit_token, stored.view_token
        db.session.remove()
    return ids


def totals(page) -> list[str]:
    return page.locator("#board_table tfoot td").all_inner_texts()


# An <img> with width and height attributes is "visible" before its file has arrived, so wait
# for its load (or error) event before reading its natural width: 0 means it failed to load.
LOADED_WIDTH = """img => img.complete ? img.naturalWidth : new Promise(resolve => {
    img.addEventListener("load", () => resolve(img.naturalWidth));
    img.addEventListener("error", () => resolve(0));
})"""


def loaded_width(image) -> int:
    """The natural width (CSS px) of `image` once it has loaded; 0 when it failed to load."""
    return image.evaluate(LOADED_WIDTH)


# Marks the board and counts, from now on, the polls whose answer the page has handled
# (swapped or not): htmx fires afterOnLoad once the swap was done or skipped.
MARK_AND_COUNT_POLLS = """board => {
    board.dataset.marker = "unchanged";
    window.__polls = 0;
    document.addEventListener("htmx:afterOnLoad", e => {
        if (e.detail.pathInfo.requestPath.includes("/live")) window.__polls += 1;
    });
}"""


def test_a_second_phone_follows_the_game_live(app, statuses, live_server, browser, playwright, phone, screenshot_dir):
    game_id, edit, view = start(app, rounds=6)

    # The scorer's phone: the game page links the share page, which carries the board's link and QR code.
    device = {k: v for k, v in playwright.devices["iPhone 13"].items() if k != "default_browser_type"}
    scorer_context = browser.new_context(**{**device, "viewport": {"width": 390, "height": 844}})
    scorer = scorer_context.new_page()
    scorer.goto(f"{live_server}/g/{edit}")
    scorer.get_by_role("link", name="Share the scores with the players").tap()
    expect(scorer).to_have_url(f"{live_server}/b/share/{edit}")
    share = scorer.locator(".share-board")
    expect(share.locator("img.share-qr")).to_be_visible()
    assert loaded_width(share.locator("img.share-qr")) > 0  # the SVG loaded
    expect(share.get_by_role("button", name="Copy link")).to_be_visible()
    share.scroll_into_view_if_needed()
    scorer.screenshot(path=str(screenshot_dir / "board-share-390.png"))
    link = share.locator(".share-link a").get_attribute("href")
    assert link == f"{live_server}/b/{view}"

    # The second phone opens the link (what the QR code holds).
    phone.goto(link)
    expect(phone.locator(".board-status")).to_contain_text("Round 7 of 28")
    assert totals(phone) == [points(v) for v in EXPECTED["rounds"][5]["result"]["running"]]
    phone.screenshot(path=str(screenshot_dir / "board-390.png"), full_page=True)

    # Nothing changes: the polls get 304 and the board is not swapped. Wait for two polls the
    # page has handled since the marker, not a fixed time: a page's first poll gets a 200 (the
    # browser has no copy to revalidate yet), the later ones a 304.
    phone.locator("#board_live").evaluate(MARK_AND_COUNT_POLLS)
    phone.wait_for_function("() => window.__polls >= 2", timeout=2 * WAIT)  # a function: the CSP forbids eval
    assert 304 in statuses
    assert phone.locator("#board_live").get_attribute("data-marker") == "unchanged"

    # A save (through the API, as another client would).
    assert api(live_server, "POST", f"/api/v1/games/{game_id}/rounds", edit, ROUNDS[6]) == 201
    expect(phone.locator("#board_table tfoot td").first).to_have_text(
        points(EXPECTED["rounds"][6]["result"]["running"][0]), timeout=WAIT
    )
    assert totals(phone) == [points(v) for v in EXPECTED["rounds"][6]["result"]["running"]]
    expect(phone.locator(".board-status")).to_contain_text("Round 8 of 28")

    # An undo on the scorer's phone (its button, confirmed).
    scorer.on("dialog", lambda dialog: dialog.accept())
    scorer.goto(f"{live_server}/g/{edit}")  # back from the share page to the game page
    scorer.get_by_role("button", name="Undo round 7").tap()
    expect(phone.locator(".board-status")).to_contain_text("Round 7 of 28", timeout=WAIT)
    assert totals(phone) == [points(v) for v in EXPECTED["rounds"][5]["result"]["running"]]

    # An edit of round 1 (API): Anne takes the last trick instead of Élodie.
    edited = {**ROUNDS[0], "outcome": {"penultimate": 0, "last": 1}}
    assert api(live_server, "PUT", f"/api/v1/games/{game_id}/rounds/1", edit, edited) == 200
    # Round 1 moves from [−60, 0, 0, 30] to [−20, −60, 40, 10] (worked in tests/test_board.py).
    delta = [-20 - -60, -60 - 0, 40 - 0, 10 - 30]
    running = EXPECTED["rounds"][5]["result"]["running"]
    expect(phone.locator("#board_table tfoot td").nth(1)).to_have_text(points(running[1] + delta[1]), timeout=WAIT)
    assert totals(phone) == [points(v + d) for v, d in zip(running, delta, strict=True)]
    assert phone.locator("#board_live").get_attribute("data-marker") is None  # swapped

    phone.emulate_media(color_scheme="dark")
    phone.screenshot(path=str(screenshot_dir / "board-390-dark.png"), full_page=True)
    phone.set_viewport_size({"width": 320, "height": 700})
    phone.screenshot(path=str(screenshot_dir / "board-320.png"), full_page=True)
    scorer_context.close()


def test_the_big_screen_layout(app, live_server, page, screenshot_dir):
    _, _, view = start(app, rounds=17)
    page.set_viewport_size({"width": 1280, "height": 720})
    page.goto(f"{live_server}/b/{view}/screen")
    expect(page.locator("#board_standings")).to_be_visible()
    standings_box = page.locator("#board_standings").bounding_box()
    table_box = page.locator("#board_table").bounding_box()
    assert standings_box["x"] < table_box["x"]  # standings first, on the left
    assert loaded_width(page.locator(".board-qr img")) > 0
    page.screenshot(path=str(screenshot_dir / "board-screen-1280.png"))
    page.emulate_media(color_scheme="dark")
    page.screenshot(path=str(screenshot_dir / "board-screen-1280-dark.png"))
