"""The scorepad in the players' languages on a phone: a German phone gets German from its
browser's language, a choice in the footer sticks from page to page, and the longer words of
German, Dutch and French fit the phone's width (screenshots at 390 and 320 px)."""

import json
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from scorepad.services import games

EXAMPLE = json.loads((Path(__file__).parent.parent / "data" / "examples" / "tournament-full.json").read_text())


def import_game(app, rounds: int = 10) -> tuple[str, str]:
    """The tournament example after ``rounds`` rounds: Marc (seat 3) declares round 11 and
    still has No Tricks, Trumps, Domino and both heart contracts to choose from."""
    with app.app_context():
        stored, _ = games.create_game({**EXAMPLE["game"], "rounds": EXAMPLE["game"]["rounds"][:rounds]})
        return stored.edit_token, stored.view_token


@pytest.fixture
def phone_in(browser, playwright):
    """Phone pages (iPhone 13 metrics, touch) whose browser speaks ``locale``."""
    contexts = []

    def open_page(locale: str, width: int = 390, dark: bool = False) -> Page:
        device = {k: v for k, v in playwright.devices["iPhone 13"].items() if k != "default_browser_type"}
        context = browser.new_context(
            **{
                **device,
                "viewport": {"width": width, "height": 844},
                "locale": locale,
                "color_scheme": "dark" if dark else "light",
            }
        )
        contexts.append(context)
        return context.new_page()

    yield open_page
    for context in contexts:
        context.close()


def fits(page: Page, width: int) -> None:
    """Nothing makes the page scroll sideways, and no button, chip or heading cell clips
    its words (the score table may scroll inside its own region, by design)."""
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    clipped = page.evaluate("""() => [...document.querySelectorAll(
        '.btn, .chip, .mark, .seat-roles dt, .seat-roles dd, legend, .small-heading, h1, h2')]
        .filter(el => el.offsetParent !== null && !el.closest('.visually-hidden')
                      && el.scrollWidth > el.clientWidth + 1)
        .map(el => el.className + ': ' + el.textContent.trim().slice(0, 40))""")
    assert clipped == []


def test_a_german_phone_sees_the_game_in_german(app, live_server, phone_in, screenshot_dir):
    token, _view = import_game(app)
    page = phone_in("de-DE")
    page.goto(f"{live_server}/g/{token}")
    expect(page.locator("html")).to_have_attribute("lang", "de")
    expect(page.locator("#current-title")).to_have_text("Runde 11 von 28")
    expect(page.locator("#step-title")).to_have_text("Welchen Vertrag hat Marc gewählt?")
    expect(page.locator("a[data-contract='no-tricks']")).to_have_text("Keine Stiche")
    expect(page.locator(".score-table thead th").first).to_have_text("Runde")
    # The round form's messages come from data attributes the server renders in German.
    page.locator("a[data-contract='no-tricks']").tap()
    form = page.locator("form.round-form")
    expect(page.locator("#form-title")).to_have_text("Runde 11: Marc sagt Keine Stiche an")
    form.locator("input[name='tricks-0'][value='4']").tap()
    expect(form.locator("#tricks .sum-note")).to_have_text("4 von 13 Stichen: 9 noch zu verteilen")
    expect(page.locator("#preview")).to_contain_text("Noch nicht fertig:")


def test_a_language_chosen_in_the_footer_sticks_across_pages(app, live_server, phone_in):
    token, view = import_game(app)
    page = phone_in("de-DE")
    page.goto(f"{live_server}/g/{token}")
    page.locator(".language-switch button[value='fr']").tap()
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    assert page.url == f"{live_server}/g/{token}"  # back on the same page
    expect(page.locator("#current-title")).to_have_text("Donne 11 sur 28")
    expect(page.locator(".language-switch button[value='fr']")).to_have_attribute("aria-current", "true")
    for path, words in (
        (f"/b/{view}", "Scores en direct, lecture seule"),
        ("/", "Nouvelle partie"),
        (f"/s/{view}", "Feuille vierge"),
    ):
        page.goto(live_server + path)
        expect(page.locator("html")).to_have_attribute("lang", "fr")
        expect(page.locator("body")).to_contain_text(words)


@pytest.mark.parametrize("lang, locale", [("de", "de-DE"), ("nl", "nl-NL"), ("fr", "fr-FR")])
def test_the_longer_words_fit_a_phone(app, live_server, phone_in, screenshot_dir, lang, locale):
    token, _view = import_game(app)
    fresh, _view = import_game(app, 0)  # Beth declares round 1: every contract is still hers
    for width in (390, 320):
        page = phone_in(locale, width)
        page.goto(f"{live_server}/g/{token}")
        expect(page.locator("html")).to_have_attribute("lang", lang)
        fits(page, width)
        if width == 390:  # at 320 px even the English score table scrolls inside its region
            table = page.locator("#score_table .table-scroll")
            assert table.evaluate("el => el.scrollWidth <= el.clientWidth"), "the role marks widen the table"
        page.screenshot(path=screenshot_dir / f"lang-{lang}-{width}-game.png", full_page=True, scale="css")
        for section in ("score_table", "current_round", "schedule"):
            page.locator(f"#{section}").screenshot(
                path=screenshot_dir / f"lang-{lang}-{width}-{section}.png", scale="css"
            )
        for game, contract in ((token, "no-tricks"), (token, "trumps"), (fresh, "domino")):
            page.goto(f"{live_server}/g/{game}/rounds/new?contract={contract}")
            expect(page.locator("form.round-form input[name='contract']")).to_have_value(contract)
            fits(page, width)
            page.locator("#round_form").screenshot(
                path=screenshot_dir / f"lang-{lang}-{width}-{contract}.png", scale="css"
            )
    dark = phone_in(locale, 390, dark=True)
    dark.goto(f"{live_server}/g/{token}/rounds/new?contract=no-tricks")
    dark.locator("#round_form").screenshot(path=screenshot_dir / f"lang-{lang}-390-dark.png", scale="css")
