"""Malformed and random input never makes a 500: schemathesis drives /api/v1 from its
OpenAPI description (scorepad/openapi.json), Hypothesis fills the forms with junk.

The suite runs a few hundred requests per endpoint; for thousands more, by hand:
SCOREPAD_FUZZ_EXAMPLES=3000 .venv/bin/python -m pytest tests/test_fuzz.py
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from werkzeug.datastructures import MultiDict

from scorepad.scoring import BUILTIN, preset_to_dict

pytestmark = pytest.mark.fuzz

EXAMPLES = int(os.environ.get("SCOREPAD_FUZZ_EXAMPLES", "150"))
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.function_scoped_fixture],
)
EXAMPLE = json.loads((Path(__file__).parent / "data" / "examples" / "tournament-full.json").read_text())

# The OpenAPI description the server publishes at /api/v1/openapi.json.
SCHEMA = schemathesis.openapi.from_path(Path(__file__).parent.parent / "scorepad" / "openapi.json")
OPERATIONS = {f"{op.method.upper()} {op.path}": op for op in (result.ok() for result in SCHEMA.get_all_operations())}


@pytest.fixture
def game(client):
    """A game with five rounds: (id, edit token, view token), so tokens and ids can be real."""
    response = client.post("/api/v1/games", json={**EXAMPLE["game"], "rounds": EXAMPLE["game"]["rounds"][:5]})
    body = response.get_json()
    return body["id"], body["edit_token"], body["view_token"]


@pytest.fixture
def preset(client):
    """A saved preset (Brader's scoring): (id, edit token)."""
    response = client.post("/api/v1/presets", json={"preset": preset_to_dict(BUILTIN["brader"]), "notes": "Fuzzed"})
    body = response.get_json()
    return body["id"], body["edit_token"]


def test_the_published_description_is_the_one_fuzzed(client):
    assert client.get("/api/v1/openapi.json").get_json() == SCHEMA.raw_schema
    assert set(OPERATIONS) >= {
        "POST /games",
        "GET /games/{game_id}",
        "POST /games/{game_id}/rounds",
        "PUT /games/{game_id}/rounds/{number}",
        "DELETE /games/{game_id}/rounds/{number}",
        "GET /presets",
        "POST /presets",
        "GET /presets/{preset_id}",
        "PUT /presets/{preset_id}",
        "DELETE /presets/{preset_id}",
    }


@pytest.mark.parametrize("operation", sorted(OPERATIONS))
def test_the_api_never_answers_500(app, game, preset, operation):
    """schemathesis draws requests that fit the description (and Hypothesis bends them);
    whatever comes, the answer is never a server error, and an error has a message."""
    app.config["MAX_GAMES_PER_ADDRESS"] = 10**6  # the fuzzer starts many games from one address
    app.config["MAX_PRESETS_PER_ADDRESS"] = 10**6  # and saves many presets
    game_id, edit, view = game
    preset_id, preset_token = preset

    @FUZZ
    @given(case=OPERATIONS[operation].as_strategy(), data=st.data())
    def run(case, data):
        # Mostly the real game and a real token, so the fuzz reaches the engine, not only 404s.
        if "game_id" in (case.path_parameters or {}) and data.draw(st.booleans()):
            case.path_parameters["game_id"] = game_id
        if "preset_id" in (case.path_parameters or {}) and data.draw(st.booleans()):
            case.path_parameters["preset_id"] = data.draw(st.sampled_from([preset_id, preset_id, "tournament"]))
        tokens = (
            [preset_token, preset_token, edit, ""]
            if "preset_id" in (case.path_parameters or {})
            else [edit, edit, view, "", "x" * 32, edit[:-1]]
        )
        token = data.draw(st.sampled_from(tokens))
        response = case.call(app=app, headers={"Authorization": f"Bearer {token}"})
        assert response.status_code < 500, (case.method, case.formatted_path, case.body, response.text[:500])
        if response.status_code >= 400 and response.status_code != 405:
            assert response.json()["error"]

    run()


JUNK = st.one_of(
    st.text(max_size=60),
    st.integers(-(10**6), 10**6).map(str),
    st.sampled_from(
        [
            "",
            "0",
            "3",
            "4",
            "-1",
            "1e9",
            "0-1",
            "3-3",
            "9-0",
            "no-tricks",
            "domino",
            "trumps",
            "salade",
            "ravage-city",
            "A",
            "10",
            "spades",
            "\x00",
            "<script>",
        ]
    ),
)
ROUND_FIELDS = [
    "contract",
    "number",
    "trump",
    "start_rank",
    "ace",
    "king",
    "penultimate",
    "last",
    "most",
    "doubles",
    *[f"{part}-{i}" for part in ("tricks", "queens", "hearts", "order") for i in range(5)],
    "csrf_token",
]
GAME_FIELDS = ["title", "first_declarer", "preset", *[f"players-{i}" for i in range(5)], "draw", "csrf_token"]
GAME_FIELDS += ["date", "timezone"]  # the hidden fields of the phone's date and time zone


def form(fields: list[str]):
    return st.lists(st.tuples(st.sampled_from(fields), JUNK), max_size=14)


@FUZZ
@given(fields=form(ROUND_FIELDS))
def test_the_round_form_never_answers_500(client, game, fields):
    _, edit, view = game
    for path in (f"/g/{edit}/rounds", f"/g/{edit}/rounds/2/edit", f"/g/{view}/rounds"):
        response = client.post(path, data=MultiDict(fields))
        assert response.status_code in (200, 303, 403, 409, 422), (path, fields, response.status_code)


@FUZZ
@given(fields=form(GAME_FIELDS))
def test_the_new_game_form_never_answers_500(app, fields):
    app.config["MAX_GAMES_PER_DEVICE"] = 10**6
    response = app.test_client().post("/games/new", data=MultiDict(fields))
    assert response.status_code in (303, 422), (fields, response.status_code)


@FUZZ
@given(
    path=st.text(alphabet=st.characters(codec="utf-8", exclude_characters="\x00?#"), max_size=40),
    number=st.integers(-5, 40),
    query=st.text(max_size=20),
)
def test_odd_urls_never_answer_500(client, game, path, number, query):
    _, edit, _ = game
    for url in (
        f"/g/{path}",
        f"/g/{edit}/rounds/{number}",
        f"/g/{edit}/rounds/new?contract={query}",
        f"/g/{edit}/rounds/{number}/edit?contract={query}",
    ):
        assert client.get(url).status_code < 500, url
