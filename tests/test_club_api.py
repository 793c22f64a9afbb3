"""The clubs' JSON API (issue 16; club-format.md "Club, members, statistics, ladder, rating"):
who may do what with which token, bad input refused with its path and nothing stored, members
added, renamed and merged, and games and nights joining a club only with its admin token as
X-Club-Token (so that nobody pushes results into another club's ladder).

Numbers are worked by hand in the comments; the games are those of tests/test_club_stats.py.
"""

import pytest
from sqlalchemy import func, select

from scorepad.extensions import db
from scorepad.models import StoredClub, StoredEvent, StoredGame, StoredMember, StoredResult
from tests.test_api import API, TOKEN, assert_refused, auth
from tests.test_api_events import FirstSeat
from tests.test_club_stats import GAMES, SHORT, add_member, create_club, game_document, member, play, start_game


def count(app, model) -> int:
    with app.app_context():
        return db.session.scalar(select(func.count()).select_from(model))


def stored_counts(app) -> tuple[int, ...]:
    return tuple(count(app, model) for model in (StoredClub, StoredMember, StoredGame, StoredResult, StoredEvent))


@pytest.fixture
def club(client) -> dict:
    return create_club(client, "De Zwarte Koning", {"best": 3, "min_games": 1})


@pytest.fixture
def other(client) -> dict:
    return create_club(client, "Le Roi Noir", {})


def members_of(client, club: dict, *names: str) -> dict[str, str]:
    return {name: add_member(client, club, name)["id"] for name in names}


# ---------------------------------------------------------------- creating a club


def test_creating_a_club_answers_201_with_both_tokens_settings_and_links(client):
    response = client.post(
        f"{API}/clubs",
        json={
            "name": "De Zwarte Koning",
            "ladder": {"best": 10, "min_games": 5, "by": "points", "from": "2026-01-01", "to": "2026-12-31"},
        },
    )
    assert response.status_code == 201, response.json
    body = response.json
    assert body["name"] == "De Zwarte Koning"
    assert body["ladder"] == {"best": 10, "min_games": 5, "by": "points", "from": "2026-01-01", "to": "2026-12-31"}
    assert TOKEN.fullmatch(body["admin_token"]) and TOKEN.fullmatch(body["view_token"])
    assert body["admin_token"] != body["view_token"]
    assert body["links"]["page"] and body["links"]["ladder"]
    assert body["admin_token"] not in body["links"]["page"]  # the page link is safe to share
    assert body["members"] == []


def test_a_club_without_ladder_settings_takes_the_defaults(client):
    body = create_club(client, "Kontra", {})
    # the design's defaults: best 10 results of at least 5 games, by points, no season bounds
    assert body["ladder"] == {"best": 10, "min_games": 5, "by": "points", "from": None, "to": None}


@pytest.mark.parametrize(
    ("document", "path"),
    [
        ({"name": ""}, "name"),
        ({"name": "   "}, "name"),
        ({"name": "x" * 81}, "name"),
        ({}, "name"),
        ({"name": "K", "colour": "black"}, "colour"),
        ({"name": "K", "ladder": {"best": 0}}, "ladder.best"),
        ({"name": "K", "ladder": {"min_games": 0}}, "ladder.min_games"),
        ({"name": "K", "ladder": {"best": "ten"}}, "ladder.best"),
        ({"name": "K", "ladder": {"by": "wins"}}, "ladder.by"),
        ({"name": "K", "ladder": {"from": "2026-13-01"}}, "ladder.from"),
        ({"name": "K", "ladder": {"from": "2026-12-31", "to": "2026-01-01"}}, "ladder.to"),
        ({"name": "K", "ladder": {"season": 2026}}, "ladder.season"),
        ({"name": "K", "ladder": []}, "ladder"),
    ],
)
def test_a_bad_club_is_refused_with_422_and_its_path_and_nothing_stored(app, client, document, path):
    assert_refused(client.post(f"{API}/clubs", json=document), 422, path)
    assert count(app, StoredClub) == 0


def test_a_body_that_is_not_a_club_is_422(app, client):
    for body in ([], "club", 3, None):
        assert client.post(f"{API}/clubs", json=body).status_code == 422
    assert count(app, StoredClub) == 0


# ---------------------------------------------------------------- tokens and roles


