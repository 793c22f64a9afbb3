"""Home, the new-game form and the game page (edit and view token)."""

import json
import re
from pathlib import Path

import pytest

from scorepad.scoring import ScoringErrors, parse_game
from scorepad.services import games
from tests.test_names import without_isolates

EXAMPLE = json.loads((Path(__file__).parent / "data" / "examples" / "tournament-full.json").read_text())
PLAYERS = EXAMPLE["game"]["players"]  # Élodie, Anne, Beth, Marc


def new_game_form(**overrides):
    form = {"title": "", "first_declarer": "2", "preset": "tournament"}
    form.update({f"players-{seat}": name for seat, name in enumerate(PLAYERS)})
    form.update(overrides)
    return form


def field_error(html: str, field_id: str) -> str:
    """The text of the error list rendered next to the field ``field_id``."""
    match = re.search(rf'<ul class="field-error[^"]*" id="{re.escape(field_id)}-error"[^>]*>(.*?)</ul>', html, re.S)
    assert match, f"no error next to {field_id}"
    return re.sub(r"<[^>]+>", " ", match.group(1))


def import_game(app, rounds=0):
    """Store the example game with its first ``rounds`` rounds; the edit and view tokens."""
    doc = {**EXAMPLE["game"], "rounds": EXAMPLE["game"]["rounds"][:rounds]}
    with app.app_context():
        stored, _ = games.create_game(doc)
        return stored.edit_token, stored.view_token


def test_home_offers_a_new_game(client):
    response = client.get("/")
    assert response.status_code == 200
    assert b'href="/games/new"' in response.data
    assert b"New game" in response.data


def test_new_game_form_labels_every_player_in_seating_order(client):
    html = client.get("/games/new").get_data(as_text=True)
    for seat in range(4):
        assert f'<label for="players-{seat}">Player {seat + 1}</label>' in html
    assert "Draw by lot" in html
    assert '<option selected value="tournament">Tournament Barbu</option>' in html or 'value="tournament"' in html


def test_a_valid_new_game_redirects_to_its_page(client):
    response = client.post("/games/new", data=new_game_form(title="Thursday, table 2"))
    assert response.status_code == 303
    token = response.headers["Location"].rsplit("/", 1)[1]
    page = without_isolates(client.get(f"/g/{token}").get_data(as_text=True))
    assert "Thursday, table 2" in page
    assert all(name in page for name in PLAYERS)
    assert "Round 1 of 28" in page
    # Seat 2 (Beth) declares first; her right-hand neighbour Anne deals.
    assert re.search(r"<dt>Declarer</dt><dd>Beth</dd>", page)
    assert re.search(r"<dt>Dealer</dt><dd>Anne</dd>", page)


def test_the_home_page_lists_games_started_on_this_device(client):
    client.post("/games/new", data=new_game_form(title="Friday game"))
    html = without_isolates(client.get("/").get_data(as_text=True))
    assert "Friday game" in html
    assert "Élodie · Anne · Beth · Marc" in html
    assert "0 of 28 rounds played" in html


@pytest.mark.parametrize(
    ("overrides", "field", "message"),
    [
        ({"players-1": "élodie"}, "players-1", "already playing"),
        ({"players-2": "   "}, "players-2", "the name is empty"),
        ({"players-3": "M" * 41}, "players-3", "longer than 40 characters"),
        ({"title": "T" * 81}, "title", "longer than 80 characters"),
    ],
)
def test_an_invalid_new_game_is_refused_next_to_the_field(client, overrides, field, message):
    response = client.post("/games/new", data=new_game_form(**overrides))
    assert response.status_code == 422
    assert message in field_error(response.get_data(as_text=True), field)


def test_the_first_declarer_can_be_drawn_by_lot(client, monkeypatch):
    monkeypatch.setattr("scorepad.forms.games.secrets.randbelow", lambda n: 3)
    response = client.post("/games/new", data=new_game_form(first_declarer="draw"), follow_redirects=True)
    html = without_isolates(response.get_data(as_text=True))
    assert "Drawn by lot: Marc declares first." in html
    assert re.search(r"<dt>Declarer</dt><dd>Marc</dd>", html)


def test_the_edit_token_shows_the_scorers_controls(app, client):
    edit, view = import_game(app, rounds=3)
    response = client.get(f"/g/{edit}")
    html = response.get_data(as_text=True)
    assert response.status_code == 200
    assert "HX-Request" in response.headers["Vary"]
    assert 'data-contract="no-tricks"' in html  # Beth still has No Tricks to declare
    assert 'data-contract="no-queens"' not in html  # already declared in round 3
    assert "Undo round 3" in html
    assert f"/b/{view}" in html  # the live scoreboard link to share


