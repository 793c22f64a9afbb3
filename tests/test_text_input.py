"""Text that should never be stored, at every door (issue 11, section 1): the API answers 422
with the field's path, the forms show the refusal next to the field, download names are safe
whatever a game holds, and a game stored before these rules still opens and exports."""

import html as html_lib
import io
import json
import re
import subprocess
from datetime import UTC, date, datetime

import pytest

from scorepad.extensions import db
from scorepad.models import StoredGame, StoredPreset, StoredRound
from scorepad.scoring import BUILTIN, preset_to_dict
from scorepad.services import presets
from scorepad.tokens import new_token
from scorepad.web.downloads import safe_file_name
from tests.test_presets import editor_data
from tests.test_tokens_at_rest import token_columns

PLAYERS = ["Anne", "Beth", "Cath", "Diana"]
LINE_BREAK = "the text contains a line break; keep it on one line"
NO_TRICKS = [{"id": "no-tricks", "per_trick": -2}]
ROUND = {"contract": "no-king-of-hearts", "doubles": [], "outcome": {"king": 2}}
#: A header value gunicorn refuses (any control character) or Werkzeug refuses (a line break).
HEADER_CONTROLS = re.compile(r"[\x00-\x1f\x7f]")


def document(**fields):
    return {"players": list(PLAYERS), "first_declarer": 0, "preset": "tournament", **fields}


def seat(index, name):
    players = list(PLAYERS)
    players[index] = name
    return players


def count(app, model) -> int:
    with app.app_context():
        return db.session.query(model).count()


def error_next_to(html: str, field_id: str) -> str:
    """The message list rendered after the field ``field_id`` (either form's markup)."""
    match = re.search(rf'<ul class="field-error[^"]*" id="{re.escape(field_id)}-error"[^>]*>(.*?)</ul>', html, re.S)
    assert match, f"no message next to {field_id}"
    return html_lib.unescape(re.sub(r"<[^>]+>", " ", match.group(1))).strip()


# -- the API: 422 with the path ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("fields", "path", "error"),
    [
        ({"title": "Thursday\nTable 2"}, "title", LINE_BREAK),
        ({"players": seat(1, "Anne\nMarie")}, "players[1]", LINE_BREAK),
        ({"title": "Thursday\x1bTable 2"}, "title", "the text contains an invisible control character (U+001B)"),
        ({"players": seat(2, "Ca\x07th")}, "players[2]", "the text contains an invisible control character (U+0007)"),
        ({"players": seat(3, "Di\tana")}, "players[3]", "the text contains an invisible control character (U+0009)"),
        ({"title": "Thursday\rTable 2"}, "title", LINE_BREAK),
        ({"title": "Thursday\u2028Table 2"}, "title", LINE_BREAK),
        (
            {"players": seat(0, "A\ud800nne")},
            "players[0]",
            "the text contains a broken character (U+D800) that cannot be stored",
        ),
        ({"players": seat(0, "\u200b")}, "players[0]", "the name has no visible characters"),
        (
            {"players": ["Anne", "Beth", "Anne\u200b", "Diana"]},
            "players[2]",
            "Anne\u200b is already playing; give each player a different name",
        ),
        (
            {"preset": {**preset_to_dict(BUILTIN["tournament"]), "name": "House\nrules"}},
            "preset.name",
            LINE_BREAK,
        ),
    ],
)
def test_the_api_refuses_bad_text_with_its_path(app, client, fields, path, error):
    response = client.post("/api/v1/games", json=document(**fields))
    assert response.status_code == 422
    assert response.json == {"error": error, "path": path}
    assert count(app, StoredGame) == 0


def test_a_lone_surrogate_escaped_in_the_raw_json_is_refused(app, client):
    body = b'{"players": ["A\\ud800nne", "Beth", "Cath", "Diana"], "first_declarer": 0, "preset": "tournament"}'
    response = client.post("/api/v1/games", data=body, content_type="application/json")
    assert response.status_code == 422
    assert response.json["path"] == "players[0]"


