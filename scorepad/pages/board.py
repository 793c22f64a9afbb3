"""The live scoreboard: what it shows, from the engine's results."""

from __future__ import annotations

from typing import Any

from ..scoring import Game, score
from .common import standings_part

#: The big screen shows the latest rounds only (with the totals), so it needs no scrolling.
SCREEN_ROUNDS = 8


def board_page(game: Game, layout: str) -> dict[str, Any]:
    """The board's template variables in ``layout`` (``board`` or ``screen``): the
    standings part (:func:`.common.standings_part`) with ``rows`` cut to the last
    :data:`SCREEN_ROUNDS` on the screen, ``last`` (the last round's result, or None) and
    ``layout``."""
    scores = score(game)
    page = standings_part(game, scores)
    if layout == "screen":
        page["rows"] = page["rows"][-SCREEN_ROUNDS:]
    page["last"] = scores.rounds[-1] if scores.rounds else None
    page["layout"] = layout
    return page
