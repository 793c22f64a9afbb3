"""A club on a phone (issue 16; club-format.md "Club, members, statistics, ladder, rating"), from
end to end at 390×844: the organiser creates a club, adds members, starts a club game from the
members (one name typed anew becomes a member), records a round on the scorer's page, then opens
a member's page (its statistics and charts, after three more games of the club sent through the
API) and the ladder (on screen and printed on A4). Screenshots in tests/screenshots/club-*.png."""

import re
import shutil
import subprocess

from playwright.sync_api import Page, expect

from scorepad.services import clubs
from tests.browser.test_csp import CSP_WORDS, LISTEN
from tests.browser.test_full_game import fill_round, save_round
from tests.test_club_pages import GAME_1, GAME_2, QUEENS, auth

API = "/api/v1"
MINUS = "\u2212"
# Round 1 of the club game (tournament preset, Anne declares): No Queens, one queen each, no doubles: −6 each.
FIRST_ROUND = {"contract": "no-queens", "doubles": [], "outcome": {"queens": [1, 1, 1, 1]}}


def no_sideways_scroll(page: Page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"{page.url} scrolls sideways at 390 px ({width} px wide)"


def more_games(app, client, admin: str) -> None:
    """Three complete games of the club (the four-round preset of tests/test_club_pages.py),
    through the API as a club's software would send them, so that the member's charts have lines."""
    with app.app_context():
        club, _role = clubs.find_club(admin)
        members = {m.name: m.public_id for m in clubs.club_members(club)}
        public_id = club.public_id
    for day, players, rounds in (
        ("2026-03-01", ["Anne", "Beth", "Cath", "Diana"], GAME_1),
        ("2026-03-08", ["Diana", "Anne", "Beth", "Cath"], GAME_2),
        ("2026-03-15", ["Cath", "Diana", "Anne", "Beth"], GAME_1),
    ):
        document = {
            "players": players,
            "first_declarer": 0,
            "preset": QUEENS,
            "date": day,
            "club": public_id,
            "members": [members[p] for p in players],
        }
        game = client.post(f"{API}/games", json=document, headers={"X-Club-Token": admin}).json
        for rnd in rounds:
            assert (
                client.post(f"{API}/games/{game['id']}/rounds", json=rnd, headers=auth(game["edit_token"])).status_code
                == 201
            )


def test_a_club_on_a_phone(app, live_server, phone, screenshot_dir):
    page = phone
    # The strict Content-Security-Policy: no page of the club's breaks it (inline QR code and charts included).
    messages: list[str] = []
    page.on("console", lambda msg: messages.append(f"{msg.type}: {msg.text}"))
    page.add_init_script(LISTEN)

    def shot(name: str) -> None:
        assert page.evaluate("window.__csp") == [], page.url
        page.screenshot(path=str(screenshot_dir / f"club-{name}.png"), full_page=True)

    # -- a new club, from the home page -------------------------------------------------------------
    page.goto(live_server + "/")
    page.get_by_role("link", name="New club", exact=True).tap()
    page.get_by_label("Club name").fill("De Zwarte Koning")
    expect(page.get_by_label("Results counted")).to_have_value("10")
    expect(page.get_by_label("Games to qualify")).to_have_value("5")
    shot("01-new-club")
    no_sideways_scroll(page)
    page.get_by_role("button", name="Create the club").tap()
    page.wait_for_url(re.compile(r"/k/[^/]+$"))
    admin = page.url.rsplit("/", 1)[1]
    expect(page.locator("h1")).to_have_text("De Zwarte Koning")
    expect(page.locator(".flash")).to_contain_text("it is the club’s admin link")

    # -- members --------------------------------------------------------------------------------------
    for name in ("Anne", "Beth", "Cath"):
        form = page.locator("#add-member")
        form.get_by_label("Name").fill(name)
        form.get_by_role("button", name="Add the member").tap()
        expect(page.locator("#members tbody th", has_text=name)).to_be_visible()
    expect(page.locator("#members tbody tr")).to_have_count(3)
    expect(page.locator("#share svg")).to_be_visible()  # the view link's QR code
    shot("02-club-admin")
    no_sideways_scroll(page)

    # -- the club's new-night form: the members ticked count as players (event.js) ----------------------
    page.get_by_role("link", name="New club night for the club").tap()
    page.wait_for_url(re.compile(r"/k/[^/]+/night$"))
    for name in ("Anne", "Beth", "Cath"):
        page.locator("#present label", has_text=name).tap()
    page.get_by_label("Other players").fill("Diana")
    expect(page.locator("#players-count")).to_have_text("Players listed: 4")
    shot("03-club-night-form")
    no_sideways_scroll(page)
    page.go_back()

    # -- a club game from the members ----------------------------------------------------------------
    page.get_by_role("link", name="New game for the club").first.tap()
    page.wait_for_url(re.compile(r"/k/[^/]+/game$"))
    expect(page.locator("datalist#club-members option")).to_have_count(3)
    for seat, name in enumerate(("Anne", "Beth", "Cath", "Diana")):  # Diana: typed anew
        field = page.locator(f"#players-{seat}")
        expect(field).to_have_attribute("list", "club-members")
        field.fill(name)
    page.locator("label.chip", has_text="Anne").tap()  # Anne declares first
    shot("03-club-game-form")
    no_sideways_scroll(page)
    page.get_by_role("button", name="Start the game").tap()
    page.wait_for_url(re.compile(r"/g/[^/]+$"))
    fill_round(page, FIRST_ROUND, 0)
    save_round(page, 1)

    # -- the club page counts it; Diana is a member now ----------------------------------------------
    page.goto(f"{live_server}/k/{admin}")
    expect(page.locator("#members tbody tr")).to_have_count(4)
    anne = page.locator("#members tbody tr", has_text="Anne")
    expect(anne.locator("td").first).to_have_text("1")  # one game
    expect(anne.locator("td").nth(2)).to_have_text(f"{MINUS}6")  # average −6

    # -- a member's page, after three more games of the club ------------------------------------------
    more_games(app, app.test_client(), admin)
    page.reload()
    page.locator("#members tbody th a", has_text="Anne").tap()
    page.wait_for_url(re.compile(r"/m/[^/]+$"))
    expect(page.locator("h1")).to_have_text("Anne")
    expect(page.locator("#summary dd").first).to_contain_text("4")  # 4 games, 3 complete
    expect(page.locator("#games tbody tr")).to_have_count(4)
    for chart in page.locator("figure.chart img").all():
        chart.scroll_into_view_if_needed()
        page.wait_for_function("img => img.complete && img.naturalWidth > 0", arg=chart.element_handle())
    shot("04-member")
    no_sideways_scroll(page)
    member_url = page.url
    page.emulate_media(color_scheme="dark")  # the charts follow the page into dark mode
    shot("04-member-dark")
    page.emulate_media(color_scheme="light")

    # -- one of the member's games, read-only under the club's token -------------------------------------
    page.locator("#games tbody th a").last.tap()  # the oldest: 1 March, Anne last with −42
    page.wait_for_url(re.compile(r"/k/[^/]+/g/\d+$"))
    expect(page.locator("#club_game_standings .standings li").first).to_contain_text("Cath")
    expect(page.locator("#club_game_standings .standings li").last).to_contain_text(f"Anne {MINUS}42")
    shot("05-club-game")
    no_sideways_scroll(page)

    # -- the narrowest phone: nothing scrolls sideways -------------------------------------------------
    page.set_viewport_size({"width": 320, "height": 700})
    for url in (f"{live_server}/k/{admin}", member_url):
        page.goto(url)
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 320, f"{url} scrolls sideways at 320 px ({width} px wide)"
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(member_url)

    # -- the ladder, on the phone and on A4 (60 members on one page) ------------------------------------
    with app.app_context():
        club, _role = clubs.find_club(admin)
        public_id = club.public_id
    api = app.test_client()
    for n in range(5, 61):  # Anne, Beth, Cath, Diana and 56 more: 60 members
        added = api.post(
            f"{API}/clubs/{public_id}/members",
            json={"name": f"Speler {n:02d} van De Zwarte Koning"},
            headers=auth(admin),
        )
        assert added.status_code == 201, added.json
    page.get_by_role("link", name="Ladder").first.tap()
    page.wait_for_url(re.compile(r"/ladder$"))
    expect(page.locator(".ladder-table tbody tr")).to_have_count(60)
    shot("06-ladder")
    no_sideways_scroll(page)
    page.set_viewport_size({"width": 794, "height": 1123})
    page.emulate_media(media="print")
    shot("07-ladder-print")
    pdf = screenshot_dir / "club-ladder.pdf"
    page.pdf(path=str(pdf), format="A4", print_background=True)
    page.emulate_media(media="screen")
    if shutil.which("pdfinfo"):
        info = subprocess.run(["pdfinfo", str(pdf)], check=True, capture_output=True, text=True).stdout
        assert re.search(r"^Pages:\s+1$", info, re.M), info
    assert [m for m in messages if any(word in m for word in CSP_WORDS)] == []
