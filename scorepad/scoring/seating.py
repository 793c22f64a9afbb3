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

import math
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
                    raise ScoringError(ppath, N_("must be a player’s index from 0 to %(last)d"), last=players - 1)
                if player in seated:
                    raise ScoringError(ppath, N_("player %(player)d is already seated in this session"), player=player)
                seated.add(player)
            tables.append(Table(t + 1, tuple(raw_table), rng.randrange(TABLE_SIZE)))
        sit_out = tuple(p for p in range(players) if p not in seated)
        result.append(Session(s + 1, tuple(tables), sit_out))
    return tuple(result)


#: Restarts of the per-session search when a session cannot be drawn without a repeat.
RESTARTS = 8
#: The search's cost of one more meeting of a pair that has met ``m`` times: a repeat
#: (``m`` ≥ 1) costs this much, plus ``m`` so that among seatings with as few repeats the
#: search prefers the one where no pair meets again and again.
REPEAT_COST = 1000
#: Nights of at most this many players that keep a repeat after the search are annealed:
#: :data:`ANNEAL_STEPS` random swaps per session (larger nights have room to spare).
ANNEAL_PLAYERS = 40
ANNEAL_STEPS = 1500
#: Random picks of a player to move in an annealing step, looking for one who repeats.
LOOKS = 6


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
    greedily (each player, in a drawn order, at the open table where they add the least
    cost), improved by swapping two players of different tables while that lowers the cost,
    restarted a few times when a repeat remains; then the same swaps over the whole
    night; finally, for a night of at most :data:`ANNEAL_PLAYERS` with more repeats than
    :func:`least_repeats`, simulated annealing over the whole night, which may also trade
    a seated player for one sitting out when that keeps the sit-out counts. The cost is the repeat
    count, then Σ over pairs of C(meetings, 2): among seatings with as many repeats, the
    one where the same pair meets least often."""
    if players < TABLE_SIZE or sessions < 1:
        raise ValueError("a night needs at least 4 players and 1 session")
    sit_outs = _draw_sit_outs(players, sessions, rng)
    search = _Search(players, sessions, rng)
    fixed = _affine_sessions(players, sessions, rng)
    nights: list[list[list[int]]] = []
    for s in range(sessions):
        if s < len(fixed):
            tables = fixed[s]
            search.add(tables, 1)
        else:
            out = set(sit_outs[s])
            tables = search.session([p for p in range(players) if p not in out])
        nights.append(tables)
    if len(fixed) < sessions:
        search.polish(nights)
        if players <= ANNEAL_PLAYERS and search.repeats() > least_repeats(players, sessions):
            nights, sit_outs = search.anneal(nights, sit_outs, ANNEAL_STEPS * sessions)
    return tuple(
        Session(s + 1, tuple(_seat(i + 1, table, rng) for i, table in enumerate(tables)), tuple(sit_outs[s]))
        for s, tables in enumerate(nights)
    )


def least_repeats(players: int, sessions: int) -> int:
    """A floor under a night's repeats (:func:`repeat_count`), the larger of two counts.
    The pairs: the tables hold 6 pairs each, and beyond the C(players, 2) pairs there are,
    every pair seated again is a repeat (16 players × 6 sessions: 4 × 6 × 6 − 120 = 24). The
    first session: when everyone plays every session at T < 4 tables, each table of a later
    session draws its 4 players from the first session's T tables, so at least 6, 2 or 1
    of its pairs (T = 1, 2, 3) sat together then (12 × 2: 3 tables × 1 = 3)."""
    tables = players // TABLE_SIZE
    by_pairs = 6 * tables * sessions - players * (players - 1) // 2
    again = {1: 6, 2: 2, 3: 1}.get(tables, 0) if players % TABLE_SIZE == 0 else 0
    return max(0, by_pairs, (sessions - 1) * tables * again)


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


class _Search:
    """The state of :func:`draw_seating`'s search: ``meet[a][b]``, how many of the tables
    drawn so far seat both ``a`` and ``b``; ``inc[m]``, the cost of one more meeting of a
    pair that has met ``m`` times (:data:`REPEAT_COST`)."""

    def __init__(self, players: int, sessions: int, rng: random.Random):
        self.meet = [[0] * players for _ in range(players)]
        self.inc = [(REPEAT_COST if m else 0) + m for m in range(sessions + 1)]
        self.rng = rng

    def add(self, tables: Sequence[Sequence[int]], sign: int) -> None:
        """Count (``sign`` 1) or uncount (−1) the tables' meetings."""
        meet = self.meet
        for table in tables:
            for a, b in combinations(table, 2):
                meet[a][b] += sign
                meet[b][a] += sign

    def replace(self, table: list[int], seat: int, player: int) -> None:
        """Put ``player`` in ``table``'s ``seat`` in place of whoever sat there, counting
        the meetings that ends and the ones it starts."""
        meet, gone = self.meet, table[seat]
        row_gone, row_new = meet[gone], meet[player]
        for x in table:
            if x != gone:
                row_gone[x] -= 1
                meet[x][gone] -= 1
                row_new[x] += 1
                meet[x][player] += 1
        table[seat] = player

    def session(self, seated: list[int]) -> list[list[int]]:
        """The tables of one session for ``seated`` (a multiple of 4 players), counted in.
        Greedy then swaps, restarted up to :data:`RESTARTS` times while the session adds a
        repeat; the cheapest is kept."""
        best: list[list[int]] = []
        best_cost = -1
        for _ in range(RESTARTS):
            tables = self.greedy(seated)
            cost = sum(self.inc[self.meet[a][b]] for table in tables for a, b in combinations(table, 2))
            self.add(tables, 1)
            cost += self.improve(tables)
            if best_cost < 0 or cost < best_cost:
                if best:
                    self.add(best, -1)
                best, best_cost = tables, cost
            else:
                self.add(tables, -1)
            if best_cost < REPEAT_COST:
                break
        return best

    def greedy(self, seated: list[int]) -> list[list[int]]:
        """Each player, in a drawn order, at the first open table where they add the least cost."""
        order = list(seated)
        self.rng.shuffle(order)
        inc = self.inc
        tables: list[list[int]] = [[] for _ in range(len(seated) // TABLE_SIZE)]
        open_tables = list(range(len(tables)))
        for player in order:
            row = self.meet[player]
            chosen, least = open_tables[0], -1
            for t in open_tables:
                cost = sum(inc[row[x]] for x in tables[t])
                if least < 0 or cost < least:
                    chosen, least = t, cost
                    if cost == 0:
                        break
            tables[chosen].append(player)
            if len(tables[chosen]) == TABLE_SIZE:
                open_tables.remove(chosen)
        return tables

    def swap_delta(self, here: list[int], there: list[int], a: int, b: int) -> int:
        """The change of cost when ``a`` (at table ``here``) and ``b`` (at table ``there``)
        trade tables: ``b`` meets ``a``'s table-mates once more, ``a`` once less; and back."""
        inc, row_a, row_b = self.inc, self.meet[a], self.meet[b]
        delta = 0
        for x in here:
            if x != a:
                delta += inc[row_b[x]] - inc[row_a[x] - 1]
        for y in there:
            if y != b:
                delta += inc[row_a[y]] - inc[row_b[y] - 1]
        return delta

    def improve(self, tables: list[list[int]]) -> int:
        """Swap players between ``tables`` (one session, counted in) while a swap of a
        player who meets someone again lowers the cost; returns the cost change (≤ 0). A
        bounded number of swaps that keep the cost let the search leave a plateau."""
        meet, rng = self.meet, self.rng
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
                        delta = self.swap_delta(tables[t], other, a, b)
                        if delta < best_delta or (delta == best_delta and rng.random() < 0.5):
                            best_delta, best_move = delta, (u, b)
                if best_move is None or best_delta > 0 or (best_delta == 0 and sideways <= 0):
                    continue
                if best_delta == 0:
                    sideways -= 1
                u, b = best_move
                self.replace(tables[t], tables[t].index(a), b)
                self.replace(tables[u], tables[u].index(b), a)
                change += best_delta
                moved = True
            if not moved:
                return change

    def polish(self, nights: list[list[list[int]]]) -> None:
        """:meth:`improve` over every session again, now that later sessions are counted
        too, until a whole pass changes nothing."""
        improved = True
        while improved:
            improved = False
            for tables in nights:
                if self.improve(tables) < 0:
                    improved = True

    def repeats(self) -> int:
        """The repeat count (:func:`repeat_count`) of the tables counted in."""
        return sum(max(0, met - 1) for row in self.meet for met in row) // 2

    def anneal(
        self, nights: list[list[list[int]]], sit_outs: list[list[int]], steps: int
    ) -> tuple[list[list[list[int]]], list[list[int]]]:
        """Simulated annealing over the whole night (counted in; ``sit_outs`` per session):
        up to ``steps`` random moves, each kept when it lowers the cost, or raises it by
        ``d`` with probability exp(−d / T) as T cools from 0.7 to 0.03 repeats; it stops
        early at :func:`least_repeats`. A move swaps two players of different tables of a
        session or, one time in four when some sit out, a seated player with one sitting
        out who has sat out once more (so the sit-out counts stay as they are); the player
        moved is one who meets a table-mate again when one of :data:`LOOKS` random picks
        finds such a player (the search works where the repeats are). Returns the
        cheapest night seen and its sit-outs (``meet`` then counts it)."""
        rng, meet, inc = self.rng, self.meet, self.inc
        sessions, count = len(nights), len(nights[0])
        if count < 2 and not any(sit_outs):
            return nights, sit_outs  # one table, everyone seated: nothing to move
        sat_out = [0] * len(meet)
        for out in sit_outs:
            for p in out:
                sat_out[p] += 1
        floor = least_repeats(len(meet), sessions)
        best = ([[list(t) for t in tables] for tables in nights], [list(out) for out in sit_outs])
        cost, best_cost, repeats = 0, 0, self.repeats()
        hot, cold = 0.7 * REPEAT_COST, 0.03 * REPEAT_COST
        temperature = hot
        for step in range(steps):
            if step % 64 == 0:
                temperature = hot * (cold / hot) ** (step / steps)
            for _look in range(LOOKS):  # a table where someone meets again, if a few looks find one
                s = rng.randrange(sessions)
                tables, out = nights[s], sit_outs[s]
                t = rng.randrange(count)
                here = tables[t]
                i = rng.randrange(TABLE_SIZE)
                a = here[i]
                row_a = meet[a]
                if any(row_a[x] > 1 for x in here if x != a):
                    break
            if out and (count < 2 or rng.random() < 0.25):
                k = rng.randrange(len(out))
                b, there, j = out[k], None, k
                if sat_out[b] != sat_out[a] + 1:
                    continue
            else:
                u = rng.randrange(count - 1)
                there = tables[u + (u >= t)]
                j = rng.randrange(TABLE_SIZE)
                b = there[j]
            row_a, row_b = meet[a], meet[b]
            delta = 0  # self.swap_delta(here, there, a, b), inlined: this loop is the hot one
            for x in here:
                if x != a:
                    delta += inc[row_b[x]] - inc[row_a[x] - 1]
            for y in there or ():
                if y != b:
                    delta += inc[row_a[y]] - inc[row_b[y] - 1]
            if delta > 0 and rng.random() >= math.exp(-delta / temperature):
                continue
            self.replace(here, i, b)
            if there is None:
                out[j] = a
                sat_out[a] += 1
                sat_out[b] -= 1
            else:
                self.replace(there, j, a)
            cost += delta
            repeats += round(delta / REPEAT_COST)
            if cost < best_cost:
                best = ([[list(t) for t in tables] for tables in nights], [list(out) for out in sit_outs])
                best_cost = cost
                if repeats <= floor:
                    break
        for tables in nights:
            self.add(tables, -1)
        for tables in best[0]:
            self.add(tables, 1)
        return best[0], [sorted(out) for out in best[1]]
