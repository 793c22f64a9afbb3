"""ORM tables. They store what happened at the table — players, the preset snapshot and
each round's contract, outcome and doubles — and translate to and from the engine's
objects; every score is recomputed by the engine, never stored."""

from __future__ import annotations

import datetime as dt
import hashlib
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Date,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import Mapped, mapped_column, relationship

from .extensions import Model
from .scoring import Game, Preset, parse_game, parse_preset
from .scoring.document import round_to_dict
from .scoring.trust import aware_utc


def utcnow() -> datetime:
    """The current time, timezone-aware (UTC)."""
    return datetime.now(UTC)


def token_digest(token: str) -> str:
    """The SHA-256 of a capability token, in hex (64 characters): all the database keeps of
    a token, and what a game or preset is looked up by. Finding a token from its digest is
    as hard as guessing the token, so a leaked backup opens nothing; and the database
    compares this digest, never the token itself, so the time an index lookup takes tells a
    guesser nothing about how much of a token they got right
    (:func:`scorepad.services.games.find_by_token`)."""
    return hashlib.sha256(token.encode()).hexdigest()


class StoredGame(Model):
    """A game: its players, first declarer, a copy of its preset (so editing or deleting a
    preset never changes it) and the digests of its two capability tokens: the edit token
    (the scorer's page) and the view token (read-only). ``date`` is the players' date (the
    local day the game was played: the sheet, the exports and file names show it) and
    ``timezone`` the IANA name the phone gave, if any (club-format.md "Game document additions").

    No token is stored (docs/security.md): ``edit_token`` and ``view_token`` are not
    columns but the tokens of whoever holds them in this request, set by
    :mod:`scorepad.services` when it creates the game or finds it by a token (``edit_token``
    only for the holder of the edit token; the view token is derived from it:
    :func:`scorepad.services.games.view_token_of`); both are None on a game loaded otherwise."""

    __tablename__ = "games"
    __table_args__ = (Index("ix_games_event_updated", "event_id", "updated_at"),)
    __allow_unmapped__ = True  # the two held tokens below are plain attributes, not columns

    id: Mapped[int] = mapped_column(primary_key=True)
    title: Mapped[str | None] = mapped_column(String(80))
    date: Mapped[dt.date] = mapped_column(Date)
    timezone: Mapped[str | None] = mapped_column(String(64))
    players: Mapped[list[str]] = mapped_column(JSON)
    first_declarer: Mapped[int] = mapped_column(Integer)
    preset: Mapped[dict[str, Any]] = mapped_column(JSON)
    # token_digest of each token: the columns the game is looked up by.
    edit_digest: Mapped[str] = mapped_column(String(64), unique=True, index=True)
    view_digest: Mapped[str] = mapped_column(String(64), unique=True, index=True)
    # Games started before view tokens were derived: their random view token (already on boards
    # and printed QR codes), sealed with a key from the edit token (scorepad.tokens.seal); None after.
    view_sealed: Mapped[str | None] = mapped_column(String(200))
    # Who started the game, only to cap how many games one client starts (scorepad/security.py):
    # the device id of the session cookie, and a keyed hash of the client's address (never the address).
    creator_device: Mapped[str | None] = mapped_column(String(64), index=True)
    creator_address: Mapped[str | None] = mapped_column(String(64), index=True)
    # The round the last undo removed, while it may be put back: {"number": n, "round":
    # the round object of game-format.md}; None once a round is saved, edited or undone again.
    undone: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    # Once the table played again (Play again): the rematch's edit token sealed with a
    # key from this game's edit token (scorepad.services.rematch.start_rematch), so every later tap opens
    # that same game; None before.
    rematch_sealed: Mapped[str | None] = mapped_column(String(200))
    # A club night's table: the night, its session (1-based) and the table's number in
    # it; None for a game of its own. Its edit token is derived from the night's director token
    # (scorepad.services.nights.table_token).
    # Indexed with updated_at (ix_games_event_updated): a night's games, and their latest save
    # read from the index alone (the event board's ETag, scorepad.services.nights.night_stamp).
    event_id: Mapped[int | None] = mapped_column(ForeignKey("events.id", ondelete="CASCADE"))
    # Whether a second phone checks the rounds (scoring.trust): off | optional | required.
    confirmation: Mapped[str] = mapped_column(String(10), default="optional", server_default="optional")
    # token_digest of the confirm token, derive_token(edit token, "confirm") (the witness's phone);
    # None for a game started before confirm tokens existed, until its scorer's page is opened
    # (scorepad.services.games.confirm_token_of).
    confirm_digest: Mapped[str | None] = mapped_column(String(64), unique=True, index=True)
    session_number: Mapped[int | None] = mapped_column(Integer)
    table_number: Mapped[int | None] = mapped_column(Integer)
    # A club's game: the club, and its players' member ids as sent (a list of 4, None
    # for a guest; kept as they were when a member is merged into another: scorepad.services.clubs).
    club_id: Mapped[int | None] = mapped_column(ForeignKey("clubs.id", ondelete="SET NULL"), index=True)
    members: Mapped[list[str | None] | None] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow, onupdate=utcnow)
    rounds: Mapped[list[StoredRound]] = relationship(
        back_populates="game", order_by="StoredRound.number", cascade="all, delete-orphan"
    )
    # Held, never stored: see the class's docstring.
    edit_token: str | None = None
    view_token: str | None = None
    # Held: the club whose ratings a round write of this game changed (scorepad.services.clubs.refresh_results),
    # replayed after the commit; None otherwise (so a casual game's save reads nothing after its commit).
    rating_due: int | None = None

    def document(self) -> dict[str, Any]:
        """The game document as recorded (game-format.md, without results)."""
        doc: dict[str, Any] = {
            "players": list(self.players),
            "first_declarer": self.first_declarer,
            "preset": self.preset,
            "rounds": [r.document() for r in self.rounds],
            "date": self.date.isoformat(),
        }
        if self.title:
            doc["title"] = self.title
        if self.timezone:
            doc["timezone"] = self.timezone
        doc["confirmation"] = self.confirmation or "optional"
        return doc

    def to_game(self) -> Game:
        """The engine's :class:`~scorepad.scoring.Game` (validated again on the way; text
        stored before today's rules is read, made safe to show: ``parse_game(stored=True)``)."""
        return parse_game(self.document(), stored=True)


