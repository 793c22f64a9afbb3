"""Club nights on the database (club-format.md "Club night"): creating a night and
its tables' games, finding it by a token, its state (progress and leaderboard, computed by the
engine: scorepad.scoring.night), adjustments, closing and reopening. Views reach the tables
through this module and scorepad.services.

Tokens (only digests are stored, as for games; :func:`scorepad.tokens.derive_token`):

- the director's token: random (:func:`scorepad.tokens.new_token`);
- the night's view token: derived from it (purpose ``"view"``);
- a table's game edit token: derived from the director's (``"table:<session>:<table>"``,
  :func:`table_token`), so the director opens every scorer page without storing a token;
- a table's game view token: derived from the night's view token with the same purpose, so
  the event board links each table's board; the game keeps it sealed with its edit token
  (``view_sealed``, as :func:`scorepad.services.games.view_token_of` reads it), so the scorer page
  shows the same board link;
- a table's confirm token: derived from the table's edit token (``"confirm"``).
"""

from __future__ import annotations

import random
from datetime import date
from typing import Any

from flask import current_app
from sqlalchemy import Numeric, bindparam, extract, func, select, update
from sqlalchemy.ext.compiler import compiles
from sqlalchemy.sql.functions import FunctionElement

from ..extensions import db
from ..models import StoredAdjustment, StoredClub, StoredEvent, StoredGame, token_digest, utcnow
from ..scoring import (
    EVENT_FORMAT,
    ScoringError,
    Seating,
    Table,
    parse_event,
    preset_to_dict,
)
from ..scoring import swap_players as swap_seats
from ..scoring.contracts import is_int
from ..scoring.document import default_date
from ..scoring.errors import N_
from ..scoring.seating import Meeting, swap_meetings
from ..scoring.text import clean_text
from ..scoring.trust import DIRECTOR
from ..tokens import derive_token, new_token
from . import clubs, common, games, history, presets, stamps
from .common import Conflict, NightClosed, NotFound
from .night_state import (
    NightRole,
    Unconfirmed,
    night_games,
    stored_seating,
    table_token,
    table_view_token,
    unconfirmed_tables,
)

__all__ = [
    "CLOSED",
    "EVENT_FORMAT",
    "MeetsAgain",
    "NightRole",
    "StoredAdjustment",
    "StoredEvent",
    "Unconfirmed",
    "add_adjustment",
    "authorize_night",
    "close_night",
    "create_night",
    "night_stamp",
    "find_night",
    "remove_adjustment",
    "reopen_night",
    "swap_players",
    "table_token",
]

#: The refusal of a write on a closed night (HTTP 409; club-format.md "Director").
CLOSED = common.NIGHT_CLOSED
#: The purpose a night's view token is derived from its director token with.
VIEW = "view"
MAX_REASON = 200  # characters of an adjustment's reason
MAX_ADJUSTMENT = 100_000  # points, either way: far beyond any game's total, well inside an INTEGER


def _hold(stored: StoredEvent, token: str, director: bool) -> tuple[StoredEvent, str]:
    """``stored`` holding its reader's tokens, with the reader's role."""
    stored.director_token = token if director else None
    stored.view_token = derive_token(token, VIEW) if director else token
    return stored, NightRole.DIRECTOR if director else NightRole.VIEW


def seating_document(seating: Seating) -> list[dict[str, Any]]:
    """The stored (and answered) shape of a seating: ``[{"number", "sit_out", "tables":
    [{"number", "players", "first_declarer"}]}]``."""
    return [
        {
            "number": session.number,
            "sit_out": list(session.sit_out),
            "tables": [
                {"number": t.number, "players": list(t.players), "first_declarer": t.first_declarer}
                for t in session.tables
            ],
        }
        for session in seating
    ]


def night_random() -> random.Random:
    """Where a new night's draws come from (the seating, seat orders, first declarers): the
    app's ``EVENT_RANDOM`` setting when it has one (a function returning a
    :class:`random.Random`, so that a test can say who declares first), else the system's
    random source."""
    make = current_app.config.get("EVENT_RANDOM") or random.SystemRandom
    return make()


