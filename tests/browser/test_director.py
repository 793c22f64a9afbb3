"""The organiser's club night on a phone (issue 14): a 12-player night created through the form
(names pasted, the count shown), the director's console, the seating plan, the printable
table cards (screenshots of the screen and the print layout), an adjustment, and closing the
night. Screenshots in tests/screenshots/director-*.png."""

import re

from playwright.sync_api import expect

from scorepad.services import games, nights
from scorepad.tokens import derive_token
from tests.browser.test_game_date import EVENING_IN_NEW_YORK, new_york_phone  # noqa: F401 (a fixture)

NAMES = ["Anne", "Beth", "Cath", "Diana", "Emma", "Fay", "Gwen", "Hope", "Iris", "June", "Kate", "Lena"]
NO_QUEENS = {"contract": "no-queens", "doubles": [], "outcome": {"queens": [1, 0, 1, 2]}}


def test_an_organiser_runs_a_twelve_player_night_from_a_phone(app, live_server, phone, screenshot_dir):
    page = phone
    problems: list[str] = []
    # Chromium logs the refused form's page (422, on purpose below) as a failed load; nothing else may fail.
    refused_form = "Failed to load resource: the server responded with a status of 422"
    page.on(
        "console",
        lambda msg: (
            problems.append(msg.text) if msg.type == "error" and not msg.text.startswith(refused_form) else None
        ),
    )
    page.on("pageerror", lambda exc: problems.append(str(exc)))
    page.goto(live_server + "/")
    page.get_by_role("link", name="New club night").tap()
    expect(page.get_by_role("heading", name="New club night")).to_be_visible()
    page.get_by_label("Title").fill("Thursday club night")
    # A name twice: the form says which line, next to the players.
    page.get_by_label("Players present").fill("Anne\nBeth\nCath\nanne")
    page.get_by_role("button", name="Create the night").tap()
    expect(page.locator("#players-error")).to_contain_text("Line 4 (anne)")
    page.screenshot(path=str(screenshot_dir / "director-new-error.png"), full_page=True)
    page.get_by_label("Players present").fill("\n".join(NAMES))
    expect(page.locator("#players-count")).to_have_text("Players listed: 12")
    page.get_by_label("Sessions").select_option("2")
    page.screenshot(path=str(screenshot_dir / "director-new.png"), full_page=True)
    with page.expect_request(lambda request: request.method == "POST") as sent:
        page.get_by_role("button", name="Create the night").tap()
    # The phone's date (the date field opened with it) and its time zone go with the form.
    form = dict(pair.split("=", 1) for pair in (sent.value.post_data or "").split("&"))
    assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", form["date"]) and form["timezone"]

    # The console: 2 sessions of 3 tables, nobody started yet.
    expect(page).to_have_url(re.compile(r"/d/[A-Za-z0-9_-]+$"))
    director = page.url
    expect(page.locator(".table-row")).to_have_count(6)
    expect(page.locator("#leaderboard tbody tr")).to_have_count(12)
    # Table 1 of session 1 saves a round: its line and the leaderboard follow.
    token = nights.table_token(director.rsplit("/", 1)[1], 1, 1)
    with app.app_context():
        game_id = games.find_by_token(token)[0].id
    saved = page.request.post(
        f"{live_server}/api/v1/games/{game_id}/rounds", data=NO_QUEENS, headers={"Authorization": f"Bearer {token}"}
    )
    assert saved.status == 201
    page.reload()
    expect(page.locator('[data-table="1-1"]')).to_contain_text("1 of 28 rounds played")
    expect(page.locator('[data-table="1-1"]')).to_contain_text("saved just now")
    page.screenshot(path=str(screenshot_dir / "director-console.png"), full_page=True)
    page.set_viewport_size({"width": 1280, "height": 800})
    page.screenshot(path=str(screenshot_dir / "director-console-laptop.png"), full_page=True)
    page.set_viewport_size({"width": 390, "height": 844})

    # The table's scorer page, from its line on the console, says which table of which night it is.
    page.locator('[data-table="1-2"]').get_by_role("link", name="Scorer’s page").tap()
    expect(page.locator(".game-head h1")).to_have_text("Thursday club night")
    expect(page.locator(".night-table")).to_have_text("Table 2 · session 1")
    page.screenshot(path=str(screenshot_dir / "director-table-scorer.png"))
    page.goto(director)
    page.get_by_role("link", name="Seating plan").first.tap()
    expect(page.locator(".plan-table")).to_have_count(6)
    page.screenshot(path=str(screenshot_dir / "director-seating.png"), full_page=True)

    page.goto(director + "/cards")
    expect(page.locator(".table-card")).to_have_count(6)
    expect(page.locator(".table-card svg")).to_have_count(12)  # the scorer's code and the confirm page's (issue 15)
    expect(page.get_by_role("button", name="Print")).to_be_visible()
    page.screenshot(path=str(screenshot_dir / "director-cards.png"), full_page=True)
    page.emulate_media(media="print")
    page.set_viewport_size({"width": 794, "height": 1123})  # A4 at 96 dpi
    page.screenshot(path=str(screenshot_dir / "director-cards-print.png"), full_page=True)
    # Printed: the six cards (2 × 3) fill one A4 page.
    pdf = page.pdf(format="A4", prefer_css_page_size=True)
    assert len(re.findall(rb"/Type\s*/Page\b", pdf)) == 1
    page.emulate_media(media="screen")
    page.set_viewport_size({"width": 390, "height": 844})

    page.goto(director)
    page.get_by_label("Player").select_option(label="Cath")
    page.get_by_label("Points").fill("−10")
    page.get_by_label("Reason").fill("late")
    page.get_by_role("button", name="Add the adjustment").tap()
    expect(page.locator(".adjustment-list")).to_contain_text("Cath")
    expect(page.locator(".adjustment-list")).to_contain_text("late")

    page.get_by_role("checkbox", name=re.compile("tables? ha(s|ve) not finished")).check()

    page.get_by_role("button", name="Close the night").tap()
    expect(page.locator(".night-closed")).to_contain_text("Closed")
    expect(page.get_by_role("button", name="Reopen the night")).to_be_visible()
    page.screenshot(path=str(screenshot_dir / "director-closed.png"), full_page=True)
    # The same console in German (long words on a narrow screen), and the cards in French.
    page.get_by_role("button", name="Deutsch").tap()
    expect(page.get_by_role("button", name="Abend wieder öffnen")).to_be_visible()
    page.screenshot(path=str(screenshot_dir / "director-closed-de.png"), full_page=True)
    page.get_by_role("button", name="Français").tap()
    expect(page.get_by_role("button", name="Rouvrir la soirée")).to_be_visible()
    page.goto(director + "/cards")
    expect(page.locator(".table-card").first).to_contain_text("Séance 1")
    page.screenshot(path=str(screenshot_dir / "director-cards-fr.png"))
    assert problems == []


