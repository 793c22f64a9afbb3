"""JSON API /api/v1/presets: built-ins read-only, saved presets changed with their edit
token, games started by a saved preset's id keep their copy."""

import copy
from datetime import UTC, datetime

import pytest

from scorepad.extensions import db
from scorepad.models import StoredPreset
from scorepad.scoring import BUILTIN, preset_to_dict

HOUSE = {
    "name": "House",
    "deck": 32,
    "chooser": "dealer",
    "rotation": "round",
    "contracts": [
        {"id": "no-tricks", "per_trick": -2},
        {"id": "no-queens", "per_queen": -6},
        {"id": "ravage-city", "penalty": -24},
    ],
    "doubling": {
        "enabled": True,
        "target": "declarer",
        "auto_redouble": True,
        "single": 2,
        "mutual": 4,
        "quota": 3,
        "quota_penalty": 5,
    },
    "undoubled_negative": "play",
    "default_players": ["Anne", "Beth", "Cath", "Dora"],
}


def bearer(token):
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture
def house(client):
    response = client.post("/api/v1/presets", json={**copy.deepcopy(HOUSE), "notes": "Ace low in Domino."})
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def test_the_list_holds_every_built_in(client):
    listed = client.get("/api/v1/presets").get_json()["presets"]
    assert [p["id"] for p in listed] == list(BUILTIN)
    assert all(p["builtin"] for p in listed)
    brader = next(p for p in listed if p["id"] == "brader")
    assert brader["round_count"] == 32 and brader["run_total"] == -171
    assert brader["totals"]["no-hearts"] == -60  # 12 × −4 − 12


def test_a_built_in_is_read_only(client):
    assert client.get("/api/v1/presets/tournament").get_json()["preset"] == preset_to_dict(BUILTIN["tournament"])
    for method in (client.put, client.delete):
        response = method("/api/v1/presets/tournament", json=HOUSE, headers=bearer("x"))
        assert response.status_code == 403
        assert "built-in" in response.get_json()["error"]


def test_create_answers_the_preset_its_totals_and_edit_token(client, house):
    assert len(house["id"]) >= 22 and house["edit_token"]
    assert house["preset"] == {**HOUSE, "id": house["id"]}
    assert house["notes"] == "Ace low in Domino."
    # 8 tricks × −2 = −16, queens −24, Ravage City −24: −64 a run; 12 rounds.
    assert house["totals"] == {"no-tricks": -16, "no-queens": -24, "ravage-city": -24}
    assert (house["run_total"], house["round_count"]) == (-64, 12)
    got = client.get(f"/api/v1/presets/{house['id']}").get_json()
    assert "edit_token" not in got and got["preset"] == house["preset"]


def test_the_wrapped_shape_is_accepted_too(client):
    response = client.post("/api/v1/presets", json={"preset": HOUSE, "notes": "n"})
    assert response.status_code == 201
    assert response.get_json()["notes"] == "n"


@pytest.mark.parametrize(
    "body, path, fragment",
    [
        ({**HOUSE, "contracts": []}, "contracts", "at least one contract"),
        ({**HOUSE, "contracts": [{"id": "no-tricks", "per_trick": "2"}]}, "contracts[0].per_trick", "whole number"),
        ({**HOUSE, "contracts": [{"id": "ravage-city", "penalty": -30}]}, "contracts[0].penalty", "divisible by 12"),
        (
            {**HOUSE, "contracts": [{"id": "trumps", "per_trick": 5}, {"id": "trumps", "per_trick": 4}]},
            "contracts[1].id",
            "listed twice",
        ),
        ({**HOUSE, "contracts": [{"id": "domino", "places": [45, 20, 5]}]}, "contracts[0].places", "all four places"),
        ({"preset": {**HOUSE, "deck": 36}}, "preset.deck", "52 or 32"),
        ({**HOUSE, "notes": 5}, "notes", "must be text"),
        ([1, 2], "", "must be an object"),
    ],
)
def test_an_invalid_preset_is_refused_with_its_path(client, body, path, fragment):
    response = client.post("/api/v1/presets", json=body)
    assert response.status_code == 422
    assert response.get_json()["path"] == path
    assert fragment in response.get_json()["error"]
    assert client.get("/api/v1/presets").status_code == 200


def test_put_needs_the_edit_token(client, house):
    url = f"/api/v1/presets/{house['id']}"
    changed = {**HOUSE, "name": "Renamed"}
    assert client.put(url, json=changed).status_code == 401
    assert client.put(url, json=changed, headers=bearer("wrong")).status_code == 403
    response = client.put(url, json=changed, headers=bearer(house["edit_token"]))
    assert response.status_code == 200
    assert response.get_json()["preset"]["name"] == "Renamed"
    assert response.get_json()["id"] == house["id"]
    # A GET's answer can be sent back as it is.
    got = client.get(url).get_json()
    assert client.put(url, json=got, headers=bearer(house["edit_token"])).status_code == 200


