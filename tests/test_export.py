"""Export and import: the game document (JSON) download, the CSV of the sheet, importing a
game document on the home page, and the API's links. Expected values come from the
examples' ``expected`` (tests/data/examples/)."""

import csv
import io
import json
import re
from pathlib import Path

import pytest

from scorepad.extensions import db
from scorepad.models import StoredGame
from scorepad.pages.sheet import csv_cell
from scorepad.services import games, rounds

EXAMPLES = Path(__file__).parent / "data" / "examples"
NAMES = ["Zoë", "Ðorđe 🂡", "=SUM(A1)", "Beth"]


def example(name: str) -> dict:
    return json.loads((EXAMPLES / f"{name}.json").read_text())


def start(app, document: dict):
    with app.app_context():
        stored, _ = games.create_game(document)
        return stored.id, stored.edit_token, stored.view_token


def game_count(app) -> int:
    with app.app_context():
        return db.session.query(StoredGame).count()


# -- JSON ------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["tournament-full", "brader-32-card", "french-classic", "house-rules"])
def test_the_json_download_is_the_export_and_imports_back_to_the_same_game(app, client, name):
    data = example(name)
    _, edit, view = start(app, data["game"])
    response = client.get(f"/s/{view}/game.json")
    assert response.status_code == 200
    assert response.mimetype == "application/json"
    assert response.headers["Content-Disposition"].startswith("attachment")
    exported = json.loads(response.data)
    assert exported["format"] == "barbu-scorepad/game@1"
    assert [r["result"] for r in exported["rounds"]] == [r["result"] for r in data["expected"]["rounds"]]
    assert exported["standings"]["final"] == data["expected"]["standings"]["final"]
    # Round trip through the home page's import: a new game, new tokens, the same export.
    before = game_count(app)
    imported = client.post(
        "/games/import", data={"file": (io.BytesIO(response.data), "game.json")}, content_type="multipart/form-data"
    )
    assert imported.status_code == 303
    token = imported.headers["Location"].rsplit("/g/", 1)[1]
    assert token not in (edit, view)
    assert game_count(app) == before + 1
    with app.app_context():
        stored, can_edit = games.find_by_token(token)
        assert can_edit
        new_view = stored.view_token
    again = json.loads(client.get(f"/s/{new_view}/game.json").data)
    # Its history (issue 15) is the copy's own: the same import of the same rounds, at its own time.
    assert [{**h, "at": None} for h in again.pop("history")] == [{**h, "at": None} for h in exported.pop("history")]
    assert again == exported


def test_an_imported_unfinished_game_goes_on(app, client):
    data = example("tournament-full")
    partial = {**data["game"], "rounds": data["game"]["rounds"][:10]}
    response = client.post(
        "/games/import",
        data={"file": (io.BytesIO(json.dumps(partial).encode()), "g.json")},
        content_type="multipart/form-data",
        follow_redirects=True,
    )
    assert response.status_code == 200
    assert "Imported: 10 of 28 rounds." in response.get_data(as_text=True)
    edit = response.request.path.rsplit("/g/", 1)[1]  # the imported game's page, where the import led
    with app.app_context():
        stored, _can_edit = games.find_by_token(edit)
        rounds.record_round(stored, data["game"]["rounds"][10])
        view = stored.view_token
    exported = json.loads(client.get(f"/s/{view}/game.json").data)
    assert len(exported["rounds"]) == 11
    assert exported["rounds"][10]["result"] == data["expected"]["rounds"][10]["result"]


@pytest.mark.parametrize(
    "body, message",
    [
        (b"", "The file is empty."),
        (b"{not json", "This is not valid JSON (line 1, column 2"),
        (b"\xff\xfe", "The file is not UTF-8 text."),
        (json.dumps({"game": {}, "expected": {}}).encode(), "game: this file holds a game document under “game”, as"),
        (json.dumps({"players": [], "game": {}}).encode(), "game: unknown field of a game document"),
        # A club game's export (issue 16): only the club's admin link adds games to a club.
        (
            json.dumps(
                {**example("tournament-full")["game"], "club": "k1", "members": ["a", "b", None, None]}
            ).encode(),
            "club: this game was played for a club; only the club’s admin link adds games to the club",
        ),
    ],
)
def test_a_bad_file_is_refused_with_a_clear_message(app, client, body, message):
    response = client.post(
        "/games/import", data={"file": (io.BytesIO(body), "g.json")}, content_type="multipart/form-data"
    )
    assert response.status_code == 422
    assert message in response.get_data(as_text=True)
    assert game_count(app) == 0


def test_a_bad_round_is_refused_naming_its_path(app, client):
    doc = example("tournament-full")["game"]
    doc["rounds"] = json.loads(json.dumps(doc["rounds"][:4]))
    doc["rounds"][3]["outcome"]["tricks"] = [4, 2, 1, 5]  # 12 tricks, a deal has 13
    response = client.post(
        "/games/import",
        data={"file": (io.BytesIO(json.dumps(doc).encode()), "g.json")},
        content_type="multipart/form-data",
    )
    assert response.status_code == 422
    html = response.get_data(as_text=True)
    assert re.search(r'id="file-error">\s*<li>rounds\[3\]\.outcome\.tricks: ', html)
    assert game_count(app) == 0


def test_no_file_is_refused(app, client):
    response = client.post("/games/import", data={}, content_type="multipart/form-data")
    assert response.status_code == 422
    assert "Choose a game file (.json) to import." in response.get_data(as_text=True)


