"""Contract kinds and their raw scoring (barbu-rules.md, "The contracts").

A contract in a preset is a :class:`Contract`: its id and its integer values in points
(``{"per_trick": -2}``, ``{"places": (45, 20, 5, -5)}``). A round's outcome is a plain
mapping validated by :func:`parse_outcome`; :meth:`Contract.raw` turns it into the four
raw scores (points, indexed by seat) which always add up to :meth:`Contract.total`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .errors import N_, MissingPart, ScoringError, join

SEATS = 4
#: The Domino places a scorer gives (first, second, third out): the last is the one left.
GIVEN_PLACES = SEATS - 1

#: Each contract kind, one row each: its value fields (what a preset sets, in points) and its
#: outcome fields (what a round records, game-format.md "Round"), in the order of game-format.md.
FIELDS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "no-tricks": (("per_trick",), ("tricks",)),
    "no-queens": (("per_queen",), ("queens",)),
    "no-last-two": (("penultimate", "last"), ("penultimate", "last")),
    "no-hearts": (("per_heart", "ace"), ("hearts", "ace")),
    "no-king-of-hearts": (("king",), ("king",)),
    "trumps": (("per_trick",), ("tricks",)),
    "domino": (("places",), ("order",)),
    "ravage-city": (("penalty",), ("most",)),
    "salade": (
        ("per_trick", "per_queen", "penultimate", "last", "per_heart", "ace", "king"),
        ("tricks", "queens", "hearts", "ace", "king", "penultimate", "last"),
    ),
}
#: The value fields of each contract kind (the first column of :data:`FIELDS`).
VALUE_FIELDS: dict[str, tuple[str, ...]] = {cid: values for cid, (values, _) in FIELDS.items()}
#: The outcome fields of each contract kind (the second column of :data:`FIELDS`).
OUTCOME_FIELDS: dict[str, tuple[str, ...]] = {cid: outcome for cid, (_, outcome) in FIELDS.items()}

CONTRACT_IDS: tuple[str, ...] = tuple(VALUE_FIELDS)
POSITIVE: frozenset[str] = frozenset({"trumps", "domino"})
TRUMP_SUITS: tuple[str, ...] = ("spades", "hearts", "diamonds", "clubs")
START_RANKS: tuple[str, ...] = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")

QUEENS = 4

#: The range of every number a preset holds, in points (a multiplier or a count for the
#: doubling settings), inclusive: ``field: (lowest, highest)``. The rules use far less (the
#: largest built-in value is Brader's −25 for the K♥; barbu-rules.md "Variants"), so the
#: bounds leave room for any house's scoring while keeping every total a page shows, the sum
#: of a whole game, within what it can print (10**25 made every page of the game fail):
#:
#: - ``per_trick``, ``per_queen``, ``per_heart``: counted up to 13 times a deal, ±100 each;
#: - ``penultimate``, ``last``, ``ace``, ``king``, each domino ``places``: paid once a deal, ±1,000;
#: - ``penalty`` (Ravage City): ±1,200, the nearest multiple of 12 (it is shared by 1 to 4
#:   tied players) past a fixed value's bound;
#: - ``single``, ``mutual`` (doubling multipliers): 0 to 10 (houses use ×1/×2 or ×2/×4);
#: - ``quota``: 0 to 9, the most rounds of one declarer's run (at most 9 contracts), since a
#:   player can double a declarer once a round;
#: - ``quota_penalty``: 0 to 100 points per double owed, like a per-card value.
RANGES: dict[str, tuple[int, int]] = {
    "per_trick": (-100, 100),
    "per_queen": (-100, 100),
    "per_heart": (-100, 100),
    "penultimate": (-1000, 1000),
    "last": (-1000, 1000),
    "ace": (-1000, 1000),
    "king": (-1000, 1000),
    "places": (-1000, 1000),
    "penalty": (-1200, 1200),
    "single": (0, 10),
    "mutual": (0, 10),
    "quota": (0, 9),
    "quota_penalty": (0, 100),
}


def implied_place(first: Sequence[int | None]) -> int | None:
    """The seat of Domino's last place, implied by the places before it (barbu-rules.md "The
    contracts": the finishing order is the four players, so once three went out the last is
    the one left; the round form asks for three places only): given
    the seats of the first :data:`GIVEN_PLACES` places in order (None for a place not given),
    the one seat not among them; None while a place is missing or a seat is given twice.
    ``implied_place([2, 0, 3])`` is 1."""
    if len(first) != GIVEN_PLACES or None in first or len(set(first)) != GIVEN_PLACES:
        return None
    return next(seat for seat in range(SEATS) if seat not in first)


def check_range(value: int, field: str, path: str, *, stored: bool = False) -> int:
    """``value`` if it lies within :data:`RANGES` of ``field``; otherwise raises
    :class:`ScoringError` at ``path`` naming the range ("from -100 to 100"). ``stored``: read
    back from the database, so every whole number passes: a game or preset stored before the
    bounds existed (the editor took up to nine digits) still opens as it was played. Whatever
    a client sends is bounded."""
    lowest, highest = RANGES[field]
    if not stored and not lowest <= value <= highest:
        raise ScoringError(
            path, N_("must be a whole number from %(lowest)d to %(highest)d"), lowest=lowest, highest=highest
        )
    return value


def is_int(value: Any) -> bool:
    """True for a JSON integer (``bool`` is not one)."""
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True)
class Contract:
    """One contract of a preset: ``id`` (a key of :data:`VALUE_FIELDS`) and ``values``,
    the contract's scoring in points, as a tuple of ``(field, value)`` pairs (``places``
    is a tuple of four ints)."""

    id: str
    values: tuple[tuple[str, Any], ...]

    def value(self, field: str) -> Any:
        """The value of ``field`` (points), e.g. ``value("per_trick") == -2``."""
        return dict(self.values)[field]

    @property
    def negative(self) -> bool:
        """Every contract but Trumps and Domino is negative (barbu-rules.md)."""
        return self.id not in POSITIVE

    def total(self, deck: int) -> int:
        """Points handed out by one deal of this contract on a ``deck`` of 52 or 32 cards:
        the sum of the four raw scores of any outcome (e.g. −26 for No Tricks at −2)."""
        n = deck // 4
        v = dict(self.values)
        if self.id == "domino":
            return sum(v["places"])
        if self.id == "ravage-city":
            return v["penalty"]
        total = 0
        if "per_trick" in v:
            total += v["per_trick"] * n
        if "per_queen" in v:
            total += v["per_queen"] * QUEENS
        if "penultimate" in v:
            total += v["penultimate"] + v["last"]
        if "per_heart" in v:
            total += v["per_heart"] * (n - 1) + v["ace"]
        if "king" in v:
            total += v["king"]
        return total

    def raw(self, outcome: Mapping[str, Any]) -> tuple[int, int, int, int]:
        """Raw scores (points, by seat) of a validated ``outcome`` (see :func:`parse_outcome`).

        Implements barbu-rules.md "The contracts": per trick, per queen, 12th/13th trick,
        per heart with the ace scored instead of ``per_heart``, the K♥, the domino
        finishing places, Ravage City split between the tied players, and Salade as the
        sum of every negative penalty.
        """
        v = dict(self.values)
        raw = [0, 0, 0, 0]
        if self.id == "domino":
            for place, seat in enumerate(outcome["order"]):
                raw[seat] += v["places"][place]
            return tuple(raw)  # type: ignore[return-value]
        if self.id == "ravage-city":
            most = outcome["most"]
            for seat in most:
                raw[seat] += v["penalty"] // len(most)
            return tuple(raw)  # type: ignore[return-value]
        if "per_trick" in v:
            for seat, tricks in enumerate(outcome["tricks"]):
                raw[seat] += v["per_trick"] * tricks
        if "per_queen" in v:
            for seat, queens in enumerate(outcome["queens"]):
                raw[seat] += v["per_queen"] * queens
        if "penultimate" in v:
            raw[outcome["penultimate"]] += v["penultimate"]
            raw[outcome["last"]] += v["last"]
        if "per_heart" in v:
            for seat, hearts in enumerate(outcome["hearts"]):
                if seat == outcome["ace"]:
                    raw[seat] += v["per_heart"] * (hearts - 1) + v["ace"]
                else:
                    raw[seat] += v["per_heart"] * hearts
        if "king" in v:
            raw[outcome["king"]] += v["king"]
        return tuple(raw)  # type: ignore[return-value]


def parse_contract(obj: Any, path: str, *, stored: bool = False) -> Contract:
    """Validate a preset's contract object (``{"id": "no-tricks", "per_trick": -2}``).

    Raises :class:`ScoringError` for an id that is not text or not a known contract, a
    missing, unknown or non-integer value, a value out of its :data:`RANGES`, domino places
    that are not four integers, or a Ravage City penalty not divisible by 12 (so that 1 to 4
    tied players split it exactly).
    """
    if not isinstance(obj, dict):
        raise ScoringError(path, N_("a contract must be an object with an id and its values"))
    cid = obj.get("id")
    if not isinstance(cid, str):  # a list or an object cannot even be looked up
        raise ScoringError(join(path, "id"), N_("a contract’s id is one of: %(known)s"), known=", ".join(CONTRACT_IDS))
    if cid not in VALUE_FIELDS:
        raise ScoringError(
            join(path, "id"),
            N_("unknown contract %(contract)r; known contracts: %(known)s"),
            contract=shorten(cid),
            known=", ".join(CONTRACT_IDS),
        )
    fields = VALUE_FIELDS[cid]
    for key in obj:
        if key != "id" and key not in fields:
            raise ScoringError(
                join(path, shorten(key)), N_("%(contract)s has no value called %(key)r"), contract=cid, key=shorten(key)
            )
    values = []
    for field in fields:
        fpath = join(path, field)
        if field not in obj:
            raise ScoringError(fpath, N_("this value is missing"))
        value = obj[field]
        if field == "places":
            if not isinstance(value, list) or len(value) != 4:
                raise ScoringError(fpath, N_("domino needs the points of all four places"))
            for i, place in enumerate(value):
                if not is_int(place):
                    raise ScoringError(join(fpath, i), N_("must be a whole number of points"))
                check_range(place, field, join(fpath, i), stored=stored)
            value = tuple(value)
        elif not is_int(value):
            raise ScoringError(fpath, N_("must be a whole number of points"))
        else:
            check_range(value, field, fpath, stored=stored)
        if field == "penalty" and value % 12:
            raise ScoringError(
                fpath,
                N_("the Ravage City penalty must be divisible by 12, so that 2, 3 or 4 tied players can share it"),
            )
        values.append((field, value))
    return Contract(cid, tuple(values))


def shorten(text: str, limit: int = 40) -> str:
    """``text`` cut to ``limit`` characters (the last one an ellipsis), so that a message
    quoting what a client sent stays short."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def contract_to_dict(contract: Contract) -> dict[str, Any]:
    """The preset's contract object of game-format.md, e.g. ``{"id": "domino", "places": [45, 20, 5, -5]}``."""
    out: dict[str, Any] = {"id": contract.id}
    for field, value in contract.values:
        out[field] = list(value) if isinstance(value, tuple) else value
    return out


