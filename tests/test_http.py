"""HTTP details from issue 12: 415 for API bodies not declared JSON, 405's Allow header,
imports with a UTF-8 byte order mark, the edit/undo race's 409, and Cache-Control."""

import io
import json
import re

import pytest

from scorepad.models import StoredPreset
from scorepad.scoring import BUILTIN, preset_to_dict
from scorepad.services import games, presets
from tests.test_api import NEW_GAME, WORKED_NO_QUEENS, auth, create, game_count, post_round
from tests.test_presets import saved_id
from tests.test_rounds import ROUNDS, form_of, import_game, opened

BOM = b"\xef\xbb\xbf"
GAME_BODY = json.dumps(NEW_GAME).encode()
#: The edit/undo race's refusals (rounds.round_gone, rounds.round_changed), worded for a round number.
GONE = "there is no round %d any more: another phone undid it"
CHANGED = (
    "round %d is not the one you opened: another phone edited it, or undid it and recorded it again;"
    " your changes were not saved, so that theirs are not lost"
)
#: The same on the game page, begun with a capital letter as its other messages are.
GONE_PAGE = "There is no round %d any more: another phone undid it"
CHANGED_PAGE = (
    "Round %d is not the one you opened: another phone edited it, or undid it and recorded it again;"
    " your changes were not saved, so that theirs are not lost"
)


def preset_count(app) -> int:
    with app.app_context():
        return StoredPreset.query.count()


# -- 415: only JSON bodies ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "content_type",
    [
        "text/plain",
        "text/plain; charset=utf-8",
        "application/x-www-form-urlencoded",
        "multipart/form-data; boundary=x",
        None,
        "application/jsonp",
        "text/json",
    ],
)
def test_a_game_body_not_declared_json_is_refused_with_415(app, client, content_type):
    headers = {} if content_type is None else {"Content-Type": content_type}
    response = client.post("/api/v1/games", data=GAME_BODY, headers=headers)
    assert response.status_code == 415
    assert response.mimetype == "application/json"
    assert "application/json" in response.json["error"]
    assert (content_type or "no Content-Type").split(";")[0] in response.json["error"]
    assert game_count(app) == 0


@pytest.mark.parametrize(
    "content_type", ["application/json", "application/json; charset=utf-8", "application/vnd.barbu+json"]
)
def test_json_types_are_accepted(app, client, content_type):
    response = client.post("/api/v1/games", data=GAME_BODY, headers={"Content-Type": content_type})
    assert response.status_code == 201
    assert game_count(app) == 1


def test_every_json_endpoint_refuses_other_types(app, client):
    game = create(client, NEW_GAME)
    round_body = json.dumps(WORKED_NO_QUEENS)
    text = {"Content-Type": "text/plain"}
    rounds = f"/api/v1/games/{game['id']}/rounds"
    assert client.post(rounds, data=round_body, headers={**auth(game["edit_token"]), **text}).status_code == 415
    assert post_round(client, game, WORKED_NO_QUEENS).status_code == 201
    headers = {**auth(game["edit_token"]), **text}
    assert client.put(f"{rounds}/1", data=round_body, headers=headers).status_code == 415
    preset = json.dumps(preset_to_dict(BUILTIN["brader"]))
    assert client.post("/api/v1/presets", data=preset, headers=text).status_code == 415
    assert preset_count(app) == 0
    saved = client.post("/api/v1/presets", json=preset_to_dict(BUILTIN["brader"])).json
    put = client.put(f"/api/v1/presets/{saved['id']}", data=preset, headers={**auth(saved["edit_token"]), **text})
    assert put.status_code == 415


def test_a_request_without_a_body_needs_no_content_type(client):
    game = create(client, NEW_GAME)
    assert post_round(client, game, WORKED_NO_QUEENS).status_code == 201
    response = client.delete(
        f"/api/v1/games/{game['id']}/rounds/1", headers={**auth(game["edit_token"]), "Content-Type": "text/plain"}
    )
    assert response.status_code == 204


def test_an_address_or_method_that_does_not_exist_says_so_before_the_body_type(client):
    text = {"Content-Type": "text/plain"}
    assert client.delete("/api/v1/games", data=GAME_BODY, headers=text).status_code == 405
    assert client.post("/api/v1/no-such-thing", data=GAME_BODY, headers=text).status_code == 404


