"""What players expect at a table (issue 13): the screen stays on while a game is open and a
short vibration confirms a saved round, each turned off by the player and remembered on the
phone; a finished game offers Play again and shares its result (the share sheet with the card
image, or the text copied). Screenshots: the settings, the finished game, the new game.

Headless Chromium has no Screen Wake Lock and no share sheet on Linux, so those browser APIs
(and ``navigator.vibrate``, to see its calls) are stood in for by an init script that records
how the page calls them; the page's own code (static/js/table.js) runs as it is. Without them,
nothing shows and nothing is logged."""

import json
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from scorepad.extensions import db
from scorepad.models import StoredGame
from scorepad.services import games
from tests.browser.test_full_game import fill_round, save_round

EXAMPLE = json.loads((Path(__file__).parent.parent / "data" / "examples" / "tournament-full.json").read_text())
GAME = {**EXAMPLE["game"], "title": "Thursday, table 2"}
ROUNDS = GAME["rounds"]
# tournament-full's round 28: Anne (seat 1) declares, the seat after Beth's (2), Marc's (3) and Élodie's (0) runs.
LAST_DECLARER = 1

#: Stand-ins for the browser's Screen Wake Lock, vibration and share sheet, recording each call
#: in ``window.__table``. A lock is an EventTarget with ``release()``, as the real sentinel is.
BROWSER_APIS = """
window.__table = { wake: [], released: 0, vibrate: [], shared: [], sentinels: [] };
Object.defineProperty(navigator, "wakeLock", { configurable: true, value: { request: function (type) {
  window.__table.wake.push(type);
  var sentinel = new EventTarget();
  sentinel.type = type;
  sentinel.released = false;
  sentinel.release = function () {
    if (!sentinel.released) {
      sentinel.released = true;
      window.__table.released += 1;
      sentinel.dispatchEvent(new Event("release"));
    }
    return Promise.resolve();
  };
  window.__table.sentinels.push(sentinel);
  return Promise.resolve(sentinel);
} } });
Object.defineProperty(navigator, "vibrate", { configurable: true, value: function (pattern) {
  window.__table.vibrate.push(pattern);
  return true;
} });
Object.defineProperty(navigator, "canShare", { configurable: true, value: function (data) {
  return !!(data && data.files && data.files.every(function (f) { return f.type === "image/png"; }));
} });
Object.defineProperty(navigator, "share", { configurable: true, value: function (data) {
  window.__table.shared.push({ title: data.title, text: data.text, url: data.url,
    files: (data.files || []).map(function (f) { return [f.name, f.type, f.size]; }) });
  return Promise.resolve();
} });
"""
#: A browser with none of them (a page on plain http over the LAN has no share sheet, no clipboard
#: and no wake lock either; Chromium keeps vibrate): the page must show nothing it cannot do.
NO_APIS = """
for (const name of ["wakeLock", "vibrate", "share", "canShare", "clipboard"]) {
  delete Navigator.prototype[name];
}
"""


@pytest.fixture
def errors(phone):
    """Every console error and uncaught exception of the page: none is allowed."""
    seen: list[str] = []

    def console(message) -> None:
        if message.type == "error":
            seen.append(message.text)

    phone.on("console", console)
    phone.on("pageerror", lambda error: seen.append(f"pageerror: {error}"))
    return seen


def start(app, rounds: int) -> tuple[str, str]:
    with app.app_context():
        stored, _ = games.create_game({**GAME, "rounds": ROUNDS[:rounds]})
        tokens = stored.edit_token, stored.view_token
        db.session.remove()
    return tokens


def open_game(app, live_server: str, page: Page, rounds: int, script: str | None = BROWSER_APIS, token: int = 0):
    """The tournament example with ``rounds`` recorded, its page open (``token`` 0: the scorer's,
    1: the read-only one) with ``script`` run first in every page; the (edit, view) tokens."""
    if script:
        page.add_init_script(script)
    tokens = start(app, rounds)
    page.goto(f"{live_server}/g/{tokens[token]}")
    return tokens


def table(page: Page) -> dict:
    return page.evaluate(
        "({wake: window.__table.wake, released: window.__table.released, "
        "vibrate: window.__table.vibrate, shared: window.__table.shared})"
    )


def test_the_screen_stays_on_until_the_player_turns_it_off(app, live_server, phone, errors, screenshot_dir):
    page = phone
    edit, _view = open_game(app, live_server, page, 5)
    settings = page.locator("#table_settings")
    expect(settings).to_be_visible()
    keep_on = settings.get_by_label("Keep the screen on")
    vibrate = settings.get_by_label("Vibrate when a round is saved")
    expect(keep_on).to_be_checked()
    expect(vibrate).to_be_checked()
    page.wait_for_function("window.__table.wake.length === 1")
    assert table(page)["wake"] == ["screen"]
    settings.screenshot(path=str(screenshot_dir / "table-settings-390.png"))

    # The browser lets the lock go when the page is hidden; back in view, it is asked for again.
    page.evaluate("window.__table.sentinels[0].release()")
    page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    page.wait_for_function("window.__table.wake.length === 2")

    # Off: the lock is let go at once, and stays off on this phone (a reload asks for none).
    keep_on.uncheck()
    page.wait_for_function("window.__table.released === 2")
    assert page.evaluate("localStorage.getItem('scorepad.wakeLock')") == "off"
    page.reload()
    expect(keep_on).not_to_be_checked()
    expect(vibrate).to_be_checked()
    page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    assert table(page)["wake"] == []
    # On again: asked for at once.
    keep_on.check()
    page.wait_for_function("window.__table.wake.length === 1")
    assert page.evaluate("localStorage.getItem('scorepad.wakeLock')") == "on"
    assert errors == [], errors


