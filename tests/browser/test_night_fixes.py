"""Issue 26 at phone size (390×844), screenshots in tests/screenshots/night-*.png: a mistyped
adjustment removed from the console (a second tap confirms), a seat swap that recreates a pair
who met asks first, a closed night's table offers nothing it would refuse, and a club game's
"Play again" on a phone without the club's admin link says the new game will not count."""

from playwright.sync_api import expect

from tests.test_api_events import NIGHT as EIGHTEEN
from tests.test_api_events import FirstSeat, play_the_example, table
from tests.test_club_stats import GAMES, add_member, create_club, play, start_game

API = "/api/v1"
EIGHT = {
    "format": "barbu-scorepad/event@1",
    "title": "Thursday club night",
    "preset": "tournament",
    "sessions": 2,
    "players": ["Anne", "Beth", "Cath", "Diana", "Emma", "Fay", "Gwen", "Hanna"],
    # Session 1: Anne Beth Cath Diana | Emma Fay Gwen Hanna; session 2: Anne Emma Beth Fay | Cath Gwen Diana Hanna.
    "seating": [[[0, 1, 2, 3], [4, 5, 6, 7]], [[0, 4, 1, 5], [2, 6, 3, 7]]],
}


def test_the_director_removes_an_adjustment_and_is_asked_before_a_swap_that_repeats(
    app, live_server, phone, screenshot_dir
):
    page = phone
    client = app.test_client()
    night = client.post(f"{API}/events", json=EIGHT).get_json()
    director = {"Authorization": f"Bearer {night['director_token']}"}
    for adjustment in ({"player": 2, "points": -10, "reason": "late"}, {"player": 4, "points": 50, "reason": "typo"}):
        assert (
            client.post(f"{API}/events/{night['id']}/adjustments", json=adjustment, headers=director).status_code == 201
        )
    console = f"{live_server}/d/{night['director_token']}"
    page.goto(console + "#adjustments")
    typo = page.locator(".adjustment-list li", has_text="typo")
    typo.locator("summary", has_text="Remove").tap()
    confirm = typo.get_by_role("button", name="Remove this adjustment: it leaves the results")
    expect(confirm).to_be_visible()
    typo.scroll_into_view_if_needed()
    page.screenshot(path=str(screenshot_dir / "night-adjustment-remove.png"))
    confirm.tap()
    expect(page.get_by_text("Adjustment removed: Emma +50 (typo).")).to_be_visible()
    expect(page.locator(".adjustment-list li")).to_have_count(1)
    page.screenshot(path=str(screenshot_dir / "night-adjustment-removed.png"), full_page=True)

    # Beth and Gwen trading places in session 2 seat Beth with Cath and Diana, Gwen with Emma
    # and Fay: all met in session 1. The page asks; "Swap all the same" makes it.
    page.goto(console + "/seating")
    page.locator("select#session").select_option("2")
    page.get_by_label("Player", exact=True).select_option(label="Beth")
    page.get_by_label("Trades places with").select_option(label="Gwen")
    page.get_by_role("button", name="Swap", exact=True).tap()
    warning = page.locator(".swap-meetings")
    expect(warning).to_contain_text("Beth and Cath met in session 1.")
    expect(warning.locator("li")).to_have_count(4)
    expect(warning).to_be_in_viewport()  # the answer opens at the form (#swap), not 1,000 px above it
    page.screenshot(path=str(screenshot_dir / "night-swap-asks.png"))
    page.get_by_role("button", name="Swap all the same").tap()
    expect(page.get_by_text("Session 2: Beth and Gwen trade places.")).to_be_attached()
    expect(page.locator("#session-2")).to_be_in_viewport()  # the session changed, in view
    page.screenshot(path=str(screenshot_dir / "night-swap-done.png"))


def test_a_closed_nights_finished_table_shows_only_what_can_be_done(app, live_server, phone, screenshot_dir):
    app.config["EVENT_RANDOM"] = FirstSeat
    client = app.test_client()
    night = client.post(f"{API}/events", json=EIGHTEEN).get_json()
    done = table(night, 1, 1)
    play_the_example(client, done)
    director = {"Authorization": f"Bearer {night['director_token']}"}
    assert client.post(f"{API}/events/{night['id']}/close", headers=director).status_code == 200
    page = phone
    page.goto(live_server + "/" + done["links"]["scorer"].split("://", 1)[-1].split("/", 1)[1])
    expect(page.locator(".night-closed-note").first).to_be_visible()
    expect(page.get_by_role("heading", name="Final standings")).to_be_visible()
    for words in ("Play again", "Let another player check"):
        expect(page.get_by_text(words, exact=True)).to_have_count(0)
    expect(page.get_by_role("button", name="Undo round 28")).to_have_count(0)
    page.screenshot(path=str(screenshot_dir / "night-closed-table.png"))
    page.screenshot(path=str(screenshot_dir / "night-closed-table-full.png"), full_page=True)


def test_a_club_games_play_again_says_it_will_not_count_without_the_admin_link(app, live_server, phone, screenshot_dir):
    client = app.test_client()
    club = create_club(client, "De Zwarte Koning", {})
    ids = {name: add_member(client, club, name)["id"] for name in ("Anne", "Beth", "Cath", "Diana")}
    game = start_game(client, "G1", ids, club)
    play(client, game, GAMES["G1"][3])
    page = phone
    page.goto(f"{live_server}/g/{game['edit_token']}#finished")
    note = page.get_by_text("The new game will not count for the club")
    expect(note).to_be_visible()
    page.locator("#finished").scroll_into_view_if_needed()
    page.screenshot(path=str(screenshot_dir / "night-club-rematch-note.png"))
    page.get_by_role("button", name="Play again").tap()
    expect(page.get_by_text("This game does not count for the club.")).to_be_visible()
    page.screenshot(path=str(screenshot_dir / "night-club-rematch-started.png"))
