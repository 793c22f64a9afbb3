"""A club night (club-format.md "Club night"): its document, its leaderboard, which session
is on, and which tables stand out on the director's page.

:func:`parse_event` validates a night document (``POST /api/v1/events``) into an
:class:`EventSpec`; :func:`leaderboard` ranks the night's players from their tables'
standings (:class:`TableResult`) and the director's :class:`Adjustment` s.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from fractions import Fraction
from typing import Any

from .contracts import is_int
from .document import parse_date, parse_game_club, parse_timezone, parse_title, player_names
from .errors import N_, ScoringError
from .presets import Preset, resolve_preset
from .seating import TABLE_SIZE, Seating, parse_seating
from .seating_draw import draw_seating
from .text import refuse_lone_surrogates
from .trust import DEFAULT_CONFIRMATION, parse_confirmation

EVENT_FORMAT = "barbu-scorepad/event@1"
#: How a night ranks its players (club-format.md "Leaderboard").
RANKINGS = ("points", "places")
MAX_EVENT_PLAYERS = 200
MAX_SESSIONS = 6
EVENT_FIELDS = frozenset(
    {
        "format",
        "title",
        "date",
        "timezone",
        "preset",
        "sessions",
        "ranking",
        "players",
        "seating",
        "club",
        "members",
        "confirmation",
    }
)


@dataclass(frozen=True)
class EventSpec:
    """A validated night document: ``title`` (None when none), the night's ``date`` and
    ``timezone`` as given (None when absent: the caller picks the default, as for a game),
    the ``preset`` every table plays, ``sessions`` (1-6: games per player), ``ranking``
    (one of :data:`RANKINGS`), the ``players``' names (4-200, distinct) and the
    ``seating`` (the organiser's, or drawn) and the ``confirmation`` every table takes
    (``off``, ``optional`` or ``required``: club-format.md "Trust")."""

    title: str | None
    date: date | None
    timezone: str | None
    preset: Preset
    sessions: int
    ranking: str
    players: tuple[str, ...]
    seating: Seating
    confirmation: str = DEFAULT_CONFIRMATION


def parse_event(obj: Any, saved: Mapping[str, Preset] | None, rng: random.Random) -> EventSpec:
    """Validate a club night document (club-format.md "Club night") and return its
    :class:`EventSpec`; ``saved`` maps the ids of saved presets it may name; ``rng`` draws
    the seating when the document has none (:func:`~.seating.draw_seating`), or the first
    declarers of a fixed one (:func:`~.seating.parse_seating`).

    Fields: ``format`` (optional, :data:`EVENT_FORMAT`), ``title``, ``date``, ``timezone``
    (as a game's), ``players`` (4 to 200 names by a game's name rules, distinct after
    case-folding), ``sessions`` (an integer 1 to 6, required), ``ranking`` (``points``, the
    default, or ``places``), ``preset`` (an id or a whole preset object, required),
    ``seating`` (optional), ``confirmation`` (``off``, ``optional``, the default, or
    ``required``: :func:`~.trust.parse_confirmation`); ``club`` and ``members`` (a member id
    or null per player: :func:`~.document.parse_game_club`; whether they are the club's is the
    app's check). Raises :class:`ScoringError` at the path of the first
    problem
    (``players``, ``players[5]``, ``sessions``, ``ranking``, ``preset``, ``seating[1][0]``,
    ``confirmation``, ``format``, an unknown field's name)."""
    if not isinstance(obj, dict):
        raise ScoringError("", N_("a club night document must be a JSON object"))
    refuse_lone_surrogates(obj)
    for key in obj:
        if key not in EVENT_FIELDS:
            raise ScoringError(key, N_("unknown field of a club night document"))
    if "format" in obj and obj["format"] != EVENT_FORMAT:
        raise ScoringError("format", N_("this is not a club night document (%(format)s)"), format=EVENT_FORMAT)
    title = parse_title(obj.get("title"))
    played_on = parse_date(obj.get("date"))
    timezone = parse_timezone(obj.get("timezone"))
    raw_players = obj.get("players")
    if not isinstance(raw_players, list) or not TABLE_SIZE <= len(raw_players) <= MAX_EVENT_PLAYERS:
        raise ScoringError(
            "players", N_("a club night has %(least)d to %(most)d players"), least=TABLE_SIZE, most=MAX_EVENT_PLAYERS
        )
    players = player_names(raw_players)
    sessions: Any = obj.get("sessions")
    if not is_int(sessions) or not 1 <= sessions <= MAX_SESSIONS:
        raise ScoringError(
            "sessions", N_("the number of sessions is a whole number from 1 to %(most)d"), most=MAX_SESSIONS
        )
    ranking = obj.get("ranking", "points")
    if ranking not in RANKINGS:
        raise ScoringError("ranking", N_("the ranking is by points or by places"))
    if "preset" not in obj:
        raise ScoringError("preset", N_("name a preset (such as tournament) or give a whole preset object"))
    preset = resolve_preset(obj["preset"], "preset", dict(saved or {}))
    confirmation = parse_confirmation(obj.get("confirmation"))
    parse_game_club(obj, len(players))  # their shape; whether they are the club's is the app's check
    if obj.get("seating") is None:
        seating = draw_seating(len(players), sessions, rng)
    else:
        seating = parse_seating(obj["seating"], len(players), sessions, rng)
    return EventSpec(title, played_on, timezone, preset, sessions, ranking, players, seating, confirmation)


@dataclass(frozen=True)
class TableResult:
    """One table's game as it stands, as the leaderboard needs it: ``players`` the night's
    player indexes by seat, ``rounds_played``, ``final`` the game's ``standings.final`` by
    seat (points; game-format.md "Results"), ``provisional`` while a round it counts is
    not confirmed (club-format.md "Trust")."""

    players: tuple[int, int, int, int]
    rounds_played: int
    final: tuple[int, int, int, int]
    provisional: bool = False


@dataclass(frozen=True)
class Adjustment:
    """A director's adjustment (club-format.md "Director"): ``points`` (positive or
    negative) added to ``player``'s (index) total, for ``reason``."""

    player: int
    points: int
    reason: str


@dataclass(frozen=True)
class Entry:
    """One leaderboard line (club-format.md "Leaderboard"; the field names are the JSON's):
    ``player`` index and ``name``; ``games`` counted; ``total`` points (Σ final +
    adjustment); ``places`` (0 to 3 per game, halves for ties); ``adjustment`` points;
    ``rank`` (competition ranking; None with no game yet); ``provisional`` when a counted
    table is."""

    player: int
    name: str
    games: int
    total: int
    places: float
    adjustment: int
    rank: int | None
    provisional: bool = False


def table_places(final: Sequence[int]) -> tuple[Fraction, ...]:
    """Each seat's places in one game (club-format.md "Leaderboard"): the players at the
    table with a lower ``final`` plus ½ per other player with an equal one, 0 to 3.
    ``(50, 10, 10, -70)`` gives ``(3, 1½, 1½, 0)``."""
    return tuple(
        sum((Fraction(1) if other < mine else Fraction(1, 2) for other in final if other <= mine), Fraction(0))
        - Fraction(1, 2)  # the seat itself counted as equal
        for mine in final
    )


def leaderboard(
    names: Sequence[str], tables: Sequence[TableResult], adjustments: Sequence[Adjustment], ranking: str
) -> tuple[Entry, ...]:
    """The night's leaderboard (club-format.md "Leaderboard"), best first.

    ``names``: the night's players; ``tables``: every table of every session as it stands
    (a table counts once it has at least one round, as it stands); ``adjustments``: the
    director's; ``ranking``: ``points`` (key ``total / games``) or ``places`` (key
    ``(places / games, total / games)``), compared exactly (fractions), highest first.
    ``total`` includes the adjustments. Equal keys share a rank (competition ranking: 1, 2,
    2, 4), in players order; players with no game yet come last with ``rank`` None, in
    players order (an adjustment alone does not rank them). Raises :class:`ValueError` for
    an unknown ranking."""
    if ranking not in RANKINGS:
        raise ValueError(f"unknown ranking {ranking!r}")
    count = len(names)
    games = [0] * count
    points = [0] * count
    places = [Fraction(0)] * count
    provisional = [False] * count
    adjusted = [0] * count
    for table in tables:
        if table.rounds_played < 1:
            continue
        for player, final, place in zip(table.players, table.final, table_places(table.final), strict=True):
            games[player] += 1
            points[player] += final
            places[player] += place
            provisional[player] = provisional[player] or table.provisional
    for adjustment in adjustments:
        adjusted[adjustment.player] += adjustment.points

    def key(player: int) -> tuple[Fraction, ...]:
        average = Fraction(points[player] + adjusted[player], games[player])
        return (places[player] / games[player], average) if ranking == "places" else (average,)

    ranked = sorted((p for p in range(count) if games[p]), key=key, reverse=True)
    ranks: dict[int, int] = {}
    for position, player in enumerate(ranked):
        previous = ranked[position - 1] if position else None
        same = previous is not None and key(previous) == key(player)
        ranks[player] = ranks[previous] if same and previous is not None else position + 1
    order = ranked + [p for p in range(count) if not games[p]]
    return tuple(
        Entry(
            player=p,
            name=names[p],
            games=games[p],
            total=points[p] + adjusted[p],
            places=float(places[p]),
            adjustment=adjusted[p],
            rank=ranks.get(p),
            provisional=provisional[p],
        )
        for p in order
    )


def session_on(progress: Sequence[tuple[int, int, bool]]) -> int:
    """The session the event board shows as on ("Sessions"). ``progress``: per
    session, in order, ``(number, rounds saved at its tables, all its tables complete)``.
    The latest session with a saved round that is not complete; else the first session not
    complete; else the last session (1 when there is none)."""
    for number, rounds, complete in reversed(progress):
        if rounds > 0 and not complete:
            return number
    for number, _rounds, complete in progress:
        if not complete:
            return number
    return progress[-1][0] if progress else 1


#: A table in progress with no save for this long stands out on the director's page.
STALE_AFTER = timedelta(minutes=10)


def is_stale(last_save: datetime | None, now: datetime, complete: bool, started: bool) -> bool:
    """Whether a table stands out on the director's page (club-format.md "Director"): it is
    in progress (``started``: has a round, and not ``complete``) and its last save
    (``last_save``, comparable with ``now``: both aware or both naive) is
    :data:`STALE_AFTER` (10 minutes) ago or more. A table with no save never is."""
    if not started or complete or last_save is None:
        return False
    return now - last_save >= STALE_AFTER
