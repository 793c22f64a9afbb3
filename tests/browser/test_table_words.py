"""The small things a club night finds on a phone (issue 13), at 390×844 with short names
and with four 40-character names: the score table's names in one line whether or not they
carry a role badge, the preview's mini-table with room between its numbers, the doubles
grid across the phone's width, the Family buttons with names, the quota line and the
Domino row said in words. Each check is measured on the page and saved as a screenshot."""

import pytest
from playwright.sync_api import Page, expect

from scorepad import services

SHORT = ["Anne", "Jörg", "Cath", "Diana"]
LONG = [
    "Anne-Marie Wilhelmina van der Berg-Smith",
    "Jörg Maximilian Friedrich von Hohenstein",
    "Catherine Élisabeth de la Tour-d’Auvergne"[:40],
    "Diana Alexandra Konstantinopoulou-Papadop"[:40],
]


def game(players: list[str]) -> dict:
    """Anne declares; Jörg doubled her three times (over the quota of 2), Cath once; then
    Domino from the jack. Round 5 (No Hearts) is next, Anne still declaring."""
    return {
        "players": players,
        "first_declarer": 0,
        "preset": "tournament",
        "rounds": [
            {"contract": "no-last-two", "doubles": [[1, 0], [2, 0]], "outcome": {"penultimate": 0, "last": 0}},
            {"contract": "no-queens", "doubles": [[1, 0]], "outcome": {"queens": [1, 1, 1, 1]}},
            {"contract": "no-tricks", "doubles": [[1, 0]], "outcome": {"tricks": [4, 3, 3, 3]}},
            {"contract": "domino", "start_rank": "7", "doubles": [], "outcome": {"order": [0, 1, 2, 3]}},
        ],
    }


@pytest.fixture(params=["short", "long"])
def names(request) -> list[str]:
    return SHORT if request.param == "short" else LONG


def open_game(app, live_server, page: Page, players: list[str]) -> str:
    with app.app_context():
        stored, _ = services.create_game(game(players))
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
