"""The club night's organiser and director pages (issue 14; club-format.md "Club night",
"Director"): the new-night form, the console (progress, a stale table, the leaderboard),
adjustments, closing and reopening, the seating plan's swap and the table cards. The test
client on a real database; expected values worked by hand from the rules."""

import re
from datetime import UTC, datetime, timedelta

import pytest

from scorepad.extensions import db
from scorepad.models import StoredGame
from scorepad.services import games, nights
from scorepad.services.night_state import night_games, night_state
from scorepad.tokens import derive_token

NAMES = ["Anne", "Beth", "Cath", "Diana", "Emma", "Fay", "Gwen", "Hope", "Iris", "June", "Kate", "Lena"]
# barbu-rules.md, worked example without the doubles: the declarer (seat 0) takes No Queens;
# one queen each to seats 0 and 2, two to seat 3: -6, 0, -6, -12 points by seat.
NO_QUEENS = {"contract": "no-queens", "doubles": [], "outcome": {"queens": [1, 0, 1, 2]}}
# A second round by the same declarer (seat 0 declares 7 rounds, each contract once): No Tricks.
NO_TRICKS = {"contract": "no-tricks", "doubles": [], "outcome": {"tricks": [3, 4, 2, 4]}}


def night_form(**changes) -> dict:
    form = {
        "title": "Thursday club night",
        "date": "2026-12-03",
        "timezone": "Europe/Amsterdam",
        "preset": "tournament",
        "sessions": "2",
        "ranking": "points",
        "players": "\n".join(NAMES),
    }
    form.update(changes)
    return form


def create_night(client, **changes) -> str:
    """Create a night through the form; its director token."""
    response = client.post("/events/new", data=night_form(**changes))
    assert response.status_code == 303, response.text
    match = re.fullmatch(r"/d/([A-Za-z0-9_-]+)", response.headers["Location"])
    assert match, response.headers["Location"]
    return match.group(1)


def table_game(app, director: str, session: int, table: int) -> tuple[int, str]:
    """The id and edit token of a table's game."""
    token = nights.table_token(director, session, table)
    with app.app_context():
        found = games.find_by_token(token)
        assert found is not None
        return found[0].id, token


def save_round(client, app, director: str, session: int = 1, table: int = 1, round_doc: dict = NO_QUEENS):
    game_id, token = table_game(app, director, session, table)
    return client.post(f"/api/v1/games/{game_id}/rounds", json=round_doc, headers={"Authorization": f"Bearer {token}"})


def table_row(html: str, session: int, table: int) -> str:
    """The console's row of a table (its <li>)."""
    match = re.search(rf'<li class="([^"]*)" data-table="{session}-{table}">(.*?)</li>', html, re.S)
    assert match, f"no row for table {session}-{table}"
    return match.group(1) + " " + match.group(2)


# -- creating a night ------------------------------------------------------------------------


def test_the_new_night_form_shows_today_and_every_field(client):
    html = client.get("/events/new").text
    for name in ("title", "date", "preset", "sessions", "ranking", "players"):
        assert f'name="{name}"' in html
    assert 'value="tournament"' in html  # the game form's presets
    assert "Players listed: 0" in html


def test_a_night_created_through_the_form_opens_the_console_with_its_tables(client):
    director = create_night(client)
    html = client.get(f"/d/{director}").text
    assert "Thursday club night" in html
    # 12 players: 3 tables of 4 in each of the 2 sessions, nobody sitting out.
    for session in (1, 2):
        for table in (1, 2, 3):
            row = table_row(html, session, table)
            assert "0 of 28 rounds played" in row
            assert "not started" in row
            assert f"/g/{nights.table_token(director, session, table)}" in row
        assert f'data-table="{session}-4"' not in html
    assert "Sitting out" not in html
    # The leaderboard lists everyone, unranked before any round.
    for name in NAMES:
        assert name in html


def test_the_console_links_the_nights_other_pages(client):
    director = create_night(client)
    html = client.get(f"/d/{director}").text
    for path in (f"/d/{director}/seating", f"/d/{director}/cards", "/n/", "/results"):
        assert path in html


