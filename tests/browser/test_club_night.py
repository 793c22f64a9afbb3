"""A club night on phones (issue 14; club-format.md "Club night"), from end to end at 390×844:
the organiser creates a 12-player night of two sessions on the phone and prints the table
cards; two scorer phones open their tables' scorer pages from the director's links and save a
round each; a third phone follows the event board, which updates itself (no reload); the
director closes the night and a scorer's next save is refused, saying the night is closed.
Screenshots in tests/screenshots/club-night-*.png (and the cards printed on A4)."""

import re
import shutil
import subprocess
from urllib.parse import urljoin

import pytest
from playwright.sync_api import Page, expect

from tests.browser.test_full_game import fill_round, save_round

PLAYERS = ["Anne", "Beth", "Cath", "Diana", "Emma", "Fleur", "Greta", "Hanna", "Ines", "Joke", "Karin", "Lotte"]
WAIT = 10000  # ms: a few of the board's polls (every 3 s)
MINUS = "\u2212"
#: A leaderboard line without a game yet: a dash for its rank (and words for screen readers after it).
UNRANKED = re.compile("^–")

# Round 1 at table 1: the Barbu (King of hearts, −20 in the tournament preset), taken by seat 2,
# nobody doubled. At table 2: No last two (penultimate −10, last −20), seat 0 took the
# penultimate trick and seat 1 the last. Without doubles either is valid whoever declares.
TABLE_1_ROUND = {"contract": "no-king-of-hearts", "doubles": [], "outcome": {"king": 2}}
TABLE_2_ROUND = {"contract": "no-last-two", "doubles": [], "outcome": {"penultimate": 0, "last": 1}}
# The save refused once the night is closed (the next round at table 1: four queens, one each).
CLOSED_ROUND = {"contract": "no-queens", "doubles": [], "outcome": {"queens": [1, 1, 1, 1]}}


@pytest.fixture
def phones(browser, playwright):
    """New phones (iPhone 13 metrics, touch, 390×844), each its own context: ``phones()``."""
    device = {k: v for k, v in playwright.devices["iPhone 13"].items() if k != "default_browser_type"}
    contexts = []

    def new_phone() -> Page:
        contexts.append(browser.new_context(**{**device, "viewport": {"width": 390, "height": 844}}))
        return contexts[-1].new_page()

    yield new_phone
    for context in contexts:
        context.close()


def create_night(page: Page, base: str, shot) -> None:
    """The organiser's new night, typed on the phone: title, two sessions (the default), by
    points (the default), the twelve players pasted as a list; lands on the director's console."""
    page.goto(base + "/")
    page.get_by_role("link", name="New club night").tap()
    page.get_by_label("Title").fill("Thursday club night")
    page.get_by_label("Players present").fill("\n".join(f"{n}. {name}" for n, name in enumerate(PLAYERS, 1)))
    expect(page.locator("#players-count")).to_have_text("Players listed: 12")
    expect(page.get_by_label("Sessions")).to_have_value("2")
    shot("01-new-night")
    page.get_by_role("button", name="Create the night").tap()
    page.wait_for_url(re.compile(r"/d/[^/]+$"))
    expect(page.locator("h1")).to_have_text("Thursday club night")


def table_names(page: Page, session: int, table: int) -> list[str]:
    """The four players of a table in seat order, as the director's console lists them."""
    text = page.locator(f"li[data-table='{session}-{table}'] .table-names").inner_text()
    return [name.strip() for name in text.split("·")]