def test_a_json_body_in_another_charset_is_refused(app, client):
    body = json.dumps({**NEW_GAME, "title": "Café"}, ensure_ascii=False).encode("latin-1")
    response = client.post("/api/v1/games", data=body, headers={"Content-Type": "application/json; charset=latin-1"})
    assert response.status_code == 415
    assert "charset=latin-1" in response.json["error"] and "UTF-8" in response.json["error"]
    assert game_count(app) == 0


def test_the_pages_forms_are_not_api_bodies(app, client):
    response = client.post("/presets/import", data={"text": json.dumps(preset_to_dict(BUILTIN["brader"]))})
    assert response.status_code == 303


def test_the_openapi_description_lists_415_wherever_a_body_is_read(client):
    spec = client.get("/api/v1/openapi.json").json
    for path, operations in spec["paths"].items():
        for method, operation in operations.items():
            if "requestBody" in operation:
                assert "415" in operation["responses"], (method, path)


# -- 405 keeps Allow ---------------------------------------------------------------------------


def test_a_405_keeps_its_allow_header_in_json(client):
    response = client.get("/api/v1/games")
    assert response.status_code == 405
    assert response.mimetype == "application/json"
    assert set(response.json) == {"error", "path"}
    assert set(response.headers["Allow"].split(", ")) == {"POST", "OPTIONS"}


def test_a_405_keeps_its_allow_header_on_the_error_page(client):
    response = client.delete("/games/new")
    assert response.status_code == 405
    assert response.mimetype == "text/html"
    assert set(response.headers["Allow"].split(", ")) == {"GET", "HEAD", "POST", "OPTIONS"}


# -- imports with a byte order mark ------------------------------------------------------------


def test_a_preset_file_with_a_byte_order_mark_is_imported(app, client):
    body = BOM + json.dumps(preset_to_dict(BUILTIN["brader"])).encode()
    response = client.post(
        "/presets/import", data={"file": (io.BytesIO(body), "brader.json")}, content_type="multipart/form-data"
    )
    with app.app_context():
        assert presets.find_preset(saved_id(response)).preset["name"] == BUILTIN["brader"].name


def test_pasted_preset_text_with_a_byte_order_mark_is_imported(app, client):
    response = client.post("/presets/import", data={"text": "\ufeff" + json.dumps(preset_to_dict(BUILTIN["brader"]))})
    saved_id(response)


def test_a_game_file_with_a_byte_order_mark_is_imported(app, client):
    response = client.post(
        "/games/import",
        data={"file": (io.BytesIO(BOM + GAME_BODY), "game.json")},
        content_type="multipart/form-data",
    )
    assert response.status_code == 303
    assert game_count(app) == 1


def test_the_api_reads_a_byte_order_mark_too(app, client):
    headers = {"Content-Type": "application/json"}
    assert client.post("/api/v1/games", data=BOM + GAME_BODY, headers=headers).status_code == 201
    preset = BOM + json.dumps(preset_to_dict(BUILTIN["brader"])).encode()
    assert client.post("/api/v1/presets", data=preset, headers=headers).status_code == 201


def test_a_byte_order_mark_alone_is_an_empty_file(app, client):
    response = client.post(
        "/presets/import", data={"file": (io.BytesIO(BOM), "empty.json")}, content_type="multipart/form-data"
    )
    assert response.status_code == 422
    assert "Paste a preset" in response.get_data(as_text=True)


# -- the edit/undo race ------------------------------------------------------------------------


def test_an_edit_of_a_round_undone_meanwhile_gets_the_apis_409(app, client):
    edit, _ = import_game(app, rounds=3)
    with app.app_context():
        game_id = games.find_by_token(edit)[0].id
    assert client.get(f"/g/{edit}/rounds/3/edit").status_code == 200  # phone 1 opens the form
    assert client.post(f"/g/{edit}/rounds/undo", data={"number": "3"}).status_code == 303  # phone 2 undoes
    response = client.post(f"/g/{edit}/rounds/3/edit", data=form_of(ROUNDS[2]))
    assert response.status_code == 409
    html = response.get_data(as_text=True)
    api = client.put(f"/api/v1/games/{game_id}/rounds/3", json=ROUNDS[2], headers=auth(edit))
    assert api.status_code == 409
    assert api.json["error"] == GONE % 3
    assert 'data-refusal="conflict">' + GONE_PAGE % 3 in html  # the API's message, as a sentence
    with app.app_context():
        assert len(games.find_by_token(edit)[0].rounds) == 2  # nothing stored