def test_no_token_is_401_everywhere(client, club):
    ids = members_of(client, club, "Anne")
    base = f"{API}/clubs/{club['id']}"
    assert client.get(base).status_code == 401
    assert client.get(f"{base}/ladder").status_code == 401
    assert client.get(f"{base}/members/{ids['Anne']}").status_code == 401
    assert client.post(f"{base}/members", json={"name": "Beth"}).status_code == 401
    assert client.patch(f"{base}/members/{ids['Anne']}", json={"name": "Ann"}).status_code == 401


def test_another_clubs_token_or_an_unknown_club_is_404(client, club, other):
    ids = members_of(client, club, "Anne")
    base = f"{API}/clubs/{club['id']}"
    for token in (other["admin_token"], other["view_token"], "x" * 32, club["admin_token"][:-1]):
        assert_refused(client.get(base, headers=auth(token)), 404)
        assert_refused(client.get(f"{base}/ladder", headers=auth(token)), 404)
        assert_refused(client.get(f"{base}/members/{ids['Anne']}", headers=auth(token)), 404)
        assert_refused(client.post(f"{base}/members", json={"name": "Beth"}, headers=auth(token)), 404)
    # the right token on another club's id: 404 too
    assert_refused(client.get(f"{API}/clubs/{other['id']}", headers=auth(club["admin_token"])), 404)
    assert_refused(client.get(f"{API}/clubs/no-such-club", headers=auth(club["admin_token"])), 404)


def test_an_unknown_member_is_404(client, club, other):
    theirs = members_of(client, other, "Zoe")["Zoe"]
    for member_id in ("no-such-member", theirs):
        assert_refused(member(client, club, member_id), 404)
        response = client.patch(
            f"{API}/clubs/{club['id']}/members/{member_id}", json={"name": "Z"}, headers=auth(club["admin_token"])
        )
        assert_refused(response, 404)


def test_the_view_token_reads_but_does_not_write(app, client, club):
    ids = members_of(client, club, "Anne", "Beth")
    view = auth(club["view_token"])
    base = f"{API}/clubs/{club['id']}"
    assert client.get(base, headers=view).status_code == 200
    assert client.get(f"{base}/ladder", headers=view).status_code == 200
    assert client.get(f"{base}/members/{ids['Anne']}", headers=view).status_code == 200
    before = stored_counts(app)
    assert_refused(client.post(f"{base}/members", json={"name": "Cath"}, headers=view), 403)
    assert_refused(client.patch(f"{base}/members/{ids['Anne']}", json={"name": "Ann"}, headers=view), 403)
    assert_refused(client.post(f"{base}/members/{ids['Anne']}/merge", json={"into": ids["Beth"]}, headers=view), 403)
    assert stored_counts(app) == before
    assert member(client, club, ids["Anne"]).json["name"] == "Anne"


def test_the_view_token_sees_no_admin_token(client, club):
    body = client.get(f"{API}/clubs/{club['id']}", headers=auth(club["view_token"])).get_data(as_text=True)
    assert club["admin_token"] not in body


# ---------------------------------------------------------------- games joining a club


def test_a_game_joins_the_club_with_its_admin_token_as_x_club_token(app, client, club):
    ids = members_of(client, club, "Anne", "Beth", "Cath", "Diana")
    game = start_game(client, "G1", ids, club)
    assert (game["game"]["club"], game["game"]["members"]) == (club["id"], [ids[n] for n in GAMES["G1"][2]])
    play(client, game, GAMES["G1"][3][:2])
    # After G1's first two rounds (tests/test_club_stats.py): Anne 0 + 35 = 35 in 1 game, not complete.
    stats = member(client, club, ids["Anne"]).json
    assert (stats["games"], stats["complete_games"], stats["total"]) == (1, 0, 35)


@pytest.mark.parametrize("header", [None, "other admin", "own view", "garbage"])
def test_a_game_naming_a_club_without_its_admin_token_is_403_and_nothing_stored(app, client, club, other, header):
    ids = members_of(client, club, "Anne", "Beth", "Cath", "Diana")
    token = {
        None: None,
        "other admin": other["admin_token"],
        "own view": club["view_token"],
        "garbage": "x" * 32,
    }[header]
    headers = {"X-Club-Token": token} if token else {}
    before = stored_counts(app)
    response = client.post(f"{API}/games", json=game_document("G1", ids, club), headers=headers)
    assert_refused(response, 403)
    assert stored_counts(app) == before


