"""Pages that must fit what they show (issue 26, "Layout"), on a phone at 390×844 and a TV at
1920×1080: the score table's player names in full where there is room, the night's results
with their name column held while the sessions scroll, the member page's chart axis and last
games, a 13-player night on the TV, every error of the new-game form, and the sheet's date.
Screenshots (tests/screenshots/fit-*.png) for a person to look at."""

import json
import re
from pathlib import Path

from playwright.sync_api import expect

from scorepad.extensions import db
from scorepad.services import games, nights
from tests.test_club_pages import GAME_1, add_members, club_game, new_club
from tests.test_night import Night, create, save

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


#: A night of 13 players (three tables and one sitting out each session), some names long.
THIRTEEN = [
    "Anne",
    "Beth",
    "Jan-Willem de Vries",
    "Dora",
    "Élodie",
    "Fay",
    "Gina",
    "Hugo",
    "Ivan",
    "Jacqueline Oosterhuis",
    "Karel",
    "Lotte",
    "Marc",
]
#: A round any declarer may choose first: No Queens, one queen each for seats 0 and 1, two for seat 3.
NO_QUEENS = {"contract": "no-queens", "doubles": [], "outcome": {"queens": [1, 1, 0, 2]}}


def thirteen(app, sessions: int) -> Night:
    """A night of :data:`THIRTEEN` over ``sessions`` (seating drawn), a round saved at every
    table of session 1."""
    created = create(app, players=THIRTEEN, sessions=sessions, seating=None)
    for number in (1, 2, 3):
        save(app, created, 1, number, NO_QUEENS)
    return created


def test_the_nights_results_on_a_phone_keep_the_names_while_the_sessions_scroll(
    app, live_server, phone, screenshot_dir
):
    """Four sessions' columns are wider than the phone: the leaderboard scrolls in its box, the
    page does not, and the rank and name stay where they are."""
    created = thirteen(app, 4)
    phone.goto(f"{live_server}/n/{created.view_token}/results")
    box = phone.locator("#results_leaderboard .table-scroll")
    name = phone.locator("#results_leaderboard tbody th.name").first
    before = name.bounding_box()
    assert box.evaluate("e => e.scrollWidth > e.clientWidth")  # the sessions need the scroll
    box.evaluate("e => { e.scrollLeft = e.scrollWidth; }")
    phone.screenshot(path=str(screenshot_dir / "fit-night-results-390.png"))
    after = name.bounding_box()
    assert after["x"] == before["x"] and after["width"] == before["width"]
    # The name is not covered by a session's cell that scrolled under it.
    centre = (after["x"] + after["width"] / 2, after["y"] + after["height"] / 2)
    assert phone.evaluate("([x, y]) => document.elementFromPoint(x, y).closest('th.name') !== null", centre)
    assert phone.evaluate("document.scrollingElement.scrollWidth <= innerWidth")


def test_a_members_chart_names_each_date_once_and_the_last_games_name_the_opponents(
    app, client, live_server, phone, screenshot_dir
):
    """Anne plays three games of a club night on 7 December (one with a guest, Wim) and one on
    14 December: the chart's axis reads Dec 7, Dec 14; each of her last games lists the three
    others, the members linked to their pages."""
    made = new_club(client)
    members = {**add_members(client, made, "Anne", "Beth", "Cath", "Diana", "Emma"), "Wim": None}
    for players, day in (
        (["Anne", "Beth", "Cath", "Diana"], "2026-12-07"),
        (["Emma", "Anne", "Wim", "Beth"], "2026-12-07"),
        (["Cath", "Diana", "Emma", "Anne"], "2026-12-07"),
        (["Anne", "Emma", "Beth", "Cath"], "2026-12-14"),
    ):
        club_game(client, made, members, players, day, GAME_1)
    phone.goto(f"{live_server}/k/{made['view_token']}/m/{members['Anne']}")
    svg = phone.request.get(live_server + phone.locator("#games .chart img").get_attribute("src", timeout=5000)).text()
    axis = svg[svg.index('class="axis x') :]
    axis = axis[: axis.index("</g></g>")]
    assert re.findall(r"<text[^>]*>([^<]+)</text>", axis) == ["Dec 7", "Dec 14"]
    rows = phone.locator("#games tbody tr")
    expect(rows).to_have_count(4)
    # Newest first: the game of 14 December, then the night's three in reverse order.
    assert rows.locator("td.opponents").all_inner_texts() == [
        "Emma, Beth, Cath",
        "Cath, Diana, Emma",
        "Emma, Wim, Beth",
        "Beth, Cath, Diana",
    ]
    expect(rows.nth(2).locator("td.opponents a")).to_have_count(2)  # Wim, a guest, has no page
    expect(rows.nth(2).get_by_role("link", name="Emma")).to_have_attribute(
        "href", f"/k/{made['view_token']}/m/{members['Emma']}"
    )
    assert phone.evaluate("document.scrollingElement.scrollWidth <= innerWidth")
    phone.locator("#games").scroll_into_view_if_needed()
    phone.screenshot(path=str(screenshot_dir / "fit-member-games-390.png"), full_page=True)


