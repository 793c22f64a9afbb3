"""Use cases: start a game, record, edit and undo a round, find a game by its token.

Views and the API call these; they never compute scores or legality themselves (the
engine does). Every write is one transaction: a refused input stores nothing.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import secrets
from collections.abc import Callable, Collection
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import Any

from flask import current_app
from sqlalchemy import Select, bindparam, delete, exists, func, or_, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import DBAPIError, IntegrityError

from . import clubs, database, history, rating
from .extensions import db
from .models import (
    LimitCounter,
    SpentKey,
    StoredClub,
    StoredEvent,
    StoredGame,
    StoredPreset,
    StoredRound,
    aware_utc,
    token_digest,
    utcnow,
)
from .scoring import BUILTIN, Game, Preset, ScoringError, parse_game, parse_preset, parse_round, preset_to_dict
from .scoring.document import default_date, export_game, parse_replacement, round_to_dict, same_round
from .scoring.errors import N_
from .scoring.game import rematch, score
from .scoring.text import clean_text, stored_text
from .scoring.trust import CONFIRMED, DISPUTED, PROVISIONAL, SCORER, WITNESS, checks_open, parse_note
from .tokens import TOKEN_BYTES as TOKEN_BYTES  # the size of every token (192 bits), for callers that check a shape
from .tokens import InvalidToken, derive_token, new_token, seal, unseal

MAX_ID = 2**31 - 1  # the largest INTEGER of PostgreSQL (SQLite's is larger)


class Conflict(Exception):
    """The request cannot apply to the game as it is now (HTTP 409): the game is
    complete, the round number is not the next one, only the last round can be undone,
    or another phone saved the same round first. ``message`` says which (English, for the
    API); ``template`` and ``params`` are the same before formatting, for translation
    (marked ``N_`` like the engine's messages; see :func:`scorepad.i18n.engine_text`)."""

    def __init__(self, template: str, **params: object):
        message = template % params if params else template
        super().__init__(message)
        self.template = template
        self.params = params
        self.message = message


def clock() -> datetime:
    """The current time (aware): the app's ``CLOCK`` setting when it has one (a function
    returning an aware datetime, so tests can say when a game starts), else the system's."""
    now: Callable[[], datetime] = current_app.config.get("CLOCK") or utcnow
    return now()


def create_game(
    document: dict[str, Any],
    *,
    creator_device: str | None = None,
    creator_address: str | None = None,
    club: StoredClub | None = None,
) -> tuple[StoredGame, Game]:
    """Validate a game document (rounds optional: this is also import) and store it
    with a fresh edit token and the view token derived from it (only their digests: the
    returned game holds both tokens, to show them this once; see :func:`view_token_of`).
    A document without a ``date`` is dated today where the players are: :func:`clock`'s day
    in its ``timezone``, else in UTC (:func:`~scorepad.scoring.document.default_date`); an
    imported game keeps its own.
    ``creator_device`` / ``creator_address`` (see :func:`scorepad.web.device.creator`) only
    count the games one client starts; ``club`` as for :func:`add_game`. Raises
    :class:`ScoringError` or :class:`~scorepad.clubs.ClubRefused` (nothing stored)."""
    stored, game = add_game(document, creator_device=creator_device, creator_address=creator_address, club=club)
    db.session.commit()
    club_rating(stored)
    return stored, game


def add_game(
    document: dict[str, Any],
    *,
    edit_token: str | None = None,
    creator_device: str | None = None,
    creator_address: str | None = None,
    club: StoredClub | None = None,
) -> tuple[StoredGame, Game]:
    """:func:`create_game` up to its commit: the game added to the session, holding its
    tokens, with the digest of its confirm token (:func:`confirm_token_of`) and, for an
    import, its history's first entry (``import``, by the scorer: its rounds).
    ``edit_token``: the game's edit token when it is derived from another one (a club
    night's table: :func:`scorepad.events.table_token`), else a new one. ``club``: the club
    whose admin token came with the request: a document naming a club (``club``,
    ``members``) needs it (:func:`scorepad.clubs.club_seats`), and the game then keeps its
    results for the club. Raises :class:`ScoringError` (nothing added) or
    :class:`~scorepad.clubs.ClubRefused`."""
    game = parse_game(document, saved_for_document(document))
    seats = clubs.club_seats(document, club, 4)
    if game.date is None:
        game = replace(game, date=default_date(game.timezone, clock()))
    edit_token = edit_token or new_token()
    view_token = derive_token(edit_token, VIEW)
    stored = StoredGame(
        title=game.title,
        date=game.date,
        timezone=game.timezone,
        confirmation=game.confirmation,
        confirm_digest=token_digest(derive_token(edit_token, CONFIRM)),
        players=list(game.players),
        first_declarer=game.first_declarer,
        preset=preset_to_dict(game.preset),
        edit_digest=token_digest(edit_token),
        view_digest=token_digest(view_token),
        creator_device=creator_device,
        creator_address=creator_address,
    )
    for number, rnd in enumerate(game.rounds, start=1):
        row = StoredRound(number=number)
        row.assign(round_to_dict(rnd))
        stored.rounds.append(row)
    db.session.add(stored)
    if game.rounds:  # an import: its rounds start the history, as the scorer's
        history.log(stored, "import", SCORER, clock(), after={"rounds": [round_to_dict(r) for r in game.rounds]})
    if seats is not None:
        clubs.attach_game(stored, seats, game)
    stored.edit_token, stored.view_token = edit_token, view_token
    return stored, game


# -- a game's tokens: only digests are stored (scorepad.tokens) ---------------------------------

#: The purpose a game's view token is derived from its edit token with (:func:`scorepad.tokens.derive_token`).
VIEW = "view"


def view_token_of(stored: StoredGame, edit_token: str) -> str:
    """The view token of ``stored`` for the holder of its edit token ``edit_token``: the
    one place a view link is computed again (the scorer's page, the share box and its QR code,
    the API's ``links``). It is derived from the edit token (:func:`scorepad.tokens.derive_token`
    with purpose :data:`VIEW`); a game started before that (issue 12) keeps the random view
    token its players already have (boards on screens, printed QR codes), sealed with the edit
    token in ``view_sealed`` (:func:`scorepad.tokens.seal`). The database alone gives neither.
    Raises :class:`scorepad.tokens.InvalidToken` when ``edit_token`` does not open the sealed
    one (it is not this game's edit token: callers check it first)."""
    if stored.view_sealed is not None:
        return unseal(edit_token, VIEW, stored.view_sealed).decode()
    return derive_token(edit_token, VIEW)


def seal_view_token(edit_token: str, view_token: str) -> str:
    """The ``view_sealed`` of a game started before view tokens were derived: its random
    ``view_token`` sealed with ``edit_token`` (what :func:`view_token_of` opens; the
    migration of issue 12 seals every such game's token with this)."""
    return seal(edit_token, VIEW, view_token.encode())


def _hold(stored: StoredGame, token: str, can_edit: bool) -> tuple[StoredGame, bool]:
    """``stored`` holding the tokens its reader has (its ``edit_token`` / ``view_token``
    attributes, not columns): both for the edit token ``token``, the view token alone
    (``edit_token`` None) for the view token. Returned with ``can_edit``."""
    stored.edit_token = token if can_edit else None
    stored.view_token = view_token_of(stored, token) if can_edit else token
    return stored, can_edit


def find_by_token(token: str) -> tuple[StoredGame, bool] | None:
    """The game whose edit or view token is ``token`` and whether it may be changed
    (True for the edit token), or None; the game holds the reader's tokens (see
    :class:`~scorepad.models.StoredGame`). The game is looked up by the token's digest
    (:func:`scorepad.models.token_digest`) in one query on both digests' unique indexes (a
    board's token found in one round trip, not two), then compared again in constant time."""
    if not token or len(token) > 64:
        return None
    digest = token_digest(token)
    stored = db.session.scalar(
        select(StoredGame).where(or_(StoredGame.edit_digest == digest, StoredGame.view_digest == digest))
    )
    if stored is None:
        return None
    if hmac.compare_digest(stored.edit_digest, digest):
        return _hold(stored, token, True)
    if hmac.compare_digest(stored.view_digest, digest):
        return _hold(stored, token, False)
    return None


def authorize(game_id: int, token: str) -> tuple[StoredGame, bool] | None:
    """The game ``game_id`` if ``token`` is one of its tokens (its digest compared in
    constant time), with True when it is the edit token; None for an unknown game or a wrong
    token. The game holds the reader's tokens, as :func:`find_by_token`'s."""
    if not 0 < game_id <= MAX_ID:
        return None  # larger than any id column holds: asking the database would fail
    stored = db.session.get(StoredGame, game_id)
    if stored is None or not token:
        return None
    digest = token_digest(token)
    if hmac.compare_digest(stored.edit_digest, digest):
        return _hold(stored, token, True)
    if hmac.compare_digest(stored.view_digest, digest):
        return _hold(stored, token, False)
    return None


def _lock_game(stored: StoredGame) -> None:
    """Start the write transaction of a change to ``stored`` and make it the only one.

    The first statement writes the game's row (``updated_at``): PostgreSQL then holds that
    row's lock, SQLite its database write lock (waiting up to the busy timeout of
    :mod:`scorepad.database`), until the commit or rollback. A second phone changing the
    same game waits here and then sees the first one's rounds, so every check below runs
    against the game as it is now: never two rounds with one number, a gap after an undo,
    or a contract declared twice by an edit racing a save. A table of a closed club night
    refuses every round write here: :class:`Conflict` "the night is closed" (see
    :func:`night_closed`; the transaction is rolled back)."""
    db.session.execute(update(StoredGame).where(StoredGame.id == stored.id).values(updated_at=utcnow()))
    db.session.expire_all()  # reload the game and its rounds inside the lock
    if stored.event_id is not None and night_closed(stored.event_id):
        db.session.rollback()  # end the transaction: release the lock
        raise Conflict(NIGHT_CLOSED)


#: The refusal of a round write on a table of a closed club night (HTTP 409; club-format.md "Director").
NIGHT_CLOSED = N_("the night is closed")


def night_closed(event_id: int, *, for_write: bool = True) -> bool:
    """True when the club night ``event_id`` is closed. For a write (``for_write``) it is read
    inside the write's transaction ``FOR SHARE`` on PostgreSQL (SQLite's write lock serialises
    the rest): a close in progress (:func:`scorepad.events.close_event` writes the night's row)
    is waited for and then seen, and a close waits for a save that read the night open, so no
    round is stored on a night its director was told is closed. A page that only shows the
    night's state reads it plainly (``for_write=False``)."""
    query = select(StoredEvent.closed).where(StoredEvent.id == event_id)
    if for_write:
        query = query.with_for_update(read=True)
    return bool(db.session.scalar(query))


def club_results(stored: StoredGame, game: Game) -> None:
    """Inside a round write of ``stored`` (before its commit): rewrite the game's per-seat
    results when it is a club's (:func:`scorepad.clubs.refresh_results`, issue 16 "Speed")."""
    if stored.club_id is not None:
        clubs.refresh_results(stored, game)


def club_rating(stored: StoredGame) -> None:
    """After the commit of a round write of ``stored``: bring its club's ratings up to date when
    the write changed what they read (``stored.rating_due``: :func:`scorepad.clubs.refresh_results`;
    :func:`scorepad.rating.settle`: now, or after the answer for a long replay)."""
    club_id, stored.rating_due = stored.rating_due, None
    if club_id is not None:
        rating.settle(club_id)


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
        # Not reached while _lock_game serialises writers; the unique (game, number)
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
        self.status = row.status  # confirmed or disputed since it was saved, maybe (issue 15)


class KeyReused(Exception):
    """An idempotency key sent again with a different request (HTTP 422): a key names one
    save, so it cannot store or replay another round. ``template`` as :class:`Conflict`'s."""

    template = N_("this idempotency key was already used for a different round")

    def __init__(self) -> None:
        super().__init__(self.template)
        self.message = self.template


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
    _lock_game(stored)
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


class RoundChanged(Conflict):
    """An edit of a round opened when the round was another one (:func:`round_changed`): HTTP
    409 for the edit form, 412 for the API's ``If-Match``."""


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
    ``LookupError`` for another round that does not exist (nothing changed in any case)."""
    _lock_game(stored)
    try:
        return _replace_round(stored, number, round_doc, based_on)
    except (ScoringError, LookupError, Conflict):
        db.session.rollback()  # end the transaction: release the lock
        raise


def _replace_round(
    stored: StoredGame, number: int, round_doc: Any, based_on: str | Collection[str] | None
) -> tuple[StoredRound, Game]:
    game = stored.to_game()
    if number == len(game.rounds) + 1:
        raise round_gone(number)
    if not 1 <= number <= len(game.rounds):
        raise LookupError(number)
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
    before). Raises ``LookupError`` when there is no
    such round and :class:`Conflict` for an earlier one (nothing changed in either case)."""
    _lock_game(stored)
    try:
        if not stored.rounds:
            raise LookupError("no round to undo")
        last = stored.rounds[-1]
        if number is not None:
            if not 1 <= number <= last.number:
                raise LookupError(number)
            if number != last.number:
                raise Conflict(
                    N_("only the last round (%(last)d) can be deleted; edit round %(n)d instead"),
                    last=last.number,
                    n=number,
                )
    except (LookupError, Conflict):
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
    _lock_game(stored)
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


# -- a second phone checks the rounds (issue 15; club-format.md "Trust") ---------------------

#: The purpose a game's confirm token is derived from its edit token with (:func:`scorepad.tokens.derive_token`).
CONFIRM = "confirm"
#: The refusal of a confirm or dispute on a game whose confirmation is off (HTTP 409).
CHECKING_OFF = N_("confirmation is off for this game: its rounds are not checked")


def confirm_token_of(stored: StoredGame, edit_token: str) -> str:
    """The confirm token of ``stored`` for the holder of its edit token ``edit_token`` (the
    witness's link, shown on the scorer's page as a QR code): derived from the edit token with
    purpose :data:`CONFIRM`, so the database keeps only its digest. A game started before
    issue 15 has no digest yet: it is stored now (and committed), so the link works from then
    on. The caller has checked that ``edit_token`` is the game's."""
    token = derive_token(edit_token, CONFIRM)
    if stored.confirm_digest is None:
        stored.confirm_digest = token_digest(token)
        db.session.commit()
    return token


def find_witness(token: str) -> StoredGame | None:
    """The game whose confirm token is ``token`` (looked up by its digest, then compared in
    constant time), or None. The game holds no token: a witness reads and checks, never edits."""
    if not token or len(token) > 64:
        return None
    digest = token_digest(token)
    stored = db.session.scalar(select(StoredGame).where(StoredGame.confirm_digest == digest))
    if stored is None or not hmac.compare_digest(stored.confirm_digest or "", digest):
        return None
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
    if stored is None or not hmac.compare_digest(stored.confirm_digest or "", token_digest(token)):
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
    or ``LookupError`` (no such round); nothing changed then."""
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
    _lock_game(stored)
    try:
        if not checks_open(stored.confirmation):
            raise Conflict(CHECKING_OFF)
        if not 1 <= number <= len(stored.rounds):
            raise LookupError(number)
        row = stored.rounds[number - 1]
        digest = check_based_on(row, number, based_on)
    except (Conflict, LookupError):
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


export_stored = history.export_stored
game_history_export = history.history_export


# -- the live board's validator --------------------------------------------------------------

#: The ETag's one query: the game's ``updated_at`` by its view token's digest (unique index).
_ETAG_QUERY = select(StoredGame.updated_at).where(StoredGame.view_digest == bindparam("digest"))


def stamp(query: Select, name: str, digest: str) -> tuple[str | None, ...] | None:
    """The first row of ``query`` (a validator's query with one bound parameter ``digest``,
    named ``name`` for its compiled text), each column in the database's text, or None.

    This answers every poll of every board, mostly with a 304, so it is the cheapest lookup
    the database allows (:func:`scorepad.database.read_row`): compiled by SQLAlchemy once per
    dialect, run on a pooled driver connection without the ORM session or a Core result (a
    third of the cost on SQLite), in one round trip on PostgreSQL. A game's board
    (:func:`updated_stamp`) and a club night's (:func:`scorepad.events.event_stamp`) are built on it."""
    return database.read_row(query, name, digest)


def updated_stamp(token: str) -> str | None:
    """The ``updated_at`` of the game with view token ``token`` as the database driver
    returns it, in text (only compared, never parsed); None for an unknown token. One query
    by the token's digest (as every token: models.token_digest), run by :func:`stamp`. The
    board's ETag (:func:`scorepad.views.board.live_etag`) is built on it."""
    return _stamp_text(_ETAG_QUERY, "game", token)


#: The witness page's ETag query: the game's ``updated_at`` (every round write, confirm and dispute
#: moves it), its confirmation and its night's ``closed`` (a close does not move the games'
#: ``updated_at``), by the confirm token's digest (unique index).
_WITNESS_QUERY = (
    select(StoredGame.updated_at, StoredGame.confirmation, StoredEvent.closed)
    .outerjoin(StoredEvent, StoredEvent.id == StoredGame.event_id)
    .where(StoredGame.confirm_digest == bindparam("digest"))
)


def witness_stamp(token: str) -> str | None:
    """:func:`updated_stamp` for the witness's page: what its live part depends on for the game
    whose confirm token is ``token`` (its ``updated_at``, confirmation and night's ``closed``), in
    text; None for an unknown token. One indexed query (:func:`stamp`)."""
    if not token or len(token) > 64:
        return None
    found = stamp(_WITNESS_QUERY, "witness", token_digest(token))
    if found is None:
        return None
    return "/".join("" if value is None else str(value) for value in found)


def _stamp_text(query: Select, name: str, token: str) -> str | None:
    found = stamp(query, name, token_digest(token))
    if found is None:
        return None
    return "" if found[0] is None else str(found[0])


def saved_notes(preset_id: str) -> str | None:
    """The notes of the saved preset ``preset_id`` (a game's preset id), made safe to show
    (:func:`~scorepad.scoring.text.stored_text`), or None for a built-in id (no lookup) or a
    preset that no longer exists."""
    if preset_id in BUILTIN:
        return None
    stored = find_preset(preset_id)
    return stored_text(stored.notes, multiline=True) if stored is not None else None


# -- saved presets ----------------------------------------------------------------------------

PRESET_ID_BYTES = 16  # 128 random bits: a saved preset's id (22 characters) is its share link
DEVICE_BYTES = 24  # 192 bits: the device id kept in the session cookie
MAX_NOTES = 2000  # characters of a preset's notes


def new_device_id() -> str:
    """A device's long-lived random id (192 bits), which owns the presets it creates."""
    return secrets.token_urlsafe(DEVICE_BYTES)


def saved_for_document(document: Any) -> dict[str, Preset]:
    """The saved preset a game document names by id, as ``{id: Preset}`` for
    :func:`~scorepad.scoring.parse_game` (empty when it names a built-in, an unknown id or
    carries a whole object: the engine then decides)."""
    if not isinstance(document, dict):
        return {}
    ref = document.get("preset")
    if not isinstance(ref, str) or ref in BUILTIN:
        return {}
    stored = find_preset(ref)
    return {ref: stored.to_preset()} if stored is not None else {}


def check_notes(notes: Any, path: str) -> str:
    """A preset's notes (``""`` for None): multi-line text by the rules of
    :mod:`scorepad.scoring.text` (NFC, trimmed, line breaks as ``\\n``; no other control
    character, no lone surrogate). Raises :class:`ScoringError` at ``path`` for something that
    is not text, a forbidden or no visible character, or more than :data:`MAX_NOTES` characters."""
    if notes is None:
        return ""
    if not isinstance(notes, str):
        raise ScoringError(path, N_("the notes must be text"))
    return clean_text(
        notes, path, MAX_NOTES, too_long_message=N_("the notes are longer than %(limit)d characters"), multiline=True
    )


def validate_preset(obj: Any, public_id: str, path: str) -> Preset:
    """``obj`` validated as a preset object whose id is ``public_id`` (a saved preset's id
    is always the one the scorepad gave it, whatever an imported object said)."""
    if not isinstance(obj, dict):
        raise ScoringError(path, N_("a preset must be an object"))
    return parse_preset({**obj, "id": public_id}, path)


def create_preset(
    obj: Any,
    notes: Any = "",
    owner_device: str | None = None,
    path: str = "preset",
    notes_path: str = "notes",
    creator_address: str | None = None,
) -> StoredPreset:
    """Validate a preset object (game-format.md "Preset"; its ``id`` is replaced by a new
    unguessable one) and save it with its notes and the digest of a new edit token (the
    returned row holds the token itself, ``edit_token``, to answer it once), owned by
    ``owner_device`` (None: only the edit token can change it); ``creator_address`` is the keyed hash of the client's
    address (:func:`scorepad.web.device.address_key`), kept only to count its presets.
    Raises :class:`ScoringError` naming the field (nothing stored)."""
    public_id = secrets.token_urlsafe(PRESET_ID_BYTES)
    preset = validate_preset(obj, public_id, path)
    edit_token = new_token()
    stored = StoredPreset(
        public_id=public_id,
        name=preset.name,
        preset=preset_to_dict(preset),
        notes=check_notes(notes, notes_path),
        owner_device=owner_device,
        creator_address=creator_address,
        edit_digest=token_digest(edit_token),
    )
    db.session.add(stored)
    db.session.commit()
    stored.edit_token = edit_token
    return stored


def update_preset(
    stored: StoredPreset, obj: Any, notes: Any = "", path: str = "preset", notes_path: str = "notes"
) -> StoredPreset:
    """Replace a saved preset's settings and notes (its id stays). Games already started
    keep their own copy. Raises :class:`ScoringError` naming the field (nothing changed)."""
    preset = validate_preset(obj, stored.public_id, path)
    checked_notes = check_notes(notes, notes_path)
    stored.preset = preset_to_dict(preset)
    stored.name = preset.name
    stored.notes = checked_notes
    stored.updated_at = utcnow()
    db.session.commit()
    return stored


def delete_preset(stored: StoredPreset) -> None:
    """Delete a saved preset; games started with it keep their copy."""
    db.session.delete(stored)
    db.session.commit()


def find_preset(public_id: str) -> StoredPreset | None:
    """The saved preset with this id, or None (without asking the database for an id no
    saved preset has: longer than 32 characters, or not printable ASCII, such as a lone
    surrogate from a JSON body, which no database driver can encode)."""
    if not public_id or len(public_id) > 32 or not (public_id.isascii() and public_id.isprintable()):
        return None
    return db.session.scalar(select(StoredPreset).where(StoredPreset.public_id == public_id))


def device_presets(device: str | None) -> list[StoredPreset]:
    """The presets this device created, by name (none without a device id)."""
    if not device:
        return []
    return list(
        db.session.scalars(
            select(StoredPreset)
            .where(StoredPreset.owner_device == device)
            .order_by(func.lower(StoredPreset.name), StoredPreset.id)
        )
    )


def owns_preset(stored: StoredPreset, device: str | None) -> bool:
    """True when ``device`` created the preset (compared in constant time)."""
    return bool(device and stored.owner_device and hmac.compare_digest(stored.owner_device.encode(), device.encode()))


def edit_token_fits(stored: StoredGame, token: str) -> bool:
    """True when ``token`` is the game's edit token (its digest compared in constant time);
    nothing is held on ``stored``, unlike :func:`authorize`."""
    return bool(token) and hmac.compare_digest(stored.edit_digest, token_digest(token))


def preset_token_fits(stored: StoredPreset, token: str) -> bool:
    """True when ``token`` is the preset's edit token (its digest compared in constant time)."""
    return bool(token) and hmac.compare_digest(stored.edit_digest, token_digest(token))


# -- counting for the limits (scorepad/web/limits.py) -------------------------------------------


def presets_kept(device: str) -> int:
    """How many saved presets ``device`` owns now (deleting one frees its place)."""
    return (
        db.session.scalar(select(func.count()).select_from(StoredPreset).where(StoredPreset.owner_device == device))
        or 0
    )


def device_established(device: str) -> bool:
    """True when ``device`` has stored something: a game it started (``creator_device``) or a
    preset it owns (``owner_device``). One query, two indexed existence tests; a device id
    that was only minted (a form with errors, the API, which stores no device) is not."""
    games = exists().where(StoredGame.creator_device == device)
    presets = exists().where(StoredPreset.owner_device == device)
    return bool(db.session.scalar(select(or_(games, presets))))


def fixed_window(now: datetime, length: timedelta) -> tuple[int, int]:
    """The fixed window of ``length`` (whole seconds, at least one) that holds ``now``, as
    Unix seconds ``(start, end)``: windows follow each other from the Unix epoch, so a day's
    window is a UTC day and a minute's a clock minute."""
    seconds = max(1, int(length.total_seconds()))
    start = int(now.timestamp()) // seconds * seconds
    return start, start + seconds


def _upsert(dialect: str) -> Callable[..., Any]:
    """The dialect's ``INSERT`` with ``ON CONFLICT`` (SQLite ≥ 3.35 and PostgreSQL both have
    it, with ``RETURNING``)."""
    return postgresql.insert if dialect == "postgresql" else sqlite.insert


def take_one(bucket: str, window: tuple[int, int], most: int) -> int | None:
    """Count one more creation in ``bucket``'s ``window`` (Unix seconds ``(start, end)``,
    see :func:`fixed_window`) unless it holds ``most`` already: the new count, or None when
    the bucket is full (nothing changed).

    One statement, atomic on SQLite and PostgreSQL alike: ``INSERT … ON CONFLICT (bucket,
    window_start) DO UPDATE SET count = count + 1 WHERE count < most RETURNING count``. It
    runs in the session's transaction, which it starts as a write: PostgreSQL holds the
    counter row's lock, SQLite its write lock, until the caller commits (with the creation
    it counts) or rolls back (a refused or failed request: the count goes with it). A second
    request on the same bucket waits for that and then counts from the committed value, so
    the counts lose no update and never pass ``most``."""
    if most <= 0:
        return None
    upsert = _upsert(db.session.get_bind().dialect.name)
    start, end = window
    statement = (
        upsert(LimitCounter)
        .values(bucket=bucket, window_start=start, window_end=end, count=1)
        .on_conflict_do_update(
            index_elements=[LimitCounter.bucket, LimitCounter.window_start],
            set_={"count": LimitCounter.count + 1},
            where=LimitCounter.count < most,
        )
        .returning(LimitCounter.count)
    )
    return db.session.execute(statement).scalar_one_or_none()


def forget_ended_windows(now: datetime) -> int:
    """Delete the counters whose window ended by ``now`` (they count nothing any more) and
    commit: how many went. Run it after a creation's transaction, not in it. Best effort:
    two at once wait for each other (the second finds the rows gone) and may even deadlock
    on PostgreSQL, which then aborts one; a failed clean-up is rolled back and left to the
    next one (0)."""
    try:
        deleted = db.session.execute(delete(LimitCounter).where(LimitCounter.window_end <= int(now.timestamp())))
        db.session.commit()
    except DBAPIError:
        db.session.rollback()
        return 0
    return int(deleted.rowcount or 0)  # type: ignore[attr-defined]


# -- a rematch ("Play again") -----------------------------------------------------------------


#: :func:`scorepad.tokens.seal`'s purpose for a rematch's edit token kept on the game before it.
REMATCH = "rematch"


def start_rematch(
    stored: StoredGame,
    *,
    creator_device: str | None = None,
    creator_address: str | None = None,
) -> tuple[StoredGame, Game, bool]:
    """Start the game a table plays after the finished game ``stored`` (holding its edit
    token): the engine's :func:`~scorepad.scoring.game.rematch` of it (same players, seats,
    preset object, title and time zone; the next player declares first), stored as
    :func:`create_game` stores a new game (new tokens, today's date where the players are;
    ``creator_*`` count it against the same limits). Returns the new game as
    :func:`create_game` does, and True. A table of a closed club night is not played again
    (:class:`Conflict` "the night is closed").

    A game is played again once: its rematch's edit token is kept on it (``rematch_sealed``),
    sealed with a key from its own edit token, so that only who holds that token opens it.
    Every later call (a second phone at the table, a double tap, a race: the claim is one
    conditional UPDATE) returns that same game, holding its tokens, and False; nothing new is
    stored. Raises :class:`Conflict` while ``stored`` is not complete (a rematch follows the
    last round), :class:`ScoringError` if the old game's text no longer passes today's rules
    (nothing stored in either case)."""
    earlier = rematch_of(stored)
    if earlier is not None:
        return (*earlier, False)
    game = stored.to_game()
    standings = score(game).standings
    if not standings.complete:
        raise Conflict(
            N_("the game is not finished (%(n)d of %(total)d rounds recorded); a rematch starts after the last round"),
            n=standings.rounds_played,
            total=standings.rounds_total,
        )
    document = export_game(rematch(game))
    for result in ("standings", "date"):  # computed on export, ignored on import; the new game is dated today
        document.pop(result, None)
    old_token = stored.edit_token or ""
    new, new_game = add_game(document, creator_device=creator_device, creator_address=creator_address)
    if stored.club_id is not None:  # the table plays again for its club, with the same members
        new.club_id, new.members = stored.club_id, stored.members
        db.session.flush()
        clubs.refresh_results(new, new_game)
    sealed = seal(old_token, REMATCH, (new.edit_token or "").encode())
    claim = (
        update(StoredGame)
        .where(StoredGame.id == stored.id, StoredGame.rematch_sealed.is_(None))
        .values(rematch_sealed=sealed)
        .execution_options(synchronize_session=False)
    )
    if db.session.execute(claim).rowcount != 1:  # type: ignore[attr-defined]  # another tap claimed it first
        db.session.rollback()
        stored.edit_token = old_token
        earlier = rematch_of(stored)
        if earlier is None:  # the row that refused the claim holds a rematch: not expected
            raise Conflict(N_("the game was played again meanwhile; open it again"))
        return (*earlier, False)
    # A table of a closed club night: read after the claim's write, which took the write lock (as a
    # round's save reads it after _lock_game), so a close cannot slip in before the commit.
    if stored.event_id is not None and night_closed(stored.event_id):
        db.session.rollback()
        stored.edit_token = old_token
        raise Conflict(NIGHT_CLOSED)
    db.session.commit()
    club_rating(new)
    return new, new_game, True


def rematch_of(stored: StoredGame) -> tuple[StoredGame, Game] | None:
    """The game started when ``stored`` (holding its edit token) was played again, holding
    its tokens, or None: never played again, or ``stored`` holds no edit token."""
    if not stored.rematch_sealed or not stored.edit_token:
        return None
    try:
        token = unseal(stored.edit_token, REMATCH, stored.rematch_sealed).decode()
    except InvalidToken:
        return None
    found = find_by_token(token)
    return (found[0], found[0].to_game()) if found is not None else None
