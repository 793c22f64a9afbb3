"""The club page counts each member's wins in SQL (``club_stats.club_overview``, one grouped query
for every member): on generated results it agrees with the engine's rule
(``scoring.club.is_win``: a complete game in which the seat ranks 1), and counts only games
with a round played, as the page's ``games`` do."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import select, update

from scorepad.extensions import db
from scorepad.models import StoredClub, StoredResult
from scorepad.scoring.club import is_win
from scorepad.services import club_stats
from tests.test_club_stats import add_member, create_club, start_game

PLAYERS = ["Anne", "Beth", "Cath", "Diana"]  # G1's seats, all members
GAMES = 3


@pytest.fixture
def club(app, client) -> dict:
    """A club whose four members sit at :data:`GAMES` club games (G1's seats), no round played:
    the generated results are written straight into their rows."""
    club = create_club(client, "Wins", {})
    ids = {name: add_member(client, club, name)["id"] for name in PLAYERS}
    club["games"] = [start_game(client, "G1", ids, club)["id"] for _ in range(GAMES)]
    return club


#: One seat's result: (complete, rank, rounds played).
SEAT = st.tuples(st.booleans(), st.integers(1, 4), st.integers(0, 8))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.lists(SEAT, min_size=4, max_size=4), min_size=GAMES, max_size=GAMES))
def test_the_wins_query_agrees_with_the_engines_rule(app, club, results):
    with app.app_context():
        for game_id, seats in zip(club["games"], results, strict=True):
            for seat, (complete, rank, played) in enumerate(seats):
                db.session.execute(
                    update(StoredResult)
                    .where(StoredResult.game_id == game_id, StoredResult.seat == seat)
                    .values(complete=complete, rank=rank, rounds_played=played)
                )
        db.session.commit()
        members = dict(db.session.execute(select(StoredResult.seat, StoredResult.member_id).distinct()).all())
        assert sorted(members) == [0, 1, 2, 3]  # every seat has its row, the same member in every game
        expected = dict.fromkeys(members.values(), 0)
        for seats in results:
            for seat, (complete, rank, played) in enumerate(seats):
                expected[members[seat]] += played > 0 and is_win(complete, rank)
        stored = db.session.scalar(select(StoredClub).where(StoredClub.public_id == club["id"]))
        assert {row.member.id: row.wins for row in club_stats.club_overview(stored)} == expected
