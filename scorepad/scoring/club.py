"""A club's members, their statistics and the season ladder (club-format.md "Club, members,
statistics, ladder, rating").

A club game's seats become :class:`SeatResult` s (:func:`seat_results`: each seat's final,
rank and what each contract and the doubles brought it), which the app keeps per game so
that no page recomputes a season from its rounds. :func:`member_stats` sums one member's
games into the spec's statistics; :func:`ladder` ranks the club's members over a season.
A win is :func:`is_win`. The rating (openskill) is not the engine's (:mod:`scorepad.services.rating`), but
the ordinal it is shown by is: :func:`ordinal`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from typing import Any

from .contracts import SEATS, is_int
from .document import parse_date
from .doubles import pair_settlements
from .errors import N_, ScoringError, join
from .game import Game, Scores, score
from .night import table_places
from .presets import MAX_PLAYER
from .text import clean_name, refuse_lone_surrogates

#: How a ladder scores a game (club-format.md "Ladder"): the member's ``final``, or their places 0 to 3.
LADDER_BY = ("points", "places")
MAX_CLUB_NAME = 80
#: The largest ``best`` and ``min_games`` a ladder takes.
MAX_LADDER_GAMES = 1000
CLUB_FIELDS = frozenset({"name", "ladder"})
LADDER_FIELDS = frozenset({"best", "min_games", "by", "from", "to"})


@dataclass(frozen=True)
class LadderRules:
    """A club's season ladder: the ``best`` results counted (1 to 1000), ``min_games`` to
    qualify (1 to 1000), scored ``by`` ``points`` or ``places``, over the complete games dated
    ``start`` (JSON ``from``) to ``end`` (``to``), both inclusive; None: no bound."""

    best: int = 10
    min_games: int = 5
    by: str = "points"
    start: date | None = None
    end: date | None = None

    def counts(self, day: date) -> bool:
        """True when a game played on ``day`` is in the season."""
        return (self.start is None or day >= self.start) and (self.end is None or day <= self.end)


DEFAULT_LADDER = LadderRules()


@dataclass(frozen=True)
class ClubSpec:
    """A validated club document: its ``name`` and :class:`LadderRules`."""

    name: str
    ladder: LadderRules


def parse_club_name(obj: Any, path: str = "name") -> str:
    """A club's name: a name by :mod:`.text`'s rules, at most :data:`MAX_CLUB_NAME`
    characters. Raises :class:`ScoringError` at ``path``."""
    return clean_name(
        obj,
        path,
        MAX_CLUB_NAME,
        empty_message=N_("the club needs a name"),
        too_long_message=N_("the name is longer than %(limit)d characters"),
    )


def parse_club(obj: Any) -> ClubSpec:
    """Validate a club document ``{"name", "ladder"?}`` (``POST /api/v1/clubs``). Raises
    :class:`ScoringError` at the first problem's path (``name``, ``ladder.best``, an unknown
    field's name)."""
    if not isinstance(obj, dict):
        raise ScoringError("", N_("a club document must be a JSON object"))
    refuse_lone_surrogates(obj)
    for key in obj:
        if key not in CLUB_FIELDS:
            raise ScoringError(key, N_("unknown field of a club document"))
    return ClubSpec(parse_club_name(obj.get("name")), parse_ladder(obj.get("ladder")))


def _ladder_count(obj: Any, path: str, default: int) -> int:
    if obj is None:
        return default
    if not is_int(obj) or not 1 <= obj <= MAX_LADDER_GAMES:
        raise ScoringError(path, N_("a whole number from 1 to %(most)d"), most=MAX_LADDER_GAMES)
    return int(obj)


