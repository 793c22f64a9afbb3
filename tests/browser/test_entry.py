"""Round entry on a phone (issue 3): one tap per value, the last count filled in, domino
places in order, the doubles grid's rules and shortcuts, the server's settlement preview,
and what the scorer sees after Save. Screenshots of every contract at 390 and 320 px."""

import json
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from scorepad.services import games
from tests.browser.viewport import expect_in_viewport

EXAMPLES = Path(__file__).parent.parent / "data" / "examples"
PLAYERS = ["Anne", "Béatrice", "Cath", "Diana"]


def start(app, live_server, page: Page, doc=None, rounds=0) -> str:
    """A stored game (default: Anne declares first, Tournament Barbu), its page open."""
    doc = doc or {"players": PLAYERS, "first_declarer": 0, "preset": "tournament", "rounds": []}
    doc = {**doc, "rounds": doc["rounds"][:rounds]}
    with app.app_context():
        stored, _ = games.create_game(doc)
        token = stored.edit_token
    page.goto(f"{live_server}/g/{token}")
    return token


def choose(page: Page, contract: str):
    page.locator(f"a[data-contract='{contract}']").tap()
    form = page.locator("form.round-form")
    expect(form.locator("input[name='contract']")).to_have_value(contract)
    return form


def tap(form, name: str, value) -> None:
    form.locator(f"input[name='{name}'][value='{value}']").tap()


def checked(form, name: str):
    values = form.locator(f"input[name='{name}']:checked").evaluate_all("els => els.map(e => e.value)")
    return values[0] if len(values) == 1 else values


def no_sideways_scroll(page: Page, width: int) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= width


def test_counts_take_one_tap_each_and_the_last_is_filled_in(app, live_server, phone, screenshot_dir):
    page = phone
    start(app, live_server, page)
    form = choose(page, "no-tricks")
    note = form.locator("#tricks .sum-note")
    tap(form, "tricks-0", 4)
    expect(note).to_have_text("4 of 13 tricks: 9 still to place")
    tap(form, "tricks-1", 2)
    tap(form, "tricks-2", 1)
    # Diana's count follows from what remains: 13 − 7 = 6.
    assert checked(form, "tricks-3") == "6"
    expect(note).to_have_text("13 of 13 tricks")
    expect(form.locator("#tricks .count-row[data-seat='3'] legend")).to_contain_text("filled in from what remains")
    # Correcting a tapped count moves the filled-in one with it.
    tap(form, "tricks-0", 5)
    assert checked(form, "tricks-3") == "5"
    page.screenshot(path=str(screenshot_dir / "entry-counts-390.png"), full_page=True)

    form = choose_again(page, "no-queens")
    tap(form, "queens-1", 3)
    tap(form, "queens-3", 1)
    # All four queens are placed: the others took none.
    assert (checked(form, "queens-0"), checked(form, "queens-2")) == ("0", "0")
    expect(form.locator("#queens .sum-note")).to_have_text("4 of 4 queens")


def choose_again(page: Page, contract: str):
    page.get_by_role("link", name="Change contract").tap()
    return choose(page, contract)


def test_who_took_it_chips_sit_two_by_two(app, live_server, phone):
    page = phone
    start(app, live_server, page)
    form = choose(page, "no-last-two")
    boxes = [form.locator(f"#last .chip[data-seat='{s}']").bounding_box() for s in range(4)]
    assert boxes[0]["y"] == boxes[1]["y"] < boxes[2]["y"] == boxes[3]["y"]
    assert all(44 <= box["height"] < 60 and box["width"] >= 120 for box in boxes)  # no name on two lines


