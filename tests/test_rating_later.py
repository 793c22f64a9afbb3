"""A long rating replay runs after the save's answer (club-format.md "A member's statistics",
``rating``: "Recomputed when a game is edited (after the save's answer, if need be; until then
the previous rating is shown with "updating": true)"). With ``RATING_INLINE_REPLAY`` 0 every
replay that has a complete game to redo is left for the answer's close; the expected ratings
come from openskill called directly."""

import json
from pathlib import Path

import pytest
from openskill.models import PlackettLuce

from tests.conftest import fresh_app

API = "/api/v1"
EXAMPLE = json.loads((Path(__file__).parent / "data" / "examples" / "tournament-full.json").read_text())
# The example's standings: finals (−234, 56, 132, 46), ranks (4, 2, 1, 3).
RANKS = [4, 2, 1, 3]


@pytest.fixture
def app(tmp_path):
    yield from fresh_app(tmp_path, RATING_INLINE_REPLAY=0)


def auth(token):
    return {"Authorization": f"Bearer {token}"}


def club_game(client, club, members, day):
    doc = {key: value for key, value in EXAMPLE["game"].items() if key != "format"}
    doc.update(club=club["id"], members=members, date=day)
    answer = client.post(f"{API}/games", json=doc, headers={"X-Club-Token": club["admin_token"]})
    assert answer.status_code == 201, answer.json
    return answer.json


def test_an_undo_in_an_older_game_replays_the_ratings_after_the_answer(client):
    club = client.post(f"{API}/clubs", json={"name": "De Zwarte Koning"}).json
    members = [
        client.post(f"{API}/clubs/{club['id']}/members", json={"name": n}, headers=auth(club["admin_token"])).json["id"]
        for n in ("Anne", "Bert", "Cath", "Dirk")
    ]
    first = club_game(client, club, members, "2026-03-01")
    club_game(client, club, members, "2026-03-08")
    model = PlackettLuce()
    once = model.rate([[model.rating()] for _ in range(4)], ranks=RANKS)
    twice = model.rate([list(team) for team in once], ranks=RANKS)
    anne = f"{API}/clubs/{club['id']}/members/{members[0]}"
    rating = client.get(anne, headers=auth(club["view_token"])).json["rating"]
    assert (rating["mu"], rating["sigma"], rating["updating"]) == (twice[0][0].mu, twice[0][0].sigma, False)

    # Undo the last round of the older game: it is no longer complete, so only the second game
    # counts. The answer is held open (not buffered): the replay waits for its close.
    undo = client.delete(f"{API}/games/{first['id']}/rounds/28", headers=auth(first["edit_token"]), buffered=False)
    assert undo.status_code == 204
    waiting = client.get(anne, headers=auth(club["view_token"])).json
    assert waiting["rating"]["updating"] is True
    assert waiting["rating"]["mu"] == twice[0][0].mu  # the previous rating while it replays
    assert waiting["complete_games"] == 1
    undo.close()  # the answer is sent: the replay runs
    settled = client.get(anne, headers=auth(club["view_token"])).json["rating"]
    assert (settled["mu"], settled["sigma"], settled["updating"]) == (once[0][0].mu, once[0][0].sigma, False)
    assert settled["ordinal"] == pytest.approx(once[0][0].mu - 3 * once[0][0].sigma)
