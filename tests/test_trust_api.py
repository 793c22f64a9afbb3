"""Confirmation and history through the API (club-format.md "Trust: confirmation and
history"): the confirm token and its roles, round statuses, the history's entries.

Expected statuses and history entries are worked by hand from the spec's rules in the
comments; the round objects are the ones sent.
"""

import pytest
from sqlalchemy import func, select

from scorepad.extensions import db
from scorepad.models import StoredHistory, StoredRound
from tests.test_api import (
    API,
    NEW_GAME,
    TOKEN,
    WORKED_NO_QUEENS,
    assert_refused,
    auth,
    create,
    delete_round,
    fetch,
    post_round,
    put_round,
)

# Round 2 of a tournament game, Anne still declaring: No Hearts, Beth doubles Anne; hearts
# taken Anne 2, Beth 5, Cath 3, Diana 3 (13 in all), the ace by Beth.
NO_HEARTS = {"contract": "no-hearts", "doubles": [[1, 0]], "outcome": {"hearts": [2, 5, 3, 3], "ace": 1}}
# The same round with the ace of hearts taken by Cath instead of Beth.
NO_HEARTS_EDITED = {"contract": "no-hearts", "doubles": [[1, 0]], "outcome": {"hearts": [2, 5, 3, 3], "ace": 2}}


def confirm(client, game: dict, number: int, token: str | None = None, **kwargs):
    return client.post(
        f"{API}/games/{game['id']}/rounds/{number}/confirm", headers=auth(token or game["confirm_token"]), **kwargs
    )


def dispute(client, game: dict, number: int, note: str | None = "Beth took the ace", token: str | None = None, **kw):
    body = {} if note is None else {"note": note}
    return client.post(
        f"{API}/games/{game['id']}/rounds/{number}/dispute",
        headers=auth(token or game["confirm_token"]),
        json=body,
        **kw,
    )


def history(client, game: dict, token: str | None = None) -> list[dict]:
    response = client.get(f"{API}/games/{game['id']}/history", headers=auth(token or game["view_token"]))
    assert response.status_code == 200, response.json
    return response.json


def statuses(client, game: dict) -> list[str]:
    return [rnd["status"] for rnd in fetch(client, game)["rounds"]]


def brief(entries: list[dict]) -> list[tuple]:
    """Each entry's action, round, role and note: what the hand-worked lists below compare."""
    return [(e["action"], e["round"], e["by"], e["note"]) for e in entries]


@pytest.fixture
def game(client) -> dict:
    """A tournament game with round 1 the worked No Queens example and round 2 NO_HEARTS."""
    created = create(client, NEW_GAME)
    for doc in (WORKED_NO_QUEENS, NO_HEARTS):
        assert post_round(client, created, doc).status_code == 201
    return created


def test_a_new_game_answers_a_third_token_for_the_witness(client):
    created = create(client, NEW_GAME)
    tokens = {created["edit_token"], created["view_token"], created["confirm_token"]}
    assert len(tokens) == 3 and all(TOKEN.fullmatch(t) for t in tokens)
    assert created["game"]["confirmation"] == "optional"  # the default


def test_new_rounds_are_provisional_and_the_witness_confirms_and_disputes(client, game):
    assert statuses(client, game) == ["provisional", "provisional"]

    response = confirm(client, game, 1)
    assert response.status_code == 200, response.json
    assert response.json["status"] == "confirmed" and response.json["number"] == 1
    assert response.json["outcome"] == WORKED_NO_QUEENS["outcome"]
    response = dispute(client, game, 2)
    assert response.status_code == 200, response.json
    assert response.json["status"] == "disputed"
    assert statuses(client, game) == ["confirmed", "disputed"]

    # record 1, record 2, confirm 1, dispute 2: by the scorer twice, then the witness twice.
    assert brief(history(client, game)) == [
        ("record", 1, "scorer", None),
        ("record", 2, "scorer", None),
        ("confirm", 1, "witness", None),
        ("dispute", 2, "witness", "Beth took the ace"),
    ]


