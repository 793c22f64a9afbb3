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
from collections.abc import Collection, Iterator, Mapping, Sequence
from itertools import combinations, permutations

from .errors import N_, ScoringError
from .seating import TABLE_SIZE, Seating, Session
from .seating_draw import RepeatSearch, seat_table

#: Up to this many players seated, every way to split them into tables is tried (5,775 for
#: 12): the fewest repeats there are; above, the search of :func:`~.seating_draw.draw_seating`.
EXACT = 12


def sit_outs_so_far(
    players: int, drawn: Seating, left: Sequence[Collection[int]], leaving: Collection[int] = ()
) -> tuple[int, ...]:
    """How many of the ``drawn`` sessions each of the night's ``players`` (a count: every
    player listed now, late arrivals included) sat out, by player index (club-format.md,
    "details settled"). A player not seated in a drawn session counts one sit-out for it,
    whether present, expected or not yet added then (a late arrival counts the sessions
    before they came), except while their attendance is ``left``: for the players in
    ``leaving`` (attendance ``left`` now), the sessions drawn while they were away (``left[s]``:
    the players whose attendance was ``left`` when session ``s + 1`` was drawn) do not count;
    a player who has come back counts the sessions they missed.

    Raises :class:`ValueError` when ``left`` does not give one collection per drawn session."""
    if len(left) != len(drawn):
        raise ValueError("one collection of leavers per drawn session")
    gone_now = set(leaving)
    counts = [0] * players
    for session, gone in zip(drawn, left, strict=True):
        seated = {p for table in session.tables for p in table.players}
        for p in range(players):
            if p not in seated and not (p in gone and p in gone_now):
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
    rng: random.Random,
    standings: Sequence[int] | None = None,
) -> Session:
    """The next session (number ``len(drawn) + 1``) of a night of ``players`` (a count),
    drawn from the ``present`` players (indexes) after the ``drawn`` sessions.

    - ⌊len(present) / 4⌋ tables of four; the others present sit out (``sit_out``, ascending;
      expected and left players are in neither). Sit-outs first: the present players who have
      sat out least so far (:func:`sit_outs_so_far`: none of them is away, so every session
      they were not seated in counts, those they missed included), then those who did not sit out the
      session before, ties drawn; so the counts of the players present stay within 1 where
      they were, and where earlier absences make that impossible the fewest sit out first.
    - At random (``standings`` None): as few repeat meetings against every drawn session as
      the search finds: for up to :data:`EXACT` seated, every seating is tried
      (:func:`_every_seating`), above it the search of :func:`~.seating_draw.draw_seating`.
    - By the standings (``standings``: the present players in :func:`standings_order`; the
      sit-outs are left out of it; ignored for session 1, drawn at random): the player at
      position i (1-based, among those seated) sits at table t with |t − ⌈i/4⌉| ≤ 1, the top
      four at table 1; the seating has no more repeats than the plain order (positions
      4t−3…4t at table t); of the seatings the search finds that keep both, the fewest
      repeats, then the fewest players moved from their table of the plain order: every such
      seating is tried up to :data:`EXACT` seated (:func:`_every_standings_seating`), above
      it swaps from the plain order (:func:`_standings_tables`).
    - Seat order and each table's first declarer are drawn, as in v1.

    Every draw comes from ``rng``. Raises :class:`ScoringError` at ``present`` with fewer
    than 4 players present, :class:`ValueError` for a present index out of range, a
    ``standings`` that is not the present players."""
    chosen = sorted(set(present))
    if len(chosen) < TABLE_SIZE:
        raise ScoringError(
            "present", N_("%(present)d players are present: a session needs at least 4"), present=len(chosen)
        )
    if chosen[0] < 0 or chosen[-1] >= players:
        raise ValueError("a present player out of range")
    counts = sit_outs_so_far(players, drawn, [()] * len(drawn))
    before = set(drawn[-1].sit_out) if drawn else set()
    order = sorted(chosen, key=lambda p: (counts[p], p in before, rng.random()))
    sit_out = sorted(order[: len(chosen) % TABLE_SIZE])
    out = set(sit_out)
    search = RepeatSearch(players, len(drawn) + 1, rng)
    for session in drawn:
        search.add([table.players for table in session.tables], 1)
    # session 1 is drawn at random (club-format.md, draw_by: standings)
    standings = list(standings) if standings is not None and drawn else None
    if standings is None:
        playing = [p for p in chosen if p not in out]
        tables = _every_seating(playing, search, rng) if len(playing) <= EXACT else search.session(playing)
    else:
        if sorted(standings) != chosen:
            raise ValueError("the standings order is not the present players")
        ranked = [p for p in standings if p not in out]
        exact = _every_standings_seating(ranked, search.meet)
        tables = exact if exact is not None else _standings_tables(ranked, search.meet)
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
    four (:func:`_splits`), one of the cheapest by the search's cost (repeats, then how often
    the same pairs meet: ``search.inc``), drawn among equals."""
    meet, inc = search.meet, search.inc
    costed = [
        (sum(inc[meet[a][b]] for table in split for a, b in combinations(table, 2)), split)
        for split in _splits(players)
    ]
    least = min(cost for cost, _ in costed)
    return rng.choice([split for cost, split in costed if cost == least])


def _splits(players: list[int]) -> Iterator[list[list[int]]]:
    """Every split of ``players`` (a multiple of 4) into tables of four, the first player's
    table first."""
    if not players:
        yield []
        return
    first, others = players[0], players[1:]
    for mates in combinations(others, TABLE_SIZE - 1):
        for rest in _splits([p for p in others if p not in mates]):
            yield [[first, *mates], *rest]


def _every_standings_seating(order: list[int], meet: list[list[int]]) -> list[list[int]] | None:
    """The standings draw tried on every seating of ``order`` (at most :data:`EXACT` players,
    best first) that keeps each player within one table of their table in the plain order:
    the fewest repeats, then the fewest players moved; the plain order among them when it is
    one of the best. None when ``order`` is longer than :data:`EXACT`."""
    if len(order) > EXACT:
        return None
    home = {p: i // TABLE_SIZE for i, p in enumerate(order)}
    plain = [order[i : i + TABLE_SIZE] for i in range(0, len(order), TABLE_SIZE)]
    best, least = plain, (_repeats(plain, meet), 0)
    for split in _splits(order):
        repeats = _repeats(split, meet)
        if repeats > least[0]:
            continue
        for tables in permutations(split):
            if any(abs(t - home[p]) > 1 for t, table in enumerate(tables) for p in table):
                continue
            moved = sum(home[p] != t for t, table in enumerate(tables) for p in table)
            if (repeats, moved) < least:
                best, least = [list(table) for table in tables], (repeats, moved)
    return best


def _repeats(tables: Sequence[Sequence[int]], meet: list[list[int]]) -> int:
    """The repeats ``tables`` add: their pairs that have met before (``meet``)."""
    return sum(1 for table in tables for a, b in combinations(table, 2) if meet[a][b] > 0)
