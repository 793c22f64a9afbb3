"""This device's recent games and club nights, for the home page: their edit tokens (a
night's: its director token), newest first, in the session cookie, sealed.

Flask's session cookie is signed, not encrypted: anyone who sees its value (a shared
computer's browser, a proxy log, a screenshot of the developer tools) reads it. So the list
is kept sealed (:func:`scorepad.tokens.seal`, with a key derived from ``SECRET_KEY`` for this
purpose only): the cookie's value shows no edit token. A cookie written before holds a plain
list: it is read, and sealed the next time the list is written (the home page writes it).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING

from flask import current_app, session

from ..services import clubs, games
from ..tokens import InvalidToken, seal, unseal

if TYPE_CHECKING:
    from ..models import StoredClub, StoredGame


@dataclass(frozen=True)
class Kept:
    """One list kept in the session cookie: its ``key`` there, the ``purpose`` its seal's key
    is derived for (scorepad.tokens: no other sealed value opens with it) and how many tokens
    it keeps (``most``)."""

    key: str
    purpose: str
    most: int


SESSION_KEY = "recent"
#: The purpose of the recent list's key (scorepad.tokens): no other sealed value opens with it.
PURPOSE = "recent games"
RECENT_GAMES = 10  # edit tokens remembered
#: The recent games (edit tokens) and the club nights this device created or directed (director
#: tokens: losing the console's link would leave a night without its director).
GAMES = Kept(SESSION_KEY, PURPOSE, RECENT_GAMES)
NIGHTS = Kept("recent_nights", "recent nights", 5)
#: The clubs whose admin page this device opened (admin tokens: losing the link leaves the club without its admin).
CLUBS = Kept("recent_clubs", "recent clubs", 5)


def _secrets() -> list[str | bytes]:
    """``SECRET_KEY`` and then Flask's ``SECRET_KEY_FALLBACKS`` (keys being rotated out)."""
    config = current_app.config
    return [config["SECRET_KEY"], *(config.get("SECRET_KEY_FALLBACKS") or ())]


def recent_tokens(kind: Kept = GAMES) -> list[str]:
    """The tokens of this device's recent games (``kind`` :data:`GAMES`, edit tokens) or club
    nights (:data:`NIGHTS`, director tokens), newest first (at most ``kind.most``); [] for
    none, or for a list that no longer opens (the secret keys changed). Not checked against
    the database: a game may be gone since."""
    kept = session.get(kind.key)
    if isinstance(kept, str):
        try:
            kept = json.loads(unseal(_secrets(), kind.purpose, kept))
        except (InvalidToken, ValueError):
            return []
    if not isinstance(kept, list):
        return []
    return [token for token in kept if isinstance(token, str)][: kind.most]


def keep_recent(tokens: list[str], kind: Kept = GAMES) -> None:
    """Store ``tokens`` (newest first; the first ``kind.most`` are kept) as this device's
    recent games (or nights: ``kind``), sealed. The cookie is left as it is when it holds
    exactly them sealed already, or holds no list and ``tokens`` is empty."""
    tokens = tokens[: kind.most]
    kept = session.get(kind.key)
    if (kept is None and not tokens) or (isinstance(kept, str) and recent_tokens(kind) == tokens):
        return
    secret = _secrets()[0]
    session[kind.key] = seal(secret, kind.purpose, json.dumps(tokens, separators=(",", ":")).encode())


def remember(token: str, kind: Kept = GAMES) -> None:
    """Put the game of edit token ``token`` (or the night of director token ``token``, for
    ``kind`` :data:`NIGHTS`) first in this device's recent list."""
    keep_recent([token, *(kept for kept in recent_tokens(kind) if kept != token)], kind)


def remember_game(stored: StoredGame) -> None:
    """Put the game first in this device's recent games (its edit token, which ``stored``
    holds, sealed in the session cookie: :mod:`scorepad.web.recent`)."""
    if stored.edit_token is not None:
        remember(stored.edit_token)


def admin_clubs() -> list[StoredClub]:
    """The clubs whose admin page this device opened (:data:`CLUBS`, the admin tokens it
    keeps), newest first, each holding its admin token."""
    found = (clubs.find_club(token) for token in recent_tokens(CLUBS))
    return [club for club, role in filter(None, found) if role == clubs.ADMIN]


def admin_club(club_id: int | None) -> StoredClub | None:
    """The club ``club_id`` if this device holds its admin token (:data:`CLUBS`), else None
    (None too for no club): a device that opened the club's admin page may add the club's
    games from the game pages (club-format.md: a game joins a club with the admin token).
    Looks the kept tokens up one by one, newest first, up to the club's."""
    if club_id is None:
        return None
    for token in recent_tokens(CLUBS):
        found = clubs.find_club(token)
        if found is not None and found[1] == clubs.ADMIN and found[0].id == club_id:
            return found[0]
    return None


def scorer_token(stored: StoredGame) -> str | None:
    """The game's edit token when this device scores it, else None: where the print page's
    back link goes, the scorer's page or the live board. A device scores the game when the
    game's edit token is among its recent games (the sealed list of the session cookie,
    :mod:`scorepad.web.recent`), which the scorer's page and a sheet opened with the edit token
    keep. Nothing in the request's URL decides the link, so it can lead nowhere else (no open
    redirect), and the edit token is shown only to a device that holds it already (the page is
    ``private, no-store``; the toolbar is never printed)."""
    for token in recent_tokens():
        if games.edit_token_fits(stored, token):
            return token
    return None
