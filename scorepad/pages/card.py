"""The result to share (the finished game's Share button and ``links.card``): the standings
as a few lines of text and as the card image's parts, from the engine's results, in the
reader's language."""

from __future__ import annotations

from dataclasses import dataclass

from flask_babel import format_date
from flask_babel import gettext as _

from .. import labels
from ..scoring import Game, score
from ..scoring.game import ranking
from .common import isolated_text, signed


@dataclass(frozen=True)
class Placing:
    """One player's line of the standings: competition ``rank`` (ties share it), ``name`` and
    final ``points`` written as a reader reads them (digit grouping, a true minus U+2212)."""

    rank: int
    name: str
    points: str


@dataclass(frozen=True)
class ResultCard:
    """What the shared result says: the game's ``title`` (its players when it has none), the
    ``details`` line (date and preset), the ``heading`` ("Final standings", or "Standings"
    while rounds are left), the ``placings`` in standings order and the ``footer`` (the app's
    name and the rounds played)."""

    title: str
    details: str
    heading: str
    placings: tuple[Placing, ...]
    footer: str


def result_card(game: Game) -> ResultCard:
    """The :class:`ResultCard` of ``game`` in this request's language, ranked by its final
    points (quota penalties included: game-format.md "Results")."""
    standings = score(game).standings
    details = [str(labels.preset_name(game.preset))]
    if game.date is not None:
        details.insert(0, format_date(game.date, "long"))
    placings = tuple(
        Placing(standings.rank[seat], game.players[seat], signed(standings.final[seat]))
        for seat in ranking(standings.rank)
    )
    played = _("%(played)d of %(total)d rounds played", played=standings.rounds_played, total=standings.rounds_total)
    return ResultCard(
        title=game.title or " · ".join(game.players),
        details=" · ".join(details),
        heading=_("Final standings") if standings.complete else _("Standings"),
        placings=placings,
        footer=f"{_('Barbu Scorepad')} · {played}",
    )


def share_text(card: ResultCard) -> str:
    """The short text the Share button sends (the link goes with it, apart): the title, the
    heading and one line per player, ``"1. Anne 120"``, names isolated (U+2068 … U+2069) so
    that a right-to-left name does not reorder the numbers around it."""
    lines = [card.title, f"{card.heading}:"]
    lines += [f"{p.rank}. {isolated_text(p.name)} {p.points}" for p in card.placings]
    return "\n".join(lines)
