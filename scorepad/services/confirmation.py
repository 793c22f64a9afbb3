"""A second phone checks the rounds (club-format.md "Trust"): the confirm token, confirm and dispute."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from ..extensions import db
from ..models import (
    StoredGame,
    StoredRound,
    utcnow,
)
from ..scoring.errors import N_
from ..scoring.trust import CONFIRMED, DISPUTED, WITNESS, checks_open, parse_note
from ..tokens import TOKEN_BYTES as TOKEN_BYTES  # the size of every token (192 bits), for callers that check a shape
from . import history
from .common import MAX_ID, Conflict, NotFound, clock, find_by_digest, lock_game, token_role
from .games import authorize
from .rounds import check_based_on

#: The refusal of a confirm or dispute on a game whose confirmation is off (HTTP 409).
CHECKING_OFF = N_("confirmation is off for this game: its rounds are not checked")


#: The digest of a game's confirm token, for :func:`~scorepad.services.common.find_by_digest`.
_WITNESS = (StoredGame.confirm_digest,)


def find_witness(token: str) -> StoredGame | None:
    """The game whose confirm token is ``token`` (looked up by its digest, then compared in
    constant time), or None. The game holds no token: a witness reads and checks, never edits."""
    found = find_by_digest(StoredGame, token, _WITNESS)
    if found is None:
        return None
    stored = found[0]
    stored.edit_token = stored.view_token = None
    return stored


#: The roles of a game's tokens, as :func:`authorize_role` names them.
ROLE_SCORER, ROLE_VIEWER, ROLE_WITNESS = "scorer", "viewer", "witness"


def authorize_role(game_id: int, token: str) -> tuple[StoredGame, str] | None:
    """The game ``game_id`` and the role of ``token`` on it: :data:`ROLE_SCORER` (the edit
    token), :data:`ROLE_VIEWER` (the view token) or :data:`ROLE_WITNESS` (the confirm token);
    None for an unknown game or a token of none of these (the API's 404). Digests are compared
    in constant time; the game holds the reader's tokens as :func:`authorize`'s (none for the
    witness)."""
    found = authorize(game_id, token)
    if found is not None:
        return found[0], ROLE_SCORER if found[1] else ROLE_VIEWER
    if not 0 < game_id <= MAX_ID or not token:
        return None
    stored = db.session.get(StoredGame, game_id)
    if stored is None or token_role(stored, token, _WITNESS) is None:
        return None
    stored.edit_token = stored.view_token = None
    return stored, ROLE_WITNESS


def confirm_round(
    stored: StoredGame, number: int, based_on: str | Collection[str] | None = None
) -> tuple[StoredRound, bool]:
    """The witness confirms round ``number`` (1-based): its status becomes ``confirmed`` and
    the history gets a ``confirm`` entry (by the witness, the round as confirmed), in one
    transaction. Returns the round and True, or False when it was confirmed already (a no-op:
    nothing written); the round holds the game as checked (``saved_game``, read under the lock),
    for an answer that must not read back a round another phone may undo right after the commit.
    ``based_on``: the :func:`round_digest` (or several) of the round the
    witness was shown; a round changed since is refused, so that nobody confirms what they did
    not see. Raises :class:`Conflict` (:data:`CHECKING_OFF`, a closed night), :class:`RoundChanged`
    or :class:`~scorepad.services.common.NotFound` (no such round); nothing changed then."""
    return _check_round(stored, number, CONFIRMED, None, based_on)


def dispute_round(
    stored: StoredGame, number: int, note: Any = None, based_on: str | Collection[str] | None = None
) -> tuple[StoredRound, bool]:
    """The witness disputes round ``number`` (1-based) with ``note`` (what is wrong: text, at
    most 200 characters, or none): its status becomes ``disputed`` with the note, and the
    history gets a ``dispute`` entry, as :func:`confirm_round`. Disputing it again with the same
    note is a no-op (False). Raises :class:`ScoringError` at ``note`` for a bad note, and as
    :func:`confirm_round` otherwise; nothing changed then."""
    return _check_round(stored, number, DISPUTED, parse_note(note), based_on)


def _check_round(
    stored: StoredGame, number: int, status: str, note: str | None, based_on: str | Collection[str] | None
) -> tuple[StoredRound, bool]:
    lock_game(stored)
    try:
        if not checks_open(stored.confirmation):
            raise Conflict(CHECKING_OFF)
        if not 1 <= number <= len(stored.rounds):
            raise NotFound(number)
        row = stored.rounds[number - 1]
        digest = check_based_on(row, number, based_on)
    except (Conflict, NotFound):
        db.session.rollback()  # end the transaction: release the lock
        raise
    row.saved_digest, row.saved_status, row.saved_game = digest, status, stored.to_game()
    if row.status == status and row.note == note:
        db.session.rollback()  # nothing to change: release the lock
        return row, False
    row.status, row.note = status, note
    action = "confirm" if status == CONFIRMED else "dispute"
    doc = row.document()
    history.log(stored, action, WITNESS, clock(), number, before=doc, after=doc, note=note)
    stored.updated_at = utcnow()  # the boards and the witness's page see the new status
    db.session.commit()
    return row, True
