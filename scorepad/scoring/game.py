"""The schedule of a game and its results (barbu-rules.md "Table and schedule";
game-format.md "Results").

Only what happened at the table is stored (:class:`Round`); every score is recomputed
from it by :func:`score`.
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .contracts import SEATS
from .doubles import Double, Doubling, settle
from .presets import Preset


@dataclass(frozen=True)
class Round:
    """One deal as recorded: ``contract`` id, ``doubles`` as (doubler, doubled) seat pairs,
    the validated ``outcome`` (``None`` when an undoubled negative contract is split and
    not played), and optionally the ``trump`` suit or domino ``start_rank``."""

    contract: str
    doubles: tuple[Double, ...] = ()
    outcome: Mapping[str, Any] | None = None
    trump: str | None = None
    start_rank: str | None = None


@dataclass(frozen=True)
class Game:
    """A game: four ``players`` in clockwise seat order, the ``first_declarer`` seat, the
    ``preset`` it is scored with, its ``rounds`` in play order, an optional ``title``, and
    the players' ``date`` (the local calendar day the game was played) and ``timezone`` (an
    IANA name), both optional here: a stored game always has its date
    (:func:`~.document.default_date`); and its ``confirmation`` (``off`` | ``optional`` |
    ``required``: whether a second phone checks its rounds, :mod:`.trust`)."""

    players: tuple[str, str, str, str]
    first_declarer: int
    preset: Preset
    rounds: tuple[Round, ...] = ()
    title: str | None = None
    date: datetime.date | None = None
    timezone: str | None = None
    confirmation: str = "optional"


@dataclass(frozen=True)
class Seats:
    """Who does what in a round (seats 0..3): ``declarer`` chooses the contract,
    ``dealer`` deals, ``cutter`` cuts, ``leader`` leads the first trick (or starts domino)."""

    declarer: int
    dealer: int
    cutter: int
    leader: int


def declarer_of(preset: Preset, first_declarer: int, index: int) -> int:
    """Declarer seat of round ``index`` (0-based). Rotation ``run``: each declarer keeps
    the role for as many rounds as there are contracts, then the player on their left
    takes over; rotation ``round``: the role moves one seat left every round."""
    step = index if preset.rotation == "round" else index // len(preset.contracts)
    return (first_declarer + step) % SEATS


def seats_of(preset: Preset, first_declarer: int, index: int, contract: str | None = None) -> Seats:
    """The declarer, dealer, cutter and leader of round ``index`` (0-based).

    Default (barbu-rules.md): the declarer's right-hand neighbour deals, the player on
    the dealer's right (opposite the declarer) cuts, the declarer leads. When the dealer
    chooses, the dealer is the declarer and the dealer's left leads, except in domino
    where the dealer starts.
    """
    declarer = declarer_of(preset, first_declarer, index)
    if preset.chooser == "dealer":
        dealer = declarer
        leader = declarer if contract == "domino" else (declarer + 1) % SEATS
    else:
        dealer = (declarer - 1) % SEATS
        leader = declarer
    return Seats(declarer, dealer, (dealer - 1) % SEATS, leader)


def contracts_left(preset: Preset, first_declarer: int, rounds: Sequence[Round], declarer: int) -> tuple[str, ...]:
    """The contracts ``declarer`` has not declared yet in ``rounds``, in preset order (each
    declarer declares each contract once, barbu-rules.md "Table and schedule"). Which of
    them may be declared next is :func:`contract_choices`."""
    done = {r.contract for i, r in enumerate(rounds) if declarer_of(preset, first_declarer, i) == declarer}
    return tuple(c for c in preset.contract_ids if c not in done)


def contract_choices(preset: Preset, left: Sequence[str]) -> tuple[str, ...]:
    """The contracts the declarer may choose next, out of ``left`` (their
    :func:`contracts_left`): all of them, or with ``chooser: fixed`` only the first, the
    next in the preset's order (barbu-rules.md "Variants", fixed order)."""
    return tuple(left[:1]) if preset.chooser == "fixed" else tuple(left)


