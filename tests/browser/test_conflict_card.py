"""The card of a round not saved on a second scorer phone (issue 26, item 15): another phone
saved round 1 first; this phone's card said "You entered: Round 1" and nothing more when the
settlement preview had not come back before the save. It now says what was entered as the
server read it: contract and declarer, each part of the outcome, the points."""

import re

from playwright.sync_api import expect

from tests.browser.test_offline import start

# Anne declares round 1, No Last Two: Béatrice took the 12th trick (−10), Cath the last (−20).
ENTERED = [
    "Round 1: Anne declares No Last Two",
    "12th trick (second to last): Béatrice",
    "Last trick: Cath",
    "Points: Anne 0, Béatrice −10, Cath −20, Diana 0",
]
ISOLATES = re.compile("[\u2068\u2069]")


def test_the_card_of_a_round_saved_first_elsewhere_says_what_was_entered(app, live_server, phone, screenshot_dir):
    page = phone
    # The preview never answers: the save goes before it is back (a slow network at the table).
    page.route(re.compile(r"/rounds/preview$"), lambda route: route.abort())
    game_id, token = start(app, live_server, page)
    page.locator("a[data-contract='no-last-two']").tap()
    form = page.locator("form.round-form")
    form.locator("input[name='penultimate'][value='1']").tap()
    form.locator("input[name='last'][value='2']").tap()
    # The other phone saves round 1 first: No Tricks, 3 4 3 3.
    other = {"contract": "no-tricks", "doubles": [], "outcome": {"tricks": [3, 4, 3, 3]}}
    saved = page.request.post(
        f"{live_server}/api/v1/games/{game_id}/rounds", data=other, headers={"Authorization": f"Bearer {token}"}
    )
    assert saved.status == 201
    form.get_by_role("button", name="Save round 1").tap()
    card = page.locator("#outbox .outbox-item")
    expect(card.locator(".outbox-state")).to_have_text("Not saved: the game changed meanwhile")
    mine = card.locator(".outbox-compare > div").first
    expect(mine.locator("dt")).to_have_text("You entered")
    lines = [ISOLATES.sub("", line) for line in mine.locator("dd .outbox-line").all_inner_texts()]
    assert lines == ENTERED
    # Said once, on the card: not again above the game.
    expect(page.locator("#game_live [data-entered]")).to_have_count(0)
    card.screenshot(path=str(screenshot_dir / "conflict-card-390.png"))