def test_an_edit_of_a_round_that_never_was_is_still_404(app, client):
    edit, _ = import_game(app, rounds=3)
    assert client.post(f"/g/{edit}/rounds/9/edit", data=form_of(ROUNDS[2])).status_code == 404
    assert client.get(f"/g/{edit}/rounds/4/edit").status_code == 404


def stored_rounds(app, edit: str) -> list[dict]:
    with app.app_context():
        return [row.document() for row in games.find_by_token(edit)[0].rounds]


def game_id_of(app, edit: str) -> int:
    with app.app_context():
        return games.find_by_token(edit)[0].id


def test_an_edit_that_does_not_say_which_round_it_was_opened_on_is_refused(app, client):
    """The same race, from a form without ``based_on`` (a page opened before edits carried it,
    or a client of its own): it cannot tell the round it corrects from one recorded since."""
    edit, _ = import_game(app, rounds=2)
    before = stored_rounds(app, edit)
    response = client.post(f"/g/{edit}/rounds/1/edit", data={**form_of(ROUNDS[0]), "penultimate": "3"})
    assert response.status_code == 409
    html = response.get_data(as_text=True)
    assert "Open round 1’s edit form again: this one does not say which round it was opened on" in html
    assert stored_rounds(app, edit) == before


# Round 1 of the example (no-last-two, Élodie declares) as another phone records it after an undo:
# No Queens, Anne and Marc took two queens each (the same declarer, the doubles of round 3 legal too).
NO_QUEENS_AGAIN = {"contract": "no-queens", "doubles": [[1, 0]], "outcome": {"queens": [0, 2, 0, 2]}}


@pytest.mark.parametrize("again", [NO_QUEENS_AGAIN, ROUNDS[0]], ids=["another-contract", "the-same-round"])
def test_a_stale_edit_of_a_round_undone_and_recorded_again_is_refused(app, client, again):
    """The adversarial run: phone A opens round 1's edit; phone B undoes round 1 and records a
    new round 1 (another contract, or the very same round: only when it was recorded differs);
    A's save must not replace B's round."""
    edit, _ = import_game(app, rounds=1)
    based_on = opened(client, edit, 1)
    assert client.post(f"/g/{edit}/rounds/undo", data={"number": "1"}).status_code == 303
    recorded = client.post(
        f"/api/v1/games/{game_id_of(app, edit)}/rounds", json={**again, "number": 1}, headers=auth(edit)
    )
    assert recorded.status_code == 201
    stale = {**form_of(ROUNDS[0]), "penultimate": "3", "last": "3", "based_on": based_on}
    response = client.post(f"/g/{edit}/rounds/1/edit", data=stale)
    assert response.status_code == 409
    html = response.get_data(as_text=True)
    assert 'data-refusal="conflict">' + CHANGED_PAGE % 1 in html
    assert stored_rounds(app, edit) == [again]  # B's round, untouched


def test_an_edit_of_a_round_undone_with_the_one_after_it_gets_the_409(app, client):
    edit, _ = import_game(app, rounds=3)
    based_on = opened(client, edit, 2)
    for number in ("3", "2"):  # another phone undoes two rounds
        assert client.post(f"/g/{edit}/rounds/undo", data={"number": number}).status_code == 303
    response = client.post(f"/g/{edit}/rounds/2/edit", data={**form_of(ROUNDS[1]), "based_on": based_on})
    assert response.status_code == 409
    assert 'data-refusal="conflict">' + GONE_PAGE % 2 in response.get_data(as_text=True)
    assert stored_rounds(app, edit) == [ROUNDS[0]]
    assert client.get(f"/g/{edit}/rounds/2/edit").status_code == 404  # a GET of it is still a 404


