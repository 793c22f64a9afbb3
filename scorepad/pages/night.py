"""What a club night's public pages show (club-format.md "Club night"): the event board
(phone and TV), the printed results and their CSV, arranged from :class:`scorepad.services.nights.NightState`
(the engine's leaderboard and each table's standings). No rule is decided here: ranks, totals,
places and the session that is on all come from the state."""

from __future__ import annotations

import csv
import io
import math
from dataclasses import dataclass
from datetime import date
from typing import TYPE_CHECKING, Any

from flask_babel import format_decimal

from .sheet import csv_cell

if TYPE_CHECKING:
    from ..scoring.night import Entry
    from ..services.night_state import NightState, SessionState, TableState

#: The big screen lists at most this many leaderboard lines per column…
SCREEN_ROWS = 14
#: …in at most this many columns; the players past them (the lowest ranked of a night of more
#: than 42) are counted in one "n more" line: a TV across the room is read for the top and for
#: one's own name, and the phone board lists everyone.
SCREEN_COLUMNS = 3
#: From this many players on (two tables) the screen's leaderboard takes two columns at least: one
#: column across two thirds of a TV leaves each total a screen's width away from its name.
SCREEN_TWO_COLUMNS = 8


@dataclass(frozen=True)
class Seat:
    """One player of a table as the results show it: ``name``, ``final`` (points) and the
    player's index in the night."""

    player: int
    name: str
    final: int


@dataclass(frozen=True)
class Played:
    """One player's game of the night: ``session``, ``table`` (numbers), ``final`` (their
    points there) and ``token`` (the table game's view token: its board)."""

    session: int
    table: int
    final: int
    token: str


def places_text(places: float) -> str:
    """Places (halves: 4.5) in the page language's notation: 4.5, 4,5; whole ones without a
    fraction: 3."""
    return format_decimal(places, format="#,##0.#")


def night_date(state: NightState) -> date:
    """The night's calendar date: its document's ``date`` (always set by the services, which
    default it to the day it was created)."""
    return state.stored.date


def started(table: TableState) -> bool:
    """Whether the table has saved a round."""
    return table.rounds_played > 0


def screen_columns(entries: tuple[Entry, ...]) -> tuple[list[list[Entry]], int]:
    """The big screen's leaderboard: the entries in leaderboard order, cut into balanced
    columns of at most :data:`SCREEN_ROWS` (at most :data:`SCREEN_COLUMNS` columns; two at least
    from :data:`SCREEN_TWO_COLUMNS` players on: 13 players read 7 and 6), and how many entries
    are left out (the last ones)."""
    shown = list(entries[: SCREEN_ROWS * SCREEN_COLUMNS])
    if not shown:
        return [], 0
    count = max(math.ceil(len(shown) / SCREEN_ROWS), 2 if len(shown) >= SCREEN_TWO_COLUMNS else 1)
    rows = math.ceil(len(shown) / count)
    return [shown[i : i + rows] for i in range(0, len(shown), rows)], len(entries) - len(shown)


def session_line(session: SessionState) -> dict[str, Any]:
    """A session's progress in one line (the TV's other sessions): ``number``, ``tables`` (how
    many), ``started`` (how many of them saved a round) and ``complete`` (all of them are)."""
    return {
        "number": session.number,
        "tables": len(session.tables),
        "started": sum(1 for table in session.tables if started(table)),
        "complete": session.complete,
    }


