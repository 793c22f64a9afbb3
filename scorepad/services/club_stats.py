"""A club's results, read: a member's statistics and rating, the members' overview and the ladder
(club-format.md "A member's statistics", "Ladder", "Rating"), computed by the engine
(:mod:`scorepad.scoring.club`) from the results :mod:`scorepad.services.clubs` keeps."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import date
from typing import Any

from cachetools import LRUCache
from sqlalchemy import and_, case, func, select

from ..extensions import db
from ..models import StoredClub, StoredGame, StoredMember, StoredResult
from ..scoring.club import (
    ContractLine,
    LadderEntry,
    LadderGame,
    LadderRules,
    MemberGame,
    MemberStats,
    average_of,
    ladder,
    member_stats,
    ordinal,
)
from .clubs import club_members, ladder_rules
from .rating import DEFAULT_MU, DEFAULT_SIGMA, last_ratings, ratings_pending, recover


def _member_games(club: StoredClub, member: StoredMember) -> list[MemberGame]:
    """The member's games with at least one round, as the engine's :class:`MemberGame` s."""
    mine = db.session.scalars(
        select(StoredResult).where(
            StoredResult.club_id == club.id, StoredResult.member_id == member.id, StoredResult.rounds_played > 0
        )
    ).all()
    seats: dict[int, dict[int, int | None]] = defaultdict(dict)
    if mine:
        for game_id, seat, member_id in db.session.execute(
            select(StoredResult.game_id, StoredResult.seat, StoredResult.member_id).where(
                StoredResult.game_id.in_([r.game_id for r in mine])
            )
        ):
            seats[game_id][seat] = member_id
    publics = {
        m.id: m.public_id for m in db.session.scalars(select(StoredMember).where(StoredMember.club_id == club.id))
    }
    games = []
    for row in mine:
        against: dict[str, int] = {}
        for seat, points in enumerate(row.against):
            other = seats[row.game_id].get(seat)
            if other is not None and other != member.id:
                against[publics[other]] = points
        games.append(
            MemberGame(
                game_id=row.game_id,
                date=row.date,
                final=row.final,
                rank=row.rank,
                complete=row.complete,
                by_contract={c: ContractLine.from_dict(line) for c, line in row.by_contract.items()},
                given=row.given,
                received=row.received,
                net=row.net,
                against=against,
            )
        )
    return games


@dataclass(frozen=True)
class Opponent:
    """One of the three other players of a member's game: the ``name`` it was played under (the
    game's players) and the ``member`` it counts for (public id; None for a guest)."""

    name: str
    member: str | None


def opponents(club: StoredClub, member: StoredMember, game_ids: list[int]) -> dict[int, tuple[Opponent, ...]]:
    """The other three players of each of ``game_ids`` (the member's club games), in seat
    order: game id → :class:`Opponent` s. A game the member did not play in is left out."""
    if not game_ids:
        return {}
    seats: dict[int, dict[int, int | None]] = defaultdict(dict)
    for game_id, seat, member_id in db.session.execute(
        select(StoredResult.game_id, StoredResult.seat, StoredResult.member_id).where(
            StoredResult.club_id == club.id, StoredResult.game_id.in_(game_ids)
        )
    ):
        seats[game_id][seat] = member_id
    publics = {
        m.id: m.public_id for m in db.session.scalars(select(StoredMember).where(StoredMember.club_id == club.id))
    }
    found: dict[int, tuple[Opponent, ...]] = {}
    for game_id, players in db.session.execute(
        select(StoredGame.id, StoredGame.players).where(StoredGame.id.in_(game_ids))
    ):
        members = seats.get(game_id, {})
        if member.id not in members.values():
            continue
        others = []
        for seat, name in enumerate(players):
            other = members.get(seat)
            if other != member.id:
                others.append(Opponent(name, None if other is None else publics.get(other)))
        found[game_id] = tuple(others)
    return found


@dataclass(frozen=True)
class RatingPoint:
    """A member's rating after one complete game: its ``game_id`` and ``date``, μ, σ and the ordinal μ − 3σ."""

    game_id: int
    date: date
    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        """μ − 3σ (openskill's ordinal: :func:`~scorepad.scoring.club.ordinal`)."""
        return ordinal(self.mu, self.sigma)


@dataclass(frozen=True)
class MemberRating:
    """A member's rating now (μ, σ, ordinal; openskill's defaults before any complete game),
    ``updating`` while a change is being replayed (the rating shown is the one before it), and
    its ``history`` in game order."""

    mu: float
    sigma: float
    updating: bool
    history: tuple[RatingPoint, ...]

    @property
    def ordinal(self) -> float:
        """μ − 3σ (:func:`~scorepad.scoring.club.ordinal`)."""
        return ordinal(self.mu, self.sigma)