@pytest.mark.parametrize(
    ("body", "path", "fragment"),
    [
        ({"name": "House\nrules", "contracts": NO_TRICKS}, "name", "line break"),
        ({"name": "\ufeff", "contracts": NO_TRICKS}, "name", "no visible characters"),
        ({"name": "House", "contracts": NO_TRICKS, "notes": "Aces\x1b high"}, "notes", "(U+001B)"),
        (
            {"name": "House", "contracts": NO_TRICKS, "default_players": ["Anne", "B", "ANNE\u200d", "D"]},
            "default_players[2]",
            "already playing",
        ),
    ],
)
def test_the_preset_api_refuses_bad_text_with_its_path(app, client, body, path, fragment):
    response = client.post("/api/v1/presets", json=body)
    assert response.status_code == 422
    assert response.json["path"] == path
    assert fragment in response.json["error"]
    assert count(app, StoredPreset) == 0


def test_notes_keep_their_line_breaks(app, client):
    response = client.post(
        "/api/v1/presets", json={"name": "House", "contracts": NO_TRICKS, "notes": "Aces high.\r\nNo talk."}
    )
    assert response.status_code == 201
    assert response.json["notes"] == "Aces high.\nNo talk."


# -- NUL, whatever the body's framing ---------------------------------------------------------------


def chunked(client, url, body: bytes, content_type: str):
    """POST ``body`` without a Content-Length, as a chunked request reaches the app from
    gunicorn or Werkzeug's server (which set ``wsgi.input_terminated``)."""
    return client.post(
        url,
        input_stream=io.BytesIO(body),
        content_type=content_type,
        headers={"Transfer-Encoding": "chunked"},
        environ_overrides={"wsgi.input_terminated": True},
    )


def test_a_nul_in_a_chunked_json_body_is_refused(app, client):
    body = json.dumps(document(players=seat(0, "An\x00ne"))).encode()
    response = chunked(client, "/api/v1/games", body, "application/json")
    assert response.status_code == 422
    assert "NUL" in response.json["error"]
    assert count(app, StoredGame) == 0


def test_a_nul_in_a_chunked_form_is_refused(app, client):
    body = b"title=Thursday%00&players-0=Anne&players-1=Beth&players-2=Cath&players-3=Diana&first_declarer=0"
    response = chunked(client, "/games/new", body, "application/x-www-form-urlencoded")
    assert response.status_code == 422
    assert count(app, StoredGame) == 0


def test_a_nul_in_a_repeated_field_is_refused(app, client):
    response = client.post("/games/new", data=b"title=x&title=y%00", content_type="application/x-www-form-urlencoded")
    assert response.status_code == 422
    assert count(app, StoredGame) == 0


def test_a_chunked_body_without_nul_still_reaches_the_view(app, client):
    response = chunked(client, "/api/v1/games", json.dumps(document()).encode(), "application/json")
    assert response.status_code == 201


# -- the HTML forms ---------------------------------------------------------------------------------


def new_game_form(**overrides):
    form = {"title": "", "first_declarer": "0", "preset": "tournament"}
    form.update({f"players-{i}": name for i, name in enumerate(PLAYERS)})
    form.update(overrides)
    return form


@pytest.mark.parametrize(
    ("overrides", "field", "message"),
    [
        ({"title": "Thursday\nTable 2"}, "title", LINE_BREAK),
        ({"title": "Thursday\x1bTable 2"}, "title", "(U+001B)"),
        ({"players-1": "Anne\r\nMarie"}, "players-1", LINE_BREAK),
        ({"players-2": "\u200b"}, "players-2", "the name has no visible characters"),
        ({"players-3": "ANNE\u200b"}, "players-3", "already playing"),
    ],
)
def test_the_new_game_form_shows_the_refusal_next_to_the_field(app, client, overrides, field, message):
    response = client.post("/games/new", data=new_game_form(**overrides))
    assert response.status_code == 422
    assert message in error_next_to(response.get_data(as_text=True), field)
    assert count(app, StoredGame) == 0


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"title": "Thursday\nTable 2"}, "title: " + LINE_BREAK),
        ({"players": seat(0, "A\ud800nne")}, "players[0]: the text contains a broken character (U+D800)"),
    ],
)
def test_importing_a_file_with_bad_text_is_refused_next_to_the_file(app, client, fields, message):
    body = json.dumps(document(**fields)).encode()
    response = client.post(
        "/games/import", data={"file": (io.BytesIO(body), "g.json")}, content_type="multipart/form-data"
    )
    assert response.status_code == 422
    assert message in error_next_to(response.get_data(as_text=True), "file")
    assert count(app, StoredGame) == 0


