"""The per-game results of a club game (issue 16, "Speed": each seat's final, rank and
per-contract sums kept in the ``results`` table, rewritten in the transaction of every round
write) always equal a recomputation from the game's rounds: Hypothesis plays sequences of
records, edits, undos and puts back through the API and the scorer's page on the real
database, then compares the stored rows (StoredResult) with ``scoring.club.seat_results`` of
the game's rounds as stored.

The game is a club game of the SHORT preset of tests/test_club_stats.py (No Queens and Trumps,
an undoubled No Queens split, 8 rounds) with three members and a guest (seat 2). Round n plays
CONTRACTS[n - 1] (each declarer declares No Queens, then Trumps), in one of three versions
(the edit picks another), each legal for any declarer: a split deal or a played one with a
redouble for No Queens; no double, a double with its redouble, a single double for Trumps.
"""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import select

from scorepad.extensions import db
from scorepad.models import StoredGame, StoredMember, StoredResult
from scorepad.scoring.club import seat_results
from tests.test_api import API, auth
from tests.test_club_stats import SHORT, add_member, create_club

CONTRACTS = ["no-queens", "trumps"] * 4


def declarer(number: int) -> int:
    """Seat 0 declares rounds 1–2, seat 1 rounds 3–4, and so on (rotation ``run``, 2 contracts)."""
    return (number - 1) // 2


def round_doc(number: int, version: int) -> dict:
    d = declarer(number)
    left, opposite, right = (d + 1) % 4, (d + 2) % 4, (d + 3) % 4
    if CONTRACTS[number - 1] == "no-queens":
        versions = [
            {"contract": "no-queens", "doubles": []},  # not played: split
            {
                "contract": "no-queens",
                "doubles": [[left, d], [d, left], [opposite, right]],
                "outcome": {"queens": [1, 0, 1, 2]},
            },
            {"contract": "no-queens", "doubles": [[right, d]], "outcome": {"queens": [0, 2, 1, 1]}},
        ]
    else:
        versions = [
            {"contract": "trumps", "doubles": [], "outcome": {"tricks": [4, 3, 3, 3]}},
            {"contract": "trumps", "doubles": [[left, d], [d, left]], "outcome": {"tricks": [2, 5, 3, 3]}},
            {"contract": "trumps", "doubles": [[opposite, d]], "outcome": {"tricks": [3, 3, 3, 4]}},
        ]
    return versions[version % 3]


OPERATIONS = st.lists(
    st.tuples(st.sampled_from(["record", "record", "edit", "undo", "put_back", "undo_put_back"]), st.integers(0, 8)),
    max_size=16,
)


