"""The club night API /api/v1/events (shared/spec/club-format.md "Club night"): creating a
night, its leaderboard as the tables play through the games API, adjustments, closing and
reopening, the tokens' rules and bad input.

The night of the issue: 18 players, 2 sessions, 4 tables a session, 2 sitting out each
session, with a fixed seating so that every value can be worked by hand. First declarers are
drawn; the app's EVENT_RANDOM makes every draw seat 0, so each table's first declarer is its
first player. Expected values are worked out by hand in the comments, or come from the
examples' ``expected`` (tests/data/examples/tournament-full.json), never from the code.
"""

import json
import random
from pathlib import Path

import pytest
from sqlalchemy import func, select

from scorepad.extensions import db
from scorepad.models import StoredAdjustment, StoredEvent, StoredGame

from .test_api import API, TOKEN, assert_refused, auth, load

NAMES = [
    "Anne", "Beth", "Cath", "Diana", "Emma", "Fiona", "Gina", "Hanna", "Iris",
    "Julia", "Kim", "Lena", "Mia", "Nora", "Olga", "Pia", "Rosa", "Sara",
]  # fmt: skip
# Session 1 seats 0–15 (Rosa 16 and Sara 17 sit out); session 2 leaves out Lena 11 and Pia 15.
SEATING = [
    [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11], [12, 13, 14, 15]],
    [[16, 17, 0, 4], [1, 5, 8, 12], [2, 6, 9, 13], [3, 7, 10, 14]],
]
NIGHT = {
    "format": "barbu-scorepad/event@1",
    "title": "Thursday club night",
    "date": "2026-12-03",
    "timezone": "Europe/Amsterdam",
    "preset": "tournament",
    "sessions": 2,
    "ranking": "points",
    "players": NAMES,
    "club": None,
    "members": None,
    "seating": SEATING,
}
EXAMPLE = Path(__file__).parent / "data" / "examples" / "tournament-full.json"


class FirstSeat(random.Random):
    """Every draw is the first choice: each table's first declarer is seat 0."""

    def randrange(self, *args, **kwargs):
        return 0


@pytest.fixture
def night_app(app):
    app.config["EVENT_RANDOM"] = FirstSeat
    return app


@pytest.fixture
def client(night_app):
    return night_app.test_client()


def create_night(client, **changes) -> dict:
    response = client.post(f"{API}/events", json={**NIGHT, **changes})
    assert response.status_code == 201, response.json
    return response.json


def get_night(client, night: dict, token: str | None = None):
    return client.get(f"{API}/events/{night['id']}", headers=auth(token or night["director_token"]))


def table(night: dict, session: int, number: int) -> dict:
    return night["sessions"][session - 1]["tables"][number - 1]


def post_round(client, tbl: dict, round_doc: dict):
    return client.post(f"{API}/games/{tbl['game_id']}/rounds", json=round_doc, headers=auth(tbl["edit_token"]))


def rotated(round_doc: dict, by: int) -> dict:
    """``round_doc`` with every seat moved ``by`` seats clockwise (a seat s becomes s + by mod
    4): the same deal played with everyone ``by`` seats further on."""

    def seat(s: int) -> int:
        return (s + by) % 4

    def by_seat(values: list) -> list:
        moved = [None] * 4
        for s, value in enumerate(values):
            moved[seat(s)] = value
        return moved

    doc = {**round_doc, "doubles": [[seat(a), seat(b)] for a, b in round_doc["doubles"]]}
    outcome = {}
    for key, value in round_doc.get("outcome", {}).items():
        if key in ("tricks", "hearts", "queens"):
            outcome[key] = by_seat(value)
        elif key == "order":
            outcome[key] = [seat(s) for s in value]
        else:  # ace, king, penultimate, last: a seat
            outcome[key] = seat(value)
    if "outcome" in round_doc:
        doc["outcome"] = outcome
    return doc


def play_the_example(client, tbl: dict) -> None:
    """The 28 rounds of tournament-full.json at a table whose first declarer is seat 0. The
    example's first declarer is seat 2, so every seat moves 2 on: the example's final standings
    [-234, 56, 132, 46] (its `expected`) land as [132, 46, -234, 56] on this table's seats."""
    example = load(EXAMPLE)
    assert example["game"]["first_declarer"] == 2
    assert example["expected"]["standings"]["final"] == [-234, 56, 132, 46]
    for round_doc in example["game"]["rounds"]:
        response = post_round(client, tbl, rotated(round_doc, 2))
        assert response.status_code == 201, response.json
    assert response.json["standings"]["final"] == [132, 46, -234, 56]
    assert response.json["standings"]["complete"] is True


def no_tricks(tricks: list[int]) -> dict:
    # tournament: No Tricks scores -2 a trick; no doubles, so a player's total is their raw score.
    return {"contract": "no-tricks", "doubles": [], "outcome": {"tricks": tricks}}