@pytest.mark.parametrize(
    ("fields", "field", "message"),
    [
        ({"name": "Thursday\nclub"}, "name", LINE_BREAK),
        ({"name": "\u3164"}, "name", "the name has no visible characters"),
        ({"notes": "Aces high.\tNo talking."}, "notes", "(U+0009)"),
        (
            {"players-0": "Anne", "players-1": "Beth", "players-2": "Cath", "players-3": "anne\ufeff"},
            "players-3",
            "already playing",
        ),
    ],
)
def test_the_preset_editor_shows_the_refusal_next_to_the_field(app, client, fields, field, message):
    response = client.post("/presets/new", data=editor_data(**fields))
    assert response.status_code == 422
    assert message in error_next_to(response.get_data(as_text=True), field)
    assert count(app, StoredPreset) == 0


def test_the_preset_editor_keeps_the_notes_line_breaks(app, client):
    response = client.post("/presets/new", data=editor_data(notes="Aces high.\r\nNo talking."))
    assert response.status_code == 303
    with app.app_context():
        assert db.session.query(StoredPreset).one().notes == "Aces high.\nNo talking."


def test_importing_a_preset_with_bad_text_is_refused_next_to_the_text(app, client):
    text = json.dumps({"name": "\u200b", "contracts": NO_TRICKS})
    response = client.post("/presets/import", data={"text": text})
    assert response.status_code == 422
    assert "preset.name: the name has no visible characters" in error_next_to(response.get_data(as_text=True), "text")
    assert count(app, StoredPreset) == 0


# -- download names -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "safe"),
    [
        ("Thursday\nTable 2 2026-11-30.csv", "Thursday Table 2 2026-11-30.csv"),
        ("Thursday\r\n\x1b\x07Table\t2.csv", "Thursday Table 2.csv"),
        ('a\\b/c:d*e?f"g<h>i|j.csv', "a-b-c-d-e-f-g-h-i-j.csv"),
        ("../../etc/passwd", "-..-etc-passwd"),
        ("A\ud800nne Beth.csv", "Anne Beth.csv"),
        ("Anne\u202egpj.exe.csv", "Anne gpj.exe.csv"),  # a right-to-left override would disguise the suffix
        ("Anne\u2028Beth\u0085Cath.csv", "Anne Beth Cath.csv"),
        ("Zoë Ðorđe 🂡.csv", "Zoë Ðorđe 🂡.csv"),
        ("Zoe\u0308.csv", "Zoë.csv"),
        ("Thursday 2.0", "Thursday 2.0"),
        ("Table 2.\n", "Table 2"),
        ("....csv", "barbu.csv"),
        ("\x00\n.csv", "barbu.csv"),
        ("x" * 300 + ".csv", "x" * 100 + ".csv"),
    ],
)
def test_a_download_name_is_safe_to_save_and_send(name, safe):
    assert safe_file_name(name) == safe


# -- games stored before these rules ---------------------------------------------------------------


def store_legacy_game(app, title="Thursday\nTable 2", players=("A\ud800nne", "Beth\x1b", "\u200b", "BETH")):
    """Write a game as the old code could: text that today's rules refuse, straight into
    the table (the engine never sees it), with two random tokens as the old code made them.
    Returns the game's id, edit and view tokens."""
    edit, view = new_token(), new_token()
    with app.app_context():
        stored = StoredGame(
            title=title,
            players=list(players),
            first_declarer=0,
            preset=preset_to_dict(BUILTIN["tournament"]) | {"name": "House\x07rules"},
            **token_columns(edit, view),
            created_at=datetime(2026, 11, 26, 19, 30, tzinfo=UTC),
            date=date(2026, 11, 26),  # the migration dates old games by created_at (UTC)
        )
        row = StoredRound(number=1)
        row.assign(ROUND)
        stored.rounds.append(row)
        db.session.add(stored)
        db.session.commit()
        return stored.id, edit, view


