"""A second phone checks the scorer's rounds (issue 15; club-format.md "Trust: confirmation and
history"), two phones at 390×844 in two browser contexts: the scorer opens "Let another player
check", the witness opens its link and leaves the page open. The scorer records a round, the
witness's page shows it by itself (its poll) and the witness confirms it in one tap; the scorer
records another, the witness disputes it with a note; the scorer sees the note and edits the
round; the witness's page shows it waiting again and the witness confirms it. Screenshots: the
confirm page (a round waiting, a disputed one, all checked), the scorer's box with the QR code
and the disputed note, the board.

The game: tournament preset, Anne declares the first run.
- Round 1, No Queens, queens 0/1/2/1, Beth doubled Anne: raw 0, −6, −12, −6 (6 a queen); the
  pair settles the difference: Beth pays 6 to Anne.
- Round 2, Trumps (hearts), tricks 4/3/3/3, nobody doubled: raw 20, 15, 15, 15 (5 a trick);
  the scorer's correction: spades were trumps.
- Round 3, No Tricks, saved while the witness writes the note of round 2.
"""

from playwright.sync_api import Locator, Page, expect

from scorepad.extensions import db
from scorepad.services import games, rounds
from tests.browser.test_csp import CSP_WORDS, LISTEN
from tests.browser.test_full_game import fill_round, save_round

PLAYERS = ["Anne", "Beth", "Cath", "Diana"]
ROUND_1 = {"contract": "no-queens", "doubles": [[1, 0]], "outcome": {"queens": [0, 1, 2, 1]}}
ROUND_2 = {"contract": "trumps", "trump": "hearts", "doubles": [], "outcome": {"tricks": [4, 3, 3, 3]}}
ROUND_3 = {"contract": "no-tricks", "doubles": [], "outcome": {"tricks": [4, 3, 3, 3]}}
NOTE = "Beth took the last trick"
WAIT = 8000  # ms: a few polls (every 3 s)


def phone_context(browser, playwright, console: list[str]):
    """A phone's context (iPhone 13 metrics, 390×844) whose pages report Content-Security-Policy
    violations (``window.__csp``) and console errors (into ``console``)."""
    device = {k: v for k, v in playwright.devices["iPhone 13"].items() if k != "default_browser_type"}
    context = browser.new_context(**{**device, "viewport": {"width": 390, "height": 844}})
    context.add_init_script(LISTEN)
    context.on("console", lambda message: console.append(message.text) if message.type == "error" else None)
    return context


def waiting(page: Page) -> list[str]:
    return page.locator("article.check-round").evaluate_all("els => els.map(e => e.id)")


def checked(page: Page) -> list[str]:
    return page.locator("details.checked-round").evaluate_all("els => els.map(e => e.id)")


def scorer_saves(scorer: Page, witness: Page, rnd: dict, number: int) -> Locator:
    """The scorer taps round ``number`` in (Anne declares) and saves it; the witness's page,
    untouched, shows it waiting (its poll): the round's article there."""
    fill_round(scorer, rnd, 0)
    save_round(scorer, number)
    article = witness.locator(f"article#round-{number}")
    expect(article).to_be_visible(timeout=WAIT)
    return article


