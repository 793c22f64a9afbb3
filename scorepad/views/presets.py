"""Scoring presets (German *Wertung*): the built-ins, this device's own presets, the
editor, import and export.

A saved preset belongs to the device that created it: a random device id (192 bits) kept
in the permanent session cookie. Only that device edits or deletes it. The preset's page
is its share link: its id is unguessable, and whoever opens it can view, export, copy it
into their own presets or start a game with a copy. The engine validates every preset
(``parse_preset`` through :mod:`scorepad.services`); its refusals come back next to the
field with status 422.
"""

from __future__ import annotations

from typing import Any

from flask import (Blueprint, Response, abort, flash, jsonify, redirect, render_template, request,
                   session, url_for)
from flask_babel import gettext as _
from jinja2_fragments.flask import render_block

from .. import htmx, labels, security, services
from ..forms import ButtonForm, ImportPresetForm, PresetForm
from ..i18n import error_text
from ..models import StoredPreset
from ..scoring import BUILTIN, Preset, ScoringError, preset_to_dict
from ..scoring.contracts import VALUE_FIELDS, parse_contract
from ..scoring.presets import DECKS

bp = Blueprint("presets", __name__, url_prefix="/presets")

EDITOR = "presets/edit.html"


# -- the device and the presets it may see or change ----------------------------------------

def this_device(create: bool = False) -> str | None:
    """This device's id from the session cookie; with ``create`` a new one is made (and
    the cookie becomes permanent, 400 days) when there is none yet."""
    device = session.get("device")
    if device is None and create:
        device = services.new_device_id()
        session["device"] = device
    if device is not None:
        session.permanent = True
    return device


def readable(preset_id: str) -> tuple[Preset, StoredPreset | None]:
    """A built-in preset (with None) or a saved one (with its row); 404 otherwise."""
    if preset_id in BUILTIN:
        return BUILTIN[preset_id], None
    stored = services.find_preset(preset_id)
    if stored is None:
        abort(404)
    return stored.to_preset(), stored


def editable(preset_id: str) -> StoredPreset:
    """A saved preset this device created; 403 for a built-in or someone else's, 404 for none."""
    if preset_id in BUILTIN:
        abort(403, _("The built-in presets cannot be changed; copy one to make it yours."))
    stored = services.find_preset(preset_id)
    if stored is None:
        abort(404)
    if not services.owns_preset(stored, this_device()):
        abort(403, _("Only the device that created this preset can change it; copy it to make it yours."))
    return stored


def totals(preset: Preset) -> dict[str, Any]:
    """Each contract's total and one declarer's run (points), as the engine computes them."""
    return {"contracts": [(c.id, c.total(preset.deck)) for c in preset.contracts],
            "run": preset.run_total()}


# -- the editor -------------------------------------------------------------------------------

def editor_totals(form: PresetForm) -> dict[str, Any]:
    """The totals the editor shows for what was typed: ``rows`` maps each switched-on
    contract id to its total (None while a value is not a whole number), ``run`` is their
    sum (None while any is unknown, or with no contract)."""
    deck = form.deck.data
    deck = int(deck) if deck in {str(d) for d in DECKS} else 52
    rows: dict[str, int | None] = {}
    for _index, obj in form.included():
        try:
            rows[obj["id"]] = parse_contract(obj, "contract").total(deck)
        except ScoringError:
            rows[obj["id"]] = None
    known = [t for t in rows.values() if t is not None]
    run = sum(known) if rows and len(known) == len(rows) else None
    return {"rows": rows, "run": run}


def render_editor(form: PresetForm, stored: StoredPreset | None, status: int = 200,
                  blocks: list[str] | None = None, **extra: Any) -> Response:
    """The editor page (for htmx: only ``blocks`` of it)."""
    context = {
        "form": form, "stored": stored, "totals": editor_totals(form), "value_fields": VALUE_FIELDS,
        "action": url_for("presets.edit", preset_id=stored.public_id) if stored else url_for("presets.new"),
        **extra,
    }
    if blocks and htmx.is_htmx():
        return htmx.page_or_blocks(EDITOR, blocks, status=status, **context)
    return htmx.vary(Response(render_template(EDITOR, **context), status))


def handle_editor(stored: StoredPreset | None) -> Response:
    """A POST of the editor: a move button (re-render, nothing stored), "Show totals"
    (check with the engine, nothing stored) or Save (303 to the preset; 422 with the
    messages next to the fields)."""
    form = PresetForm()
    form.validate_on_submit()  # CSRF is checked by CSRFProtect; the engine validates the rest
    moved = form.moved()
    if moved is not None:
        moved_to = form.moved_to
        form = PresetForm(formdata=None, data=moved)
        form.moved_to = moved_to
        return render_editor(form, stored, blocks=["contracts_editor"])
    obj = form.preset_object()
    try:
        if form.check.data:
            services.validate_preset(obj, stored.public_id if stored else "new", "preset")
            services.check_notes(form.notes.data, "notes")
            return render_editor(form, stored, checked=True)
        if stored is None:
            refusal = security.too_many_presets(this_device())
            if refusal is not None:
                form.add_problem(None, refusal)
                return render_editor(form, stored, 429)
            stored = services.create_preset(obj, form.notes.data, this_device(create=True),
                                            creator_address=security.address_key())
            flash(_("Saved “%(name)s”. It is offered when you start a new game.", name=stored.name))
        else:
            services.update_preset(stored, obj, form.notes.data)
            flash(_("Saved “%(name)s”. Games already started keep the settings they began with.", name=stored.name))
    except ScoringError as exc:
        form.add_engine_error(exc.path, error_text(exc))
        return render_editor(form, stored, 422)
    return redirect(url_for("presets.show", preset_id=stored.public_id), 303)