def test_a_pasted_list_with_bullets_and_blank_lines_gives_its_names(client):
    pasted = "1. Anne\n2. Beth\n\n- Cath\n• Diana\n  Emma  \n"
    director = create_night(client, players=pasted, sessions="1")
    html = client.get(f"/d/{director}/seating").text
    for name in ("Anne", "Beth", "Cath", "Diana", "Emma"):
        assert f"<bdi>{name}</bdi>" in html
    assert "1. Anne" not in html
    # 5 players: one table of 4, one player sitting out.
    assert "Sitting out:" in html


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"players": "Anne\nBeth\nCath"}, "players"),  # fewer than 4 players
        ({"players": "Anne\nBeth\nCath\nanne\nEmma"}, "players"),  # duplicate after case-folding
        ({"players": "\n".join(f"Player {n}" for n in range(201))}, "players"),  # more than 200
        ({"title": "x" * 81}, "title"),
        ({"sessions": "7"}, "sessions"),
        ({"sessions": "two"}, "sessions"),
        ({"ranking": "luck"}, "ranking"),
        ({"date": "2026-13-45"}, "date"),
        ({"preset": "no-such-preset"}, "preset"),
    ],
)
def test_a_bad_night_is_refused_naming_the_field_and_nothing_is_stored(app, client, changes, field):
    response = client.post("/events/new", data=night_form(**changes))
    assert response.status_code == 422
    assert f'id="{field}-error"' in response.text
    with app.app_context():
        from scorepad.models import StoredEvent  # noqa: PLC0415 (the table, only to count it)

        assert db.session.query(StoredEvent).count() == 0


def test_a_night_beyond_the_limit_is_refused_keeping_what_was_typed(app, client):
    app.config["MAX_EVENTS_PER_DEVICE_BURST"] = 1
    create_night(client)
    response = client.post("/events/new", data=night_form(title="Second room"))
    assert response.status_code == 429
    assert "Retry-After" in response.headers
    assert "1 club night" in response.text
    assert 'value="Second room"' in response.text and "Lena" in response.text
    # A form with errors is answered as such (422), not counted.
    assert client.post("/events/new", data=night_form(players="Anne")).status_code == 422


def test_a_duplicate_name_is_shown_with_its_line(client):
    response = client.post("/events/new", data=night_form(players="Anne\nBeth\nCath\nanne\nEmma"))
    assert response.status_code == 422
    assert "Line 4 (anne)" in response.text


# -- the console ---------------------------------------------------------------------------


def test_a_table_without_a_save_for_ten_minutes_stands_out(app, client):
    director = create_night(client)
    assert save_round(client, app, director, 1, 1).status_code == 201
    assert save_round(client, app, director, 1, 2).status_code == 201
    # Four minutes later: both tables saved 4 minutes ago, none stands out.
    app.config["CLOCK"] = lambda: datetime.now(UTC) + timedelta(minutes=4, seconds=10)
    html = client.get(f"/d/{director}").text
    assert "saved 4 minutes ago" in table_row(html, 1, 1)
    assert "table-stale" not in html
    # Eleven minutes later table 2 saves again: table 1 alone stands out, with a word.
    app.config["CLOCK"] = lambda: datetime.now(UTC) + timedelta(minutes=11)
    with app.app_context():
        game_id, _token = table_game(app, director, 1, 2)
        stored = db.session.get(StoredGame, game_id)
        stored.updated_at = datetime.now(UTC) + timedelta(minutes=10)
        db.session.commit()
    html = client.get(f"/d/{director}").text
    first, second, third = (table_row(html, 1, n) for n in (1, 2, 3))
    assert "table-stale" in first and "No save for 10 min" in first
    assert "table-stale" not in second and "No save for 10 min" not in second
    # A table that has not started is waiting for its players, not stale.
    assert "table-stale" not in third
    assert "1 table has not saved for 10 minutes." in html


def test_the_console_refreshes_its_live_part_alone(app, client):
    director = create_night(client, players="\n".join([*NAMES, "Mona", "Nina"]))
    response = client.get(f"/d/{director}", headers={"HX-Request": "true"})
    assert response.status_code == 200
    assert response.text.lstrip().startswith('<div id="console_live"')
    # 14 players: 3 tables of 4, two sitting out each session.
    assert response.text.count("Sitting out:") == 2
    assert "Adjustments" not in response.text
    assert "HX-Request" in response.headers["Vary"]
    page = client.get(f"/d/{director}").text
    assert 'hx-trigger="every 10s"' in page