def parse_ladder(obj: Any, path: str = "ladder") -> LadderRules:
    """A club's ``ladder`` object (club-format.md): every key optional (``best`` 10,
    ``min_games`` 5, ``by`` ``points``, ``from`` and ``to`` open); None is the default ladder.
    Raises :class:`ScoringError` at ``ladder.best``, ``ladder.min_games``, ``ladder.by``,
    ``ladder.from``, ``ladder.to`` (before ``from``) or an unknown key's path."""
    if obj is None:
        return DEFAULT_LADDER
    if not isinstance(obj, dict):
        raise ScoringError(path, N_("the ladder is an object (best, min_games, by, from, to)"))
    for key in obj:
        if key not in LADDER_FIELDS:
            raise ScoringError(join(path, key), N_("unknown field of a ladder"))
    by = obj.get("by", "points")
    if by not in LADDER_BY:
        raise ScoringError(join(path, "by"), N_("the ladder is by points or by places"))
    start = parse_date(obj.get("from"), join(path, "from"))
    end = parse_date(obj.get("to"), join(path, "to"))
    if start is not None and end is not None and end < start:
        raise ScoringError(join(path, "to"), N_("the season ends before it starts"))
    return LadderRules(
        best=_ladder_count(obj.get("best"), join(path, "best"), DEFAULT_LADDER.best),
        min_games=_ladder_count(obj.get("min_games"), join(path, "min_games"), DEFAULT_LADDER.min_games),
        by=by,
        start=start,
        end=end,
    )


def ladder_to_dict(rules: LadderRules) -> dict[str, Any]:
    """The ``ladder`` object of the API: ``{"best", "min_games", "by", "from", "to"}`` (dates ISO, or None)."""
    return {
        "best": rules.best,
        "min_games": rules.min_games,
        "by": rules.by,
        "from": rules.start.isoformat() if rules.start else None,
        "to": rules.end.isoformat() if rules.end else None,
    }


def parse_member_name(obj: Any, path: str = "name") -> str:
    """A member's name: a player's name by :mod:`.text`'s rules (at most 40 characters, as
    :func:`~.document.player_names`). Raises :class:`ScoringError` at ``path``."""
    return clean_name(
        obj,
        path,
        MAX_PLAYER,
        empty_message=N_("the name is empty"),
        too_long_message=N_("the name is longer than %(limit)d characters"),
    )


@dataclass(frozen=True)
class ContractLine:
    """One seat's rounds of one contract (club-format.md "A member's statistics",
    ``by_contract``): ``rounds`` played with it (a split deal not played counts), ``declared``
    of them as declarer, ``raw`` Σ raw score and ``doubles`` Σ doubles settlement (points)."""

    rounds: int = 0
    declared: int = 0
    raw: int = 0
    doubles: int = 0

    def __add__(self, other: ContractLine) -> ContractLine:
        return ContractLine(
            self.rounds + other.rounds,
            self.declared + other.declared,
            self.raw + other.raw,
            self.doubles + other.doubles,
        )

    def to_dict(self) -> dict[str, int]:
        """``{"rounds", "declared", "raw", "doubles"}``: the spec's keys, exactly."""
        return {"rounds": self.rounds, "declared": self.declared, "raw": self.raw, "doubles": self.doubles}

    @classmethod
    def from_dict(cls, obj: Mapping[str, int]) -> ContractLine:
        """The line :meth:`to_dict` gave."""
        return cls(obj["rounds"], obj["declared"], obj["raw"], obj["doubles"])


@dataclass(frozen=True)
class SeatResult:
    """One seat of one game as it stands (complete or not): its ``final`` and competition
    ``rank`` (game-format.md "Results"), ``by_contract`` (:class:`ContractLine` of each
    contract with a round), the recorded doubles ``given`` (pairs with this seat as the
    doubler, a recorded redouble included, an implicit ``auto_redouble`` not) and
    ``received`` (as the doubled), ``net`` Σ doubles settlement (points), and ``against``:
    the net doubles points this seat won from each seat (its own 0; negative: paid)."""

    seat: int
    final: int
    rank: int
    complete: bool
    rounds_played: int
    by_contract: Mapping[str, ContractLine]
    given: int
    received: int
    net: int
    against: tuple[int, ...]


