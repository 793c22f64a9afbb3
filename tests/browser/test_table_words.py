"""The small things a club night finds on a phone (issue 13), at 390×844 with short names
and with four 40-character names: the score table's names in one line whether or not they
carry a role badge, the preview's mini-table with room between its numbers, the doubles
grid across the phone's width, the Family buttons with names, the quota line and the
Domino row said in words. Each check is measured on the page and saved as a screenshot."""

import pytest
from playwright.sync_api import Page, expect

from scorepad.services import games
from tests.test_translations import TABLE_GAME

SHORT = ["Anne", "Jörg", "Cath", "Diana"]
LONG = [
    "Anne-Marie Wilhelmina van der Berg-Smith",
    "Jörg Maximilian Friedrich von Hohenstein",
    "Catherine Élisabeth de la Tour-d’Auvergne"[:40],
    "Diana Alexandra Konstantinopoulou-Papadop"[:40],
]


def game(players: list[str]) -> dict:
    """test_translations' table game: Anne declares; Jörg doubled her three times (over the
    quota of 2), Cath once; then Domino from the jack. Round 5 is next, Anne still declaring."""
    return {**TABLE_GAME, "players": players}


@pytest.fixture(params=["short", "long"])
def names(request) -> list[str]:
    return SHORT if request.param == "short" else LONG


def open_game(app, live_server, page: Page, players: list[str]) -> str:
    with app.app_context():
        stored, _ = games.create_game(game(players))
        token = stored.edit_token
    page.goto(f"{live_server}/g/{token}")
    return token


def tag(players: list[str]) -> str:
    return "long" if players == LONG else "short"


def test_the_score_tables_names_sit_on_one_line(app, live_server, phone, screenshot_dir, names):
    open_game(app, live_server, phone, names)
    heads = phone.locator(".score-table thead .player-name")
    expect(heads).to_have_count(4)
    phone.locator(".table-scroll").first.screenshot(path=str(screenshot_dir / f"small-table-head-{tag(names)}.png"))
    phone.locator("#quota").screenshot(path=str(screenshot_dir / f"small-quota-{tag(names)}.png"))
    # Round 5: Anne declares, Cath and Diana deal and cut; Jörg has no role badge.
    marks = [th.locator(".mark").count() for th in phone.locator(".score-table thead th.player-col").all()]
    assert marks == [1, 0, 1, 1]
    tops = [round(h.bounding_box()["y"]) for h in heads.all()]
    bottoms = [round(th.bounding_box()["y"] + th.bounding_box()["height"]) for th in heads.all()]
    assert len(set(tops)) == 1, tops
    assert len(set(bottoms)) == 1, bottoms
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390


def test_the_round_forms_grid_preview_and_family_buttons_use_the_phone(app, live_server, phone, screenshot_dir, names):
    token = open_game(app, live_server, phone, names)
    phone.goto(f"{live_server}/g/{token}/rounds/new?contract=no-hearts")
    form = phone.locator("form.round-form")
    for seat, hearts in enumerate([2, 3, 8, 0]):
        form.locator(f"input[name='hearts-{seat}'][value='{hearts}']").tap()
    form.locator("input[name='ace'][value='2']").tap()
    form.locator("[data-shortcut='family'][data-row='2']").tap()  # Cath doubles Jörg and Diana
    form.locator("input[name='doubles'][value='1-0']").tap()
    expect(form.locator("#preview tr.strong td")).to_have_count(4)
    expect(form.locator("#preview.htmx-request")).to_have_count(0)
    form.locator("#doubles").screenshot(path=str(screenshot_dir / f"small-doubles-{tag(names)}.png"))
    form.locator(".preview").screenshot(path=str(screenshot_dir / f"small-preview-{tag(names)}.png"))
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390

    # The doubles grid spans the fieldset (its row of "max" buttons at the right edge).
    grid = form.locator(".grid-doubles").bounding_box()
    fieldset = form.locator("#doubles").bounding_box()
    assert grid["width"] >= fieldset["width"] - 8, (grid, fieldset)

    # Each Family button shows its player's name, cut with an ellipsis when long, in one line.
    for button in form.locator("[data-shortcut='family']").all():
        name = button.locator(".family-name")
        full = name.text_content()
        assert full in names
        box = button.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390
        assert name.evaluate("e => getComputedStyle(e).textOverflow") == "ellipsis"
        assert box["height"] < 60  # one line

    # The preview's mini-table: no two players' numbers closer than about 1rem.
    gaps = form.locator("#preview .result-table").evaluate(
        """table => [...table.tBodies[0].rows].flatMap(row => [...row.cells].slice(1, -1).map((cell, i) =>
             row.cells[i + 2].querySelector('.pts').getBoundingClientRect().left
             - cell.querySelector('.pts').getBoundingClientRect().right))"""
    )
    assert min(gaps) >= 14, gaps  # about 1rem: the padding on both sides of a column's edge
    scroller = form.locator("#preview .table-scroll").evaluate("e => [e.scrollWidth, e.clientWidth]")
    assert scroller[0] <= scroller[1], scroller  # all four players' columns in view at 390 px