def test_domino_is_tapped_in_going_out_order_and_the_fourth_is_implied(app, live_server, phone, screenshot_dir):
    page = phone
    token = start(app, live_server, page)
    form = choose(page, "domino")
    expect(form.locator("input[name='order-3']")).to_have_count(0)
    form.locator("input[name='start_rank'][value='7']").tap()
    tap(form, "order-0", 2)
    # Cath is placed: she is not offered for the second or third place again.
    expect(form.locator(".place[data-place='1'] .chip[data-seat='2']")).to_be_hidden()
    expect(form.locator(".place[data-place='2'] .chip[data-seat='2']")).to_be_hidden()
    tap(form, "order-1", 0)
    tap(form, "order-2", 3)
    # The name between the Unicode isolates FSI and PDI, so a right-to-left name keeps its place.
    expect(form.locator(".place-implied")).to_have_text("4th out: \u2068Béatrice\u2069")
    page.screenshot(path=str(screenshot_dir / "entry-domino-390.png"), full_page=True)
    page.get_by_role("button", name="Save round 1").tap()
    expect(page.locator("#last-title")).to_contain_text("Round 1 saved")
    page.goto(f"{live_server}/g/{token}/rounds/1")
    expect(page.locator("main")).to_contain_text("4th out: Béatrice")


def test_the_doubles_grid_follows_the_rules_and_its_shortcuts(app, live_server, phone, screenshot_dir):
    page = phone
    start(app, live_server, page)
    form = choose(page, "trumps")  # positive: only Anne, the declarer, may be doubled
    why = form.locator(".grid-why")
    # aria-disabled cells still take a tap (Playwright calls them "not enabled": force it).
    form.get_by_role(
        "button", name="Béatrice doubles Cath: not possible, in a positive contract only the declarer may be doubled"
    ).tap(force=True)
    expect(why).to_contain_text("Béatrice cannot double Cath: in a positive contract only the declarer may be doubled")
    # Anne can only redouble a player who doubled her: tapping it first says so, ticks nothing.
    form.locator("input[value='0-1']").tap(force=True)
    expect(why).to_contain_text("Anne can redouble Béatrice only after Béatrice doubled Anne")
    assert checked(form, "doubles") == []
    form.get_by_role("button", name="Béatrice: maximum (every double allowed)").tap()
    assert checked(form, "doubles") == "1-0"
    form.get_by_role("button", name="Diana: maximum (every double allowed)").tap()
    form.get_by_role("button", name="Anne: maximum (every redouble)").tap()
    assert sorted(checked(form, "doubles")) == ["0-1", "0-3", "1-0", "3-0"]
    page.screenshot(path=str(screenshot_dir / "entry-grid-positive-390.png"), full_page=True)
    form.get_by_role("button", name="Clear doubles").tap()
    assert checked(form, "doubles") == []

    form = choose_again(page, "no-queens")
    form.get_by_role("button", name="Cath doubles both neighbours").tap()
    assert sorted(checked(form, "doubles")) == ["2-1", "2-3"]
    form.get_by_role("button", name="Cath: maximum (every double allowed)").tap()
    assert sorted(checked(form, "doubles")) == ["2-0", "2-1", "2-3"]
    # Un-doubling Anne takes back her redouble too.
    form.get_by_role("button", name="Anne: maximum (every redouble)").tap()
    assert "0-2" in checked(form, "doubles")
    form.locator("input[value='2-0']").tap()
    assert sorted(checked(form, "doubles")) == ["2-1", "2-3"]


