"""A scorer page opened again in the middle of a game (issue 26, item 9): at round 20 of the
tournament example the score table is 1,400 px tall at 390×844, and the page opened at its
top, the contract buttons 2,000 px below. Opened afresh (the table card scanned again, a
reload, even one after the page was scrolled away), it opens at the round to enter: the
current round's box with the last round's points and the totals at the top of the window, the
contract buttons (or, with one contract left, the form's first step) whole under it."""

from playwright.sync_api import Page

from tests.browser.test_table import start

#: Whether ``element`` lies whole inside the window.
WHOLE_IN_VIEW = """element => {
  const box = element.getBoundingClientRect();
  return box.height > 0 && box.top >= 0 && box.bottom <= window.innerHeight;
}"""


def shows_whole(page: Page, css: str) -> bool:
    return page.locator(css).evaluate(WHOLE_IN_VIEW)


def test_round_20_opens_at_its_contract_buttons_with_the_totals(app, live_server, phone, screenshot_dir):
    page = phone
    # Rounds 1–19 played: round 20 is Élodie's, Queens or Domino to choose.
    edit, _ = start(app, 19)
    page.goto(f"{live_server}/g/{edit}")
    assert page.locator(".contract-buttons a").all_inner_texts() == ["No Queens", "Domino"]
    assert shows_whole(page, ".contract-buttons")
    # The standings: the last round's line and the totals after it, in the current round's box.
    assert shows_whole(page, "#current_round .last-table")
    assert page.evaluate("scrollY") > 1000
    page.screenshot(path=str(screenshot_dir / "scorer-reopened-round-20.png"))
    # Scrolled back to the top, then reloaded: the same, not where it was left.
    page.evaluate("window.scrollTo(0, 0)")
    page.reload()
    assert shows_whole(page, ".contract-buttons") and shows_whole(page, "#current_round .last-table")
    # The card scanned again: a new visit of the same address.
    page.evaluate("window.scrollTo(0, 0)")
    page.goto(f"{live_server}/g/{edit}")
    assert shows_whole(page, ".contract-buttons") and shows_whole(page, "#current_round .last-table")


def test_with_one_contract_left_it_opens_at_the_rounds_form(app, live_server, phone):
    # Rounds 1–20 played: Élodie's last contract, Domino, is round 21's form itself.
    edit, _ = start(app, 20)
    phone.goto(f"{live_server}/g/{edit}")
    assert phone.locator("#form-title").inner_text() == "Round 21: Élodie declares Domino"
    assert shows_whole(phone, "#form-title") and shows_whole(phone, "#round_form fieldset >> nth=0")
    assert shows_whole(phone, "#current_round .last-table")


def test_a_link_to_a_row_still_opens_at_the_row(app, live_server, phone):
    """An address with a fragment names the part of the page to show: the browser's own."""
    edit, _ = start(app, 19)
    phone.goto(f"{live_server}/g/{edit}#round-3")
    assert shows_whole(phone, "#round-3")
    assert not shows_whole(phone, ".contract-buttons")