def no_queens(queens: list[int]) -> dict:
    # tournament: No Queens scores -6 a queen.
    return {"contract": "no-queens", "doubles": [], "outcome": {"queens": queens}}


def play_the_night(client, night: dict) -> None:
    """What the tables played (seat order = SEATING's; seat 0 declares first):

    Session 1
    - T1 Anne, Beth, Cath, Diana: the whole example → 132, 46, -234, 56 (complete).
    - T2 Emma, Fiona, Gina, Hanna: the whole example → 132, 46, -234, 56 (complete).
    - T3 Iris, Julia, Kim, Lena: still playing, 1 round: No Tricks, tricks 3 4 2 4
      → -6, -8, -4, -8.
    - T4 Mia, Nora, Olga, Pia: no round yet (counts for nobody).
    Session 2
    - T1 Rosa, Sara, Anne, Emma: still playing, 2 rounds: No Tricks 1 5 4 3 → -2 -10 -8 -6,
      No Queens 0 2 1 1 → 0 -12 -6 -6; totals -2, -22, -14, -12.
    - T2 Beth, Fiona, Iris, Mia: the whole example → 132, 46, -234, 56 (complete).
    - T3 Cath, Gina, Julia, Nora: still playing, 1 round: No Tricks 4 4 2 3 → -8, -8, -4, -6.
    - T4 Diana, Hanna, Kim, Olga: no round yet.
    """
    play_the_example(client, table(night, 1, 1))
    play_the_example(client, table(night, 1, 2))
    assert post_round(client, table(night, 1, 3), no_tricks([3, 4, 2, 4])).status_code == 201
    assert post_round(client, table(night, 2, 1), no_tricks([1, 5, 4, 3])).status_code == 201
    assert post_round(client, table(night, 2, 1), no_queens([0, 2, 1, 1])).status_code == 201
    play_the_example(client, table(night, 2, 2))
    assert post_round(client, table(night, 2, 3), no_tricks([4, 4, 2, 3])).status_code == 201


# Each player's games (a game counts once its table has a round), total (Σ final + adjustment)
# and places (per game: players at the table with a lower final + ½ × those with an equal one):
#
#   player      s1 final  s2 final  games  total          places
#   0 Anne        132      -14        2     118            3 + 1   = 4
#   1 Beth         46      132        2     178            1 + 3   = 4
#   2 Cath       -234       -8        2    -242            0 + ½   = 0.5
#   3 Diana        56        —        1      56            2       = 2
#   4 Emma        132      -12        2     120 - 10 = 110 3 + 2   = 5   (adjustment -10, late)
#   5 Fiona        46       46        2      92            1 + 1   = 2
#   6 Gina       -234       -8        2    -242            0 + ½   = 0.5
#   7 Hanna        56        —        1      56            2       = 2
#   8 Iris         -6     -234        2    -240            2 + 0   = 2
#   9 Julia        -8       -4        2     -12            ½ + 3   = 3.5
#  10 Kim          -4        —        1      -4            3       = 3
#  11 Lena         -8    (sits out)   1      -8            ½       = 0.5
#  12 Mia           —       56        1      56            2       = 2
#  13 Nora          —       -6        1      -6            2       = 2
#  14 Olga          —        —        0       0            0            no game: rank null
#  15 Pia           —    (sits out)   0       0 + 5 = 5    0            an adjustment alone does not rank
#  16 Rosa     (sits out)   -2        1      -2            3       = 3
#  17 Sara     (sits out)  -22        1     -22            0       = 0
#
# (s1 T3: Kim -4 beats the other three: 3; Iris -6 beats the two -8s: 2; Julia and Lena -8 tie:
# ½ each. s2 T1: Rosa -2 > Emma -12 > Anne -14 > Sara -22: 3, 2, 1, 0. s2 T3: Julia -4 3,
# Nora -6 2, Cath and Gina -8 tie: ½ each.)
EXPECTED = {
    # player: (games, total, places, adjustment)
    0: (2, 118, 4.0, 0),
    1: (2, 178, 4.0, 0),
    2: (2, -242, 0.5, 0),
    3: (1, 56, 2.0, 0),
    4: (2, 110, 5.0, -10),
    5: (2, 92, 2.0, 0),
    6: (2, -242, 0.5, 0),
    7: (1, 56, 2.0, 0),
    8: (2, -240, 2.0, 0),
    9: (2, -12, 3.5, 0),
    10: (1, -4, 3.0, 0),
    11: (1, -8, 0.5, 0),
    12: (1, 56, 2.0, 0),
    13: (1, -6, 2.0, 0),
    14: (0, 0, 0.0, 0),
    15: (0, 5, 0.0, 5),
    16: (1, -2, 3.0, 0),
    17: (1, -22, 0.0, 0),
}
# ranking "points": by total / games. Beth 89, Anne 59, Diana = Hanna = Mia 56 (a tie: 3, 3, 3),
# Emma 55, Fiona 46, Rosa -2, Kim -4, Julia = Nora -6 (10, 10), Lena -8, Sara -22, Iris -120,
# Cath = Gina -121 (15, 15); Olga and Pia have no game: last, rank null, in players' order.
BY_POINTS = [
    (1, {1}),
    (2, {0}),
    (3, {3, 7, 12}),
    (6, {4}),
    (7, {5}),
    (8, {16}),
    (9, {10}),
    (10, {9, 13}),
    (12, {11}),
    (13, {17}),
    (14, {8}),
    (15, {2, 6}),
    (None, {14}),
    (None, {15}),
]
# ranking "places": by places / games, then total / games. Rosa (3, -2) before Kim (3, -4);
# Emma (2.5, 55); at 2 a game: Beth 89, Anne 59, Diana = Hanna = Mia 56 (6, 6, 6), Nora -6;
# Julia (1.75, -6); at 1: Fiona 46, Iris -120; Lena (0.5, -8); Cath = Gina (0.25, -121) (14, 14);
# Sara (0, -22); then Olga, Pia.
BY_PLACES = [
    (1, {16}),
    (2, {10}),
    (3, {4}),
    (4, {1}),
    (5, {0}),
    (6, {3, 7, 12}),
    (9, {13}),
    (10, {9}),
    (11, {5}),
    (12, {8}),
    (13, {11}),
    (14, {2, 6}),
    (16, {17}),
    (None, {14}),
    (None, {15}),
]


