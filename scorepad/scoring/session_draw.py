"""Sessions drawn as they start (club-format.md, Version 2, "Sessions drawn as they start"
and "details settled", "Attendance and drawing"): on a night with ``draw: each_session`` the
director draws each session from the players present at that moment, after some sessions
have been played, while late arrivals join and leavers go home.

:func:`sit_outs_so_far` counts the night's sit-outs; :func:`draw_session` draws the next
session (at random, or by the standings from :func:`standings_order`); :func:`repeats_added`
counts the repeat meetings a session adds. Players are indexes into the night's ``players``
(0-based), sessions numbered from 1, as in :mod:`.seating`.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Mapping, Sequence
from itertools import combinations

from .errors import N_, ScoringError
from .seating import TABLE_SIZE, Seating, Session
from .seating_draw import RepeatSearch, seat_table

#: Up to this many players seated, every way to split them into tables is tried (5,775 for
#: 12): the fewest repeats there are; above, the search of :func:`~.seating_draw.draw_seating`.
EXACT = 12


def sit_outs_so_far(players: int, drawn: Seating, left: Sequence[Collection[int]]) -> tuple[int, ...]:
    """How many of the ``drawn`` sessions each of the night's ``players`` (a count: every
    player listed now, late arrivals included) sat out, by player index. A player not seated
    in a drawn session counts one sit-out for it, whether present, expected or not yet added
    then, except while their attendance was ``left``: ``left[s]`` holds the players whose
    attendance was ``left`` when session ``s + 1`` was drawn (club-format.md, "details
    settled": a late arrival counts as having sat out the sessions before they came, a leaver
    is not counted after leaving, one who returns counts the sessions missed meanwhile).

    Raises :class:`ValueError` when ``left`` does not give one collection per drawn session."""
    if len(left) != len(drawn):
        raise ValueError("one collection of leavers per drawn session")
    counts = [0] * players
    for session, gone in zip(drawn, left, strict=True):
        seated = {p for table in session.tables for p in table.players}
        for p in range(players):
            if p not in seated and p not in gone:
                counts[p] += 1
    return tuple(counts)


def standings_order(seated: Collection[int], ranks: Mapping[int, int | None]) -> list[int]:
    """The players to seat in the standings draw's order (club-format.md, ``draw_by:
    standings``): by leaderboard ``rank`` as it stands when the session is drawn (1 first);
    ties and unranked players (no ``rank``, or absent from ``ranks``) in the order of the
    night's ``players``, unranked after the ranked."""
    return sorted(seated, key=lambda p: (ranks.get(p) is None, ranks.get(p) or 0, p))


def repeats_added(drawn: Seating, tables: Sequence[Sequence[int]]) -> int:
    """The repeat meetings (club-format.md "Seating") that a new session's ``tables`` (lists
    of 4 player indexes) add to the ``drawn`` sessions: one for each pair the new tables seat
    together that shares a table in a drawn session."""
    met = {pair for session in drawn for table in session.tables for pair in combinations(sorted(table.players), 2)}
    return sum(1 for table in tables for pair in combinations(sorted(table), 2) if pair in met)


