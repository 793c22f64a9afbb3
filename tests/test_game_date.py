"""The date on the sheet is the players' date (issue 11, part 4; club-format.md "Game
document additions"): a game started at 19:30 in New York on 3 December 2026, which is
00:30 on the 4th in UTC, is dated 3 December on the sheet, in the PDF, the CSV, the JSON
export, the download names and the home page — whether the date came from the API, the
new-game form's hidden fields, or the server's default in the game's time zone."""

import csv
import io
import json
import re
import subprocess
from datetime import UTC, datetime

import pytest

from scorepad.extensions import db
from scorepad.models import StoredGame
from scorepad.services import games, rounds

PLAYERS = ["Anne", "Beth", "Cath", "Diana"]
GAME = {"players": PLAYERS, "first_declarer": 0, "preset": "tournament"}
FIRST_ROUND = {"contract": "no-king-of-hearts", "doubles": [], "outcome": {"king": 1}}
# 19:30 on 3 December 2026 in New York (EST, UTC−5): 00:30 on the 4th in UTC.
EVENING_IN_NEW_YORK = datetime(2026, 12, 4, 0, 30, tzinfo=UTC)


@pytest.fixture
def evening(app):
    """The app's clock stands at 19:30 in New York on 3 December 2026."""
    app.config["CLOCK"] = lambda: EVENING_IN_NEW_YORK
    return app


def game_count(app) -> int:
    with app.app_context():
        return db.session.query(StoredGame).count()


def stored_by(app, token: str) -> tuple[str, str, str, str | None]:
    """(edit token, view token, date, time zone) of the game with this token."""
    with app.app_context():
        stored, _ = games.find_by_token(token)
        return stored.edit_token, stored.view_token, stored.date.isoformat(), stored.timezone


def api_game(client, **fields) -> dict:
    response = client.post("/api/v1/games", json={**GAME, "rounds": [FIRST_ROUND], **fields})
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def form_game(client, **fields) -> str:
    """Start a game with the new-game form; its edit token."""
    data = {f"players-{i}": name for i, name in enumerate(PLAYERS)}
    data.update(first_declarer="0", preset="tournament", **fields)
    response = client.post("/games/new", data=data)
    assert response.status_code == 303, response.get_data(as_text=True)
    return response.headers["Location"].rsplit("/g/", 1)[1]


def assert_dated_everywhere(client, edit: str, view: str, day: str, long: str, medium: str) -> None:
    """The game is dated ``day`` (YYYY-MM-DD) on the sheet (the long date ``long``), in the
    CSV, the JSON export and their file names, and on the home page (``medium``)."""
    sheet = client.get(f"/s/{view}").get_data(as_text=True)
    assert f'<time datetime="{day}">{long}</time>' in sheet
    response = client.get(f"/s/{view}/sheet.csv")
    assert f'filename="Anne Beth Cath Diana {day}.csv"' in response.headers["Content-Disposition"]
    rounds_part, standings_part = response.data.decode("utf-8-sig").split("\r\n\r\n")
    assert [line["date"] for line in csv.DictReader(io.StringIO(rounds_part))] == [day]
    assert [line["date"] for line in csv.DictReader(io.StringIO(standings_part))] == [day] * 4
    response = client.get(f"/s/{view}/game.json")
    assert f'filename="Anne Beth Cath Diana {day}.json"' in response.headers["Content-Disposition"]
    assert json.loads(response.data)["date"] == day
    with client.session_transaction() as session:
        session["recent"] = [edit]
    assert f"Game of {medium}" in client.get("/").get_data(as_text=True)


# -- where the date comes from -----------------------------------------------------------------


def test_the_api_takes_the_phones_date_and_time_zone(evening, client):
    body = api_game(client, date="2026-12-03", timezone="America/New_York")
    assert (body["game"]["date"], body["game"]["timezone"]) == ("2026-12-03", "America/New_York")
    assert stored_by(evening, body["edit_token"])[2:] == ("2026-12-03", "America/New_York")
    assert_dated_everywhere(
        client, body["edit_token"], body["view_token"], "2026-12-03", "December 3, 2026", "Dec 3, 2026"
    )
    exported = client.get(f"/api/v1/games/{body['id']}", headers={"Authorization": f"Bearer {body['view_token']}"})
    assert (exported.get_json()["date"], exported.get_json()["timezone"]) == ("2026-12-03", "America/New_York")


def test_the_form_takes_the_date_and_zone_of_its_hidden_fields(evening, client):
    edit = form_game(client, date="2026-12-03", timezone="America/New_York")
    edit, view, day, zone = stored_by(evening, edit)
    assert (day, zone) == ("2026-12-03", "America/New_York")
    with evening.app_context():
        stored, _ = games.find_by_token(edit)
        rounds.record_round(stored, FIRST_ROUND)
    assert_dated_everywhere(client, edit, view, "2026-12-03", "December 3, 2026", "Dec 3, 2026")


def test_without_a_date_the_game_is_dated_today_in_its_time_zone(evening, client):
    body = api_game(client, timezone="America/New_York")
    assert body["game"]["date"] == "2026-12-03"
    assert_dated_everywhere(
        client, body["edit_token"], body["view_token"], "2026-12-03", "December 3, 2026", "Dec 3, 2026"
    )


def test_without_a_date_or_a_zone_the_game_is_dated_today_in_utc(evening, client):
    assert api_game(client)["game"]["date"] == "2026-12-04"
    assert "timezone" not in api_game(client)["game"]
    # The form without JavaScript: the hidden fields stay empty.
    assert stored_by(evening, form_game(client, date="", timezone=""))[2:] == ("2026-12-04", None)


