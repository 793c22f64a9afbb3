"""The club rating (issue 16; club-format.md "A member's statistics", ``rating``) checked
against openskill called directly: Plackett–Luce with its defaults, one update per complete
game in order of ``date`` then of the game's creation, each seat a team of one ranked by the
game's ``final`` (ties tied, competition ranks as the standings give them), a guest a fresh
default rating that is not kept. Editing or undoing a round of an older game recomputes the
games that follow: the rating is always what a replay of the history gives.

The club and its games are the small club of tests/test_club_stats.py, whose finals and ranks
are worked out by hand there (FINALS).
"""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from openskill.models import PlackettLuce
from sqlalchemy import select

from scorepad.extensions import db
from scorepad.models import StoredMember, StoredResult
from tests.test_api import API, auth
from tests.test_club_stats import (
    BY_POINTS,
    FINALS,
    GAMES,
    GUEST,
    MEMBERS,
    TRUMPS_ONLY,
    add_member,
    build_club,
    create_club,
    member,
    play,
    start_game,
)

#: Complete games in rating order: by date, then by creation (G2 and G3 share 2026-03-12; G6,
#: created after G5, is dated the day before it). G4 is not complete: it never counts.
RATED = ["G1", "G2", "G3", "G6", "G5"]


def replay(order: list[str], ranks: dict[str, list[int]] | None = None) -> dict[str, list[tuple[str, float, float]]]:
    """openskill on the games ``order`` (labels of GAMES) with their hand-worked ranks (or
    ``ranks`` in their place): each member's ratings after each of their games, oldest first,
    as (label, μ, σ). A guest plays as a fresh default rating, not kept."""
    model = PlackettLuce()
    current = {name: model.rating() for name in MEMBERS}
    history: dict[str, list[tuple[str, float, float]]] = {name: [] for name in MEMBERS}
    for label in order:
        players = GAMES[label][2]
        teams = [[current[name] if name != GUEST else model.rating()] for name in players]
        rated = model.rate(teams, ranks=(ranks or {}).get(label, FINALS[label][1]))
        for name, team in zip(players, rated, strict=True):
            if name != GUEST:
                current[name] = team[0]
                history[name].append((label, team[0].mu, team[0].sigma))
    return history


def stored_steps(app, member_id: str, games: dict[str, dict]) -> dict[str, tuple[float, float]]:
    """The member's rating kept after each of their rated games (the results rows' μ and σ, the
    member page's rating history), by game label."""
    labels = {game["id"]: label for label, game in games.items()}
    with app.app_context():
        row_id = db.session.scalar(select(StoredMember.id).where(StoredMember.public_id == member_id))
        rows = db.session.execute(
            select(StoredResult.game_id, StoredResult.mu, StoredResult.sigma).where(
                StoredResult.member_id == row_id, StoredResult.mu.is_not(None)
            )
        ).all()
    return {labels[game_id]: (mu, sigma) for game_id, mu, sigma in rows}


def assert_ratings(app, client, club: dict, ids: dict[str, str], games: dict[str, dict], expected: dict) -> None:
    """Each member's rating (μ, σ, ordinal μ − 3σ, not updating) and the rating kept after each
    of their games are openskill's replay ``expected``."""
    for name in MEMBERS:
        rating = member(client, club, ids[name]).json["rating"]
        steps = expected[name]
        mu, sigma = (steps[-1][1], steps[-1][2]) if steps else (25.0, 25 / 3)
        assert rating["mu"] == pytest.approx(mu, rel=1e-9), name
        assert rating["sigma"] == pytest.approx(sigma, rel=1e-9), name
        assert rating["ordinal"] == pytest.approx(mu - 3 * sigma, rel=1e-9, abs=1e-9), name
        assert rating["updating"] is False, name
        kept = stored_steps(app, ids[name], games)
        assert set(kept) == {label for label, _, _ in steps}, name
        for label, step_mu, step_sigma in steps:
            assert kept[label] == (pytest.approx(step_mu, rel=1e-9), pytest.approx(step_sigma, rel=1e-9)), (name, label)


@pytest.fixture
def club(client):
    return build_club(client, "De Zwarte Koning", BY_POINTS)


def test_the_rating_is_openskills_over_the_complete_games_in_date_order(app, client, club):
    assert_ratings(app, client, *club, replay(RATED))


def test_games_of_one_date_are_rated_in_the_order_they_were_created(app, client):
    """G3 created before G2 (both of 2026-03-12): Erik, who sits in both, ends elsewhere."""
    labels = ("G1", "G3", "G2", "G4", "G5", "G6")
    built = build_club(client, "Le Roi Noir", BY_POINTS, labels)
    swapped = replay(["G1", "G3", "G2", "G6", "G5"])
    assert swapped["Erik"][-1] != pytest.approx(replay(RATED)["Erik"][-1])  # the order matters
    assert_ratings(app, client, *built, swapped)


