"""Play again (issue 13, "What players expect at a table"): a finished game starts the next one
with the same players in the same seats, the same preset and title, and the next player
declaring first; the API's ``POST /api/v1/games/<id>/rematch`` (edit token) answers 201 as
creating a game does, the game page's button 303 to the new game's page. Both count against
the new-game limits.

Expected values are worked out by hand from barbu-rules.md ("Table and schedule": the role
passes to the player on the left, seat + 1) and the examples (tests/data/examples/)."""

import json
import re
from datetime import UTC, datetime
from pathlib import Path

import pytest

from scorepad.extensions import db
from scorepad.models import StoredGame
from scorepad.scoring import BUILTIN, Game, parse_game
from scorepad.scoring.game import rematch, rematch_first_declarer
from scorepad.services import clubs, games
from tests.test_club_stats import GAMES, add_member, create_club, play, start_game

EXAMPLES = Path(__file__).parent / "data" / "examples"
#: 28 rounds, complete; players Élodie, Anne, Beth, Marc; Beth (seat 2) declared first.
FULL = json.loads((EXAMPLES / "tournament-full.json").read_text(encoding="utf-8"))["game"]
#: A whole preset object (house values), complete; Anne (seat 0) declared first.
HOUSE = json.loads((EXAMPLES / "house-rules.json").read_text(encoding="utf-8"))["game"]
API = "/api/v1"
EVENING = datetime(2026, 12, 3, 19, 30, tzinfo=UTC)  # a Thursday


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def games_stored(app) -> int:
    with app.app_context():
        return db.session.query(StoredGame).count()


@pytest.fixture
def finished(app, client):
    """The tournament example, all 28 rounds recorded, started through the API."""
    app.config["CLOCK"] = lambda: EVENING
    response = client.post(f"{API}/games", json={**FULL, "title": "Thursday, table 2"})
    assert response.status_code == 201
    return response.get_json()


# -- the engine's rule -------------------------------------------------------------------------


@pytest.mark.parametrize("first, next_first", [(0, 1), (1, 2), (2, 3), (3, 0)])
def test_the_player_on_the_first_declarers_left_declares_first_in_the_rematch(first, next_first):
    assert rematch_first_declarer(first) == next_first


def test_a_rematch_keeps_the_seats_preset_and_title_and_starts_with_no_rounds():
    game = parse_game(HOUSE)
    again = rematch(game)
    assert again == Game(
        players=("Anne", "Jörg", "Piet", "Zoë"),
        first_declarer=1,  # Anne (seat 0) opened the game; Jörg, on her left, opens the next
        preset=game.preset,
        title="house-rules",
    )
    assert again.rounds == () and again.date is None


def test_a_rematch_with_rotation_by_round_passes_the_first_declaration_on_too():
    """With the role moving left every round (a preset setting), the rule is the same seat + 1."""
    preset = BUILTIN["tournament"]
    game = Game(players=("Anne", "Beth", "Cath", "Diana"), first_declarer=3, preset=preset)
    assert rematch(game).first_declarer == 0


# -- the API -----------------------------------------------------------------------------------


def test_the_api_rematch_answers_201_exactly_as_creating_a_game(app, client, finished):
    response = client.post(f"{API}/games/{finished['id']}/rematch", headers=auth(finished["edit_token"]))
    assert response.status_code == 201
    body = response.get_json()
    assert set(body) == {"id", "edit_token", "view_token", "confirm_token", "links", "game"}  # the create answer's keys
    assert set(body["links"]) == set(finished["links"])
    assert response.headers["Location"] == f"http://localhost{API}/games/{body['id']}"
    assert body["id"] != finished["id"]
    assert {body["edit_token"], body["view_token"]}.isdisjoint({finished["edit_token"], finished["view_token"]})
    game = body["game"]
    assert game["players"] == ["Élodie", "Anne", "Beth", "Marc"]
    assert game["first_declarer"] == 3  # Beth (seat 2) opened; Marc, on her left, opens the rematch
    assert game["title"] == "Thursday, table 2"
    assert game["preset"] == finished["game"]["preset"]
    assert game["rounds"] == []
    assert game["date"] == "2026-12-03"
    standings = game["standings"]
    assert (standings["complete"], standings["rounds_played"], standings["rounds_total"]) == (False, 0, 28)
    # Round 1: Marc declares; the dealer is his right-hand neighbour, Beth (seat 2).
    assert standings["next"]["declarer"] == 3 and standings["next"]["dealer"] == 2
    # The new game is a game like any other: its edit token reads and writes it.
    assert client.get(f"{API}/games/{body['id']}", headers=auth(body["edit_token"])).status_code == 200


def test_a_rematch_keeps_a_whole_preset_object(app, client):
    created = client.post(f"{API}/games", json=HOUSE).get_json()
    body = client.post(f"{API}/games/{created['id']}/rematch", headers=auth(created["edit_token"])).get_json()
    assert body["game"]["preset"] == created["game"]["preset"]
    assert body["game"]["first_declarer"] == 1
    assert body["game"]["players"] == ["Anne", "Jörg", "Piet", "Zoë"]