def test_the_second_of_two_phones_editing_one_round_is_refused(app, client):
    """A lost update: both phones open round 1 (no-last-two: Élodie took both last tricks);
    phone B saves Anne taking them; phone A's save, based on the round before B's, is refused."""
    edit, _ = import_game(app, rounds=2)
    phone_a = opened(client, edit, 1)
    phone_b = opened(client, edit, 1)
    assert phone_a == phone_b
    b_saves = {**form_of(ROUNDS[0]), "penultimate": "1", "last": "1", "based_on": phone_b}
    assert client.post(f"/g/{edit}/rounds/1/edit", data=b_saves).status_code == 303
    a_saves = {**form_of(ROUNDS[0]), "penultimate": "2", "last": "3", "based_on": phone_a}
    response = client.post(f"/g/{edit}/rounds/1/edit", data=a_saves)
    assert response.status_code == 409
    html = response.get_data(as_text=True)
    assert CHANGED_PAGE % 1 in html
    assert stored_rounds(app, edit) == [{**ROUNDS[0], "outcome": {"penultimate": 1, "last": 1}}, ROUNDS[1]]


def test_an_edit_still_saves_after_a_refused_field_and_by_the_api_without_a_digest(app, client):
    edit, _ = import_game(app, rounds=2)
    based_on = opened(client, edit, 1)
    assert 'name="based_on"' not in client.get(f"/g/{edit}/rounds/new?contract=no-tricks").get_data(as_text=True)
    refused = client.post(f"/g/{edit}/rounds/1/edit", data={**form_of(ROUNDS[0]), "last": "", "based_on": based_on})
    assert refused.status_code == 422
    assert f'name="based_on" value="{based_on}"' in refused.get_data(as_text=True)  # kept for the next try
    saved = client.post(f"/g/{edit}/rounds/1/edit", data={**form_of(ROUNDS[0]), "last": "2", "based_on": based_on})
    assert saved.status_code == 303
    assert opened(client, edit, 1) != based_on  # the round changed: so does its digest
    api = client.put(
        f"/api/v1/games/{game_id_of(app, edit)}/rounds/1",
        json={**ROUNDS[0], "outcome": {"penultimate": 3, "last": 3}},
        headers=auth(edit),
    )
    assert api.status_code == 200
    assert stored_rounds(app, edit)[0]["outcome"] == {"penultimate": 3, "last": 3}


def test_the_api_answers_a_rounds_etag_and_its_if_match_refuses_a_changed_round(app, client):
    """Phone A and phone B hold the ETag of round 1 as saved (Anne declared No Queens, one
    queen to Anne and Cath, two to Diana); B moves Anne's queen to Beth; A's PUT, made on the
    round before B's, gets 412 and B's round stays."""
    game = create(client, NEW_GAME)
    saved = post_round(client, game, WORKED_NO_QUEENS)
    assert saved.status_code == 201
    etag = saved.headers["ETag"]
    assert re.fullmatch(r'"[0-9a-f]{16}"', etag)
    assert opened(client, game["edit_token"], 1) == etag.strip('"')  # the edit form's based_on is the ETag
    b_round = {**WORKED_NO_QUEENS, "outcome": {"queens": [0, 1, 1, 2]}}
    b_saves = put_round_if(client, game, b_round, etag)
    assert b_saves.status_code == 200
    assert b_saves.headers["ETag"] not in ("", etag)
    a_saves = put_round_if(client, game, {**WORKED_NO_QUEENS, "outcome": {"queens": [2, 0, 0, 2]}}, etag)
    assert a_saves.status_code == 412
    assert a_saves.json["error"] == CHANGED % 1
    weak = put_round_if(client, game, WORKED_NO_QUEENS, "W/" + b_saves.headers["ETag"])  # If-Match compares strongly
    assert weak.status_code == 412
    for empty in ('""', "", f'"", W/{etag}'):  # no ETag at all, as a fuzzer sent (it was a 500)
        assert put_round_if(client, game, WORKED_NO_QUEENS, empty).status_code == 412, empty
    assert stored_rounds(app, game["edit_token"]) == [b_round]
    both = put_round_if(client, game, WORKED_NO_QUEENS, f"{etag}, {b_saves.headers['ETag']}")  # any one will do
    assert both.status_code == 200
    assert put_round_if(client, game, b_round, "*").status_code == 200  # any round that is there
    assert stored_rounds(app, game["edit_token"]) == [b_round]


def put_round_if(client, game: dict, round_doc: dict, if_match: str):
    headers = {**auth(game["edit_token"]), "If-Match": if_match}
    return client.put(f"/api/v1/games/{game['id']}/rounds/1", json=round_doc, headers=headers)


# -- Cache-Control -----------------------------------------------------------------------------