def test_confirming_a_confirmed_round_changes_nothing(client, game):
    assert confirm(client, game, 1).status_code == 200
    again = confirm(client, game, 1)
    assert again.status_code == 200 and again.json["status"] == "confirmed"
    assert [e["action"] for e in history(client, game)] == ["record", "record", "confirm"]


def test_editing_a_checked_round_makes_it_provisional_again_and_records_before_and_after(client, game):
    assert dispute(client, game, 2).status_code == 200
    response = put_round(client, game, 2, NO_HEARTS_EDITED)
    assert response.status_code == 200 and response.json["status"] == "provisional"
    assert statuses(client, game) == ["provisional", "provisional"]
    edit = history(client, game)[-1]
    assert (edit["action"], edit["round"], edit["by"]) == ("edit", 2, "scorer")
    assert edit["before"] == NO_HEARTS and edit["after"] == NO_HEARTS_EDITED

    assert confirm(client, game, 2).status_code == 200  # the witness checks the new version
    assert statuses(client, game) == ["provisional", "confirmed"]


def test_a_put_that_changes_nothing_changes_no_status_and_writes_no_history(client, game):
    assert confirm(client, game, 2).status_code == 200
    before = history(client, game)
    response = put_round(client, game, 2, NO_HEARTS)
    assert response.status_code == 200 and response.json["status"] == "confirmed"
    assert statuses(client, game) == ["provisional", "confirmed"]
    assert history(client, game) == before


def test_undo_and_edit_never_shorten_the_history(client, game):
    assert put_round(client, game, 2, NO_HEARTS_EDITED).status_code == 200
    assert delete_round(client, game, 2).status_code == 204
    entries = history(client, game)
    assert brief(entries) == [
        ("record", 1, "scorer", None),
        ("record", 2, "scorer", None),
        ("edit", 2, "scorer", None),
        ("undo", 2, "scorer", None),
    ]
    assert entries[-1]["before"] == NO_HEARTS_EDITED and entries[-1]["after"] is None
    assert entries[0]["before"] is None and entries[0]["after"] == WORKED_NO_QUEENS
    assert all(e["at"].endswith("Z") and len(e["at"]) == len("2026-12-03T20:14:05Z") for e in entries)


def test_every_token_but_the_confirm_token_is_refused_on_confirm_and_dispute(client, game):
    for token in (game["edit_token"], game["view_token"]):
        assert_refused(confirm(client, game, 1, token=token), 403)
        assert_refused(dispute(client, game, 1, token=token), 403)
    other = create(client, NEW_GAME)
    for token in (other["edit_token"], other["view_token"], other["confirm_token"], "x" * 32):
        assert_refused(confirm(client, game, 1, token=token), 404)
        assert_refused(dispute(client, game, 1, token=token), 404)
    assert_refused(client.post(f"{API}/games/{game['id']}/rounds/1/confirm"), 401)
    assert statuses(client, game) == ["provisional", "provisional"]  # nothing changed


def test_the_confirm_token_cannot_write_rounds(client, game):
    assert_refused(post_round(client, game, NO_HEARTS, token=game["confirm_token"]), 403)
    assert_refused(put_round(client, game, 1, WORKED_NO_QUEENS, token=game["confirm_token"]), 403)
    assert_refused(delete_round(client, game, 2, token=game["confirm_token"]), 403)


def test_a_round_that_does_not_exist_is_404(client, game):
    assert_refused(confirm(client, game, 3), 404)
    assert_refused(dispute(client, game, 0), 404)


def test_with_confirmation_off_checks_are_refused_and_every_round_exports_confirmed(client):
    created = create(client, {**NEW_GAME, "confirmation": "off"})
    assert post_round(client, created, WORKED_NO_QUEENS).json["status"] == "confirmed"
    assert_refused(confirm(client, created, 1), 409)
    assert_refused(dispute(client, created, 1), 409)
    document = fetch(client, created)
    assert document["confirmation"] == "off" and [r["status"] for r in document["rounds"]] == ["confirmed"]
    assert [e["action"] for e in history(client, created)] == ["record"]