def test_the_home_page_offers_the_import(client):
    html = client.get("/").get_data(as_text=True)
    assert 'action="/games/import"' in html and 'enctype="multipart/form-data"' in html
    assert 'type="file"' in html


# -- CSV -------------------------------------------------------------------------------------


def read_csv(data: bytes) -> tuple[list[dict], list[dict]]:
    """The round lines and the standings lines of the sheet's CSV."""
    assert data.startswith("\ufeff".encode())  # the byte-order mark for Excel
    text = data.decode("utf-8-sig")
    rounds_part, standings_part = text.split("\r\n\r\n")
    return list(csv.DictReader(io.StringIO(rounds_part))), list(csv.DictReader(io.StringIO(standings_part)))


@pytest.mark.parametrize("name", ["tournament-full", "house-rules"])
def test_the_csv_has_every_round_and_the_standings(app, client, name):
    data = example(name)
    _, _, view = start(app, data["game"])
    response = client.get(f"/s/{view}/sheet.csv")
    assert response.status_code == 200
    assert response.mimetype == "text/csv"
    rounds, standings = read_csv(response.data)
    players = data["game"]["players"]
    assert len(rounds) == len(data["expected"]["rounds"])
    for line, res in zip(rounds, data["expected"]["rounds"], strict=True):
        assert int(line["round"]) == res["number"]
        assert line["declarer"] == players[res["declarer"]]
        assert line["played"] == ("yes" if res["result"]["played"] else "no")
        for p, player in enumerate(players):
            for part in ("raw", "doubles", "total", "running"):
                assert int(line[f"{player} {part}"]) == res["result"][part][p]
    st = data["expected"]["standings"]
    assert [int(s["final"]) for s in standings] == st["final"]
    assert [int(s["rank"]) for s in standings] == st["rank"]
    assert [s["player"] for s in standings] == players


def test_the_csv_writes_zeros_and_keeps_names_intact(app, client):
    doc = {
        "players": NAMES,
        "first_declarer": 0,
        "preset": "tournament",
        "rounds": [{"contract": "no-king-of-hearts", "doubles": [], "outcome": {"king": 1}}],
    }
    _, _, view = start(app, doc)
    rounds, standings = read_csv(client.get(f"/s/{view}/sheet.csv").data)
    line = rounds[0]
    assert line["Zoë raw"] == "0" and line["Zoë total"] == "0"
    assert line["Ðorđe 🂡 raw"] == "-20"
    assert line["declarer"] == "Zoë"
    # A name that a spreadsheet would run as a formula is written with a leading apostrophe.
    assert line["'=SUM(A1) running"] == "0"
    assert [s["player"] for s in standings] == ["Zoë", "Ðorđe 🂡", "'=SUM(A1)", "Beth"]
    assert [s["final"] for s in standings] == ["0", "-20", "0", "0"]


@pytest.mark.parametrize("hidden", ["\u200b", "\ufeff", "\u200b\ufeff", "\u2060", " ", "\u00a0", "\u200e"])
def test_a_formula_behind_characters_nobody_sees_is_not_run_either(app, client, hidden):
    """A zero-width space, a byte order mark, a word joiner, a direction mark or a space before
    "=": some spreadsheets skip them and run the rest, so the cell starts with an apostrophe."""
    name = hidden + "=HYPERLINK(A1)"
    doc = {
        "players": ["Anne", name, "Carl", "Dirk"],
        "first_declarer": 0,
        "preset": "tournament",
        "rounds": [{"contract": "no-king-of-hearts", "doubles": [], "outcome": {"king": 1}}],
    }
    with app.app_context():
        stored, game = games.create_game(doc)
        view = stored.view_token
        kept = game.players[1]  # the name as the engine keeps it
    assert kept.endswith("=HYPERLINK(A1)")
    _rounds, standings = read_csv(client.get(f"/s/{view}/sheet.csv").data)
    assert standings[1]["player"] == "'" + kept


@pytest.mark.parametrize(
    "cell, written",
    [
        ("\u200b=1+1", "'\u200b=1+1"),
        ("\ufeff@SUM(A1)", "'\ufeff@SUM(A1)"),
        ("\u200b\u200b-2", "'\u200b\u200b-2"),
        ("\tplain", "'\tplain"),  # a tab or a carriage return first, as before
        ("\u200bAnne", "\u200bAnne"),  # nothing to run after the unseen character
        ("Anne=1", "Anne=1"),
        ("", ""),
        (12, 12),
    ],
)
def test_csv_cell_sees_past_what_a_reader_does_not_see(cell, written):
    assert csv_cell(cell) == written


# -- the API's links -------------------------------------------------------------------------


def test_the_api_links_the_board_sheet_pdf_csv_and_qr(app, client):
    response = client.post(
        "/api/v1/games",
        json={"players": ["Anne", "Beth", "Cath", "Diana"], "first_declarer": 0, "preset": "tournament"},
    )
    assert response.status_code == 201
    body = response.get_json()
    view = body["view_token"]
    links = body["links"]
    assert links["board"] == f"http://localhost/b/{view}"
    assert links["sheet"] == f"http://localhost/s/{view}"
    assert links["sheet_pdf"] == f"http://localhost/s/{view}/sheet.pdf"
    assert links["csv"] == f"http://localhost/s/{view}/sheet.csv"
    assert links["qr"] == f"http://localhost/b/{view}/qr.svg"
    for key in ("board", "sheet", "csv", "qr"):
        assert client.get(links[key].removeprefix("http://localhost")).status_code == 200, key