def seat_results(game: Game, scores: Scores | None = None) -> tuple[SeatResult, ...]:
    """The four :class:`SeatResult` s of ``game`` (``scores``: its :func:`~.game.score`, if
    already computed). Pairwise doubles as settled (barbu-rules.md "Settlement is pairwise")."""
    scores = scores or score(game)
    lines: list[dict[str, ContractLine]] = [{} for _ in range(SEATS)]
    given = [0] * SEATS
    received = [0] * SEATS
    against = [[0] * SEATS for _ in range(SEATS)]
    for rnd, res in zip(game.rounds, scores.rounds, strict=True):
        for seat in range(SEATS):
            line = ContractLine(1, int(seat == res.declarer), res.raw[seat], res.doubles[seat])
            lines[seat][rnd.contract] = lines[seat].get(rnd.contract, ContractLine()) + line
        for doubler, doubled in rnd.doubles:
            given[doubler] += 1
            received[doubled] += 1
        for pair in pair_settlements(res.raw, rnd.doubles, res.declarer, game.preset.doubling):
            against[pair.a][pair.b] += pair.amount
            against[pair.b][pair.a] -= pair.amount
    st = scores.standings
    return tuple(
        SeatResult(
            seat=seat,
            final=st.final[seat],
            rank=st.rank[seat],
            complete=st.complete,
            rounds_played=st.rounds_played,
            by_contract=lines[seat],
            given=given[seat],
            received=received[seat],
            net=sum(r.doubles[seat] for r in scores.rounds),
            against=tuple(against[seat]),
        )
        for seat in range(SEATS)
    )


@dataclass(frozen=True)
class MemberGame:
    """One club game of one member, as the app keeps it (from a :class:`SeatResult`):
    ``game_id``, its ``date``, the member's ``final`` and ``rank``, ``complete``, the
    contract lines and doubles, and ``against``: opponent member id → net doubles points won
    from them (guests left out)."""

    game_id: int
    date: date
    final: int
    rank: int
    complete: bool
    by_contract: Mapping[str, ContractLine]
    given: int
    received: int
    net: int
    against: Mapping[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class Rival:
    """An opponent ``member`` and the net ``points`` (> 0) moved through doubles."""

    member: str
    points: int


@dataclass(frozen=True)
class MemberStats:
    """A member's statistics over the club's games in which they sat (club-format.md "A
    member's statistics"): ``games``, ``complete_games``, ``wins`` (complete games ranked 1,
    ties count), ``total`` Σ final (points), ``average`` total ÷ games rounded half away from
    zero to 2 decimals (None with no games), ``by_contract`` summed per contract, doubles
    ``given``, ``received`` and ``net``; ``nemesis``: the opponent member who took the most from
    this one through doubles, ``victim`` (the favourite victim): the one this member took the
    most from (None when nobody did); ``history`` newest first (date, then game)."""

    games: int
    complete_games: int
    wins: int
    total: int
    average: Decimal | None
    by_contract: Mapping[str, ContractLine]
    given: int
    received: int
    net: int
    nemesis: Rival | None
    victim: Rival | None
    history: tuple[MemberGame, ...]


def is_win(complete: bool, rank: int | None) -> bool:
    """True when a seat's game counts as a win (club-format.md "Club, members, statistics,
    ladder, rating", ``wins``): the game is ``complete`` and the seat's ``rank`` (competition
    ranking, 1 the best) is 1; ties count, so two seats ranked 1 both win. A game in play
    wins nothing, whatever its standings."""
    return complete and rank == 1


def ordinal(mu: float, sigma: float) -> float:
    """A rating's ordinal, the one number the club shows for it (club-format.md "Club, members,
    statistics, ladder, rating", ``rating``): μ − 3σ (openskill's ordinal, on the rating's
    scale): about 0 for the default rating μ 25, σ 25/3; μ 27.1, σ 4.2 gives 14.5."""
    return mu - 3 * sigma


def average_of(total: int, games: int) -> Decimal | None:
    """``total / games`` rounded half away from zero to 2 decimals, exactly (None for no games):
    ``average_of(-31, 6)`` is −5.17, ``average_of(1, 8)`` 0.13."""
    if not games:
        return None
    value = Fraction(total, games)
    scaled = abs(value) * 100
    whole = int(scaled)
    if scaled - whole >= Fraction(1, 2):
        whole += 1
    result = Decimal(whole) / 100
    return (-result if value < 0 else result).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)