class StoredRound(Model):
    """One recorded deal: ``number`` (1-based, unique within its game), the contract with
    its trump suit or starting rank, the doubles as ``[doubler, doubled]`` pairs and the
    outcome (``None`` for a split, unplayed deal); its ``status`` (``provisional`` until the
    witness confirms or disputes it, again after every change: scoring.trust) and the
    witness's ``note`` when disputed."""

    __tablename__ = "rounds"
    __table_args__ = (UniqueConstraint("game_id", "number", name="uq_rounds_game_number"),)
    __allow_unmapped__ = True  # saved_digest below is a plain attribute, not a column

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    number: Mapped[int] = mapped_column(Integer)
    contract: Mapped[str] = mapped_column(String(32))
    trump: Mapped[str | None] = mapped_column(String(10))
    start_rank: Mapped[str | None] = mapped_column(String(2))
    doubles: Mapped[list[list[int]]] = mapped_column(JSON, default=list)
    outcome: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    status: Mapped[str] = mapped_column(String(12), default="provisional", server_default="provisional")
    note: Mapped[str | None] = mapped_column(String(200))
    # The idempotency key the phone (or an API client) sent with the round: a retried save
    # whose first answer was lost finds its round here instead of storing it twice. With it,
    # the SHA-256 (hex) of the request that stored the round: the same key with another
    # round is refused (scorepad.services.rounds.request_digest).
    client_key: Mapped[str | None] = mapped_column(String(64), unique=True, index=True)
    key_digest: Mapped[str | None] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    game: Mapped[StoredGame] = relationship(back_populates="rounds")
    # The round's digest (scorepad.services.rounds.round_digest) as it was saved, taken before the
    # commit: the answer's ETag, which must not re-read a row another phone may have undone since.
    saved_digest: str | None = None
    # Its status as saved, read with saved_digest (scoring.trust.STATUSES).
    saved_status: str | None = None
    # The game as it stood when a witness checked this round (scorepad.services.confirmation.confirm_round),
    # read under the lock: the answer's round and standings, as another phone may undo it right after.
    saved_game: Game | None = None

    def document(self) -> dict[str, Any]:
        """The round object of game-format.md as recorded."""
        doc: dict[str, Any] = {"contract": self.contract, "doubles": [list(p) for p in self.doubles]}
        if self.trump:
            doc["trump"] = self.trump
        if self.start_rank:
            doc["start_rank"] = self.start_rank
        if self.outcome is not None:
            doc["outcome"] = self.outcome
        return doc

    def assign(self, round_doc: dict[str, Any]) -> None:
        """Copy a validated round (``round_to_dict`` of the engine's Round) into the row."""
        self.contract = round_doc["contract"]
        self.trump = round_doc.get("trump")
        self.start_rank = round_doc.get("start_rank")
        self.doubles = round_doc["doubles"]
        self.outcome = round_doc.get("outcome")


