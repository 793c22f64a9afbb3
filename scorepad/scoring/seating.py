"""The seating of a club night (club-format.md "Club night", "Seating"): who plays at which
table in each session, in which seat, who declares first, and who sits out.

A night of ``N`` players and ``S`` sessions has, per session, ⌊N / 4⌋ tables of four and
``N mod 4`` players sitting out. :func:`scorepad.scoring.seating_draw.draw_seating` draws it
(balanced sit-outs, nobody twice in a session, as few repeat meetings as the numbers allow);
:func:`parse_seating` reads the organiser's own; :func:`swap_players` is the organiser's
change by hand.

Players are indexes into the night's ``players`` (0-based); sessions and tables are
numbered from 1; seats (0-3) run clockwise, as in a game.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from itertools import combinations
from typing import Any

from .contracts import SEATS, is_int
from .errors import N_, ScoringError, join

#: Players at a table (a Barbu table is four).
TABLE_SIZE = SEATS


@dataclass(frozen=True)
class Table:
    """One table of a session: ``number`` 1-based within its session; ``players`` four
    indexes into the night's players in clockwise seat order; ``first_declarer`` the seat
    (0-3) of this table that declares the first round (as a game's ``first_declarer``)."""

    number: int
    players: tuple[int, int, int, int]
    first_declarer: int


@dataclass(frozen=True)
class Session:
    """One session (one game per player seated): ``number`` 1-based; ``tables`` in table
    number order (⌊N / 4⌋ when drawn); ``sit_out`` the players not seated, ascending."""

    number: int
    tables: tuple[Table, ...]
    sit_out: tuple[int, ...]


#: A night's seating: its sessions in order (session ``s`` at index ``s - 1``).
Seating = tuple[Session, ...]


def seating_to_list(seating: Seating) -> list[list[list[int]]]:
    """The JSON shape of a document's ``seating`` (club-format.md "Club night"): a list per
    session of tables, each the list of its 4 player indexes in clockwise order. First
    declarers and sit-outs are not part of it."""
    return [[list(table.players) for table in session.tables] for session in seating]


def repeat_count(seating: Seating) -> int:
    """The night's repeat meetings (club-format.md "Seating"): Σ over pairs of players
    that share a table at all of (the sessions in which they share one − 1). A pair
    together in three sessions counts 2."""
    return sum(max(0, met - 1) for met in meetings(seating).values())


def meetings(seating: Seating) -> dict[tuple[int, int], int]:
    """How many sessions each pair of players ``(a, b)`` with ``a < b`` shares a table;
    pairs that never meet are absent."""
    met: dict[tuple[int, int], int] = {}
    for session in seating:
        for table in session.tables:
            for pair in combinations(sorted(table.players), 2):
                met[pair] = met.get(pair, 0) + 1
    return met


def sit_out_counts(seating: Seating, players: int) -> tuple[int, ...]:
    """How many sessions each of the night's ``players`` (a count) sits out, by player
    index. A drawn seating's counts differ by at most 1 (club-format.md "Seating")."""
    counts = [0] * players
    for session in seating:
        for player in session.sit_out:
            counts[player] += 1
    return tuple(counts)


def swap_players(seating: Seating, session: int, a: int, b: int) -> Seating:
    """The organiser's change by hand: players ``a`` and ``b`` (indexes) trade places in
    session ``session`` (1-based), whether each sits at a table (seat kept: the first
    declarer stays the seat's) or sits out. Other sessions are unchanged.

    Raises :class:`ScoringError` at ``session`` for a session the night does not have, at
    ``a`` or ``b`` for a player not in that session (neither seated nor sitting out), and
    at ``b`` when ``a == b``."""
    if not is_int(session) or not 1 <= session <= len(seating):
        raise ScoringError("session", N_("the night has no session %(session)s"), session=session)
    old = seating[session - 1]
    present = {p for table in old.tables for p in table.players} | set(old.sit_out)
    for field, player in (("a", a), ("b", b)):
        if not is_int(player) or player not in present:
            raise ScoringError(field, N_("no player %(player)s in this session"), player=player)
    if a == b:
        raise ScoringError("b", N_("choose two different players"))
    trade = {a: b, b: a}
    tables = tuple(
        replace(table, players=tuple(trade.get(p, p) for p in table.players))  # type: ignore[arg-type]
        for table in old.tables
    )
    sit_out = tuple(sorted(trade.get(p, p) for p in old.sit_out))
    changed = Session(old.number, tables, sit_out)
    return seating[: session - 1] + (changed,) + seating[session:]


@dataclass(frozen=True)
class Meeting:
    """Two players (indexes, ``a`` < ``b``) seated together by a change of one session who
    share a table in other ``sessions`` too (their numbers, ascending): a repeat meeting."""

    a: int
    b: int
    sessions: tuple[int, ...]


def _pairs(session: Session) -> set[tuple[int, int]]:
    """The pairs ``(a, b)``, ``a`` < ``b``, that share a table in ``session``."""
    return {pair for table in session.tables for pair in combinations(sorted(table.players), 2)}


def swap_meetings(seating: Seating, session: int, a: int, b: int) -> tuple[Meeting, ...]:
    """What :func:`swap_players` of ``a`` and ``b`` in ``session`` would make meet again
    (club-format.md "Seating": repeat meetings as few as the numbers allow, so the organiser
    is told before a change adds one): each pair the swap seats together in ``session``, not
    together there before, that shares a table in another session, with those sessions; in
    pair order. Empty when the swap adds no repeat. Raises :class:`ScoringError` as
    :func:`swap_players` does."""
    after = swap_players(seating, session, a, b)
    new = _pairs(after[session - 1]) - _pairs(seating[session - 1])
    others = [(other.number, _pairs(other)) for other in seating if other.number != session]
    found = ((pair, tuple(n for n, pairs in others if pair in pairs)) for pair in sorted(new))
    return tuple(Meeting(x, y, sessions) for (x, y), sessions in found if sessions)


def parse_seating(obj: Any, players: int, sessions: int, rng: random.Random, path: str = "seating") -> Seating:
    """A seating fixed by the organiser (club-format.md "Club night", ``seating``): a list
    of ``sessions`` sessions, each a non-empty list of tables, each a list of 4 player
    indexes (0 to ``players`` − 1) in clockwise order. Whoever is not seated in a session
    sits out (unbalanced sit-outs are the organiser's choice and accepted); each table's
    first declarer is drawn with ``rng``.

    Raises :class:`ScoringError` at ``path`` (not a list, or another number of sessions),
    ``path[s]`` (a session that is not a non-empty list of tables), ``path[s][t]`` (a table
    without 4 players) or ``path[s][t][i]`` (not a player index, out of range, or a player
    already seated in that session)."""
    if not isinstance(obj, list):
        raise ScoringError(path, N_("the seating is a list of sessions, each a list of tables"))
    if len(obj) != sessions:
        raise ScoringError(
            path, N_("the seating has %(given)d sessions, the night %(sessions)d"), given=len(obj), sessions=sessions
        )
    result: list[Session] = []
    for s, raw_session in enumerate(obj):
        spath = join(path, s)
        if not isinstance(raw_session, list) or not raw_session:
            raise ScoringError(spath, N_("a session is a list of tables, each of 4 player indexes"))
        seated: set[int] = set()
        tables: list[Table] = []
        for t, raw_table in enumerate(raw_session):
            tpath = join(spath, t)
            if not isinstance(raw_table, list) or len(raw_table) != TABLE_SIZE:
                raise ScoringError(tpath, N_("a table has exactly four players"))
            for i, player in enumerate(raw_table):
                ppath = join(tpath, i)
                if not is_int(player) or not 0 <= player < players:
                    raise ScoringError(ppath, N_("must be a player’s index from 0 to %(last)d"), last=players - 1)
                if player in seated:
                    raise ScoringError(ppath, N_("player %(player)d is already seated in this session"), player=player)
                seated.add(player)
            tables.append(Table(t + 1, tuple(raw_table), rng.randrange(TABLE_SIZE)))
        sit_out = tuple(p for p in range(players) if p not in seated)
        result.append(Session(s + 1, tuple(tables), sit_out))
    return tuple(result)
