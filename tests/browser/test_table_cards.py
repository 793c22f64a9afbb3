"""The director's table cards printed (issue 26, item 8): six cards to a page on A4 and on US
Letter, with the browser's margins (10 mm, about Chromium's default) and without, in every
language; each card keeps its two QR codes, their captions and the scorer's address whole and
inside its dashed edges. Printed to PDF with Chromium, read back with pdftotext inside each
card's box, and rendered to PNG (tests/screenshots/table-cards-*.png) to look at."""

import re
import subprocess

import pytest
from playwright.sync_api import Page

# A name of 40 characters (the longest a night takes) and a long title: the card's tightest case.
PLAYERS = [
    "Anne-Marie Vandenberghe-Lefebvre du Bois", "Beth", "Cath", "Diana", "Emma", "Fleur",
    "Greta", "Hanna", "Ines", "Joke", "Karin", "Lotte",
]  # fmt: skip
TITLE = "Donderdagavond van de Barbuclub Oost-Vlaanderen"
#: The captions of a card, as each language says them (translations/*/messages.po).
CAPTIONS = {
    "en": ("Scorer’s page", "The other player checks here"),
    "fr": ("Page du marqueur", "L’autre joueur vérifie ici"),
    "de": ("Seite zum Schreiben", "Hier prüft der andere Spieler"),
    "nl": ("Scorepagina", "Hier controleert de andere speler"),
}
#: Paper sizes in millimetres, as Chromium prints them.
PAPERS = {"A4": (210, 297), "Letter": (215.9, 279.4)}
MM = 96 / 25.4  # CSS pixels to a millimetre
POINT = 72 / 25.4  # PDF points to a millimetre

#: Every part of every card: its box (CSS px, from the top left of the document), the card's
#: padding box, and whether its content is wider or taller than its box.
PARTS = """() => [...document.querySelectorAll('.table-card')].map(card => {
  const box = element => {
    const r = element.getBoundingClientRect();
    return {left: r.left + scrollX, top: r.top + scrollY, right: r.right + scrollX, bottom: r.bottom + scrollY};
  };
  const parts = [...card.querySelectorAll(
    'h2, .card-head p, .seat-legend, .seat-list li, .first-line, svg, figcaption, .card-url'
  )].map(element => ({
    name: element.matches('svg') ? 'code' : element.className || element.tagName,
    text: element.textContent.trim(),
    box: box(element),
    overflows: element.scrollWidth > element.clientWidth + 1 || element.scrollHeight > element.clientHeight + 1,
    lines: Math.round(element.getBoundingClientRect().height / parseFloat(getComputedStyle(element).lineHeight)),
  }));
  const seats = card.querySelector('.card-body > div');
  return {box: box(card), parts, seatsCut: seats.scrollHeight > seats.clientHeight + 1};
})"""


def new_night(page: Page, base: str) -> str:
    """A 12-player night of two sessions (six tables), confirmation optional: two codes a card;
    the director's URL."""
    night = {"format": "barbu-scorepad/event@1", "title": TITLE, "preset": "tournament", "sessions": 2}
    created = page.request.post(base + "/api/v1/events", data={**night, "players": PLAYERS, "confirmation": "optional"})
    assert created.status == 201
    return f"{base}/d/{created.json()['director_token']}"


def card_text(pdf: str, card: dict, margin: float) -> str:
    """The text pdftotext reads inside ``card``'s box (CSS px on the page's area) on page 1 of
    ``pdf`` printed with ``margin`` mm, its white space made single spaces."""
    left, top = margin * POINT + card["left"] * 0.75, margin * POINT + card["top"] * 0.75
    width, height = (card["right"] - card["left"]) * 0.75, (card["bottom"] - card["top"]) * 0.75
    crop = [f"-{flag}" for flag in "xyWH"]
    values = [str(round(v)) for v in (left, top, width, height)]
    args = [arg for pair in zip(crop, values, strict=True) for arg in pair]
    text = subprocess.run(
        ["pdftotext", "-f", "1", "-l", "1", *args, pdf, "-"], capture_output=True, text=True, check=True
    )
    return " ".join(text.stdout.split())


@pytest.mark.parametrize("language", sorted(CAPTIONS))
def test_every_card_keeps_its_codes_captions_and_address_on_a4_and_letter(
    browser, live_server, screenshot_dir, language
):
    context = browser.new_context(locale=language, viewport={"width": 390, "height": 844})
    page = context.new_page()
    director = new_night(page, live_server)
    page.goto(director + "/cards")
    urls = [url.strip() for url in page.locator(".card-url").all_inner_texts()]
    assert len(urls) == 6 and all(re.fullmatch(r"127\.0\.0\.1:\d+/g/[\w-]{32}", url) for url in urls)
    scorer, checker = CAPTIONS[language]
    page.emulate_media(media="print")
    for paper, (width, height) in PAPERS.items():
        for margin in (0, 10):
            # The layout Chromium prints: the page's area, as wide as the paper inside its margins.
            page.set_viewport_size(
                {"width": round((width - 2 * margin) * MM), "height": round((height - 2 * margin) * MM)}
            )
            cards = page.evaluate(PARTS)
            assert len(cards) == 6
            name = f"table-cards-{language}-{paper}-{margin}mm"
            pdf = str(screenshot_dir / f"{name}.pdf")
            page.pdf(
                path=pdf,
                format=paper,
                print_background=True,
                margin=dict.fromkeys(("top", "bottom", "left", "right"), f"{margin}mm"),
            )
            info = subprocess.run(["pdfinfo", pdf], capture_output=True, text=True, check=True).stdout
            assert re.search(r"^Pages:\s+1$", info, re.M), f"{name}: six cards, one page"
            subprocess.run(["pdftoppm", "-png", "-r", "60", pdf, str(screenshot_dir / name)], check=True)
            # Every card inside the page's area, and three rows of them within its height.
            assert max(card["box"]["bottom"] for card in cards) <= (height - 2 * margin) * MM
            for number, (card, url) in enumerate(zip(cards, urls, strict=True), 1):
                where = f"{name}, card {number}"
                edge = card["box"]
                for part in card["parts"]:
                    box = part["box"]
                    inside = (
                        box["left"] >= edge["left"] - 0.5 and box["right"] <= edge["right"] + 0.5
                        and box["top"] >= edge["top"] - 0.5 and box["bottom"] <= edge["bottom"] + 0.5
                    )  # fmt: skip
                    assert inside, f"{where}: {part['name']} ({part['text'][:30]}) crosses the card's edge"
                captions = [part for part in card["parts"] if part["name"] in ("FIGCAPTION", "card-url")]
                for part in captions:
                    assert not part["overflows"], f"{where}: {part['text']} overflows its box"
                    assert part["lines"] <= 2, f"{where}: {part['text']} takes {part['lines']} lines"
                assert [part["text"] for part in captions] == [scorer, checker, url]
                assert next(p for p in card["parts"] if p["name"] == "card-url")["lines"] == 1
                assert not card["seatsCut"], f"{where}: the seats or who declares first are cut"
                assert sum(part["name"] == "code" for part in card["parts"]) == 2
                # What the paper shows: the captions and the address whole, inside the card's box.
                text = card_text(pdf, edge, margin)
                for words in (scorer, checker, url):
                    assert words in text, f"{where}: {words!r} not whole in {text!r}"
    context.close()