def _seat(value: Any, path: str) -> int:
    if not is_int(value) or not 0 <= value < SEATS:
        raise ScoringError(path, N_("must be a seat from 0 to 3"))
    return value


#: Messages of a count part: the four counts missing, a bad count, a wrong sum.
COUNT_MESSAGES = {
    "tricks": (
        N_("give the tricks of all four players"),
        N_("the tricks must be a whole number, 0 or more"),
        N_("the tricks add up to %(sum)d, a deal has %(total)d"),
    ),
    "queens": (
        N_("give the queens of all four players"),
        N_("the queens must be a whole number, 0 or more"),
        N_("the queens add up to %(sum)d, there are %(total)d"),
    ),
    "hearts": (
        N_("give the hearts of all four players"),
        N_("the hearts must be a whole number, 0 or more"),
        N_("the hearts add up to %(sum)d, the deck has %(total)d"),
    ),
}


def _counts(value: Any, path: str, part: str, total: int) -> list[int]:
    missing, bad, wrong_sum = COUNT_MESSAGES[part]
    if not isinstance(value, list) or len(value) != SEATS:
        raise ScoringError(path, missing)
    for i, count in enumerate(value):
        if not is_int(count) or count < 0:
            raise ScoringError(join(path, i), bad)
        if count > total:  # so that the sum in the message below stays a count, not 10**25
            raise ScoringError(
                join(path, i), N_("must be a whole number from %(lowest)d to %(highest)d"), lowest=0, highest=total
            )
    if sum(value) != total:
        raise ScoringError(path, wrong_sum, sum=sum(value), total=total)
    return list(value)