def test_a_second_phone_confirms_disputes_and_confirms_again(app, live_server, browser, playwright, screenshot_dir):
    with app.app_context():
        stored, _ = games.create_game({"players": PLAYERS, "first_declarer": 0, "preset": "tournament"})
        edit, view = stored.edit_token, stored.view_token
        db.session.remove()

    console: list[str] = []
    scorer_context = phone_context(browser, playwright, console)
    witness_context = phone_context(browser, playwright, console)
    scorer, witness = scorer_context.new_page(), witness_context.new_page()

    # The scorer's page: "Let another player check" opens on the QR code and the link.
    scorer.goto(f"{live_server}/g/{edit}")
    box = scorer.locator("#check_box")
    box.locator("summary").tap()
    expect(box.locator(".check-qr svg")).to_be_visible()
    assert box.locator(".check-qr svg").bounding_box()["width"] >= 180  # scannable across a table
    link = box.locator(".check-link a").get_attribute("href")
    assert link.startswith(f"{live_server}/c/") and edit not in link and view not in link
    box.scroll_into_view_if_needed()
    scorer.screenshot(path=str(screenshot_dir / "witness-scorer-box-390.png"))

    # The witness's phone opens the link (what the QR code holds) and keeps it open.
    witness.goto(link)
    expect(witness.locator("#waiting-title")).to_have_text("Nothing to check")
    witness.evaluate("() => { window.__sameDocument = true; }")  # gone if the page were reloaded

    # Round 1 on the scorer's phone; the witness's page shows it by itself.
    round_1 = scorer_saves(scorer, witness, ROUND_1, 1)
    expect(round_1.locator(".check-title")).to_have_text("Round 1 · No Queens")
    expect(round_1.locator(".check-declarer")).to_have_text("Declarer: Anne")
    expect(round_1.locator(".check-grid td.on")).to_have_count(1)
    expect(round_1.locator(".pairs li")).to_contain_text("Beth pays 6 to")
    witness.screenshot(path=str(screenshot_dir / "witness-confirm-page-390.png"), full_page=True)
    # The narrowest phone: nothing scrolls sideways; and the dark scheme.
    witness.set_viewport_size({"width": 320, "height": 700})
    assert witness.evaluate("document.documentElement.scrollWidth") <= 320
    witness.emulate_media(color_scheme="dark")
    witness.screenshot(path=str(screenshot_dir / "witness-confirm-page-320-dark.png"), full_page=True)
    witness.emulate_media(color_scheme="light")
    witness.set_viewport_size({"width": 390, "height": 844})
    # Confirm: one tap.
    confirm = round_1.get_by_role("button", name="Confirm round 1")
    box_of = confirm.bounding_box()
    assert box_of["height"] >= 44 and box_of["width"] >= 150  # a thumb's target
    confirm.tap()
    expect(witness.locator(".flash-done")).to_have_text("Round 1 confirmed.")
    assert waiting(witness) == [] and checked(witness) == ["round-1"]
    expect(witness.locator("#waiting-title")).to_have_text("Nothing to check")

    # Round 2; the witness disputes it with a note.
    round_2 = scorer_saves(scorer, witness, ROUND_2, 2)
    expect(round_2.locator(".check-title")).to_contain_text("Trumps")
    expect(round_2.locator(".check-title")).to_contain_text("Hearts")
    expect(round_2).to_contain_text("Nobody doubled: the raw scores stand.")
    round_2.locator("details.dispute > summary").tap()
    note = round_2.get_by_label("What is wrong? (the scorer sees it)")
    expect(note).to_be_visible()
    note.fill(NOTE)
    # Meanwhile the scorer saves round 3 (another client, the API's way): the witness's list
    # refreshes by itself, and the note being written stays as it is, its field still open.
    with app.app_context():
        rounds.record_round(games.find_by_token(edit)[0], ROUND_3)
        db.session.remove()
    expect(witness.locator("article#round-3")).to_be_visible(timeout=WAIT)
    expect(round_2.get_by_label("What is wrong? (the scorer sees it)")).to_have_value(NOTE)
    expect(round_2.get_by_label("What is wrong? (the scorer sees it)")).to_be_focused()  # the keyboard stays up
    round_2.get_by_role("button", name="Send dispute of round 2").tap()
    expect(witness.locator(".flash-done")).to_have_text("Round 2 disputed: the scorer sees your note.")
    round_2 = witness.locator("article#round-2")
    expect(round_2).to_have_attribute("data-status", "disputed")
    expect(round_2.locator(".check-status")).to_have_text(f"⚠ Disputed: “{NOTE}”")
    expect(round_2.locator("details.dispute")).not_to_have_attribute("open", "")  # a fresh, closed one
    witness.screenshot(path=str(screenshot_dir / "witness-disputed-390.png"), full_page=True)

    # The board, with the rounds as the witness left them.
    board_page = scorer_context.new_page()
    board_page.goto(f"{live_server}/b/{view}")
    expect(board_page.locator("#board-round-2")).to_be_visible()
    board_page.screenshot(path=str(screenshot_dir / "witness-board-marks-390.png"), full_page=True)
    board_page.close()

    # The scorer sees the note, and corrects the round from it: spades were trumps.
    scorer.reload()
    disputed = scorer.locator("#disputed .disputed-note")
    expect(disputed).to_contain_text(f"Round 2 disputed: “{NOTE}”")
    disputed.scroll_into_view_if_needed()
    scorer.screenshot(path=str(screenshot_dir / "witness-scorer-note-390.png"))
    disputed.get_by_role("link", name="Edit round 2").tap()
    expect(scorer).to_have_url(f"{live_server}/g/{edit}/rounds/2/edit")
    scorer.locator("input[name='trump'][value='spades']").tap()
    scorer.get_by_role("button", name="Save round 2").tap()
    expect(scorer.locator("#changed")).to_be_visible()
    expect(scorer.locator("#disputed")).to_have_count(0)  # the edit answered the dispute

    # The witness's page shows round 2 waiting again, as corrected, and the witness confirms it.
    round_2 = witness.locator("article#round-2")
    expect(round_2).to_have_attribute("data-status", "provisional", timeout=WAIT)
    expect(round_2.locator(".check-title")).to_contain_text("Spades")
    expect(round_2.locator(".check-status")).to_have_text("Waiting for your check")
    round_2.get_by_role("button", name="Confirm round 2").tap()
    expect(witness.locator(".flash-done")).to_have_text("Round 2 confirmed.")
    assert waiting(witness) == ["round-3"] and checked(witness) == ["round-2", "round-1"]
    witness.get_by_role("button", name="Confirm round 3").tap()
    expect(witness.locator(".flash-done")).to_have_text("Round 3 confirmed.")
    assert waiting(witness) == [] and checked(witness) == ["round-3", "round-2", "round-1"]
    assert witness.evaluate("() => window.__sameDocument === true")  # all of it without a reload
    witness.locator("details#round-2 > summary").tap()
    expect(witness.locator("details#round-2 .check-body")).to_be_visible()
    witness.screenshot(path=str(screenshot_dir / "witness-all-checked-390.png"), full_page=True)

    # Every swap of the witness's list and the scorer's pages, within the Content-Security-Policy.
    assert witness.evaluate("window.__csp") == [] and scorer.evaluate("window.__csp") == []
    assert [text for text in console if any(word in text for word in CSP_WORDS)] == []
    assert console == []  # and no other error either

    with app.app_context():
        stored_rounds = games.find_by_token(edit)[0].rounds
        assert [(row.status, row.trump) for row in stored_rounds] == [
            ("confirmed", None),
            ("confirmed", "spades"),
            ("confirmed", None),
        ]
        db.session.remove()
    scorer_context.close()
    witness_context.close()
