"""The JSON API /api/v1 (shared/spec/game-format.md): games and rounds, authorised by a
game's edit or view token.

Expected values come from the examples' `expected` (tests/data/examples/) or are worked
out by hand in the comments, never from the code under test.
"""

import copy
import json
import re
from pathlib import Path

import pytest
from sqlalchemy import func, select

from scorepad.extensions import db
from scorepad.models import StoredGame

EXAMPLES = sorted((Path(__file__).parent / "data" / "examples").glob("*.json"))
API = "/api/v1"
TOKEN = re.compile(r"[A-Za-z0-9_-]{22,}")  # URL-safe base64, at least 128 bits

NEW_GAME = {
    "format": "barbu-scorepad/game@1",
    "title": "Thursday, table 2",
    "players": ["Anne", "Beth", "Cath", "Diana"],
    "first_declarer": 0,
    "preset": "tournament",
}

# barbu-rules.md, worked example: Anne declares No Queens; Anne -6, Beth 0, Cath -6,
# Diana -12. Beth doubled all three, Cath doubled Anne, Anne redoubled Cath.
WORKED_NO_QUEENS = {
    "contract": "no-queens",
    "doubles": [[1, 0], [1, 2], [1, 3], [2, 0], [0, 2]],
    "outcome": {"queens": [1, 0, 1, 2]},
}
WORKED_RAW = [-6, 0, -6, -12]
WORKED_DOUBLES = [-6, 24, -6, -12]
WORKED_TOTAL = [-12, 24, -12, -24]


# ---------------------------------------------------------------- helpers