def test_a_night_opens_dated_by_the_phones_calendar(app, live_server, new_york_phone):  # noqa: F811 (the fixture)
    """19:30 on 3 December in New York is the 4th in UTC: the form shows the phone's 3rd and the
    night (and its tables' games) is dated the 3rd, in the phone's time zone."""
    page = new_york_phone
    app.config["CLOCK"] = lambda: EVENING_IN_NEW_YORK
    page.goto(live_server + "/events/new")
    expect(page.get_by_label("Date")).to_have_value("2026-12-03")
    page.get_by_label("Players present").fill("\n".join(NAMES[:8]))
    page.get_by_role("button", name="Create the night").tap()
    expect(page).to_have_url(re.compile(r"/d/[A-Za-z0-9_-]+$"))
    with app.app_context():
        stored, _role = nights.find_night(page.url.rsplit("/", 1)[1])
        assert (stored.date.isoformat(), stored.timezone) == ("2026-12-03", "America/New_York")


NO_TRICKS = {"contract": "no-tricks", "doubles": [], "outcome": {"tricks": [3, 4, 2, 4]}}


def test_a_required_night_shows_the_director_which_rounds_wait_and_prints_two_codes_a_card(
    app, live_server, phone, screenshot_dir
):
    """A 12-player night made with confirmation required; session 1's table 1 saves two rounds
    (the second confirmed by its other player), table 3 one. The console lists table 1's round 1
    and table 3's round 1 with their scorer's links; closing is refused naming them; once they are
    confirmed the night closes. The cards carry the confirm page's code too. Screenshots
    tests/screenshots/director-unconfirmed*.png, director-cards-confirm*.png, new-game-options.png."""
    page = phone
    problems: list[str] = []
    refused_close = "Failed to load resource: the server responded with a status of 409"  # on purpose below
    page.on(
        "console",
        lambda msg: (
            problems.append(msg.text) if msg.type == "error" and not msg.text.startswith(refused_close) else None
        ),
    )
    page.on("pageerror", lambda exc: problems.append(str(exc)))
    page.goto(live_server + "/events/new")
    page.get_by_label("Title").fill("Thursday club night")
    # Two long names: printed, they stay on their lines and both codes stay whole on every card.
    page.get_by_label("Players present").fill(
        "\n".join([*NAMES[:10], "Anne-Sophie van den Broek", "Dietrich-Wilhelm Ostermann"])
    )
    page.get_by_role("radio", name=re.compile("^Required")).check()
    page.screenshot(path=str(screenshot_dir / "director-new-confirmation.png"), full_page=True)
    page.get_by_role("button", name="Create the night").tap()
    expect(page).to_have_url(re.compile(r"/d/[A-Za-z0-9_-]+$"))
    director = page.url
    expect(page.locator("#unconfirmed")).to_contain_text("Every round is confirmed.")

    director_token = director.rsplit("/", 1)[1]

    def post(session: int, table: int, path: str, body: dict | None, confirm: bool = False):
        token = nights.table_token(director_token, session, table)
        with app.app_context():
            game_id = games.find_by_token(token)[0].id
        bearer = derive_token(token, "confirm") if confirm else token
        answer = page.request.post(
            f"{live_server}/api/v1/games/{game_id}/rounds{path}",
            data=body,
            headers={"Authorization": f"Bearer {bearer}"},
        )
        assert answer.ok, answer.text()

    post(1, 1, "", NO_QUEENS)
    post(1, 1, "", NO_TRICKS)
    post(1, 3, "", NO_QUEENS)
    post(1, 1, "/2/confirm", None, confirm=True)
    page.reload()
    waiting = page.locator("#unconfirmed li")
    expect(waiting).to_have_count(2)
    expect(waiting.nth(0)).to_contain_text("Session 1, table 1: Round 1 not confirmed")
    expect(waiting.nth(1)).to_contain_text("Session 1, table 3: Round 1 not confirmed")
    expect(page.locator('[data-table="1-1"] .table-unconfirmed')).to_have_text("Round 1 not confirmed")
    expect(page.locator(".close-refused")).to_contain_text("2 rounds are not confirmed yet")
    page.screenshot(path=str(screenshot_dir / "director-unconfirmed.png"), full_page=True)
    page.screenshot(path=str(screenshot_dir / "director-unconfirmed-top.png"))

    page.get_by_role("checkbox", name=re.compile("tables? ha(s|ve) not finished")).check()
    page.get_by_role("button", name="Close the night").tap()
    expect(page.locator(".flash-error")).to_have_text(
        "Rounds are not confirmed: session 1 table 1 round 1; session 1 table 3 round 1"
    )
    expect(page.get_by_role("button", name="Close the night")).to_be_visible()
    page.screenshot(path=str(screenshot_dir / "director-unconfirmed-refused.png"))
    # The director follows a table's link to its scorer's page.
    waiting.nth(1).get_by_role("link", name="Scorer’s page").tap()
    expect(page.locator(".night-table")).to_have_text("Table 3 · session 1")

    post(1, 1, "/1/confirm", None, confirm=True)
    post(1, 3, "/1/confirm", None, confirm=True)
    page.goto(director)
    expect(page.locator("#unconfirmed")).to_contain_text("Every round is confirmed.")
    page.get_by_role("checkbox", name=re.compile("tables? ha(s|ve) not finished")).check()
    page.get_by_role("button", name="Close the night").tap()
    expect(page.locator(".night-closed")).to_contain_text("Closed")

    page.goto(director + "/cards")
    expect(page.locator(".table-card")).to_have_count(6)
    expect(page.locator(".table-card svg")).to_have_count(12)
    expect(page.locator(".card-qr-confirm figcaption").first).to_have_text("The other player checks here")
    page.screenshot(path=str(screenshot_dir / "director-cards-confirm.png"), full_page=True)
    page.emulate_media(media="print")
    page.set_viewport_size({"width": 794, "height": 1123})  # A4 at 96 dpi
    page.screenshot(path=str(screenshot_dir / "director-cards-confirm-print.png"), full_page=True)
    # Printed: the six cards, two codes each, still fill one A4 page, every code whole on its card.
    pdf = page.pdf(format="A4", prefer_css_page_size=True)
    assert len(re.findall(rb"/Type\s*/Page\b", pdf)) == 1
    for card in page.locator(".table-card").all():
        box = card.bounding_box()
        for code in card.locator("svg").all():
            inner = code.bounding_box()
            assert box["y"] <= inner["y"] and inner["y"] + inner["height"] <= box["y"] + box["height"]
            assert box["x"] <= inner["x"] and inner["x"] + inner["width"] <= box["x"] + box["width"]
    page.emulate_media(media="screen")
    page.set_viewport_size({"width": 390, "height": 844})

    # A game of its own: the confirmation among the new-game form's more options.
    page.goto(live_server + "/games/new")
    page.get_by_text("More options").tap()
    expect(page.get_by_role("radio", name=re.compile("^Optional"))).to_be_checked()
    page.screenshot(path=str(screenshot_dir / "new-game-options.png"), full_page=True)
    assert problems == []