def ranked(leaderboard: list[dict]) -> list[tuple]:
    """The leaderboard as (rank, {players}) groups, in its order."""
    groups: list[tuple] = []
    for entry in leaderboard:
        if groups and entry["rank"] is not None and groups[-1][0] == entry["rank"]:
            groups[-1][1].add(entry["player"])
        else:
            groups.append((entry["rank"], {entry["player"]}))
    return groups


# ---------------------------------------------------------------- creating a night


def test_creating_a_night_answers_201_with_tokens_links_and_every_table(client):
    night = create_night(client)
    assert TOKEN.fullmatch(night["director_token"]) and TOKEN.fullmatch(night["view_token"])
    assert night["director_token"] != night["view_token"]
    assert set(night["links"]) >= {"board", "director", "results", "csv", "cards"}
    assert night["links"]["board"].startswith("http://localhost/n/" + night["view_token"])
    assert night["links"]["director"] == f"http://localhost/d/{night['director_token']}"
    assert night["links"]["cards"] == f"http://localhost/d/{night['director_token']}/cards"
    assert night["closed"] is False
    assert [s["number"] for s in night["sessions"]] == [1, 2]
    assert [s["sit_out"] for s in night["sessions"]] == [[16, 17], [11, 15]]
    for s, session in enumerate(night["sessions"]):
        assert [t["number"] for t in session["tables"]] == [1, 2, 3, 4]
        assert [t["players"] for t in session["tables"]] == SEATING[s]
        assert all(t["first_declarer"] == 0 for t in session["tables"])  # EVENT_RANDOM: seat 0
        tokens = [t["edit_token"] for t in session["tables"]] + [t["confirm_token"] for t in session["tables"]]
        assert all(TOKEN.fullmatch(token) for token in tokens)
    every_token = [t[k] for s in night["sessions"] for t in s["tables"] for k in ("edit_token", "confirm_token")]
    assert len(set(every_token)) == 16  # 8 tables, each its own edit and confirm token
    first = table(night, 1, 1)
    assert set(first["links"]) == {"scorer", "board"}
    assert first["links"]["scorer"] == f"http://localhost/g/{first['edit_token']}"


def test_each_table_is_a_game_of_the_night_with_its_players_in_seat_order(client):
    night = create_night(client)
    tbl = table(night, 2, 1)
    game = client.get(f"{API}/games/{tbl['game_id']}", headers=auth(tbl["edit_token"]))
    assert game.status_code == 200
    doc = game.json
    assert doc["players"] == ["Rosa", "Sara", "Anne", "Emma"]
    assert doc["first_declarer"] == 0
    assert doc["title"] == "Thursday club night"
    assert doc["date"] == "2026-12-03"
    assert doc["timezone"] == "Europe/Amsterdam"
    assert doc["standings"]["rounds_total"] == 28  # tournament: 7 contracts x 4 declarers


def test_a_tables_scorer_page_and_board_open_with_the_nights_links(client):
    night = create_night(client)
    tbl = table(night, 1, 3)
    assert client.get(tbl["links"]["scorer"]).status_code == 200
    assert client.get(tbl["links"]["board"]).status_code == 200
    # The view token's answer links the same board: a viewer of the night reaches every table's board.
    viewed = get_night(client, night, night["view_token"]).json
    assert table(viewed, 1, 3)["links"]["board"] == tbl["links"]["board"]