def print_cards(page: Page, shot, screenshot_dir) -> None:
    """The table cards: one per table of both sessions (3 + 3), each with four players and two QR
    codes (the scorer's page and, the night's confirmation being optional, the confirm page:
    issue 15); the print media on the phone, then the page printed on A4 (PDF, as PNG to look at)."""
    page.get_by_role("link", name="Table cards").tap()
    cards = page.locator("article.table-card")
    expect(cards).to_have_count(6)
    for card in cards.all():
        expect(card.locator(".seat-list li")).to_have_count(4)
        expect(card.locator(".card-qr svg")).to_have_count(2)
    # Printed, the page is laid out at the paper's width, whatever the phone's: A4 at 96 dpi.
    page.set_viewport_size({"width": 794, "height": 1123})
    page.emulate_media(media="print")
    shot("02-cards-print")
    pdf = screenshot_dir / "club-night-cards.pdf"
    page.pdf(path=str(pdf), format="A4", print_background=True)
    page.emulate_media(media="screen")
    page.set_viewport_size({"width": 390, "height": 844})
    if shutil.which("pdftoppm"):
        subprocess.run(
            ["pdftoppm", "-png", "-r", "60", str(pdf), str(screenshot_dir / "club-night-cards-a4")], check=True
        )
    page.go_back()


def leaderboard_column(page: Page, css: str):
    """The cells ``css`` of every line of the event board's leaderboard, top to bottom."""
    return page.locator(f"#night_leaderboard tbody {css}")


def leaderboard_line(page: Page, name: str):
    """The leaderboard's line of the player ``name``."""
    return page.locator("#night_leaderboard tbody tr").filter(
        has=page.locator("th.name", has_text=re.compile(f"^{re.escape(name)}$"))
    )


