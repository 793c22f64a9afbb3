"""Adversarial checks of confirmation and history (issue 15, club-format.md "Trust"): saves
that change nothing, as the scorer's form and the API send them.

A round's ``doubles`` are a set of ``[doubler, doubled]`` pairs (game-format.md "Round": each
pair at most once; their order means nothing), so a save that only lists them in another order
changes nothing: the round keeps its status and the history gets no entry.
"""

import json
from pathlib import Path

import pytest
from sqlalchemy import event
from sqlalchemy.orm import Session

from scorepad.extensions import db
from scorepad.models import StoredGame
from scorepad.scoring.trust import replay
from scorepad.services import rounds
from tests.test_api import API, NEW_GAME, WORKED_NO_QUEENS, auth
from tests.test_rounds import form_of, opened


def started(client) -> dict:
    """A game whose round 1 (WORKED_NO_QUEENS, doubles not in grid order) the witness confirmed."""
    game = client.post(f"{API}/games", json=NEW_GAME).json
    assert (
        client.post(
            f"{API}/games/{game['id']}/rounds", json=WORKED_NO_QUEENS, headers=auth(game["edit_token"])
        ).status_code
        == 201
    )
    assert (
        client.post(f"{API}/games/{game['id']}/rounds/1/confirm", headers=auth(game["confirm_token"])).status_code
        == 200
    )
    return game


def trail(client, game: dict) -> tuple[list[str], list[tuple[str, str]]]:
    """Each round's status and the history's (action, by), read with the view token."""
    doc = client.get(f"{API}/games/{game['id']}", headers=auth(game["view_token"])).json
    return [r["status"] for r in doc["rounds"]], [(e["action"], e["by"]) for e in doc["history"]]


# By hand: recorded (scorer), confirmed (witness); nothing after, so round 1 stays confirmed.
UNCHANGED = (["confirmed"], [("record", "scorer"), ("confirm", "witness")])


def test_saving_the_edit_form_unchanged_keeps_a_confirmed_round_confirmed(client):
    game = started(client)
    edit = game["edit_token"]
    # The form posts the ticked doubles in grid order: [0,2], [1,0], [1,2], [1,3], [2,0].
    data = {**form_of(WORKED_NO_QUEENS), "based_on": opened(client, edit, 1)}
    assert client.post(f"/g/{edit}/rounds/1/edit", data=data).status_code == 303
    assert trail(client, game) == UNCHANGED


def test_a_put_listing_the_same_doubles_in_another_order_changes_nothing(client):
    game = started(client)
    same = {**WORKED_NO_QUEENS, "doubles": [[0, 2], [2, 0], [1, 3], [1, 2], [1, 0]]}
    response = client.put(f"{API}/games/{game['id']}/rounds/1", json=same, headers=auth(game["edit_token"]))
    assert response.status_code == 200
    assert response.json["status"] == "confirmed"
    assert trail(client, game) == UNCHANGED


def test_a_confirm_whose_round_another_phone_undoes_right_after_its_commit_still_answers(app, client):
    """The witness's confirm commits; before its answer is written, the scorer's phone undoes the
    round (a real undo, in its own app context and database session, run the moment the
    confirm's transaction commits). The confirm was stored, so it answers 200 with the round as
    confirmed, not a 500 from reading back a round that is gone. The history then says both, in
    order: recorded, confirmed (witness), undone (scorer)."""
    game = client.post(f"{API}/games", json=NEW_GAME).json
    edit = auth(game["edit_token"])
    assert client.post(f"{API}/games/{game['id']}/rounds", json=WORKED_NO_QUEENS, headers=edit).status_code == 201

    undone = []

    def undo_once(session):
        if undone:
            return
        undone.append(True)
        with app.app_context():
            rounds.undo_round(db.session.get(StoredGame, game["id"]), 1)
            db.session.remove()

    event.listen(Session, "after_commit", undo_once)
    try:
        response = client.post(f"{API}/games/{game['id']}/rounds/1/confirm", headers=auth(game["confirm_token"]))
    finally:
        event.remove(Session, "after_commit", undo_once)
    assert response.status_code == 200, response.get_data(as_text=True)
    # The round as confirmed: WORKED_NO_QUEENS, number 1; its settlement from test_api's worked example.
    assert response.json["status"] == "confirmed"
    assert response.json["number"] == 1 and response.json["outcome"] == {"queens": [1, 0, 1, 2]}
    assert response.json["result"]["doubles"] == [-6, 24, -6, -12]
    history = client.get(f"{API}/games/{game['id']}/history", headers=edit).json
    assert [(e["action"], e["by"], e["round"]) for e in history] == [
        ("record", "scorer", 1),
        ("confirm", "witness", 1),
        ("undo", "scorer", 1),
    ]


