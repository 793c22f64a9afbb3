"""A club night's state, read: its sessions and tables as they stand, the leaderboard the engine
computes from them (:mod:`scorepad.scoring.night`), and the rounds still waiting for a witness."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import NamedTuple, Protocol

from babel.support import NullTranslations
from cachetools import LRUCache
from sqlalchemy import select
from sqlalchemy.orm import selectinload

from ..extensions import db
from ..models import StoredAdjustment, StoredEvent, StoredGame, StoredRound, aware_utc
from ..scoring import (
    Adjustment,
    Entry,
    EventSpec,
    Seating,
    Session,
    Table,
    TableResult,
    is_stale,
    leaderboard,
    parse_preset,
    score,
    session_on,
)
from ..scoring.game import Standings
from ..scoring.trust import CONFIRMED, DISPUTED, PROVISIONAL, counts_as_provisional
from ..tokens import derive_token
from . import common
from .common import Conflict

#: The purpose a table's confirm token is derived from its edit token with.
CONFIRM = "confirm"


class NightRole:
    """Who reads a night: its director (director token: everything, tokens included) or a
    viewer (the night's view token: the board, the results; no edit, confirm or director token)."""

    DIRECTOR = "director"
    VIEW = "view"


def table_token(director_token: str, session: int, table: int) -> str:
    """The edit token of table ``table`` (1-based) of session ``session`` (1-based): derived
    from the night's director token, purpose ``"table:<session>:<table>"``."""
    return derive_token(director_token, f"table:{session}:{table}")


def table_view_token(night_view_token: str, session: int, table: int) -> str:
    """The view token of a table's game (its board): derived from the night's view token,
    purpose ``"table:<session>:<table>"``; a viewer of the night computes it, and so does
    the director (from the night's view token, itself derived from the director's)."""
    return derive_token(night_view_token, f"table:{session}:{table}")


def stored_seating(stored: StoredEvent) -> Seating:
    """The engine's :data:`~scorepad.scoring.seating.Seating` of a stored night."""
    return tuple(
        Session(
            number=s["number"],
            tables=tuple(
                Table(number=t["number"], players=tuple(t["players"]), first_declarer=t["first_declarer"])
                for t in s["tables"]
            ),
            sit_out=tuple(s["sit_out"]),
        )
        for s in stored.seating
    )


@dataclass(frozen=True)
class TableState:
    """One table of one session as it stands: its players (night indexes by seat) and names,
    first declarer (a seat), game id, ``rounds_played`` of ``rounds_total``, ``complete``,
    ``last_save`` (when a round was last saved, edited or undone: the game's ``updated_at``;
    None before its first round), ``stale`` (in progress, no save for 10 minutes:
    :func:`~scorepad.scoring.night.is_stale`), ``final`` (the game's standings by seat, points;
    zeros before a round), the game's ``view_token`` (its board) and, only for the director,
    its ``edit_token`` (its scorer page) and ``confirm_token``; ``unconfirmed``: the numbers of
    its rounds not confirmed yet when the night requires confirmation (else empty), and
    ``disputed``, those of them the other player disputed, each with its note (or None)."""

    session: int
    number: int
    players: tuple[int, int, int, int]
    names: tuple[str, str, str, str]
    first_declarer: int
    game_id: int
    rounds_played: int
    rounds_total: int
    complete: bool
    last_save: datetime | None
    stale: bool
    final: tuple[int, int, int, int]
    view_token: str
    edit_token: str | None
    confirm_token: str | None = None
    unconfirmed: tuple[int, ...] = ()
    disputed: tuple[tuple[int, str | None], ...] = ()


@dataclass(frozen=True)
class SessionState:
    """One session: its number (1-based), who sits out (night indexes), its tables, and
    whether every table is complete."""

    number: int
    sit_out: tuple[int, ...]
    tables: tuple[TableState, ...]
    complete: bool


@dataclass(frozen=True)
class NightState:
    """A night as its reader (``role``) sees it: the stored row (holding the reader's tokens),
    its spec, sessions, the leaderboard (club-format.md "Leaderboard"), the adjustments,
    ``closed`` and the session the board shows as on (1-based)."""

    stored: StoredEvent
    role: str
    spec: EventSpec
    sessions: tuple[SessionState, ...]
    leaderboard: tuple[Entry, ...]
    adjustments: tuple[StoredAdjustment, ...]
    closed: bool
    session_on: int


def event_spec(stored: StoredEvent) -> EventSpec:
    """The engine's :class:`~scorepad.scoring.night.EventSpec` of a stored night."""
    return EventSpec(
        title=stored.title,
        date=stored.date,
        timezone=stored.timezone,
        preset=parse_preset(stored.preset, stored=True),
        sessions=stored.sessions,
        ranking=stored.ranking,
        players=tuple(stored.players),
        seating=stored_seating(stored),
        confirmation=stored.confirmation,
    )


def night_games(stored: StoredEvent) -> dict[tuple[int, int], StoredGame]:
    """The night's games, without their rounds (one query), by (session, table)."""
    games = db.session.scalars(select(StoredGame).where(StoredGame.event_id == stored.id))
    return {(g.session_number or 0, g.table_number or 0): g for g in games}


class UnconfirmedTable(NamedTuple):
    """A table with rounds not confirmed yet: its ``session`` and ``table`` numbers, the round
    numbers (ascending) and, of those, the ``disputed`` ones with the other player's note."""

    session: int
    table: int
    rounds: tuple[int, ...]
    disputed: tuple[tuple[int, str | None], ...] = ()

    @property
    def statuses(self) -> tuple[str, ...]:
        """Each of ``rounds``' status (``provisional`` or ``disputed``), in the same order."""
        questioned = {number for number, _note in self.disputed}
        return tuple(DISPUTED if number in questioned else PROVISIONAL for number in self.rounds)


def unconfirmed_tables(stored: StoredEvent) -> list[UnconfirmedTable]:
    """The night's tables that have a round not confirmed (club-format.md "Trust": status
    ``provisional`` or ``disputed``), in session then table order, with those rounds; one
    query, whatever the night's ``confirmation`` (callers ask only when it is ``required``).
    The query's ``status != confirmed`` mirrors the engine's
    :func:`~scorepad.scoring.trust.counts_as_provisional` (tests/test_events_db.py compares them)."""
    rows = db.session.execute(
        select(
            StoredGame.session_number, StoredGame.table_number, StoredRound.number, StoredRound.status, StoredRound.note
        )
        .join(StoredRound, StoredRound.game_id == StoredGame.id)
        .where(StoredGame.event_id == stored.id, StoredRound.status != CONFIRMED)
        .order_by(StoredGame.session_number, StoredGame.table_number, StoredRound.number)
    )
    found: dict[tuple[int, int], list[int]] = {}
    disputed: dict[tuple[int, int], list[tuple[int, str | None]]] = {}
    for session, table, number, status, note in rows:
        found.setdefault((session or 0, table or 0), []).append(number)
        if status == DISPUTED:
            disputed.setdefault((session or 0, table or 0), []).append((number, note))
    return [
        UnconfirmedTable(session, table, tuple(rounds), tuple(disputed.get((session, table), ())))
        for (session, table), rounds in found.items()
    ]


class Translations(Protocol):
    """What :func:`unconfirmed_message` needs of a catalogue (Babel's ``Translations`` and
    ``NullTranslations``, Flask-Babel's ``get_translations()``)."""

    def gettext(self, message: str) -> str: ...  # noqa: D102 (the catalogue's own)

    def ngettext(self, singular: str, plural: str, n: int) -> str: ...  # noqa: D102


def unconfirmed_message(tables: Sequence[UnconfirmedTable], translations: Translations) -> str:
    """Why a night that requires confirmation does not close, naming every table and its
    rounds: "rounds are not confirmed: session 1 table 2 rounds 3, 4; session 2 table 1 round
    5", in the language of ``translations`` (the API's English: ``NullTranslations()``)."""
    parts = [
        translations.ngettext(
            "session %(session)d table %(table)d round %(rounds)s",
            "session %(session)d table %(table)d rounds %(rounds)s",
            len(t.rounds),
        )
        % {"session": t.session, "table": t.table, "rounds": ", ".join(str(n) for n in t.rounds)}
        for t in tables
    ]
    return translations.gettext("rounds are not confirmed: %(tables)s") % {"tables": "; ".join(parts)}


class Unconfirmed(Conflict):
    """A close refused (HTTP 409) because the night requires confirmation and ``tables``
    (:class:`UnconfirmedTable`) have rounds not confirmed; ``message`` in English
    (:func:`unconfirmed_message`), a page translates it from ``tables``."""

    def __init__(self, tables: Sequence[UnconfirmedTable]):
        message = unconfirmed_message(tables, NullTranslations())
        super().__init__("%(message)s", message=message)
        self.tables = tuple(tables)


#: Each table's standings as the engine scored them, by (database, game id, the game's
#: ``updated_at``), in this process. Every change to a game's rounds sets its ``updated_at``
#: (:func:`scorepad.services._lock_game`), so a saved round at one table makes the night's
#: next render read and score that table's game alone, not all of them: a board render with
#: 20 tables of 28 rounds went from 68-76 ms to about 40 ms, and saves stopped queueing behind
#: renders (bench/README.md, "Club night load"). Standings are immutable.
_STANDINGS: LRUCache[tuple[str, int, str], Standings] = LRUCache(maxsize=4096)
_STANDINGS_LOCK = threading.Lock()


def table_standings(games: Sequence[StoredGame]) -> dict[int, Standings]:
    """The engine's standings (:func:`~scorepad.scoring.score`) of each of ``games`` (a night's
    games as :func:`night_games` loads them), by game id: from :data:`_STANDINGS` when the
    game has not changed since it was scored, else read with its rounds (one query for all
    the changed games) and scored again."""
    database = str(db.engine.url)
    keys = {g.id: (database, g.id, str(g.updated_at)) for g in games}
    with _STANDINGS_LOCK:
        known = {gid: _STANDINGS[key] for gid, key in keys.items() if key in _STANDINGS}
    changed = [g.id for g in games if g.id not in known]
    if changed:
        for game in db.session.scalars(
            select(StoredGame).where(StoredGame.id.in_(changed)).options(selectinload(StoredGame.rounds))
        ):
            known[game.id] = score(game.to_game()).standings
            with _STANDINGS_LOCK:
                _STANDINGS[keys[game.id]] = known[game.id]
    return known


def night_state(stored: StoredEvent, role: str) -> NightState:
    """The night as it stands for ``role`` (``stored`` holds that reader's tokens, as
    :func:`find_night` returns it): every table scored by the engine
    (:func:`~scorepad.scoring.score`), the leaderboard
    (:func:`~scorepad.scoring.night.leaderboard`: games in progress count as they stand),
    the adjustments and the session on. When the night requires confirmation, each table's
    ``unconfirmed`` rounds (:func:`unconfirmed_tables`), and a leaderboard entry is
    provisional while a table it counts has one. Reads the night's games (one query, and one
    more for the rounds of the games changed since this process last scored them:
    :func:`table_standings`), its unconfirmed rounds (one query, when required) and
    adjustments."""
    spec = event_spec(stored)
    games = night_games(stored)
    scored = table_standings(list(games.values()))
    unconfirmed = (
        {(t.session, t.table): t for t in unconfirmed_tables(stored)} if spec.confirmation == "required" else {}
    )
    now = common.clock()
    director = role == NightRole.DIRECTOR and stored.director_token is not None
    view = stored.view_token or ""
    sessions: list[SessionState] = []
    results: list[TableResult] = []
    for session in spec.seating:
        tables: list[TableState] = []
        for table in session.tables:
            game = games[(session.number, table.number)]
            standings = scored[game.id]
            played = standings.rounds_played
            last = aware_utc(game.updated_at) if played else None
            final: tuple[int, int, int, int] = tuple(standings.final)  # type: ignore[assignment]
            edit = table_token(stored.director_token or "", session.number, table.number) if director else None
            waiting = unconfirmed.get((session.number, table.number))
            tables.append(
                TableState(
                    session=session.number,
                    number=table.number,
                    players=table.players,
                    names=tuple(spec.players[p] for p in table.players),  # type: ignore[arg-type]
                    first_declarer=table.first_declarer,
                    game_id=game.id,
                    rounds_played=played,
                    rounds_total=standings.rounds_total,
                    complete=standings.complete,
                    last_save=last,
                    stale=is_stale(last, now, standings.complete, played > 0),
                    final=final,
                    view_token=table_view_token(view, session.number, table.number),
                    edit_token=edit,
                    confirm_token=derive_token(edit, CONFIRM) if edit else None,
                    unconfirmed=waiting.rounds if waiting else (),
                    disputed=waiting.disputed if waiting else (),
                )
            )
            results.append(
                TableResult(
                    players=table.players,
                    rounds_played=played,
                    final=final,
                    provisional=counts_as_provisional(spec.confirmation, waiting.statuses if waiting else ()),
                )
            )
        sessions.append(
            SessionState(
                number=session.number,
                sit_out=session.sit_out,
                tables=tuple(tables),
                complete=all(t.complete for t in tables),
            )
        )
    adjustments = tuple(stored.adjustments)
    board = leaderboard(
        spec.players,
        results,
        [Adjustment(player=a.player, points=a.points, reason=a.reason) for a in adjustments],
        spec.ranking,
    )
    progress = [(s.number, sum(t.rounds_played for t in s.tables), s.complete) for s in sessions]
    return NightState(
        stored=stored,
        role=role,
        spec=spec,
        sessions=tuple(sessions),
        leaderboard=board,
        adjustments=adjustments,
        closed=stored.closed,
        session_on=session_on(progress),
    )