def draw_session(
    players: int,
    present: Collection[int],
    drawn: Seating,
    left: Sequence[Collection[int]],
    rng: random.Random,
    standings: Sequence[int] | None = None,
) -> Session:
    """The next session (number ``len(drawn) + 1``) of a night of ``players`` (a count),
    drawn from the ``present`` players (indexes) after the ``drawn`` sessions (``left`` as in
    :func:`sit_outs_so_far`).

    - ⌊len(present) / 4⌋ tables of four; the others present sit out (``sit_out``, ascending;
      expected and left players are in neither). Sit-outs first: the present players who have
      sat out least so far (:func:`sit_outs_so_far`), then those who did not sit out the
      session before, ties drawn; so the counts of the players present stay within 1 where
      they were, and where earlier absences make that impossible the fewest sit out first.
    - At random (``standings`` None): as few repeat meetings against every drawn session as
      search finds: for up to :data:`EXACT` seated, every seating is tried
      (:func:`_every_seating`), above it the search of :func:`~.seating_draw.draw_seating`.
    - By the standings (``standings``: the present players in :func:`standings_order`; the
      sit-outs are left out of it): the player at position i (1-based, among those seated)
      sits at table t with |t − ⌈i/4⌉| ≤ 1, the top four at table 1; the seating has no more
      repeats than the plain order (positions 4t−3…4t at table t); of the seatings the search
      finds that keep both, the fewest repeats, then the fewest players moved from their
      table of the plain order (:func:`_standings_tables`).
    - Seat order and each table's first declarer are drawn, as in v1.

    Every draw comes from ``rng``. Raises :class:`ScoringError` at ``present`` with fewer
    than 4 players present, :class:`ValueError` for a present index out of range, a
    ``standings`` that is not the present players, or ``left`` not one per drawn session."""
    chosen = sorted(set(present))
    if len(chosen) < TABLE_SIZE:
        raise ScoringError(
            "present", N_("%(present)d players are present: a session needs at least 4"), present=len(chosen)
        )
    if chosen[0] < 0 or chosen[-1] >= players:
        raise ValueError("a present player out of range")
    counts = sit_outs_so_far(players, drawn, left)
    before = set(drawn[-1].sit_out) if drawn else set()
    order = sorted(chosen, key=lambda p: (counts[p], p in before, rng.random()))
    sit_out = sorted(order[: len(chosen) % TABLE_SIZE])
    out = set(sit_out)
    search = RepeatSearch(players, len(drawn) + 1, rng)
    for session in drawn:
        search.add([table.players for table in session.tables], 1)
    if standings is None:
        playing = [p for p in chosen if p not in out]
        tables = _every_seating(playing, search, rng) if len(playing) <= EXACT else search.session(playing)
    else:
        if sorted(standings) != chosen:
            raise ValueError("the standings order is not the present players")
        tables = _standings_tables([p for p in standings if p not in out], search.meet)
    number = len(drawn) + 1
    return Session(number, tuple(seat_table(t + 1, table, rng) for t, table in enumerate(tables)), tuple(sit_out))


def _standings_tables(order: list[int], meet: list[list[int]]) -> list[list[int]]:
    """The standings draw's tables for ``order`` (a multiple of 4 players, best first), with
    ``meet[a][b]`` the drawn sessions' meetings of each pair: from the plain order, swaps of
    two players of different tables, each kept within one table of their own table in the
    plain order, while a swap lowers (repeats added, players moved); a swap never adds a
    repeat, so the result has no more than the plain order."""
    home = {p: i // TABLE_SIZE for i, p in enumerate(order)}
    tables = [order[i : i + TABLE_SIZE] for i in range(0, len(order), TABLE_SIZE)]
    while (swap := _better_swap(tables, home, meet)) is not None:
        t, a, u, b = swap
        tables[t][tables[t].index(a)] = b
        tables[u][tables[u].index(b)] = a
    return tables


def _better_swap(
    tables: list[list[int]], home: dict[int, int], meet: list[list[int]]
) -> tuple[int, int, int, int] | None:
    """The first swap ``(t, a, u, b)`` of player ``a`` at table ``t`` with ``b`` at table
    ``u`` (indexes from 0) that keeps both within one table of ``home`` and lowers (repeats
    added, players moved); None when there is none."""

    def repeats(table: list[int], without: int, joined: int) -> int:
        """The repeats ``joined`` meets at ``table`` once it takes ``without``'s seat."""
        return sum(1 for x in table if x != without and meet[joined][x] > 0)

    for t, here in enumerate(tables):
        for u in range(t + 1, min(t + 3, len(tables))):
            there = tables[u]
            for a in here:
                if abs(u - home[a]) > 1:
                    continue
                for b in there:
                    if abs(t - home[b]) > 1:
                        continue
                    before = repeats(here, a, a) + repeats(there, b, b)
                    gain = before - repeats(here, a, b) - repeats(there, b, a)
                    moved = (home[a] != u) + (home[b] != t) - (home[a] != t) - (home[b] != u)
                    if gain > 0 or (gain == 0 and moved < 0):
                        return t, a, u, b
    return None


def _every_seating(players: list[int], search: RepeatSearch, rng: random.Random) -> list[list[int]]:
    """Of every split of ``players`` (a multiple of 4, at most :data:`EXACT`) into tables of
    four, one of the cheapest by the search's cost (repeats, then how often the same pairs
    meet: ``search.inc``), drawn among equals."""
    meet, inc = search.meet, search.inc
    best: list[list[list[int]]] = []
    least = -1

    def split(rest: list[int], tables: list[list[int]], cost: int) -> None:
        nonlocal least
        if least >= 0 and cost > least:
            return
        if not rest:
            if cost < least or least < 0:
                best.clear()
                least = cost
            best.append([list(t) for t in tables])
            return
        first, others = rest[0], rest[1:]
        for mates in combinations(others, TABLE_SIZE - 1):
            table = [first, *mates]
            added = sum(inc[meet[a][b]] for a, b in combinations(table, 2))
            split([p for p in others if p not in mates], [*tables, table], cost + added)

    split(players, [], 0)
    return rng.choice(best)