def create_night(
    document: Any,
    *,
    creator_device: str | None = None,
    creator_address: str | None = None,
    club: StoredClub | None = None,
) -> StoredEvent:
    """Validate a night document (club-format.md "Club night": ``POST /api/v1/events``) with
    the engine (:func:`~scorepad.scoring.night.parse_event`; the seating drawn when the
    document fixes none) and store it with one game per table per session, all in one
    transaction: each game is the table's four players in seat order, its first declarer,
    the night's preset object, title, date (default: today in the night's time zone, else
    UTC), time zone and confirmation (off, optional or required). The returned night holds
    ``director_token`` and ``view_token`` (shown this once). ``creator_*`` only count the
    nights one client creates. ``club``: the club whose admin token came with the request; a
    night naming a club (``club``, ``members`` per player) needs it, and every table's game is
    then the club's with its members (:func:`scorepad.services.clubs.club_seats`). Raises
    :class:`ScoringError` with the path of the bad input or
    :class:`~scorepad.services.clubs.ClubRefused` (nothing stored)."""
    spec = parse_event(document, presets.saved_for_document(document), night_random())
    seats = clubs.club_seats(document, club, len(spec.players))
    day = spec.date or default_date(spec.timezone, common.clock())
    director = new_token()
    view = derive_token(director, VIEW)
    preset = preset_to_dict(spec.preset)
    seating = seating_document(spec.seating)
    stored = StoredEvent(
        title=spec.title,
        date=day,
        timezone=spec.timezone,
        preset=preset,
        sessions=spec.sessions,
        ranking=spec.ranking,
        players=list(spec.players),
        seating=seating,
        confirmation=spec.confirmation,
        director_digest=token_digest(director),
        view_digest=token_digest(view),
        closed=False,
        creator_device=creator_device,
        creator_address=creator_address,
        club_id=seats.club.id if seats else None,
        members=list(seats.member_ids) if seats else None,
    )
    db.session.add(stored)
    try:
        db.session.flush()  # the night's id, for its games
        for session in spec.seating:
            for table in session.tables:
                _add_table(stored, session.number, table, director, view, day, seats.club if seats else None)
        db.session.commit()
    except ScoringError:  # a table the engine refuses: not expected once the night passed parse_event
        db.session.rollback()
        raise
    stored.director_token, stored.view_token = director, view
    return stored


def _add_table(
    stored: StoredEvent, session: int, table: Table, director: str, view: str, day: date, club: StoredClub | None
) -> StoredGame:
    """Add the game of ``table`` in ``session`` to the database session (not committed), its
    edit token derived from the director's and its view token from the night's (:mod:`scorepad.services.nights`);
    a club's night (``club``) makes it the club's game with the seated players' members."""
    document: dict[str, Any] = {
        "players": [stored.players[p] for p in table.players],
        "first_declarer": table.first_declarer,
        "preset": stored.preset,
        "date": day.isoformat(),
        "confirmation": stored.confirmation,
    }
    if stored.title:
        document["title"] = stored.title
    if stored.timezone:
        document["timezone"] = stored.timezone
    if club is not None:
        document["club"] = club.public_id
        document["members"] = [(stored.members or [])[p] for p in table.players]
    edit = table_token(director, session, table.number)
    game, _game = games.add_game(document, edit_token=edit, club=club)
    board = table_view_token(view, session, table.number)
    game.view_sealed = games.seal_view_token(edit, board)
    game.view_digest = token_digest(board)
    game.view_token = board
    game.event_id, game.session_number, game.table_number = stored.id, session, table.number
    return game


#: A night's token digests, in the order :func:`~scorepad.services.common.token_role` compares them.
_DIGESTS = (StoredEvent.director_digest, StoredEvent.view_digest)


