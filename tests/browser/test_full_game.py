"""A scorer's whole evening on a phone: the game of tournament-full.json entered by
tapping through the UI, checked against the example's independently worked-out results."""

import json
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.browser.stall import play_rounds, rounds_on_server
from tests.browser.viewport import expect_in_viewport

EXAMPLE = json.loads((Path(__file__).parent.parent / "data" / "examples" / "tournament-full.json").read_text())
GAME = EXAMPLE["game"]
EXPECTED = EXAMPLE["expected"]


def number(text: str) -> int:
    """A number as the page shows it (true minus sign, optional plus)."""
    return int(text.strip().replace("\u2212", "-").replace("+", ""))


def create_game(page: Page, base_url: str, shot=None) -> None:
    """Fill in the New game form like a person: names, first declarer, preset."""
    page.goto(base_url + "/")
    page.get_by_role("link", name="New game").tap()
    for seat, name in enumerate(GAME["players"]):
        page.get_by_role("textbox", name=f"Player {seat + 1}", exact=True).fill(name)
    # The first-declarer chips are named after the players once they are typed (app.js).
    page.locator(f"input[name='first_declarer'][value='{GAME['first_declarer']}']").tap()
    if shot:
        shot("01-new-game")
    page.get_by_role("button", name="Start the game").tap()
    expect(page.locator("#current_round")).to_contain_text("Round 1 of 28")


def fill_round(page: Page, rnd: dict, declarer: int) -> None:
    """Step 1 (the contract button) and step 2 (trump/rank, outcome, doubles) of one round."""
    contract = rnd["contract"]
    if page.locator("form.round-form").count() == 0:
        page.locator(f"a[data-contract='{contract}']").tap()
    # else: the declarer's last contract, nothing to choose: the form is already up.
    form = page.locator("form.round-form")
    expect(form.locator("input[name='contract']")).to_have_value(contract)
    if "trump" in rnd:
        form.locator(f"input[name='trump'][value='{rnd['trump']}']").tap()
    if "start_rank" in rnd:
        form.locator(f"input[name='start_rank'][value='{rnd['start_rank']}']").tap()
    for part, value in rnd["outcome"].items():
        if part in ("tricks", "queens", "hearts"):
            for seat, count in enumerate(value):
                form.locator(f"input[name='{part}-{seat}'][value='{count}']").tap()
        elif part == "order":
            for place, seat in enumerate(value[:3]):  # the fourth is implied
                form.locator(f"input[name='order-{place}'][value='{seat}']").tap()
        elif part == "most":
            for seat in value:
                form.locator(f"input[name='most'][value='{seat}']").tap()
        else:
            form.locator(f"input[name='{part}'][value='{value}']").tap()
    # Doubles first, then the declarer's redoubles (app.js enables a redouble cell only
    # once the matching double is ticked).
    for doubler, doubled in sorted(rnd["doubles"], key=lambda pair: pair[0] == declarer):
        form.locator(f"input[name='doubles'][value='{doubler}-{doubled}']").tap()


def save_round(page: Page, number_: int) -> None:
    # The last tap's settlement preview is in: the Save button below it has stopped moving.
    expect(page.locator("#preview.htmx-request")).to_have_count(0)
    with page.expect_response(lambda r: r.request.method == "POST" and r.url.endswith("/rounds")) as response:
        page.get_by_role("button", name=f"Save round {number_}").tap()
    assert response.value.status == 200, response.value.text()[:2000]
    expect(page.locator(f"#round-{number_}")).to_be_visible()
    # entry.js leads with the saved round (focus and scroll) once htmx has settled.
    heading = page.locator("#last-title, #final-title").first
    expect(heading).to_be_focused()
    expect_in_viewport(heading)


def shown_running(page: Page, number_: int) -> list[int]:
    return [number(t) for t in page.locator(f"#round-{number_} td .running").all_inner_texts()]