def put_round(client, game: dict, number: int, rnd: dict):
    return client.put(f"{API}/games/{game['id']}/rounds/{number}", json=rnd, headers=auth(game["edit_token"]))


def test_editing_a_round_of_an_older_game_recomputes_the_games_that_follow(app, client, club):
    _, _, games = club
    # G1 round 2 (Anne declares Trumps, Beth doubles her) edited from tricks 5 3 3 2 to 2 3 3 5:
    # raw 10 15 15 25; Anne−Beth: 10 − 15 → Anne −5, Beth +5; total 5 20 15 25 (was 35 5 15 10).
    # Finals: Anne 51 − 30 = 21, Beth 50 + 15 = 65, Cath 30, Diana 33 + 15 = 48 → ranks 4 1 3 2.
    edited = {"contract": "trumps", "doubles": [[1, 0]], "outcome": {"tricks": [2, 3, 3, 5]}}
    assert put_round(client, games["G1"], 2, edited).status_code == 200
    standings = client.get(f"{API}/games/{games['G1']['id']}", headers=auth(games["G1"]["view_token"])).json
    assert standings["standings"]["final"] == [21, 65, 30, 48]
    expected = replay(RATED, {"G1": [4, 1, 3, 2]})
    assert expected["Anne"][-1] != pytest.approx(replay(RATED)["Anne"][-1])  # the edit moves every later rating
    assert_ratings(app, client, *club, expected)


def test_undoing_a_round_of_an_older_game_takes_it_out_of_the_rating_until_it_is_complete_again(app, client, club):
    _, _, games = club
    g1 = games["G1"]
    last = GAMES["G1"][3][-1]
    assert client.delete(f"{API}/games/{g1['id']}/rounds/8", headers=auth(g1["edit_token"])).status_code == 204
    # G1 is no longer complete: the rating is the replay of G2, G3, G6, G5 alone.
    assert_ratings(app, client, *club, replay(RATED[1:]))
    # Recorded again: as before the undo.
    response = client.post(f"{API}/games/{g1['id']}/rounds", json=last, headers=auth(g1["edit_token"]))
    assert response.status_code == 201
    assert_ratings(app, client, *club, replay(RATED))


def test_a_game_in_progress_does_not_move_the_rating_until_it_is_complete(client, club):
    _, ids, games = club
    g4 = games["G4"]
    before = member(client, club[0], ids["Erik"]).json["rating"]
    # G4 (Anne, Cath, Erik, Fay) goes on: R4 Cath declares Trumps, tricks 3 4 3 3. Still 4 rounds short.
    rnd = {"contract": "trumps", "doubles": [], "outcome": {"tricks": [3, 4, 3, 3]}}
    assert client.post(f"{API}/games/{g4['id']}/rounds", json=rnd, headers=auth(g4["edit_token"])).status_code == 201
    after = member(client, club[0], ids["Erik"]).json["rating"]
    assert (after["mu"], after["sigma"], after["updating"]) == (before["mu"], before["sigma"], False)


def test_merging_a_duplicate_replays_the_rating_as_one_player(app, client):
    """'Anne' played G1 and 'Anne B.' (the same person entered twice) G2. Merged, Anne's rating is
    openskill's on G1 then G2 with her one rating in both; before, G2 rated Anne B. from scratch."""
    club = create_club(client, "De Zwarte Koning", BY_POINTS)
    ids = {name: add_member(client, club, name)["id"] for name in ("Anne", "Anne B.", "Beth", "Cath", "Diana", "Erik")}
    games = {"G1": start_game(client, "G1", ids, club)}
    play(client, games["G1"], GAMES["G1"][3])
    games["G2"] = start_game(client, "G2", {**ids, "Anne": ids["Anne B."]}, club)
    play(client, games["G2"], GAMES["G2"][3])
    separate = replay(["G1"])["Anne"][-1]
    assert member(client, club, ids["Anne"]).json["rating"]["mu"] == pytest.approx(separate[1], rel=1e-9)
    url = f"{API}/clubs/{club['id']}/members/{ids['Anne B.']}/merge"
    assert client.post(url, json={"into": ids["Anne"]}, headers=auth(club["admin_token"])).status_code == 200
    expected = replay(["G1", "G2"])
    rating = member(client, club, ids["Anne"]).json["rating"]
    assert (rating["mu"], rating["sigma"], rating["updating"]) == (
        pytest.approx(expected["Anne"][-1][1], rel=1e-9),
        pytest.approx(expected["Anne"][-1][2], rel=1e-9),
        False,
    )
    assert stored_steps(app, ids["Anne"], games) == {
        label: (pytest.approx(mu, rel=1e-9), pytest.approx(sigma, rel=1e-9)) for label, mu, sigma in expected["Anne"]
    }
    # Beth and Erik, who played G2 against her, are rated against her merged rating too
    for name in ("Beth", "Erik"):
        got = member(client, club, ids[name]).json["rating"]
        assert got["mu"] == pytest.approx(expected[name][-1][1], rel=1e-9), name


