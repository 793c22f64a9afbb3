"""A club's rating (club-format.md "A member's statistics", ``rating``): openskill's
Plackett–Luce model with its defaults (μ 25, σ 25/3), updated once per complete club game in
order of ``date``, then of the game's creation time (then its id), ranked by ``final`` (ties
tied). A guest plays as a fresh default rating in that game and is not kept.

openskill (a well-kept implementation of Weng & Lin's Bayesian rating, the one the issue
names) does the arithmetic; this module keeps its results with the club's per-game results
(:class:`~scorepad.models.StoredResult` ``mu``/``sigma``) and replays them from the first
changed game whenever a round write rewrote a game's results (``rated`` cleared), so the
stored rating is always what a replay of the whole history gives.
"""

from __future__ import annotations

import time
from collections import defaultdict
from typing import Any

from flask import after_this_request, current_app, has_request_context
from openskill.models import PlackettLuce
from sqlalchemy import bindparam, exists, func, select, tuple_, update
from sqlalchemy.exc import SQLAlchemyError

from ..extensions import db
from ..models import StoredResult

#: The model, with openskill's defaults.
MODEL = PlackettLuce()
DEFAULT_MU: float = MODEL.rating().mu
DEFAULT_SIGMA: float = MODEL.rating().sigma

_ORDER = (StoredResult.date, StoredResult.created_at, StoredResult.game_id)


def ratings_pending(club_id: int) -> bool:
    """True while a rewrite of the club's results is not replayed into the ratings yet (the API's ``updating``)."""
    return bool(
        db.session.scalar(select(exists().where(StoredResult.club_id == club_id, StoredResult.rated.is_(False))))
    )


def last_ratings(
    club_id: int, members: set[int] | None = None, before: tuple[Any, ...] | None = None
) -> dict[int, tuple[float, float]]:
    """Each member's rating (μ, σ) after their last rated game of the club: of ``members`` only
    (None: every member), before the game order key ``before`` (date, created_at, game id;
    None: the last of all). Members without a rated game are left out (they have the default).
    One window query over the club's rows, newest first per member."""
    conditions = [StoredResult.club_id == club_id, StoredResult.member_id.is_not(None), StoredResult.mu.is_not(None)]
    if members is not None:
        conditions.append(StoredResult.member_id.in_(members))
    if before is not None:
        conditions.append(tuple_(*_ORDER) < tuple_(*before))
    ranked = (
        select(
            StoredResult.member_id,
            StoredResult.mu,
            StoredResult.sigma,
            func.row_number().over(partition_by=StoredResult.member_id, order_by=[c.desc() for c in _ORDER]).label("n"),
        )
        .where(*conditions)
        .subquery()
    )
    rows: Any = db.session.execute(select(ranked.c.member_id, ranked.c.mu, ranked.c.sigma).where(ranked.c.n == 1))
    return {member: (mu, sigma) for member, mu, sigma in rows}


def _prior(club_id: int, start: tuple[Any, ...], members: set[int]) -> dict[int, Any]:
    """Each of ``members``' openskill rating after their last complete game before ``start``
    (members without one are left out: they start at the default)."""
    if not members:
        return {}
    return {
        member: MODEL.rating(mu=mu, sigma=sigma)
        for member, (mu, sigma) in last_ratings(club_id, members, start).items()
    }


#: Games replayed between two yields to the other requests of a gevent worker.
YIELD_EVERY = 100


#: The first key of the PostgreSQL advisory locks of the clubs' replays (the second is the club's row id).
REPLAY_LOCK = 16


def _replay_lock(club_id: int, *, wait: bool) -> bool:
    """Take the club's replay lock for the current transaction: on PostgreSQL an advisory lock
    (``pg_advisory_xact_lock``; with ``wait`` False ``pg_try_advisory_xact_lock``, which does not
    wait), released at the commit or rollback; elsewhere nothing to take. False when it is held
    by another replay and ``wait`` is False."""
    if db.session.get_bind().dialect.name != "postgresql":
        return True
    if wait:
        db.session.execute(select(func.pg_advisory_xact_lock(REPLAY_LOCK, club_id)))
        return True
    return bool(db.session.scalar(select(func.pg_try_advisory_xact_lock(REPLAY_LOCK, club_id))))