def test_a_legacy_game_still_exports_its_json_and_csv(app, client):
    _, _, view = store_legacy_game(app)
    exported = client.get(f"/s/{view}/game.json")
    assert exported.status_code == 200
    assert not HEADER_CONTROLS.search(exported.headers["Content-Disposition"])
    assert 'filename="Thursday Table 2 2026-11-26.json"' in exported.headers["Content-Disposition"]
    doc = json.loads(exported.data)
    assert doc["title"] == "Thursday Table 2"
    assert doc["players"] == ["A\ufffdnne", "Beth", "\u200b", "BETH"]
    assert doc["preset"]["name"] == "House rules"
    assert doc["rounds"][0]["result"]["raw"] == [0, 0, -20, 0]  # Cath took the king
    sheet = client.get(f"/s/{view}/sheet.csv")
    assert sheet.status_code == 200
    assert not HEADER_CONTROLS.search(sheet.headers["Content-Disposition"])
    assert "A\ufffdnne" in sheet.data.decode("utf-8-sig")


def test_a_legacy_games_file_name_without_a_title_comes_from_its_players(app, client):
    _, _, view = store_legacy_game(app, title=None)
    disposition = client.get(f"/s/{view}/sheet.csv").headers["Content-Disposition"]
    assert not HEADER_CONTROLS.search(disposition)
    # The surrogate dropped, ESC and the zero-width space each a space, then spaces collapsed.
    assert disposition == 'attachment; filename="Anne Beth BETH 2026-11-26.csv"'


def test_a_non_ascii_download_name_is_sent_rfc_5987_encoded(app, client):
    _, _, view = store_legacy_game(app, title="Zoë: Thursday\n")
    disposition = client.get(f"/s/{view}/game.json").headers["Content-Disposition"]
    assert "filename*=UTF-8''Zo%C3%AB-%20Thursday%202026-11-26.json" in disposition


def test_every_page_of_a_legacy_game_opens(app, client):
    game_id, edit, view = store_legacy_game(app)
    pages = (f"/g/{edit}", f"/g/{view}", f"/b/{view}", f"/b/{view}/live", f"/b/{view}/screen", f"/s/{view}")
    for url in (*pages, f"/s/{view}/blank"):
        response = client.get(url)
        assert response.status_code == 200, url
        assert "A\ufffdnne" in response.get_data(as_text=True), url
    share = client.get(f"/b/share/{edit}")
    assert share.status_code == 200 and "Thursday Table 2" in share.get_data(as_text=True)
    assert client.get(f"/b/{view}/qr.svg").status_code == 200
    # The home page lists it among this phone's recent games (the scorer's page remembered it).
    home = client.get("/").get_data(as_text=True)
    assert "Thursday Table 2" in home and "A\ufffdnne" in home
    api = client.get(f"/api/v1/games/{game_id}", headers={"Authorization": f"Bearer {view}"})
    assert api.status_code == 200 and api.json["players"][0] == "A\ufffdnne"


def test_a_legacy_game_goes_on(app, client):
    game_id, edit, _ = store_legacy_game(app)
    auth = {"Authorization": f"Bearer {edit}"}
    second = {"contract": "no-queens", "doubles": [], "outcome": {"queens": [1, 1, 1, 1]}}
    assert client.post(f"/api/v1/games/{game_id}/rounds", json=second, headers=auth).status_code == 201
    replaced = {**ROUND, "outcome": {"king": 3}}
    assert client.put(f"/api/v1/games/{game_id}/rounds/1", json=replaced, headers=auth).status_code == 200
    with app.app_context():
        stored = db.session.get(StoredGame, game_id)
        assert stored.title == "Thursday\nTable 2"  # what was stored is kept as it was


def test_a_legacy_saved_preset_still_opens(app, client):
    with app.app_context():
        obj = preset_to_dict(BUILTIN["tournament"]) | {"default_players": ["A\ud800nne", "Beth", "\u200b", "beth"]}
        stored = presets.create_preset(preset_to_dict(BUILTIN["tournament"]), "", None)
        stored.preset = obj | {"id": stored.public_id}
        stored.notes = "Aces high.\r\nNo\x1btalking."
        db.session.commit()
        pid = stored.public_id
    page = client.get(f"/presets/{pid}")
    assert page.status_code == 200
    answer = client.get(f"/api/v1/presets/{pid}")
    assert answer.status_code == 200
    assert answer.json["preset"]["default_players"] == ["A\ufffdnne", "Beth", "\u200b", "beth"]
    export = client.get(f"/presets/{pid}/export")
    assert export.status_code == 200
    assert export.headers["Content-Disposition"] == f"attachment; filename=barbu-preset-{pid}.json"