def member_stats(games: Sequence[MemberGame]) -> MemberStats:
    """Sum one member's club games (any order) into :class:`MemberStats`."""
    by_contract: dict[str, ContractLine] = {}
    against: dict[str, int] = {}
    for game in games:
        for contract, line in game.by_contract.items():
            by_contract[contract] = by_contract.get(contract, ContractLine()) + line
        for member, points in game.against.items():
            against[member] = against.get(member, 0) + points
    total = sum(g.final for g in games)
    nemesis = min(((points, member) for member, points in against.items() if points < 0), default=None)
    victim = max(((points, member) for member, points in against.items() if points > 0), default=None)
    if victim is not None:  # the lowest id among equals, as for the nemesis
        victim = min((p, m) for m, p in against.items() if p == victim[0])
    return MemberStats(
        games=len(games),
        complete_games=sum(g.complete for g in games),
        wins=sum(is_win(g.complete, g.rank) for g in games),
        total=total,
        average=average_of(total, len(games)),
        by_contract=dict(sorted(by_contract.items())),
        given=sum(g.given for g in games),
        received=sum(g.received for g in games),
        net=sum(g.net for g in games),
        nemesis=Rival(nemesis[1], -nemesis[0]) if nemesis else None,
        victim=Rival(victim[1], victim[0]) if victim else None,
        history=tuple(sorted(games, key=lambda g: (g.date, g.game_id), reverse=True)),
    )


@dataclass(frozen=True)
class LadderGame:
    """One complete club game for the ladder: its ``date``, the ``members`` by seat (None:
    a guest) and the four ``final`` s (points; a guest's too: places need them)."""

    date: date
    members: tuple[str | None, ...]
    final: tuple[int, ...]


@dataclass(frozen=True)
class LadderEntry:
    """A member's line of the ladder (club-format.md "Ladder"): ``games`` in the season,
    ``counted`` (at most ``best``), ``score`` (points, or places: halves possible),
    ``qualified`` (games ≥ min_games) and ``rank`` (None when not qualified)."""

    member: str
    name: str
    games: int
    counted: int
    score: int | Fraction
    qualified: bool
    rank: int | None


def ladder(
    rules: LadderRules, members: Sequence[tuple[str, str]], games: Sequence[LadderGame]
) -> tuple[LadderEntry, ...]:
    """The season ladder: each of ``members`` (``(id, name)``, every member of the club, in
    the club's order) scored over the complete ``games`` dated within the season: a game
    scores the member's final (``by: points``) or places (``by: places``,
    :func:`~.event.table_places`), the best ``rules.best`` summed. Qualified members
    (games ≥ ``min_games``) first, by score, competition-ranked (1, 2, 2, 4); then the
    others by score, ``rank`` None; equal scores keep the members' order."""
    scores: dict[str, list[int | Fraction]] = {member: [] for member, _name in members}
    for game in games:
        if not rules.counts(game.date):
            continue
        values: Sequence[int | Fraction] = table_places(game.final) if rules.by == "places" else game.final
        for member, value in zip(game.members, values, strict=True):
            if member is not None and member in scores:
                scores[member].append(value)
    rows = []
    for order, (member, name) in enumerate(members):
        best = sorted(scores[member], reverse=True)[: rules.best]
        total: int | Fraction = sum(best, Fraction(0)) if rules.by == "places" else sum(best, 0)
        games_played = len(scores[member])
        rows.append((games_played >= rules.min_games, total, order, member, name, games_played, len(best)))
    rows.sort(key=lambda r: (not r[0], -r[1], r[2]))
    entries: list[LadderEntry] = []
    for index, (qualified, total, _order, member, name, games_played, counted) in enumerate(rows):
        rank = None
        if qualified:
            same = entries and entries[-1].qualified and entries[-1].score == total
            rank = entries[-1].rank if same else index + 1
        entries.append(LadderEntry(member, name, games_played, counted, total, qualified, rank))
    return tuple(entries)
