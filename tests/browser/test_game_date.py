"""The phone dates the game it starts (issue 11, part 4): the new-game form sends the
phone's local date and IANA time zone, so a game started at 19:30 in New York on
3 December 2026 (00:30 on the 4th in UTC) is dated the 3rd on its sheet and home page."""

from datetime import UTC, datetime

import pytest
from playwright.sync_api import expect

from scorepad.services import games

EVENING_IN_NEW_YORK = datetime(2026, 12, 4, 0, 30, tzinfo=UTC)


@pytest.fixture
def new_york_phone(browser):
    """A phone in New York whose clock says 19:30 on 3 December 2026."""
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, has_touch=True, timezone_id="America/New_York", locale="en-US"
    )
    page = context.new_page()
    page.clock.set_fixed_time(EVENING_IN_NEW_YORK)
    yield page
    context.close()


def test_the_new_game_form_sends_the_phones_date_and_time_zone(app, live_server, new_york_phone):
    page = new_york_phone
    # The server's clock stands at the same instant: its own UTC date would be the 4th.
    app.config["CLOCK"] = lambda: EVENING_IN_NEW_YORK
    page.goto(live_server + "/games/new")
    for seat, name in enumerate(["Anne", "Beth", "Cath", "Diana"]):
        page.get_by_role("textbox", name=f"Player {seat + 1}", exact=True).fill(name)
    with page.expect_request(lambda request: request.method == "POST") as sent:
        page.get_by_role("button", name="Start the game").tap()
    form = dict(pair.split("=", 1) for pair in (sent.value.post_data or "").split("&"))
    assert (form["date"], form["timezone"]) == ("2026-12-03", "America%2FNew_York")
    expect(page.locator("#current_round")).to_contain_text("Round 1 of 28")
    token = page.url.rsplit("/g/", 1)[1]
    with app.app_context():
        stored, _ = games.find_by_token(token)
        assert (stored.date.isoformat(), stored.timezone) == ("2026-12-03", "America/New_York")
        view = stored.view_token
    page.goto(live_server + "/")
    expect(page.locator("#recent")).to_contain_text("Game of Dec 3, 2026")
    page.goto(f"{live_server}/s/{view}")
    expect(page.locator("time[datetime='2026-12-03']")).to_have_text("December 3, 2026")