@pytest.mark.parametrize(
    "which, status",
    [("view_token", 403), ("none", 401), ("wrong", 404)],
)
def test_only_the_edit_token_starts_a_rematch(app, client, finished, which, status):
    headers = {"none": {}, "wrong": auth("x" * 32)}[which] if which in ("none", "wrong") else auth(finished[which])
    response = client.post(f"{API}/games/{finished['id']}/rematch", headers=headers)
    assert response.status_code == status
    assert response.get_json()["error"]
    assert games_stored(app) == 1


def test_an_unfinished_game_has_no_rematch_yet(app, client):
    created = client.post(f"{API}/games", json={**FULL, "rounds": FULL["rounds"][:5]}).get_json()
    response = client.post(f"{API}/games/{created['id']}/rematch", headers=auth(created["edit_token"]))
    assert response.status_code == 409
    assert response.get_json()["error"] == (
        "the game is not finished (5 of 28 rounds recorded); a rematch starts after the last round"
    )
    assert games_stored(app) == 1


def test_a_rematch_counts_against_the_new_game_limits(app, client, finished):
    """The address's burst for scripts is set to 2 games a minute: the game and one rematch;
    the second rematch is refused with the wait until the minute ends (19:30:00 → 60 s)."""
    app.config["MAX_GAMES_PER_ADDRESS_BURST"] = 2
    url = f"{API}/games/{finished['id']}/rematch"
    assert client.post(url, headers=auth(finished["edit_token"])).status_code == 201
    refused = client.post(url, headers=auth(finished["edit_token"]))
    assert refused.status_code == 429
    assert refused.headers["Retry-After"] == "60"
    assert games_stored(app) == 2


def test_the_game_links_do_not_offer_a_rematch_link(finished):
    """Every link of ``links`` is a page or a file to GET; the rematch is a POST to the game's
    API URL + ``/rematch`` (the OpenAPI description), not a link."""
    assert "rematch" not in finished["links"]


# -- the game page -----------------------------------------------------------------------------


def scorer_url(token: str) -> str:
    return f"/g/{token}"


def test_a_finished_game_page_offers_play_again_and_sharing(client, finished):
    page = client.get(scorer_url(finished["edit_token"])).get_data(as_text=True)
    assert f'action="/g/{finished["edit_token"]}/rematch"' in page
    assert "Play again" in page
    assert "Marc</bdi> declares first" in page  # seat 3, on the left of Beth (seat 2)
    assert "data-share " in page or "data-share\n" in page or "data-share data-share-title" in page
    assert f'href="/b/{finished["view_token"]}/card.png?lang=en"' in page


def test_the_read_only_page_of_a_finished_game_shares_but_offers_no_rematch(client, finished):
    page = client.get(scorer_url(finished["view_token"])).get_data(as_text=True)
    assert "/rematch" not in page
    assert "Share the result" in page
    assert f'href="/b/{finished["view_token"]}/card.png?lang=en"' in page


def test_an_unfinished_game_page_offers_neither(client):
    created = client.post(f"{API}/games", json={**FULL, "rounds": FULL["rounds"][:27]}).get_json()
    page = client.get(scorer_url(created["edit_token"])).get_data(as_text=True)
    assert 'id="finished"' not in page
    assert "/rematch" not in page


def test_play_again_goes_to_the_new_games_page(app, client, finished):
    response = client.post(f"/g/{finished['edit_token']}/rematch")
    assert response.status_code == 303
    new_token = re.fullmatch(r"/g/([A-Za-z0-9_-]+)", response.headers["Location"]).group(1)
    assert new_token != finished["edit_token"]
    assert games_stored(app) == 2
    page = client.get(response.headers["Location"]).get_data(as_text=True)
    assert "Play again: \u2068Marc\u2069 declares first." in page
    assert "Thursday, table 2" in page
    # Round 1 of the new game: Marc declares, Beth deals.
    with app.app_context():
        new = db.session.query(StoredGame).order_by(StoredGame.id.desc()).first()
        assert (new.players, new.first_declarer, new.rounds) == (["Élodie", "Anne", "Beth", "Marc"], 3, [])
    # The new game is among this device's recent games (the old one came from the API: not there).
    assert f"/g/{new_token}" in client.get("/").get_data(as_text=True)


def test_play_again_needs_the_edit_token(app, client, finished):
    assert client.post(f"/g/{finished['view_token']}/rematch").status_code == 403
    assert client.post("/g/not-a-token/rematch").status_code == 404
    assert games_stored(app) == 1


def test_play_again_needs_the_forms_csrf_token(app, client, finished):
    app.config["WTF_CSRF_ENABLED"] = True
    assert client.post(f"/g/{finished['edit_token']}/rematch").status_code == 400
    assert games_stored(app) == 1


def test_play_again_on_an_unfinished_game_says_why(app, client):
    created = client.post(f"{API}/games", json={**FULL, "rounds": FULL["rounds"][:5]}).get_json()
    response = client.post(f"/g/{created['edit_token']}/rematch")
    assert response.status_code == 409
    assert (
        "The game is not finished (5 of 28 rounds recorded); a rematch starts after the last round"
        in response.get_data(as_text=True)
    )
    assert games_stored(app) == 1


