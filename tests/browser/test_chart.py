"""The running totals chart on a phone (390×844): the board of a game with rounds shows the chart
image once scrolled to (it loads lazily), follows a new round without a reload, and the printable
chart page shows it large beside its table. Screenshots (tests/screenshots/): the board's chart in
light and dark mode, the printable page in light and dark mode."""

import json
import re
import urllib.request
from pathlib import Path

import pytest
from playwright.sync_api import expect

from scorepad.extensions import db
from scorepad.scoring import BUILTIN, preset_to_dict
from scorepad.services import games
from tests.conftest import SCREENSHOTS
from tests.extremes import LONG_NAMES, LONG_TITLE, full_game

EXAMPLE = json.loads((Path(__file__).parent.parent / "data" / "examples" / "tournament-full.json").read_text())
ROUNDS = EXAMPLE["game"]["rounds"]
LOADED = "img => img.complete && img.naturalWidth > 0"
WAIT = 8000  # ms: a few polls of the board (every 3 s)


@pytest.fixture
def game(app):
    """A tournament game with its first 12 rounds (of 28): id, edit and view tokens."""
    doc = {**EXAMPLE["game"], "rounds": ROUNDS[:12]}
    with app.app_context():
        stored, _ = games.create_game(doc)
        found = stored.id, stored.edit_token, stored.view_token
        db.session.remove()
    return found


def csp_errors(page) -> list[str]:
    messages: list[str] = []
    page.on("console", lambda m: messages.append(m.text) if "Content Security Policy" in m.text else None)
    return messages


def test_the_board_shows_the_chart_and_follows_a_new_round(live_server, phone, game, screenshot_dir):
    game_id, edit, view = game
    refused = csp_errors(phone)
    phone.goto(f"{live_server}/b/{view}")
    figure = phone.locator("#chart")
    figure.scroll_into_view_if_needed()
    image = figure.locator("img")
    phone.wait_for_function(LOADED, arg=image.element_handle())
    assert image.evaluate("img => img.naturalWidth") == 400
    expect(figure.get_by_role("link")).to_have_attribute("href", f"/b/{view}/chart")
    figure.screenshot(path=screenshot_dir / "chart-board-light.png")
    phone.emulate_media(color_scheme="dark")
    phone.wait_for_function(LOADED, arg=image.element_handle())
    figure.screenshot(path=screenshot_dir / "chart-board-dark.png")
    phone.emulate_media(color_scheme="light")

    # Another phone records round 13: the live part is swapped, the chart's address changes, the new image loads.
    before = image.get_attribute("src")
    body = json.dumps(ROUNDS[12]).encode()
    request = urllib.request.Request(
        f"{live_server}/api/v1/games/{game_id}/rounds",
        data=body,
        method="POST",
        headers={"Authorization": f"Bearer {edit}", "Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request) as response:
        assert response.status == 201
    expect(phone.locator("#board-round-13")).to_be_attached(timeout=WAIT)
    image = phone.locator("#chart img")
    assert image.get_attribute("src") != before
    image.scroll_into_view_if_needed()
    phone.wait_for_function(LOADED, arg=image.element_handle())
    assert refused == []


def test_the_printable_chart_page(live_server, phone, game, screenshot_dir):
    _game_id, _edit, view = game
    refused = csp_errors(phone)
    phone.goto(f"{live_server}/b/{view}/chart")
    image = phone.locator(".chart-large img")
    phone.wait_for_function(LOADED, arg=image.element_handle())
    expect(phone.locator(".chart-table tbody tr")).to_have_count(12)
    phone.screenshot(path=screenshot_dir / "chart-page-light.png", full_page=True)
    phone.emulate_media(color_scheme="dark")
    phone.wait_for_function(LOADED, arg=image.element_handle())
    phone.screenshot(path=screenshot_dir / "chart-page-dark.png", full_page=True)
    assert refused == []


def test_the_scorer_page_shows_the_chart(live_server, phone, game, screenshot_dir):
    _game_id, edit, _view = game
    phone.goto(f"{live_server}/g/{edit}")
    image = phone.locator("#chart img")
    image.scroll_into_view_if_needed()
    phone.wait_for_function(LOADED, arg=image.element_handle())
    phone.emulate_media(color_scheme="dark")
    phone.wait_for_function(LOADED, arg=image.element_handle())
    phone.screenshot(path=screenshot_dir / "chart-scorer-dark.png")


def test_the_printable_chart_of_a_whole_game_prints_on_one_page(live_server, browser, app):
    """28 rounds: the chart and its table side by side on one A4 page, in dark mode too (print is
    black on white)."""
    with app.app_context():
        stored, _ = games.create_game(EXAMPLE["game"])
        view = stored.view_token
        db.session.remove()
    context = browser.new_context(color_scheme="dark")
    page = context.new_page()
    page.goto(f"{live_server}/b/{view}/chart")
    page.wait_for_function(LOADED, arg=page.locator(".chart-large img").element_handle())
    page.emulate_media(media="print")
    page.screenshot(path=SCREENSHOTS / "chart-page-print.png", full_page=True)
    pdf = page.pdf(prefer_css_page_size=True)
    context.close()
    assert len(re.findall(rb"/Type\s*/Page(?!s)", pdf)) == 1
    assert re.search(rb"/Count\s+1\b", pdf)


def test_long_names_and_a_long_title_fit_the_chart(live_server, phone, app, screenshot_dir):
    """Names of 40 characters (Latin, Arabic, Hebrew) and an 80-character title: the legend cuts
    the names (their whole text in a tooltip), the title stays in the image."""
    doc = full_game(LONG_NAMES, preset_to_dict(BUILTIN["tournament"]), title=LONG_TITLE)
    with app.app_context():
        stored, _ = games.create_game(doc)
        view = stored.view_token
        db.session.remove()
    phone.goto(f"{live_server}/b/{view}")
    figure = phone.locator("#chart")
    figure.scroll_into_view_if_needed()
    phone.wait_for_function(LOADED, arg=figure.locator("img").element_handle())
    figure.screenshot(path=screenshot_dir / "chart-board-long-names.png")
