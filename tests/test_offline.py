"""No round lost: a round saved twice with the same idempotency key (the phone retried a
save whose answer was lost) is stored once, through the scorer's form and the API."""

import json
from pathlib import Path

from sqlalchemy import func, select

from scorepad.extensions import db
from scorepad.models import StoredRound
from scorepad.services import games
from tests.test_tokens_at_rest import view_of

EXAMPLE = json.loads((Path(__file__).parent / "data" / "examples" / "tournament-full.json").read_text())
ROUNDS = EXAMPLE["game"]["rounds"]
EXPECTED = EXAMPLE["expected"]["rounds"]
KEY = "0b7c2f2e-5d43-4c1a-9a57-3f0e6a1d2c10"


def import_game(app, rounds=0):
    doc = {**EXAMPLE["game"], "rounds": ROUNDS[:rounds]}
    with app.app_context():
        stored, _ = games.create_game(doc)
        return stored.id, stored.edit_token


def form_of(rnd: dict, **extra) -> dict:
    """A round as the scorer's form posts it (the examples' rounds used here have only
    counts, seats and doubles)."""
    data = {"contract": rnd["contract"], "doubles": [f"{a}-{b}" for a, b in rnd["doubles"]], **extra}
    for part, value in rnd["outcome"].items():
        if isinstance(value, list):
            data.update({f"{part}-{seat}": str(v) for seat, v in enumerate(value)})
        else:
            data[part] = str(value)
    return data


def stored_rounds(app, game_id: int) -> list[tuple[int, str, str | None]]:
    with app.app_context():
        rows = db.session.scalars(
            select(StoredRound).where(StoredRound.game_id == game_id).order_by(StoredRound.number)
        )
        return [(r.number, r.contract, r.client_key) for r in rows]