def test_the_leaderboard_ranks_the_players_of_a_started_table(app, client):
    director = create_night(client)
    assert save_round(client, app, director, 1, 1).status_code == 201
    with app.app_context():
        found = nights.find_night(director)
        assert found is not None
        seating = found[0].seating
    seats = seating[0]["tables"][0]["players"]
    html = client.get(f"/d/{director}").text
    board = html[html.index('id="leaderboard"') :]
    rows = re.findall(r"<tr>\s*<td>([^<]*)</td>\s*<th scope=\"row\"><bdi>([^<]*)</bdi>", board)
    # Seat 1 (0 points) first; seats 0 and 2 (-6 each) share rank 2; seat 3 (-12) is 4th; the
    # eight players of tables without a round follow unranked.
    assert rows[0] == ("1", NAMES[seats[1]])
    assert sorted(rows[1:3]) == sorted([("2", NAMES[seats[0]]), ("2", NAMES[seats[2]])])
    assert rows[3] == ("4", NAMES[seats[3]])
    assert [rank for rank, _ in rows[4:]] == ["–"] * 8


# -- adjustments, close and reopen ---------------------------------------------------------


def test_an_adjustment_is_added_and_listed(client):
    director = create_night(client)
    response = client.post(f"/d/{director}/adjustments", data={"player": "2", "points": "−10", "reason": "late"})
    assert response.status_code == 303
    html = client.get(f"/d/{director}").text
    listed = html[html.index('id="adjustments"') :]
    assert "<bdi>Cath</bdi>" in listed and "−10" in listed and "late" in listed


def adjustments_listed(html: str) -> str:
    """The console's list of adjustments (its section up to the form)."""
    part = html[html.index('id="adjustments"') :]
    return part[: part.index("adjustment-form")]


def test_a_mistyped_adjustment_is_removed_from_the_console_after_a_confirmation(app, client):
    director = create_night(client)
    for data in ({"player": "2", "points": "−10", "reason": "late"}, {"player": "4", "points": "50", "reason": "typo"}):
        assert client.post(f"/d/{director}/adjustments", data=data).status_code == 303
    html = client.get(f"/d/{director}").text
    with app.app_context():
        found = nights.find_night(director)
        assert found is not None
        typo = next(a for a in found[0].adjustments if a.reason == "typo")
    remove = f"/d/{director}/adjustments/{typo.id}/remove"
    # The button sits behind a "Remove" that opens it (no script needed): two taps.
    listed = adjustments_listed(html)
    assert listed.count("<summary>Remove</summary>") == 2
    assert f'action="{remove}"' in listed
    response = client.post(remove)
    assert response.status_code == 303 and response.headers["Location"].endswith("#adjustments")
    html = client.get(f"/d/{director}").text
    assert "Adjustment removed: Emma +50 (typo)." in html
    listed = adjustments_listed(html)
    assert "<bdi>Cath</bdi>" in listed and "typo" not in listed and "<bdi>Emma</bdi>" not in listed
    assert client.post(remove).status_code == 404  # removed already
    # A closed night offers no removal and refuses one (409, saying why).
    assert client.post(f"/d/{director}/close", data={"unfinished": "yes"}).status_code == 303
    assert "<summary>Remove</summary>" not in adjustments_listed(client.get(f"/d/{director}").text)
    with app.app_context():
        late = nights.find_night(director)[0].adjustments[0].id
    refused = client.post(f"/d/{director}/adjustments/{late}/remove")
    assert refused.status_code == 409
    assert '<p class="flash flash-error" role="alert">The night is closed</p>' in refused.text
    assert "<bdi>Cath</bdi>" in adjustments_listed(refused.text)


@pytest.mark.parametrize(
    ("form", "field"),
    [
        ({"player": "2", "points": "ten", "reason": "late"}, "points"),
        ({"player": "99", "points": "5", "reason": "late"}, "player"),
    ],
)
def test_a_bad_adjustment_is_refused_naming_the_field(client, form, field):
    director = create_night(client)
    response = client.post(f"/d/{director}/adjustments", data=form)
    assert response.status_code == 422
    assert f'id="{field}-error"' in response.text
    assert "No adjustments yet." in response.text