def night_page(state: NightState, layout: str) -> dict[str, Any]:
    """The event board's template variables in ``layout`` (``board``: the phone, ``screen``:
    the TV): ``state``, ``title``, ``date``, ``names`` (the players), ``session_on`` (its
    number), ``sessions`` (the states), ``on`` (the session that is on), ``session_lines``
    (:func:`session_line` of each), ``leaderboard`` (entries in order), ``provisional`` (any
    entry provisional), ``columns`` and ``more`` (:func:`screen_columns`, the screen's cut)
    ``layout``, ``closed`` and ``places_text`` (:func:`places_text`)."""
    on = next((s for s in state.sessions if s.number == state.session_on), state.sessions[-1])
    columns, more = screen_columns(state.leaderboard)
    return {
        "state": state,
        "title": state.spec.title,
        "date": night_date(state),
        "names": state.spec.players,
        "session_on": state.session_on,
        "sessions": state.sessions,
        "on": on,
        "session_lines": [session_line(s) for s in state.sessions],
        "leaderboard": state.leaderboard,
        "provisional": any(entry.provisional for entry in state.leaderboard),
        "columns": columns,
        "more": more,
        "layout": layout,
        "closed": state.closed,
        "places_text": places_text,
    }


def table_standings(table: TableState) -> list[Seat]:
    """A table's players by their points there, highest first (ties in seat order)."""
    seats = [
        Seat(player, name, final) for player, name, final in zip(table.players, table.names, table.final, strict=True)
    ]
    return sorted(seats, key=lambda seat: -seat.final)


def nights_of_players(state: NightState) -> dict[int, dict[int, Played]]:
    """Each player's games that count (their table saved a round): player index → session
    number → :class:`Played` (a player who sat out a session, or whose table has not started, has
    no entry for it)."""
    played: dict[int, dict[int, Played]] = {}
    for session in state.sessions:
        for table in filter(started, session.tables):
            for player, final in zip(table.players, table.final, strict=True):
                played.setdefault(player, {})[session.number] = Played(
                    session.number, table.number, final, table.view_token
                )
    return played


def results_page(state: NightState) -> dict[str, Any]:
    """The printed results' template variables: ``state``, ``title``, ``date``, ``names``,
    ``leaderboard``, ``provisional``, ``sessions`` (the states), ``games`` (each player's
    games, :func:`nights_of_players`), ``adjustments`` (the stored ones, in the order made),
    ``standings`` (session number → per table :func:`table_standings`), ``closed`` and ``places_text``."""
    return {
        "state": state,
        "title": state.spec.title,
        "date": night_date(state),
        "names": state.spec.players,
        "leaderboard": state.leaderboard,
        "provisional": any(entry.provisional for entry in state.leaderboard),
        "sessions": state.sessions,
        "games": nights_of_players(state),
        "adjustments": state.adjustments,
        "standings": {
            session.number: [(table, table_standings(table)) for table in session.tables] for session in state.sessions
        },
        "closed": state.closed,
        "places_text": places_text,
    }


def results_csv(state: NightState) -> str:
    """The night's results as CSV text: a header row — ``rank``, ``name``, ``games``,
    ``total``, ``places``, ``adjustment``, ``provisional``, then ``session 1`` … ``session n`` —
    and one row per player in leaderboard order: the entry's values (``rank`` empty for a player
    with no game yet; ``places`` as 4.5 or 3; points in plain digits with ``-``; ``provisional``
    ``yes`` while a round the entry counts is not confirmed on a night that requires it, else
    empty) and, per session, the
    player's points at their table there, empty for a sit-out (and for a table that has not
    started). Names that a spreadsheet would
    run as a formula get a leading apostrophe (:func:`~.sheet.csv_cell`)."""
    games = nights_of_players(state)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    numbers = [session.number for session in state.sessions]
    header = ["rank", "name", "games", "total", "places", "adjustment", "provisional"]
    writer.writerow([*header, *(f"session {n}" for n in numbers)])
    for entry in state.leaderboard:
        played = games.get(entry.player, {})
        writer.writerow(
            [
                "" if entry.rank is None else entry.rank,
                csv_cell(entry.name),
                entry.games,
                entry.total,
                f"{entry.places:g}",
                entry.adjustment,
                "yes" if entry.provisional else "",
                *(played[n].final if n in played else "" for n in numbers),
            ]
        )
    return out.getvalue()