def test_the_form_ignores_a_time_zone_the_server_does_not_know(evening, client):
    assert stored_by(evening, form_game(client, timezone="Etc/Unknown"))[2:] == ("2026-12-04", None)
    assert stored_by(evening, form_game(client, date="2026-12-03", timezone="Mars/Olympus"))[2:] == ("2026-12-03", None)


def test_the_sheet_writes_the_date_in_the_pages_language(evening, client):
    body = api_game(client, date="2026-12-03", timezone="America/New_York")
    view = body["view_token"]
    for language, long in [("de", "3. Dezember 2026"), ("nl", "3 december 2026"), ("fr", "3 décembre 2026")]:
        sheet = client.get(f"/s/{view}", headers={"Accept-Language": language}).get_data(as_text=True)
        assert f'<time datetime="2026-12-03">{long}</time>' in sheet, language


def test_a_date_in_the_print_options_still_replaces_the_games_on_paper(evening, client):
    view = api_game(client, date="2026-12-03")["view_token"]
    assert '<time datetime="2026-11-30">' in client.get(f"/s/{view}?date=2026-11-30").get_data(as_text=True)
    # The file names keep the game's own date.
    response = client.get(f"/s/{view}/sheet.csv?date=2026-11-30")
    assert "2026-12-03.csv" in response.headers["Content-Disposition"]


@pytest.mark.pdf
def test_the_pdf_is_dated_and_named_with_the_players_date(evening, client, tmp_path):
    view = api_game(client, date="2026-12-03", timezone="America/New_York")["view_token"]
    response = client.get(f"/s/{view}/sheet.pdf")
    assert response.status_code == 200
    assert 'filename="Anne Beth Cath Diana 2026-12-03.pdf"' in response.headers["Content-Disposition"]
    path = tmp_path / "sheet.pdf"
    path.write_bytes(response.data)
    body = subprocess.run(["pdftotext", str(path), "-"], capture_output=True, text=True, check=True).stdout
    assert "December 3, 2026" in body and "December 4" not in body


# -- refusals ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "field, value",
    [
        ("date", "2026-13-01"),
        ("date", "2026-02-30"),
        ("date", "2026-2-3"),
        ("date", 20261203),
        ("date", "20261203"),
        ("date", ""),
        ("date", ["2026-12-03"]),
        ("timezone", "Mars/Olympus"),
        ("timezone", "../../etc/passwd"),
        ("timezone", "/etc/localtime"),
        ("timezone", ""),
        ("timezone", ["America/New_York"]),
        ("timezone", {"name": "UTC"}),
        ("timezone", -5),
    ],
)
def test_the_api_refuses_a_bad_date_or_zone_naming_the_field(evening, client, field, value):
    response = client.post("/api/v1/games", json={**GAME, field: value})
    assert response.status_code == 422
    assert response.get_json()["path"] == field
    assert game_count(evening) == 0


@pytest.mark.parametrize("value", ["2026-13-01", "2026-2-3", "20261203", "3.12.2026"])
def test_the_form_refuses_a_date_that_is_not_one(evening, client, value):
    data = {f"players-{i}": name for i, name in enumerate(PLAYERS)}
    response = client.post("/games/new", data={**data, "first_declarer": "0", "preset": "tournament", "date": value})
    assert response.status_code == 422
    html = response.get_data(as_text=True)
    assert re.search(r"write the date as YYYY-MM-DD|is not a day of the calendar", html)
    assert game_count(evening) == 0


# -- import and export -------------------------------------------------------------------------


def import_file(client, document: dict) -> str:
    """Import ``document`` on the home page; the new game's edit token."""
    response = client.post(
        "/games/import",
        data={"file": (io.BytesIO(json.dumps(document).encode()), "game.json")},
        content_type="multipart/form-data",
    )
    assert response.status_code == 303, response.get_data(as_text=True)
    return response.headers["Location"].rsplit("/g/", 1)[1]


def test_an_imported_game_keeps_its_date_and_zone(evening, client):
    edit = import_file(client, {**GAME, "rounds": [FIRST_ROUND], "date": "2025-06-01", "timezone": "Asia/Tokyo"})
    edit, view, day, zone = stored_by(evening, edit)
    assert (day, zone) == ("2025-06-01", "Asia/Tokyo")
    assert_dated_everywhere(client, edit, view, "2025-06-01", "June 1, 2025", "Jun 1, 2025")


def test_the_export_imports_back_with_the_same_date_and_zone(evening, client):
    view = api_game(client, date="2026-12-03", timezone="America/New_York")["view_token"]
    exported = json.loads(client.get(f"/s/{view}/game.json").data)
    evening.config["CLOCK"] = lambda: datetime(2027, 3, 1, 12, 0, tzinfo=UTC)  # imported months later
    new_view = stored_by(evening, import_file(client, exported))[1]
    # The same game; its history (issue 15) is the copy's own: the same import, months later.
    again = json.loads(client.get(f"/s/{new_view}/game.json").data)
    assert [h["at"] for h in again.pop("history")] == ["2027-03-01T12:00:00Z"]
    exported.pop("history")
    assert again == exported


def test_an_old_export_without_a_date_is_dated_on_import(evening, client):
    """A game@1 document from before dates were kept: today, as for any document without one."""
    assert stored_by(evening, import_file(client, {**GAME, "rounds": [FIRST_ROUND]}))[2:] == ("2026-12-04", None)
