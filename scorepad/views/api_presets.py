"""JSON API ``/api/v1/presets``: the built-in presets (read-only) and saved presets in the
preset object of shared/spec/game-format.md.

A saved preset's id is unguessable (128 bits): knowing it lets a client read it and start
games with it (``"preset": "<id>"`` in ``POST /api/v1/games``). Changing or deleting it
needs the preset's edit token, returned once when it is created, as
``Authorization: Bearer <token>``. Built-ins answer 403 to any change.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, jsonify, url_for

from ..extensions import csrf
from ..models import StoredPreset
from ..scoring import BUILTIN, Preset, preset_to_dict
from ..services.presets import create_preset, delete_preset, update_preset
from ..web.device import address_key
from ..web.errors import json_errors
from ..web.json_input import body, created
from ..web.limits import PRESET_SAVES, limit
from ..web.loaders import api_preset_to_write, preset_to_read

bp = Blueprint("api_presets", __name__, url_prefix="/api/v1")
csrf.exempt(bp)  # bearer tokens, not cookies, authorise the API
json_errors(bp)


def payload(preset: Preset, stored: StoredPreset | None) -> dict[str, Any]:
    """What the API answers for a preset: ``id``, ``builtin``, ``preset`` (the spec's
    object, usable as a game's ``preset``), ``notes``, each contract's ``totals`` and
    the ``run_total`` of one declarer's run (points), and ``links``."""
    return {
        "id": preset.id,
        "builtin": stored is None,
        "preset": preset_to_dict(preset),
        "notes": stored.notes if stored else "",
        "totals": {c.id: c.total(preset.deck) for c in preset.contracts},
        "run_total": preset.run_total(),
        "round_count": preset.round_count,
        "links": {
            "api": url_for("api_presets.preset", preset_id=preset.id, _external=True),
            "page": url_for("presets.show", preset_id=preset.id, _external=True),
        },
    }


def parts(doc: Any) -> tuple[Any, Any, str]:
    """A request body as ``(preset object, notes, path of the object)``: either the preset
    object itself (an optional ``"notes"`` beside its fields is taken out) or
    ``{"preset": {...}, "notes": "..."}``, the shape the API answers with."""
    if isinstance(doc, dict) and isinstance(doc.get("preset"), dict):
        return doc["preset"], doc.get("notes", ""), "preset"
    if isinstance(doc, dict):
        doc = dict(doc)
        notes = doc.pop("notes", "")
        for key in ("builtin", "totals", "run_total", "round_count", "links"):
            doc.pop(key, None)  # tolerated, so that a GET's answer can be sent back
        return doc, notes, ""
    return doc, "", ""


@bp.get("/presets")
def presets():
    """The built-in presets (saved presets are listed only to the device that made them)."""
    return jsonify(presets=[payload(p, None) for p in BUILTIN.values()])


@bp.post("/presets")
@limit(PRESET_SAVES)
def create():
    """Save a new preset → 201 with its id and edit token (shown only here)."""
    obj, notes, path = parts(body())
    stored = create_preset(obj, notes, None, path=path, notes_path="notes", creator_address=address_key())
    return created({**payload(stored.to_preset(), stored), "edit_token": stored.edit_token})


@bp.get("/presets/<preset_id>")
def preset(preset_id: str):
    """A built-in or saved preset."""
    return jsonify(payload(*preset_to_read(preset_id, f"no preset called {preset_id!r}")))


@bp.put("/presets/<preset_id>")
def replace(preset_id: str):
    """Replace a saved preset's settings and notes (its id stays; games keep their copy)."""
    stored = api_preset_to_write(preset_id)
    obj, notes, path = parts(body())
    update_preset(stored, obj, notes, path=path, notes_path="notes")
    return jsonify(payload(stored.to_preset(), stored))


@bp.delete("/presets/<preset_id>")
def delete(preset_id: str):
    """Delete a saved preset → 204 (games started with it keep their copy)."""
    delete_preset(api_preset_to_write(preset_id))
    return "", 204