def test_the_club_token_as_bearer_does_not_attach_a_game(app, client, club):
    """The game's request has no bearer token; the club's admin token goes in X-Club-Token only."""
    ids = members_of(client, club, "Anne", "Beth", "Cath", "Diana")
    before = stored_counts(app)
    response = client.post(f"{API}/games", json=game_document("G1", ids, club), headers=auth(club["admin_token"]))
    assert_refused(response, 403)
    assert stored_counts(app) == before


@pytest.mark.parametrize(
    ("members", "path"),
    [
        (lambda ids: [ids["Anne"], ids["Beth"], "no-such-member", ids["Diana"]], "members[2]"),
        (lambda ids: [ids["Anne"], ids["Beth"], ids["Zoe"], ids["Diana"]], "members[2]"),  # another club's member
        (lambda ids: [ids["Anne"], ids["Beth"], ids["Cath"]], "members"),
        (lambda ids: [ids["Anne"], ids["Beth"], ids["Cath"], ids["Diana"], None], "members"),
        (lambda ids: [ids["Anne"], ids["Anne"], ids["Cath"], ids["Diana"]], "members[1]"),
        (lambda ids: [ids["Anne"], 7, ids["Cath"], ids["Diana"]], "members[1]"),
        (lambda ids: "Anne", "members"),
    ],
)
def test_a_bad_members_list_is_422_with_its_path_and_nothing_stored(app, client, club, other, members, path):
    ids = members_of(client, club, "Anne", "Beth", "Cath", "Diana") | members_of(client, other, "Zoe")
    document = {**game_document("G1", ids, club), "members": members(ids)}
    before = stored_counts(app)
    response = client.post(f"{API}/games", json=document, headers={"X-Club-Token": club["admin_token"]})
    assert_refused(response, 422, path)
    assert stored_counts(app) == before


def test_an_unknown_club_id_is_refused_and_nothing_stored(app, client, club):
    ids = members_of(client, club, "Anne", "Beth", "Cath", "Diana")
    document = {**game_document("G1", ids, club), "club": "no-such-club"}
    before = stored_counts(app)
    response = client.post(f"{API}/games", json=document, headers={"X-Club-Token": club["admin_token"]})
    assert response.status_code in (403, 422), response.json
    assert stored_counts(app) == before


def test_a_club_game_may_seat_guests(client, club):
    ids = members_of(client, club, "Anne", "Beth")
    document = {**game_document("G1", ids, club), "members": [ids["Anne"], ids["Beth"], None, None]}
    response = client.post(f"{API}/games", json=document, headers={"X-Club-Token": club["admin_token"]})
    assert response.status_code == 201, response.json
    assert response.json["game"]["members"] == [ids["Anne"], ids["Beth"], None, None]


def test_a_casual_game_is_untouched_by_clubs(app, client, club):
    document = {"players": ["A", "B", "C", "D"], "first_declarer": 0, "preset": SHORT}
    response = client.post(f"{API}/games", json=document, headers={"X-Club-Token": club["admin_token"]})
    assert response.status_code == 201, response.json
    assert "club" not in response.json["game"] or response.json["game"]["club"] is None
    assert count(app, StoredResult) == 0


# ---------------------------------------------------------------- members


def test_adding_a_member_answers_201_and_lists_them(client, club):
    response = client.post(
        f"{API}/clubs/{club['id']}/members", json={"name": "  Anne  "}, headers=auth(club["admin_token"])
    )
    assert response.status_code == 201, response.json
    assert response.json["name"] == "Anne"
    listed = client.get(f"{API}/clubs/{club['id']}", headers=auth(club["view_token"])).json["members"]
    assert [(m["id"], m["name"], m["games"]) for m in listed] == [(response.json["id"], "Anne", 0)]


