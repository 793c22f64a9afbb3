"""Pages that must fit what they show (issue 26, "Layout"), on a phone at 390×844 and a TV at
1920×1080: the score table's player names in full where there is room, the night's results
with their name column held while the sessions scroll, the member page's chart axis and last
games, a 13-player night on the TV, every error of the new-game form, and the sheet's date.
Screenshots (tests/screenshots/fit-*.png) for a person to look at."""

import json
from pathlib import Path

from playwright.sync_api import expect

from scorepad.extensions import db
from scorepad.services import games

EXAMPLE = json.loads((Path(__file__).parent.parent / "data" / "examples" / "tournament-full.json").read_text())


def stored_game(app, players: list[str], rounds: int) -> tuple[str, str]:
    """A tournament game of ``players`` with the example's first ``rounds``: edit and view tokens."""
    with app.app_context():
        stored, _ = games.create_game(
            {**EXAMPLE["game"], "players": players, "rounds": EXAMPLE["game"]["rounds"][:rounds]}
        )
        tokens = stored.edit_token, stored.view_token
        db.session.remove()
    return tokens


def test_the_score_tables_header_shows_a_hyphenated_name_in_full(app, live_server, phone, screenshot_dir):
    """ "Jan-Willem" fits its column at 390 px: written in full, on two lines at its hyphen if need
    be, never cut to "Jan-…"."""
    edit, _view = stored_game(app, ["Jan-Willem", "Anne", "Beth", "Marc"], 3)
    phone.goto(f"{live_server}/g/{edit}")
    name = phone.locator("#score_table .player-name").first
    expect(name).to_have_text("Jan-Willem")
    phone.locator("#score_table").scroll_into_view_if_needed()
    phone.screenshot(path=str(screenshot_dir / "fit-score-header-390.png"))
    # Not cut: the element shows all of its text, across and down (no ellipsis hides any of it).
    assert name.evaluate("e => e.scrollWidth <= e.clientWidth && e.scrollHeight <= e.clientHeight")
    assert phone.evaluate("document.scrollingElement.scrollWidth <= innerWidth")