def catch_up(club_id: int, limit: int | None = None) -> bool:
    """Replay the club's ratings from its first game whose results were rewritten (``rated``
    false) to its last, in one transaction. With ``limit``, a replay of more than ``limit``
    complete games is left for later (returns False). A row rewritten while this ran (its
    ``version`` moved) stays unrated, for the next replay. Returns True when done.

    Two replays of one club run one after the other (PostgreSQL: a transaction-level advisory
    lock on the club, :func:`_replay_lock`, which no save takes, so saves never wait for it;
    SQLite: a write that follows a stale read fails, and is left for the next replay):
    otherwise a replay that read the results before a save, writing after the save's own
    replay, would put back ratings computed without that save (the rows it writes kept their
    version). With ``limit`` (inside a save's request), a club whose replay is running is left
    for after the answer (returns False)."""
    if not _replay_lock(club_id, wait=limit is None):
        db.session.rollback()
        return False
    start = db.session.execute(
        select(*_ORDER).where(StoredResult.club_id == club_id, StoredResult.rated.is_(False)).order_by(*_ORDER).limit(1)
    ).first()
    if start is None:
        return True
    rows = db.session.execute(
        select(
            StoredResult.game_id,
            StoredResult.seat,
            StoredResult.member_id,
            StoredResult.complete,
            StoredResult.rank,
            StoredResult.version,
            StoredResult.rated,
            StoredResult.mu,
        )
        .where(StoredResult.club_id == club_id, tuple_(*_ORDER) >= tuple_(*start))
        .order_by(*_ORDER, StoredResult.seat)
    ).all()
    games: dict[int, list[Any]] = defaultdict(list)
    for row in rows:
        games[row.game_id].append(row)
    complete = [seats for seats in games.values() if seats[0].complete and len(seats) == 4]
    if limit is not None and len(complete) > limit:
        db.session.rollback()
        return False
    # Only the members of complete games are rated: a game in play needs nobody's rating.
    current = _prior(club_id, tuple(start), {r.member_id for seats in complete for r in seats if r.member_id})
    updates = []
    for index, seats in enumerate(games.values()):
        if not (seats[0].complete and len(seats) == 4):
            # A game in play rates nobody; its rows are written only if they say otherwise, so that
            # a long replay holds no lock on the rows of the games being played (PostgreSQL).
            updates += [
                {"g": r.game_id, "s": r.seat, "v": r.version, "mu": None, "sigma": None}
                for r in seats
                if not r.rated or r.mu is not None
            ]
            continue
        teams = [[current.get(r.member_id) or MODEL.rating()] if r.member_id else [MODEL.rating()] for r in seats]
        rated = MODEL.rate(teams, ranks=[r.rank for r in seats])
        for r, (after,) in zip(seats, rated, strict=True):
            if r.member_id is not None:
                current[r.member_id] = after
                updates.append({"g": r.game_id, "s": r.seat, "v": r.version, "mu": after.mu, "sigma": after.sigma})
            else:
                updates.append({"g": r.game_id, "s": r.seat, "v": r.version, "mu": None, "sigma": None})
        if index % YIELD_EVERY == YIELD_EVERY - 1:
            time.sleep(0)  # under gevent, let the worker's other requests run
    statement = (
        update(StoredResult)
        .where(
            StoredResult.game_id == bindparam("g"),
            StoredResult.seat == bindparam("s"),
            StoredResult.version == bindparam("v"),
        )
        .values(mu=bindparam("mu"), sigma=bindparam("sigma"), rated=True)
        .execution_options(synchronize_session=False)
    )
    if updates:
        db.session.connection().execute(statement, updates)
    db.session.commit()
    return True


#: The clubs whose long replay this process has scheduled or is running (since when, in
#: ``time.monotonic()`` seconds): a save meanwhile leaves its change to that replay (it loops
#: until nothing is left unrated) rather than scheduling another one (a cascade of full
#: replays, bench/README.md "A club's season"). One older than :data:`STUCK_AFTER` no longer
#: counts (an answer never closed).
_REPLAYING: dict[int, float] = {}
STUCK_AFTER = 120.0
#: The rounds of a replay after an answer: writes made while it ran are replayed in its next round.
MAX_ROUNDS = 5


def settle(club_id: int) -> None:
    """After a committed round write of a club game (or a merge of members): replay the ratings
    now when the replay is short (at most the ``RATING_INLINE_REPLAY`` setting's number of
    complete games), else after the answer has been sent (the response's close; outside a
    request, now): at most one such replay per club in this process, run until nothing is left
    unrated (:data:`MAX_ROUNDS` rounds at most). A database error here is logged and left for
    the next replay: the save is committed and its answer stands."""
    if time.monotonic() - _REPLAYING.get(club_id, -STUCK_AFTER) < STUCK_AFTER:
        return  # this process's replay after an answer will take this change too
    try:
        if catch_up(club_id, current_app.config["RATING_INLINE_REPLAY"]):
            return
    except SQLAlchemyError:
        db.session.rollback()
        current_app.logger.exception("the ratings of club %s are left for the next replay", club_id)
        return
    if not has_request_context():
        catch_up(club_id)
        return
    _replay_after_answer(club_id)


def recover(club_id: int) -> None:
    """A read that found the club's ratings ``updating`` (:func:`ratings_pending`) while no
    replay of this process is on its way: the replay that should have followed the write was
    lost (its worker killed half-way, whose transaction then rolled back, or a database error
    left it for a next write that has not come). Schedule one after this answer, so the
    ratings recover by themselves, without waiting for the next write. Two replays of one club
    still run one after the other (:func:`catch_up`), and one that finds nothing unrated is
    one query; outside a request nothing is scheduled."""
    if time.monotonic() - _REPLAYING.get(club_id, -STUCK_AFTER) < STUCK_AFTER or not has_request_context():
        return
    _replay_after_answer(club_id)


def _replay_after_answer(club_id: int) -> None:
    """Replay the club's ratings once this request's answer has been sent (its close), until
    nothing is left unrated (:data:`MAX_ROUNDS` rounds at most); noted in :data:`_REPLAYING`
    meanwhile."""
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    _REPLAYING[club_id] = time.monotonic()

    @after_this_request
    def _replay(response: Any) -> Any:
        def replay() -> None:
            try:
                with app.app_context():
                    for _round in range(MAX_ROUNDS):
                        catch_up(club_id)
                        if not ratings_pending(club_id):
                            break
            except SQLAlchemyError:
                app.logger.exception("the ratings of club %s are left for the next replay", club_id)
            finally:
                _REPLAYING.pop(club_id, None)

        response.call_on_close(replay)
        return response
