"""The seating of a club night (club-format.md "Club night", "Seating"): who plays at which
table in each session, in which seat, who declares first, and who sits out.

A night of ``N`` players and ``S`` sessions has, per session, ⌊N / 4⌋ tables of four and
``N mod 4`` players sitting out. :func:`draw_seating` draws it (balanced sit-outs, nobody
twice in a session, as few repeat meetings as the numbers allow); :func:`parse_seating`
reads the organiser's own; :func:`swap_players` is the organiser's change by hand.

Players are indexes into the night's ``players`` (0-based); sessions and tables are
numbered from 1; seats (0-3) run clockwise, as in a game.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
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


# --- Reading a seating -------------------------------------------------------------------


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
                    raise ScoringError(ppath, N_("must be a player's index from 0 to %(last)d"), last=players - 1)
                if player in seated:
                    raise ScoringError(ppath, N_("player %(player)d is already seated in this session"), player=player)
                seated.add(player)
            tables.append(Table(t + 1, tuple(raw_table), rng.randrange(TABLE_SIZE)))
        sit_out = tuple(p for p in range(players) if p not in seated)
        result.append(Session(s + 1, tuple(tables), sit_out))
    return tuple(result)


# --- Drawing a seating -------------------------------------------------------------------

#: Restarts of the per-session search when a session cannot be drawn without a repeat.
RESTARTS = 8


def draw_seating(players: int, sessions: int, rng: random.Random) -> Seating:
    """Draw a night's seating (club-format.md "Seating") for ``players`` (a count, ≥ 4) over
    ``sessions`` (≥ 1): per session ⌊players / 4⌋ tables of four, nobody seated twice in a
    session, the others sitting out so that any two players' sit-out counts differ by at
    most 1, and as few repeat meetings (:func:`repeat_count`) as the search finds: none for
    16 players up to 5 sessions (an affine plane over GF(4)) nor, in practice, wherever the
    numbers leave room (20 × 2, 28 × 3 ...); 3 for 12 × 2, the least possible. Seat order
    and first declarers are drawn too. Every draw comes from ``rng``: the same state gives
    the same seating. Raises :class:`ValueError` for fewer than 4 players or no session.

    The search: sit-outs first (whoever has sat out least, ties drawn); then each session
    greedily (each player, in a drawn order, at the open table where they have met the
    fewest), improved by swapping two players of different tables while that lowers the
    cost Σ over pairs of C(meetings, 2) (so a pair meeting a third time costs more than a
    second), restarted a few times when a repeat remains; finally the same swaps over the
    whole night."""
    if players < TABLE_SIZE or sessions < 1:
        raise ValueError("a night needs at least 4 players and 1 session")
    sit_outs = _draw_sit_outs(players, sessions, rng)
    meet = [[0] * players for _ in range(players)]
    nights: list[list[list[int]]] = []
    fixed = _affine_sessions(players, sessions, rng)
    for s in range(sessions):
        if s < len(fixed):
            tables = fixed[s]
            _add(meet, tables, 1)
        else:
            out = set(sit_outs[s])
            tables = _draw_session([p for p in range(players) if p not in out], meet, rng)
        nights.append(tables)
    if len(fixed) < sessions:
        _polish(nights, meet, rng)
    return tuple(
        Session(s + 1, tuple(_seat(i + 1, table, rng) for i, table in enumerate(tables)), tuple(sit_outs[s]))
        for s, tables in enumerate(nights)
    )


def _seat(number: int, table: list[int], rng: random.Random) -> Table:
    """A drawn table: its players in a drawn clockwise order and a drawn first declarer."""
    order = list(table)
    rng.shuffle(order)
    return Table(number, tuple(order), rng.randrange(TABLE_SIZE))  # type: ignore[arg-type]


def _draw_sit_outs(players: int, sessions: int, rng: random.Random) -> list[list[int]]:
    """Per session, the ``players mod 4`` players who sit out: those who have sat out
    least so far, ties drawn; so the counts never differ by more than 1."""
    count = players % TABLE_SIZE
    sat_out = [0] * players
    result: list[list[int]] = []
    for _ in range(sessions):
        order = sorted(range(players), key=lambda p: (sat_out[p], rng.random()))
        chosen = sorted(order[:count])
        for p in chosen:
            sat_out[p] += 1
        result.append(chosen)
    return result


def _affine_sessions(players: int, sessions: int, rng: random.Random) -> list[list[list[int]]]:
    """For 16 players, up to 5 sessions in which no pair meets twice: the parallel classes
    of lines of the affine plane over GF(4) (points (x, y), lines y = m·x + c and x = c),
    with players drawn onto the points and the classes in a drawn order. Empty otherwise."""
    if players != 16:
        return []
    mul = [[0, 0, 0, 0], [0, 1, 2, 3], [0, 2, 3, 1], [0, 3, 1, 2]]  # GF(4) = GF(2)[w]/(w² + w + 1)
    classes = [[[4 * x + (mul[m][x] ^ c) for x in range(4)] for c in range(4)] for m in range(4)]
    classes.append([[4 * c + y for y in range(4)] for c in range(4)])
    rng.shuffle(classes)
    label = list(range(players))
    rng.shuffle(label)
    return [[[label[p] for p in line] for line in lines] for lines in classes[: min(sessions, 5)]]


def _add(meet: list[list[int]], tables: Sequence[Sequence[int]], sign: int) -> None:
    """Count (``sign`` 1) or uncount (−1) the tables' meetings in ``meet``."""
    for table in tables:
        for a, b in combinations(table, 2):
            meet[a][b] += sign
            meet[b][a] += sign