class StoredPreset(Model):
    """A saved scoring preset (German *Wertung*): the whole preset object of
    game-format.md (its ``id`` is ``public_id``), a name kept for listing, the table's
    free-text notes and who may change it: the device that created it (``owner_device``,
    a random id in its session cookie) or, through the API, whoever holds its edit token
    (only its digest ``edit_digest`` is stored; ``edit_token`` is not a column but the token
    itself, held on the row :func:`scorepad.services.presets.create_preset` returns, to answer it once).
    ``public_id`` is unguessable (128 bits): knowing it lets one view, copy and play the
    preset (its page is the share link), never change it. Games copy the object when they
    start, so changing or deleting a preset never changes a game."""

    __tablename__ = "presets"
    __allow_unmapped__ = True  # edit_token below is a plain attribute, not a column

    id: Mapped[int] = mapped_column(primary_key=True)
    public_id: Mapped[str] = mapped_column(String(32), unique=True, index=True)
    name: Mapped[str] = mapped_column(String(60))
    preset: Mapped[dict[str, Any]] = mapped_column(JSON)
    notes: Mapped[str] = mapped_column(Text, default="")
    owner_device: Mapped[str | None] = mapped_column(String(64), index=True)
    # A keyed hash of the address that saved it (never the address): only to cap how many
    # presets one client saves (scorepad/security.py), as for games.
    creator_address: Mapped[str | None] = mapped_column(String(64), index=True)
    edit_digest: Mapped[str] = mapped_column(String(64), unique=True, index=True)  # token_digest of the edit token
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow, onupdate=utcnow)
    edit_token: str | None = None  # held, never stored: see the class's docstring

    def to_preset(self) -> Preset:
        """The engine's :class:`~scorepad.scoring.Preset` (validated again on the way; text
        stored before today's rules is read, made safe to show: ``parse_preset(stored=True)``)."""
        return parse_preset(self.preset, stored=True)


__all__ = [
    "StoredAdjustment",
    "aware_utc",
    "StoredEvent",
    "StoredGame",
    "StoredHistory",
    "StoredPreset",
    "StoredRound",
    "round_to_dict",
]


