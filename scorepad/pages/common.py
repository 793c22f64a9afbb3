"""What several pages show: short player names and the standings part of a game (ranking,
the next declarer's contracts, the quota counters), all taken from the engine's results."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from markupsafe import Markup, escape

from ..i18n import number as number
from ..i18n import signed as signed
from ..scoring import Game, Scores
from ..scoring.game import quota_counts, ranking


def isolate(text: object) -> Markup:
    """``text`` (a player's name, a title, a preset's name) escaped and wrapped in ``<bdi>``,
    so that a right-to-left name inside a sentence or a table cell neither reorders the
    words and numbers around it nor is reordered by them ("1 מרים of 2" reads "מרים 1 of 2"
    otherwise). The templates' ``bdi`` filter; only for text, never inside an attribute."""
    return Markup("<bdi>%s</bdi>") % escape(text)


def isolated_text(text: str) -> str:
    """``text`` between the Unicode isolates FSI and PDI (U+2068, U+2069): :func:`isolate` for
    plain text, a name inside a message that is no markup (a flash message, a refusal)."""
    return f"\u2068{text}\u2069"


def short_names(players: Sequence[str]) -> list[str]:
    """The players' shortest distinct abbreviations for narrow columns (the grid, the
    round's result): their initials, or the first two or three letters when initials
    clash (case-folded); seat numbers 1-4 when even three letters do not tell them apart.
    Full names always go with them in accessible labels."""
    for length in (1, 2, 3):
        short = [name[:length].strip() for name in players]
        if len({s.casefold() for s in short}) == len(players):
            return short
    return [str(seat + 1) for seat in range(len(players))]


def standings_part(game: Game, scores: Scores) -> dict[str, Any]:
    """The template variables of a game's standings, shared by the game page and the
    board: ``game``, ``players``, ``preset``, ``scores``, ``standings``, ``upcoming`` (the
    engine's next round, or None), ``rows`` (pairs of recorded round and its result),
    ``ranking`` (seats in standings order), ``declared`` (the next declarer's contracts
    already declared) and ``quota`` (the doubles against the next declarer, one
    :class:`~scorepad.scoring.game.QuotaCount` per other player)."""
    standings = scores.standings
    upcoming = standings.next
    quota: tuple[Any, ...] = ()
    if upcoming is not None:
        declarer = upcoming.seats.declarer
        quota = quota_counts(game.preset.doubling, standings.quota_given[declarer], declarer)
    return {
        "game": game,
        "players": game.players,
        "preset": game.preset,
        "scores": scores,
        "standings": standings,
        "upcoming": upcoming,
        "rows": list(zip(game.rounds, scores.rounds, strict=True)),
        "ranking": ranking(standings.rank),
        "declared": upcoming.declared if upcoming else (),
        "quota": quota,
    }


def zone_named(name: str | None) -> ZoneInfo | None:
    """The players' time zone (the game's ``timezone``, an IANA name), or None (times in UTC)
    for none or one this machine does not know."""
    try:
        return ZoneInfo(name) if name else None
    except (ZoneInfoNotFoundError, ValueError):
        return None
