"""Long names on screen and on paper (issue 11, "Names on screen and paper"), in Chromium:
four names of 40 characters never wrap a number, never break a label letter by letter and
never push a page sideways at 390 px (scorer page, round form, round page, board) nor on the
big screen; the fullest sheets print on one page. Pictures in tests/screenshots/."""

import subprocess

import pytest

from scorepad.extensions import db
from scorepad.services import games
from tests.browser.test_sheet import PAPER, pdf_pages, to_png
from tests.extremes import LONG_NAMES, LONG_TITLE, full_game, nine_contract_preset
from tests.test_sheet import PLACE, extreme_sheet

#: What a wrapped number or a label broken letter by letter looks like: an element of one
#: line that takes more than one (its line boxes, or a height of more than 1.5 lines).
WRAPPED = """(selector) => [...document.querySelectorAll(selector)].filter((el) => {
  const style = getComputedStyle(el);
  const line = parseFloat(style.lineHeight) || parseFloat(style.fontSize) * 1.6;
  return el.getClientRects().length > 1 || el.getBoundingClientRect().height > 1.5 * line;
}).map((el) => el.textContent.trim())"""
#: Elements wider than their box: a table or a line pushed out of place.
OVERFLOWING = """(selector) => [...document.querySelectorAll(selector)]
  .filter((el) => el.scrollWidth > el.clientWidth + 1).map((el) => el.className || el.tagName)"""


@pytest.fixture
def long_game(app):
    """Nine contracts, four names of 40 characters, an 80-character title, ten rounds played
    with every double (a run heading, role marks, quota lines); edit and view tokens."""
    doc = full_game(LONG_NAMES, nine_contract_preset(), LONG_TITLE)
    doc["rounds"] = doc["rounds"][:10]
    with app.app_context():
        stored, _ = games.create_game(doc)
        tokens = stored.edit_token, stored.view_token
        db.session.remove()
    return tokens


def check_layout(page, name: str, screenshot_dir, width: int) -> None:
    """No number wrapped, no role label broken, nothing wider than the window or its box."""
    page.screenshot(path=str(screenshot_dir / f"names-{name}.png"), full_page=True)
    assert page.evaluate(WRAPPED, ".pts") == [], name
    assert page.evaluate(WRAPPED, ".seat-roles dt") == [], name
    assert page.evaluate("document.documentElement.scrollWidth") <= width, name
    assert page.evaluate(OVERFLOWING, ".table-scroll, .card, .standings li") == [], name


def test_long_names_on_a_phone_wrap_or_are_cut_and_numbers_never_wrap(live_server, phone, long_game, screenshot_dir):
    edit, view = long_game
    pages = {
        "scorer-390": f"/g/{edit}",
        "round-form-390": f"/g/{edit}/rounds/new?contract=no-queens",
        "round-390": f"/g/{edit}/rounds/1",
        "board-390": f"/b/{view}",
    }
    for name, path in pages.items():
        phone.goto(live_server + path)
        check_layout(phone, name, screenshot_dir, 390)
    # A name cut in a column head (an ellipsis shows) is there in full once tapped.
    phone.goto(f"{live_server}/g/{edit}")
    head = phone.locator(".player-name").first
    assert head.evaluate("(el) => el.scrollWidth > el.clientWidth")
    head.tap()
    assert head.evaluate("(el) => el.scrollWidth <= el.clientWidth")
    assert head.inner_text() == LONG_NAMES[0]
    phone.screenshot(path=str(screenshot_dir / "names-scorer-390-tapped.png"))


def test_long_names_on_the_big_screen(live_server, browser, long_game, screenshot_dir):
    _, view = long_game
    context = browser.new_context(viewport={"width": 1920, "height": 1080})
    page = context.new_page()
    page.goto(f"{live_server}/b/{view}/screen")
    check_layout(page, "screen-1920", screenshot_dir, 1920)
    assert page.evaluate(WRAPPED, ".standings .score .pts") == []
    context.close()


@pytest.mark.parametrize(
    "case, paper, lang, blank",
    [
        ("brader-30", "letter", "en", False),
        ("nine-40", "a4", "fr", False),
        ("notes", "letter", "de", False),
        ("nine-40", "letter", "nl", True),
    ],
)
def test_the_fullest_sheets_print_on_one_page_from_the_browser(
    app, live_server, browser, screenshot_dir, case, paper, lang, blank
):
    view = extreme_sheet(app, case)
    context = browser.new_context(locale=lang, extra_http_headers={"Accept-Language": lang})
    page = context.new_page()
    page.goto(f"{live_server}/s/{view}{'/blank' if blank else ''}?paper={paper}&place={PLACE}")
    page.emulate_media(media="print")
    pdf = screenshot_dir / f"sheet-print-{case}-{paper}-{lang}{'-blank' if blank else ''}.pdf"
    page.pdf(path=str(pdf), format=PAPER[paper][0], print_background=True, prefer_css_page_size=True)
    context.close()
    to_png(pdf, pdf.with_suffix(""))
    assert pdf_pages(pdf) == (1, PAPER[paper][1])
    text = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    assert text.rindex("Bartholomäus") > text.index({"en": "Rank", "de": "Platz", "nl": "Plaats", "fr": "Rang"}[lang])


def test_anything_printed_after_the_sheet_starts_a_new_page_in_the_browser(app, live_server, page, screenshot_dir):
    view = extreme_sheet(app, "nine-40")
    page.goto(f"{live_server}/s/{view}?paper=letter")
    page.evaluate("""() => {
      const note = document.createElement('p'); note.textContent = 'Correction note';
      document.querySelector('.sheet').append(note);
      const chart = document.createElement('section'); chart.textContent = 'Chart';
      document.querySelector('.sheet').after(chart);
    }""")
    page.emulate_media(media="print")
    pdf = screenshot_dir / "sheet-print-additions.pdf"
    page.pdf(path=str(pdf), format="Letter", print_background=True, prefer_css_page_size=True)
    assert pdf_pages(pdf)[0] == 3
    text = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    sheet, note, chart = text.split("\f")[:3]
    assert "Rank" in sheet and "Correction note" not in sheet and "Chart" not in sheet
    assert "Correction note" in note and "Chart" in chart