def declared(preset: Preset, left: Sequence[str]) -> tuple[str, ...]:
    """The contracts a declarer has already declared, in preset order: those of the preset
    not in ``left`` (their :func:`contracts_left`)."""
    return tuple(c for c in preset.contract_ids if c not in left)


def fixed_contract(preset: Preset, index: int) -> str | None:
    """With ``chooser: fixed``, the contract round ``index`` (0-based) is played in: each
    declarer's k-th round declares the preset's k-th contract (a run's k-th round with
    rotation ``run``; round ``index`` is its declarer's (index // 4)-th with rotation
    ``round``). None when the declarer chooses."""
    if preset.chooser != "fixed":
        return None
    k = index // SEATS if preset.rotation == "round" else index % len(preset.contracts)
    return preset.contract_ids[k]


def free_contracts(preset: Preset, first_declarer: int, rounds: Sequence[Round], index: int) -> tuple[str, ...]:
    """The contracts recorded round ``index`` (0-based) may be changed to, in preset order:
    its own and those its declarer has not declared in any round."""
    declarer = declarer_of(preset, first_declarer, index)
    left = contracts_left(preset, first_declarer, rounds, declarer)
    return tuple(c for c in preset.contract_ids if c in left or c == rounds[index].contract)


def declared_later(
    preset: Preset, first_declarer: int, rounds: Sequence[Round], index: int, contract: str
) -> int | None:
    """The index (0-based) of a round after ``index`` in which round ``index``'s declarer
    declares ``contract``, or None. Changing round ``index`` to ``contract`` would make that
    declarer declare it twice (barbu-rules.md "Table and schedule": each contract once)."""
    declarer = declarer_of(preset, first_declarer, index)
    for later in range(index + 1, len(rounds)):
        if declarer_of(preset, first_declarer, later) == declarer and rounds[later].contract == contract:
            return later
    return None


def declared_in(preset: Preset, first_declarer: int, rounds: Sequence[Round]) -> dict[tuple[str, int], int]:
    """The schedule so far: for each ``(contract, declarer seat)`` already played, the
    1-based number of its round."""
    return {(rnd.contract, declarer_of(preset, first_declarer, index)): index + 1 for index, rnd in enumerate(rounds)}


@dataclass(frozen=True)
class RoundResult:
    """A round's scores (points, by seat): ``raw`` from the outcome, ``doubles`` the net
    settlement (sums to 0), ``total = raw + doubles``, ``running`` cumulative totals;
    ``played`` is False for a split undoubled negative contract."""

    number: int
    declarer: int
    raw: tuple[int, ...]
    doubles: tuple[int, ...]
    total: tuple[int, ...]
    running: tuple[int, ...]
    played: bool


@dataclass(frozen=True)
class NextRound:
    """The round to record next: its 1-based ``number``, seats, the declarer's remaining
    contracts in preset order (``contracts_left``), those they may choose now
    (``choices``, :func:`contract_choices`) and those already ``declared``."""

    number: int
    seats: Seats
    contracts_left: tuple[str, ...]
    choices: tuple[str, ...] = ()
    declared: tuple[str, ...] = ()


@dataclass(frozen=True)
class Standings:
    """A game's standings (game-format.md "Results"): ``totals`` of the rounds, end-of-game
    ``quota_penalties``, ``final = totals + quota_penalties``, competition ``rank`` by final,
    ``quota_given[d][p]`` = in how many of d's rounds as declarer p doubled d."""

    totals: tuple[int, ...]
    quota_penalties: tuple[int, ...]
    final: tuple[int, ...]
    rank: tuple[int, ...]
    complete: bool
    rounds_played: int
    rounds_total: int
    quota_given: tuple[tuple[int, ...], ...]
    next: NextRound | None


@dataclass(frozen=True)
class Scores:
    """Everything computed from a :class:`Game`: one :class:`RoundResult` per round and the
    :class:`Standings`."""

    rounds: tuple[RoundResult, ...]
    standings: Standings


