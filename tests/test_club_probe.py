"""Hostile probes of the clubs (issue 16): the stored ratings equal a replay from scratch after
merges, imports with old dates, undos and rematches; security of the club's routes; bad input.

The replay here is independent of scorepad.services.rating: every complete club game, in order of date,
creation and id, rated with openskill directly from the rounds' standings (tests compare the
stored μ/σ of each results row with it)."""

import pytest
from openskill.models import PlackettLuce
from sqlalchemy import select, text, update

from scorepad.extensions import db
from scorepad.models import StoredClub, StoredGame, StoredMember, StoredResult
from scorepad.scoring import score
from scorepad.services.rating import REPLAY_LOCK
from tests.test_api import API, auth
from tests.test_api_events import FirstSeat
from tests.test_club_stats import (
    GAMES,
    add_member,
    build_club,
    create_club,
    game_document,
    member,
    play,
    start_game,
    tr,
)

MODEL = PlackettLuce()


def member_of_row(by_id: dict[int, StoredMember], public: str | None) -> int | None:
    found = [m for m in by_id.values() if m.public_id == public]
    m = found[0] if found else None
    while m is not None and m.merged_into is not None:
        m = by_id[m.merged_into]
    return m.id if m else None


def expected_ratings(app, club_public: str) -> dict[tuple[int, int], tuple[float, float] | None]:
    """(game id, seat) → (μ, σ) after that game, from scratch (None: not rated)."""
    with app.app_context():
        games = db.session.scalars(select(StoredGame).where(StoredGame.club_id.is_not(None))).all()
        by_id = {m.id: m for m in db.session.scalars(select(StoredMember))}
        games = sorted(games, key=lambda g: (g.date, g.created_at, g.id))
        current: dict[int, object] = {}
        out: dict[tuple[int, int], tuple[float, float] | None] = {}
        for g in games:
            standings = score(g.to_game()).standings
            seats = [member_of_row(by_id, p) for p in (g.members or [None] * 4)]
            if not standings.complete:
                out.update({(g.id, s): None for s in range(4)})
                continue
            ranks = [standings.rank[s] for s in range(4)]
            teams = [[current.get(m) or MODEL.rating()] if m else [MODEL.rating()] for m in seats]
            rated = MODEL.rate(teams, ranks=ranks)
            for s, (m, (after,)) in enumerate(zip(seats, rated, strict=True)):
                if m is not None:
                    current[m] = after
                    out[(g.id, s)] = (after.mu, after.sigma)
                else:
                    out[(g.id, s)] = None
        return out


def assert_ratings_replayed(app, club_public: str) -> None:
    want = expected_ratings(app, club_public)
    with app.app_context():
        rows = db.session.scalars(select(StoredResult)).all()
        got = {(r.game_id, r.seat): (None if r.mu is None else (r.mu, r.sigma)) for r in rows}
        assert all(r.rated for r in rows)
    assert set(got) == set(want)
    for key, value in want.items():
        if value is None:
            assert got[key] is None, key
        else:
            assert got[key] is not None, key
            assert abs(got[key][0] - value[0]) < 1e-9 and abs(got[key][1] - value[1]) < 1e-9, key


def merge(client, club: dict, source: str, into: str):
    return client.post(
        f"{API}/clubs/{club['id']}/members/{source}/merge", json={"into": into}, headers=auth(club["admin_token"])
    )


def members_named(client, club: dict, *names: str) -> dict[str, str]:
    return {name: add_member(client, club, name)["id"] for name in names}


def test_merges_in_a_chain_leave_the_ratings_those_of_a_replay(app, client):
    club = create_club(client, "Probe", {})
    ids = members_named(client, club, "Anne", "Beth", "Cath", "Diana", "Erik", "Fay", "Gwen")
    # Gwen stands for Fay in G5 (Fay is a duplicate of Gwen, Gwen of Erik later)
    for label in ("G1", "G2", "G3", "G6", "G5"):
        game = start_game(client, label, ids, club)
        play(client, game, GAMES[label][3])
    assert_ratings_replayed(app, club["id"])
    # Fay (G3, G5) into Gwen (no games), then Gwen into ... no: Erik sat with Fay in G3: refused
    assert merge(client, club, ids["Fay"], ids["Gwen"]).status_code == 200
    assert_ratings_replayed(app, club["id"])
    assert merge(client, club, ids["Gwen"], ids["Erik"]).status_code == 409  # Erik and Fay sat in G3
    # Diana (G1, G3, G5, G6) into a new member, and that one into Gwen (who is Fay): they sat together
    assert merge(client, club, ids["Erik"], ids["Gwen"]).status_code == 409
    assert_ratings_replayed(app, club["id"])


