"""Legality of a doubles grid and the pairwise settlement (barbu-rules.md, "Doubles").

A double is a pair ``(doubler, doubled)`` of seats 0..3. Settlement is pairwise on the
round's raw scores: between two players with no double nothing moves; a one-way double
moves ``single`` × the difference of their raw scores from the worse to the better; a
double and a redouble move ``mutual`` × the difference.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from .contracts import SEATS, is_int
from .errors import N_, IllegalDouble, ScoringError, join

Double = tuple[int, int]


@dataclass(frozen=True)
class Doubling:
    """A preset's doubling rules (game-format.md, ``doubling``).

    ``target``: ``"any"`` or ``"declarer"`` (only the declarer may be doubled).
    ``auto_redouble``: the declarer redoubles everyone who doubled them without it being
    recorded. ``single`` / ``mutual``: multipliers of the raw-score difference for a one-way
    double and for a double plus redouble. ``quota``: doubles each player owes each
    declarer's run; ``quota_penalty``: points deducted per double owed at the end (0: shown only).
    """

    enabled: bool = True
    target: str = "any"
    auto_redouble: bool = False
    single: int = 1
    mutual: int = 2
    quota: int = 2
    quota_penalty: int = 0


def refusal(doubler: int, doubled: int, declarer: int, positive: bool, doubling: Doubling) -> str | None:
    """Why the cell ``doubler`` → ``doubled`` of the grid can never be used in this round,
    or ``None`` when it can (the declarer's cells are then redoubles, legal only against a
    player who doubled the declarer: see :func:`validate_doubles`).

    Rules: nobody doubles themselves; nothing when doubling is off; in the two positive
    contracts, or when the preset's ``target`` is ``declarer``, only the declarer may be
    doubled, so a pair of opponents is refused.
    """
    if doubler == doubled:
        return N_("a player cannot double themselves")
    if not doubling.enabled:
        return N_("this preset has no doubling")
    if doubler != declarer and doubled != declarer:
        if positive:
            return N_("in a positive contract only the declarer may be doubled")
        if doubling.target == "declarer":
            return N_("in this preset only the declarer may be doubled")
    return None


def family_cells(doubler: int, declarer: int, positive: bool, doubling: Doubling) -> tuple[Double, ...]:
    """The cells the "family" shortcut ticks for ``doubler``: doubling both neighbours, the
    players on their left ``(doubler + 1) % 4`` and right ``(doubler − 1) % 4``
    (barbu-rules.md "Table and schedule"), in seat order of the doubled. Empty for the
    declarer (who can only redouble) and when :func:`refusal` refuses either cell. Seat 0:
    ((0, 1), (0, 3)); seat 3: ((3, 0), (3, 2))."""
    if doubler == declarer:
        return ()
    cells = sorted({(doubler, (doubler + 1) % SEATS), (doubler, (doubler - 1) % SEATS)})
    if any(refusal(a, b, declarer, positive, doubling) for a, b in cells):
        return ()
    return tuple(cells)


def double_kind(doubler: int, doubled: int, declarer: int) -> str:
    """What a double is in a round declared by ``declarer``: ``redouble`` (the declarer
    doubling back), ``on-declarer`` (counts for the quota) or ``double`` (between two
    opponents)."""
    if doubler == declarer:
        return "redouble"
    return "on-declarer" if doubled == declarer else "double"


def needed_double(doubler: int, doubled: int, declarer: int) -> Double | None:
    """The double the cell ``doubler`` → ``doubled`` needs ticked before it may be, in a round
    declared by ``declarer`` (barbu-rules.md "Doubles"): a redouble (the declarer doubling
    ``doubled`` back) needs ``doubled``'s double of the declarer, ``(doubled, declarer)``;
    every other cell needs nothing (None). ``needed_double(0, 2, 0)`` is ``(2, 0)``."""
    return (doubled, declarer) if doubler == declarer and doubled != declarer else None


def validate_doubles(obj: Any, declarer: int, positive: bool, doubling: Doubling, path: str) -> tuple[Double, ...]:
    """Validate a round's ``doubles`` list of ``[doubler, doubled]`` seat pairs.

    Returns them as a tuple of pairs in the given order. Raises :class:`ScoringError` for
    a malformed pair, a seat out of range, a pair given twice, a cell :func:`refusal`
    refuses, or a redouble by the declarer of a player who did not double the declarer.
    """
    if obj is None:
        return ()
    if not isinstance(obj, list):
        raise ScoringError(path, N_("must be a list of [doubler, doubled] pairs"))
    pairs: list[Double] = []
    for i, pair in enumerate(obj):
        ppath = join(path, i)
        if not isinstance(pair, list) or len(pair) != 2:
            raise ScoringError(ppath, N_("a double is a pair [doubler, doubled]"))
        a, b = pair
        if not (is_int(a) and is_int(b) and 0 <= a < SEATS and 0 <= b < SEATS):
            raise ScoringError(ppath, N_("the doubler and the doubled must be seats from 0 to 3"))
        if (a, b) in pairs:
            raise ScoringError(
                ppath, N_("seat %(doubler)d doubling seat %(doubled)d is recorded twice"), doubler=a, doubled=b
            )
        why = refusal(a, b, declarer, positive, doubling)
        if why:
            raise IllegalDouble(ppath, why)
        pairs.append((a, b))
    for i, (a, b) in enumerate(pairs):
        needed = needed_double(a, b, declarer)
        if needed is not None and needed not in pairs:
            raise IllegalDouble(
                join(path, i),
                N_("the declarer may only redouble a player who doubled them; seat %(seat)d did not"),
                seat=b,
            )
    return tuple(pairs)


def effective(doubles: Iterable[Double], declarer: int, doubling: Doubling) -> frozenset[Double]:
    """The doubles that count: the recorded ones plus, with ``auto_redouble``, the
    declarer's redouble of everyone who doubled the declarer (barbu-rules.md "Variants",
    compulsory redouble). Those not recorded are :func:`implicit_redoubles`."""
    pairs = set(doubles)
    if doubling.auto_redouble:
        pairs |= {(declarer, a) for a, b in doubles if b == declarer}
    return frozenset(pairs)


def implicit_redoubles(doubles: Iterable[Double], declarer: int, doubling: Doubling) -> tuple[Double, ...]:
    """The redoubles :func:`effective` adds that were not recorded, in seat order: with
    ``auto_redouble``, ``(declarer, p)`` for each p who doubled the declarer without a
    recorded redouble; none otherwise."""
    recorded = set(doubles)
    return tuple(sorted(effective(recorded, declarer, doubling) - recorded))


@dataclass(frozen=True)
class PairSettlement:
    """What moves between two players ``a`` < ``b`` who doubled: ``doubled_by`` the
    seats that doubled the other (one or both of a, b), the ``multiplier`` applied
    (``single`` or ``mutual``), and ``amount`` in points credited to ``a`` and debited
    from ``b`` (negative: ``a`` pays)."""

    a: int
    b: int
    doubled_by: tuple[int, ...]
    multiplier: int
    amount: int

    @property
    def payer(self) -> int:
        """The seat that pays (``b`` when ``amount`` ≥ 0)."""
        return self.b if self.amount >= 0 else self.a

    @property
    def payee(self) -> int:
        """The seat that is paid (``a`` when ``amount`` ≥ 0)."""
        return self.a if self.amount >= 0 else self.b

    @property
    def paid(self) -> int:
        """Points moving from :attr:`payer` to :attr:`payee` (≥ 0)."""
        return abs(self.amount)

    @property
    def difference(self) -> int:
        """The raw-score difference the multiplier applies to (≥ 0): ``paid ÷ multiplier``
        (0 with a multiplier of 0)."""
        return self.paid // self.multiplier if self.multiplier else 0


def pair_settlements(
    raw: tuple[int, ...], doubles: Iterable[Double], declarer: int, doubling: Doubling
) -> tuple[PairSettlement, ...]:
    """Each pair of players with a double between them and what moves (barbu-rules.md,
    "Settlement is pairwise"): ``multiplier`` × (raw[a] − raw[b]) from the worse to the
    better; ``single`` for a one-way double, ``mutual`` for a double and a redouble.
    Pairs come in seat order; pairs with no double are left out."""
    pairs = effective(doubles, declarer, doubling)
    out = []
    for a in range(SEATS):
        for b in range(a + 1, SEATS):
            by = tuple(x for x, y in ((a, b), (b, a)) if (x, y) in pairs)
            if not by:
                continue
            multiplier = doubling.mutual if len(by) == 2 else doubling.single
            out.append(PairSettlement(a, b, by, multiplier, multiplier * (raw[a] - raw[b])))
    return tuple(out)


def settle(
    raw: tuple[int, ...], doubles: Iterable[Double], declarer: int, doubling: Doubling
) -> tuple[int, int, int, int]:
    """Net settlement of the doubles (points by seat, summing to 0) on ``raw`` scores:
    the sum of :func:`pair_settlements`.

    For each pair of players: no double, nothing moves; one double, ``single`` × the
    difference of their raw scores is credited to the better and debited from the worse;
    double and redouble, ``mutual`` × the difference. (barbu-rules.md worked example:
    raw (−6, 0, −6, −12), Beth doubled everyone, Cath doubled Anne who redoubled →
    (−6, 24, −6, −12).)
    """
    net = [0, 0, 0, 0]
    for pair in pair_settlements(raw, doubles, declarer, doubling):
        net[pair.a] += pair.amount
        net[pair.b] -= pair.amount
    return tuple(net)  # type: ignore[return-value]