def auth(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


# -- the scorer's form ------------------------------------------------------------------------


def test_a_form_save_repeated_with_its_key_is_stored_once(app, client):
    game_id, edit = import_game(app)
    data = form_of(ROUNDS[0], number="1", client_key=KEY)
    first = client.post(f"/g/{edit}/rounds", data=data)
    again = client.post(f"/g/{edit}/rounds", data=data)
    assert first.status_code == again.status_code == 303
    assert stored_rounds(app, game_id) == [(1, "no-last-two", KEY)]


def test_a_repeat_through_htmx_shows_the_saved_round_not_a_conflict(app, client):
    game_id, edit = import_game(app)
    data = form_of(ROUNDS[0], number="1", client_key=KEY)
    client.post(f"/g/{edit}/rounds", data=data, headers={"HX-Request": "true"})
    again = client.post(f"/g/{edit}/rounds", data=data, headers={"HX-Request": "true"})
    html = again.get_data(as_text=True)
    assert again.status_code == 200
    assert "Round 1 saved" in html and "Round 2 of 28" in html
    assert "another phone" not in html
    assert len(stored_rounds(app, game_id)) == 1


def test_the_repeat_is_recognised_after_the_game_moved_on(app, client):
    # The lost answer was round 1; meanwhile round 2 was saved; the retry of round 1 must
    # neither be a conflict nor become round 3.
    game_id, edit = import_game(app)
    client.post(f"/g/{edit}/rounds", data=form_of(ROUNDS[0], number="1", client_key=KEY))
    client.post(f"/g/{edit}/rounds", data=form_of(ROUNDS[1], number="2", client_key="second-round-key"))
    again = client.post(f"/g/{edit}/rounds", data=form_of(ROUNDS[0], number="1", client_key=KEY))
    assert again.status_code == 303
    assert stored_rounds(app, game_id) == [(1, "no-last-two", KEY), (2, "no-hearts", "second-round-key")]


def test_a_new_key_for_a_round_already_saved_is_a_conflict(app, client):
    game_id, edit = import_game(app)
    client.post(f"/g/{edit}/rounds", data=form_of(ROUNDS[0], number="1", client_key=KEY))
    other_phone = client.post(f"/g/{edit}/rounds", data=form_of(ROUNDS[0], number="1", client_key="other-phone-key"))
    assert other_phone.status_code == 409
    assert "Another phone saved round 1 first" in other_phone.get_data(as_text=True)
    assert len(stored_rounds(app, game_id)) == 1


def test_the_outbox_resend_gets_plain_answers_it_can_read(app, client):
    """The phone's outbox (static/js/offline/outbox.js) sends a waiting round as the plain
    form does, without htmx: it follows the 303 to the game page and takes its live part;
    a conflict answers 409 with the game as it is now and the reason in [data-refusal], the
    first element of the live part; a refused field answers 422 with [data-refusal] by it."""
    import re

    game_id, edit = import_game(app)
    saved = client.post(f"/g/{edit}/rounds", data=form_of(ROUNDS[0], number="1", client_key=KEY))
    assert saved.status_code == 303 and saved.headers["Location"] == f"/g/{edit}#current_round"
    assert 'id="game_live"' in client.get(f"/g/{edit}").get_data(as_text=True)
    other = client.post(f"/g/{edit}/rounds", data=form_of(ROUNDS[0], number="1", client_key="other-phone-key"))
    html = other.get_data(as_text=True)
    assert other.status_code == 409
    live = html[html.index('<div id="game_live">') + len('<div id="game_live">') :].lstrip()
    refusal = re.match(r'<p [^>]*data-refusal="[a-z]+"[^>]*>([^<]*)</p>', live)
    assert refusal and "Another phone saved round 1 first" in refusal.group(1)
    assert 'id="round-1"' in html  # the game as the server has it
    too_many = form_of(ROUNDS[1], number="2", client_key="third-key") | {"hearts-0": "13"}  # 13 + the others' > 13
    wrong = client.post(f"/g/{edit}/rounds", data=too_many)
    assert wrong.status_code == 422 and "data-refusal=" in wrong.get_data(as_text=True)
    assert len(stored_rounds(app, game_id)) == 1


def test_saves_without_a_key_still_work_and_store_none(app, client):
    game_id, edit = import_game(app)
    assert client.post(f"/g/{edit}/rounds", data=form_of(ROUNDS[0], number="1")).status_code == 303
    assert client.post(f"/g/{edit}/rounds", data=form_of(ROUNDS[1], number="2", client_key="")).status_code == 303
    assert stored_rounds(app, game_id) == [(1, "no-last-two", None), (2, "no-hearts", None)]


def test_a_malformed_key_is_refused_and_nothing_is_stored(app, client):
    game_id, edit = import_game(app)
    response = client.post(f"/g/{edit}/rounds", data=form_of(ROUNDS[0], number="1", client_key="short"))
    assert response.status_code == 422
    assert "idempotency key must be 8 to 64" in response.get_data(as_text=True)
    assert stored_rounds(app, game_id) == []


def test_the_form_offers_the_key_field_for_the_phone_to_fill(app, client):
    _, edit = import_game(app)
    html = client.get(f"/g/{edit}/rounds/new?contract=no-hearts").get_data(as_text=True)
    assert '<input type="hidden" name="client_key" value="">' in html


# -- the API ----------------------------------------------------------------------------------


def test_an_api_repeat_with_the_same_key_returns_the_stored_round(app, client):
    game_id, edit = import_game(app)
    headers = {**auth(edit), "Idempotency-Key": KEY}
    first = client.post(f"/api/v1/games/{game_id}/rounds", json=ROUNDS[0], headers=headers)
    again = client.post(f"/api/v1/games/{game_id}/rounds", json=ROUNDS[0], headers=headers)
    assert first.status_code == 201
    assert again.status_code == 200
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.json["result"]["total"] == EXPECTED[0]["result"]["total"] == [-60, 0, 0, 30]
    game = client.get(f"/api/v1/games/{game_id}", headers=auth(edit)).json
    assert len(game["rounds"]) == 1


def test_an_api_repeat_is_answered_even_with_a_body_that_would_now_be_refused(app, client):
    # The game moved on (round 2 saved): sent again, round 1's body with "number": 1 would
    # be a 409; with its key it is recognised as already stored.
    game_id, edit = import_game(app)
    headers = {**auth(edit), "Idempotency-Key": KEY}
    client.post(f"/api/v1/games/{game_id}/rounds", json={**ROUNDS[0], "number": 1}, headers=headers)
    client.post(f"/api/v1/games/{game_id}/rounds", json=ROUNDS[1], headers=auth(edit))
    again = client.post(f"/api/v1/games/{game_id}/rounds", json={**ROUNDS[0], "number": 1}, headers=headers)
    assert again.status_code == 200
    assert again.json["contract"] == "no-last-two"
    assert stored_rounds(app, game_id) == [(1, "no-last-two", KEY), (2, "no-hearts", None)]


def test_an_api_key_used_in_another_game_is_a_conflict(app, client):
    first_id, first_edit = import_game(app)
    second_id, second_edit = import_game(app)
    client.post(
        f"/api/v1/games/{first_id}/rounds", json=ROUNDS[0], headers={**auth(first_edit), "Idempotency-Key": KEY}
    )
    response = client.post(
        f"/api/v1/games/{second_id}/rounds", json=ROUNDS[0], headers={**auth(second_edit), "Idempotency-Key": KEY}
    )
    assert response.status_code == 409
    assert "another game" in response.json["error"]
    assert stored_rounds(app, second_id) == []


def test_an_api_malformed_key_is_a_422_naming_the_header(app, client):
    game_id, edit = import_game(app)
    response = client.post(
        f"/api/v1/games/{game_id}/rounds", json=ROUNDS[0], headers={**auth(edit), "Idempotency-Key": "not a key!"}
    )
    assert response.status_code == 422
    assert response.json["path"] == "Idempotency-Key"
    assert stored_rounds(app, game_id) == []


def test_the_view_token_cannot_use_a_key_to_read_back_a_round(app, client):
    game_id, edit = import_game(app)
    view = view_of(app, edit)
    client.post(f"/api/v1/games/{game_id}/rounds", json=ROUNDS[0], headers={**auth(edit), "Idempotency-Key": KEY})
    response = client.post(
        f"/api/v1/games/{game_id}/rounds", json=ROUNDS[0], headers={**auth(view), "Idempotency-Key": KEY}
    )
    assert response.status_code == 403


def test_the_key_is_unique_in_the_database(app):
    game_id, _ = import_game(app, rounds=2)
    with app.app_context():
        rows = db.session.scalars(select(StoredRound).where(StoredRound.game_id == game_id)).all()
        rows[0].client_key = rows[1].client_key = KEY
        try:
            db.session.commit()
        except Exception as exc:  # IntegrityError, whatever the driver calls it
            db.session.rollback()
            assert "unique" in str(exc).lower()
        else:
            raise AssertionError("two rounds stored with one key")
        assert db.session.scalar(select(func.count()).where(StoredRound.client_key == KEY)) == 0


# -- keys of undone rounds, keys sent with another round (issue 11) --------------------------


def undo_api(client, game_id: int, edit: str, number: int):
    return client.delete(f"/api/v1/games/{game_id}/rounds/{number}", headers=auth(edit))


def test_an_api_retry_of_an_undone_round_is_a_conflict_not_the_round_again(app, client):
    game_id, edit = import_game(app)
    headers = {**auth(edit), "Idempotency-Key": "k1-of-round-one"}
    assert client.post(f"/api/v1/games/{game_id}/rounds", json=ROUNDS[0], headers=headers).status_code == 201
    assert undo_api(client, game_id, edit, 1).status_code == 204
    late = client.post(f"/api/v1/games/{game_id}/rounds", json=ROUNDS[0], headers=headers)
    assert late.status_code == 409
    assert late.json["error"] == "this round was saved, then undone; it is not saved again"
    assert "Idempotent-Replayed" not in late.headers
    assert stored_rounds(app, game_id) == []
    # Still spent once another round 1 is saved (with another key) and undone in turn.
    other = {**auth(edit), "Idempotency-Key": "k2-of-round-one"}
    assert client.post(f"/api/v1/games/{game_id}/rounds", json=ROUNDS[0], headers=other).status_code == 201
    assert client.post(f"/api/v1/games/{game_id}/rounds", json=ROUNDS[0], headers=headers).status_code == 409
    assert undo_api(client, game_id, edit, 1).status_code == 204
    assert client.post(f"/api/v1/games/{game_id}/rounds", json=ROUNDS[0], headers=other).status_code == 409
    assert stored_rounds(app, game_id) == []


def test_a_form_retry_of_an_undone_round_is_a_conflict_the_outbox_shows(app, client):
    import re

    game_id, edit = import_game(app)
    data = form_of(ROUNDS[0], number="1", client_key=KEY)
    assert client.post(f"/g/{edit}/rounds", data=data).status_code == 303
    assert client.post(f"/g/{edit}/rounds/undo", data={"number": "1"}).status_code == 303
    assert stored_rounds(app, game_id) == []
    late = client.post(f"/g/{edit}/rounds", data=data)
    html = late.get_data(as_text=True)
    assert late.status_code == 409
    # What outbox.js reads: the first [data-refusal] of the page, marked a conflict.
    refusal = re.search(r'<p [^>]*data-refusal="([a-z]+)"[^>]*>([^<]*)</p>', html)
    assert refusal and refusal.group(1) == "conflict"
    assert refusal.group(2).strip() == "This round was saved, then undone; it is not saved again"
    assert stored_rounds(app, game_id) == []


def test_an_api_key_sent_with_another_round_is_refused(app, client):
    game_id, edit = import_game(app)
    headers = {**auth(edit), "Idempotency-Key": KEY}
    assert (
        client.post(f"/api/v1/games/{game_id}/rounds", json={**ROUNDS[0], "number": 1}, headers=headers).status_code
        == 201
    )
    for changed in ({**ROUNDS[1], "number": 2}, {**ROUNDS[0], "number": 2}, ROUNDS[0], {**ROUNDS[0], "doubles": []}):
        response = client.post(f"/api/v1/games/{game_id}/rounds", json=changed, headers=headers)
        assert response.status_code == 422, changed
        assert response.json["path"] == "Idempotency-Key"
        assert response.json["error"] == "this idempotency key was already used for a different round"
    # The same body with its keys in another order and other spacing is the same request.
    outcome, doubles = json.dumps(ROUNDS[0]["outcome"]), json.dumps(ROUNDS[0]["doubles"])
    same = f'{{"number":1, "outcome": {outcome}, "doubles": {doubles}, "contract": "no-last-two"}}'
    again = client.post(
        f"/api/v1/games/{game_id}/rounds", data=same, headers={**headers, "Content-Type": "application/json"}
    )
    assert again.status_code == 200 and again.headers["Idempotent-Replayed"] == "true"
    assert stored_rounds(app, game_id) == [(1, "no-last-two", KEY)]


def test_an_undone_key_sent_with_another_round_is_refused_too(app, client):
    game_id, edit = import_game(app)
    headers = {**auth(edit), "Idempotency-Key": KEY}
    client.post(f"/api/v1/games/{game_id}/rounds", json=ROUNDS[0], headers=headers)
    undo_api(client, game_id, edit, 1)
    response = client.post(f"/api/v1/games/{game_id}/rounds", json=ROUNDS[1], headers=headers)
    assert response.status_code == 422 and response.json["path"] == "Idempotency-Key"
    assert stored_rounds(app, game_id) == []


def test_a_form_key_sent_with_another_round_is_refused(app, client):
    game_id, edit = import_game(app)
    client.post(f"/g/{edit}/rounds", data=form_of(ROUNDS[0], number="1", client_key=KEY))
    other = client.post(f"/g/{edit}/rounds", data=form_of(ROUNDS[1], number="2", client_key=KEY))
    assert other.status_code == 422
    assert "this idempotency key was already used for a different round" in other.get_data(as_text=True)
    # Round 1 again, its doubles left out: its contract is declared
    # by now, but the page says what is wrong: the key (found by an adversarial run).
    changed = client.post(f"/g/{edit}/rounds", data=form_of({**ROUNDS[0], "doubles": []}, number="1", client_key=KEY))
    html = changed.get_data(as_text=True)
    assert changed.status_code == 422
    assert "this idempotency key was already used for a different round" in html
    assert "already declared" not in html
    # A retry from the outbox carries the page's CSRF token of now: the same request still.
    again = client.post(f"/g/{edit}/rounds", data=form_of(ROUNDS[0], number="1", client_key=KEY, csrf_token="x"))
    assert again.status_code == 303
    assert stored_rounds(app, game_id) == [(1, "no-last-two", KEY)]


def test_a_key_stored_before_digests_matches_its_retry(app, client):
    # Rounds saved before the digest was kept have none: their retries are still replays.
    game_id, edit = import_game(app)
    headers = {**auth(edit), "Idempotency-Key": KEY}
    client.post(f"/api/v1/games/{game_id}/rounds", json=ROUNDS[0], headers=headers)
    with app.app_context():
        db.session.execute(StoredRound.__table__.update().values(key_digest=None))
        db.session.commit()
    again = client.post(f"/api/v1/games/{game_id}/rounds", json=ROUNDS[0], headers=headers)
    assert again.status_code == 200 and again.headers["Idempotent-Replayed"] == "true"


def test_the_service_worker_keeps_pages_in_a_cache_no_version_renames(app, client):
    """Issue 11: the pages cache is named once for all versions; only the static one has the version."""
    import re

    sw = client.get("/sw.js").get_data(as_text=True)
    version = re.search(r'const VERSION = "(\w+)";', sw).group(1)
    assert 'const PAGE_CACHE = "pages";' in sw
    assert 'const STATIC_CACHE = "static-" + VERSION;' in sw and len(version) == 10
    # Taking over, the new worker deletes every cache but these two (after copying what it keeps).
    assert ".filter((key) => key !== STATIC_CACHE && key !== PAGE_CACHE)" in sw