def test_the_tv_of_a_13_player_night_keeps_numbers_by_the_names_and_shows_who_sits_out(
    app, live_server, browser, screenshot_dir
):
    """13 players: the leaderboard in two columns, each line's total close to its name (not the
    width of the screen away), and the session's sit-out named beside its tables; no scrolling."""
    created = thirteen(app, 2)
    with app.app_context():
        sit_out = THIRTEEN[nights.find_night(created.director_token)[0].seating[0]["sit_out"][0]]
    context = browser.new_context(viewport={"width": 1920, "height": 1080})
    page = context.new_page()
    page.goto(f"{live_server}/n/{created.view_token}/screen")
    expect(page.locator("#night_leaderboard tbody tr")).to_have_count(13)
    page.screenshot(path=str(screenshot_dir / "fit-night-screen-13-1920.png"))
    expect(page.locator("#night_leaderboard table")).to_have_count(2)
    gaps = page.evaluate(
        "[...document.querySelectorAll('#night_leaderboard tbody tr')].map(row =>"
        " row.querySelector('.total').getBoundingClientRect().left"
        " - row.querySelector('.name').getBoundingClientRect().left)"
    )
    assert max(gaps) < 700, gaps  # the name's cell and its total within a third of the screen
    expect(page.locator("#night_tables .night-sit-out")).to_have_text(f"Sitting out: {sit_out}")
    assert page.evaluate(
        "document.scrollingElement.scrollHeight <= innerHeight && document.scrollingElement.scrollWidth <= innerWidth"
    )
    bottom = page.evaluate("document.querySelector('#night_tables .night-sit-out').getBoundingClientRect().bottom")
    assert bottom <= 1080
    context.close()


def test_a_refused_merge_is_said_at_the_top_of_the_screen(client, live_server, phone, screenshot_dir):
    """Issue 26, item 14: Anne and Beth played together; choosing to merge them answers at once
    (before the confirm step) with the refusal at the top of the screen, not 1,800 px down the
    club page."""
    made = new_club(client)
    members = add_members(client, made, "Anne", "Beth", "Cath", "Diana", "Emma", "Fay")
    club_game(client, made, members, ["Anne", "Beth", "Cath", "Diana"], "2026-12-07", GAME_1)
    phone.goto(f"{live_server}/k/{made['admin_token']}")
    form = phone.locator("#merge-members")
    form.get_by_label("Merge", exact=True).select_option(label="Beth")
    form.get_by_label("into", exact=True).select_option(label="Anne")
    form.get_by_role("button").tap()
    alert = phone.get_by_role("alert")
    expect(alert).to_have_text("Beth and Anne played at the same table: they are two people")
    box = alert.bounding_box()
    assert box is not None and box["y"] + box["height"] <= 844  # in view without scrolling
    expect(phone.get_by_role("button", name=re.compile("Merge Beth into Anne"))).to_have_count(0)
    phone.screenshot(path=str(screenshot_dir / "fit-merge-refused-390.png"))
    phone.get_by_role("link", name="Back to the club").tap()
    expect(phone.locator("#members tbody th", has_text="Beth")).to_be_visible()


def test_the_new_game_form_shows_every_error_and_the_sheet_its_date(app, live_server, phone, screenshot_dir):
    """Issue 26, item 19: the new-game form, sent with an empty name and a repeated one, marks
    both fields at once; a game's sheet page shows its date in the date field."""
    phone.goto(f"{live_server}/games/new")
    for seat, name in enumerate(["Anne", "", "anne", "Marc"]):
        phone.locator(f"#players-{seat}").fill(name)
    phone.get_by_role("button", name="Start the game").tap()
    expect(phone.locator("#players-1[aria-invalid='true']")).to_have_count(1)
    expect(phone.locator("#players-2[aria-invalid='true']")).to_have_count(1)
    expect(phone.locator(".players")).to_contain_text("the name is empty")
    expect(phone.locator(".players")).to_contain_text("anne is already playing")
    phone.locator(".players").scroll_into_view_if_needed()
    phone.screenshot(path=str(screenshot_dir / "fit-new-game-errors-390.png"))
    with app.app_context():
        stored, _ = games.create_game({**EXAMPLE["game"], "rounds": [], "date": "2026-12-03"})
        view = stored.view_token
        db.session.remove()
    phone.goto(f"{live_server}/s/{view}")
    expect(phone.locator("#date")).to_have_value("2026-12-03")
    phone.screenshot(path=str(screenshot_dir / "fit-sheet-date-390.png"))
