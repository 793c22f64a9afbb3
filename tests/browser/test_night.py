"""A club night's public pages in a browser: the event board on a phone (390×844), the TV layout
at 1920×1080 and 1280×720 with 20 players, never scrolled, the board updating itself after a save
at a table, and the results printed on one A4 page. Screenshots (tests/screenshots/): night-board-390,
night-screen-1920 and -1280 (light, dark), night-screen-40-1920 and -60-1920, night-results.png (the printed page)."""

import re

import pytest
from playwright.sync_api import expect

from tests.browser.test_sheet import pdf_pages, pdf_text, to_png
from tests.test_night import Night, adjust, create, save

NAMES = [
    "Anne",
    "Beth",
    "Marie-Christine van den Berg",
    "Dora",
    "Élodie",
    "Fay",
    "Gina",
    "Hugo",
    "Ivan",
    "Jacqueline Oosterhuis",
    "Karel",
    "Lotte",
    "Marc",
    "Nina",
    "Olaf",
    "Piet",
    "Quinten",
    "Rosa",
    "Sem",
    "Tess",
]
#: Rounds a table may save in this order (any declarer may choose them, round 1 to 3).
ROUNDS = [
    {"contract": "no-queens", "doubles": [], "outcome": {"queens": [1, 2, 0, 1]}},
    {"contract": "no-tricks", "doubles": [], "outcome": {"tricks": [4, 3, 2, 4]}},
    {"contract": "no-hearts", "doubles": [], "outcome": {"hearts": [3, 5, 4, 1], "ace": 1}},
]
WAIT = 8000  # ms: a few polls (every 3 s)


def night(app, players: list[str], played: dict[int, int]) -> Night:
    """A two-session night of ``players`` (seating drawn) whose session 1 tables saved
    ``played[table]`` rounds, with an adjustment."""
    created = create(app, players=players, seating=None)
    for number, rounds in played.items():
        for n in range(rounds):
            save(app, created, 1, number, ROUNDS[n])
    adjust(app, created, 3, -10, "arrived after the first round")
    return created


def no_scroll(page) -> bool:
    return page.evaluate(
        "document.scrollingElement.scrollHeight <= innerHeight && document.scrollingElement.scrollWidth <= innerWidth"
    )


def test_the_event_board_on_a_phone_updates_itself(app, live_server, phone, screenshot_dir):
    created = night(app, NAMES, {1: 3, 2: 1, 3: 2})
    errors: list[str] = []
    phone.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    phone.goto(f"{live_server}/n/{created.view_token}")
    expect(phone.locator("h1")).to_have_text("Thursday club night")
    expect(phone.locator("#night_leaderboard tbody tr")).to_have_count(20)
    expect(phone.locator(".night-status")).to_contain_text("Session 1 of 2 is on")
    # The page is no wider than the phone.
    assert phone.evaluate("document.scrollingElement.scrollWidth <= innerWidth")
    phone.screenshot(path=str(screenshot_dir / "night-board-390.png"), full_page=True)
    # A save at table 5 shows on the board by itself.
    table5 = phone.locator("#night_session_1 .night-table").nth(4)
    expect(table5).to_contain_text("not started")
    save(app, created, 1, 5, ROUNDS[0])
    expect(table5).to_contain_text("1 of 28 rounds", timeout=WAIT)
    assert errors == []  # no script error, nothing the CSP refused (an inline style, a script)


@pytest.mark.parametrize("width, height", [(1920, 1080), (1280, 720)])
def test_the_screen_fits_a_tv_without_scrolling(app, live_server, browser, screenshot_dir, width, height):
    created = night(app, NAMES, {1: 3, 2: 1, 3: 2, 4: 1})
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    page.goto(f"{live_server}/n/{created.view_token}/screen")
    expect(page.locator("#night_leaderboard tbody tr")).to_have_count(20)
    expect(page.locator("#night_tables .night-table")).to_have_count(5)
    assert no_scroll(page)
    # Every line of the leaderboard and every table is inside the window.
    bottom = page.evaluate(
        "Math.max(...[...document.querySelectorAll('#night_leaderboard tr, .night-table')]"
        ".map(e => e.getBoundingClientRect().bottom))"
    )
    assert bottom <= height
    page.screenshot(path=str(screenshot_dir / f"night-screen-{width}.png"))
    page.emulate_media(color_scheme="dark")
    page.screenshot(path=str(screenshot_dir / f"night-screen-{width}-dark.png"))
    # After a save the new fragment still fits.
    save(app, created, 1, 5, ROUNDS[0])
    expect(page.locator("#night_tables .night-table").nth(4)).to_contain_text("1 of 28 rounds", timeout=WAIT)
    assert no_scroll(page)
    context.close()


@pytest.mark.parametrize("count, lines, tables", [(40, 40, 10), (60, 42, 15)])
def test_the_screen_with_many_players_uses_three_columns(
    app, live_server, browser, screenshot_dir, count, lines, tables
):
    players = [f"{NAMES[n % 20]}{' II' if n >= 20 else ''}{' III' if n >= 40 else ''}" for n in range(count)]
    created = night(app, players, {1: 2, 4: 1, 7: 3})
    context = browser.new_context(viewport={"width": 1920, "height": 1080})
    page = context.new_page()
    page.goto(f"{live_server}/n/{created.view_token}/screen")
    expect(page.locator("#night_leaderboard table")).to_have_count(3)
    expect(page.locator("#night_leaderboard tbody tr")).to_have_count(lines)
    expect(page.locator("#night_tables .night-table")).to_have_count(tables)
    if count > lines:
        expect(page.locator(".night-more")).to_have_text(f"{count - lines} more players: see the board on your phone")
    assert no_scroll(page)
    bottom = page.evaluate(
        "Math.max(...[...document.querySelectorAll('#night_leaderboard tr, .night-more, .night-table')]"
        ".map(e => e.getBoundingClientRect().bottom))"
    )
    assert bottom <= 1080
    page.screenshot(path=str(screenshot_dir / f"night-screen-{count}-1920.png"))
    context.close()


def test_the_results_print_on_one_a4_page(app, live_server, page, screenshot_dir):
    created = night(app, NAMES, {1: 3, 2: 1, 3: 2, 4: 1})
    page.goto(f"{live_server}/n/{created.view_token}/results")
    page.screenshot(path=str(screenshot_dir / "night-results-screen.png"), full_page=True)
    # On a phone the page is no wider than the screen (the leaderboard scrolls sideways in its box).
    page.set_viewport_size({"width": 390, "height": 844})
    assert page.evaluate("document.scrollingElement.scrollWidth <= innerWidth")
    page.screenshot(path=str(screenshot_dir / "night-results-390.png"), full_page=True)
    page.set_viewport_size({"width": 1280, "height": 720})
    page.emulate_media(media="print")
    pdf = screenshot_dir / "night-results.pdf"
    page.pdf(path=str(pdf), format="A4", print_background=True, prefer_css_page_size=True)
    to_png(pdf, screenshot_dir / "night-results")
    pages, size = pdf_pages(pdf)
    assert pages == 1
    assert size == (595, 842)
    text = pdf_text(pdf)
    assert "Thursday club night" in text
    assert "arrived after the first round" in text
    assert re.search(r"Session 2", text)
    for name in ("Anne", "Tess", "Jacqueline Oosterhuis"):
        assert name in text