def load(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def auth(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def create(client, document: dict) -> dict:
    response = client.post(f"{API}/games", json=document)
    assert response.status_code == 201, response.json
    return response.json


def fetch(client, game: dict, token: str | None = None) -> dict:
    response = client.get(f"{API}/games/{game['id']}", headers=auth(token or game["edit_token"]))
    assert response.status_code == 200, response.json
    return response.json


def post_round(client, game: dict, round_doc: dict, token: str | None = None):
    return client.post(f"{API}/games/{game['id']}/rounds", json=round_doc, headers=auth(token or game["edit_token"]))


def put_round(client, game: dict, number: int, round_doc: dict, token: str | None = None):
    return client.put(
        f"{API}/games/{game['id']}/rounds/{number}", json=round_doc, headers=auth(token or game["edit_token"])
    )


def delete_round(client, game: dict, number: int, token: str | None = None):
    return client.delete(f"{API}/games/{game['id']}/rounds/{number}", headers=auth(token or game["edit_token"]))


def results(document: dict) -> list[dict]:
    """Each round's number, declarer and result, in the shape of an example's `expected`."""
    return [{key: rnd[key] for key in ("number", "declarer", "result")} for rnd in document["rounds"]]


def recorded(document: dict) -> list[dict]:
    """What was recorded at the table for each round (no results)."""
    keys = ("contract", "doubles", "outcome", "trump", "start_rank")
    return [{key: rnd[key] for key in keys if key in rnd} for rnd in document["rounds"]]


def game_count(app) -> int:
    with app.app_context():
        return db.session.scalar(select(func.count()).select_from(StoredGame))


def assert_refused(response, status: int, path: str | None = None) -> None:
    assert response.status_code == status, response.json
    assert set(response.json) == {"error", "path"}
    assert isinstance(response.json["error"], str) and response.json["error"]
    if path is not None:
        assert response.json["path"] == path


@pytest.fixture(params=EXAMPLES, ids=[p.stem for p in EXAMPLES])
def example(request) -> dict:
    return load(request.param)


@pytest.fixture
def tournament_full() -> dict:
    return load(Path(__file__).parent / "data" / "examples" / "tournament-full.json")


@pytest.fixture
def game(client) -> dict:
    """A tournament game (Anne declares first) with round 1 the worked No Queens example."""
    created = create(client, NEW_GAME)
    assert post_round(client, created, WORKED_NO_QUEENS).status_code == 201
    return created


def test_the_examples_are_there():
    assert {p.name for p in EXAMPLES} >= {
        "tournament-full.json",
        "house-rules.json",
        "brader-32-card.json",
        "french-classic.json",
    }


# ---------------------------------------------------------------- replaying the examples


def test_an_imported_game_reads_back_with_the_expected_results(client, example):
    created = create(client, example["game"])
    assert results(created["game"]) == example["expected"]["rounds"]
    assert created["game"]["standings"] == example["expected"]["standings"]

    for token in (created["edit_token"], created["view_token"]):
        got = fetch(client, created, token)
        assert results(got) == example["expected"]["rounds"]
        assert got["standings"] == example["expected"]["standings"]
        assert recorded(got) == [{k: v for k, v in rnd.items() if k != "declarer"} for rnd in example["game"]["rounds"]]
        assert got["players"] == example["game"]["players"]


def test_a_game_recorded_round_by_round_gives_the_expected_results(client, example):
    document = {k: v for k, v in example["game"].items() if k != "rounds"}
    created = create(client, document)
    assert created["game"]["rounds"] == []
    assert created["game"]["standings"]["rounds_played"] == 0

    for i, (round_doc, expected) in enumerate(
        zip(example["game"]["rounds"], example["expected"]["rounds"], strict=True)
    ):
        body = dict(round_doc)
        if i % 2:  # every other round says which number (and declarer) it is meant to be
            body.update(number=expected["number"], declarer=expected["declarer"])
        response = post_round(client, created, body)
        assert response.status_code == 201, (i, response.json)
        assert response.json["number"] == expected["number"]
        assert response.json["declarer"] == expected["declarer"]
        assert response.json["result"] == expected["result"]
        assert response.json["standings"]["rounds_played"] == i + 1

    got = fetch(client, created, created["view_token"])
    assert got["standings"] == example["expected"]["standings"]
    assert results(got) == example["expected"]["rounds"]


# ---------------------------------------------------------------- creating a game


def test_creating_a_game_answers_201_with_tokens_and_absolute_links(client):
    response = client.post(f"{API}/games", json=NEW_GAME)
    assert response.status_code == 201
    body = response.json
    assert isinstance(body["id"], int)
    assert TOKEN.fullmatch(body["edit_token"])
    assert TOKEN.fullmatch(body["view_token"])
    assert body["edit_token"] != body["view_token"]
    assert body["links"]["api"] == f"http://localhost/api/v1/games/{body['id']}"
    assert body["links"]["scorer"].startswith("http://localhost/")
    assert body["edit_token"] in body["links"]["scorer"]
    assert response.headers["Location"] == body["links"]["api"]


def test_the_api_link_opens_the_game(client):
    created = create(client, NEW_GAME)
    response = client.get(created["links"]["api"], headers=auth(created["view_token"]))
    assert response.status_code == 200
    assert response.json["players"] == NEW_GAME["players"]
    assert response.json["title"] == NEW_GAME["title"]


def test_a_new_game_starts_with_the_first_declarer_and_all_contracts_left(client):
    got = fetch(client, create(client, {**NEW_GAME, "first_declarer": 2}))
    assert got["rounds"] == []
    standings = got["standings"]
    assert standings["totals"] == [0, 0, 0, 0]
    assert standings["rank"] == [1, 1, 1, 1]
    assert standings["complete"] is False
    assert standings["rounds_total"] == 28
    # Cath (seat 2) declares; the declarer chooses, so her right-hand neighbour Beth deals.
    assert standings["next"] == {
        "number": 1,
        "declarer": 2,
        "dealer": 1,
        "contracts_left": [
            "no-tricks",
            "no-queens",
            "no-last-two",
            "no-hearts",
            "no-king-of-hearts",
            "trumps",
            "domino",
        ],
    }


def test_every_game_gets_its_own_tokens(client):
    a, b = create(client, NEW_GAME), create(client, NEW_GAME)
    assert a["id"] != b["id"]
    assert len({a["edit_token"], a["view_token"], b["edit_token"], b["view_token"]}) == 4


def test_player_names_are_trimmed_and_may_be_any_unicode_up_to_40_characters(client):
    names = ["  Élodie ", "Zoë", "李小龍", "x" * 40]
    got = fetch(client, create(client, {**NEW_GAME, "players": names}))
    assert got["players"] == ["Élodie", "Zoë", "李小龍", "x" * 40]


@pytest.mark.parametrize(
    "change, path",
    [
        ({"players": ["Anne", "Beth", "anne", "Diana"]}, "players[2]"),
        ({"players": ["Anne", "", "Cath", "Diana"]}, "players[1]"),
        ({"players": ["Anne", "Beth", "   ", "Diana"]}, "players[2]"),
        ({"players": ["Anne", "Beth", "Cath", "D" * 41]}, "players[3]"),
        ({"players": ["Anne", "Beth", "Cath"]}, "players"),
        ({"preset": "whist"}, "preset"),
        ({"first_declarer": 4}, "first_declarer"),
        ({"title": "t" * 81}, "title"),
    ],
    ids=[
        "duplicate-name",
        "empty-name",
        "blank-name",
        "name-too-long",
        "three-players",
        "unknown-preset",
        "first-declarer-out-of-range",
        "title-too-long",
    ],
)
def test_an_invalid_game_is_refused_with_422_and_not_stored(app, client, change, path):
    response = client.post(f"{API}/games", json={**NEW_GAME, **change})
    assert_refused(response, 422, path)
    assert game_count(app) == 0


def test_a_malformed_json_body_is_refused_with_422(app, client):
    response = client.post(f"{API}/games", data='{"players": [', content_type="application/json")
    assert_refused(response, 422)
    assert game_count(app) == 0


def test_an_import_with_one_bad_round_stores_nothing(app, client, tournament_full):
    document = copy.deepcopy(tournament_full["game"])
    document["rounds"][5]["outcome"] = {"tricks": [1, 2, 4, 5]}  # round 6, trumps: 12 tricks
    response = client.post(f"{API}/games", json=document)
    assert_refused(response, 422, "rounds[5].outcome.tricks")
    assert game_count(app) == 0


# ---------------------------------------------------------------- recording rounds


def test_a_recorded_round_is_settled_pairwise(client):
    created = create(client, NEW_GAME)
    response = post_round(client, created, {**WORKED_NO_QUEENS, "number": 1})
    assert response.status_code == 201
    assert response.json["number"] == 1
    assert response.json["declarer"] == 0
    assert response.json["result"] == {
        "raw": WORKED_RAW,
        "doubles": WORKED_DOUBLES,
        "total": WORKED_TOTAL,
        "running": WORKED_TOTAL,
        "played": True,
    }
    standings = response.json["standings"]
    assert standings["rounds_played"] == 1
    assert standings["rank"] == [2, 1, 2, 4]
    assert standings["quota_given"] == [[0, 1, 1, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]]
    assert standings["next"]["number"] == 2
    assert standings["next"]["declarer"] == 0
    assert "no-queens" not in standings["next"]["contracts_left"]


@pytest.mark.parametrize(
    "round_doc, path",
    [
        ({"contract": "no-tricks", "doubles": [], "outcome": {"tricks": [4, 3, 3, 2]}}, "outcome.tricks"),
        ({"contract": "no-queens", "doubles": [], "outcome": {"queens": [1, 1, 1, 1]}}, "contract"),
        ({"contract": "barbu", "doubles": [], "outcome": {"king": 1}}, "contract"),
        ({"doubles": [], "outcome": {"king": 1}}, "contract"),
        ({"contract": "trumps", "doubles": [[1, 2]], "outcome": {"tricks": [4, 3, 3, 3]}}, "doubles[0]"),
        ({"contract": "no-tricks", "doubles": [[1, 1]], "outcome": {"tricks": [4, 3, 3, 3]}}, "doubles[0]"),
        ({"contract": "no-tricks", "doubles": [[0, 1]], "outcome": {"tricks": [4, 3, 3, 3]}}, "doubles[0]"),
        ({"contract": "no-tricks", "doubles": [[1, 4]], "outcome": {"tricks": [4, 3, 3, 3]}}, "doubles[0]"),
        ({"contract": "no-king-of-hearts", "doubles": [], "outcome": {"king": 4}}, "outcome.king"),
        ({"contract": "no-hearts", "doubles": []}, "outcome"),
        ({"contract": "no-king-of-hearts", "declarer": 1, "doubles": [], "outcome": {"king": 1}}, "declarer"),
    ],
    ids=[
        "tricks-not-adding-up",
        "contract-already-declared",
        "unknown-contract",
        "no-contract",
        "opponent-doubled-in-trumps",
        "double-oneself",
        "redouble-without-double",
        "doubled-seat-out-of-range",
        "outcome-seat-out-of-range",
        "missing-outcome",
        "wrong-declarer",
    ],
)
def test_an_invalid_round_is_refused_with_422_and_nothing_changes(client, game, round_doc, path):
    before = fetch(client, game)
    assert_refused(post_round(client, game, round_doc), 422, path)
    assert fetch(client, game) == before
    assert before["standings"]["rounds_played"] == 1


def test_a_malformed_round_body_is_refused_with_422(client, game):
    before = fetch(client, game)
    response = client.post(
        f"{API}/games/{game['id']}/rounds",
        data="{contract: no-tricks}",
        content_type="application/json",
        headers=auth(game["edit_token"]),
    )
    assert_refused(response, 422)
    assert fetch(client, game) == before


@pytest.mark.parametrize("number", [1, 3, 0])
def test_a_round_with_a_number_other_than_the_next_is_refused_with_409(client, game, number):
    before = fetch(client, game)
    round_doc = {"contract": "no-king-of-hearts", "doubles": [], "outcome": {"king": 1}, "number": number}
    assert_refused(post_round(client, game, round_doc), 409)
    assert fetch(client, game) == before


def test_a_round_number_that_is_not_a_whole_number_is_refused(client, game):
    round_doc = {"contract": "no-king-of-hearts", "doubles": [], "outcome": {"king": 1}, "number": "2"}
    assert_refused(post_round(client, game, round_doc), 422, "number")
    assert fetch(client, game)["standings"]["rounds_played"] == 1


def test_no_round_can_be_added_to_a_complete_game(client, tournament_full):
    created = create(client, tournament_full["game"])
    before = fetch(client, created)
    assert before["standings"]["complete"] is True
    assert before["standings"]["next"] is None
    for body in (WORKED_NO_QUEENS, {**WORKED_NO_QUEENS, "number": 29}):
        assert_refused(post_round(client, created, body), 409)
    assert fetch(client, created) == before


# ---------------------------------------------------------------- authorisation


def test_the_view_token_reads_but_cannot_write(client, game):
    before = fetch(client, game, game["view_token"])
    view = game["view_token"]
    next_round = {"contract": "no-king-of-hearts", "doubles": [], "outcome": {"king": 1}}
    assert_refused(post_round(client, game, next_round, view), 403)
    assert_refused(put_round(client, game, 1, WORKED_NO_QUEENS, view), 403)
    assert_refused(delete_round(client, game, 1, view), 403)
    assert fetch(client, game) == before
    assert before["standings"]["rounds_played"] == 1


def test_an_unknown_game_is_404(client, game):
    assert_refused(client.get(f"{API}/games/{game['id'] + 1000}", headers=auth(game["edit_token"])), 404)
    assert_refused(post_round(client, {**game, "id": game["id"] + 1000}, WORKED_NO_QUEENS), 404)


def test_a_wrong_token_is_404_even_when_it_opens_another_game(client, game):
    other = create(client, NEW_GAME)
    before = fetch(client, game)
    url = f"{API}/games/{game['id']}"
    for token in (other["edit_token"], other["view_token"], "x" * 32, game["edit_token"][:-1]):
        assert_refused(client.get(url, headers=auth(token)), 404)
        assert_refused(
            post_round(client, game, {"contract": "no-king-of-hearts", "doubles": [], "outcome": {"king": 1}}, token),
            404,
        )
        assert_refused(delete_round(client, game, 1, token), 404)
    assert fetch(client, game) == before


def test_a_request_without_a_bearer_token_is_401(client, game):
    before = fetch(client, game)
    url = f"{API}/games/{game['id']}"
    assert_refused(client.get(url), 401)
    assert_refused(client.get(url, headers={"Authorization": game["edit_token"]}), 401)
    assert_refused(client.get(url, headers={"Authorization": "Bearer "}), 401)
    assert_refused(client.post(f"{url}/rounds", json=WORKED_NO_QUEENS), 401)
    assert_refused(client.put(f"{url}/rounds/1", json=WORKED_NO_QUEENS), 401)
    assert_refused(client.delete(f"{url}/rounds/1"), 401)
    assert fetch(client, game) == before


# ---------------------------------------------------------------- editing and undoing


@pytest.fixture
def three_rounds(client, game) -> dict:
    """Anne's run: 1 the worked No Queens, 2 King of Hearts to Diana, 3 Trumps."""
    assert (
        post_round(client, game, {"contract": "no-king-of-hearts", "doubles": [], "outcome": {"king": 3}}).status_code
        == 201
    )
    assert (
        post_round(
            client, game, {"contract": "trumps", "trump": "spades", "doubles": [], "outcome": {"tricks": [4, 3, 3, 3]}}
        ).status_code
        == 201
    )
    return game


def test_replacing_an_earlier_round_recomputes_the_later_running_totals(client, three_rounds):
    game = three_rounds
    # Before: 1 = [-12, 24, -12, -24]; 2 = King of Hearts to Diana [0, 0, 0, -20];
    # 3 = Trumps 4-3-3-3 at 5 a trick [20, 15, 15, 15].
    before = fetch(client, game)
    assert [r["result"]["running"] for r in before["rounds"]] == [
        [-12, 24, -12, -24],
        [-12, 24, -12, -44],
        [8, 39, 3, -29],
    ]

    # Round 1 again, same queens but nobody doubled: total = raw [-6, 0, -6, -12], so every
    # later running total moves by [+6, -24, +6, +12] (the doubles no longer settled).
    undoubled = {"contract": "no-queens", "doubles": [], "outcome": {"queens": [1, 0, 1, 2]}}
    response = put_round(client, game, 1, undoubled)
    assert response.status_code == 200, response.json
    assert response.json["number"] == 1
    assert response.json["result"] == {
        "raw": [-6, 0, -6, -12],
        "doubles": [0, 0, 0, 0],
        "total": [-6, 0, -6, -12],
        "running": [-6, 0, -6, -12],
        "played": True,
    }
    assert response.json["standings"]["totals"] == [14, 15, 9, -17]

    after = fetch(client, game)
    assert [r["result"]["running"] for r in after["rounds"]] == [[-6, 0, -6, -12], [-6, 0, -6, -32], [14, 15, 9, -17]]
    assert [r["result"]["total"] for r in after["rounds"][1:]] == [[0, 0, 0, -20], [20, 15, 15, 15]]
    assert after["standings"]["rank"] == [2, 1, 3, 4]
    assert after["standings"]["quota_given"][0] == [0, 0, 0, 0]
    assert recorded(after)[0] == undoubled


def test_a_round_may_be_replaced_by_a_contract_its_declarer_has_not_declared(client, three_rounds):
    game = three_rounds
    response = put_round(
        client, game, 2, {"contract": "no-tricks", "doubles": [], "number": 2, "outcome": {"tricks": [0, 13, 0, 0]}}
    )
    assert response.status_code == 200, response.json
    # Beth took all 13 tricks at -2: [0, -26, 0, 0]; running [-12, -2, -12, -24].
    assert response.json["result"]["running"] == [-12, -2, -12, -24]
    left = fetch(client, game)["standings"]["next"]["contracts_left"]
    assert left == ["no-last-two", "no-hearts", "no-king-of-hearts", "domino"]


def test_replacing_a_round_by_a_contract_declared_later_is_refused(client, three_rounds):
    game = three_rounds
    before = fetch(client, game)
    response = put_round(client, game, 1, {"contract": "trumps", "doubles": [], "outcome": {"tricks": [4, 3, 3, 3]}})
    assert_refused(response, 422, "contract")
    assert fetch(client, game) == before


@pytest.mark.parametrize(
    "round_doc, path",
    [
        ({"contract": "no-queens", "doubles": [], "outcome": {"queens": [1, 0, 1, 1]}}, "outcome.queens"),
        ({"contract": "no-queens", "doubles": [], "outcome": {"queens": [1, 0, 1, 2]}, "number": 2}, "number"),
    ],
    ids=["queens-not-adding-up", "number-differs-from-url"],
)
def test_an_invalid_replacement_is_refused_with_422_and_nothing_changes(client, three_rounds, round_doc, path):
    before = fetch(client, three_rounds)
    assert_refused(put_round(client, three_rounds, 1, round_doc), 422, path)
    assert fetch(client, three_rounds) == before


def test_only_the_last_round_can_be_deleted(client, three_rounds):
    game = three_rounds
    before = fetch(client, game)
    for number in (1, 2):
        assert_refused(delete_round(client, game, number), 409)
    assert fetch(client, game) == before


def test_deleting_the_last_round_undoes_it(client, three_rounds):
    game = three_rounds
    response = delete_round(client, game, 3)
    assert response.status_code == 204
    assert response.data == b""
    after = fetch(client, game)
    assert after["standings"]["rounds_played"] == 2
    assert after["standings"]["totals"] == [-12, 24, -12, -44]
    assert after["standings"]["next"]["number"] == 3
    assert "trumps" in after["standings"]["next"]["contracts_left"]
    # The undone round can be played again, differently.
    again = post_round(
        client, game, {"contract": "trumps", "doubles": [], "number": 3, "outcome": {"tricks": [13, 0, 0, 0]}}
    )
    assert again.status_code == 201
    assert again.json["result"]["running"] == [53, 24, -12, -44]


@pytest.mark.parametrize(("number", "put_status"), [(0, 404), (4, 409), (99, 404)])
def test_a_round_that_does_not_exist_cannot_be_replaced_or_deleted(client, three_rounds, number, put_status):
    """Round 4 of three is the one an edit/undo race leaves behind (issue 12): 409, as the
    edit form answers."""
    before = fetch(client, three_rounds)
    assert_refused(put_round(client, three_rounds, number, WORKED_NO_QUEENS), put_status)
    assert_refused(delete_round(client, three_rounds, number), 404)
    assert fetch(client, three_rounds) == before


def test_a_game_without_rounds_has_nothing_to_delete(client):
    created = create(client, NEW_GAME)
    assert_refused(delete_round(client, created, 1), 404)
    assert_refused(put_round(client, created, 1, WORKED_NO_QUEENS), 409)  # round 1 may have been undone
    assert fetch(client, created)["standings"]["rounds_played"] == 0


# ---------------------------------------------------------------- a save undone before its answer


@pytest.fixture
def undone_on_commit(app):
    """Another phone's undo landing between a save's commit and its answer: once, right after
    the next commit (or rollback), round ``number`` of game ``game`` is deleted through a connection of its own
    (as another worker's ``DELETE /rounds/<n>`` would). Set ``target["game"]``/``["number"]``."""
    from sqlalchemy import event, text
    from sqlalchemy.orm import Session

    target: dict = {}

    def undo_elsewhere(session):
        if target.pop("armed", False):
            with db.engine.begin() as other:
                other.execute(
                    text("DELETE FROM rounds WHERE game_id = :g AND number = :n"),
                    {"g": target["game"], "n": target["number"]},
                )

    event.listen(Session, "after_commit", undo_elsewhere)
    event.listen(Session, "after_rollback", undo_elsewhere)  # a replay ends its transaction so
    yield target
    event.remove(Session, "after_commit", undo_elsewhere)
    event.remove(Session, "after_rollback", undo_elsewhere)


def test_a_save_undone_by_another_phone_before_its_answer_is_still_answered(app, client, undone_on_commit):
    # Found by a race probe (a save, a put back and an undo at once): the answer re-read the
    # round after the commit, found it deleted and failed with a 500. The round was saved; the
    # answer says so (201, round 1 with the worked example's results) and its ETag is the one
    # the round had when saved, computed before the commit.
    created = client.post(f"{API}/games", json=NEW_GAME).get_json()
    undone_on_commit.update(game=created["id"], number=1, armed=True)
    response = client.post(
        f"{API}/games/{created['id']}/rounds", json=WORKED_NO_QUEENS, headers=auth(created["edit_token"])
    )
    assert response.status_code == 201
    body = response.get_json()
    assert body["number"] == 1
    assert body["result"]["raw"] == WORKED_RAW
    assert body["result"]["total"] == WORKED_TOTAL
    assert re.fullmatch(r'"[0-9a-f]{16}"', response.headers["ETag"])
    game = client.get(f"{API}/games/{created['id']}", headers=auth(created["view_token"])).get_json()
    assert game["rounds"] == []  # the other phone's undo stands


def test_an_edit_undone_by_another_phone_before_its_answer_is_still_answered(app, client, undone_on_commit):
    # The same for PUT: round 1 replaced (Beth takes Anne's queen: Anne 0, Beth -6 raw), then
    # undone elsewhere before the answer is written.
    created = client.post(f"{API}/games", json=NEW_GAME).get_json()
    headers = auth(created["edit_token"])
    client.post(f"{API}/games/{created['id']}/rounds", json=WORKED_NO_QUEENS, headers=headers)
    edited = {**WORKED_NO_QUEENS, "outcome": {"queens": [0, 1, 1, 2]}}
    undone_on_commit.update(game=created["id"], number=1, armed=True)
    response = client.put(f"{API}/games/{created['id']}/rounds/1", json=edited, headers=headers)
    assert response.status_code == 200
    assert response.get_json()["result"]["raw"] == [0, -6, -6, -12]
    assert re.fullmatch(r'"[0-9a-f]{16}"', response.headers["ETag"])


def test_a_replayed_save_undone_by_another_phone_before_its_answer_is_the_spent_keys_conflict(
    app, client, undone_on_commit
):
    # A retry of a stored save (same Idempotency-Key and body) finds its round; another phone
    # undoes it before the answer is written: the retry is answered as a retry of an undone
    # round is (409), not with a 500 from re-reading the deleted row.
    created = client.post(f"{API}/games", json=NEW_GAME).get_json()
    headers = {**auth(created["edit_token"]), "Idempotency-Key": "probe-key-0001"}
    url = f"{API}/games/{created['id']}/rounds"
    assert client.post(url, json=WORKED_NO_QUEENS, headers=headers).status_code == 201
    undone_on_commit.update(game=created["id"], number=1, armed=True)
    response = client.post(url, json=WORKED_NO_QUEENS, headers=headers)
    assert response.status_code == 409
    assert response.get_json()["error"] == "this round was saved, then undone; it is not saved again"
