"""The marks of a stored game's rounds, for the views that show them: the board, the
scorer's page, the history page and the sheet."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..models import StoredGame
from ..pages.common import zone_named
from ..pages.history import Trust, trust_part
from ..services import history

if TYPE_CHECKING:
    from ..models import StoredHistory


def trust_of(stored: StoredGame, rows: Sequence[StoredHistory] | None = None) -> Trust:
    """The marks of a stored game's rounds (:func:`scorepad.pages.history.trust_part`), its
    history (``rows``, when the caller read it already) and statuses read through
    :mod:`scorepad.services.history`: what the board, the scorer's page, the history page and the sheet show."""
    rows = history.game_history(stored) if rows is None else rows
    return trust_part(stored.confirmation, history.statuses(stored), rows, zone_named(stored.timezone))