def _draw_session(seated: list[int], meet: list[list[int]], rng: random.Random) -> list[list[int]]:
    """The tables of one session for ``seated`` (a multiple of 4 players), given the
    meetings so far; counts the chosen tables into ``meet``. Greedy then swaps, restarted up
    to :data:`RESTARTS` times while the session adds a repeat; the cheapest is kept."""
    best: list[list[int]] = []
    best_cost = -1
    for _ in range(RESTARTS):
        tables = _greedy(seated, meet, rng)
        cost = sum(meet[a][b] for table in tables for a, b in combinations(table, 2))
        _add(meet, tables, 1)
        cost += _improve(tables, meet, rng)
        if best_cost < 0 or cost < best_cost:
            if best:
                _add(meet, best, -1)
            best, best_cost = tables, cost
        else:
            _add(meet, tables, -1)
        if best_cost == 0:
            break
    return best


def _greedy(seated: list[int], meet: list[list[int]], rng: random.Random) -> list[list[int]]:
    """Each player, in a drawn order, at the open table whose players they have met least
    (the first such table)."""
    order = list(seated)
    rng.shuffle(order)
    tables: list[list[int]] = [[] for _ in range(len(seated) // TABLE_SIZE)]
    open_tables = list(range(len(tables)))
    for player in order:
        row = meet[player]
        chosen, least = open_tables[0], -1
        for t in open_tables:
            cost = sum(row[x] for x in tables[t])
            if least < 0 or cost < least:
                chosen, least = t, cost
                if cost == 0:
                    break
        tables[chosen].append(player)
        if len(tables[chosen]) == TABLE_SIZE:
            open_tables.remove(chosen)
    return tables


def _swap_delta(meet: list[list[int]], here: list[int], there: list[int], a: int, b: int) -> int:
    """The change of Σ C(meetings, 2) when ``a`` (at table ``here``) and ``b`` (at table
    ``there``) trade tables; ``meet`` counts the current tables."""
    row_a, row_b = meet[a], meet[b]
    delta = 0
    for x in here:
        if x != a:
            delta += row_b[x] - row_a[x] + 1
    for y in there:
        if y != b:
            delta += row_a[y] - row_b[y] + 1
    return delta


def _improve(tables: list[list[int]], meet: list[list[int]], rng: random.Random) -> int:
    """Swap players between ``tables`` (one session, counted in ``meet``) while a swap of
    a player who meets someone again lowers the cost; returns the cost change (≤ 0). A
    bounded number of swaps that keep the cost equal let the search leave a plateau."""
    change = 0
    sideways = 2 * len(tables)
    while True:
        conflicted = [
            (t, a) for t, table in enumerate(tables) for a in table if any(meet[a][x] > 1 for x in table if x != a)
        ]
        if not conflicted:
            return change
        rng.shuffle(conflicted)
        moved = False
        for t, a in conflicted:
            if a not in tables[t]:
                continue  # moved by an earlier swap of this pass
            best_delta, best_move = 1, None
            for u, other in enumerate(tables):
                if u == t:
                    continue
                for b in other:
                    delta = _swap_delta(meet, tables[t], other, a, b)
                    if delta < best_delta or (delta == best_delta and rng.random() < 0.5):
                        best_delta, best_move = delta, (u, b)
            if best_move is None or best_delta > 0 or (best_delta == 0 and sideways <= 0):
                continue
            if best_delta == 0:
                sideways -= 1
            u, b = best_move
            _add(meet, [tables[t], tables[u]], -1)
            tables[t][tables[t].index(a)] = b
            tables[u][tables[u].index(b)] = a
            _add(meet, [tables[t], tables[u]], 1)
            change += best_delta
            moved = True
        if not moved:
            return change


def _polish(nights: list[list[list[int]]], meet: list[list[int]], rng: random.Random) -> None:
    """The swaps of :func:`_improve` over every session again, now that later sessions are
    counted too, until a whole pass changes nothing."""
    improved = True
    while improved:
        improved = False
        for tables in nights:
            if _improve(tables, meet, rng) < 0:
                improved = True
