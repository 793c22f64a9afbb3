"""Games and their tokens: start one (or import it), find it by a token, authorize a token."""

from __future__ import annotations

import hmac
from dataclasses import replace
from typing import Any

from ..extensions import db
from ..models import (
    StoredClub,
    StoredGame,
    StoredRound,
    token_digest,
)
from ..scoring import Game, Preset, parse_game, preset_to_dict
from ..scoring.document import default_date, parse_players, round_to_dict
from ..scoring.presets import resolve_preset
from ..scoring.trust import SCORER
from ..tokens import TOKEN_BYTES as TOKEN_BYTES  # the size of every token (192 bits), for callers that check a shape
from ..tokens import derive_token, new_token, seal, unseal
from . import clubs, history
from .clubs import club_rating
from .common import MAX_ID, clock, find_by_digest, token_role
from .presets import saved_for_document


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
    :class:`ScoringError` or :class:`~scorepad.services.clubs.ClubRefused` (nothing stored)."""
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
    night's table: :func:`scorepad.services.nights.table_token`), else a new one. ``club``: the club
    whose admin token came with the request: a document naming a club (``club``,
    ``members``) needs it (:func:`scorepad.services.clubs.club_seats`), and the game then keeps its
    results for the club. Raises :class:`ScoringError` (nothing added) or
    :class:`~scorepad.services.clubs.ClubRefused`."""
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


def rules_of(stored: StoredGame) -> tuple[Preset, tuple[str, ...]]:
    """The preset and the players of ``stored`` as :meth:`~scorepad.models.StoredGame.to_game`
    reads them, without replaying its rounds: what a round form needs before its save (the save
    replays the game under the lock and returns it)."""
    return resolve_preset(stored.preset, "preset", {}, stored=True), parse_players(stored.players, stored=True)


#: The purpose a game's confirm token is derived from its edit token with (:func:`scorepad.tokens.derive_token`).
CONFIRM = "confirm"
#: The purpose a game's view token is derived from its edit token with (:func:`scorepad.tokens.derive_token`).
VIEW = "view"


def view_token_of(stored: StoredGame, edit_token: str) -> str:
    """The view token of ``stored`` for the holder of its edit token ``edit_token``: the
    one place a view link is computed again (the scorer's page, the share box and its QR code,
    the API's ``links``). It is derived from the edit token (:func:`scorepad.tokens.derive_token`
    with purpose :data:`VIEW`); a game started before that keeps the random view
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
    earlier migration seals every such game's token with this)."""
    return seal(edit_token, VIEW, view_token.encode())


def _hold(stored: StoredGame, token: str, can_edit: bool) -> tuple[StoredGame, bool]:
    """``stored`` holding the tokens its reader has (its ``edit_token`` / ``view_token``
    attributes, not columns): both for the edit token ``token``, the view token alone
    (``edit_token`` None) for the view token. Returned with ``can_edit``."""
    stored.edit_token = token if can_edit else None
    stored.view_token = view_token_of(stored, token) if can_edit else token
    return stored, can_edit


#: A game's token digests, in the order :func:`~scorepad.services.common.token_role` compares them.
_DIGESTS = (StoredGame.edit_digest, StoredGame.view_digest)


def find_by_token(token: str) -> tuple[StoredGame, bool] | None:
    """The game whose edit or view token is ``token`` and whether it may be changed
    (True for the edit token), or None; the game holds the reader's tokens (see
    :class:`~scorepad.models.StoredGame`). The game is looked up by the token's digest
    (:func:`scorepad.models.token_digest`) in one query on both digests' unique indexes (a
    board's token found in one round trip, not two), then compared again in constant time."""
    found = find_by_digest(StoredGame, token, _DIGESTS)
    return _hold(found[0], token, found[1] == 0) if found is not None else None


def authorize(game_id: int, token: str) -> tuple[StoredGame, bool] | None:
    """The game ``game_id`` if ``token`` is one of its tokens (its digest compared in
    constant time), with True when it is the edit token; None for an unknown game or a wrong
    token. The game holds the reader's tokens, as :func:`find_by_token`'s."""
    if not 0 < game_id <= MAX_ID:
        return None  # larger than any id column holds: asking the database would fail
    stored = db.session.get(StoredGame, game_id)
    role = token_role(stored, token, _DIGESTS) if stored is not None else None
    return _hold(stored, token, role == 0) if stored is not None and role is not None else None


def edit_token_fits(stored: StoredGame, token: str) -> bool:
    """True when ``token`` is the game's edit token (its digest compared in constant time);
    nothing is held on ``stored``, unlike :func:`authorize`."""
    return bool(token) and hmac.compare_digest(stored.edit_digest, token_digest(token))


def confirm_token_of(stored: StoredGame, edit_token: str) -> str:
    """The confirm token of ``stored`` for the holder of its edit token ``edit_token`` (the
    witness's link, shown on the scorer's page as a QR code): derived from the edit token with
    purpose :data:`CONFIRM`, so the database keeps only its digest. A game started before
    confirmation existed has no digest yet: it is stored now (and committed), so the link works from then
    on. The caller has checked that ``edit_token`` is the game's."""
    token = derive_token(edit_token, CONFIRM)
    if stored.confirm_digest is None:
        stored.confirm_digest = token_digest(token)
        db.session.commit()
    return token