def test_saving_a_ravage_city_round_unchanged_keeps_it_confirmed(client):
    """Ravage City's ``outcome.most`` is a set of seats too: recorded through the API as
    ``[2, 0]`` (Cath and Anne took the most cards of one suit), the scorer's form posts its
    ticked boxes in seat order (Anne, then Cath). Saving it unchanged changes nothing."""
    game = client.post(f"{API}/games", json={**NEW_GAME, "preset": "ravage-city"}).json
    ravage = {"contract": "ravage-city", "doubles": [[1, 0]], "outcome": {"most": [2, 0]}}
    response = client.post(f"{API}/games/{game['id']}/rounds", json=ravage, headers=auth(game["edit_token"]))
    assert response.status_code == 201, response.json
    assert (
        client.post(f"{API}/games/{game['id']}/rounds/1/confirm", headers=auth(game["confirm_token"])).status_code
        == 200
    )
    edit = game["edit_token"]
    data = {"contract": "ravage-city", "doubles": ["1-0"], "most": ["0", "2"], "based_on": opened(client, edit, 1)}
    assert client.post(f"/g/{edit}/rounds/1/edit", data=data).status_code == 303
    assert trail(client, game) == UNCHANGED


# replay's promise (scoring/trust.py): ValueError naming the entry whenever the history does
# not add up, so a tool replaying an exported (possibly edited) history catches one exception.
QUEENS = {"contract": "no-queens", "doubles": [[1, 0]], "outcome": {"queens": [1, 0, 1, 2]}}
MALFORMED = [
    [{"action": "record", "round": 1, "after": None}],  # a record without its round
    [{"action": "record", "round": 1}],
    [{"action": "record", "round": 1, "after": ["no-queens"]}],
    [{"action": "record", "round": 1, "after": QUEENS}, {"action": "edit", "round": 1, "after": None}],
    [{"action": "import", "round": None, "after": {"rounds": 5}}],
    [{"action": "import", "round": None, "after": {"rounds": [5]}}],
    [{"action": "import", "round": None, "after": "rounds"}],
    ["record"],  # an entry that is not an object
]


@pytest.mark.parametrize("entries", MALFORMED)
def test_replaying_a_malformed_history_is_a_value_error(entries):
    with pytest.raises(ValueError, match="history entry 0|history entry 1"):
        replay(entries)


def test_a_retried_save_answers_the_rounds_status_as_it_is_now(client):
    """A save retried with its idempotency key after the witness disputed the round (its first
    answer was lost) answers the stored round: 200, replayed, and ``disputed``, as GET says,
    not the ``provisional`` of a round just recorded."""
    game = client.post(f"{API}/games", json=NEW_GAME).json
    save = {**auth(game["edit_token"]), "Idempotency-Key": "retry-key-0001"}
    first = client.post(f"{API}/games/{game['id']}/rounds", json=WORKED_NO_QUEENS, headers=save)
    assert first.status_code == 201 and first.json["status"] == "provisional"
    witness = auth(game["confirm_token"])
    assert (
        client.post(f"{API}/games/{game['id']}/rounds/1/dispute", json={"note": "x"}, headers=witness).status_code
        == 200
    )
    again = client.post(f"{API}/games/{game['id']}/rounds", json=WORKED_NO_QUEENS, headers=save)
    assert again.status_code == 200 and again.headers["Idempotent-Replayed"] == "true"
    assert again.json["status"] == "disputed"
    assert trail(client, game) == (["disputed"], [("record", "scorer"), ("dispute", "witness")])


def test_the_rematch_answered_again_carries_its_rounds_statuses(client):
    """A game played again answers a second rematch with that same game (200): its export says
    each round's status as stored, as GET does; here round 1, confirmed by the witness."""
    full = json.loads((Path(__file__).parent / "data" / "examples" / "tournament-full.json").read_text())["game"]
    old = client.post(f"{API}/games", json=full).json
    new = client.post(f"{API}/games/{old['id']}/rematch", headers=auth(old["edit_token"])).json
    # Any first round of the rematch: No Queens undoubled, one queen each (4 in all).
    first = {"contract": "no-queens", "doubles": [], "outcome": {"queens": [1, 1, 1, 1]}}
    assert (
        client.post(f"{API}/games/{new['id']}/rounds", json=first, headers=auth(new["edit_token"])).status_code == 201
    )
    assert (
        client.post(f"{API}/games/{new['id']}/rounds/1/confirm", headers=auth(new["confirm_token"])).status_code == 200
    )
    again = client.post(f"{API}/games/{old['id']}/rematch", headers=auth(old["edit_token"]))
    assert again.status_code == 200 and again.json["id"] == new["id"]
    assert [r["status"] for r in again.json["game"]["rounds"]] == ["confirmed"]