@pytest.mark.parametrize(
    ("body", "path"),
    [
        ({"name": ""}, "name"),
        ({"name": "x" * 41}, "name"),
        ({"name": 7}, "name"),
        ({}, "name"),
        ({"name": "ANNE"}, "name"),  # taken: names are compared case-folded
        ({"name": "Beth", "email": "b@example.org"}, "email"),
    ],
)
def test_a_bad_or_taken_member_name_is_422_and_nothing_stored(app, client, club, body, path):
    members_of(client, club, "Anne")
    response = client.post(f"{API}/clubs/{club['id']}/members", json=body, headers=auth(club["admin_token"]))
    assert_refused(response, 422, path)
    assert count(app, StoredMember) == 1


def test_renaming_a_member_keeps_their_games_and_the_names_the_games_were_played_with(client, club):
    ids = members_of(client, club, "Anne", "Beth", "Cath", "Diana")
    game = start_game(client, "G1", ids, club)
    play(client, game, GAMES["G1"][3][:2])
    url = f"{API}/clubs/{club['id']}/members/{ids['Anne']}"
    response = client.patch(url, json={"name": "Anne-Marie"}, headers=auth(club["admin_token"]))
    assert response.status_code == 200, response.json
    assert response.json == {"id": ids["Anne"], "name": "Anne-Marie"}
    stats = member(client, club, ids["Anne"]).json
    assert (stats["name"], stats["games"], stats["total"]) == ("Anne-Marie", 1, 35)
    played = client.get(f"{API}/games/{game['id']}", headers=auth(game["view_token"])).json
    assert played["players"][0] == "Anne"
    # a name another member has is refused; one's own name in another case is a rename
    assert_refused(client.patch(url, json={"name": "beth"}, headers=auth(club["admin_token"])), 422, "name")
    response = client.patch(url, json={"name": "ANNE-MARIE"}, headers=auth(club["admin_token"]))
    assert response.status_code == 200, response.json


def test_merging_members_keeps_both_histories_for_the_target(client, club):
    """Anne was entered twice: 'Anne' played G1 (51, rank 1) and 'Anne B.' played G2 (63, rank 1).
    Merged into Anne: 2 games, both complete, 2 wins, total 114, average 57; G2's Beth–Anne
    doubles now count for Anne (tests/test_club_stats.py)."""
    ids = members_of(client, club, "Anne", "Anne B.", "Beth", "Cath", "Diana", "Erik")
    g1 = start_game(client, "G1", ids, club)
    play(client, g1, GAMES["G1"][3])
    g2_ids = {**ids, "Anne": ids["Anne B."]}
    g2 = start_game(client, "G2", g2_ids, club)
    play(client, g2, GAMES["G2"][3])
    assert member(client, club, ids["Anne"]).json["games"] == 1
    url = f"{API}/clubs/{club['id']}/members/{ids['Anne B.']}/merge"
    response = client.post(url, json={"into": ids["Anne"]}, headers=auth(club["admin_token"]))
    assert response.status_code == 200, response.json
    merged = response.json
    assert (merged["id"], merged["name"]) == (ids["Anne"], "Anne")
    assert (merged["games"], merged["complete_games"], merged["wins"], merged["total"]) == (2, 2, 2, 114)
    assert merged["average"] == 57.0
    assert [h["game_id"] for h in merged["history"]] == [g2["id"], g1["id"]]
    # G1 (4, 1, −14, 0) + G2 (4, 1, −24, 12) no-queens; G1 (4, 1, 65, 0) + G2 (4, 1, 70, 5) trumps
    assert merged["by_contract"] == {
        "no-queens": {"rounds": 8, "declared": 2, "raw": -38, "doubles": 12},
        "trumps": {"rounds": 8, "declared": 2, "raw": 135, "doubles": 5},
    }
    # given G1 3 + G2 2, received 2 + 2, net 0 + 17
    assert merged["doubles"] == {"given": 5, "received": 4, "net": 17}
    # Won through doubles: from Beth +4 (G1) + 5 (G2) = 9, from Erik 12 (G2), from Diana −4 (G1):
    # the favourite victim is Erik (12), the nemesis Diana (4).
    assert merged["favourite_victim"] == {"member": ids["Erik"], "name": "Erik", "points": 12}
    assert merged["nemesis"] == {"member": ids["Diana"], "name": "Diana", "points": 4}
    # the duplicate's id reads as Anne; the club lists Anne once, with both games
    assert member(client, club, ids["Anne B."]).json["id"] == ids["Anne"]
    listed = client.get(f"{API}/clubs/{club['id']}", headers=auth(club["view_token"])).json["members"]
    assert [(m["name"], m["games"]) for m in listed if m["name"].startswith("Anne")] == [("Anne", 2)]
    # the ladder (best 3, min 1, no season) counts Anne's two games once: 51 + 63 = 114
    entries = client.get(f"{API}/clubs/{club['id']}/ladder", headers=auth(club["view_token"])).json["entries"]
    anne = [e for e in entries if e["name"].startswith("Anne")]
    assert [(e["member"], e["games"], e["score"]) for e in anne] == [(ids["Anne"], 2, 114)]


