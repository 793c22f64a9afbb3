"""What a club's pages show (club-format.md "Club, members, statistics, ladder,
rating"): the club page, a member's page with its two charts' tables, the printable ladder and
its CSV, arranged from what the services computed (the engine's member statistics and ladder,
the stored ratings). No SQL and no rules here: these functions put names to member ids and
words to numbers.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Mapping, Sequence
from datetime import date
from decimal import Decimal
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from flask_babel import format_decimal

from .. import labels
from ..scoring.presets import CONTRACT_DEFAULTS
from .sheet import csv_cell

if TYPE_CHECKING:
    from ..scoring.club import LadderEntry, LadderRules, MemberGame, MemberStats, Rival
    from ..services.club_stats import MemberRating, MemberRow

#: The club page shows the ladder's first lines (a link leads to the whole ladder).
LADDER_TOP = 5
#: A member's page charts and lists their latest games (the rating chart shows its whole history).
LAST_GAMES = 30


def _true_minus(value: float | Decimal | Fraction, pattern: str) -> str:
    """``value`` by the Babel ``pattern`` in the page language's notation, a negative one with a
    true minus sign (U+2212), as the pages write points."""
    number = float(value) if isinstance(value, Fraction) else value
    text = str(format_decimal(abs(number), format=pattern))
    return f"−{text}" if number < 0 and text.strip("0.,\u00a0\u202f ") else text


def decimal_text(value: float | Decimal | Fraction, digits: int = 1) -> str:
    """A number with ``digits`` decimals at most, in the page language's notation (12.5,
    12,5, −3; whole ones without a fraction): averages, a ladder's places."""
    return _true_minus(value, "#,##0." + "#" * digits if digits else "#,##0")


def fixed_text(value: float | Decimal, digits: int = 1) -> str:
    """A number with exactly ``digits`` decimals in the page language's notation (27.0, 4.2,
    −0.3): the rating's μ, σ and ordinal, so that their columns line up."""
    return _true_minus(value, "#,##0." + "0" * digits)


def score_text(score: int | Fraction) -> str:
    """A ladder score: points (a whole number: −12) or places (halves: 7.5) in the page
    language's notation."""
    return decimal_text(score, 1)


def score_value(score: int | Fraction) -> int | float:
    """A ladder score for CSV and JSON: an int when whole, else a float (7.5)."""
    return int(score) if Fraction(score).denominator == 1 else float(score)


def rival_part(rival: Rival | None, names: Mapping[str, str]) -> dict[str, Any] | None:
    """A nemesis or favourite victim as the page names it: ``member`` (id), ``name`` and
    ``points`` (taken or won through doubles); None for none."""
    if rival is None:
        return None
    return {"member": rival.member, "name": names.get(rival.member, "?"), "points": rival.points}


def contract_rows(by_contract: Mapping[str, Any]) -> list[dict[str, Any]]:
    """A member's lines per contract (``ContractLine``: rounds, declared, raw, doubles), in the
    game's own order of contracts (those it does not know after, by id), each with its name."""
    order = {cid: index for index, cid in enumerate(CONTRACT_DEFAULTS)}
    ids = sorted(by_contract, key=lambda cid: (order.get(cid, len(order)), cid))
    return [
        {
            "id": cid,
            "name": labels.contract_name(cid),
            "rounds": by_contract[cid].rounds,
            "declared": by_contract[cid].declared,
            "raw": by_contract[cid].raw,
            "doubles": by_contract[cid].doubles,
        }
        for cid in ids
    ]


def game_rows(history: Sequence[MemberGame], shown: int = LAST_GAMES) -> list[MemberGame]:
    """The member's latest ``shown`` games, oldest first (a chart's order and its table's)."""
    return list(reversed(history[:shown]))


def rating_part(rating: MemberRating) -> dict[str, Any]:
    """The rating as the page shows it: ``mu``, ``sigma`` and ``ordinal`` as text (one decimal),
    ``updating`` and ``history``: after each rated game, oldest first, its ``date``,
    ``game_id`` and the three values as text."""
    return {
        "mu": fixed_text(rating.mu),
        "sigma": fixed_text(rating.sigma),
        "ordinal": fixed_text(rating.ordinal),
        "updating": rating.updating,
        "history": [
            {
                "date": point.date,
                "game_id": point.game_id,
                "mu": fixed_text(point.mu),
                "sigma": fixed_text(point.sigma),
                "ordinal": fixed_text(point.ordinal),
            }
            for point in rating.history
        ],
    }