PRIVATE = "private, no-store"


@pytest.fixture
def urls(app, client):
    """A game with a round, a saved preset of this device, and their URLs by name."""
    game = create(client, NEW_GAME)
    assert post_round(client, game, WORKED_NO_QUEENS).status_code == 201
    preset = saved_id(client.post("/presets/import", data={"text": json.dumps(preset_to_dict(BUILTIN["brader"]))}))
    return {"edit": game["edit_token"], "view": game["view_token"], "id": game["id"], "preset": preset}


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("/", PRIVATE),
        ("/games/new", PRIVATE),
        ("/g/{edit}", PRIVATE),
        ("/g/{edit}/rounds/new?contract=no-tricks", PRIVATE),
        ("/g/{edit}/rounds/1", PRIVATE),
        ("/g/{edit}/rounds/1/edit", PRIVATE),
        ("/b/share/{edit}", PRIVATE),
        ("/s/{view}", PRIVATE),
        ("/presets", PRIVATE),
        ("/presets/{preset}", PRIVATE),
        ("/presets/{preset}/edit", PRIVATE),
        ("/presets/import", PRIVATE),
        ("/api/v1/presets", PRIVATE),
        ("/g/not-a-token-at-all-but-long-enough", PRIVATE),  # an error page
        ("/b/{view}/qr.svg", "private, max-age=86400"),
        ("/sw.js", "no-cache"),  # public: no token in it
    ],
)
def test_what_may_be_cached(client, urls, url, expected):
    response = client.get(url.format(**urls))
    assert response.headers["Cache-Control"] == expected


@pytest.mark.parametrize("url", ["/b/{view}", "/b/{view}/screen", "/s/{view}/sheet.csv", "/s/{view}/game.json"])
def test_a_page_or_download_with_its_own_rule_is_kept_private(client, urls, url):
    cache = client.get(url.format(**urls)).cache_control
    assert cache.private and not cache.public
    assert cache.no_cache  # revalidated at each use (the board page) or not kept (downloads)


def test_the_board_poll_stays_shareable_with_its_etag(client, urls):
    """Any cache (nginx's microcache, a CDN) may keep a board's poll for one second, then asks
    again with its ETag (issue 17); the answer varies on nothing but its URL."""
    response = client.get(f"/b/{urls['view']}/live?layout=board&lang=en")
    assert response.headers["Cache-Control"] == "public, max-age=1, must-revalidate"
    # Compressed or not is the one variant (Flask-Compress); nothing about the device.
    assert response.headers.get("Vary", "Accept-Encoding") == "Accept-Encoding"
    etag = response.headers["ETag"]
    again = client.get(f"/b/{urls['view']}/live?layout=board&lang=en", headers={"If-None-Match": etag})
    assert again.status_code == 304
    assert again.headers["Cache-Control"] == "public, max-age=1, must-revalidate"


def test_a_shareable_answer_sets_no_cookie_but_a_page_still_does(client, urls):
    """The device has its cookie (the fixture saved a preset from this client): a page
    refreshes it (the session is permanent), the board's poll and the public files do not,
    so their answer is the same for every device and a proxy may keep it."""
    assert "session=" in client.get("/").headers.get("Set-Cookie", "")
    for url in (f"/b/{urls['view']}/live?layout=board&lang=en", "/sw.js", "/manifest.webmanifest", "/favicon.ico"):
        response = client.get(url)
        assert response.status_code == 200, url
        assert "Set-Cookie" not in response.headers, url


def test_the_poll_of_a_board_that_is_not_there_is_private(client):
    response = client.get("/b/no-such-board-token-of-32-chars-x/live?layout=board&lang=en")
    assert response.status_code == 404
    assert response.headers["Cache-Control"] == PRIVATE


def test_api_answers_are_private(client, urls):
    assert client.get(f"/api/v1/games/{urls['id']}", headers=auth(urls["edit"])).headers["Cache-Control"] == PRIVATE
    created = client.post("/api/v1/games", json=NEW_GAME)
    assert created.status_code == 201 and created.headers["Cache-Control"] == PRIVATE


def test_a_static_file_may_be_kept_by_any_cache(client):
    response = client.get("/static/css/app.css")
    assert response.status_code == 200
    assert response.cache_control.max_age == 60 and not response.cache_control.private