def test_the_view_token_is_read_only(app, client):
    _, view = import_game(app, rounds=3)
    html = client.get(f"/g/{view}").get_data(as_text=True)
    assert "Round 4 of 28" in html
    main = html[html.index("<main") : html.index("</main>")]  # the footer's language switch aside
    assert "<form" not in main and "<button" not in main
    assert "data-contract" not in html
    assert "/edit" not in html


def test_an_unknown_token_is_not_found(client):
    assert client.get("/g/no-such-token").status_code == 404


def test_the_table_shows_round_and_running_totals(app, client):
    edit, _ = import_game(app, rounds=2)
    html = without_isolates(client.get(f"/g/{edit}").get_data(as_text=True))
    for number in (1, 2):
        row = re.search(rf'<tr id="round-{number}".*?</tr>', html, re.S).group(0)
        running = [
            int(v.replace("−", "-")) for v in re.findall(r'class="running"><span class="pts[^"]*">([^<]+)<', row)
        ]
        assert running == EXPECTED_RUNNING[number - 1]
    assert "Beth declares" in html  # the run's group header


EXPECTED_RUNNING = [r["result"]["running"] for r in EXAMPLE["expected"]["rounds"]]


def test_the_quota_of_doubles_against_the_declarer_is_shown(app, client):
    edit, _ = import_game(app, rounds=3)
    html = without_isolates(client.get(f"/g/{edit}").get_data(as_text=True))
    # Rounds 1-3, Beth declaring: Anne doubled her in rounds 1, 2 (and Élodie in 2, 3).
    given = EXAMPLE["game"]["rounds"][:3]
    anne = sum([1, 2] in r["doubles"] for r in given)
    elodie = sum([0, 2] in r["doubles"] for r in given)
    assert (anne, elodie) == (2, 2)
    quota = re.sub(r"<[^>]+>", "", re.search(r'<section id="quota".*?</section>', html, re.S).group(0))
    # Said as a player would (issue 13): given, then the quota, ticked once met.
    assert "Anne 2, quota 2 ✓" in quota and "Élodie 2, quota 2 ✓" in quota
    assert "Marc 0, quota 2\n" in quota and " of 2" not in quota


def test_a_complete_game_shows_the_final_ranks(app, client):
    edit, _ = import_game(app, rounds=28)
    html = without_isolates(client.get(f"/g/{edit}").get_data(as_text=True))
    standings = EXAMPLE["expected"]["standings"]
    final = re.search(r'<section id="final".*?</section>', html, re.S).group(0)
    shown = re.findall(
        r'<span class="rank-no">(\d)\.</span> ([^<]+)</span>\s*<span class="score"><span class="pts[^"]*">([^<]+)<',
        final,
    )
    assert [(int(rank), name, int(points.replace("−", "-"))) for rank, name, points in shown] == [
        (1, "Beth", 132),
        (2, "Anne", 56),
        (3, "Marc", 46),
        (4, "Élodie", -234),
    ]
    assert [standings["rank"][PLAYERS.index(name)] for _, name, _ in shown] == [1, 2, 3, 4]
    assert "round-form" not in html and "data-contract" not in html


def test_every_problem_of_the_new_game_form_is_shown_at_once(client):
    """Issue 26, item 19: a long title, an empty name, a repeated name and a name too long, all
    sent together, are each refused next to its own field in the one answer."""
    data = new_game_form(title="T" * 81, **{"players-1": "", "players-2": "élodie", "players-3": "M" * 41})
    response = client.post("/games/new", data=data)
    assert response.status_code == 422
    html = response.get_data(as_text=True)
    assert "longer than 80 characters" in field_error(html, "title")
    assert "the name is empty" in field_error(html, "players-1")
    assert "already playing" in field_error(html, "players-2")
    assert "longer than 40 characters" in field_error(html, "players-3")


def test_the_engine_refuses_a_documents_fields_all_at_once_and_reads_as_the_first():
    document = {
        "title": 5,
        "date": "7 Dec",
        "players": ["Anne", "", "ANNE", "Beth"],
        "first_declarer": 0,
        "preset": "tournament",
    }
    with pytest.raises(ScoringErrors) as caught:
        parse_game(document)
    assert [(e.path, e.message) for e in caught.value.errors] == [
        ("title", "the title must be text"),
        ("date", "write the date as YYYY-MM-DD, such as 2026-12-03"),
        ("players[1]", "the name is empty"),
        ("players[2]", "ANNE is already playing; give each player a different name"),
    ]
    assert (caught.value.path, caught.value.message) == ("title", "the title must be text")