def test_a_closed_night_refuses_rounds_and_adjustments_until_reopened(app, client):
    director = create_night(client)
    # No table has finished: closing must say so (the box the console shows), else 422, still open.
    unsaid = client.post(f"/d/{director}/close")
    assert unsaid.status_code == 422
    assert "6 tables have not finished: tick the box" in unsaid.text  # 2 sessions of 3 tables
    assert "Close the night" in unsaid.text and "Every table is read-only." not in unsaid.text
    assert client.post(f"/d/{director}/close", data={"unfinished": "yes"}).status_code == 303
    html = client.get(f"/d/{director}").text
    assert "Every table is read-only." in html and "Reopen the night" in html
    assert save_round(client, app, director).status_code == 409
    refused = client.post(f"/d/{director}/adjustments", data={"player": "0", "points": "5", "reason": "bonus"})
    assert refused.status_code == 409
    assert "the night is closed" in refused.text.lower()
    # The table's scorer page says so and offers no round to enter and no undo.
    _, token = table_game(app, director, 1, 1)
    scorer = client.get(f"/g/{token}").text
    assert "The night is closed: this table can no longer be scored." in scorer
    assert 'class="btn btn-contract"' not in scorer and "Undo round" not in scorer
    assert client.post(f"/d/{director}/reopen").status_code == 303
    assert "Close the night" in client.get(f"/d/{director}").text
    assert save_round(client, app, director).status_code == 201
    scorer = client.get(f"/g/{token}").text
    assert "The night is closed" not in scorer and 'class="btn btn-contract"' in scorer


# -- tokens --------------------------------------------------------------------------------


def test_the_nights_view_token_does_not_open_the_directors_pages(app, client):
    director = create_night(client)
    with app.app_context():
        found = nights.find_night(director)
        assert found is not None
        view = night_state(found[0], nights.NightRole.DIRECTOR).stored.view_token
    assert view and view != director
    for path in ("", "/seating", "/cards"):
        assert client.get(f"/d/{view}{path}").status_code == 403
        assert client.get(f"/d/nosuchtoken{path}").status_code == 404


# -- seating -------------------------------------------------------------------------------


def seated_names(html: str, session: int) -> list[list[str]]:
    """The seating plan's tables of a session, names in seat order."""
    part = html[html.index(f'id="session-{session}"') :]
    part = part[: part.index("</section>")]
    return [
        re.findall(r"<bdi>([^<]*)</bdi>", table)
        for table in re.findall(r'<ol class="seat-list">(.*?)</ol>', part, re.S)
    ]


def test_two_players_trade_places_before_their_session_starts(app, client):
    director = create_night(client)
    before = seated_names(client.get(f"/d/{director}/seating").text, 1)
    a, b = before[0][0], before[1][2]
    # meet_again: confirmed, whatever the drawn night makes of it (the warning is tested below)
    data = {"session": "1", "first": str(NAMES.index(a)), "second": str(NAMES.index(b)), "meet_again": "yes"}
    response = client.post(f"/d/{director}/seating", data=data)
    assert response.status_code == 303
    after = seated_names(client.get(f"/d/{director}/seating").text, 1)
    assert after[0][0] == b and after[1][2] == a
    assert after[2] == before[2]


def test_a_swap_is_refused_once_its_session_has_a_round(app, client):
    director = create_night(client)
    assert save_round(client, app, director, 1, 1).status_code == 201
    before = client.get(f"/d/{director}/seating").text
    response = client.post(f"/d/{director}/seating", data={"session": "1", "first": "0", "second": "1"})
    assert response.status_code == 409
    assert 'role="alert"' in response.text
    assert seated_names(response.text, 1) == seated_names(before, 1)
    # Session 2 has not started: its seating can still change.
    data = {"session": "2", "first": "0", "second": "1", "meet_again": "yes"}
    assert client.post(f"/d/{director}/seating", data=data).status_code == 303


def test_a_round_undone_before_a_swap_cannot_be_put_back_on_the_new_players(app, client):
    # A table saves round 1 and undoes it: its session has no round, so two players may trade
    # places. The undone round was played by the old four; putting it back after the swap would
    # score it to someone who never played it, so the swap forgets it (409, nothing stored).
    director = create_night(client)
    game_id, token = table_game(app, director, 1, 1)
    assert save_round(client, app, director, 1, 1).status_code == 201
    headers = {"Authorization": f"Bearer {token}"}
    assert client.delete(f"/api/v1/games/{game_id}/rounds/1", headers=headers).status_code == 204
    seated = seated_names(client.get(f"/d/{director}/seating").text, 1)
    a, b = seated[0][0], seated[1][0]  # one player of table 1, one of table 2
    # meet_again: confirmed, whatever the drawn night makes of it (the warning is tested below)
    data = {"session": "1", "first": str(NAMES.index(a)), "second": str(NAMES.index(b)), "meet_again": "yes"}
    assert client.post(f"/d/{director}/seating", data=data).status_code == 303
    assert client.post(f"/g/{token}/rounds/put-back", data={"number": "1"}).status_code == 409
    assert client.get(f"/api/v1/games/{game_id}", headers=headers).json["rounds"] == []


