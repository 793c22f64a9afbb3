"""Capability tokens: making one, deriving one from another, sealing a value with one.

A game is reached by links that carry a token: its edit token (the scorer's page) and its
view token (the board, the sheet). The database keeps only their digests
(:func:`scorepad.models.token_digest`), so a leaked backup opens no game. What must be shown
again (the view link on the scorer's page, in the share box and its QR code) is computed from
the token the reader holds: :func:`derive_token`. A value that cannot be derived (the random
view token of a game started before tokens were derived, already on screens and printed QR
codes) is kept sealed with a key only the parent token gives: :func:`seal` and :func:`unseal`
(the `cryptography` library's Fernet: AES-128-CBC with HMAC-SHA256, a random IV per value).

Only the standard library and ``cryptography``: no Flask, no database.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from collections.abc import Sequence

from cryptography.fernet import Fernet, InvalidToken, MultiFernet
from cryptography.hazmat.primitives.hashes import SHA256
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

TOKEN_BYTES = 24  # 192 bits, URL-safe base64: 32 characters

__all__ = ["TOKEN_BYTES", "InvalidToken", "derive_token", "new_token", "seal", "unseal"]


def new_token() -> str:
    """An unguessable capability token (192 random bits, URL-safe base64: 32 characters)."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def derive_token(parent: str, purpose: str) -> str:
    """The token for ``purpose`` that whoever holds ``parent`` computes again, and nobody
    else: HMAC-SHA256 keyed with ``parent`` over ``purpose``, its first 24 bytes in URL-safe
    base64 without padding (32 characters of ``A-Z a-z 0-9 - _``, like :func:`new_token`).

    It is one-way: the derived token tells nothing about ``parent`` (finding ``parent`` from
    it is as hard as guessing ``parent``), and tokens of different purposes tell nothing about
    each other. So the database keeps neither, only their digests, and the holder of the
    parent sees the derived link again whenever they need it.

    This is the one place capabilities are derived. Purposes in use:

    - ``"view"``: a game's view token from its edit token
      (:func:`scorepad.services.games.view_token_of`; games started before it have a sealed random one),
      and a club night's view token from its director token (:mod:`scorepad.services.nights`, #14);
    - ``"table:<session>:<table>"`` (both 1-based, e.g. ``"table:2:3"``): a club night's table,
      its game's edit token from the night's director token
      (:func:`scorepad.services.nights.table_token`), and its game's view token from the night's view
      token (:func:`scorepad.services.nights.table_view_token`; the game keeps that one sealed with its
      edit token, as a game started before derived view tokens keeps its random one), so that
      the night's board links every table's board;
    - ``"confirm"``: a club night table's confirm token from its edit token (#14 shows it on
      the table cards; #15 gives every game one and checks it).

    A later capability derives from its parent here, with its own purpose. A purpose keeps its
    meaning and its spelling forever: changing it would change every link already shared."""
    mac = hmac.new(parent.encode(), purpose.encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(mac[:TOKEN_BYTES]).decode("ascii")


def _fernet(secret: str | bytes, purpose: str) -> Fernet:
    """A Fernet keyed with HKDF-SHA256 of ``secret`` for ``purpose`` (one key per purpose)."""
    material = secret.encode() if isinstance(secret, str) else secret
    key = HKDF(algorithm=SHA256(), length=32, salt=None, info=f"scorepad seal: {purpose}".encode()).derive(material)
    return Fernet(base64.urlsafe_b64encode(key))


def seal(secret: str | bytes, purpose: str, data: bytes) -> str:
    """``data`` encrypted and authenticated with a key derived from ``secret`` for
    ``purpose`` (a Fernet token: URL-safe base64 text, ``4 * ceil((57 + 16 * (len(data) // 16 + 1)) / 3)``
    characters: 140 for 32 bytes). Only :func:`unseal` with the same secret and purpose opens
    it. The format is kept: values sealed once stay in databases and cookies."""
    return _fernet(secret, purpose).encrypt(data).decode("ascii")


def unseal(secret: str | bytes | Sequence[str | bytes], purpose: str, sealed: str) -> bytes:
    """The data :func:`seal` sealed with ``secret`` (or any of a sequence of secrets: the
    current key first, then the ones rotated out) for ``purpose``. Raises
    :class:`~cryptography.fernet.InvalidToken` when it does not open: another secret or
    purpose, an altered value, or not a sealed value at all."""
    secrets_ = [secret] if isinstance(secret, str | bytes) else list(secret)
    return MultiFernet([_fernet(s, purpose) for s in secrets_]).decrypt(sealed.encode("ascii", "replace"))