def test_the_settlement_preview_comes_from_the_server(app, live_server, phone, screenshot_dir):
    # barbu-rules.md, "Doubles", worked example: Anne declares No Queens; queens 1, 0, 1, 2
    # (Anne −6, Béatrice 0, Cath −6, Diana −12); Béatrice doubles all three, Cath doubles
    # Anne, Anne redoubles Cath. Round totals −12, +24, −12, −24.
    page = phone
    start(app, live_server, page)
    form = choose(page, "no-queens")
    for seat, count in enumerate([1, 0, 1]):
        tap(form, f"queens-{seat}", count)
    form.get_by_role("button", name="Béatrice: maximum (every double allowed)").tap()
    tap(form, "doubles", "2-0")
    with page.expect_response(lambda r: r.url.endswith("/rounds/preview")) as preview:
        tap(form, "doubles", "0-2")
    assert preview.value.status == 200
    box = form.locator("#preview")
    expect(box).to_contain_text("Béatrice doubled Anne: Anne −6, Béatrice 0 → Anne pays 6 to Béatrice")
    expect(box).to_contain_text("Cath doubled Anne, who redoubled: Anne −6, Cath −6 → nothing moves")
    expect(box).to_contain_text("Diana pays 12 to Béatrice")
    totals = box.locator("tr.strong td").all_inner_texts()
    assert [int(t.replace("−", "-").replace("+", "")) for t in totals] == [-12, 24, -12, -24]
    form.locator(".preview").screenshot(path=str(screenshot_dir / "entry-preview-390.png"))


def test_after_save_the_new_totals_and_next_contracts_are_in_view(app, live_server, phone, screenshot_dir):
    page = phone
    start(app, live_server, page)
    form = choose(page, "no-king-of-hearts")
    tap(form, "king", 3)
    tap(form, "doubles", "3-0")
    page.get_by_role("button", name="Save round 1").tap()
    saved = page.locator(".last-round")
    expect(saved).to_contain_text("Round 1 saved")
    expect_in_viewport(saved)
    expect(page.locator("#last-title")).to_be_focused()
    # Diana took the K♥ (−20) and doubled Anne (0): Diana pays 20 to Anne.
    assert saved.locator("tbody tr").first.locator("td").all_inner_texts() == ["+20", "0", "0", "−40"]
    expect_in_viewport(page.locator("a[data-contract='no-tricks']"))
    page.screenshot(path=str(screenshot_dir / "entry-after-save-390.png"))


def test_the_round_page_fits_a_phone(app, live_server, phone, screenshot_dir):
    page = phone
    token = start(app, live_server, page)
    form = choose(page, "no-last-two")
    tap(form, "penultimate", 3)
    tap(form, "last", 3)
    tap(form, "doubles", "1-3")
    page.get_by_role("button", name="Save round 1").tap()
    expect(page.locator("#last-title")).to_contain_text("Round 1 saved")
    page.goto(f"{live_server}/g/{token}/rounds/1")
    table = page.locator(".result-table")
    assert table.evaluate("t => t.scrollWidth <= t.parentElement.clientWidth")
    expect(table.get_by_role("columnheader", name="Diana")).to_be_visible()
    expect(page.locator("main")).to_contain_text(
        "Béatrice doubled Diana: Béatrice 0, Diana −30 → Diana pays 30 to Béatrice"
    )
    no_sideways_scroll(page, 390)
    page.screenshot(path=str(screenshot_dir / "entry-round-page-390.png"), full_page=True)


EVERY_CONTRACT = [
    ("tournament-full", 0, "no-tricks"),
    ("tournament-full", 0, "no-queens"),
    ("tournament-full", 0, "no-last-two"),
    ("tournament-full", 0, "no-hearts"),
    ("tournament-full", 0, "no-king-of-hearts"),
    ("tournament-full", 0, "trumps"),
    ("tournament-full", 0, "domino"),
    ("brader-32-card", 3, "ravage-city"),
    ("french-classic", 5, "salade"),
]


@pytest.mark.parametrize(("example", "rounds", "contract"), EVERY_CONTRACT)
def test_every_contract_fits_390_and_320_px(app, live_server, phone, screenshot_dir, example, rounds, contract):
    page = phone
    doc = json.loads((EXAMPLES / f"{example}.json").read_text())["game"]
    start(app, live_server, page, doc, rounds)
    if page.locator("form.round-form").count() == 0:
        choose(page, contract)
    expect(page.locator("form.round-form input[name='contract']")).to_have_value(contract)
    for width in (390, 320):
        page.set_viewport_size({"width": width, "height": 844})
        no_sideways_scroll(page, width)
        page.locator("#round_form").screenshot(path=str(screenshot_dir / f"entry-{contract}-{width}.png"))