# ---------------------------------------------------------------- never drifts from a replay

#: Three TRUMPS_ONLY games (4 rounds, no doubles), created in this order; T3 is dated before the others.
SHORT_GAMES = {
    "T1": ("2026-03-01", ["Anne", "Beth", "Cath", "Diana"]),
    "T2": ("2026-03-01", ["Erik", "Anne", GUEST, "Beth"]),
    "T3": ("2026-02-20", ["Cath", "Diana", "Erik", "Anne"]),
}
TRICKS = ([4, 3, 3, 3], [2, 5, 3, 3], [3, 3, 3, 4], [1, 2, 4, 6], [3, 4, 3, 3])
CHANGES = st.lists(
    st.tuples(st.sampled_from(sorted(SHORT_GAMES)), st.sampled_from(["edit", "undo", "record"]), st.integers(0, 19)),
    max_size=8,
)


def trumps(version: int) -> dict:
    return {"contract": "trumps", "doubles": [], "outcome": {"tricks": TRICKS[version % len(TRICKS)]}}


def replay_standings(client, games: dict[str, dict]) -> dict[str, tuple[float, float]]:
    """openskill on the games as they stand now (their standings from the games API), complete
    ones only, in order of date then creation; each member's last (μ, σ)."""
    model = PlackettLuce()
    current = {}
    order = sorted(SHORT_GAMES, key=lambda label: (SHORT_GAMES[label][0], list(SHORT_GAMES).index(label)))
    for label in order:
        game = games[label]
        standings = client.get(f"{API}/games/{game['id']}", headers=auth(game["view_token"])).json["standings"]
        if not standings["complete"]:
            continue
        players = SHORT_GAMES[label][1]
        teams = [[current.get(name, model.rating())] if name != GUEST else [model.rating()] for name in players]
        for name, (after,) in zip(players, model.rate(teams, ranks=standings["rank"]), strict=True):
            if name != GUEST:
                current[name] = after
    return {name: (rating.mu, rating.sigma) for name, rating in current.items()}


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(changes=CHANGES)
def test_after_any_edits_and_undos_the_rating_is_a_replay_of_the_games_as_they_stand(app, client, changes):
    app.config["MAX_EVENTS_PER_ADDRESS_BURST"] = 10**6  # a club counts as a night: one per example
    app.config["MAX_EVENTS_PER_ADDRESS"] = 10**6
    app.config["MAX_GAMES_PER_ADDRESS_BURST"] = 10**6
    app.config["MAX_GAMES_PER_ADDRESS"] = 10**6
    club = create_club(client, "De Zwarte Koning", {})
    names = ("Anne", "Beth", "Cath", "Diana", "Erik")
    ids = {name: add_member(client, club, name)["id"] for name in names}
    games = {}
    for n, (label, (day, players)) in enumerate(SHORT_GAMES.items()):
        document = {
            "players": players,
            "first_declarer": 0,
            "preset": TRUMPS_ONLY,
            "date": day,
            "club": club["id"],
            "members": [ids.get(name) for name in players],
            "rounds": [trumps(n + r) for r in range(4)],
        }
        response = client.post(f"{API}/games", json=document, headers={"X-Club-Token": club["admin_token"]})
        assert response.status_code == 201, response.json
        games[label] = response.json
    for label, operation, pick in changes:
        game = games[label]
        url, headers = f"{API}/games/{game['id']}/rounds", auth(game["edit_token"])
        count = len(client.get(f"{API}/games/{game['id']}", headers=headers).json["rounds"])
        if operation == "edit" and count:
            assert client.put(f"{url}/{pick % count + 1}", json=trumps(pick), headers=headers).status_code == 200
        elif operation == "undo" and count:
            assert client.delete(f"{url}/{count}", headers=headers).status_code == 204
        elif operation == "record" and count < 4:
            assert client.post(url, json=trumps(pick), headers=headers).status_code == 201
    expected = replay_standings(client, games)
    for name in names:
        rating = member(client, club, ids[name]).json["rating"]
        mu, sigma = expected.get(name, (25.0, 25 / 3))
        assert (rating["mu"], rating["sigma"], rating["updating"]) == (
            pytest.approx(mu, rel=1e-9),
            pytest.approx(sigma, rel=1e-9),
            False,
        ), name