def test_merging_two_members_who_sat_in_one_game_is_refused(app, client, club):
    ids = members_of(client, club, "Anne", "Beth", "Cath", "Diana")
    game = start_game(client, "G1", ids, club)
    play(client, game, GAMES["G1"][3][:1])
    url = f"{API}/clubs/{club['id']}/members/{ids['Beth']}/merge"
    response = client.post(url, json={"into": ids["Anne"]}, headers=auth(club["admin_token"]))
    assert_refused(response, 409)
    assert (member(client, club, ids["Beth"]).json["id"], member(client, club, ids["Beth"]).json["games"]) == (
        ids["Beth"],
        1,
    )


def test_merging_into_oneself_or_an_unknown_member_is_refused(client, club, other):
    ids = members_of(client, club, "Anne")
    zoe = members_of(client, other, "Zoe")["Zoe"]
    url = f"{API}/clubs/{club['id']}/members/{ids['Anne']}/merge"
    admin = auth(club["admin_token"])
    assert client.post(url, json={"into": ids["Anne"]}, headers=admin).status_code in (409, 422)
    assert_refused(client.post(url, json={"into": zoe}, headers=admin), 422, "into")
    assert_refused(client.post(url, json={"into": "no-such-member"}, headers=admin), 422, "into")
    assert_refused(client.post(url, json={}, headers=admin), 422, "into")


# ---------------------------------------------------------------- a club night


NIGHT = {
    "format": "barbu-scorepad/event@1",
    "title": "Club night",
    "date": "2026-03-12",
    "preset": SHORT,
    "sessions": 1,
    "ranking": "points",
    "players": ["Anne", "Beth", "Cath", "Diana", "Erik", "Fay", "Gus", "Hanna"],
    "seating": [[[0, 1, 2, 3], [4, 5, 6, 7]]],
}


def test_a_night_joins_the_club_with_its_members_and_its_tables_count(app, client, club):
    app.config["EVENT_RANDOM"] = FirstSeat  # each table's first declarer is its seat 0
    ids = members_of(client, club, "Anne", "Beth", "Cath", "Diana", "Erik", "Fay")
    members = [ids.get(name) for name in NIGHT["players"]]  # Gus and Hanna are guests
    document = {**NIGHT, "club": club["id"], "members": members}
    response = client.post(f"{API}/events", json=document, headers={"X-Club-Token": club["admin_token"]})
    assert response.status_code == 201, response.json
    night = response.json
    assert (night["club"], night["members"]) == (club["id"], members)
    seen = client.get(f"{API}/events/{night['id']}", headers=auth(night["view_token"])).json
    assert (seen["club"], seen["members"]) == (club["id"], members)
    tables = night["sessions"][0]["tables"]
    first = tables[0]  # seats Anne, Beth, Cath, Diana (players 0 to 3)
    game = client.get(f"{API}/games/{first['game_id']}", headers=auth(first["edit_token"])).json
    assert (game["players"], game["club"]) == (["Anne", "Beth", "Cath", "Diana"], club["id"])
    assert game["members"] == [ids[n] for n in ("Anne", "Beth", "Cath", "Diana")]
    for rnd in GAMES["G1"][3][:2]:  # G1's first two rounds, Anne declaring: Anne 35, Beth −3, Cath 7, Diana 2
        reply = client.post(f"{API}/games/{first['game_id']}/rounds", json=rnd, headers=auth(first["edit_token"]))
        assert reply.status_code == 201, reply.json
    totals = [member(client, club, ids[n]).json["total"] for n in ("Anne", "Beth", "Cath", "Diana")]
    assert totals == [35, -3, 7, 2]
    assert member(client, club, ids["Erik"]).json["games"] == 0  # the other table has no round yet
    with app.app_context():
        assert {g.club_id for g in db.session.scalars(select(StoredGame))} == {
            db.session.scalar(select(StoredClub.id).where(StoredClub.public_id == club["id"]))
        }