def test_a_saved_round_vibrates_unless_turned_off(app, live_server, phone, errors):
    page = phone
    edit, _view = open_game(app, live_server, page, 4)
    # Rounds 5 and 6: Beth (seat 2) declares, the fifth and sixth of her run.
    fill_round(page, ROUNDS[4], 2)
    save_round(page, 5)
    assert table(page)["vibrate"] == [40]
    assert errors == [], errors
    # A refused save (nothing tapped: 422) does not vibrate.
    page.locator(f"a[data-contract='{ROUNDS[5]['contract']}']").tap()
    with page.expect_response(lambda r: r.request.method == "POST" and r.url.endswith("/rounds")) as response:
        page.get_by_role("button", name="Save round 6").tap()
    assert response.value.status == 422
    assert table(page)["vibrate"] == [40]
    # Chromium's own line for the refusal's status, the only one (no script logs anything).
    assert errors == ["Failed to load resource: the server responded with a status of 422 (UNPROCESSABLE ENTITY)"]
    page.reload()
    errors.clear()
    # Turned off (and remembered): the next save is silent.
    page.get_by_label("Vibrate when a round is saved").uncheck()
    assert page.evaluate("localStorage.getItem('scorepad.vibrate')") == "off"
    page.reload()
    expect(page.get_by_label("Vibrate when a round is saved")).not_to_be_checked()
    fill_round(page, ROUNDS[5], 2)
    save_round(page, 6)
    assert table(page)["vibrate"] == []
    assert errors == [], errors


def test_the_last_round_offers_play_again_and_shares_the_result(app, live_server, phone, errors, screenshot_dir):
    page = phone
    edit, view = open_game(app, live_server, page, 27)
    fill_round(page, ROUNDS[27], LAST_DECLARER)
    save_round(page, 28)
    finished = page.locator("#finished")
    expect(finished).to_be_visible()
    share = finished.get_by_role("button", name="Share the result")
    expect(share).to_be_visible()
    page.screenshot(path=str(screenshot_dir / "table-finished-390.png"), full_page=True)
    finished.screenshot(path=str(screenshot_dir / "table-finished-actions-390.png"))

    # The card is fetched beforehand, so the share sheet opens at the tap with the image.
    expect(finished.locator("button[data-share-card-ready]")).to_have_count(1)
    share.tap()
    page.wait_for_function("window.__table.shared.length === 1")
    shared = table(page)["shared"][0]
    # tournament-full's final standings: Beth 132, Anne 56, Marc 46, Élodie −234.
    assert shared["title"] == "Thursday, table 2"
    assert shared["text"] == "\n".join(
        [
            "Thursday, table 2",
            "Final standings:",
            "1. \u2068Beth\u2069 132",
            "2. \u2068Anne\u2069 56",
            "3. \u2068Marc\u2069 46",
            "4. \u2068Élodie\u2069 −234",
        ]
    )
    assert shared["url"] == f"{live_server}/b/{view}"
    [(name, kind, size)] = shared["files"]
    assert name.startswith("barbu-") and name.endswith(".png") and kind == "image/png" and size > 10_000

    # Play again: Marc (seat 3, on the left of Beth, who declared first) opens the new game.
    expect(finished).to_contain_text("Marc declares first")
    with page.expect_navigation():
        finished.get_by_role("button", name="Play again").tap()
    expect(page.locator(".flash")).to_have_text("Play again: \u2068Marc\u2069 declares first.")
    expect(page.locator("h1")).to_have_text("Thursday, table 2")
    expect(page.locator("#step-title")).to_contain_text("Which contract did Marc choose?")
    assert f"/g/{edit}" not in page.url
    with app.app_context():
        assert games.find_by_token(page.url.rsplit("/", 1)[1]) is not None  # the new game's edit token
        assert db.session.query(StoredGame).count() == 2  # one tap, one game
        db.session.remove()
    page.screenshot(path=str(screenshot_dir / "table-rematch-390.png"))
    assert errors == [], errors


def test_without_a_share_sheet_the_result_is_copied(app, live_server, phone, errors):
    page = phone
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server)
    _edit, view = open_game(app, live_server, page, 28, None, token=1)  # a read-only page shares too
    finished = page.locator("#finished")
    expect(finished.get_by_role("button", name="Play again")).to_have_count(0)
    finished.get_by_role("button", name="Share the result").tap()
    expect(finished.locator("[data-share-feedback]")).to_have_text("Result copied: paste it into a message.")
    copied = page.evaluate("navigator.clipboard.readText()")
    assert copied.startswith("Thursday, table 2\nFinal standings:\n1. \u2068Beth\u2069 132\n")
    assert copied.endswith(f"\n{live_server}/b/{view}")
    assert errors == [], errors


def test_a_browser_without_these_features_shows_nothing_it_cannot_do(app, live_server, phone, errors, screenshot_dir):
    page = phone
    _edit, view = open_game(app, live_server, page, 28, NO_APIS)
    expect(page.locator("#table_settings")).to_be_hidden()
    finished = page.locator("#finished")
    expect(finished.get_by_role("button", name="Share the result")).to_be_hidden()
    # What remains: Play again and the card image as a link.
    expect(finished.get_by_role("button", name="Play again")).to_be_visible()
    image = finished.get_by_role("link", name="Result as an image")
    expect(image).to_have_attribute("href", f"/b/{view}/card.png?lang=en")
    finished.screenshot(path=str(screenshot_dir / "table-finished-no-share-390.png"))
    assert errors == [], errors
