"""The drawn seating of a club night (club-format.md "Seating"): :func:`draw_seating` seats
``N`` players over ``S`` sessions at ⌊N / 4⌋ tables of four, sit-outs balanced after every
session, as few repeat meetings as the search finds. The seating's shapes and counts are
:mod:`.seating`'s.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from itertools import combinations

from .seating import TABLE_SIZE, Seating, Session, Table

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
    most 1 after every session (a night closed early is balanced too) and nobody sits out two
    sessions in a row (:func:`_draw_sit_outs`), and as few repeat meetings
    (:func:`repeat_count`) as the search finds: none for 16 players up to 5 sessions (an
    affine plane over GF(4)) nor, in practice, wherever the numbers leave room (20 × 2,
    28 × 3 ...); 3 for 12 × 2, the least possible. Seat order and first declarers are
    drawn too. Every draw comes from ``rng``: the same state gives the same seating. Raises
    :class:`ValueError` for fewer than 4 players or no session.

    The search: sit-outs first (whoever has sat out least, then who did not sit out the
    session before, ties drawn); then each session greedily (each player, in a drawn
    order, at the open table where they add the least cost), improved by swapping two
    players of different tables while that lowers the cost, restarted a few times when a
    repeat remains; then the same swaps over the whole night; finally, for a night of at
    most :data:`ANNEAL_PLAYERS` with more repeats than :func:`least_repeats`, simulated
    annealing over the whole night, which may also trade a seated player for one sitting
    out when that keeps the sit-outs balanced after every session. The cost is the repeat
    count, then Σ over pairs of C(meetings, 2): among seatings with as many repeats, the
    one where the same pair meets least often."""
    if players < TABLE_SIZE or sessions < 1:
        raise ValueError("a night needs at least 4 players and 1 session")
    sit_outs = _draw_sit_outs(players, sessions, rng)
    search = RepeatSearch(players, sessions, rng)
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
        Session(s + 1, tuple(seat_table(i + 1, table, rng) for i, table in enumerate(tables)), tuple(sit_outs[s]))
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


def seat_table(number: int, table: list[int], rng: random.Random) -> Table:
    """A drawn table: its players in a drawn clockwise order and a drawn first declarer."""
    order = list(table)
    rng.shuffle(order)
    return Table(number, tuple(order), rng.randrange(TABLE_SIZE))  # type: ignore[arg-type]


def _draw_sit_outs(players: int, sessions: int, rng: random.Random) -> list[list[int]]:
    """Per session, the ``players mod 4`` players who sit out: those who have sat out least
    so far, then those who did not sit out the session before, ties drawn. So after every
    session the counts differ by at most 1 (club-format.md "Seating": a night may close
    early), and nobody sits out two sessions in a row: the session before's ``m`` sit-outs
    leave at least ``m`` others among whom to choose, since ``players`` ≥ 2 ``m`` (``m`` ≤ 3 and
    ``players`` ≥ ``m`` + 4)."""
    count = players % TABLE_SIZE
    sat_out = [0] * players
    before: set[int] = set()
    result: list[list[int]] = []
    for _ in range(sessions):
        order = sorted(range(players), key=lambda p: (sat_out[p], p in before, rng.random()))
        chosen = sorted(order[:count])
        for p in chosen:
            sat_out[p] += 1
        before = set(chosen)
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


class RepeatSearch:
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
        repeat; the cheapest is kept. Each try is built and costed against the sessions before
        only: the best try so far is counted out meanwhile (counted in, it made every later
        try look as if that try's pairs had met, and a better one was thrown away)."""
        best: list[list[int]] = []
        best_cost = -1
        for _ in range(RESTARTS):
            if best:
                self.add(best, -1)
            tables = self.greedy(seated)
            cost = sum(self.inc[self.meet[a][b]] for table in tables for a, b in combinations(table, 2))
            self.add(tables, 1)
            cost += self.improve(tables)
            if best_cost < 0 or cost < best_cost:
                best, best_cost = tables, cost
            else:
                self.add(tables, -1)
                self.add(best, 1)
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
        session or, one time in four when some sit out, a seated player ``a`` with ``b``
        sitting out that session when it keeps the sit-outs balanced after every session and
        nobody out twice in a row (:func:`_may_trade`); the player
        moved is one who meets a table-mate again when one of :data:`LOOKS` random picks
        finds such a player (the search works where the repeats are). Returns the
        cheapest night seen and its sit-outs (``meet`` then counts it)."""
        rng, meet, inc = self.rng, self.meet, self.inc
        sessions, count = len(nights), len(nights[0])
        if count < 2 and not any(sit_outs):
            return nights, sit_outs  # one table, everyone seated: nothing to move
        outs = [0] * len(meet)  # per player, a bit per session sat out (bit s: session s + 1)
        for s, out in enumerate(sit_outs):
            for p in out:
                outs[p] |= 1 << s
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
                if not _may_trade(outs[a], outs[b], s):
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
                outs[a] |= 1 << s
                outs[b] &= ~(1 << s)
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


def _may_trade(seated: int, out: int, s: int) -> bool:
    """Whether a player seated in session ``s + 1`` and one sitting it out (their sit-outs as
    bit masks, bit ``k`` for session ``k + 1``) may trade places there and the sit-outs stay
    balanced after every session (club-format.md "Seating"). Before the trade each prefix's
    counts differ by at most 1, so the trade keeps that exactly when it only swaps the two
    players' counts in every prefix from session ``s + 1`` on: equal counts before it, the
    same sessions out after it. The seated one must not sit out the session before or after."""
    below = (1 << s) - 1
    if (seated & below).bit_count() != (out & below).bit_count() or seated >> (s + 1) != out >> (s + 1):
        return False
    neighbours = (1 << (s + 1)) | (1 << s >> 1)  # sessions s + 2 and s (none before the first)
    return not seated & neighbours