def test_a_drawn_seating_seats_everyone_once_a_session(client):
    night = create_night(client, seating=None)
    for session in night["sessions"]:
        seated = [p for t in session["tables"] for p in t["players"]]
        assert len(session["tables"]) == 4  # ⌊18 / 4⌋
        assert sorted(seated + session["sit_out"]) == list(range(18))
    sat_out = [p for s in night["sessions"] for p in s["sit_out"]]
    assert len(sat_out) == len(set(sat_out)) == 4  # 2 a session, nobody twice (18 × 2: counts 0 or 1)


# ---------------------------------------------------------------- the leaderboard


@pytest.mark.parametrize("ranking, expected_order", [("points", BY_POINTS), ("places", BY_PLACES)])
def test_the_issues_night_played_through_the_api_gives_the_leaderboard_worked_by_hand(client, ranking, expected_order):
    night = create_night(client, ranking=ranking)
    play_the_night(client, night)
    late = client.post(
        f"{API}/events/{night['id']}/adjustments",
        json={"player": 4, "points": -10, "reason": "late"},
        headers=auth(night["director_token"]),
    )
    assert late.status_code == 201, late.json
    assert late.json["player"] == 4 and late.json["points"] == -10 and late.json["reason"] == "late"
    cards = client.post(
        f"{API}/events/{night['id']}/adjustments",
        json={"player": 15, "points": 5, "reason": "brought the cards"},
        headers=auth(night["director_token"]),
    )
    assert cards.status_code == 201

    got = get_night(client, night).json
    board = got["leaderboard"]
    by_player = {entry["player"]: entry for entry in board}
    assert len(board) == 18
    for player, (games, total, places, adjustment) in EXPECTED.items():
        entry = by_player[player]
        assert entry["name"] == NAMES[player]
        assert (entry["games"], entry["total"], entry["places"], entry["adjustment"]) == (
            games,
            total,
            places,
            adjustment,
        ), NAMES[player]
    assert ranked(board) == expected_order
    assert [e["player"] for e in board[-2:]] == [14, 15]  # no game: last, in the order of players
    assert [(a["player"], a["points"], a["reason"]) for a in got["adjustments"]] == [
        (4, -10, "late"),
        (15, 5, "brought the cards"),
    ]

    # Progress: rounds played of 28, complete only for the three tables that played the example.
    progress = [[(t["rounds_played"], t["complete"]) for t in s["tables"]] for s in got["sessions"]]
    assert progress == [
        [(28, True), (28, True), (1, False), (0, False)],
        [(2, False), (28, True), (1, False), (0, False)],
    ]
    assert all(t["rounds_total"] == 28 for s in got["sessions"] for t in s["tables"])
    assert [s["complete"] for s in got["sessions"]] == [False, False]
    assert got["session_on"] == 2  # the latest session with a saved round that is not complete


def test_the_view_token_sees_the_night_without_any_secret_token(client):
    night = create_night(client)
    response = get_night(client, night, night["view_token"])
    assert response.status_code == 200
    text = response.get_data(as_text=True)
    secrets = [night["director_token"]] + [
        t[key] for s in night["sessions"] for t in s["tables"] for key in ("edit_token", "confirm_token")
    ]
    for secret in secrets:
        assert secret not in text
    doc = response.json
    assert "director_token" not in doc
    assert doc["view_token"] == night["view_token"]
    assert set(doc["links"]) == {"api", "board", "results", "csv"}  # no director, no cards
    for session in doc["sessions"]:
        for tbl in session["tables"]:
            assert "edit_token" not in tbl and "confirm_token" not in tbl
            assert set(tbl["links"]) == {"board"}  # no scorer link
    assert doc["leaderboard"] == get_night(client, night).json["leaderboard"]


def test_the_director_sees_the_same_night_with_its_tokens(client):
    night = create_night(client)
    got = get_night(client, night).json
    assert got["director_token"] == night["director_token"]
    assert table(got, 2, 4)["edit_token"] == table(night, 2, 4)["edit_token"]
    assert table(got, 2, 4)["confirm_token"] == table(night, 2, 4)["confirm_token"]
    assert got["links"] == night["links"]


# ---------------------------------------------------------------- tokens


def test_tokens_no_token_401_another_nights_404_a_view_token_that_writes_403(client):
    night = create_night(client)
    other = create_night(client)
    url = f"{API}/events/{night['id']}"
    assert_refused(client.get(url), 401)
    assert_refused(client.get(url, headers=auth(other["director_token"])), 404)
    assert_refused(client.get(url, headers=auth(other["view_token"])), 404)
    assert_refused(client.get(url, headers=auth(table(night, 1, 1)["edit_token"])), 404)  # a table's: not the night's
    assert_refused(client.get(f"{API}/events/999999", headers=auth(night["director_token"])), 404)
    view = auth(night["view_token"])
    adjustment = {"player": 0, "points": 1, "reason": "x"}
    assert_refused(client.post(f"{url}/adjustments", json=adjustment, headers=view), 403)
    assert_refused(client.post(f"{url}/close", headers=view), 403)
    assert_refused(client.post(f"{url}/reopen", headers=view), 403)
    assert_refused(client.post(f"{url}/close"), 401)
    assert_refused(client.post(f"{url}/close", headers=auth(other["director_token"])), 404)
    assert get_night(client, night).json["closed"] is False  # nothing of that changed the night
    assert get_night(client, night).json["adjustments"] == []