# -- table cards ---------------------------------------------------------------------------


def test_the_cards_page_has_one_qr_code_per_table_with_its_scorer_url(client):
    director = create_night(client)
    html = client.get(f"/d/{director}/cards").text
    assert html.count('<article class="table-card"') == 6
    # Each card: the scorer's code and (confirmation optional, the default) the other player's.
    assert html.count("<svg") == 12
    assert html.count("The other player checks here") == 6
    for session in (1, 2):
        for table in (1, 2, 3):
            assert f"localhost/g/{nights.table_token(director, session, table)}" in html
    assert "data-print" in html


@pytest.mark.parametrize(("confirmation", "codes"), [("required", 2), ("optional", 2), ("off", 1)])
def test_each_card_has_the_confirm_pages_code_unless_confirmation_is_off(app, client, confirmation, codes):
    """The second code is the table's confirm page, /c/<the table's confirm token>, the token
    derived from the table's edit token ("confirm"); a night with confirmation off has none."""
    from scorepad.pages.console import inline_qr  # noqa: PLC0415 (the page's own QR drawing, to compare)
    from scorepad.tokens import derive_token  # noqa: PLC0415

    director = create_night(client, confirmation=confirmation)
    html = client.get(f"/d/{director}/cards").text
    cards = re.findall(r'<article class="table-card".*?</article>', html, re.S)
    assert len(cards) == 6
    assert all(card.count("<svg") == codes for card in cards)
    with app.test_request_context():
        for card, (session, table) in zip(cards, [(s, t) for s in (1, 2) for t in (1, 2, 3)], strict=True):
            confirm_token = derive_token(nights.table_token(director, session, table), "confirm")
            confirm_code = str(inline_qr(f"http://localhost/c/{confirm_token}"))
            assert (confirm_code in card) is (codes == 2)
            assert ("The other player checks here" in card) is (codes == 2)


def test_one_sessions_cards_print_alone(client):
    director = create_night(client)
    html = client.get(f"/d/{director}/cards?session=2").text
    assert html.count('<article class="table-card"') == 3
    for table in (1, 2, 3):
        assert f"/g/{nights.table_token(director, 2, table)}" in html
        assert f"/g/{nights.table_token(director, 1, table)}" not in html
    assert client.get(f"/d/{director}/cards?session=3").status_code == 404


def test_a_tables_scorer_page_says_which_table_and_session(app, client):
    director = create_night(client)
    _game_id, token = table_game(app, director, 2, 3)
    html = client.get(f"/g/{token}").text
    assert '<p class="night-table"><strong>Table 3 · session 2</strong></p>' in html
    assert "<h1><bdi>Thursday club night</bdi></h1>" in html


@pytest.mark.parametrize(
    "data",
    [
        {"session": "1", "first": "3", "second": "3"},  # the same player
        {"session": "9", "first": "0", "second": "1"},  # no such session
        {"session": "1", "first": "0", "second": "99"},  # no such player
        {"session": "²", "first": "0", "second": "1"},  # not a number
        {"session": "1", "first": "-1", "second": "1"},
    ],
)
def test_a_swap_that_makes_no_sense_is_refused_with_a_message(client, data):
    director = create_night(client)
    before = client.get(f"/d/{director}/seating").text
    response = client.post(f"/d/{director}/seating", data=data)
    assert response.status_code == 422
    assert '<ul class="field-error" role="alert">' in response.text
    assert seated_names(response.text, 1) == seated_names(before, 1)


@pytest.mark.parametrize("points", ["99999999999", "1e3", "", "²"])
def test_hostile_adjustment_points_are_refused_naming_the_field(client, points):
    director = create_night(client)
    response = client.post(f"/d/{director}/adjustments", data={"player": "0", "points": points, "reason": "x"})
    assert response.status_code == 422
    assert 'id="points-error"' in response.text


# -- confirmation (issue 15) -------------------------------------------------------------------


def confirm_round(client, app, director: str, session: int, table: int, number: int):
    """The table's other player confirms round ``number`` through the API (its confirm token)."""
    game_id, token = table_game(app, director, session, table)
    confirm_token = derive_token(token, "confirm")
    url = f"/api/v1/games/{game_id}/rounds/{number}/confirm"
    return client.post(url, headers={"Authorization": f"Bearer {confirm_token}"})


