"""Each process keeps a copy of a club's ladder under the club's stamp (scorepad.services.club_stats.club_ladder):
every change the ladder reads moves the stamp, so the ladder read after it is the new one. The
expected entries are the example's standings (tests/data/examples/tournament-full.json: finals
−234, 56, 132, 46)."""

import json
from pathlib import Path

API = "/api/v1"
EXAMPLE = json.loads((Path(__file__).parent / "data" / "examples" / "tournament-full.json").read_text())


def auth(token):
    return {"Authorization": f"Bearer {token}"}


def entries(client, club):
    answer = client.get(f"{API}/clubs/{club['id']}/ladder", headers=auth(club["view_token"]))
    return [(e["name"], e["games"], e["score"], e["rank"]) for e in answer.json["entries"]]


def test_the_ladder_read_after_each_change_is_the_new_one(client):
    club = client.post(f"{API}/clubs", json={"name": "De Zwarte Koning", "ladder": {"min_games": 1}}).json
    admin = auth(club["admin_token"])
    ids = [client.post(f"{API}/clubs/{club['id']}/members", json={"name": n}, headers=admin).json["id"] for n in "ABC"]
    assert entries(client, club) == [("A", 0, 0, None), ("B", 0, 0, None), ("C", 0, 0, None)]

    doc = {k: v for k, v in EXAMPLE["game"].items() if k != "format"}
    game = client.post(
        f"{API}/games",
        json={**doc, "club": club["id"], "members": [*ids, None]},
        headers={"X-Club-Token": admin["Authorization"][7:]},
    ).json
    # A −234 (4th), B 56, C 132: C first, then B, then A.
    assert entries(client, club) == [("C", 1, 132, 1), ("B", 1, 56, 2), ("A", 1, -234, 3)]

    client.delete(f"{API}/games/{game['id']}/rounds/28", headers=auth(game["edit_token"]))  # no longer complete
    assert entries(client, club) == [("A", 0, 0, None), ("B", 0, 0, None), ("C", 0, 0, None)]

    client.post(
        f"{API}/games/{game['id']}/rounds", json=EXAMPLE["game"]["rounds"][27], headers=auth(game["edit_token"])
    )
    client.patch(f"{API}/clubs/{club['id']}/members/{ids[2]}", json={"name": "Cath"}, headers=admin)
    client.post(f"{API}/clubs/{club['id']}/members", json={"name": "Dirk"}, headers=admin)
    assert entries(client, club) == [("Cath", 1, 132, 1), ("B", 1, 56, 2), ("A", 1, -234, 3), ("Dirk", 0, 0, None)]

    client.patch(f"{API}/clubs/{club['id']}", json={"ladder": {"min_games": 2}}, headers=admin)
    assert entries(client, club) == [
        ("Cath", 1, 132, None),
        ("B", 1, 56, None),
        ("Dirk", 0, 0, None),  # nobody qualifies: all by score, unranked
        ("A", 1, -234, None),
    ]