def form(*players: str) -> dict:
    return {
        "players-0": players[0],
        "players-1": players[1],
        "players-2": players[2],
        "players-3": players[3],
        "first_declarer": "0",
        "preset": "tournament",
    }


def count_members(app) -> int:
    with app.app_context():
        return len(db.session.scalars(select(StoredMember)).all())


def test_a_club_game_id_larger_than_any_id_column_is_404_not_500(client):
    club = create_club(client, "Probe", {})
    for token in (club["view_token"], club["admin_token"]):
        # 2**31 is past PostgreSQL's INTEGER, 10**23 past SQLite's: the database is not asked
        for game_id in (2**31, 10**23, 0):
            assert client.get(f"/k/{token}/g/{game_id}").status_code == 404


def test_hostile_member_names_and_ladder_settings_are_refused_with_their_path(client):
    club = create_club(client, "Probe", {})
    url = f"{API}/clubs/{club['id']}/members"
    for name in ("\u202eevil", "\u200b", "a\nb", 5, None, "x" * 41):
        response = client.post(url, json={"name": name}, headers=auth(club["admin_token"]))
        assert (response.status_code, response.json["path"]) == (422, "name"), name
    for key, value in (("best", 10**30), ("min_games", 2**63), ("best", True), ("best", 1.5)):
        response = client.post(f"{API}/clubs", json={"name": "H", "ladder": {key: value}})
        assert (response.status_code, response.json["path"]) == (422, f"ladder.{key}")
    for name in ("x" * 40, "\U0001f600" * 40, "=cmd|' /C calc'!A0"):
        assert client.post(url, json={"name": name}, headers=auth(club["admin_token"])).status_code == 201
    csv = client.get(f"/k/{club['view_token']}/ladder.csv").data.decode("utf-8-sig")
    assert ",'=cmd|' /C calc'!A0,0,0,0,no" in csv  # not run as a formula by a spreadsheet


def test_a_swap_at_a_club_night_moves_the_members_with_the_players(app, client):
    """The director swaps Anne (table 1, seat 0) and Erik (table 2, seat 0) in session 1 of a
    club night: table 1's game is then Emma's, not Anne's. G1's first two rounds there give
    the player at seat 0 35 points (worked in tests/test_club_api.py): Erik's, Anne has no game."""
    from tests.test_club_api import NIGHT  # players Anne, Beth, Cath, Diana | Erik, Fay, Gus, Hanna

    app.config["EVENT_RANDOM"] = FirstSeat
    club = create_club(client, "Probe", {})
    ids = members_named(client, club, "Anne", "Beth", "Cath", "Diana", "Erik")
    members = [ids.get(name) for name in NIGHT["players"]]
    document = {**NIGHT, "club": club["id"], "members": members}
    night = client.post(f"{API}/events", json=document, headers={"X-Club-Token": club["admin_token"]}).json
    swap = {"session": "1", "first": "0", "second": "4"}  # Anne and Erik
    assert client.post(f"/d/{night['director_token']}/seating", data=swap).status_code == 303
    first = night["sessions"][0]["tables"][0]
    game = client.get(f"{API}/games/{first['game_id']}", headers=auth(first["edit_token"])).json
    assert game["players"] == ["Erik", "Beth", "Cath", "Diana"]
    assert game["members"] == [ids[n] for n in ("Erik", "Beth", "Cath", "Diana")]
    for rnd in GAMES["G1"][3][:2]:
        reply = client.post(f"{API}/games/{first['game_id']}/rounds", json=rnd, headers=auth(first["edit_token"]))
        assert reply.status_code == 201, reply.json
    erik = client.get(f"{API}/clubs/{club['id']}/members/{ids['Erik']}", headers=auth(club["view_token"])).json
    anne = client.get(f"{API}/clubs/{club['id']}/members/{ids['Anne']}", headers=auth(club["view_token"])).json
    assert (erik["games"], erik["total"]) == (1, 35)
    assert (anne["games"], anne["total"]) == (0, 0)