def stored_confirmations(app, director: str) -> set[str]:
    """The night's confirmation and every one of its tables' games'."""
    with app.app_context():
        stored = nights.find_night(director)[0]
        return {stored.confirmation} | {g.confirmation for g in night_games(stored).values()}


def test_the_new_night_form_offers_the_confirmation_optional_by_default(client):
    html = client.get("/events/new").text
    for value in ("off", "optional", "required"):
        assert re.search(rf'<input[^>]*name="confirmation"[^>]*value="{value}"', html)
    assert re.search(r'<input checked[^>]*value="optional"|<input[^>]*value="optional"[^>]*checked', html)
    assert "Every round must be checked before the night can close" in html


@pytest.mark.parametrize("confirmation", ["off", "optional", "required"])
def test_a_night_and_its_tables_take_the_confirmation_chosen_on_the_form(app, client, confirmation):
    director = create_night(client, confirmation=confirmation)
    assert stored_confirmations(app, director) == {confirmation}


def test_a_night_form_without_the_choice_is_optional(app, client):
    form = night_form()
    assert "confirmation" not in form
    assert stored_confirmations(app, create_night(client)) == {"optional"}


def test_a_confirmation_the_form_does_not_offer_is_refused_next_to_it(client):
    response = client.post("/events/new", data=night_form(confirmation="always"))
    assert response.status_code == 422
    assert 'id="confirmation-error"' in response.text