def test_delete_needs_the_edit_token(client, house):
    url = f"/api/v1/presets/{house['id']}"
    assert client.delete(url).status_code == 401
    assert client.delete(url, headers=bearer("wrong")).status_code == 403
    assert client.delete(url, headers=bearer(house["edit_token"])).status_code == 204
    assert client.get(url).status_code == 404
    assert client.delete(url, headers=bearer(house["edit_token"])).status_code == 404


def test_a_game_started_by_a_saved_id_keeps_its_copy(client, house):
    response = client.post(
        "/api/v1/games", json={"players": ["Anne", "Beth", "Cath", "Dora"], "first_declarer": 0, "preset": house["id"]}
    )
    assert response.status_code == 201, response.get_json()
    game = response.get_json()
    assert game["game"]["preset"] == house["preset"]
    assert game["game"]["standings"]["rounds_total"] == 12
    # Ravage City, Anne and Cath tied: −12 each; the declarer (dealer chooses) is Anne.
    headers = bearer(game["edit_token"])
    round_ = client.post(
        f"/api/v1/games/{game['id']}/rounds",
        headers=headers,
        json={"contract": "ravage-city", "doubles": [], "outcome": {"most": [0, 2]}},
    ).get_json()
    assert round_["result"]["total"] == [-12, 0, -12, 0]

    preset_url = f"/api/v1/presets/{house['id']}"
    client.put(
        preset_url,
        json={**HOUSE, "contracts": [{"id": "ravage-city", "penalty": -36}]},
        headers=bearer(house["edit_token"]),
    )
    after_edit = client.get(f"/api/v1/games/{game['id']}", headers=headers).get_json()
    assert after_edit["preset"] == house["preset"]
    assert after_edit["rounds"][0]["result"]["total"] == [-12, 0, -12, 0]
    client.delete(preset_url, headers=bearer(house["edit_token"]))
    after_delete = client.get(f"/api/v1/games/{game['id']}", headers=headers).get_json()
    assert after_delete == after_edit


def test_an_unknown_preset_id_is_refused_for_a_game(client):
    response = client.post(
        "/api/v1/games",
        json={"players": ["Anne", "Beth", "Cath", "Dora"], "first_declarer": 0, "preset": "no-such-preset"},
    )
    assert response.status_code == 422
    assert response.get_json()["path"] == "preset"


def test_one_address_saves_at_most_its_number_of_presets_through_the_api(app, client):
    app.config["MAX_PRESETS_PER_ADDRESS"] = 2
    now = [datetime(2026, 11, 30, 18, 0, tzinfo=UTC)]
    app.config["CLOCK"] = lambda: now[0]
    obj = preset_to_dict(BUILTIN["brader"])
    for _ in range(2):
        assert client.post("/api/v1/presets", json={"preset": obj}).status_code == 201
    response = client.post("/api/v1/presets", json={"preset": obj})
    assert response.status_code == 429
    assert "2 presets were saved from this network, the most allowed within 1 day" in response.get_json()["error"]
    assert response.headers["Retry-After"] == str(6 * 3600)  # 18:00 to midnight UTC
    with app.app_context():
        assert db.session.query(StoredPreset).count() == 2
    now[0] = datetime(2026, 12, 1, 0, 0, tzinfo=UTC)
    assert client.post("/api/v1/presets", json={"preset": obj}).status_code == 201  # the window moved on
    other = client.post("/api/v1/presets", json={"preset": obj}, environ_base={"REMOTE_ADDR": "10.0.0.7"})
    assert other.status_code == 201


def test_every_refusal_names_the_token_it_wants_as_json(client, house):
    url = f"/api/v1/presets/{house['id']}"
    assert client.delete(url).get_json() == {
        "error": "send the preset's edit token as 'Authorization: Bearer <token>'",
        "path": None,
    }
    assert client.delete(url, headers={"Authorization": "Basic " + house["edit_token"]}).status_code == 401
    assert client.delete(url, headers=bearer("wrong")).get_json() == {
        "error": "this is not the edit token of this preset",
        "path": None,
    }
    assert client.get("/api/v1/presets/nosuchpreset").get_json() == {
        "error": "no preset called 'nosuchpreset'",
        "path": None,
    }
    assert client.delete("/api/v1/presets/brader", headers=bearer("x")).get_json() == {
        "error": "brader is a built-in preset and cannot be changed; POST a copy instead",
        "path": None,
    }
    # The scheme is case-insensitive and spaces around the token do not count.
    assert client.delete(url, headers={"Authorization": f"bearer  {house['edit_token']} "}).status_code == 204