def find_night(token: str) -> tuple[StoredEvent, str] | None:
    """The night whose director or view token is ``token`` and the reader's role
    (:class:`NightRole`), or None; looked up by the token's digest (compared again in
    constant time), as games are (:func:`scorepad.services.games.find_by_token`). The night
    holds the reader's tokens."""
    found = common.find_by_digest(StoredEvent, token, _DIGESTS)
    return _hold(found[0], token, found[1] == 0) if found is not None else None


def authorize_night(event_id: int, token: str) -> tuple[StoredEvent, str] | None:
    """The night ``event_id`` if ``token`` is its director or view token (digest compared in
    constant time), with the reader's role; None for an unknown night or another token (an
    id beyond any id column is not asked for)."""
    if not 0 < event_id <= common.MAX_ID or not token:
        return None
    stored = db.session.get(StoredEvent, event_id)
    role = common.token_role(stored, token, _DIGESTS) if stored is not None else None
    return _hold(stored, token, role == 0) if stored is not None and role is not None else None


def _lock_night(stored: StoredEvent) -> None:
    """Start the write transaction of a change to the night and make it the only one: the
    first statement writes its row (``updated_at``, which the board's ETag reads), so
    PostgreSQL holds the row's lock and SQLite its write lock until the commit. A round's save
    on one of its tables reads the row ``FOR SHARE`` (:func:`scorepad.services.common.night_closed`),
    so it waits for a close in progress and then sees it."""
    db.session.execute(update(StoredEvent).where(StoredEvent.id == stored.id).values(updated_at=utcnow()))
    db.session.refresh(stored)


def _int(value: Any, path: str, low: int, high: int, message: str) -> int:
    """``value`` if it is a whole number (not a bool) in ``low..high``; ScoringError otherwise."""
    if not is_int(value) or not low <= value <= high:
        raise ScoringError(path, message, low=low, high=high)
    return value


def add_adjustment(stored: StoredEvent, player: Any, points: Any, reason: Any) -> StoredAdjustment:
    """Add the director's adjustment: ``points`` (a whole number, ±100000; negative for a
    penalty) to ``player`` (an index into the night's players), for ``reason`` (text, 1 to
    200 characters, the rules of :mod:`scorepad.scoring.text`). Raises :class:`ScoringError`
    at ``player``, ``points`` or ``reason``, :class:`~scorepad.services.common.Conflict` ("the night
    is closed"); nothing is stored then."""
    checked_player = _int(
        player, "player", 0, len(stored.players) - 1, N_("the player must be a player’s index, %(low)d to %(high)d")
    )
    checked_points = _int(
        points, "points", -MAX_ADJUSTMENT, MAX_ADJUSTMENT, N_("the points must be a whole number, %(low)d to %(high)d")
    )
    text = clean_text(
        reason,
        "reason",
        MAX_REASON,
        too_long_message=N_("the reason is longer than %(limit)d characters"),
        empty_message=N_("give the adjustment’s reason"),
    )
    _lock_night(stored)
    if stored.closed:
        db.session.rollback()
        raise NightClosed
    row = StoredAdjustment(event_id=stored.id, player=checked_player, points=checked_points, reason=text)
    db.session.add(row)
    db.session.commit()
    return row


def remove_adjustment(stored: StoredEvent, adjustment_id: Any) -> StoredAdjustment:
    """Remove the director's adjustment ``adjustment_id`` (its ``id``) from the night ``stored``:
    it no longer counts in the player's total nor shows on the results (a typo is removed, then
    added again as it should be). Returns the removed adjustment (detached: its player, points
    and reason). Raises :class:`~scorepad.services.common.NotFound` for an id that is not one of
    this night's adjustments (another night's too: nothing can be enumerated), then
    :class:`~scorepad.services.common.NightClosed` on a closed night (club-format.md "Director":
    an adjustment on a closed night answers 409); nothing is removed then. Under the night's
    lock, as :func:`add_adjustment`, so a close in progress is waited for and then seen."""
    tokens = stored.director_token, stored.view_token
    _lock_night(stored)
    wanted = is_int(adjustment_id) and 0 < adjustment_id <= common.MAX_ID
    row = db.session.get(StoredAdjustment, adjustment_id) if wanted else None
    try:
        if row is None or row.event_id != stored.id:
            raise NotFound("no adjustment with this id in this night")
        if stored.closed:
            raise NightClosed
    except (NotFound, NightClosed):
        db.session.rollback()
        stored.director_token, stored.view_token = tokens
        raise
    db.session.delete(row)
    db.session.commit()
    stored.director_token, stored.view_token = tokens
    return row


