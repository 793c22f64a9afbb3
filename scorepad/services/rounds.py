"""A game's rounds: record, replace, undo and put back, each once (idempotency keys), under the game's lock."""

from __future__ import annotations

import hashlib
import hmac
import json
import re
from collections.abc import Collection
from dataclasses import replace
from datetime import UTC
from typing import Any

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from ..extensions import db
from ..models import (
    SpentKey,
    StoredGame,
    StoredRound,
    aware_utc,
    utcnow,
)
from ..scoring import Game, ScoringError, parse_game, parse_round
from ..scoring.document import parse_replacement, round_to_dict, same_round
from ..scoring.errors import N_
from ..scoring.trust import PROVISIONAL, SCORER
from ..tokens import TOKEN_BYTES as TOKEN_BYTES  # the size of every token (192 bits), for callers that check a shape
from . import history
from .clubs import club_rating, club_results
from .common import Conflict, KeyReused, NotFound, RoundChanged, clock, lock_game


def _commit_round(stored: StoredGame, row: StoredRound) -> None:
    """Commit the change of ``row`` (saved, replaced or put back), with its
    ``saved_digest`` taken before the commit: after it, another phone may undo the round
    before the answer is written, and re-reading the row would then fail."""
    stored.updated_at = utcnow()
    try:
        db.session.flush()  # the row's number and created_at, as the commit stores them
        row.saved_digest, row.saved_status = round_digest(row), row.status
        db.session.commit()
    except IntegrityError:
        # Not reached while lock_game serialises writers; the unique (game, number)
        # constraint stays as the last line of defence.
        db.session.rollback()
        raise Conflict(N_("another phone saved this round first; reload to see it")) from None


#: An idempotency key: 8 to 64 URL-safe characters (a browser's ``crypto.randomUUID()`` fits).
CLIENT_KEY = re.compile(r"[A-Za-z0-9_-]{8,64}")


class Replayed(Exception):
    """A save whose idempotency key already stored a round of this game (a retry whose first
    answer was lost, or one that ran at the same time as the first): ``row`` is that round,
    unchanged; nothing new was stored (``number``, ``digest`` and ``status``: the round's, read
    when it was found). The API answers 200 with ``Idempotent-Replayed: true``."""

    def __init__(self, row: StoredRound):
        super().__init__(row.number)
        self.row = row
        # Read now, under the lock: the rollback that follows expires the row, and another
        # phone may undo the round before the answer is written.
        self.number = row.number
        self.digest = round_digest(row)
        self.status = row.status  # confirmed or disputed since it was saved, maybe


def check_client_key(key: Any, path: str) -> str | None:
    """An idempotency key as given (None for none or ``""``). Raises :class:`ScoringError`
    at ``path`` for anything but 8 to 64 letters, digits, ``-`` or ``_``."""
    if key is None or key == "":
        return None
    if not isinstance(key, str) or not CLIENT_KEY.fullmatch(key):
        raise ScoringError(path, N_("the idempotency key must be 8 to 64 letters, digits, '-' or '_'"))
    return key