def test_a_club_night_on_phones(live_server, browser, phones, screenshot_dir):
    organiser, scorer_1, scorer_2, viewer = phones(), phones(), phones(), phones()

    def shot(name: str, page: Page | None = None) -> None:
        (page or organiser).screenshot(path=str(screenshot_dir / f"club-night-{name}.png"), full_page=True)

    create_night(organiser, live_server, shot)
    shot("03-console")
    print_cards(organiser, shot, screenshot_dir)
    table_1, table_2 = table_names(organiser, 1, 1), table_names(organiser, 1, 2)
    assert sorted(table_1 + table_2 + table_names(organiser, 1, 3)) == sorted(PLAYERS)

    # The third phone opens the event board from the console's link, and keeps it open: a value
    # put on its window would be gone after a reload.
    viewer.goto(urljoin(organiser.url, organiser.get_by_role("link", name="Event board").get_attribute("href")))
    viewer.evaluate("window.keptOpen = true")
    expect(leaderboard_column(viewer, "td.rank")).to_have_text([UNRANKED] * 12)
    shot("04-board-before", viewer)

    # Each scorer phone opens its table's scorer page from the director's link.
    for scorer, table in ((scorer_1, 1), (scorer_2, 2)):
        href = organiser.locator(f"li[data-table='1-{table}']").get_by_role("link", name="Scorer’s page")
        scorer.goto(urljoin(organiser.url, href.get_attribute("href")))
        expect(scorer.locator("#current_round")).to_contain_text("Round 1 of 28")
    fill_round(scorer_1, TABLE_1_ROUND, 0)
    save_round(scorer_1, 1)
    # Table 1 alone: its seat 2 took the King (−20), the three others 0; they rank on their
    # average: the three at 0 share rank 1, the King's taker is 4th; table 2 and 3 not yet.
    expect(leaderboard_line(viewer, table_1[2]).locator("td.total")).to_have_text(f"{MINUS}20", timeout=WAIT)
    expect(leaderboard_column(viewer, "td.rank")).to_have_text(["1", "1", "1", "4"] + [UNRANKED] * 8)

    fill_round(scorer_2, TABLE_2_ROUND, 0)
    save_round(scorer_2, 1)
    shot("05-scorer-table-2", scorer_2)
    # Both tables: five players at 0 (rank 1), table 2's seat 0 at −10 (6th), table 1's seat 2
    # and table 2's seat 1 at −20 (7th, shared); table 3's four have no game yet.
    expect(leaderboard_column(viewer, "td.rank")).to_have_text(
        ["1"] * 5 + ["6", "7", "7"] + [UNRANKED] * 4, timeout=WAIT
    )
    expect(leaderboard_column(viewer, "td.total")).to_have_text(
        ["0"] * 5 + [f"{MINUS}10", f"{MINUS}20", f"{MINUS}20"] + ["0"] * 4
    )
    expect(leaderboard_column(viewer, "th.name").nth(5)).to_have_text(table_2[0])
    # Places: the players at the table with a lower final, plus half of those with an equal one.
    # Table 1 by seat: 0, 0, −20, 0; table 2 by seat: −10, −20, 0, 0.
    places = {
        **dict(zip(table_1, ["2", "2", "0", "2"], strict=True)),
        **dict(zip(table_2, ["1", "0", "2.5", "2.5"], strict=True)),
    }
    for name, value in places.items():
        expect(leaderboard_line(viewer, name).locator("td:nth-child(5)")).to_have_text(value)
    expect(leaderboard_column(viewer, "td:nth-child(3)")).to_have_text(["1"] * 8 + ["0"] * 4)  # games
    progress = viewer.locator("#night_session_1 .night-table-status")
    expect(progress).to_have_text(["1 of 28 rounds", "1 of 28 rounds", "not started"])
    assert viewer.evaluate("window.keptOpen") is True
    shot("06-board-two-tables", viewer)

    # Table 1's scorer enters round 2 while the director closes the night.
    fill_round(scorer_1, CLOSED_ROUND, 0)
    expect(scorer_1.locator("#preview.htmx-request")).to_have_count(0)

    # The director closes the night: the console says so, and so does the board, by itself.
    organiser.reload()
    organiser.get_by_role("checkbox", name=re.compile("tables? ha(s|ve) not finished")).check()
    organiser.get_by_role("button", name="Close the night").tap()
    expect(organiser.get_by_role("button", name="Reopen the night")).to_be_visible()
    expect(organiser.locator("#console_live")).to_contain_text("Every table is read-only.")
    shot("07-console-closed")
    expect(viewer.locator(".night-status")).to_contain_text("The night is closed", timeout=WAIT)
    assert viewer.evaluate("window.keptOpen") is True
    shot("08-board-closed", viewer)

    # Table 1's scorer saves round 2: refused (409), saying why; nothing saved.
    with scorer_1.expect_response(lambda r: r.request.method == "POST" and r.url.endswith("/rounds")) as answer:
        scorer_1.get_by_role("button", name="Save round 2").tap()
    assert answer.value.status == 409
    # The phone keeps the refused round (the offline outbox's card) with the server's reason.
    expect(scorer_1.locator("#outbox")).to_contain_text("The night is closed")
    # Refused, not "the game changed meanwhile": no offer to save it as another round.
    expect(scorer_1.locator("#outbox")).to_contain_text("Not saved: the server refused this round")
    expect(scorer_1.locator("#outbox").get_by_role("button", name=re.compile("^Save it as round"))).to_have_count(0)
    expect(scorer_1.locator("#round-2")).to_have_count(0)
    # The page now says the night is closed and offers no round to enter.
    expect(scorer_1.locator("#round_form")).to_contain_text("The night is closed: this table can no longer be scored.")
    expect(scorer_1.locator("form.round-form")).to_have_count(0)
    shot("09-scorer-refused", scorer_1)

    # The TV layout of the same board fits 1920×1080 without scrolling.
    tv = browser.new_page(viewport={"width": 1920, "height": 1080})
    try:
        tv.goto(urljoin(viewer.url, viewer.get_by_role("link", name="Big screen").get_attribute("href")))
        expect(tv.locator(".night-status")).to_contain_text("The night is closed")
        assert tv.evaluate("document.documentElement.scrollHeight") <= 1080
        # All twelve players on the screen, each line whole (a night of 12 needs no "more" line).
        lines = tv.locator("#night_leaderboard tbody tr")
        expect(lines).to_have_count(12)
        bottoms = lines.evaluate_all("rows => rows.map(row => row.getBoundingClientRect().bottom)")
        assert max(bottoms) <= 1080, f"leaderboard lines below the TV's window: {bottoms}"
        shot("10-tv", tv)
    finally:
        tv.close()
