"""Saved presets: create, change, delete and find them; the devices that own them."""

from __future__ import annotations

import hmac
import secrets
from typing import Any

from sqlalchemy import func, select

from ..extensions import db
from ..models import (
    StoredPreset,
    token_digest,
    utcnow,
)
from ..scoring import BUILTIN, Preset, ScoringError, parse_preset, preset_to_dict
from ..scoring.errors import N_
from ..scoring.text import clean_text, stored_text
from ..tokens import TOKEN_BYTES as TOKEN_BYTES  # the size of every token (192 bits), for callers that check a shape
from ..tokens import new_token


def saved_notes(preset_id: str) -> str | None:
    """The notes of the saved preset ``preset_id`` (a game's preset id), made safe to show
    (:func:`~scorepad.scoring.text.stored_text`), or None for a built-in id (no lookup) or a
    preset that no longer exists."""
    if preset_id in BUILTIN:
        return None
    stored = find_preset(preset_id)
    return stored_text(stored.notes, multiline=True) if stored is not None else None


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


def preset_token_fits(stored: StoredPreset, token: str) -> bool:
    """True when ``token`` is the preset's edit token (its digest compared in constant time)."""
    return bool(token) and hmac.compare_digest(stored.edit_digest, token_digest(token))
