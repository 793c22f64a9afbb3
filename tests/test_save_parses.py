"""A save replays the game once: the service that stores the round builds the engine's game,
and the answer (the scorer's live part, the API's round) is made from that game."""

import pytest

from scorepad.models import StoredGame
from tests.test_api import API, NEW_GAME, WORKED_NO_QUEENS, auth
from tests.test_rounds import EXPECTED, ROUNDS, form_of, import_game, running


@pytest.fixture
def parses(monkeypatch):
    """How many times a stored game is replayed by the engine (StoredGame.to_game, the real one, counted)."""
    calls = []
    real = StoredGame.to_game

    def counted(self):
        calls.append(self.id)
        return real(self)

    monkeypatch.setattr(StoredGame, "to_game", counted)
    return calls


def test_an_htmx_save_of_a_round_replays_the_game_once(app, client, parses):
    edit, _ = import_game(app, rounds=1)
    parses.clear()
    response = client.post(f"/g/{edit}/rounds", data=form_of(ROUNDS[1]), headers={"HX-Request": "true"})
    assert response.status_code == 200
    assert running(response.get_data(as_text=True), 2) == EXPECTED[1]["result"]["running"]
    assert len(parses) == 1


def test_an_api_save_of_a_round_replays_the_game_once(client, parses):
    created = client.post(f"{API}/games", json=NEW_GAME).get_json()
    parses.clear()
    response = client.post(
        f"{API}/games/{created['id']}/rounds",
        json=WORKED_NO_QUEENS,
        headers={**auth(created["edit_token"]), "Idempotency-Key": "parse-count-0001"},
    )
    assert response.status_code == 201
    assert len(parses) == 1
