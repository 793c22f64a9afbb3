"""Secrets at rest (issue 12): the database keeps no capability token, only digests (and an
old game's view token sealed with its edit token); the view link is derived again from the
edit token the scorer holds; the view token leads nowhere near the edit token; the session
cookie shows no edit token. Also the helpers other tests use to get a game's tokens."""

import base64
import hashlib
import hmac
import io
import json
import re
import zlib
from pathlib import Path

import pytest
import segno
import sqlalchemy as sa

from scorepad.extensions import db
from scorepad.models import StoredGame
from scorepad.scoring import BUILTIN, preset_to_dict
from scorepad.services import common, games
from scorepad.tokens import InvalidToken, new_token, seal, unseal
from tests.test_api_presets import HOUSE
from tests.test_presets import editor_data, saved_id

EXAMPLE = json.loads((Path(__file__).parent / "data" / "examples" / "tournament-full.json").read_text())
ROUNDS = EXAMPLE["game"]["rounds"]
TOKEN = re.compile(r"[A-Za-z0-9_-]{32}")


# -- helpers for tests that need a game's tokens ----------------------------------------------


def sha256(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def view_of(app, edit: str) -> str:
    """The view token of the game whose edit token is ``edit``, as the holder of the edit
    token sees it (the database alone no longer gives it)."""
    with app.app_context():
        found = games.find_by_token(edit)
        assert found is not None and found[1], "not an edit token"
        return found[0].view_token


def token_columns(edit: str, view: str) -> dict[str, str]:
    """The token columns of a game written straight into the table whose links are ``edit``
    and ``view``, ``view`` random as every game's was before view tokens were derived: both
    digests, and ``view`` sealed with ``edit``."""
    return {
        "edit_digest": sha256(edit),
        "view_digest": sha256(view),
        "view_sealed": games.seal_view_token(edit, view),
    }


def derived_view(edit: str) -> str:
    """The view token derived from ``edit`` by hand: HMAC-SHA256(key=edit, msg="view"), its
    first 24 bytes in URL-safe base64."""
    return base64.urlsafe_b64encode(hmac.new(edit.encode(), b"view", hashlib.sha256).digest()[:24]).decode()


def every_value(app) -> list[str]:
    """Every value of every row of every table (but Alembic's), as text."""
    with app.app_context():
        tables = sa.MetaData()
        tables.reflect(db.engine)
        with db.engine.connect() as connection:
            return [
                repr(value)
                for table in tables.sorted_tables
                for row in connection.execute(sa.select(table))
                for value in row
            ]


def cookie_payload(client) -> str:
    """What anyone who sees the session cookie reads in it: its payload, base64-decoded (and
    inflated when Flask compressed it), no key needed."""
    value = client.get_cookie("session").value
    data = value.lstrip(".").split(".")[0]
    raw = base64.urlsafe_b64decode(data + "=" * (-len(data) % 4))
    return (zlib.decompress(raw) if value.startswith(".") else raw).decode()


def api_game(client, rounds=0) -> dict:
    response = client.post("/api/v1/games", json={**EXAMPLE["game"], "rounds": ROUNDS[:rounds]})
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def page_game(client, title="Table 2") -> str:
    """A game started on the new-game page: its edit token (from the redirect to its page)."""
    form = {"title": title, "first_declarer": "2", "preset": "tournament"}
    form.update({f"players-{seat}": name for seat, name in enumerate(EXAMPLE["game"]["players"])})
    response = client.post("/games/new", data=form)
    assert response.status_code == 303
    return response.headers["Location"].rsplit("/g/", 1)[1]


def share_links(html: str) -> set[str]:
    """The view tokens the scorer's page links (its share links)."""
    share = html[html.index('class="actions share-links') :]
    return set(re.findall(r'href="/[bs]/([A-Za-z0-9_-]{32})"', share[: share.index("</p>")]))


# -- the database keeps no token ---------------------------------------------------------------


def test_the_database_holds_digests_and_never_a_token(app, client):
    created = api_game(client, rounds=3)
    tokens = {created["edit_token"], created["view_token"]}
    edit = page_game(client)
    imported = client.post(
        "/games/import",
        data={"file": (io.BytesIO(json.dumps(EXAMPLE["game"]).encode()), "g.json")},
        content_type="multipart/form-data",
    )
    assert imported.status_code == 303
    for scorer in (edit, imported.headers["Location"].rsplit("/g/", 1)[1]):
        (view,) = share_links(client.get(f"/g/{scorer}").get_data(as_text=True))
        tokens |= {scorer, view}
    # A round saved on the page and one by the API with an idempotency key, one undone.
    form = {"contract": "no-tricks", "number": "1", **{f"tricks-{p}": t for p, t in enumerate([4, 9, 0, 0])}}
    assert client.post(f"/g/{edit}/rounds", data=form).status_code == 303
    auth = {"Authorization": f"Bearer {created['edit_token']}", "Idempotency-Key": "key-of-round-4"}
    assert client.post(f"/api/v1/games/{created['id']}/rounds", json=ROUNDS[3], headers=auth).status_code == 201
    assert client.post(f"/g/{edit}/rounds/undo").status_code in (200, 303)
    preset = client.post("/api/v1/presets", json=HOUSE)
    assert preset.status_code == 201, preset.get_json()
    tokens.add(preset.json["edit_token"])
    saved_id(client.post("/presets/new", data=editor_data()))
    assert len(tokens) == 7 and all(TOKEN.fullmatch(t) for t in tokens)

    values = every_value(app)
    assert not [(token, value) for token in tokens for value in values if token in value]
    # What is there instead: the SHA-256 of each token, computed here by hand.
    digests = {sha256(token) for token in tokens}
    assert digests <= {value.strip("'") for value in values}
    with app.app_context():
        rows = db.session.execute(sa.select(StoredGame.edit_digest, StoredGame.view_digest, StoredGame.view_sealed))
        assert {(e in digests, v in digests, s) for e, v, s in rows} == {(True, True, None)}  # new games seal nothing


def test_the_view_token_is_derived_from_the_edit_token(client):
    created = api_game(client)
    edit, view = created["edit_token"], created["view_token"]
    assert view == derived_view(edit)
    assert TOKEN.fullmatch(view) and view != edit
    assert created["links"]["board"] == f"http://localhost/b/{view}"
    assert created["links"]["scorer"] == f"http://localhost/g/{edit}"


def test_the_edit_tokens_pages_and_links_lead_to_a_working_view_link(client):
    created = api_game(client, rounds=5)
    edit, view = created["edit_token"], created["view_token"]
    for name in ("board", "sheet", "csv", "qr"):
        assert client.get(created["links"][name]).status_code == 200, name
    assert share_links(client.get(f"/g/{edit}").get_data(as_text=True)) == {view}
    share = client.get(f"/b/share/{edit}").get_data(as_text=True)
    assert f'data-copy="http://localhost/b/{view}"' in share and f'src="/b/{view}/qr.svg"' in share
    assert client.get(f"/b/{edit}").headers["Location"] == f"/b/{view}"
    assert client.get(f"/s/{edit}").headers["Location"] == f"/s/{view}"
    # The QR code, asked for with the edit token, is the board's URL written by hand.
    expected = io.BytesIO()
    segno.make(f"http://localhost/b/{view}", error="m", micro=False).save(
        expected, kind="svg", scale=4, border=4, dark="#000", light="#fff", xmldecl=False, title="QR code", unit=None
    )
    assert client.get(f"/b/{edit}/qr.svg").data == expected.getvalue()
    board = client.get(f"/b/{view}")
    assert board.status_code == 200 and "Round 6 of 28" in board.get_data(as_text=True)


def test_the_view_token_leads_nowhere_near_the_edit_token(app, client):
    created = api_game(client, rounds=5)
    game_id, edit, view = created["id"], created["edit_token"], created["view_token"]
    bearer = {"Authorization": f"Bearer {view}"}
    answers = [
        client.get(url, headers=bearer)
        for url in (
            f"/b/{view}",
            f"/b/{view}/screen",
            f"/b/{view}/live?layout=board&lang=en",
            f"/b/{view}/qr.svg",
            f"/s/{view}",
            f"/s/{view}/blank",
            f"/s/{view}/sheet.csv",
            f"/s/{view}/game.json",
            f"/g/{view}",
            f"/api/v1/games/{game_id}",
        )
    ]
    assert [a.request.path for a in answers if a.status_code != 200] == []
    assert not [a.request.path for a in answers if edit.encode() in a.data]
    assert client.get(f"/b/share/{view}").headers["Location"] == f"/b/{view}"
    # The game found by the view token holds no edit token to give away.
    with app.app_context():
        stored, can_edit = games.find_by_token(view)
        assert (can_edit, stored.edit_token, stored.view_token) == (False, None, view)


# -- games stored before view tokens were derived ------------------------------------------


def test_a_game_with_a_random_view_token_keeps_it_sealed_with_its_edit_token(app, client):
    edit, view = new_token(), new_token()  # the old code's two random tokens
    with app.app_context():
        stored = StoredGame(
            players=EXAMPLE["game"]["players"],
            first_declarer=2,
            preset=preset_to_dict(BUILTIN["tournament"]),
            date=common.clock().date(),
            **token_columns(edit, view),
        )
        db.session.add(stored)
        db.session.commit()
        sealed = stored.view_sealed
    assert view != derived_view(edit)
    assert share_links(client.get(f"/g/{edit}").get_data(as_text=True)) == {view}
    assert f'data-copy="http://localhost/b/{view}"' in client.get(f"/b/share/{edit}").get_data(as_text=True)
    assert client.get(f"/b/{view}").status_code == 200 and client.get(f"/b/{edit}").headers["Location"] == f"/b/{view}"
    assert edit not in client.get(f"/b/{view}").get_data(as_text=True)
    # Only the edit token opens the seal, and only for the view token's purpose.
    assert unseal(edit, "view", sealed) == view.encode()
    for key, purpose in ((view, "view"), (new_token(), "view"), (edit, "recent games")):
        with pytest.raises(InvalidToken):
            unseal(key, purpose, sealed)
    assert all(token not in value for token in (edit, view) for value in every_value(app))


def test_a_sealed_value_is_authenticated():
    sealed = seal("secret", "view", b"a view token")
    assert unseal(["other", "secret"], "view", sealed) == b"a view token"  # a rotated-out secret still opens it
    altered = sealed[:-6] + ("A" if sealed[-6] != "A" else "B") + sealed[-5:]
    for value in (altered, "not sealed", "é"):
        with pytest.raises(InvalidToken):
            unseal("secret", "view", value)


# -- the session cookie ---------------------------------------------------------------------


def test_the_session_cookie_shows_no_edit_token_and_the_home_page_lists_the_games(client):
    edits = [page_game(client, title=f"Table {n}") for n in (1, 2, 3)]
    client.get(f"/g/{edits[0]}")  # opened again: first in the list
    payload = cookie_payload(client)
    assert '"recent"' in payload
    assert not [edit for edit in edits if edit in payload]
    home = client.get("/").get_data(as_text=True)
    assert re.findall(r'href="/g/([A-Za-z0-9_-]{32})"', home) == [edits[0], edits[2], edits[1]]
    assert re.findall(r"Table \d", home) == ["Table 1", "Table 3", "Table 2"]


def test_a_cookie_from_before_with_plain_tokens_is_read_and_sealed(client):
    edit = api_game(client)["edit_token"]
    with client.session_transaction() as session:
        session["recent"] = [edit]  # as the code before issue 12 kept it
    assert edit in cookie_payload(client)
    assert f'href="/g/{edit}"' in client.get("/").get_data(as_text=True)
    assert edit not in cookie_payload(client)
    assert f'href="/g/{edit}"' in client.get("/").get_data(as_text=True)


def test_the_recent_list_opens_with_a_secret_key_being_rotated_out(app, client):
    edit = page_game(client)
    app.config.update(SECRET_KEY="rotated", SECRET_KEY_FALLBACKS=["test"])
    assert f'href="/g/{edit}"' in client.get("/").get_data(as_text=True)
    app.config.update(SECRET_KEY_FALLBACKS=[])  # the old key gone: the cookie is dropped, the page still answers
    home = client.get("/")
    assert home.status_code == 200 and f'href="/g/{edit}"' not in home.get_data(as_text=True)