def parse_outcome(contract_id: str, obj: Any, deck: int, path: str) -> dict[str, Any]:
    """Validate the outcome of a deal of ``contract_id`` on a ``deck`` of 52 or 32 cards.

    Returns a normalised copy holding exactly the contract's outcome fields
    (:data:`OUTCOME_FIELDS`). Raises :class:`ScoringError` naming the field: counts that do
    not add up (``the tricks add up to 12, a deal has 13``), a seat out of range, a domino
    order that is not the four seats, an ace of hearts taken by a player with no heart.
    """
    n = deck // 4
    if not isinstance(obj, dict):
        raise MissingPart(path, N_("the outcome of the deal is missing"))
    fields = OUTCOME_FIELDS[contract_id]
    for key in obj:
        if key not in fields:
            raise ScoringError(
                join(path, key), N_("a %(contract)s outcome has no %(key)r"), contract=contract_id, key=key
            )
    for field in fields:
        if field not in obj:
            raise MissingPart(join(path, field), N_("this part of the outcome is missing"))
    out: dict[str, Any] = {}
    if "tricks" in fields:
        out["tricks"] = _counts(obj["tricks"], join(path, "tricks"), "tricks", n)
    if "queens" in fields:
        out["queens"] = _counts(obj["queens"], join(path, "queens"), "queens", QUEENS)
    if "hearts" in fields:
        out["hearts"] = _counts(obj["hearts"], join(path, "hearts"), "hearts", n)
        out["ace"] = _seat(obj["ace"], join(path, "ace"))
        if out["hearts"][out["ace"]] < 1:
            raise ScoringError(join(path, "ace"), N_("the ace of hearts went to a player who took no hearts"))
    if "king" in fields:
        out["king"] = _seat(obj["king"], join(path, "king"))
    if "penultimate" in fields:
        out["penultimate"] = _seat(obj["penultimate"], join(path, "penultimate"))
        out["last"] = _seat(obj["last"], join(path, "last"))
    if "order" in fields:
        order = obj["order"]
        opath = join(path, "order")
        if not isinstance(order, list) or len(order) != SEATS:
            raise ScoringError(opath, N_("give all four players in the order they went out"))
        for i, seat in enumerate(order):
            _seat(seat, join(opath, i))
        if len(set(order)) != SEATS:
            raise ScoringError(opath, N_("each player goes out exactly once"))
        out["order"] = list(order)
    if "most" in fields:
        most = obj["most"]
        mpath = join(path, "most")
        if not isinstance(most, list) or not 1 <= len(most) <= SEATS:
            raise ScoringError(mpath, N_("name the 1 to 4 players who took the most cards of one suit"))
        for i, seat in enumerate(most):
            _seat(seat, join(mpath, i))
        if len(set(most)) != len(most):
            raise ScoringError(mpath, N_("a player is named twice"))
        out["most"] = list(most)
    return out