def split_applies(preset: Preset, contract: str) -> bool:
    """True when a deal of ``contract`` is not played if nobody doubles (preset
    ``undoubled_negative: split``, negative contracts only; barbu-rules.md "Variants")."""
    return preset.undoubled_negative == "split" and preset.contract(contract).negative


def not_played(preset: Preset, contract: str, doubles: Sequence[Any]) -> bool:
    """True when a deal of ``contract`` with these ``doubles`` is split instead of played:
    :func:`split_applies` and nobody doubled anyone. Its raw scores are :func:`split_raw`
    and it has no outcome."""
    return split_applies(preset, contract) and not doubles


def split_raw(total: int, declarer: int) -> tuple[int, ...]:
    """Raw scores of an undoubled negative contract that is not played (preset
    ``undoubled_negative: split``): each opponent gets round(total / 3), the declarer the
    rest. No Tricks −26 → declarer +1, opponents −9 each."""
    share = round(total / 3)
    return tuple(total - 3 * share if seat == declarer else share for seat in range(SEATS))


def round_raw(preset: Preset, rnd: Round, declarer: int) -> tuple[tuple[int, ...], bool]:
    """Raw scores (points by seat) of one round and whether it was played."""
    contract = preset.contract(rnd.contract)
    if rnd.outcome is None or not_played(preset, rnd.contract, rnd.doubles):
        return split_raw(contract.total(preset.deck), declarer), False
    return contract.raw(rnd.outcome), True


def round_points(preset: Preset, rnd: Round, declarer: int) -> tuple[tuple[int, ...], tuple[int, ...], bool]:
    """One round settled on its own (barbu-rules.md "Scoring" and "Doubles"): its raw scores
    (:func:`round_raw`), what its doubles move (:func:`~.doubles.settle`), both in points by
    seat, and whether it was played. The round's total is their sum; nothing else of the game
    plays a part (the declarer is the schedule's)."""
    raw, played = round_raw(preset, rnd, declarer)
    return raw, settle(raw, rnd.doubles, declarer, preset.doubling), played


def rank_of(final: tuple[int, ...]) -> tuple[int, ...]:
    """Competition ranking, highest score first: ties share a rank and the next rank
    skips (scores 10, 5, 5, 0 → ranks 1, 2, 2, 4)."""
    return tuple(1 + sum(other > mine for other in final) for mine in final)


def ranking(rank: Sequence[int]) -> tuple[int, ...]:
    """The seats in standings order: by ``rank`` (:func:`rank_of`), a tie by seat
    (ranks 2, 1, 2, 4 → seats 1, 0, 2, 3)."""
    return tuple(sorted(range(len(rank)), key=lambda seat: (rank[seat], seat)))


def leaders(standings: Standings) -> tuple[int, ...]:
    """The seats ranked first, in seat order; none before the first round."""
    if not standings.rounds_played:
        return ()
    return tuple(seat for seat in range(SEATS) if standings.rank[seat] == 1)


@dataclass(frozen=True)
class QuotaCount:
    """Doubles ``player`` gave a declarer in the declarer's rounds: ``given`` of the
    preset's ``quota``; ``met`` once given ≥ quota."""

    player: int
    given: int
    quota: int

    @property
    def met(self) -> bool:
        """The player has given the declarer the quota's doubles."""
        return self.given >= self.quota


def quota_counts(doubling: Doubling, given: Sequence[int], declarer: int) -> tuple[QuotaCount, ...]:
    """The quota of the doubles against ``declarer`` (barbu-rules.md "Doubles", the quota):
    one :class:`QuotaCount` per other player in seat order, from ``given[p]``, the doubles
    p gave the declarer (e.g. a row of ``Standings.quota_given``)."""
    return tuple(QuotaCount(p, given[p], doubling.quota) for p in range(SEATS) if p != declarer)


@dataclass(frozen=True)
class QuotaReminder:
    """``player`` still owes the next declarer ``owed`` doubles with ``left`` rounds of the
    declarer's run to go."""

    player: int
    owed: int
    left: int


