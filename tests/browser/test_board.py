"""A second phone follows a game live from the QR code's link while the first scores it:
the board updates by itself after a save, an undo and an edit, answers 304 while nothing
changed, and never swaps an unchanged board. The big screen fits a TV's window, 1920×1080 and
1280×720, without scrolling. Screenshots: phone (light, dark, 320 px), big screen (both sizes,
light and dark), the scorer's share page."""

import json
import urllib.request
from pathlib import Path

import pytest
from playwright.sync_api import expect

from scorepad.extensions import db
from scorepad.scoring import BUILTIN, preset_to_dict
from scorepad.services import games
from tests.extremes import LONG_NAMES, full_game, nine_contract_preset

EXAMPLES = Path(__file__).parent.parent / "data" / "examples"
EXAMPLE = json.loads((EXAMPLES / "tournament-full.json").read_text())
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
                # htmx's poll is the page's own URL, whose answer a shared cache may keep (nginx in
                # deploy/): any other is noted as the status 0.
                public = dict(headers)["Cache-Control"] == "public, max-age=1, must-revalidate"
                seen.append(int(status.split()[0]) if public else 0)
            return start_response(status, headers, *args)

        return inner(environ, spy)

    app.wsgi_app = counting
    return seen


def start(app, rounds: int):
    with app.app_context():
        stored, _ = games.create_game({**EXAMPLE["game"], "title": "Club night", "rounds": ROUNDS[:rounds]})
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
    assert 304 in statuses and 0 not in statuses
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


# -- the big screen: a TV nobody scrolls (issue 13) ----------------------------------------------

#: Where an element's box is against the window: fully inside it or not.
BOX = """element => { const box = element.getBoundingClientRect();
  return {top: box.top, bottom: box.bottom, left: box.left, right: box.right, height: box.height}; }"""


#: The window's size (innerWidth, innerHeight) and the document's (scrollWidth, scrollHeight).
WINDOW_AND_PAGE = """() => ({window: [innerWidth, innerHeight],
  page: [document.documentElement.scrollWidth, document.documentElement.scrollHeight]})"""


def tv_games(app) -> dict[str, tuple[str, int]]:
    """Four games with four names of 40 characters, by name: (view token, rounds played). The
    tournament after 10 rounds (a current round) and after all 28, the Brader preset's 32
    rounds, and nine contracts after 28 of 36 rounds (the fullest current round: nine contract
    names, three quota lines, every double in every round)."""
    brader = json.loads((EXAMPLES / "brader-32-card.json").read_text())["game"]
    nine = full_game(LONG_NAMES, nine_contract_preset(), "Thursday night Barbu at the Café de la Gare, table two")
    nine["rounds"] = nine["rounds"][:28]
    documents = {
        "tournament-10": {**EXAMPLE["game"], "players": LONG_NAMES, "title": "Club night", "rounds": ROUNDS[:10]},
        "tournament-28": {**EXAMPLE["game"], "players": LONG_NAMES, "title": "Club night"},
        "brader-32": {**brader, "players": LONG_NAMES},
        "nine-28": nine,
    }
    boards = {}
    with app.app_context():
        for name, document in documents.items():
            stored, _ = games.create_game(document)
            boards[name] = stored.view_token, len(document["rounds"])
        db.session.remove()
    return boards


#: What the screen says of the rounds it leaves out: it shows the last nine (worked by hand:
#: rounds 2–10 of 10, 20–28 of 28, 24–32 of 32).
NOT_SHOWN = {10: "Round 1 not shown", 28: "Rounds 1–19 not shown", 32: "Rounds 1–23 not shown"}


@pytest.mark.parametrize("width, height", [(1920, 1080), (1280, 720)])
def test_the_big_screen_fits_a_tv_without_scrolling(app, live_server, browser, screenshot_dir, width, height):
    boards = tv_games(app)
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    for name, (view, played) in boards.items():
        page.goto(f"{live_server}/b/{view}/screen")
        size = page.evaluate(WINDOW_AND_PAGE)
        assert size["window"] == [width, height]
        assert size["page"][0] <= size["window"][0] and size["page"][1] <= size["window"][1], (name, size)
        # Whole in the window: the standings, the newest round, the Total row, the current round.
        parts = ["#board_standings", f"#board-round-{played}", "#board_table tfoot tr", "#board_table thead tr"]
        if played < 28 or name == "nine-28":
            parts.append("#board_current")
        for selector in parts:
            box = page.locator(selector).evaluate(BOX)
            assert box["height"] > 0 and box["top"] >= 0 and box["bottom"] <= height, (name, selector, box)
            assert box["left"] >= 0 and box["right"] <= width, (name, selector, box)
        # The older rounds gave way, and the screen says which.
        assert page.locator(f"#board-round-{played - 8}").count() == 1
        assert page.locator(f"#board-round-{played - 9}").count() == 0
        expect(page.locator(".rounds-not-shown")).to_have_text(NOT_SHOWN.get(played, "Rounds 1–19 not shown"))
        page.screenshot(path=str(screenshot_dir / f"board-screen-{name}-{width}.png"))
    page.emulate_media(color_scheme="dark")
    page.screenshot(path=str(screenshot_dir / f"board-screen-nine-28-{width}-dark.png"))
    context.close()