def member_figures(stats: MemberStats, rating: MemberRating, names: Mapping[str, str]) -> dict[str, Any]:
    """A member's page's template variables: ``stats`` (the engine's
    :class:`~scorepad.scoring.club.MemberStats`), ``average`` (text, or None with no games),
    ``contracts`` (:func:`contract_rows`), ``nemesis`` and ``victim`` (:func:`rival_part`),
    ``rating`` (:func:`rating_part`) and ``games`` (:func:`game_rows`: the latest, oldest first)."""
    return {
        "stats": stats,
        "average": None if stats.average is None else decimal_text(stats.average, 2),
        "contracts": contract_rows(stats.by_contract),
        "nemesis": rival_part(stats.nemesis, names),
        "victim": rival_part(stats.victim, names),
        "rating": rating_part(rating),
        "games": game_rows(stats.history),
    }


def date_labels(dates: Sequence[date], date_text: Callable[[date], str]) -> list[str]:
    """A member's chart's x labels, one per game in ``dates`` order: its date as the page writes
    it (``date_text``) for the first game of that date, empty for the later ones (a club night's
    three games on 7 December read "Dec 7" once, each still a point of its own)."""
    return [date_text(day) if n == 0 or day != dates[n - 1] else "" for n, day in enumerate(dates)]


def rating_points(rating: MemberRating, date_text: Callable[[date], str]) -> list[tuple[str, float, float]]:
    """The rating chart's points (:func:`scorepad.render.charts.rating_svg`): per rated game,
    oldest first, its label (:func:`date_labels`), μ and the ordinal."""
    labels = date_labels([point.date for point in rating.history], date_text)
    return [(label, point.mu, point.ordinal) for label, point in zip(labels, rating.history, strict=True)]


def results_points(history: Sequence[MemberGame], date_text: Callable[[date], str]) -> list[tuple[str, int]]:
    """The result-per-game chart's points (:func:`scorepad.render.charts.results_svg`): the
    latest :data:`LAST_GAMES` games, oldest first, each its label (:func:`date_labels`) and the
    member's final (points)."""
    shown = game_rows(history)
    labels = date_labels([game.date for game in shown], date_text)
    return [(label, game.final) for label, game in zip(labels, shown, strict=True)]


def overview_rows(rows: Sequence[MemberRow]) -> list[dict[str, Any]]:
    """The club page's members table: per member (:class:`scorepad.services.club_stats.MemberRow`) its ``id``,
    ``name``, ``games`` and ``wins``, the ``average`` and the rating's ``ordinal`` as text (None
    before any game, before any complete game)."""
    return [
        {
            "id": row.member.public_id,
            "name": row.member.name,
            "games": row.games,
            "wins": row.wins,
            "average": None if row.average is None else decimal_text(row.average, 2),
            "ordinal": None if row.ordinal is None else fixed_text(row.ordinal),
        }
        for row in rows
    ]


def ladder_rows(entries: Sequence[LadderEntry]) -> list[dict[str, Any]]:
    """The ladder's lines: each entry (:class:`~scorepad.scoring.club.LadderEntry`) with its
    score as text, and ``first_unqualified`` on the first line of the members who have not
    qualified when qualified members come before it (the page draws a line between them)."""
    rows = []
    qualified_above = False
    for entry in entries:
        first = not entry.qualified and qualified_above
        qualified_above = entry.qualified
        rows.append({"entry": entry, "score": score_text(entry.score), "first_unqualified": first})
    return rows


def ladder_rules_text(rules: LadderRules, date_text: Callable[[date], str]) -> dict[str, Any]:
    """The ladder's rules for its heading: ``best``, ``min_games``, ``by`` and the season's
    ``start`` and ``end`` as text (``date_text``), None when open."""
    return {
        "best": rules.best,
        "min_games": rules.min_games,
        "by": rules.by,
        "start": date_text(rules.start) if rules.start else None,
        "end": date_text(rules.end) if rules.end else None,
    }


def ladder_csv(entries: Sequence[LadderEntry]) -> str:
    """The ladder as CSV text: a header row ``rank, name, games, counted, score, qualified`` and
    one row per entry in the ladder's order: ``rank`` empty for an unranked member, ``score`` an
    integer or a decimal with a point (7.5), ``qualified`` ``yes`` or ``no``. Names that a
    spreadsheet would run as a formula get a leading apostrophe (:func:`~.sheet.csv_cell`)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(["rank", "name", "games", "counted", "score", "qualified"])
    for entry in entries:
        writer.writerow(
            [
                "" if entry.rank is None else entry.rank,
                csv_cell(entry.name),
                entry.games,
                entry.counted,
                score_value(entry.score),
                "yes" if entry.qualified else "no",
            ]
        )
    return out.getvalue()