# The colours an element is seen in: its text colour, and the background of the nearest
# element (itself or an ancestor) whose background is not transparent.
SEEN_COLOURS = """el => {
  const rgb = value => value.match(/[\\d.]+/g).map(Number);
  let back = el;
  while (back && rgb(getComputedStyle(back).backgroundColor)[3] === 0) back = back.parentElement;
  return {text: rgb(getComputedStyle(el).color).slice(0, 3),
          background: back ? rgb(getComputedStyle(back).backgroundColor).slice(0, 3) : [255, 255, 255],
          visible: getComputedStyle(el).visibility === "visible"};
}"""


def luminance(rgb) -> float:
    """Relative luminance of an sRGB colour (WCAG 2.2, "relative luminance")."""
    linear = [c / 255 / 12.92 if c / 255 <= 0.04045 else ((c / 255 + 0.055) / 1.055) ** 2.4 for c in rgb]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(colours: dict) -> float:
    """WCAG contrast ratio of an element's text on its background (1 to 21)."""
    lighter, darker = sorted((luminance(colours["text"]), luminance(colours["background"])), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


def test_the_grid_in_dark_mode(app, live_server, browser, screenshot_dir):
    """A phone set to dark mode gets the dark palette, and every mark of the grid stays
    readable (WCAG AA, 4.5:1). By hand, from static/css: the ticked cells are #0b1526 on
    #6ea8ff, 7.6:1; the page's text is #e8ebef on #0f1216 (relative luminance 0.006)."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, color_scheme="dark")
    page = context.new_page()
    start(app, live_server, page)
    form = choose(page, "no-hearts")  # Anne declares: she may only redouble
    tap(form, "doubles", "1-0")
    tap(form, "doubles", "0-1")
    assert sorted(checked(form, "doubles")) == ["0-1", "1-0"]

    body = page.locator("body").evaluate(SEEN_COLOURS)
    assert luminance(body["background"]) < 0.05  # dark, not the light palette's #f6f7f9
    assert contrast(body) >= 7
    mark = {
        value: form.locator(f"input[value='{value}'] + span").evaluate(SEEN_COLOURS) for value in ("1-0", "0-1", "2-0")
    }
    # Béatrice doubled Anne (✓) and Anne redoubled her (R): both marks show, readable.
    assert mark["1-0"]["visible"] and contrast(mark["1-0"]) >= 4.5
    assert mark["0-1"]["visible"] and contrast(mark["0-1"]) >= 4.5
    # A ticked cell is filled; Cath did not double Anne: her cell keeps the page's colours, no mark.
    assert mark["1-0"]["background"] != mark["2-0"]["background"]
    assert not mark["2-0"]["visible"]
    form.locator("#doubles").screenshot(path=str(screenshot_dir / "entry-grid-dark-390.png"))

    page.set_viewport_size({"width": 320, "height": 844})
    current = page.locator("#current_round")
    assert current.evaluate("el => el.scrollWidth <= el.clientWidth")
    no_sideways_scroll(page, 320)
    current.screenshot(path=str(screenshot_dir / "entry-current-dark-320.png"))
    context.close()


# -- feedback after an action (issue 13) ------------------------------------------------------

TOURNAMENT = json.loads((EXAMPLES / "tournament-full.json").read_text())["game"]  # Élodie, Anne, Beth, Marc


def test_undo_names_the_removed_round_and_put_back_restores_it(app, live_server, phone, screenshot_dir):
    page = phone
    start(app, live_server, page, TOURNAMENT, rounds=10)
    page.on("dialog", lambda dialog: dialog.accept())  # "Delete round 10? …"
    totals = page.locator(".score-table tfoot td").all_inner_texts()
    page.get_by_role("button", name="Undo round 10").tap()
    note = page.locator("#undone")
    # Round 10 of the example: Marc declared No Queens.
    expect(note.locator(".undone-text")).to_have_text("Round 10 removed: No Queens, declarer Marc.")
    put_back = note.get_by_role("button", name="Put back round 10")
    expect(put_back).to_be_focused()
    expect_in_viewport(put_back)
    expect(page.locator("#last-title")).to_contain_text("Last round: 9")  # nothing was saved
    expect(page.locator("#round-10")).to_have_count(0)
    page.screenshot(path=str(screenshot_dir / "entry-after-undo-390.png"))
    put_back.tap()
    expect(page.locator("#last-title")).to_contain_text("Round 10 put back")
    expect(page.locator("#undone")).to_have_count(0)
    assert page.locator(".score-table tfoot td").all_inner_texts() == totals
    page.screenshot(path=str(screenshot_dir / "entry-after-put-back-390.png"))


def test_an_edit_is_confirmed_with_its_row_in_sight(app, live_server, phone, screenshot_dir):
    page = phone
    token = start(app, live_server, page, TOURNAMENT, rounds=10)
    # Round 2 (Beth declared No Hearts; hearts 3 0 5 5): Marc took the ace, not Beth. By hand:
    # raw −6 0 −10 −14; Élodie doubled Beth and Marc (×1): Beth pays 4, Marc 8; Anne doubled
    # both, Beth redoubled (×2): Beth pays 20, Marc 14. Round totals 6 34 −34 −36 instead of
    # 6 38 −50 −24: Anne −4, Beth +16, Marc −12; Élodie's total stays.
    page.goto(f"{live_server}/g/{token}/rounds/2/edit")
    page.locator("#ace .chip[data-seat='3']").tap()
    page.get_by_role("button", name="Save round 2").tap()
    box = page.locator("#changed")
    expect(box.locator("h2")).to_have_text("Round 2 changed:")
    expect(box.locator(".changes li")).to_have_text(
        ["Ace of hearts ♥A: \u2068Beth\u2069 → \u2068Marc\u2069", "Totals: Anne −4, Beth +16, Marc −12"]
    )
    expect(box.locator("h2")).to_be_focused()
    expect(page.locator("main")).not_to_contain_text("Last round: 10")
    row = page.locator("#round-2")
    expect(row).to_have_class("is-changed")
    moved = page.locator(".score-table tfoot td").evaluate_all("tds => tds.map(td => td.classList.contains('moved'))")
    assert moved == [False, True, True, True]
    # The page opens on the changed row, with the rows above it in sight: not flush with the top edge.
    top = row.evaluate("el => el.getBoundingClientRect().top")
    assert 40 <= top <= 844 / 2
    page.screenshot(path=str(screenshot_dir / "entry-after-edit-390.png"))
    box.screenshot(path=str(screenshot_dir / "entry-edit-confirmed-390.png"))


def test_saving_with_nothing_tapped_says_so_once_per_group(app, live_server, phone, screenshot_dir):
    page = phone
    start(app, live_server, page)
    form = choose(page, "no-hearts")
    page.get_by_role("button", name="Save round 1").tap()
    hearts = page.locator("#hearts .field-error")
    expect(hearts).to_have_text("Tap how many hearts each player took.")
    expect(page.locator("#ace .field-error")).to_have_text("Tap who took the ace of hearts.")
    assert page.locator("#hearts .field-error li").count() == 1
    # At the top of the group, above the first player's chips, and scrolled into view.
    first_row = page.locator("#hearts .count-row").first
    assert hearts.bounding_box()["y"] < first_row.bounding_box()["y"]
    expect_in_viewport(hearts)
    form = page.locator("form.round-form")
    form.locator("#hearts").screenshot(path=str(screenshot_dir / "entry-nothing-tapped-390.png"))