# ---------------------------------------------------------------- bad input: 422, nothing stored


def counts(app) -> tuple[int, int, int]:
    with app.app_context():
        return tuple(
            db.session.scalar(select(func.count()).select_from(model))
            for model in (StoredEvent, StoredGame, StoredAdjustment)
        )


@pytest.mark.parametrize(
    "change, path",
    [
        ({"players": ["Anne", "Beth", "Cath"]}, "players"),  # fewer than 4
        ({"players": NAMES[:17] + ["anne"]}, "players[17]"),  # the same name after case-folding
        ({"sessions": 0}, "sessions"),
        ({"sessions": 7}, "sessions"),
        ({"sessions": 2.5}, "sessions"),
        ({"sessions": True}, "sessions"),
        ({"seating": [SEATING[0], [[16, 17, 0, 4], [1, 5, 8, 12], [2, 6, 9, 13], [3, 7, 10, 3]]]}, "seating[1][3][3]"),
        ({"seating": [SEATING[0], [[16, 17, 0, 4], [1, 5, 8], [2, 6, 9, 13]]]}, "seating[1][1]"),
        ({"seating": [SEATING[0]]}, "seating"),  # one session for a night of 2
        ({"seating": [SEATING[0], [[16, 17, 0, 18]]]}, "seating[1][0][3]"),  # no player 18
        ({"ranking": "wins"}, "ranking"),
        ({"preset": "no-such-preset"}, "preset"),
        ({"format": "barbu-scorepad/game@1"}, "format"),
        ({"confirmation": "always"}, "confirmation"),
    ],
)
def test_bad_input_is_refused_with_422_and_its_path_and_nothing_stored(night_app, client, change, path):
    response = client.post(f"{API}/events", json={**NIGHT, **change})
    assert_refused(response, 422, path)
    assert counts(night_app) == (0, 0, 0)


def test_a_body_that_is_not_a_night_is_422(night_app, client):
    assert_refused(client.post(f"{API}/events", data="[1, 2", content_type="application/json"), 422)
    assert_refused(client.post(f"{API}/events", json=[1, 2]), 422)
    assert counts(night_app) == (0, 0, 0)


@pytest.mark.parametrize(
    "adjustment, path",
    [
        ({"player": 18, "points": 1, "reason": "x"}, "player"),
        ({"player": -1, "points": 1, "reason": "x"}, "player"),
        ({"player": "0", "points": 1, "reason": "x"}, "player"),
        ({"player": 0, "points": 1.5, "reason": "x"}, "points"),
        ({"player": 0, "points": True, "reason": "x"}, "points"),
        ({"player": 0, "points": 10**6, "reason": "x"}, "points"),
        ({"player": 0, "points": 1}, "reason"),
        ({"player": 0, "points": 1, "reason": "   "}, "reason"),
        ({"player": 0, "points": 1, "reason": "x" * 201}, "reason"),
        ({"player": 0, "points": -10, "reason": "late", "pionts": -20}, "pionts"),  # a typo is not dropped silently
    ],
)
def test_a_bad_adjustment_is_refused_with_422_and_nothing_stored(night_app, client, adjustment, path):
    night = create_night(client)
    response = client.post(
        f"{API}/events/{night['id']}/adjustments", json=adjustment, headers=auth(night["director_token"])
    )
    assert_refused(response, 422, path)
    assert counts(night_app)[2] == 0


# ---------------------------------------------------------------- closing and reopening


