"""The marks of a stored game's rounds (issue 15), for the views that show them: the board, the
scorer's page, the history page and the sheet."""

from __future__ import annotations

from .. import history
from ..pages.history import Trust, trust_part, zone_named
from ..services import StoredGame


def trust_of(stored: StoredGame) -> Trust:
    """The marks of a stored game's rounds (:func:`scorepad.pages.history.trust_part`), its
    history and statuses read through :mod:`scorepad.history`: what the board, the scorer's
    page and the sheet show."""
    rows = history.game_history(stored)
    return trust_part(stored.confirmation, history.statuses(stored), rows, zone_named(stored.timezone))