def _set_closed(stored: StoredEvent, closed: bool) -> None:
    """Close or reopen the night; when that changes it, every table's history gets a ``close``
    or ``reopen`` entry (by the director; in the same transaction)."""
    tokens = stored.director_token, stored.view_token
    _lock_night(stored)
    if stored.closed != closed:
        now = common.clock()
        for game in db.session.scalars(select(StoredGame).where(StoredGame.event_id == stored.id)):
            history.log(game, "close" if closed else "reopen", DIRECTOR, now)
    stored.closed = closed
    db.session.commit()
    stored.director_token, stored.view_token = tokens


def close_night(stored: StoredEvent) -> None:
    """Close the night: every table read-only (a round write or an adjustment is then a
    :class:`~scorepad.services.common.Conflict`, "the night is closed"). Idempotent; moves the
    night's ``updated_at`` (the board's ETag). When the night requires confirmation and a
    round is not confirmed, raises :class:`Unconfirmed` naming every such table and round
    (nothing changed); the check runs under the night's lock, so a confirm in progress at a
    table (which reads the night ``FOR SHARE``) is counted once it commits."""
    if stored.confirmation == "required" and not stored.closed:
        tokens = stored.director_token, stored.view_token
        _lock_night(stored)
        waiting = unconfirmed_tables(stored)
        if waiting:
            db.session.rollback()
            stored.director_token, stored.view_token = tokens
            raise Unconfirmed(waiting)
    _set_closed(stored, True)


def reopen_night(stored: StoredEvent) -> None:
    """Undo :func:`close_night`. Idempotent; moves the night's ``updated_at``."""
    _set_closed(stored, False)


#: The ETag's one query: the night (by its view token's digest, unique index) with the latest
#: ``updated_at`` of its games and the sum of their ``updated_at`` in seconds (index
#: ix_games_event_updated: read from the index alone). The latest alone misses a save: two
#: tables' saves do not wait for each other (PostgreSQL), so one that took its ``updated_at``
#: before another's may commit after it, once a board has polled; every save moves its game's
#: ``updated_at`` on, so it moves the sum (exact on PostgreSQL, whose epoch is numeric; whole
#: seconds on SQLite, whose writes are serialised, so that there the latest is enough).
class exact_epoch(FunctionElement[Any]):  # noqa: N801 (a SQL function's name, as SQLAlchemy's own)
    """A moment's seconds since 1970 to the database's own precision: ``EXTRACT(EPOCH …)``
    (microseconds on PostgreSQL); on SQLite ``julianday(…) * 86400`` (its ``EXTRACT`` gives
    whole seconds, so two saves in one second would add up the same)."""

    type = Numeric()
    inherit_cache = True


@compiles(exact_epoch)
def _epoch(element: exact_epoch, compiler: Any, **kw: Any) -> str:
    return compiler.process(extract("epoch", *element.clauses), **kw)


@compiles(exact_epoch, "sqlite")
def _epoch_sqlite(element: exact_epoch, compiler: Any, **kw: Any) -> str:
    return f"(julianday({compiler.process(element.clauses, **kw)}) * 86400.0)"