def test_a_closed_night_refuses_round_writes_and_adjustments_with_409_until_reopened(client):
    night = create_night(client)
    tbl = table(night, 1, 3)
    assert post_round(client, tbl, no_tricks([3, 4, 2, 4])).status_code == 201
    director = auth(night["director_token"])
    closed = client.post(f"{API}/events/{night['id']}/close", headers=director)
    assert closed.status_code == 200
    assert closed.json["closed"] is True
    assert get_night(client, night, night["view_token"]).json["closed"] is True

    refused = post_round(client, tbl, no_queens([1, 1, 1, 1]))
    assert_refused(refused, 409)
    assert refused.json["error"] == "the night is closed"
    game_url = f"{API}/games/{tbl['game_id']}/rounds/1"
    assert_refused(client.put(game_url, json=no_tricks([4, 3, 2, 4]), headers=auth(tbl["edit_token"])), 409)
    assert_refused(client.delete(game_url, headers=auth(tbl["edit_token"])), 409)
    adjustment = {"player": 0, "points": -5, "reason": "slow play"}
    refused = client.post(f"{API}/events/{night['id']}/adjustments", json=adjustment, headers=director)
    assert_refused(refused, 409)
    assert refused.json["error"] == "the night is closed"
    # Closing again is no error (idempotent); nothing was stored meanwhile.
    assert client.post(f"{API}/events/{night['id']}/close", headers=director).status_code == 200
    got = get_night(client, night).json
    assert table(got, 1, 3)["rounds_played"] == 1
    assert got["adjustments"] == []

    reopened = client.post(f"{API}/events/{night['id']}/reopen", headers=director)
    assert reopened.status_code == 200
    assert reopened.json["closed"] is False
    assert post_round(client, tbl, no_queens([1, 1, 1, 1])).status_code == 201
    assert client.post(f"{API}/events/{night['id']}/adjustments", json=adjustment, headers=director).status_code == 201
    got = get_night(client, night).json
    assert table(got, 1, 3)["rounds_played"] == 2
    # Anne (0) sat at s1 T1, which has no round: her adjustment does not rank her.
    anne = next(e for e in got["leaderboard"] if e["player"] == 0)
    assert (anne["games"], anne["total"], anne["adjustment"], anne["rank"]) == (0, -5, -5, None)


def test_a_game_of_its_own_is_not_touched_by_a_closed_night(client):
    night = create_night(client)
    client.post(f"{API}/events/{night['id']}/close", headers=auth(night["director_token"]))
    own = client.post(
        f"{API}/games", json={"players": ["A", "B", "C", "D"], "first_declarer": 0, "preset": "tournament"}
    ).json
    response = client.post(
        f"{API}/games/{own['id']}/rounds", json=no_tricks([3, 4, 2, 4]), headers=auth(own["edit_token"])
    )
    assert response.status_code == 201


# ---------------------------------------------------------------- limits


def test_creating_nights_counts_against_its_own_limit(night_app, client):
    night_app.config["MAX_EVENTS_PER_ADDRESS_BURST"] = 2  # the API without a cookie counts per address
    assert client.post(f"{API}/events", json=NIGHT).status_code == 201
    assert client.post(f"{API}/events", json=NIGHT).status_code == 201
    refused = client.post(f"{API}/events", json=NIGHT)
    assert refused.status_code == 429
    assert refused.headers["Retry-After"]
    assert "club night" in refused.json["error"]
    assert counts(night_app)[0] == 2
    # A night's 8 tables are not 8 games of the games' limits: a game still starts.
    own = {"players": ["A", "B", "C", "D"], "first_declarer": 0, "preset": "tournament"}
    night_app.config["MAX_GAMES_PER_ADDRESS_BURST"] = 1
    assert client.post(f"{API}/games", json=own).status_code == 201


def test_the_openapi_description_has_the_events_paths(client):
    paths = json.loads(client.get(f"{API}/openapi.json").get_data(as_text=True))["paths"]
    assert {"/events", "/events/{event_id}", "/events/{event_id}/adjustments"} <= set(paths)
    assert {"/events/{event_id}/close", "/events/{event_id}/reopen"} <= set(paths)


def test_the_leaderboard_follows_an_edit_and_an_undo_at_a_table_at_once(client):
    """Each table's standings are kept between renders (events.table_standings); an edit or an
    undo at a table must show in the next answer. Table 1 of session 1 (Anne, Beth, Cath,
    Diana; Anne declares): No Tricks, tricks 5, 3, 3, 2 at -2 a trick → -10, -6, -6, -4."""
    night = create_night(client)
    tbl = table(night, 1, 1)

    def totals() -> dict[str, int]:
        board = get_night(client, night).json["leaderboard"]
        return {e["name"]: e["total"] for e in board if e["name"] in ("Anne", "Beth", "Cath", "Diana")}

    assert post_round(client, tbl, no_tricks([5, 3, 3, 2])).status_code == 201
    assert totals() == {"Anne": -10, "Beth": -6, "Cath": -6, "Diana": -4}
    # Edited: tricks 1, 4, 4, 4 → -2, -8, -8, -8.
    edit = client.put(
        f"{API}/games/{tbl['game_id']}/rounds/1", json=no_tricks([1, 4, 4, 4]), headers=auth(tbl["edit_token"])
    )
    assert edit.status_code == 200, edit.json
    assert totals() == {"Anne": -2, "Beth": -8, "Cath": -8, "Diana": -8}
    # Undone: no round at the table, so its game no longer counts: 0 points, no game played.
    undo = client.delete(f"{API}/games/{tbl['game_id']}/rounds/1", headers=auth(tbl["edit_token"]))
    assert undo.status_code in (200, 204), undo.json
    board = {e["name"]: e for e in get_night(client, night).json["leaderboard"]}
    assert [(board[n]["games"], board[n]["total"], board[n]["rank"]) for n in ("Anne", "Diana")] == [
        (0, 0, None),
        (0, 0, None),
    ]