def member_rating(club: StoredClub, member: StoredMember) -> MemberRating:
    """The member's :class:`MemberRating` from the stored results (:mod:`scorepad.services.rating`
    keeps them). While they are ``updating``, a replay is scheduled after the answer unless one
    is on its way (:func:`~scorepad.services.rating.recover`)."""
    rows = db.session.execute(
        select(StoredResult.game_id, StoredResult.date, StoredResult.mu, StoredResult.sigma)
        .where(
            StoredResult.club_id == club.id,
            StoredResult.member_id == member.id,
            StoredResult.complete.is_(True),
            StoredResult.mu.is_not(None),
        )
        .order_by(StoredResult.date, StoredResult.created_at, StoredResult.game_id)
    ).all()
    history = tuple(RatingPoint(r.game_id, r.date, r.mu, r.sigma) for r in rows)
    last = history[-1] if history else None
    updating = ratings_pending(club.id)
    if updating:
        recover(club.id)  # a replay that never came (a worker killed half-way) comes after this answer
    return MemberRating(
        mu=last.mu if last else DEFAULT_MU,
        sigma=last.sigma if last else DEFAULT_SIGMA,
        updating=updating,
        history=history,
    )


def member_statistics(club: StoredClub, member: StoredMember) -> MemberStats:
    """The member's statistics (club-format.md "A member's statistics") from the stored results."""
    return member_stats(_member_games(club, member))


@dataclass(frozen=True)
class MemberRow:
    """A member's line on the club page: ``games`` (with at least one round), ``wins``,
    ``total`` and ``average`` (points), the rating's ``ordinal`` (None before a complete game)."""

    member: StoredMember
    games: int
    wins: int
    total: int
    average: Any
    ordinal: float | None


def club_overview(club: StoredClub) -> list[MemberRow]:
    """Every member's :class:`MemberRow`, in :func:`club_members` order: two grouped queries."""
    members = club_members(club)
    played = StoredResult.rounds_played > 0
    counts = {
        r.member_id: r
        for r in db.session.execute(
            select(
                StoredResult.member_id,
                func.count().label("games"),
                func.coalesce(func.sum(StoredResult.final), 0).label("total"),
                # scoring.club.is_win in SQL (tests/test_club_wins.py compares the two)
                func.sum(case((and_(StoredResult.complete.is_(True), StoredResult.rank == 1), 1), else_=0)).label(
                    "wins"
                ),
            )
            .where(StoredResult.club_id == club.id, StoredResult.member_id.is_not(None), played)
            .group_by(StoredResult.member_id)
        )
    }
    latest = {member: ordinal(mu, sigma) for member, (mu, sigma) in last_ratings(club.id).items()}
    rows = []
    for member in members:
        c = counts.get(member.id)
        games, total, wins = (c.games, int(c.total), int(c.wins or 0)) if c else (0, 0, 0)
        rows.append(MemberRow(member, games, wins, total, average_of(total, games), latest.get(member.id)))
    return rows


#: Each process's copies of the clubs' ladders, under (the club's id, its stamp): between two changes the
#: ladder reads (a game finishing, a member's change) every viewer gets the same one.
#: (The public id, not the row id: a row id is used again by another database, a test's.)
_LADDERS: LRUCache[tuple[str, int], tuple[LadderRules, tuple[LadderEntry, ...]]] = LRUCache(maxsize=32)


def club_ladder(club: StoredClub) -> tuple[LadderRules, tuple[LadderEntry, ...]]:
    """The club's season ladder (club-format.md "Ladder") over its complete games, from the stored
    results; computed once per change of the club's ``stamp`` in each process (:func:`ladder_changed`)."""
    key = (club.public_id, club.stamp or 0)
    found = _LADDERS.get(key)
    if found is None:
        found = _LADDERS[key] = _compute_ladder(club)
    return found


def _compute_ladder(club: StoredClub) -> tuple[LadderRules, tuple[LadderEntry, ...]]:
    rules = ladder_rules(club)
    query = select(
        StoredResult.game_id, StoredResult.seat, StoredResult.member_id, StoredResult.final, StoredResult.date
    ).where(StoredResult.club_id == club.id, StoredResult.complete.is_(True))
    if rules.start is not None:
        query = query.where(StoredResult.date >= rules.start)
    if rules.end is not None:
        query = query.where(StoredResult.date <= rules.end)
    members = club_members(club)
    publics = {m.id: m.public_id for m in members}
    games: dict[int, tuple[date, list[str | None], list[int]]] = {}
    for game_id, seat, member_id, final, day in db.session.execute(query):
        entry = games.setdefault(game_id, (day, [None] * 4, [0] * 4))
        entry[1][seat] = publics.get(member_id) if member_id is not None else None
        entry[2][seat] = final
    ladder_games = [LadderGame(day, tuple(ms), tuple(fs)) for day, ms, fs in games.values()]
    return rules, ladder(rules, [(m.public_id, m.name) for m in members], ladder_games)