# A long game goes on past headless Chromium's frame stall (tests/browser/stall.py), and has one
# more try after a Playwright timeout, as test_presets' every-preset game. A wrong value fails at once.
@pytest.mark.flaky(reruns=1, only_rerun=["TimeoutError"])
def test_a_whole_tournament_game_on_a_phone(app, live_server, phone, fresh_phone, screenshot_dir):
    create_game(
        phone, live_server, lambda name: phone.screenshot(path=str(screenshot_dir / f"{name}.png"), full_page=True)
    )
    assert "/g/" in phone.url
    phone.on("dialog", lambda dialog: dialog.accept())

    shots = {
        "no-tricks": "03-form-counts",
        "no-last-two": "04-form-who-took",
        "domino": "05-form-domino-order",
        "no-queens": "06-form-doubles-grid",
    }

    def step(page: Page, index: int) -> None:
        def shot(name):
            page.screenshot(path=str(screenshot_dir / f"{name}.png"), full_page=True)

        rnd, result = GAME["rounds"][index], EXPECTED["rounds"][index]
        fill_round(page, rnd, result["declarer"])
        if rnd["contract"] in shots:  # each form's picture once, at its first round
            shot(shots.pop(rnd["contract"]))
        if index == 3:
            # The same form on the narrowest phone: nothing may scroll sideways.
            page.set_viewport_size({"width": 320, "height": 700})
            shot("07-form-320px")
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= 320, f"the page scrolls sideways at 320 px ({width} px wide)"
            page.set_viewport_size({"width": 390, "height": 844})
        save_round(page, index + 1)
        if index in (0, 5, 13, 20):
            assert shown_running(page, index + 1) == result["result"]["running"]
        if index == 9:
            shot("02-game-mid-game")

    def reopen() -> Page:
        page = fresh_phone()
        page.on("dialog", lambda dialog: dialog.accept())
        return page

    page = play_rounds(phone, len(GAME["rounds"]), step, rounds_on_server(app), reopen)

    standings = EXPECTED["standings"]
    expect(page.locator("#final")).to_be_visible()
    page.screenshot(path=str(screenshot_dir / "08-final-standings.png"), full_page=True)
    totals = [number(t) for t in page.locator(".score-table tfoot td").all_inner_texts()]
    assert totals == standings["totals"] == [-234, 56, 132, 46]
    shown = {}
    for item in page.locator("#final li").all():
        rank, name = item.locator("span").first.inner_text().split(". ", 1)
        shown[name] = (int(rank), number(item.locator(".score .pts").inner_text()))
    expected = {name: (standings["rank"][seat], standings["final"][seat]) for seat, name in enumerate(GAME["players"])}
    assert shown == expected
    assert [shown[name][0] for name in GAME["players"]] == [4, 2, 1, 3]
    # No more rounds to record: no form, no contract buttons.
    expect(page.locator("form.round-form")).to_have_count(0)
    expect(page.locator("a[data-contract]")).to_have_count(0)


@pytest.fixture
def no_js_page(browser):
    context = browser.new_context(java_script_enabled=False, has_touch=True, viewport={"width": 390, "height": 844})
    page = context.new_page()
    yield page
    context.close()


def test_a_round_by_plain_post_without_javascript(live_server, no_js_page):
    page = no_js_page
    create_game(page, live_server)
    rnd = GAME["rounds"][0]
    page.get_by_role("link", name="No Last Two").click()
    assert "contract=no-last-two" in page.url
    page.locator("input[name='penultimate'][value='0']").click()
    page.locator("input[name='last'][value='0']").click()
    for doubler, doubled in rnd["doubles"]:
        page.locator(f"input[name='doubles'][value='{doubler}-{doubled}']").click()
    with page.expect_navigation():
        page.get_by_role("button", name="Save round 1").click()
    assert page.url.endswith("#current_round")
    assert shown_running(page, 1) == EXPECTED["rounds"][0]["result"]["running"]
    expect(page.locator("#current_round")).to_contain_text("Round 2 of 28")