# ---------------------------------------------------------------- confirmation (issue 15)


def confirm(client, tbl: dict, number: int):
    """The table's other player confirms round ``number`` (the table's confirm token)."""
    url = f"{API}/games/{tbl['game_id']}/rounds/{number}/confirm"
    return client.post(url, headers=auth(tbl["confirm_token"]))


def provisional_players(night_doc: dict) -> set[int]:
    return {e["player"] for e in night_doc["leaderboard"] if e.get("provisional")}


def test_every_table_of_a_night_takes_its_confirmation(client):
    night = create_night(client, confirmation="required")
    assert night["confirmation"] == "required"
    for session in night["sessions"]:
        for tbl in session["tables"]:
            game = client.get(f"{API}/games/{tbl['game_id']}", headers=auth(tbl["edit_token"])).json
            assert game["confirmation"] == "required"
    assert create_night(client)["confirmation"] == "optional"  # the default


def test_a_required_night_closes_only_once_every_round_is_confirmed(client):
    """Session 1 table 2 (Emma, Fiona, Gina, Hanna: players 4-7) plays 2 rounds, session 1
    table 3 (Iris, Julia, Kim, Lena: 8-11) one, which its other player confirms, session 2
    table 1 (Rosa, Sara, Anne, Emma: 16, 17, 0, 4) one: the close names table 2's rounds 1
    and 2 and session 2 table 1's round 1, and the players of those two tables are provisional."""
    night = create_night(client, confirmation="required")
    url, director = f"{API}/events/{night['id']}", auth(night["director_token"])
    s1t2, s1t3, s2t1 = table(night, 1, 2), table(night, 1, 3), table(night, 2, 1)
    for tbl, rounds in ((s1t2, 2), (s1t3, 1), (s2t1, 1)):
        for round_doc in [no_tricks([3, 4, 2, 4]), no_queens([1, 1, 1, 1])][:rounds]:  # one declarer, 2 contracts
            assert post_round(client, tbl, round_doc).status_code == 201
    assert confirm(client, s1t3, 1).status_code == 200

    refused = client.post(f"{url}/close", headers=director)
    assert_refused(refused, 409)
    assert refused.json["error"] == "rounds are not confirmed: session 1 table 2 rounds 1, 2; session 2 table 1 round 1"
    got = get_night(client, night).json
    assert got["closed"] is False
    assert provisional_players(got) == {4, 5, 6, 7, 16, 17, 0}
    # The view token's leaderboard says the same.
    assert provisional_players(get_night(client, night, night["view_token"]).json) == {4, 5, 6, 7, 16, 17, 0}

    assert confirm(client, s1t2, 1).status_code == 200
    refused = client.post(f"{url}/close", headers=director)
    assert refused.json["error"] == "rounds are not confirmed: session 1 table 2 round 2; session 2 table 1 round 1"
    # A disputed round is not confirmed either.
    disputed = client.post(
        f"{API}/games/{s1t2['game_id']}/rounds/2/dispute",
        json={"note": "Gina took 3"},
        headers=auth(s1t2["confirm_token"]),
    )
    assert disputed.status_code == 200
    assert client.post(f"{url}/close", headers=director).status_code == 409
    assert confirm(client, s1t2, 2).status_code == 200
    # Emma (4) is still provisional: her session 2 table is not confirmed; her table of session 1 is.
    assert provisional_players(get_night(client, night).json) == {16, 17, 0, 4}
    assert confirm(client, s2t1, 1).status_code == 200
    assert provisional_players(get_night(client, night).json) == set()

    closed = client.post(f"{url}/close", headers=director)
    assert closed.status_code == 200, closed.json
    assert closed.json["closed"] is True
    # Reopened, an edited round is provisional again: the close names it.
    assert client.post(f"{url}/reopen", headers=director).status_code == 200
    edit = client.put(
        f"{API}/games/{s1t3['game_id']}/rounds/1", json=no_tricks([4, 3, 2, 4]), headers=auth(s1t3["edit_token"])
    )
    assert edit.status_code == 200, edit.json
    refused = client.post(f"{url}/close", headers=director)
    assert refused.json["error"] == "rounds are not confirmed: session 1 table 3 round 1"
    assert provisional_players(get_night(client, night).json) == {8, 9, 10, 11}


@pytest.mark.parametrize("confirmation", ["off", "optional"])
def test_off_and_optional_nights_close_with_rounds_nobody_confirmed(client, confirmation):
    night = create_night(client, confirmation=confirmation)
    assert post_round(client, table(night, 1, 2), no_tricks([3, 4, 2, 4])).status_code == 201
    assert provisional_players(get_night(client, night).json) == set()
    closed = client.post(f"{API}/events/{night['id']}/close", headers=auth(night["director_token"]))
    assert closed.status_code == 200
    assert closed.json["closed"] is True