@pytest.mark.parametrize("inline", [0, 1000])
def test_imports_with_old_dates_undos_rematches_and_merges_leave_the_ratings_those_of_a_replay(app, client, inline):
    app.config["RATING_INLINE_REPLAY"] = inline  # 0: every replay after the answer
    club = create_club(client, "Probe", {})
    ids = members_named(client, club, "Anne", "Beth", "Cath", "Diana", "Erik", "Fay", "Zed")
    played = {}
    for label in ("G5", "G6", "G3"):
        played[label] = start_game(client, label, ids, club)
        play(client, played[label], GAMES[label][3])
    assert_ratings_replayed(app, club["id"])
    # G1 imported whole, dated before all of them
    document = {**game_document("G1", ids, club), "rounds": GAMES["G1"][3]}
    response = client.post(f"{API}/games", json=document, headers={"X-Club-Token": club["admin_token"]})
    assert response.status_code == 201, response.json
    played["G1"] = response.json
    assert_ratings_replayed(app, club["id"])
    # undo G1's last round: G1 no longer counts, the games after it are replayed
    g1 = played["G1"]
    assert client.delete(f"{API}/games/{g1['id']}/rounds/8", headers=auth(g1["edit_token"])).status_code == 204
    assert_ratings_replayed(app, club["id"])
    assert client.post(f"/g/{g1['edit_token']}/rounds/put-back", data={}).status_code == 303
    assert_ratings_replayed(app, club["id"])
    # Play again G6 (today's date: after all), play it through, undo a round of G5
    headers = {**auth(played["G6"]["edit_token"]), "X-Club-Token": club["admin_token"]}
    again = client.post(f"{API}/games/{played['G6']['id']}/rematch", headers=headers)
    assert again.status_code == 201, again.json
    play(client, again.json, [tr([4, 3, 3, 3]), tr([3, 4, 3, 3]), tr([2, 3, 5, 3]), tr([3, 3, 3, 4])])
    assert_ratings_replayed(app, club["id"])
    g5 = played["G5"]
    assert client.delete(f"{API}/games/{g5['id']}/rounds/4", headers=auth(g5["edit_token"])).status_code == 204
    assert_ratings_replayed(app, club["id"])
    # Erik (G3) into Zed (no game), then Zed into Beth (never at a table with Erik)
    assert merge(client, club, ids["Erik"], ids["Zed"]).status_code == 200
    assert_ratings_replayed(app, club["id"])
    assert merge(client, club, ids["Zed"], ids["Beth"]).status_code == 200
    assert_ratings_replayed(app, club["id"])
    beth = client.get(f"{API}/clubs/{club['id']}/members/{ids['Erik']}", headers=auth(club["view_token"])).json
    assert beth["id"] == ids["Beth"]


def test_a_swap_that_would_seat_one_member_twice_is_refused(app, client):
    """Anne (table 1) and Erik (table 2) never sat together: merged, they are one member. A swap
    of Beth and Erik would seat that member twice at table 1: refused, nothing changed (the
    member's game would otherwise count twice: games 2, with both seats' finals)."""
    from tests.test_club_api import NIGHT

    app.config["EVENT_RANDOM"] = FirstSeat
    club = create_club(client, "Probe", {})
    ids = members_named(client, club, "Anne", "Beth", "Cath", "Diana", "Erik")
    document = {**NIGHT, "club": club["id"], "members": [ids.get(name) for name in NIGHT["players"]]}
    night = client.post(f"{API}/events", json=document, headers={"X-Club-Token": club["admin_token"]}).json
    assert merge(client, club, ids["Anne"], ids["Erik"]).status_code == 200
    swap = {"session": "1", "first": "1", "second": "4"}  # Beth and Erik
    assert client.post(f"/d/{night['director_token']}/seating", data=swap).status_code == 422
    first = night["sessions"][0]["tables"][0]
    game = client.get(f"{API}/games/{first['game_id']}", headers=auth(first["edit_token"])).json
    assert game["players"] == ["Anne", "Beth", "Cath", "Diana"]
    assert game["members"] == [ids[n] for n in ("Anne", "Beth", "Cath", "Diana")]


