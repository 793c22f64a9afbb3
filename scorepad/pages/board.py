"""The live scoreboard: what it shows, from the engine's results."""

from __future__ import annotations

from typing import Any

from ..scoring import Game, score
from .common import standings_part

#: The big screen shows the latest rounds only (with the totals), so that it needs no scrolling: its
#: layout is sized in units of the window (static/css/board.css), so these rows, their run headings
#: and the Total row fit the same on every 16:9 screen, 1280×720 as well as 1920×1080 or 4K.
SCREEN_ROUNDS = 9


def board_page(game: Game, layout: str) -> dict[str, Any]:
    """The board's template variables in ``layout`` (``board`` or ``screen``): the
    standings part (:func:`.common.standings_part`) with ``rows`` cut to the last
    :data:`SCREEN_ROUNDS` on the screen, ``not_shown`` (the number of the last round left
    out there, 0 for none: rounds 1 to it are not shown), ``last`` (the last round's
    result, or None) and ``layout``."""
    scores = score(game)
    page = standings_part(game, scores)
    page["not_shown"] = 0
    if layout == "screen" and len(page["rows"]) > SCREEN_ROUNDS:
        page["not_shown"] = len(page["rows"]) - SCREEN_ROUNDS
        page["rows"] = page["rows"][-SCREEN_ROUNDS:]
    page["last"] = scores.rounds[-1] if scores.rounds else None
    page["layout"] = layout
    return page
