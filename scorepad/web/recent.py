"""This device's recent games, for the home page: their edit tokens, newest first, in the
session cookie, sealed.

Flask's session cookie is signed, not encrypted: anyone who sees its value (a shared
computer's browser, a proxy log, a screenshot of the developer tools) reads it. So the list
is kept sealed (:func:`scorepad.tokens.seal`, with a key derived from ``SECRET_KEY`` for this
purpose only): the cookie's value shows no edit token. A cookie written before holds a plain
list: it is read, and sealed the next time the list is written (the home page writes it).
"""

from __future__ import annotations

import json

from flask import current_app, session

from ..tokens import InvalidToken, seal, unseal

SESSION_KEY = "recent"
#: The purpose of the recent list's key (scorepad.tokens): no other sealed value opens with it.
PURPOSE = "recent games"
RECENT_GAMES = 10  # edit tokens remembered


def _secrets() -> list[str | bytes]:
    """``SECRET_KEY`` and then Flask's ``SECRET_KEY_FALLBACKS`` (keys being rotated out)."""
    config = current_app.config
    return [config["SECRET_KEY"], *(config.get("SECRET_KEY_FALLBACKS") or ())]


def recent_tokens() -> list[str]:
    """The edit tokens of this device's recent games, newest first (at most
    :data:`RECENT_GAMES`); [] for none, or for a list that no longer opens (the secret keys
    changed). Not checked against the database: a game may be gone since."""
    kept = session.get(SESSION_KEY)
    if isinstance(kept, str):
        try:
            kept = json.loads(unseal(_secrets(), PURPOSE, kept))
        except (InvalidToken, ValueError):
            return []
    if not isinstance(kept, list):
        return []
    return [token for token in kept if isinstance(token, str)][:RECENT_GAMES]


def keep_recent(tokens: list[str]) -> None:
    """Store ``tokens`` (newest first; the first :data:`RECENT_GAMES` are kept) as this
    device's recent games, sealed. The cookie is left as it is when it holds exactly them
    sealed already, or holds no list and ``tokens`` is empty."""
    tokens = tokens[:RECENT_GAMES]
    kept = session.get(SESSION_KEY)
    if (kept is None and not tokens) or (isinstance(kept, str) and recent_tokens() == tokens):
        return
    secret = _secrets()[0]
    session[SESSION_KEY] = seal(secret, PURPOSE, json.dumps(tokens, separators=(",", ":")).encode())


def remember(edit_token: str) -> None:
    """Put the game of ``edit_token`` first in this device's recent games."""
    keep_recent([edit_token, *(token for token in recent_tokens() if token != edit_token)])
