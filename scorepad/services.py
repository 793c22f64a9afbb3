"""Use cases: start a game, record, edit and undo a round, find a game by its token.

Views and the API call these; they never compute scores or legality themselves (the
engine does). Every write is one transaction: a refused input stores nothing.
"""

from __future__ import annotations

import hmac
import secrets
from typing import Any

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from .extensions import db
from .models import StoredGame, StoredRound, utcnow
from .scoring import Game, ScoringError, parse_game, parse_round, preset_to_dict
from .scoring.document import round_to_dict
from .scoring.game import declarer_of

TOKEN_BYTES = 24  # 192 bits, URL-safe base64: 32 characters


class Conflict(Exception):
    """The request cannot apply to the game as it is now (HTTP 409): the game is
    complete, the round number is not the next one, only the last round can be undone,
    or another phone saved the same round first. ``message`` says which."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


def new_token() -> str:
    """An unguessable capability token (192 random bits, URL-safe)."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def create_game(document: dict[str, Any]) -> tuple[StoredGame, Game]:
    """Validate a game document (rounds optional: this is also import) and store it
    with fresh edit and view tokens. Raises :class:`ScoringError` (nothing stored)."""
    game = parse_game(document)
    stored = StoredGame(
        title=game.title,
        players=list(game.players),
        first_declarer=game.first_declarer,
        preset=preset_to_dict(game.preset),
        edit_token=new_token(),
        view_token=new_token(),
    )
    for number, rnd in enumerate(game.rounds, start=1):
        row = StoredRound(number=number)
        row.assign(round_to_dict(rnd))
        stored.rounds.append(row)
    db.session.add(stored)
    db.session.commit()
    return stored, game


def find_by_token(token: str) -> tuple[StoredGame, bool] | None:
    """The game whose edit or view token is ``token`` and whether it may be changed
    (True for the edit token), or None."""
    if not token or len(token) > 64:
        return None
    stored = db.session.scalar(select(StoredGame).where(StoredGame.edit_token == token))
    if stored is not None:
        return stored, True
    stored = db.session.scalar(select(StoredGame).where(StoredGame.view_token == token))
    if stored is not None:
        return stored, False
    return None


def authorize(game_id: int, token: str) -> tuple[StoredGame, bool] | None:
    """The game ``game_id`` if ``token`` is one of its tokens (compared in constant time),
    with True when it is the edit token; None for an unknown game or a wrong token."""
    stored = db.session.get(StoredGame, game_id)
    if stored is None or not token:
        return None
    if hmac.compare_digest(stored.edit_token.encode(), token.encode()):
        return stored, True
    if hmac.compare_digest(stored.view_token.encode(), token.encode()):
        return stored, False
    return None


def _commit_round(stored: StoredGame) -> None:
    stored.updated_at = utcnow()
    try:
        db.session.commit()
    except IntegrityError:
        db.session.rollback()
        raise Conflict("another phone saved this round first; reload to see it") from None


def record_round(stored: StoredGame, round_doc: Any, number: int | None = None) -> tuple[StoredRound, Game]:
    """Validate and store the next round of ``stored``.

    ``round_doc`` is a round object of game-format.md; ``number``, when given, must be
    the next round number. Raises :class:`ScoringError` (paths relative to the round, e.g.
    ``outcome.tricks``) or :class:`Conflict` (game complete, wrong number, lost race).
    """
    game = stored.to_game()
    count = len(game.rounds)
    if count >= game.preset.round_count:
        raise Conflict(f"the game is complete: all {count} rounds are recorded")
    if number is not None and number != count + 1:
        raise Conflict(f"the next round is number {count + 1}, not {number}")
    rnd = parse_round(game.preset, game.players, game.first_declarer, game.rounds, round_doc, "")
    row = StoredRound(game=stored, number=count + 1)
    row.assign(round_to_dict(rnd))
    db.session.add(row)
    _commit_round(stored)
    return row, Game(game.players, game.first_declarer, game.preset, game.rounds + (rnd,), game.title)


def replace_round(stored: StoredGame, number: int, round_doc: Any) -> tuple[StoredRound, Game]:
    """Replace round ``number`` (1-based) with ``round_doc``; later rounds are kept and
    their totals recompute. The declarer still declares each contract once. Raises
    :class:`ScoringError` (paths relative to the round) or ``LookupError`` for a round
    that does not exist."""
    game = stored.to_game()
    if not 1 <= number <= len(game.rounds):
        raise LookupError(number)
    index = number - 1
    rnd = parse_round(game.preset, game.players, game.first_declarer, game.rounds[:index], round_doc, "")
    declarer = declarer_of(game.preset, game.first_declarer, index)
    for later in range(index + 1, len(game.rounds)):
        if declarer_of(game.preset, game.first_declarer, later) == declarer and game.rounds[later].contract == rnd.contract:
            raise ScoringError("contract", f"{game.players[declarer]} declares {rnd.contract} in round {later + 1}")
    rounds = game.rounds[:index] + (rnd,) + game.rounds[index + 1:]
    doc = stored.document()
    doc["rounds"] = [round_to_dict(r) for r in rounds]
    new_game = parse_game(doc)  # later rounds stay valid (the check above keeps contracts unique)
    row = stored.rounds[index]
    row.assign(round_to_dict(rnd))
    _commit_round(stored)
    return row, new_game


def undo_round(stored: StoredGame, number: int | None = None) -> None:
    """Delete the last round (``number``, when given, must be the last one). Raises
    ``LookupError`` when there is no such round and :class:`Conflict` for an earlier one."""
    if not stored.rounds:
        raise LookupError("no round to undo")
    last = stored.rounds[-1]
    if number is not None:
        if not 1 <= number <= last.number:
            raise LookupError(number)
        if number != last.number:
            raise Conflict(f"only the last round ({last.number}) can be deleted; edit round {number} instead")
    stored.rounds.remove(last)
    stored.updated_at = utcnow()
    db.session.commit()