_STAMP_QUERY = select(
    StoredEvent.updated_at,
    select(func.max(StoredGame.updated_at)).where(StoredGame.event_id == StoredEvent.id).scalar_subquery(),
    select(func.sum(exact_epoch(StoredGame.updated_at))).where(StoredGame.event_id == StoredEvent.id).scalar_subquery(),
).where(StoredEvent.view_digest == bindparam("digest"))


def night_stamp(view_token: str) -> str | None:
    """The night's ETag source for its board: the night's ``updated_at``, the latest
    ``updated_at`` of its games and their sum (:data:`_STAMP_QUERY`), as the database driver
    returns them, in text (only compared, never parsed); None for an unknown view token. One
    indexed query, compiled once per dialect and run on a pooled driver connection, as a
    game's board's (:func:`scorepad.services.stamps.stamp`)."""
    found = stamps.stamp(_STAMP_QUERY, "event", token_digest(view_token))
    if found is None:
        return None
    return "/".join("" if value is None else str(value) for value in found)


class MeetsAgain(Exception):
    """A swap of the seating that would seat together players who share a table in another
    session (:func:`scorepad.scoring.seating.swap_meetings`): not made until the director
    confirms it. ``meetings``: those pairs, with the other sessions."""

    def __init__(self, meetings: tuple[Meeting, ...]):
        super().__init__("the swap seats together players who meet in another session")
        self.meetings = meetings


def swap_players(stored: StoredEvent, session: int, a: int, b: int, *, meet_again: bool = False) -> None:
    """The organiser's change of the plan: players ``a`` and ``b`` (night indexes) trade
    places (a seat or a sit-out) in session ``session`` (1-based), before any of that
    session's tables has a round (:func:`scorepad.scoring.seating.swap_players`); the tables'
    games get their new players. Raises :class:`ScoringError` for an unknown session or
    player or ``a == b``, :class:`~scorepad.services.common.Conflict` when a table of the session has
    a round or the night is closed (nothing changed). A table whose players change forgets the
    round it keeps undone (``StoredGame.undone``): its players were others, it is not put back.
    At a club's night the tables' ``members`` and results move with the players; a swap that would
    seat one member twice at a table (two players merged into one member since) raises :class:`ScoringError`.
    A swap that seats together players who share a table in another session raises
    :class:`MeetsAgain` (nothing changed) unless ``meet_again`` (the director confirmed it)."""
    seating = swap_seats(stored_seating(stored), session, a, b)
    tokens = stored.director_token, stored.view_token
    # Lock the session's games first, then the night: the order a round's save takes them in.
    db.session.execute(
        update(StoredGame)
        .where(StoredGame.event_id == stored.id, StoredGame.session_number == session)
        .values(updated_at=utcnow())
    )
    _lock_night(stored)
    try:
        if stored.closed:
            raise NightClosed
        games = night_games(stored)
        if any(games[(session, t.number)].rounds for t in seating[session - 1].tables):
            raise Conflict(N_("session %(n)d has started: its seating can no longer change"), n=session)
        meetings = () if meet_again else swap_meetings(stored_seating(stored), session, a, b)
        if meetings:
            raise MeetsAgain(meetings)
    except (Conflict, MeetsAgain):
        db.session.rollback()
        stored.director_token, stored.view_token = tokens
        raise
    for table in seating[session - 1].tables:
        game = games[(session, table.number)]
        players = [stored.players[p] for p in table.players]
        if players != list(game.players):
            game.undone = None  # a round undone before the swap was played by others: no put back
        game.players = players
        game.first_declarer = table.first_declarer
        if stored.club_id is not None:  # a club's night: the members move with their players
            game.members = [(stored.members or [])[p] for p in table.players]
            seated = [row for row in clubs.member_rows(game) if row is not None]
            if len(set(seated)) != len(seated):  # two players merged into one member since the night began
                db.session.rollback()
                raise ScoringError("members", N_("one member has two seats"))
            clubs.refresh_results(game, game.to_game())
    stored.seating = seating_document(seating)
    db.session.commit()
    stored.director_token, stored.view_token = tokens