@pytest.mark.parametrize("header", [None, "other admin", "own view"])
def test_a_night_naming_a_club_without_its_admin_token_is_403_and_nothing_stored(app, client, club, other, header):
    ids = members_of(client, club, "Anne", "Beth", "Cath", "Diana", "Erik", "Fay")
    token = {None: None, "other admin": other["admin_token"], "own view": club["view_token"]}[header]
    document = {**NIGHT, "club": club["id"], "members": [ids.get(name) for name in NIGHT["players"]]}
    before = stored_counts(app)
    response = client.post(f"{API}/events", json=document, headers={"X-Club-Token": token} if token else {})
    assert_refused(response, 403)
    assert stored_counts(app) == before


def test_a_night_with_an_unknown_member_is_422_with_its_path(app, client, club):
    ids = members_of(client, club, "Anne", "Beth")
    members = [ids["Anne"], ids["Beth"], None, None, None, "no-such-member", None, None]
    document = {**NIGHT, "club": club["id"], "members": members}
    before = stored_counts(app)
    response = client.post(f"{API}/events", json=document, headers={"X-Club-Token": club["admin_token"]})
    assert_refused(response, 422, "members[5]")
    assert stored_counts(app) == before


# ---------------------------------------------------------------- more ways into a club


def test_a_game_imported_with_its_rounds_counts_at_once(client, club):
    """G1 of tests/test_club_stats.py imported whole: Anne 51, rank 1, a win; no-queens (4, 1, −14, 0),
    trumps (4, 1, 65, 0); given 3 (R3, R6, R8), received 2 (R2, R8), net 0."""
    ids = members_of(client, club, "Anne", "Beth", "Cath", "Diana")
    document = {**game_document("G1", ids, club), "rounds": GAMES["G1"][3]}
    response = client.post(f"{API}/games", json=document, headers={"X-Club-Token": club["admin_token"]})
    assert response.status_code == 201, response.json
    stats = member(client, club, ids["Anne"]).json
    assert [stats[k] for k in ("games", "complete_games", "wins", "total", "average")] == [1, 1, 1, 51, 51.0]
    assert stats["by_contract"] == {
        "no-queens": {"rounds": 4, "declared": 1, "raw": -14, "doubles": 0},
        "trumps": {"rounds": 4, "declared": 1, "raw": 65, "doubles": 0},
    }
    assert stats["doubles"] == {"given": 3, "received": 2, "net": 0}
    assert stats["rating"]["updating"] is False and stats["rating"]["mu"] > 25  # first of four: up


def test_a_game_started_without_rounds_counts_from_its_first_round(client, club):
    ids = members_of(client, club, "Anne", "Beth", "Cath", "Diana")
    game = start_game(client, "G1", ids, club)
    assert member(client, club, ids["Anne"]).json["games"] == 0
    play(client, game, GAMES["G1"][3][:1])  # R1, split: Anne 0
    stats = member(client, club, ids["Anne"]).json
    assert (stats["games"], stats["total"], stats["by_contract"]) == (
        1,
        0,
        {"no-queens": {"rounds": 1, "declared": 1, "raw": 0, "doubles": 0}},
    )


def test_members_without_a_club_are_refused(app, client, club):
    ids = members_of(client, club, "Anne", "Beth", "Cath", "Diana")
    document = {key: value for key, value in game_document("G1", ids, club).items() if key != "club"}
    before = stored_counts(app)
    response = client.post(f"{API}/games", json=document, headers={"X-Club-Token": club["admin_token"]})
    assert_refused(response, 422, "members")
    assert stored_counts(app) == before