def test_the_console_of_a_required_night_lists_the_rounds_not_confirmed(app, client):
    """Session 1 table 1 saves 2 rounds (the second confirmed), session 2 table 3 one: the
    console names table 1's round 1 and table 3's round 1, each with its scorer's link."""
    director = create_night(client, confirmation="required")
    assert client.get(f"/d/{director}").text.count("Every round is confirmed.") == 1
    for session, table, round_doc in ((1, 1, NO_QUEENS), (1, 1, NO_TRICKS), (2, 3, NO_QUEENS)):
        assert save_round(client, app, director, session, table, round_doc).status_code == 201
    assert confirm_round(client, app, director, 1, 1, 2).status_code == 200
    html = client.get(f"/d/{director}").text
    listed = re.findall(r'<li data-unconfirmed="(\d)-(\d)">(.*?)</li>', html, re.S)
    assert [(s, t) for s, t, _ in listed] == [("1", "1"), ("2", "3")]
    first, second = (re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", item)).strip() for _, _, item in listed)
    assert first == "Session 1, table 1: Round 1 not confirmed Scorer’s page"
    assert second == "Session 2, table 3: Round 1 not confirmed Scorer’s page"
    assert f'href="/g/{nights.table_token(director, 2, 3)}"' in listed[1][2]
    assert "Round 1 not confirmed" in table_row(html, 1, 1)
    assert "not confirmed" not in table_row(html, 1, 2)
    assert "2 rounds are not confirmed yet: the night cannot close until they are." in html
    # The leaderboard marks the players of both tables provisional (the seating is drawn: a
    # player may sit at both), and no one else.
    with app.app_context():
        seating = nights.find_night(director)[0].seating
    expected = set(seating[0]["tables"][0]["players"]) | set(seating[1]["tables"][2]["players"])
    names = re.findall(r'<th scope="row"><bdi>([^<]*)</bdi> <span class="provisional"', html)
    assert sorted(names) == sorted(NAMES[p] for p in expected)


def test_a_required_night_refuses_to_close_naming_the_rounds_until_they_are_confirmed(app, client):
    director = create_night(client, confirmation="required")
    for session, table, round_doc in ((1, 2, NO_QUEENS), (1, 2, NO_TRICKS), (2, 1, NO_QUEENS)):
        assert save_round(client, app, director, session, table, round_doc).status_code == 201
    refused = client.post(f"/d/{director}/close", data={"unfinished": "yes"})
    assert refused.status_code == 409
    assert "Rounds are not confirmed: session 1 table 2 rounds 1, 2; session 2 table 1 round 1" in refused.text
    assert "Every table is read-only." not in client.get(f"/d/{director}").text
    german = client.post(f"/d/{director}/close", data={"unfinished": "yes"}, headers={"Accept-Language": "de"})
    assert german.status_code == 409
    assert "Nicht bestätigte Runden: Durchgang 1 Tisch 2 Runden 1, 2; Durchgang 2 Tisch 1 Runde 1" in german.text
    for session, table, number in ((1, 2, 1), (1, 2, 2), (2, 1, 1)):
        assert confirm_round(client, app, director, session, table, number).status_code == 200
    html = client.get(f"/d/{director}").text
    assert "Every round is confirmed." in html and 'class="provisional"' not in html
    assert client.post(f"/d/{director}/close", data={"unfinished": "yes"}).status_code == 303
    assert "Every table is read-only." in client.get(f"/d/{director}").text


def test_the_console_tells_a_disputed_round_by_its_note(app, client):
    """Session 1 table 2 saves two rounds; the other player disputes round 2 with a note: the
    console lists both rounds as not confirmed and round 2's note under them."""
    director = create_night(client, confirmation="required")
    for round_doc in (NO_QUEENS, NO_TRICKS):
        assert save_round(client, app, director, 1, 2, round_doc).status_code == 201
    game_id, token = table_game(app, director, 1, 2)
    headers = {"Authorization": f"Bearer {derive_token(token, 'confirm')}"}
    note = {"note": "Cath had the last trick"}
    assert client.post(f"/api/v1/games/{game_id}/rounds/2/dispute", json=note, headers=headers).status_code == 200
    html = client.get(f"/d/{director}").text
    item = re.search(r'<li data-unconfirmed="1-2">(.*?)</li>', html, re.S).group(1)
    words = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", item)).strip()
    assert (
        words
        == "Session 1, table 2: Rounds 1, 2 not confirmed Scorer’s page ⚠ Round 2 disputed: “Cath had the last trick”"
    )


@pytest.mark.parametrize("confirmation", ["off", "optional"])
def test_an_off_or_optional_night_closes_with_rounds_nobody_confirmed(app, client, confirmation):
    director = create_night(client, confirmation=confirmation)
    assert save_round(client, app, director, 1, 1).status_code == 201
    html = client.get(f"/d/{director}").text
    assert 'id="unconfirmed"' not in html and "not confirmed" not in html
    assert client.post(f"/d/{director}/close", data={"unfinished": "yes"}).status_code == 303


@pytest.mark.parametrize("confirmation", ["off", "optional", "required"])
def test_the_new_game_form_starts_a_game_with_the_confirmation_chosen(app, client, confirmation):
    form = {"title": "", "first_declarer": "0", "preset": "tournament", "confirmation": confirmation}
    form.update({f"players-{seat}": name for seat, name in enumerate(NAMES[:4])})
    response = client.post("/games/new", data=form)
    assert response.status_code == 303
    token = response.headers["Location"].rsplit("/", 1)[1]
    with app.app_context():
        assert games.find_by_token(token)[0].confirmation == confirmation


def test_the_new_game_form_offers_the_confirmation_among_more_options(client):
    html = client.get("/games/new").text
    options = re.search(r'<details class="more-options">(.*?)</details>', html, re.S)
    assert options and "More options" in options.group(1)
    for value in ("off", "optional", "required"):
        assert f'value="{value}"' in options.group(1)
    refused = client.post(
        "/games/new",
        data={"first_declarer": "0", "preset": "tournament", "confirmation": "always"}
        | {f"players-{seat}": name for seat, name in enumerate(NAMES[:4])},
    )
    assert refused.status_code == 422
    assert '<details class="more-options" open>' in refused.text and 'id="confirmation-error"' in refused.text


# -- languages -----------------------------------------------------------------------------


def assert_no_english_left(client, lang: str, pages: list[tuple[str, str, dict, int]]) -> None:
    """Each of ``pages`` (url, method, form data, status expected) answers in ``lang`` with no English left."""
    from tests.test_translations import english_left, english_patterns, visible  # noqa: PLC0415 (the check itself)

    headers = {"Accept-Language": f"{lang},en;q=0.5"}
    patterns = english_patterns(lang)
    for url, method, data, status in pages:
        response = client.open(url, method=method, data=data, headers=headers)
        assert response.status_code == status, url
        html = response.get_data(as_text=True)
        assert visible(html).lang == lang, url
        assert english_left(html, lang, patterns) == [], url


@pytest.mark.parametrize("lang", ["de", "nl", "fr"])
def test_the_directors_pages_speak_the_language_without_english_left(app, client, lang):
    director = create_night(client, players="\n".join([*NAMES, "Mona"]))  # one sits out each session
    assert save_round(client, app, director).status_code == 201
    client.post(f"/d/{director}/adjustments", data={"player": "2", "points": "-10", "reason": "late"})
    client.post(f"/d/{director}/close", data={"unfinished": "yes"})
    client.get(f"/d/{director}")  # shows (and so drops) the English flashes of the steps above
    pages = [
        ("/events/new", "GET", {}, 200),
        ("/events/new", "POST", night_form(players="Anne\nanne"), 422),
        (f"/d/{director}", "GET", {}, 200),
        (f"/d/{director}/adjustments", "POST", {"player": "0", "points": "5", "reason": "bonus"}, 409),
        (f"/d/{director}/adjustments", "POST", {"player": "0", "points": "x", "reason": "bonus"}, 422),
        (f"/d/{director}/seating", "GET", {}, 200),
        (f"/d/{director}/seating", "POST", {"session": "1", "first": "0", "second": "1"}, 409),
        (f"/d/{director}/cards", "GET", {}, 200),
        (f"/g/{nights.table_token(director, 1, 1)}", "GET", {}, 200),
    ]
    assert_no_english_left(client, lang, pages)


@pytest.mark.parametrize("lang", ["de", "nl", "fr"])
def test_a_required_nights_pages_speak_the_language_without_english_left(app, client, lang):
    director = create_night(client, confirmation="required")
    assert save_round(client, app, director).status_code == 201
    client.get(f"/d/{director}")  # shows (and so drops) the English flash of the creation
    pages = [
        (f"/d/{director}", "GET", {}, 200),
        (f"/d/{director}/close", "POST", {"unfinished": "yes"}, 409),
        (f"/d/{director}/cards", "GET", {}, 200),
        ("/games/new", "GET", {}, 200),
    ]
    assert_no_english_left(client, lang, pages)


def test_the_home_page_lists_the_nights_this_device_directs(app, client):
    # The console's link carries the director token: a closed tab must not lose the night.
    assert 'id="nights"' not in client.get("/").text
    director = create_night(client, title="Friday at the club")
    client.get(f"/d/{director}")  # the organiser lands on the console (the form's 303)
    home = client.get("/").text
    assert 'id="nights"' in home and "Friday at the club" in home
    assert f'href="/d/{director}"' in home
    assert "12 players" in home
    # Another device (a fresh cookie) does not see it.
    assert "Friday at the club" not in app.test_client().get("/").text


def test_a_swap_that_seats_together_players_who_met_asks_first(client):
    # Fixed seating, 8 players: session 1 Anne Beth Cath Diana | Emma Fay Gwen Hope, session 2
    # Anne Emma Beth Fay | Cath Gwen Diana Hope. Beth and Gwen trading places in session 2 seat
    # Beth with Cath and Diana and Gwen with Emma and Fay: all four pairs sat together in session
    # 1. Diana and Emma trading in session 1 seat Emma with Anne and Beth, and Diana with Gwen and
    # Hope: all four share a table in session 2.
    document = {
        "format": "barbu-scorepad/event@1",
        "preset": "tournament",
        "sessions": 2,
        "players": NAMES[:8],
        "seating": [[[0, 1, 2, 3], [4, 5, 6, 7]], [[0, 4, 1, 5], [2, 6, 3, 7]]],
    }
    director = client.post("/api/v1/events", json=document).get_json()["director_token"]
    url = f"/d/{director}/seating"
    before = seated_names(client.get(url).text, 2)
    asked = client.post(url, data={"session": "2", "first": "1", "second": "6"})
    assert asked.status_code == 422
    warning = asked.text[asked.text.index('class="swap-meetings"') :]
    warning = warning[: warning.index("</div>")]
    assert re.findall(r"<li>(.*?)</li>", warning) == [
        "<bdi>Beth</bdi> and <bdi>Cath</bdi> met in session 1.",
        "<bdi>Beth</bdi> and <bdi>Diana</bdi> met in session 1.",
        "<bdi>Emma</bdi> and <bdi>Gwen</bdi> met in session 1.",
        "<bdi>Fay</bdi> and <bdi>Gwen</bdi> met in session 1.",
    ]
    assert 'name="meet_again" value="yes"' in asked.text
    assert seated_names(asked.text, 2) == before  # nothing swapped yet
    later = client.post(url, data={"session": "1", "first": "3", "second": "4"}).text
    assert "<bdi>Anne</bdi> and <bdi>Emma</bdi> meet in session 2 too." in later
    confirmed = client.post(url, data={"session": "2", "first": "1", "second": "6", "meet_again": "yes"})
    assert confirmed.status_code == 303
    assert seated_names(client.get(url).text, 2) == [["Anne", "Emma", "Gwen", "Fay"], ["Cath", "Beth", "Diana", "Hope"]]
