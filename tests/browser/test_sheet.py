"""The printed score sheet, rendered by Chromium to PDF: one page on A4 and on US Letter for
28 and 32 rounds, the expected final totals on it, no app chrome; pictures to look at."""

import json
import re
import subprocess
from pathlib import Path

import pytest

from scorepad.extensions import db
from scorepad.services import games

EXAMPLES = Path(__file__).parent.parent / "data" / "examples"
PAPER = {"a4": ("A4", (595, 842)), "letter": ("Letter", (612, 792))}


def points(value: int) -> str:
    """Points as the sheet prints them: a true minus sign (U+2212)."""
    return f"−{-value}" if value < 0 else str(value)


def example(app, name: str, **extra):
    """Store an example game; its view token and the example's expected standings."""
    data = json.loads((EXAMPLES / f"{name}.json").read_text())
    with app.app_context():
        stored, _ = games.create_game({**data["game"], **extra})
        token = stored.view_token
        db.session.remove()
    return token, data["expected"]["standings"]


def pdf_pages(path: Path) -> tuple[int, tuple[int, int]]:
    """Page count and page size (points) from pdfinfo."""
    info = subprocess.run(["pdfinfo", str(path)], capture_output=True, text=True, check=True).stdout
    pages = int(next(line.split()[-1] for line in info.splitlines() if line.startswith("Pages:")))
    size = next(line for line in info.splitlines() if line.startswith("Page size:")).split()
    return pages, (round(float(size[2])), round(float(size[4])))


def pdf_text(path: Path) -> str:
    return subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True, check=True).stdout


def to_png(path: Path, stem: Path) -> None:
    subprocess.run(["pdftoppm", "-png", "-r", "70", "-singlefile", str(path), str(stem)], check=True)


@pytest.mark.parametrize("name", ["tournament-full", "brader-32-card"])
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_sheet_prints_on_one_page_with_the_expected_totals(app, live_server, page, screenshot_dir, name, paper):
    token, expected = example(app, name, title="Thursday, table 2")
    page.goto(f"{live_server}/s/{token}?place=Club+Anatole&paper={paper}")
    page.emulate_media(media="print")
    pdf = screenshot_dir / f"sheet-{name}-{paper}.pdf"
    page.pdf(path=str(pdf), format=PAPER[paper][0], print_background=True, prefer_css_page_size=True)
    to_png(pdf, screenshot_dir / f"sheet-{name}-{paper}")

    pages, size = pdf_pages(pdf)
    assert pages == 1
    assert size == PAPER[paper][1]
    text = pdf_text(pdf)
    total_line = next(line for line in text.splitlines() if line.lstrip().startswith("Total"))
    assert total_line.split()[-4:] == [points(v) for v in expected["final"]]
    rank_line = next(line for line in text.splitlines() if line.lstrip().startswith("Rank"))
    assert rank_line.split()[-4:] == [str(r) for r in expected["rank"]]
    assert "Club Anatole" in text and "Thursday, table 2" in text
    # No app chrome on paper.
    for chrome in ("Download PDF", "Apply", "Live scores", "Barbu Scorepad"):
        assert chrome not in text


def test_the_blank_sheet_prints_on_one_page_with_the_players_and_no_scores(app, live_server, page, screenshot_dir):
    token, expected = example(app, "tournament-full")
    page.goto(f"{live_server}/s/{token}/blank")
    page.emulate_media(media="print")
    pdf = screenshot_dir / "sheet-blank.pdf"
    page.pdf(path=str(pdf), format="A4", print_background=True, prefer_css_page_size=True)
    to_png(pdf, screenshot_dir / "sheet-blank")
    assert pdf_pages(pdf)[0] == 1
    text = pdf_text(pdf)
    assert all(name in text for name in ("Élodie", "Anne", "Beth", "Marc"))
    total_line = next(line for line in text.splitlines() if line.lstrip().startswith("Total"))
    # Only the check sum's target (0 for the tournament preset), no player totals.
    assert re.findall(r"−?\d+", total_line) == ["0"]
    assert not any(points(v) in text for v in expected["final"])


#: The page's width and the paper's box against the window.
WIDTHS = """() => { const paper = document.querySelector('.sheet').getBoundingClientRect();
  return {page: document.documentElement.scrollWidth, left: paper.left, right: paper.right}; }"""


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_print_page_fits_a_phone_and_still_prints_its_paper(app, live_server, phone, screenshot_dir, paper):
    """Issue 13: the paper (210 or 216 mm, about 800 px) made the page 802 px wide in a 390 px
    window. The phone shows the whole paper made smaller; printing keeps the paper's size."""
    token, expected = example(app, "tournament-full")
    phone.goto(f"{live_server}/s/{token}?paper={paper}")
    widths = phone.evaluate(WIDTHS)
    assert widths["page"] <= 390, widths
    assert widths["left"] >= 0 and widths["right"] <= 390, widths
    phone.screenshot(path=str(screenshot_dir / f"sheet-page-390-{paper}.png"), full_page=True)
    phone.emulate_media(media="print")
    pdf = screenshot_dir / f"sheet-from-phone-{paper}.pdf"
    phone.pdf(path=str(pdf), format=PAPER[paper][0], print_background=True, prefer_css_page_size=True)
    to_png(pdf, pdf.with_suffix(""))
    assert pdf_pages(pdf) == (1, PAPER[paper][1])
    total_line = next(line for line in pdf_text(pdf).splitlines() if line.lstrip().startswith("Total"))
    assert total_line.split()[-4:] == [points(v) for v in expected["final"]]


def test_the_sheets_back_link_goes_where_the_reader_came_from(app, live_server, phone, browser):
    with app.app_context():
        data = json.loads((EXAMPLES / "tournament-full.json").read_text())
        stored, _ = games.create_game(data["game"])
        edit, view = stored.edit_token, stored.view_token
        db.session.remove()
    # The scorer: from the scorer's page to the sheet and back.
    phone.goto(f"{live_server}/g/{edit}")
    phone.get_by_role("link", name="Print the score sheet").tap()
    phone.wait_for_url(f"**/s/{view}")
    phone.get_by_role("link", name="Back to the game").tap()
    phone.wait_for_url(f"**/g/{edit}")
    # Another phone with the board's link: back to the board.
    context = browser.new_context(viewport={"width": 390, "height": 844})
    viewer = context.new_page()
    viewer.goto(f"{live_server}/s/{view}")
    viewer.get_by_role("link", name="Live scores").click()
    viewer.wait_for_url(f"**/b/{view}")
    context.close()


def test_the_print_page_on_a_phone_and_in_dark_mode(app, live_server, phone, screenshot_dir):
    token, _ = example(app, "tournament-full")
    phone.goto(f"{live_server}/s/{token}")
    phone.screenshot(path=str(screenshot_dir / "sheet-page-390.png"))
    assert phone.get_by_role("link", name="Download PDF").is_visible()
    phone.emulate_media(color_scheme="dark")
    phone.screenshot(path=str(screenshot_dir / "sheet-page-390-dark.png"))
    # The options form works as a plain GET: the place lands on the sheet.
    phone.get_by_label("Place").fill("Café de la Gare")
    phone.get_by_role("button", name="Apply").tap()
    phone.wait_for_url("**place=Caf*")
    assert "Café de la Gare" in phone.locator(".sheet-head").inner_text()