def test_playing_again_with_the_clubs_admin_token_plays_for_the_club_with_the_same_members(client, club):
    ids = members_of(client, club, "Anne", "Beth", "Cath", "Diana")
    g1 = start_game(client, "G1", ids, club)
    play(client, g1, GAMES["G1"][3])
    headers = {**auth(g1["edit_token"]), "X-Club-Token": club["admin_token"]}
    response = client.post(f"{API}/games/{g1['id']}/rematch", headers=headers)
    assert response.status_code == 201, response.json
    again = response.json
    assert (again["game"]["club"], again["game"]["members"]) == (club["id"], [ids[n] for n in GAMES["G1"][2]])
    # The rematch's first declarer is Beth (seat 1, on Anne's left): its round 1 is hers. No Queens
    # not doubled is split: Beth 0, the others −8.
    rnd = {"contract": "no-queens", "doubles": []}
    reply = client.post(f"{API}/games/{again['id']}/rounds", json=rnd, headers=auth(again["edit_token"]))
    assert reply.status_code == 201, reply.json
    anne = member(client, club, ids["Anne"]).json
    assert (anne["games"], anne["complete_games"], anne["total"]) == (2, 1, 51 - 8)


def test_playing_again_with_the_tables_edit_token_alone_plays_outside_the_club(app, client, club):
    # The scorer's link is not the club's: the rematch is an ordinary game, the same names, no
    # members, and its rounds count for nobody (Anne: G1 alone, complete, 51).
    ids = members_of(client, club, "Anne", "Beth", "Cath", "Diana")
    g1 = start_game(client, "G1", ids, club)
    play(client, g1, GAMES["G1"][3])
    response = client.post(f"{API}/games/{g1['id']}/rematch", headers=auth(g1["edit_token"]))
    assert response.status_code == 201, response.json
    again = response.json
    assert "club" not in again["game"] and "members" not in again["game"]  # a game of no club
    assert again["game"]["players"] == GAMES["G1"][2]
    rnd = {"contract": "no-queens", "doubles": []}
    assert (
        client.post(f"{API}/games/{again['id']}/rounds", json=rnd, headers=auth(again["edit_token"])).status_code == 201
    )
    anne = member(client, club, ids["Anne"]).json
    assert (anne["games"], anne["complete_games"], anne["total"]) == (1, 1, 51)
    # Asked again with the admin token: the table's one rematch, as it was started (200).
    headers = {**auth(g1["edit_token"]), "X-Club-Token": club["admin_token"]}
    repeat = client.post(f"{API}/games/{g1['id']}/rematch", headers=headers)
    assert repeat.status_code == 200 and repeat.json["id"] == again["id"] and "club" not in repeat.json["game"]


def test_playing_again_with_a_token_that_is_not_the_clubs_admin_token_is_403(app, client, club):
    ids = members_of(client, club, "Anne", "Beth", "Cath", "Diana")
    g1 = start_game(client, "G1", ids, club)
    play(client, g1, GAMES["G1"][3])
    other = create_club(client, "Other club", {})
    before = stored_counts(app)
    for token in (other["admin_token"], club["view_token"], TOKEN):  # another club's, the view token, none's
        headers = {**auth(g1["edit_token"]), "X-Club-Token": token}
        assert_refused(client.post(f"{API}/games/{g1['id']}/rematch", headers=headers), 403)
    assert stored_counts(app) == before


def test_changing_the_ladder_settings_changes_the_ladder(client, club):
    """G1 complete (Anne 51, Beth 50, Diana 33, Cath 30). By points (best 3, min 1): Anne 51
    first; by places: Anne 3, Beth 2, Diana 1, Cath 0. A season starting after G1: nobody has a game."""
    ids = members_of(client, club, "Anne", "Beth", "Cath", "Diana")
    play(client, start_game(client, "G1", ids, club), GAMES["G1"][3])
    url = f"{API}/clubs/{club['id']}"

    def ladder() -> list[tuple]:
        answer = client.get(f"{url}/ladder", headers=auth(club["view_token"])).json
        return [(e["name"], e["games"], e["score"], e["rank"]) for e in answer["entries"]]

    assert ladder() == [("Anne", 1, 51, 1), ("Beth", 1, 50, 2), ("Diana", 1, 33, 3), ("Cath", 1, 30, 4)]
    assert_refused(client.patch(url, json={"ladder": {"by": "places"}}, headers=auth(club["view_token"])), 403)
    response = client.patch(url, json={"ladder": {"by": "places", "min_games": 1}}, headers=auth(club["admin_token"]))
    assert response.status_code == 200, response.json
    assert response.json["ladder"] == {"best": 10, "min_games": 1, "by": "places", "from": None, "to": None}
    assert ladder() == [("Anne", 1, 3, 1), ("Beth", 1, 2, 2), ("Diana", 1, 1, 3), ("Cath", 1, 0, 4)]
    response = client.patch(url, json={"ladder": {"from": "2026-03-04"}}, headers=auth(club["admin_token"]))
    assert response.status_code == 200, response.json
    # the defaults again (min 5) and no game in the season: everybody unranked, by members' order
    assert ladder() == [("Anne", 0, 0, None), ("Beth", 0, 0, None), ("Cath", 0, 0, None), ("Diana", 0, 0, None)]
    assert_refused(
        client.patch(url, json={"ladder": {"best": 0}}, headers=auth(club["admin_token"])), 422, "ladder.best"
    )


