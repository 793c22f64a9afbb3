"""The record of changes on a phone (390×844) and on paper (issue 15): the history page and the
marked board of the evening worked by hand in tests/test_history_page.py, and its sheet printed
by Chromium on A4, the sheet on its page and the notes on the rounds after it. Pictures to look
at in tests/screenshots/."""

import re

from tests.browser.test_csp import LISTEN
from tests.browser.test_sheet import pdf_pages, pdf_text, to_png
from tests.test_history_page import NOTE, evening

NO_SIDEWAYS = "document.documentElement.scrollWidth <= window.innerWidth"


def test_the_history_page_reads_on_a_phone(app, client, live_server, phone, screenshot_dir):
    game = evening(app, client)
    phone.add_init_script(LISTEN)
    phone.goto(f"{live_server}/h/{game['view_token']}")
    assert phone.evaluate("window.__csp") == []  # its stylesheet loads under the strict policy
    entries = phone.locator(".history-entry")
    assert entries.count() == 9
    assert entries.nth(8).locator(".entry-note").inner_text() == f"“{NOTE}”"
    assert re.fullmatch(r"9:14\sPM", entries.nth(5).locator(".entry-time").inner_text())
    assert phone.evaluate(NO_SIDEWAYS)
    phone.screenshot(path=str(screenshot_dir / "history-phone.png"), full_page=True)


def test_the_marked_board_reads_on_a_phone(app, client, live_server, phone, screenshot_dir):
    game = evening(app, client)
    phone.goto(f"{live_server}/b/{game['view_token']}")
    row = phone.locator("#board-round-3")
    assert row.locator(".rmark-disputed").is_visible()
    assert row.locator(".rmark-disputed").get_attribute("title") == "disputed"
    assert phone.locator(".edited-rounds").inner_text().startswith("✎ Round 2: edited twice, last at 9:14")
    assert not phone.locator(".trust-legend .legend-edited").is_visible()  # said by the line above
    assert phone.evaluate(NO_SIDEWAYS)
    phone.locator("#board_table").screenshot(path=str(screenshot_dir / "history-board-phone.png"))
    phone.screenshot(path=str(screenshot_dir / "history-board-phone-full.png"), full_page=True)
    # The scorer's page marks the same rounds.
    phone.goto(f"{live_server}/g/{game['edit_token']}")
    assert phone.locator("#round-3 .rmark-disputed").is_visible()
    assert phone.evaluate(NO_SIDEWAYS)
    phone.locator("#score_table").screenshot(path=str(screenshot_dir / "history-scorer-phone.png"))
    # The board's link to the history leads there.
    phone.goto(f"{live_server}/b/{game['view_token']}")
    phone.get_by_role("link", name="History of every change").click()
    phone.wait_for_url(f"{live_server}/h/{game['view_token']}")


def test_the_marked_sheet_prints_on_its_a4_page_with_the_notes_under_it(app, client, live_server, page, screenshot_dir):
    game = evening(app, client)
    page.goto(f"{live_server}/s/{game['view_token']}?paper=a4")
    page.emulate_media(media="print")
    pdf = screenshot_dir / "sheet-history-a4.pdf"
    page.pdf(path=str(pdf), format="A4", print_background=True, prefer_css_page_size=True)
    to_png(pdf, screenshot_dir / "sheet-history-a4")  # the sheet's page
    pages, size = pdf_pages(pdf)
    # The page has room for the notes: they follow the sheet on it (issue 26).
    assert (pages, size) == (1, (595, 842))
    sheet, notes = pdf_text(pdf).split("Notes on the rounds")
    assert "Rank" in sheet and "The notes on these rounds follow the sheet." in " ".join(sheet.split())
    assert "Round 2 was changed twice after it was recorded, last at 9:14" in " ".join(notes.split())


def test_the_big_screen_shows_the_marks_beside_the_round_numbers(app, client, live_server, page, screenshot_dir):
    game = evening(app, client)
    page.set_viewport_size({"width": 1280, "height": 720})
    page.goto(f"{live_server}/b/{game['view_token']}/screen")
    assert page.locator("#board-round-3 .rmark-disputed").is_visible()
    assert page.locator("#board-round-1 .rmark-confirmed").is_visible()
    # ✎ explained in the legend; the edited rounds' lines and the history's link are for phones.
    assert page.locator(".trust-legend .legend-edited").is_visible()
    assert not page.locator(".edited-rounds").is_visible()
    assert not page.get_by_role("link", name="History of every change").is_visible()
    page.screenshot(path=str(screenshot_dir / "history-board-screen.png"))