def test_a_preset_of_short_runs_keeps_the_newest_rounds_and_the_totals_on_the_screen(app, live_server, browser):
    """Two contracts a run: a run heading every second row. Should the rows not fit, the oldest
    ones are cut off at the top, never the newest ones or the totals."""
    preset = {
        **preset_to_dict(BUILTIN["tournament"]),
        "id": "two",
        "contracts": nine_contract_preset()["contracts"][:2],
    }
    document = full_game(LONG_NAMES, preset, "Short runs")
    with app.app_context():
        stored, _ = games.create_game(document)
        view = stored.view_token
        db.session.remove()
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    page = context.new_page()
    page.goto(f"{live_server}/b/{view}/screen")
    assert page.evaluate("document.documentElement.scrollHeight <= innerHeight")
    for selector in ("#board-round-8", "#board_table tfoot tr"):
        box = page.locator(selector).evaluate(BOX)
        assert box["top"] >= 0 and box["bottom"] <= 720, (selector, box)
    context.close()


def test_the_big_screen_still_fits_after_it_updates_itself(app, live_server, browser, screenshot_dir):
    """A save swaps the screen's live part (polled): the new round comes in at the bottom, the
    oldest shown one gives way, and the board still fits the window."""
    game_id, edit, view = start(app, rounds=10)
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    page = context.new_page()
    page.goto(f"{live_server}/b/{view}/screen")
    expect(page.locator(".rounds-not-shown")).to_have_text("Round 1 not shown")
    assert api(live_server, "POST", f"/api/v1/games/{game_id}/rounds", edit, ROUNDS[10]) == 201
    expect(page.locator("#board-round-11")).to_be_attached(timeout=WAIT)
    expect(page.locator(".rounds-not-shown")).to_have_text("Rounds 1–2 not shown")
    assert page.locator("#board-round-2").count() == 0
    assert page.evaluate("document.documentElement.scrollHeight <= innerHeight")
    for selector in ("#board-round-11", "#board_table tfoot tr", "#board_current"):
        box = page.locator(selector).evaluate(BOX)
        assert box["top"] >= 0 and box["bottom"] <= 720, (selector, box)
    expect(page.locator(".board-status")).to_contain_text("Round 12 of 28")
    page.screenshot(path=str(screenshot_dir / "board-screen-1280-after-a-save.png"))
    context.close()


def test_what_the_phone_cannot_do_stays_hidden(app, live_server, phone):
    """A phone on the club's Wi-Fi opens the scorepad over plain http, where browsers give no
    clipboard: the share page's "Copy link" (a button, ``hidden`` until board.js finds the
    Clipboard API) must stay hidden there, not show and fail on a tap. The Domino order's
    "Start the order again" is hidden until a player is placed. Both are ``<button hidden>``,
    which the buttons' own ``display`` used to override."""
    _, edit, _ = start(app, rounds=6)  # round 7: Beth's last contract, Domino (tournament-full)
    problems: list[str] = []
    phone.on("pageerror", lambda exc: problems.append(str(exc)))
    phone.add_init_script("delete Navigator.prototype.clipboard;")
    phone.goto(f"{live_server}/b/share/{edit}")
    expect(phone.locator(".share-qr")).to_be_visible()
    expect(phone.locator("button[data-copy]")).to_be_hidden()

    phone.goto(f"{live_server}/g/{edit}/rounds/new?contract=domino")
    reset = phone.locator("[data-order-reset]")
    expect(reset).to_be_hidden()
    phone.locator('#order .place[data-place="0"] input[value="0"]').tap()
    expect(reset).to_be_visible()
    assert problems == []