# ---------------------------------------------------------------- removing an adjustment


def add_adjustment(client, night: dict, player: int, points: int, reason: str) -> dict:
    response = client.post(
        f"{API}/events/{night['id']}/adjustments",
        json={"player": player, "points": points, "reason": reason},
        headers=auth(night["director_token"]),
    )
    assert response.status_code == 201, response.json
    return response.json


def emma(client, night: dict) -> tuple[int, int]:
    """Emma's (player 4) adjustment and total; no table has a round, so the total is the adjustment."""
    entry = next(e for e in get_night(client, night).json["leaderboard"] if e["player"] == 4)
    return entry["adjustment"], entry["total"]


def test_a_mistyped_adjustment_is_removed_and_leaves_the_total(client):
    night = create_night(client)
    late = add_adjustment(client, night, 4, -10, "late")
    typo = add_adjustment(client, night, 4, 100, "typo: meant Fiona")
    assert emma(client, night) == (90, 90)  # -10 + 100
    url = f"{API}/events/{night['id']}/adjustments/{typo['id']}"
    removed = client.delete(url, headers=auth(night["director_token"]))
    assert removed.status_code == 204 and removed.data == b""
    assert emma(client, night) == (-10, -10)
    assert [(a["id"], a["points"], a["reason"]) for a in get_night(client, night).json["adjustments"]] == [
        (late["id"], -10, "late")
    ]
    assert_refused(client.delete(url, headers=auth(night["director_token"])), 404)  # removed already


def test_removing_an_adjustment_takes_the_director_and_this_nights_adjustment(client):
    night, other = create_night(client), create_night(client)
    mine = add_adjustment(client, night, 4, -10, "late")
    theirs = add_adjustment(client, other, 4, -20, "late too")
    base = f"{API}/events/{night['id']}/adjustments"
    assert_refused(client.delete(f"{base}/{mine['id']}"), 401)
    assert_refused(client.delete(f"{base}/{mine['id']}", headers=auth(night["view_token"])), 403)
    assert_refused(client.delete(f"{base}/{mine['id']}", headers=auth(other["director_token"])), 404)
    for missing in (theirs["id"], 10**12):  # another night's adjustment, an id beyond any
        assert_refused(client.delete(f"{base}/{missing}", headers=auth(night["director_token"])), 404)
    assert [a["id"] for a in get_night(client, night).json["adjustments"]] == [mine["id"]]
    assert [a["id"] for a in get_night(client, other).json["adjustments"]] == [theirs["id"]]


def test_a_closed_night_keeps_its_adjustments_409_until_reopened(client):
    night = create_night(client)
    late = add_adjustment(client, night, 4, -10, "late")
    director = auth(night["director_token"])
    assert client.post(f"{API}/events/{night['id']}/close", headers=director).status_code == 200
    url = f"{API}/events/{night['id']}/adjustments/{late['id']}"
    refused = client.delete(url, headers=director)
    assert_refused(refused, 409)
    assert refused.json["error"] == "the night is closed"
    assert emma(client, night) == (-10, -10)
    assert client.post(f"{API}/events/{night['id']}/reopen", headers=director).status_code == 200
    assert client.delete(url, headers=director).status_code == 204
    assert emma(client, night) == (0, 0)


# ---------------------------------------------------------------- a closed night's table page


def test_a_closed_nights_table_page_offers_nothing_the_night_would_refuse(client):
    night = create_night(client)
    done, undone = table(night, 1, 1), table(night, 1, 2)
    play_the_example(client, done)  # complete: Play again, Undo round 28
    assert post_round(client, undone, no_tricks([3, 4, 2, 4])).status_code == 201
    assert (
        client.delete(f"{API}/games/{undone['game_id']}/rounds/1", headers=auth(undone["edit_token"])).status_code
        == 204
    )
    offered = ("Play again", "Undo round 28", "Let another player check")
    page = client.get(done["links"]["scorer"]).text
    assert all(words in page for words in offered)
    assert "Put back round 1" in client.get(undone["links"]["scorer"]).text
    director = auth(night["director_token"])
    assert client.post(f"{API}/events/{night['id']}/close", headers=director).status_code == 200
    page = client.get(done["links"]["scorer"]).text
    assert "The night is closed: this table can no longer be scored." in page
    assert [words for words in offered if words in page] == []
    assert "Final standings" in page and "Result as an image" in page  # what a read-only table still offers
    page = client.get(undone["links"]["scorer"]).text
    assert "Put back round 1" not in page and "Let another player check" not in page
    assert client.post(f"{API}/events/{night['id']}/reopen", headers=director).status_code == 200
    assert all(words in client.get(done["links"]["scorer"]).text for words in offered)