def test_a_save_while_another_replay_holds_the_club_answers_and_is_replayed_after_it(app, client):
    """A replay holds the club's replay lock until it commits (PostgreSQL: an advisory lock,
    scorepad.services.rating._replay_lock). A save of a club game meanwhile does not wait for it (its own
    replay is left for after the answer: "updating") and is replayed once that replay is done: the
    ratings are then those of a replay from scratch. (Before, two replays ran at once, and one that
    had read the results before the save could write last, putting back ratings computed without
    it.) SQLite has no such lock (a write after a stale read fails there): the save's replay runs
    inline, and the ratings are a replay's all the same."""
    club = create_club(client, "Probe", {})
    ids = members_named(client, club, "Anne", "Beth", "Cath", "Diana", "Erik", "Fay")
    later = start_game(client, "G3", ids, club)  # 2026-03-12, complete
    play(client, later, GAMES["G3"][3])
    first = start_game(client, "G1", ids, club)  # 2026-03-03: its last round comes while the club is held
    play(client, first, GAMES["G1"][3][:7])
    with app.app_context():
        engine = db.engine
        club_row = db.session.scalar(select(StoredClub.id).where(StoredClub.public_id == club["id"]))
    postgres = engine.url.get_backend_name() == "postgresql"
    lock = (REPLAY_LOCK, club_row)
    with engine.connect() as other:  # another replay, running: it holds the club's replay lock
        if postgres:
            other.execute(text("SELECT pg_advisory_lock(:a, :b)"), dict(zip("ab", lock, strict=True)))
        saved = client.post(
            f"{API}/games/{first['id']}/rounds",
            json=GAMES["G1"][3][7],
            headers=auth(first["edit_token"]),
            buffered=False,
        )
        assert saved.status_code == 201  # answered without waiting for the replay
        anne = client.get(f"{API}/clubs/{club['id']}/members/{ids['Anne']}", headers=auth(club["view_token"])).json
        assert anne["rating"]["updating"] is postgres
        if postgres:
            other.execute(text("SELECT pg_advisory_unlock(:a, :b)"), dict(zip("ab", lock, strict=True)))
    saved.close()  # the save's replay, after its answer
    assert_ratings_replayed(app, club["id"])


def test_a_replay_killed_half_way_recovers_on_the_next_read(app, client):
    """The worker replaying a club's ratings is killed: its transaction rolls back, and the
    results the save rewrote stay unrated (``updating``). The next read of a member says so once
    and schedules the replay after its answer; the read after that finds the ratings replayed,
    as a replay from scratch computes them, with no write in between."""
    club, ids, _games = build_club(client, "Killed replay", {})
    assert_ratings_replayed(app, club["id"])
    with app.app_context():
        # What the save committed before its replay died: every row of the club to replay.
        db.session.execute(update(StoredResult).values(rated=False, mu=None, sigma=None))
        db.session.commit()
    first = member(client, club, ids["Anne"])
    assert first.status_code == 200 and first.json["rating"]["updating"] is True
    second = member(client, club, ids["Anne"])
    assert second.json["rating"]["updating"] is False
    assert_ratings_replayed(app, club["id"])
    want = expected_ratings(app, club["id"])
    with app.app_context():
        anne = db.session.scalar(select(StoredMember.id).where(StoredMember.public_id == ids["Anne"]))
        last = max(
            (
                r
                for r in db.session.scalars(
                    select(StoredResult).where(StoredResult.member_id == anne, StoredResult.complete)
                )
            ),
            key=lambda r: (r.date, r.created_at, r.game_id),
        )
    assert second.json["rating"]["mu"] == pytest.approx(want[(last.game_id, last.seat)][0])