def test_play_again_beyond_the_limit_stays_on_the_game_page_with_the_reason(app, client, finished):
    """This browser's device (made by its first page) may start 1 game a minute: the first
    Play again starts one, the second is refused on the game page, 429, the wait said."""
    app.config["MAX_GAMES_PER_DEVICE_BURST"] = 1
    assert client.post(f"/g/{finished['edit_token']}/rematch").status_code == 303
    refused = client.post(f"/g/{finished['edit_token']}/rematch")
    assert refused.status_code == 429
    assert refused.headers["Retry-After"] == "60"
    page = refused.get_data(as_text=True)
    assert "This device has started 1 game, the most allowed within 1 minute" in page
    assert 'id="finished"' in page  # still the game's page, with its buttons
    assert games_stored(app) == 2


def test_play_again_is_translated(client, finished):
    client.post("/language", data={"lang": "de", "next": "/"})
    page = client.get(scorer_url(finished["edit_token"])).get_data(as_text=True)
    assert "Nochmal spielen" in page


# -- one rematch per game -----------------------------------------------------------------------


def test_a_game_is_played_again_once_a_second_api_call_answers_that_same_game(app, client, finished):
    url = f"{API}/games/{finished['id']}/rematch"
    first = client.post(url, headers=auth(finished["edit_token"]))
    assert first.status_code == 201
    again = client.post(url, headers=auth(finished["edit_token"]))
    assert again.status_code == 200  # nothing new: the table's one rematch
    assert {k: again.json[k] for k in ("id", "edit_token", "view_token")} == {
        k: first.json[k] for k in ("id", "edit_token", "view_token")
    }
    assert again.json["game"]["first_declarer"] == 3  # Marc, as in the first answer
    assert games_stored(app) == 2


def test_two_phones_tapping_play_again_score_the_same_new_game(app, client, finished):
    """The scorer's phone and a second phone holding the edit link both tap Play again: both
    land on one new game's page, the second told it was started already."""
    second_phone = app.test_client()
    first = client.post(f"/g/{finished['edit_token']}/rematch")
    second = second_phone.post(f"/g/{finished['edit_token']}/rematch")
    assert first.status_code == second.status_code == 303
    assert first.headers["Location"] == second.headers["Location"]
    assert games_stored(app) == 2
    page = second_phone.get(second.headers["Location"]).get_data(as_text=True)
    assert "This game is being played again already: here it is. \u2068Marc\u2069 declares first." in page


def test_the_rematch_is_kept_sealed_never_as_its_token(app, client, finished):
    """The old game's row holds the rematch's edit token only sealed with the old game's edit
    token: neither the token nor its digest's preimage is in the database."""
    body = client.post(f"{API}/games/{finished['id']}/rematch", headers=auth(finished["edit_token"])).json
    with app.app_context():
        old = db.session.get(StoredGame, finished["id"])
        assert old.rematch_sealed and body["edit_token"] not in old.rematch_sealed
        assert db.session.get(StoredGame, body["id"]).rematch_sealed is None


# -- a club's game: played again for the club only by its admin ----------------------------------


def club_rematch_on_page(app, client, edit_token: str) -> tuple[int | None, str]:
    """Play again on the game page with ``client``: the new game's club id and the page it lands on."""
    response = client.post(f"/g/{edit_token}/rematch")
    assert response.status_code == 303, response.text
    landed = client.get(response.headers["Location"]).text
    token = response.headers["Location"].rsplit("/", 1)[1]
    with app.app_context():
        found = games.find_by_token(token)
        assert found is not None
        return found[0].club_id, landed


def test_a_club_game_plays_again_for_the_club_only_on_a_phone_that_opened_the_clubs_admin_page(app):
    admin, scorer = app.test_client(), app.test_client()
    club = create_club(admin, "De Zwarte Koning", {})
    ids = {name: add_member(admin, club, name)["id"] for name in ("Anne", "Beth", "Cath", "Diana")}
    first, second = start_game(admin, "G1", ids, club), start_game(admin, "G1", ids, club)
    for game in (first, second):
        play(admin, game, GAMES["G1"][3])
    with app.app_context():
        club_id = clubs.find_club(club["admin_token"])[0].id
    note = "The new game will not count for the club: only a phone that opened the club’s admin page"
    # The table's scorer link alone (a phone that never opened the club's admin page): told
    # before, and the new game is nobody's club game.
    assert note in scorer.get(f"/g/{first['edit_token']}").text
    new_club, landed = club_rematch_on_page(app, scorer, first["edit_token"])
    assert new_club is None
    assert "This game does not count for the club." in landed
    # The admin's phone (it opened the club's admin page): no note, the new game is the club's.
    assert admin.get(f"/k/{club['admin_token']}").status_code == 200
    assert note not in admin.get(f"/g/{second['edit_token']}").text
    new_club, landed = club_rematch_on_page(app, admin, second["edit_token"])
    assert new_club == club_id
    assert "does not count for the club" not in landed