class SpentKey(Model):
    """The idempotency key of a round that was undone: a late retry of its save must not
    bring the round back (HTTP 409), so the key is kept when its round row is deleted, with
    the game, the round's number and the request's digest. Rows are only ever added (and go
    with their game): the rounds table stays the game as it is now, and a later history of
    rounds can sit beside both."""

    __tablename__ = "spent_keys"

    client_key: Mapped[str] = mapped_column(String(64), primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    number: Mapped[int] = mapped_column(Integer)
    key_digest: Mapped[str | None] = mapped_column(String(64))
    spent_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class LimitCounter(Model):
    """How many creations (games started, presets saved) one bucket made in one fixed window
    of time: the limits of :mod:`scorepad.web.limits`. ``bucket`` names what is counted, whose
    (a keyed hash of a device id or of a client address, never either itself) and the
    window's length; ``window_start``/``window_end`` are Unix seconds (the window is
    ``[start, end)``). One row per bucket and window, its ``count`` raised by one atomic
    statement (:func:`scorepad.services.limits.take_one`); rows whose window has ended are deleted
    (:func:`scorepad.services.limits.forget_ended_windows`)."""

    __tablename__ = "limit_counters"

    bucket: Mapped[str] = mapped_column(String(80), primary_key=True)
    window_start: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    window_end: Mapped[int] = mapped_column(BigInteger, index=True)
    count: Mapped[int] = mapped_column(Integer)


class StoredEvent(Model):
    """A club night (club-format.md "Club night"): its title, the players' date and
    time zone, the preset object every table plays (a copy, as a game's), how many sessions,
    the ranking (``points`` | ``places``), the players' names and the seating drawn or fixed
    when it was created: ``[{"number": s, "sit_out": [player, …], "tables": [{"number": t,
    "players": [4 player indexes, clockwise], "first_declarer": seat 0–3}]}]``. Each table of
    each session is a :class:`StoredGame` (``event_id``, ``session_number``, ``table_number``).

    Its tokens: the director's (``director_digest``) and the night's view token
    (``view_digest``), derived from it; only digests are stored. ``director_token`` and
    ``view_token`` are not columns but the tokens of whoever holds them in this request, set
    by :mod:`scorepad.services.nights` (``director_token`` only for the director). ``closed``: every
    table read-only (round writes and adjustments answer 409) until reopened.
    ``updated_at`` moves with every change to the night itself (an adjustment, a close, a
    reopen, a change of seating): with its games' ``updated_at`` it is the board's ETag
    (:func:`scorepad.services.nights.night_stamp`)."""

    __tablename__ = "events"
    __allow_unmapped__ = True  # the two held tokens below are plain attributes, not columns

    id: Mapped[int] = mapped_column(primary_key=True)
    title: Mapped[str | None] = mapped_column(String(80))
    date: Mapped[dt.date] = mapped_column(Date)
    timezone: Mapped[str | None] = mapped_column(String(64))
    preset: Mapped[dict[str, Any]] = mapped_column(JSON)
    sessions: Mapped[int] = mapped_column(Integer)
    ranking: Mapped[str] = mapped_column(String(10))
    players: Mapped[list[str]] = mapped_column(JSON)
    seating: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    director_digest: Mapped[str] = mapped_column(String(64), unique=True, index=True)
    view_digest: Mapped[str] = mapped_column(String(64), unique=True, index=True)
    closed: Mapped[bool] = mapped_column(Boolean, default=False)
    # Every table's confirmation: off | optional | required.
    confirmation: Mapped[str] = mapped_column(String(10), default="optional", server_default="optional")
    # A club's night: the club and the member id of each of the night's players (None: a guest).
    club_id: Mapped[int | None] = mapped_column(ForeignKey("clubs.id", ondelete="SET NULL"), index=True)
    members: Mapped[list[str | None] | None] = mapped_column(JSON)
    # Who created it, only to cap how many nights one client creates (as for games).
    creator_device: Mapped[str | None] = mapped_column(String(64), index=True)
    creator_address: Mapped[str | None] = mapped_column(String(64), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow, onupdate=utcnow)
    adjustments: Mapped[list[StoredAdjustment]] = relationship(
        back_populates="event", order_by="StoredAdjustment.id", cascade="all, delete-orphan"
    )
    # Held, never stored: see the class's docstring.
    director_token: str | None = None
    view_token: str | None = None


class StoredAdjustment(Model):
    """A director's adjustment of a club night (club-format.md "Director"): ``player`` (an index
    into the night's players), ``points`` (added to the player's total; negative for a penalty)
    and the ``reason`` shown on the results."""

    __tablename__ = "adjustments"

    id: Mapped[int] = mapped_column(primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id", ondelete="CASCADE"), index=True)
    player: Mapped[int] = mapped_column(Integer)
    points: Mapped[int] = mapped_column(Integer)
    reason: Mapped[str] = mapped_column(String(200))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    event: Mapped[StoredEvent] = relationship(back_populates="adjustments")


class StoredHistory(Model):
    """One entry of a game's history (club-format.md "Trust: confirmation and
    history"): ``at`` (UTC), ``action`` (record, edit, undo, confirm, dispute, import, close,
    reopen), ``round`` (its number; None for a whole-game action), ``by`` (the role of the
    token that made the change: scorer, witness or director), the round ``before`` and
    ``after`` it (round objects of game-format.md, or None; an import's ``after`` is
    ``{"rounds": [round, …]}``) and the ``note`` (a dispute's).

    Append-only: a row is added in the transaction of the change it records
    (:mod:`scorepad.services.history`), so both are there or neither is; no code updates or deletes
    one (they go with their game). Undo and edit add rows; they never remove any."""

    __tablename__ = "history"
    __table_args__ = (Index("ix_history_game_id", "game_id", "id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    action: Mapped[str] = mapped_column(String(10))
    round: Mapped[int | None] = mapped_column(Integer)
    by: Mapped[str] = mapped_column(String(10))
    before: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    after: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    note: Mapped[str | None] = mapped_column(String(200))
    game: Mapped[StoredGame] = relationship()


class StoredClub(Model):
    """A club (club-format.md "Club, members, statistics, ladder, rating"): its
    ``name``, the season ``ladder`` (:func:`scorepad.scoring.club.ladder_to_dict`), its
    ``public_id`` (the API's club id) and the digests of its admin token (manages members,
    attaches games and nights) and view token (derived from it: reads only). ``admin_token``
    and ``view_token`` are held for whoever holds them in this request, as a game's."""

    __tablename__ = "clubs"
    __allow_unmapped__ = True

    id: Mapped[int] = mapped_column(primary_key=True)
    public_id: Mapped[str] = mapped_column(String(32), unique=True, index=True)
    name: Mapped[str] = mapped_column(String(80))
    ladder: Mapped[dict[str, Any]] = mapped_column(JSON)
    admin_digest: Mapped[str] = mapped_column(String(64), unique=True, index=True)
    view_digest: Mapped[str] = mapped_column(String(64), unique=True, index=True)
    # Moves on with every change the ladder reads (a complete game's results, the members, the
    # settings): the key of each process's copy of the ladder (scorepad.services.club_stats.club_ladder).
    stamp: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow, onupdate=utcnow)
    admin_token: str | None = None
    view_token: str | None = None


class StoredMember(Model):
    """A club's member: ``name`` (a player's name), ``public_id`` (the API's member id) and,
    once merged into another member, ``merged_into`` (that member's row id: their results count
    for it; the games keep the ids they were played with)."""

    __tablename__ = "members"

    id: Mapped[int] = mapped_column(primary_key=True)
    public_id: Mapped[str] = mapped_column(String(32), unique=True, index=True)
    club_id: Mapped[int] = mapped_column(ForeignKey("clubs.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(40))
    merged_into: Mapped[int | None] = mapped_column(ForeignKey("members.id", ondelete="SET NULL"))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class StoredResult(Model):
    """One seat of one club game as it stands (kept, not recomputed per page):
    the engine's :class:`~scorepad.scoring.club.SeatResult` with the game's ``date`` and
    ``created_at`` (the rating's order) and the seat's member (``member_id``: after a merge, the
    member merged into; None for a guest). Rewritten for the game inside the transaction of every
    round write (:func:`scorepad.services.clubs.refresh_results`). ``mu`` / ``sigma``: the member's rating
    after this game (complete games of members only; :mod:`scorepad.services.rating`), valid while
    ``rated``; a rewrite of a game that is or was complete clears ``rated`` until the ratings
    catch up (a game in play does not count for them)."""

    __tablename__ = "results"
    __table_args__ = (
        Index("ix_results_club_member", "club_id", "member_id"),
        Index("ix_results_club_order", "club_id", "date", "created_at", "game_id"),
        Index("ix_results_club_rated", "club_id", "rated"),
    )

    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    club_id: Mapped[int] = mapped_column(ForeignKey("clubs.id", ondelete="CASCADE"))
    member_id: Mapped[int | None] = mapped_column(ForeignKey("members.id", ondelete="SET NULL"))
    date: Mapped[dt.date] = mapped_column(Date)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    complete: Mapped[bool] = mapped_column(Boolean)
    rounds_played: Mapped[int] = mapped_column(Integer)
    final: Mapped[int] = mapped_column(Integer)
    rank: Mapped[int] = mapped_column(Integer)
    by_contract: Mapped[dict[str, Any]] = mapped_column(JSON)
    given: Mapped[int] = mapped_column(Integer)
    received: Mapped[int] = mapped_column(Integer)
    net: Mapped[int] = mapped_column(Integer)
    against: Mapped[list[int]] = mapped_column(JSON)
    mu: Mapped[float | None] = mapped_column(Float)
    sigma: Mapped[float | None] = mapped_column(Float)
    rated: Mapped[bool] = mapped_column(Boolean, default=False)
    # Moves on with every rewrite: the ratings mark a row rated only if it is still the one they read.
    version: Mapped[int] = mapped_column(Integer, default=0)