@bp.post("/preview")
def preview():
    """htmx, as the editor's values change: each contract's total and the run's sum, as
    out-of-band swaps (nothing is stored)."""
    form = PresetForm()
    body = render_block(EDITOR, "totals_oob", form=form, totals=editor_totals(form))
    return Response(body, mimetype="text/html")


# -- pages ------------------------------------------------------------------------------------

@bp.get("")
def index():
    """The built-in presets and this device's own, with New and Import."""
    mine = [(s, s.to_preset()) for s in services.device_presets(this_device())]
    return render_template("presets/index.html", mine=mine, builtin=list(BUILTIN.values()))


@bp.route("/new", methods=["GET", "POST"])
def new():
    """A new preset: from scratch (the tournament's settings) or a copy of ``?from=<id>``."""
    if request.method == "POST":
        return handle_editor(None)
    source_id = request.args.get("from")
    if source_id:
        source, source_stored = readable(source_id)
        obj = preset_to_dict(source)
        obj["name"] = _("Copy of %(name)s", name=labels.preset_name(source))[:60]
        notes = source_stored.notes if source_stored else "\n".join(str(n) for n in labels.preset_notes(source.id))
    else:
        obj, notes = preset_to_dict(BUILTIN["tournament"]), ""
        obj["name"] = ""
    form = PresetForm(formdata=None, data=PresetForm.data_of(obj, notes))
    return render_editor(form, None)


@bp.get("/<preset_id>")
def show(preset_id: str):
    """A preset: its settings, each contract's total, notes; for its owner Edit and Delete.
    A saved preset's page is its share link."""
    preset, stored = readable(preset_id)
    owner = stored is not None and services.owns_preset(stored, this_device())
    notes = stored.notes if stored else None
    return render_template("presets/show.html", preset=preset, stored=stored, owner=owner,
                           notes=notes, house_notes=labels.preset_notes(preset.id) if stored is None else [],
                           totals=totals(preset))


@bp.route("/<preset_id>/edit", methods=["GET", "POST"])
def edit(preset_id: str):
    """Edit this device's preset (403 for a built-in or another device's preset)."""
    stored = editable(preset_id)
    if request.method == "POST":
        return handle_editor(stored)
    form = PresetForm(formdata=None, data=PresetForm.data_of(stored.preset, stored.notes))
    return render_editor(form, stored)


@bp.route("/<preset_id>/delete", methods=["GET", "POST"])
def delete(preset_id: str):
    """Ask, then delete this device's preset; games started with it keep their copy."""
    stored = editable(preset_id)
    form = ButtonForm()
    if form.validate_on_submit():
        name = stored.name
        services.delete_preset(stored)
        flash(_("Deleted “%(name)s”. Games played with it keep their settings.", name=name))
        return redirect(url_for("presets.index"), 303)
    return render_template("presets/delete.html", stored=stored, form=form)


@bp.get("/<preset_id>/export")
def export(preset_id: str):
    """The preset object of game-format.md as a JSON download."""
    preset, _stored = readable(preset_id)
    response = jsonify(preset_to_dict(preset))
    response.headers["Content-Disposition"] = f'attachment; filename="barbu-preset-{preset.id}.json"'
    return response


@bp.route("/import", methods=["GET", "POST"])
def import_():
    """Import a preset object (pasted JSON or a file) as a new preset of this device."""
    form = ImportPresetForm()
    if form.validate_on_submit():
        try:
            obj = form.preset_json()
            refusal = security.too_many_presets(this_device())
            if refusal is not None:
                form.text.errors = [refusal]
                return render_template("presets/import.html", form=form), 429
            stored = services.create_preset(obj, "", this_device(create=True), path="preset",
                                            creator_address=security.address_key())
        except ValueError as exc:
            if isinstance(exc, ScoringError):
                form.text.errors = [f"{exc.path}: {error_text(exc)}" if exc.path != "preset" else error_text(exc)]
            else:
                field, message = exc.args
                getattr(form, field).errors = [message]
        else:
            flash(_("Imported “%(name)s”.", name=stored.name))
            return redirect(url_for("presets.show", preset_id=stored.public_id), 303)
    status = 422 if form.is_submitted() else 200
    return render_template("presets/import.html", form=form), status