def test_a_member_merged_twice_reads_as_the_last_one(client, club):
    """Anne 1 played G1 (51), Anne 2 played G2 (63), Anne 3 played G6 (45): merged 1 → 2, then
    2 → 3. Anne 3 has the three games: total 159; the first two ids read as her."""
    ids = members_of(client, club, "Anne 1", "Anne 2", "Anne 3", "Beth", "Cath", "Diana", "Erik")
    for label, anne in (("G1", "Anne 1"), ("G2", "Anne 2"), ("G6", "Anne 3")):
        play(client, start_game(client, label, {**ids, "Anne": ids[anne]}, club), GAMES[label][3])
    admin = auth(club["admin_token"])
    base = f"{API}/clubs/{club['id']}/members"
    assert client.post(f"{base}/{ids['Anne 1']}/merge", json={"into": ids["Anne 2"]}, headers=admin).status_code == 200
    assert client.post(f"{base}/{ids['Anne 2']}/merge", json={"into": ids["Anne 3"]}, headers=admin).status_code == 200
    for old in ("Anne 1", "Anne 2", "Anne 3"):
        stats = member(client, club, ids[old]).json
        assert (stats["id"], stats["games"], stats["wins"], stats["total"]) == (ids["Anne 3"], 3, 2, 159)


def test_a_game_in_progress_played_on_after_a_merge_counts_for_the_member_merged_into(client, club):
    """'Erik 2' (a duplicate of Erik) sits in G4, in progress (Erik 20 after 3 rounds, tests/test_club_stats.py).
    Merged into Erik; then G4's round 4 (Cath declares Trumps, tricks 3 4 3 3: Erik +15): Erik
    has G4 at 35 with 4 rounds, and the duplicate's id still reads as Erik."""
    ids = members_of(client, club, "Anne", "Cath", "Erik", "Erik 2", "Fay")
    game = start_game(client, "G4", {**ids, "Erik": ids["Erik 2"]}, club)
    play(client, game, GAMES["G4"][3])
    admin = auth(club["admin_token"])
    url = f"{API}/clubs/{club['id']}/members/{ids['Erik 2']}/merge"
    assert client.post(url, json={"into": ids["Erik"]}, headers=admin).status_code == 200
    play(client, game, [{"contract": "trumps", "doubles": [], "outcome": {"tricks": [3, 4, 3, 3]}}])
    stats = member(client, club, ids["Erik"]).json
    assert (stats["games"], stats["total"]) == (1, 35)
    assert stats["by_contract"]["trumps"] == {"rounds": 2, "declared": 0, "raw": 10 + 15, "doubles": 0}
    assert member(client, club, ids["Erik 2"]).json["id"] == ids["Erik"]


def test_the_openapi_description_has_the_club_paths_and_the_club_token_header(client):
    spec = client.get(f"{API}/openapi.json").json
    assert {
        "/clubs",
        "/clubs/{club_id}",
        "/clubs/{club_id}/members",
        "/clubs/{club_id}/members/{member_id}",
        "/clubs/{club_id}/members/{member_id}/merge",
        "/clubs/{club_id}/ladder",
    } <= set(spec["paths"])
    for path in ("/games", "/events"):
        operation = spec["paths"][path]["post"]
        assert "X-Club-Token" in [p["name"] for p in operation["parameters"]]
        assert "403" in operation["responses"]
    assert {"club", "members"} <= set(spec["components"]["schemas"]["Game"]["properties"])