def quota_reminders(doubling: Doubling, standings: Standings) -> tuple[QuotaReminder, ...]:
    """The players who still owe the next round's declarer doubles (barbu-rules.md, the
    quota) once the declarer's rounds left are no more than the doubles owed plus one: a
    gentle reminder, never a block. None with doubling off, a quota of 0, or a complete
    game. Quota 2, one double given, 2 rounds left → owed 1, reminded (2 ≤ 1 + 1)."""
    upcoming = standings.next
    if upcoming is None or not doubling.enabled or not doubling.quota:
        return ()
    declarer = upcoming.seats.declarer
    left = len(upcoming.contracts_left)
    reminders = []
    for p in range(SEATS):
        owed = doubling.quota - standings.quota_given[declarer][p]
        if p != declarer and owed > 0 and left <= owed + 1:
            reminders.append(QuotaReminder(p, owed, left))
    return tuple(reminders)


def score(game: Game) -> Scores:
    """Settle every round of a validated ``game`` and compute its standings.

    Each round: raw scores from the outcome (or the split), doubles settled pairwise with
    the preset's multipliers, running totals. Quota penalties apply only to a complete game
    with doubling on and a non-zero ``quota_penalty``: player p loses ``quota_penalty`` per
    double owed, Σ over the other players d of max(0, quota − quota_given[d][p]).
    """
    preset = game.preset
    running: tuple[int, ...] = (0, 0, 0, 0)
    results: list[RoundResult] = []
    quota_given = [[0] * SEATS for _ in range(SEATS)]
    for i, rnd in enumerate(game.rounds):
        declarer = declarer_of(preset, game.first_declarer, i)
        raw, net, played = round_points(preset, rnd, declarer)
        total = tuple(r + n for r, n in zip(raw, net, strict=True))
        running = tuple(a + b for a, b in zip(running, total, strict=True))
        results.append(RoundResult(i + 1, declarer, raw, net, total, running, played))
        for doubler, doubled in rnd.doubles:
            if doubled == declarer:
                quota_given[declarer][doubler] += 1
    played_count = len(game.rounds)
    complete = played_count == preset.round_count
    doubling = preset.doubling
    penalties = [0] * SEATS
    if complete and doubling.enabled and doubling.quota_penalty:
        for p in range(SEATS):
            owed = sum(max(0, doubling.quota - quota_given[d][p]) for d in range(SEATS) if d != p)
            penalties[p] = -doubling.quota_penalty * owed
    final = tuple(t + q for t, q in zip(running, penalties, strict=True))
    upcoming = None
    if not complete:
        seats = seats_of(preset, game.first_declarer, played_count)
        left = contracts_left(preset, game.first_declarer, game.rounds, seats.declarer)
        upcoming = NextRound(played_count + 1, seats, left, contract_choices(preset, left), declared(preset, left))
    standings = Standings(
        totals=running,
        quota_penalties=tuple(penalties),
        final=final,
        rank=rank_of(final),
        complete=complete,
        rounds_played=played_count,
        rounds_total=preset.round_count,
        quota_given=tuple(tuple(row) for row in quota_given),
        next=upcoming,
    )
    return Scores(tuple(results), standings)


def rematch_first_declarer(first_declarer: int) -> int:
    """The first declarer (seat 0..3) of a rematch of a game whose first declarer was
    ``first_declarer``: the player on that seat's left, ``(first_declarer + 1) % 4``. The role
    passes to the left (barbu-rules.md "Table and schedule": "then the player on their left
    takes over"), so at the same table the next game opens with the next player rather than
    drawing lots again. Seat 3 → seat 0."""
    return (first_declarer + 1) % SEATS


def rematch(game: Game) -> Game:
    """The game a table plays after ``game`` ("Play again"): the same ``players`` in the same
    seats, the same ``preset`` (its whole object, so a saved preset changed or deleted since
    does not change it), ``title``, ``timezone`` and ``confirmation``, no rounds, no date yet (the day it is
    stored decides it), and the next player as first declarer (:func:`rematch_first_declarer`)."""
    return Game(
        players=game.players,
        first_declarer=rematch_first_declarer(game.first_declarer),
        preset=game.preset,
        title=game.title,
        timezone=game.timezone,
        confirmation=game.confirmation,
    )