def request_digest(request: Any) -> str:
    """The SHA-256 (64 hex digits) of a save request in canonical JSON (keys sorted, no
    spaces, non-ASCII escaped): what an idempotency key is stored with. ``request`` is what
    the client sent, e.g. the API's round object with its ``number``, or the round form's
    fields as sorted ``[name, value]`` pairs."""
    text = json.dumps(request, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def round_with_key(stored: StoredGame, client_key: str | None, digest: str | None = None) -> StoredRound | None:
    """The round of ``stored`` saved with idempotency key ``client_key``, or None for a key
    never used (or none). ``digest`` (:func:`request_digest`) is the request's: the key's
    round is only given back for the request that stored it. Raises :class:`Conflict` when
    the key belongs to a round of another game or to a round undone since (a late retry
    must not bring it back), :class:`KeyReused` when it came with a different request.
    (Keys stored before digests were kept have none: any request matches them.)"""
    if not client_key:
        return None
    row = db.session.scalar(select(StoredRound).where(StoredRound.client_key == client_key))
    used: StoredRound | SpentKey | None = row if row is not None else db.session.get(SpentKey, client_key)
    if used is None:
        return None
    if used.game_id != stored.id:
        raise Conflict(N_("this idempotency key was already used for a round of another game"))
    if digest is not None and used.key_digest is not None and not hmac.compare_digest(used.key_digest, digest):
        raise KeyReused
    if row is None:
        raise key_round_undone()
    return row


def key_round_undone() -> Conflict:
    """The refusal of a save whose idempotency key stored a round that was undone since: a
    late retry does not bring it back (HTTP 409)."""
    return Conflict(N_("this round was saved, then undone; it is not saved again"))


def record_round(
    stored: StoredGame,
    round_doc: Any,
    number: int | None = None,
    client_key: str | None = None,
    digest: str | None = None,
) -> tuple[StoredRound, Game]:
    """Validate and store the next round of ``stored``.

    ``round_doc`` is a round object of game-format.md; ``number``, when given, must be
    the next round number. Without it the round is meant as the next one of the game as
    the caller loaded it: if another phone saved a round since, this one is refused rather
    than stored as the round after (the refusal then names no number: the caller sent
    none). ``client_key`` (checked by :func:`check_client_key`) is the idempotency key of
    this save and ``digest`` its request's (:func:`request_digest`): when a round of this
    game was already stored with that key and request (a retry whose first answer was
    lost, or a retry running at the same time), :class:`Replayed` is raised with that round
    and nothing new is stored — whatever ``number`` and ``round_doc`` say. Raises
    :class:`ScoringError` (paths relative to the round, e.g. ``outcome.tricks``),
    :class:`Conflict` (game complete, wrong number, lost race, a key of another game or of
    an undone round) or :class:`KeyReused`; nothing is stored then.
    """
    sent = number is not None
    if number is None:
        number = len(stored.rounds) + 1  # before the lock: the game as the caller saw it
    lock_game(stored)
    try:
        # Under the lock: two retries of one save arriving together store it once.
        earlier = round_with_key(stored, client_key, digest)
        if earlier is not None:
            raise Replayed(earlier)
        game = stored.to_game()
        count = len(game.rounds)
        if count >= game.preset.round_count:
            raise Conflict(N_("the game is complete: all %(n)d rounds are recorded"), n=count)
        if number != count + 1 and not sent:
            raise Conflict(N_("another phone saved this round first; reload to see it"))
        if number == count and number >= 1:
            raise Conflict(N_("another phone saved round %(n)d first; reload to see it"), n=number)
        if number != count + 1:
            raise Conflict(N_("the next round is number %(next)d, not %(n)d"), next=count + 1, n=number)
        rnd = parse_round(game.preset, game.players, game.first_declarer, game.rounds, round_doc, "")
    except (Conflict, ScoringError, KeyReused, Replayed):
        db.session.rollback()  # end the transaction: release the lock
        raise
    row = StoredRound(game=stored, number=count + 1, client_key=client_key, key_digest=digest if client_key else None)
    row.assign(round_to_dict(rnd))
    db.session.add(row)
    history.log(stored, "record", SCORER, clock(), count + 1, after=round_to_dict(rnd))
    stored.undone = None  # a save ends the offer to put an undone round back
    club_results(stored, replace(game, rounds=game.rounds + (rnd,)))
    try:
        _commit_round(stored, row)
    except Conflict:
        # The key's unique constraint: a retry of this save stored it meanwhile, beyond the
        # game's lock (or the key is another game's). The stored round, looked up again, says which.
        if client_key and (earlier := round_with_key(stored, client_key, digest)) is not None:
            raise Replayed(earlier) from None
        raise
    club_rating(stored)
    return row, replace(game, rounds=game.rounds + (rnd,))


def round_gone(number: int) -> Conflict:
    """The refusal of an edit of round ``number`` when the game has no such round any more:
    another phone undid it since the edit was opened, an edit/undo race (HTTP 409, for the
    API and the edit form alike)."""
    return Conflict(N_("there is no round %(n)d any more: another phone undid it"), n=number)


def round_unanchored(number: int) -> Conflict:
    """The refusal of an edit form's save of round ``number`` that does not say which round
    it was opened on (no ``based_on``: a page opened before edits carried it, or a client of
    its own): saving it could overwrite a round another phone recorded since (HTTP 409)."""
    return Conflict(
        N_("open round %(n)d’s edit form again: this one does not say which round it was opened on"), n=number
    )


def round_changed(number: int) -> RoundChanged:
    """The refusal of an edit of round ``number`` opened when the round was another one (its
    :func:`round_digest` differs): another phone edited it meanwhile (saving this edit would
    lose theirs), or undid it and recorded a round ``number`` again."""
    return RoundChanged(
        N_(
            "round %(n)d is not the one you opened: another phone edited it, or undid it and recorded it again;"
            " your changes were not saved, so that theirs are not lost"
        ),
        n=number,
    )


def round_digest(row: StoredRound) -> str:
    """A short digest (16 hex digits) of round ``row`` as stored: its number, contract, trump
    suit or starting rank, outcome, doubles and when it was recorded (``created_at``, which
    tells a round undone and recorded again the same apart; the row's id does not, as SQLite
    may give a deleted row's id again). The edit form carries it from when it was opened, and
    :func:`replace_round` refuses the edit once the round is no longer that one."""
    recorded = aware_utc(row.created_at).astimezone(UTC).isoformat()
    return request_digest([row.number, row.contract, row.trump, row.start_rank, row.outcome, row.doubles, recorded])[
        :16
    ]


def check_based_on(row: StoredRound, number: int, based_on: str | Collection[str] | None) -> str:
    """The :func:`round_digest` of ``row`` (round ``number``), checked against ``based_on``: the
    digest (or any of several, an ``If-Match`` header's ETags) of the round a phone was shown,
    compared in constant time; None checks nothing. Raises :class:`RoundChanged`
    (:func:`round_changed`) when the round is no longer that one."""
    digest = round_digest(row)
    if based_on is not None:
        accepted = (based_on,) if isinstance(based_on, str) else based_on
        if not any(hmac.compare_digest(tag.encode(), digest.encode()) for tag in accepted):
            raise round_changed(number)
    return digest


def replace_round(
    stored: StoredGame, number: int, round_doc: Any, based_on: str | Collection[str] | None = None
) -> tuple[StoredRound, Game]:
    """Replace round ``number`` (1-based) with ``round_doc``; later rounds are kept and
    their totals recompute. The declarer still declares each contract once. ``based_on``,
    when given, is the :func:`round_digest` of the round the edit was opened on (or several,
    any of which will do: an ``If-Match`` header's ETags): the round must still be that one
    (checked under the game's lock). A changed round becomes provisional again and its edit
    goes into the history (before and after); an edit that changes nothing writes nothing
    (the round and its status stay). Raises :class:`ScoringError` (paths relative to the
    round), :class:`Conflict` — :func:`round_gone` for the round after the last (undone
    meanwhile), :class:`RoundChanged` for a round that is no longer ``based_on`` — or
    :class:`~scorepad.services.common.NotFound` for another round that does not exist (nothing changed in any case)."""
    lock_game(stored)
    try:
        return _replace_round(stored, number, round_doc, based_on)
    except (ScoringError, NotFound, Conflict):
        db.session.rollback()  # end the transaction: release the lock
        raise


def _replace_round(
    stored: StoredGame, number: int, round_doc: Any, based_on: str | Collection[str] | None
) -> tuple[StoredRound, Game]:
    game = stored.to_game()
    if number == len(game.rounds) + 1:
        raise round_gone(number)
    if not 1 <= number <= len(game.rounds):
        raise NotFound(number)
    index = number - 1
    row = stored.rounds[index]
    check_based_on(row, number, based_on)
    rnd = parse_replacement(game, index, round_doc)
    before, after = row.document(), round_to_dict(rnd)
    if same_round(after, before):  # nothing changes: no status, no history, nothing written (club-format.md "Trust")
        row.saved_digest, row.saved_status = round_digest(row), row.status
        db.session.rollback()  # end the transaction: release the lock
        return row, game
    rounds = game.rounds[:index] + (rnd,) + game.rounds[index + 1 :]
    doc = stored.document()
    doc["rounds"] = [round_to_dict(r) for r in rounds]
    new_game = parse_game(doc, stored=True)  # later rounds stay valid (the check above keeps contracts unique)
    row.assign(after)
    row.status, row.note = PROVISIONAL, None  # a changed round is checked again
    history.log(stored, "edit", SCORER, clock(), number, before=before, after=after)
    stored.undone = None  # so does an edit
    club_results(stored, new_game)
    _commit_round(stored, row)
    club_rating(stored)
    return row, new_game


def undo_round(stored: StoredGame, number: int | None = None) -> None:
    """Delete the last round (``number``, when given, must be the last one); its idempotency
    key, if it had one, is kept spent (:class:`~scorepad.models.SpentKey`), so a late retry
    of its save is a 409, not the round again. The round is kept on the game
    (``StoredGame.undone``: its number and round object) until the next save, edit or undo,
    so that :func:`put_back_round` can restore it; the history keeps it (``undo``, the round
    before). Raises :class:`~scorepad.services.common.NotFound` when there is no
    such round and :class:`Conflict` for an earlier one (nothing changed in either case)."""
    lock_game(stored)
    try:
        if not stored.rounds:
            raise NotFound(number if number is not None else "no round to undo")
        last = stored.rounds[-1]
        if number is not None:
            if not 1 <= number <= last.number:
                raise NotFound(number)
            if number != last.number:
                raise Conflict(
                    N_("only the last round (%(last)d) can be deleted; edit round %(n)d instead"),
                    last=last.number,
                    n=number,
                )
    except (NotFound, Conflict):
        db.session.rollback()  # end the transaction: release the lock
        raise
    if last.client_key:
        # Its save may still be retried (an answer lost, a phone back online): the key stays spent.
        db.session.add(
            SpentKey(client_key=last.client_key, game_id=stored.id, number=last.number, key_digest=last.key_digest)
        )
    stored.undone = {"number": last.number, "round": last.document()}
    history.log(stored, "undo", SCORER, clock(), last.number, before=last.document())
    stored.rounds.remove(last)
    stored.updated_at = utcnow()
    if stored.club_id is not None:
        club_results(stored, stored.to_game())
    db.session.commit()
    club_rating(stored)


def nothing_to_put_back(number: int) -> Conflict:
    """The refusal of a put back of round ``number`` when the game keeps no such undone round:
    it was put back already (a second tap), or a round was saved, edited or undone since (HTTP 409)."""
    return Conflict(
        N_("round %(n)d cannot be put back: it is back already, or a round was saved, edited or undone since"),
        n=number,
    )


def put_back_round(stored: StoredGame, number: int | None = None) -> tuple[StoredRound, Game]:
    """Store again the round the last undo removed (``StoredGame.undone``) as the next round:
    the same contract, trump suit or starting rank, outcome and doubles, validated by the
    engine as any save (:func:`~scorepad.scoring.parse_round`). ``number``, when given, is
    the round the page offered to put back. Its idempotency key stays spent (the restored row
    has none); it is recorded again (provisional; a ``record`` in the history).
    Raises :class:`Conflict` (:func:`nothing_to_put_back`) when the game keeps no
    undone round, another one, or the undone round is no longer the next one, and
    :class:`ScoringError` if the engine refuses it; nothing is stored then."""
    lock_game(stored)
    try:
        undone = stored.undone
        count = len(stored.rounds)
        if not isinstance(undone, dict) or undone.get("number") != count + 1:
            raise nothing_to_put_back(number if number is not None else count + 1)
        if number is not None and number != undone["number"]:
            raise nothing_to_put_back(number)
        game = stored.to_game()
        rnd = parse_round(game.preset, game.players, game.first_declarer, game.rounds, undone.get("round"), "")
    except (Conflict, ScoringError):
        db.session.rollback()  # end the transaction: release the lock
        raise
    row = StoredRound(game=stored, number=count + 1)
    row.assign(round_to_dict(rnd))
    db.session.add(row)
    history.log(stored, "record", SCORER, clock(), count + 1, after=round_to_dict(rnd))
    stored.undone = None
    club_results(stored, replace(game, rounds=game.rounds + (rnd,)))
    _commit_round(stored, row)
    club_rating(stored)
    return row, replace(game, rounds=game.rounds + (rnd,))
