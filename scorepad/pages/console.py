"""What a club night's pages show (club-format.md "Club night"), arranged from the
night's state (:class:`scorepad.services.nights.NightState`: progress, staleness and the leaderboard
all computed by the engine and the services). No SQL and no rules here: these functions only
put names to indexes and words to times.

Shared by the director's pages (views/director.py) and the public ones (views/night.py);
functions for the latter are added at the end of this module.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any
from zoneinfo import ZoneInfo

from babel.dates import format_time
from flask_babel import format_decimal, format_timedelta, get_locale
from flask_babel import gettext as _
from markupsafe import Markup

from ..render.qr import qr_svg
from .common import zone_named

if TYPE_CHECKING:
    from ..services.night_state import NightState, SessionState, TableState

#: The seats' numbers as players read them on a card: clockwise from seat 1.
SEAT_NUMBERS = (1, 2, 3, 4)
_SIZE = re.compile(rb'<svg([^>]*?) width="(\d+)" height="(\d+)"')


def inline_qr(url: str) -> Markup:
    """The QR code of ``url`` as inline SVG (:func:`scorepad.render.qr.qr_svg`), given a
    ``viewBox`` so that CSS sizes it without loss (a printed card's code in millimetres)."""
    svg = qr_svg(url)
    svg = _SIZE.sub(lambda m: b'<svg%s viewBox="0 0 %s %s"' % (m.group(1), m.group(2), m.group(3)), svg, count=1)
    return Markup(svg.decode())  # segno's own markup: the URL is in no attribute nor text of it


def zone_of(state: NightState) -> ZoneInfo | None:
    """The night's time zone (its ``timezone``), or None (times then in UTC)."""
    return zone_named(getattr(state.spec, "timezone", None))


def save_time(moment: datetime | None, now: datetime, zone: ZoneInfo | None) -> dict[str, str] | None:
    """When a table last saved, in words: ``ago`` ("just now", "4 minutes ago"), ``clock`` (its local time,
    the night's zone, "20:14") and ``iso`` (for ``<time datetime>``); None before any save."""
    if moment is None:
        return None
    # Under a minute Babel says "1 minute ago" (its smallest unit here): say so plainly.
    recent = now - moment < timedelta(minutes=1)
    return {
        "ago": _("just now")
        if recent
        else format_timedelta(moment - now, add_direction=True, granularity="minute", threshold=1),
        "clock": format_time(moment, "short", tzinfo=zone, locale=get_locale()),
        "iso": moment.isoformat(),
    }


def places_text(places: float) -> str:
    """A leaderboard's places (0 to 3 a game, in halves) with the language's decimal sign."""
    return str(format_decimal(places, format="#,##0.#"))


def table_part(table: TableState, now: datetime, zone: ZoneInfo | None) -> dict[str, Any]:
    """One table as the director's pages show it: its state (``table``), the names by seat, who
    declares first, whether it has started, when it last saved (:func:`save_time`) and its
    rounds not confirmed (``unconfirmed``, as text: "3, 4"; empty unless the night requires
    confirmation)."""
    return {
        "table": table,
        "seats": list(zip(SEAT_NUMBERS, table.names, strict=True)),
        "first": table.names[table.first_declarer],
        "started": table.rounds_played > 0,
        "saved": save_time(table.last_save, now, zone),
        "unconfirmed": ", ".join(str(number) for number in table.unconfirmed),
    }


def session_part(session: SessionState, names: tuple[str, ...], now: datetime, zone: ZoneInfo | None) -> dict[str, Any]:
    """One session: its tables (:func:`table_part`), who sits out (names), whether a table has a round."""
    tables = [table_part(table, now, zone) for table in session.tables]
    return {
        "session": session,
        "number": session.number,
        "tables": tables,
        "sit_out": [names[i] for i in session.sit_out],
        "started": any(t["started"] for t in tables),
        "stale": sum(1 for table in session.tables if table.stale),
    }


def leaderboard_rows(state: NightState) -> list[dict[str, Any]]:
    """The leaderboard's lines (the engine's :class:`~scorepad.scoring.night.Entry`, in its
    order) with the places as text."""
    return [{"entry": entry, "places": places_text(entry.places)} for entry in state.leaderboard]


def console_page(state: NightState, now: datetime) -> dict[str, Any]:
    """The template variables of the director's pages: ``state``, ``title``, ``names`` (the
    night's players), ``sessions`` (:func:`session_part`), ``leaderboard``
    (:func:`leaderboard_rows`), ``adjustments`` (each with the player's name), ``stale`` (how
    many tables stand out), ``confirmation`` (the night's: off, optional or required),
    ``unconfirmed`` (the :func:`table_part` of each table with a round not confirmed, when
    required), ``unconfirmed_rounds`` (how many such rounds) and ``provisional`` (a
    leaderboard entry is)."""
    names = tuple(state.spec.players)
    zone = zone_of(state)
    sessions = [session_part(session, names, now, zone) for session in state.sessions]
    waiting = [part for session in sessions for part in session["tables"] if part["table"].unconfirmed]
    return {
        "state": state,
        "title": state.spec.title,
        "names": names,
        "sessions": sessions,
        "tables": sum(len(s["tables"]) for s in sessions),
        "stale": sum(s["stale"] for s in sessions),
        "confirmation": state.spec.confirmation,
        "unconfirmed": waiting,
        "unconfirmed_rounds": sum(len(part["table"].unconfirmed) for part in waiting),
        "provisional": any(entry.provisional for entry in state.leaderboard),
        "leaderboard": leaderboard_rows(state),
        "adjustments": [
            {"adjustment": a, "name": names[a.player] if 0 <= a.player < len(names) else str(a.player)}
            for a in state.adjustments
        ],
    }