def test_a_legacy_preset_opens_in_its_owners_editor(app, client):
    pid = client.post("/presets/new", data=editor_data()).headers["Location"].rsplit("/", 1)[1]
    with app.app_context():
        stored = presets.find_preset(pid)
        stored.preset = stored.preset | {"default_players": ["A\ud800nne", "Beth\n", "Cath", "Diana"]}
        stored.notes = "Aces high.\r\nNo talking."
        db.session.commit()
    page = client.get(f"/presets/{pid}/edit")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert 'value="A\ufffdnne"' in html and 'value="Beth"' in html
    assert client.get("/games/new").status_code == 200  # which offers its default players
    assert client.get(f"/games/new?preset={pid}").status_code == 200


@pytest.mark.pdf
def test_a_legacy_game_still_prints_its_pdf(app, client, tmp_path):
    _, _, view = store_legacy_game(app)
    response = client.get(f"/s/{view}/sheet.pdf")
    assert response.status_code == 200
    assert response.mimetype == "application/pdf"
    assert 'filename="Thursday Table 2 2026-11-26.pdf"' in response.headers["Content-Disposition"]
    path = tmp_path / "sheet.pdf"
    path.write_bytes(response.data)
    text = subprocess.run(["pdftotext", str(path), "-"], capture_output=True, text=True, check=True).stdout
    assert "Thursday Table 2" in text and "A\ufffdnne" in text


@pytest.mark.parametrize(
    ("lang", "message"),
    [
        ("de", "der Text enthält ein unsichtbares Steuerzeichen (U+001B)"),
        ("nl", "de tekst bevat een onzichtbaar stuurteken (U+001B)"),
        ("fr", "le texte contient un caractère de contrôle invisible (U+001B)"),
    ],
)
def test_the_refusal_is_told_in_the_language(client, lang, message):
    response = client.post(
        "/games/new", data=new_game_form(title="Thursday\x1bTable 2"), headers={"Accept-Language": lang}
    )
    assert response.status_code == 422
    assert message in error_next_to(response.get_data(as_text=True), "title")


def test_a_lone_surrogate_in_a_preset_id_is_refused_not_looked_up(app, client):
    response = client.post("/api/v1/games", json=document(preset="x\ud800"))
    assert response.status_code == 422
    assert response.json["path"] == "preset"


@pytest.mark.parametrize("body", [b'{"\\ud800": 1}', b'{"players": ["A\\udfffnne", "B", "C", "D"], "rounds": 7}'])
def test_importing_a_file_with_a_lone_surrogate_anywhere_is_refused_on_the_page(app, client, body):
    response = client.post(
        "/games/import", data={"file": (io.BytesIO(body), "g.json")}, content_type="multipart/form-data"
    )
    assert response.status_code == 422
    assert "broken character" in error_next_to(response.get_data(as_text=True), "file")


def test_importing_a_preset_with_a_lone_surrogate_in_a_field_name_is_refused_on_the_page(app, client):
    response = client.post("/presets/import", data={"text": '{"name": "x", "\\ud800": 1}'})
    assert response.status_code == 422
    assert "broken character (U+D800)" in error_next_to(response.get_data(as_text=True), "text")
    assert count(app, StoredPreset) == 0


def test_four_names_of_40_characters_leave_the_date_in_the_file_name(client):
    players = [letter * 40 for letter in "ABCD"]
    body = {"players": players, "first_declarer": 0, "preset": "tournament", "date": "2026-12-03"}
    view = client.post("/api/v1/games", json=body).get_json()["view_token"]
    disposition = client.get(f"/s/{view}/sheet.csv").headers["Content-Disposition"]
    # The players' names are cut at 80 characters before the date goes on: "A"*40, a space, "B"*39.
    assert disposition == f'attachment; filename="{"A" * 40} {"B" * 39} 2026-12-03.csv"'