def apply(client, game: dict, operation: str, pick: int, count: int) -> None:
    """One operation on the game of ``count`` rounds; refusals (an edit of no round, an undo
    of none, a put back of nothing) are part of the sequence too."""
    headers = auth(game["edit_token"])
    url = f"{API}/games/{game['id']}/rounds"
    if operation == "record" and count < len(CONTRACTS):
        response = client.post(url, json=round_doc(count + 1, pick), headers=headers)
        assert response.status_code == 201, response.json
    elif operation == "edit" and count:
        number = pick % count + 1
        response = client.put(f"{url}/{number}", json=round_doc(number, pick // 3 + 1), headers=headers)
        assert response.status_code == 200, response.json
    elif operation == "undo" and count:
        assert client.delete(f"{url}/{count}", headers=headers).status_code == 204
    elif operation == "put_back":
        client.post(f"/g/{game['edit_token']}/rounds/put-back", data={})  # a 409 when nothing is undone
    elif operation == "undo_put_back" and count:  # the undo a put back needs right before it
        assert client.delete(f"{url}/{count}", headers=headers).status_code == 204
        assert client.post(f"/g/{game['edit_token']}/rounds/put-back", data={}).status_code == 303


def assert_results_match_the_rounds(app, game_id: int, seats: list[str | None]) -> None:
    """The four stored rows of the game equal ``seat_results`` of its stored rounds."""
    with app.app_context():
        stored = db.session.get(StoredGame, game_id)
        expected = seat_results(stored.to_game())
        rows = db.session.scalars(select(StoredResult).where(StoredResult.game_id == game_id)).all()
        members = {m.id: m.public_id for m in db.session.scalars(select(StoredMember))}
        assert sorted(r.seat for r in rows) == [0, 1, 2, 3]
        for row in sorted(rows, key=lambda r: r.seat):
            want = expected[row.seat]
            assert (row.final, row.rank, row.complete, row.rounds_played) == (
                want.final,
                want.rank,
                want.complete,
                want.rounds_played,
            ), row.seat
            assert row.by_contract == {c: line.to_dict() for c, line in want.by_contract.items()}, row.seat
            assert (row.given, row.received, row.net) == (want.given, want.received, want.net), row.seat
            assert list(row.against) == list(want.against), row.seat
            assert (row.date, row.club_id) == (stored.date, stored.club_id)
            assert members.get(row.member_id) == seats[row.seat], row.seat


def club_game(client) -> tuple[dict, list[str | None]]:
    """A SHORT club game: Anne, Beth, a guest (Gus), Diana."""
    club = create_club(client, "De Zwarte Koning", {})
    seats = [add_member(client, club, name)["id"] for name in ("Anne", "Beth")]
    seats += [None, add_member(client, club, "Diana")["id"]]
    document = {
        "players": ["Anne", "Beth", "Gus", "Diana"],
        "first_declarer": 0,
        "preset": SHORT,
        "date": "2026-03-12",
        "club": club["id"],
        "members": seats,
    }
    response = client.post(f"{API}/games", json=document, headers={"X-Club-Token": club["admin_token"]})
    assert response.status_code == 201, response.json
    return response.json, seats


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(operations=OPERATIONS)
def test_the_stored_results_are_always_those_of_the_rounds(app, client, operations):
    app.config["WTF_CSRF_ENABLED"] = False  # the put back goes through the scorer's page form
    app.config["MAX_EVENTS_PER_ADDRESS_BURST"] = 10**6  # a club counts as a night: one per example
    app.config["MAX_EVENTS_PER_ADDRESS"] = 10**6
    app.config["MAX_EVENTS_PER_DEVICE_BURST"] = 10**6
    app.config["MAX_EVENTS_PER_DEVICE"] = 10**6
    app.config["MAX_GAMES_PER_ADDRESS_BURST"] = 10**6
    app.config["MAX_GAMES_PER_ADDRESS"] = 10**6
    app.config["MAX_GAMES_PER_DEVICE_BURST"] = 10**6
    app.config["MAX_GAMES_PER_DEVICE"] = 10**6
    game, seats = club_game(client)
    count = 0
    for operation, pick in operations:
        apply(client, game, operation, pick, count)
        count = len(client.get(f"{API}/games/{game['id']}", headers=auth(game["view_token"])).json["rounds"])
        assert_results_match_the_rounds(app, game["id"], seats)


def test_a_round_undone_and_put_back_is_counted_again(app, client):
    app.config["WTF_CSRF_ENABLED"] = False
    game, seats = club_game(client)
    for count in range(3):
        apply(client, game, "record", count + 1, count)
    apply(client, game, "undo", 0, 3)
    assert_results_match_the_rounds(app, game["id"], seats)
    apply(client, game, "undo_put_back", 0, 2)  # round 2 undone, then put back
    apply(client, game, "put_back", 0, 2)  # nothing left to put back: refused, nothing changes
    assert_results_match_the_rounds(app, game["id"], seats)
    with app.app_context():
        rows = db.session.scalars(select(StoredResult).where(StoredResult.game_id == game["id"])).all()
        assert {r.rounds_played for r in rows} == {2}


def test_a_full_game_with_every_version_matches_after_each_write(app, client):
    """Every round recorded, each edited to its two other versions, then undone back to none."""
    game, seats = club_game(client)
    for number in range(1, 9):
        apply(client, game, "record", 0, number - 1)
        assert_results_match_the_rounds(app, game["id"], seats)
    for number in range(1, 9):
        for version in (1, 2):
            response = client.put(
                f"{API}/games/{game['id']}/rounds/{number}",
                json=round_doc(number, version),
                headers=auth(game["edit_token"]),
            )
            assert response.status_code == 200, response.json
            assert_results_match_the_rounds(app, game["id"], seats)
    for count in range(8, 0, -1):
        apply(client, game, "undo", 0, count)
        assert_results_match_the_rounds(app, game["id"], seats)