def test_a_bad_confirmation_or_note_names_the_field_and_stores_nothing(client, game):
    assert_refused(client.post(f"{API}/games", json={**NEW_GAME, "confirmation": "always"}), 422, "confirmation")
    assert_refused(dispute(client, game, 1, note="x" * 201), 422, "note")
    assert_refused(dispute(client, game, 1, note=5), 422, "note")
    assert_refused(confirm(client, game, 1, json={"note": "fine"}), 422, "note")
    assert_refused(confirm(client, game, 1, json={"status": "confirmed"}), 422, "status")
    assert statuses(client, game) == ["provisional", "provisional"]
    assert len(history(client, game)) == 2


def test_a_dispute_may_come_without_a_note(client, game):
    response = dispute(client, game, 1, note=None)
    assert response.status_code == 200 and response.json["status"] == "disputed"
    assert history(client, game)[-1]["note"] is None


def test_a_round_changed_since_the_witness_saw_it_is_412(client, game):
    etag = put_round(client, game, 2, NO_HEARTS_EDITED).headers["ETag"].strip('"')
    assert_refused(_confirm_if(client, game, "0" * 16), 412)
    response = _confirm_if(client, game, etag)
    assert response.status_code == 200 and response.json["status"] == "confirmed"


def _confirm_if(client, game: dict, etag: str):
    headers = {**auth(game["confirm_token"]), "If-Match": f'"{etag}"'}
    return client.post(f"{API}/games/{game['id']}/rounds/2/confirm", headers=headers)


def test_the_history_answers_the_edit_view_and_confirm_tokens_only(client, game):
    assert len(history(client, game, game["edit_token"])) == 2
    assert len(history(client, game, game["confirm_token"])) == 2
    other = create(client, NEW_GAME)
    response = client.get(f"{API}/games/{game['id']}/history", headers=auth(other["view_token"]))
    assert_refused(response, 404)


def test_an_import_starts_the_history_with_its_rounds_all_provisional(client):
    # A scorer cannot import checked rounds: the statuses sent are ignored.
    document = {**NEW_GAME, "rounds": [{**WORKED_NO_QUEENS, "status": "confirmed"}, NO_HEARTS]}
    created = create(client, document)
    assert [r["status"] for r in created["game"]["rounds"]] == ["provisional", "provisional"]
    entries = history(client, created)
    assert brief(entries) == [("import", None, "scorer", None)]
    assert entries[0]["after"] == {"rounds": [WORKED_NO_QUEENS, NO_HEARTS]}


def test_a_history_row_is_written_with_its_change_and_never_without(app, client, game):
    # A refused save (round 3 declaring a contract Anne already played) stores neither.
    assert_refused(post_round(client, game, WORKED_NO_QUEENS), 422)
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(StoredRound)) == 2
        assert db.session.scalar(select(func.count()).select_from(StoredHistory)) == 2


def test_a_closed_night_refuses_confirm_and_dispute_and_records_close_and_reopen(client):
    night = client.post(
        f"{API}/events",
        json={
            "format": "barbu-scorepad/event@1",
            "date": "2026-12-03",
            "preset": "tournament",
            "sessions": 1,
            "ranking": "points",
            "players": ["Anne", "Beth", "Cath", "Diana"],
        },
    )
    assert night.status_code == 201, night.json
    table = night.json["sessions"][0]["tables"][0]
    game = {"id": table["game_id"], "edit_token": table["edit_token"], "confirm_token": table["confirm_token"]}
    # The night draws who declares first: a round that fits any declarer (nobody doubles).
    undoubled = {"contract": "no-queens", "doubles": [], "outcome": {"queens": [1, 0, 1, 2]}}
    assert post_round(client, game, undoubled).status_code == 201
    director = auth(night.json["director_token"])
    assert client.post(f"{API}/events/{night.json['id']}/close", headers=director).status_code == 200
    assert_refused(confirm(client, game, 1), 409)
    assert_refused(dispute(client, game, 1), 409)
    assert client.post(f"{API}/events/{night.json['id']}/reopen", headers=director).status_code == 200
    assert confirm(client, game, 1).status_code == 200
    assert brief(history(client, game, game["edit_token"])) == [
        ("record", 1, "scorer", None),
        ("close", None, "director", None),
        ("reopen", None, "director", None),
        ("confirm", 1, "witness", None),
    ]
