"""The scorer's page of a game, read in one call: what :mod:`scorepad.pages.scorer` arranges."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..models import StoredGame, StoredHistory
from ..scoring import Game
from ..scoring.trust import checks_open
from . import games, history
from .common import night_closed


@dataclass(frozen=True)
class ScorerState:
    """A stored game as its page shows it: ``game`` (the engine's, replayed once), ``history``
    (oldest first), each round's stored ``statuses``, the game's
    ``confirmation`` setting and ``timezone`` as stored, the round the last undo removed
    (``undone``: ``StoredGame.undone``, for the edit token only), ``night_closed`` (a table of
    a closed club night, for the edit token only) and ``confirm_token`` (the witness's link,
    for the edit token while checking is open; None otherwise). A closed night's table offers
    nothing it would refuse (club-format.md "Director": every table read-only): no ``undone``
    round to put back, no ``confirm_token``."""

    game: Game
    history: list[StoredHistory]
    statuses: list[str]
    confirmation: str
    timezone: str | None
    undone: Any
    night_closed: bool
    confirm_token: str | None


def scorer_state(stored: StoredGame, can_edit: bool, game: Game | None = None) -> ScorerState:
    """The :class:`ScorerState` of ``stored`` for the edit token (``can_edit``) or the view
    token. ``game``: the engine's game a save just built and returned (it is then not parsed
    again from the stored rounds)."""
    edit_token = stored.edit_token if can_edit else None
    closed = bool(can_edit and stored.event_id and night_closed(stored.event_id, for_write=False))
    return ScorerState(
        game=stored.to_game() if game is None else game,
        history=history.game_history(stored),
        statuses=history.statuses(stored),
        confirmation=stored.confirmation,
        timezone=stored.timezone,
        undone=stored.undone if can_edit and not closed else None,
        night_closed=closed,
        confirm_token=games.confirm_token_of(stored, edit_token)
        if edit_token and checks_open(stored.confirmation) and not closed
        else None,
    )
