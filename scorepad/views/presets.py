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

from flask import Blueprint, Response, current_app, flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _
from jinja2_fragments.flask import render_block

from .. import labels
from ..forms.common import ButtonForm, UnreadableImport
from ..forms.presets import ImportPresetForm, PresetForm
from ..i18n import error_text
from ..models import StoredPreset
from ..pages.common import isolated_text
from ..scoring import BUILTIN, Preset, ScoringError, preset_to_dict
from ..scoring.contracts import VALUE_FIELDS, parse_contract
from ..scoring.presets import DECKS, rounds_in_game, run_total_of
from ..services import presets
from ..web import htmx
from ..web.device import address_key, device_id
from ..web.downloads import send_download
from ..web.errors import accepted, refusals_on
from ..web.limits import PRESET_SAVES, limit
from ..web.loaders import preset_to_edit, preset_to_read

bp = Blueprint("presets", __name__, url_prefix="/presets")

EDITOR = "presets/edit.html"


def totals(preset: Preset) -> dict[str, Any]:
    """Each contract's total and one declarer's run (points), as the engine computes them."""
    return {"contracts": [(c.id, c.total(preset.deck)) for c in preset.contracts], "run": preset.run_total()}


def editor_totals(form: PresetForm) -> dict[str, Any]:
    """The totals the editor shows for what was typed: ``rows`` maps each switched-on
    contract id to its total (None while a value is not a whole number), ``run`` is their
    sum (None while any is unknown, or with no contract), ``rounds`` a game's rounds with
    these contracts (the engine's :func:`~scorepad.scoring.presets.run_total_of` and
    :func:`~scorepad.scoring.presets.rounds_in_game`)."""
    deck = form.deck.data
    deck = int(deck) if deck in {str(d) for d in DECKS} else 52
    rows: dict[str, int | None] = {}
    for _index, obj in form.included():
        contract = accepted(lambda: parse_contract(obj, "contract"))  # noqa: B023 (called at once)
        rows[obj["id"]] = None if contract is None else contract.total(deck)
    return {"rows": rows, "run": run_total_of(list(rows.values())), "rounds": rounds_in_game(len(rows))}


def render_editor(
    form: PresetForm, stored: StoredPreset | None, status: int = 200, blocks: list[str] | None = None, **extra: Any
) -> Response:
    """The editor page (for htmx: only ``blocks`` of it)."""
    context = {
        "form": form,
        "stored": stored,
        "totals": editor_totals(form),
        "value_fields": VALUE_FIELDS,
        "action": url_for("presets.edit", preset_id=stored.public_id) if stored else url_for("presets.new"),
        **extra,
    }
    if blocks and htmx.is_htmx():
        return htmx.page_or_blocks(EDITOR, blocks, status=status, **context)
    return htmx.vary(Response(render_template(EDITOR, **context), status))


def handle_editor(stored: StoredPreset | None) -> ResponseReturnValue:
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
    if form.has_problems:  # a move that is none of the editor's buttons: nothing is stored
        return render_editor(form, stored, 422)
    obj = form.preset_object()
    with refusals_on(form):
        if form.check.data:
            presets.validate_preset(obj, stored.public_id if stored else "new", "preset")
            presets.check_notes(form.notes.data, "notes")
            return render_editor(form, stored, checked=True)
        if stored is None:
            stored = presets.create_preset(obj, form.notes.data, device_id(create=True), creator_address=address_key())
            flash(_("Saved “%(name)s”. It is offered when you start a new game.", name=isolated_text(stored.name)))
        else:
            presets.update_preset(stored, obj, form.notes.data)
            flash(
                _(
                    "Saved “%(name)s”. Games already started keep the settings they began with.",
                    name=isolated_text(stored.name),
                )
            )
        return redirect(url_for("presets.show", preset_id=stored.public_id), 303)
    return render_editor(form, stored, 422)


def editor_at_limit(message: str) -> Response | None:
    """The editor's answer to a Save beyond the preset limit: 429, the reason at the top and
    what was typed kept. None for a button that stores nothing (a move, "Show totals")."""
    form = PresetForm()
    form.validate_on_submit()
    if form.moved() is not None or form.has_problems or form.check.data:
        return None
    form.add_problem(None, message)
    return render_editor(form, None, 429)


@bp.post("/preview")
def preview():
    """htmx, as the editor's values change: each contract's total and the run's sum, as
    out-of-band swaps (nothing is stored)."""
    form = PresetForm()
    body = render_block(EDITOR, "totals_oob", form=form, totals=editor_totals(form))
    return Response(body, mimetype="text/html")


@bp.get("")
def index():
    """The built-in presets and this device's own, with New and Import."""
    mine = [(s, s.to_preset()) for s in presets.device_presets(device_id())]
    return render_template("presets/index.html", mine=mine, builtin=list(BUILTIN.values()))


@bp.route("/new", methods=["GET", "POST"])
@limit(PRESET_SAVES, refuse=editor_at_limit)
def new():
    """A new preset: from scratch (the tournament's settings) or a copy of ``?from=<id>``."""
    if request.method == "POST":
        return handle_editor(None)
    source_id = request.args.get("from")
    if source_id:
        source, source_stored = preset_to_read(source_id)
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
    preset, stored = preset_to_read(preset_id)
    owner = stored is not None and presets.owns_preset(stored, device_id())
    notes = stored.notes if stored else None
    return render_template(
        "presets/show.html",
        preset=preset,
        stored=stored,
        owner=owner,
        notes=notes,
        house_notes=labels.preset_notes(preset.id) if stored is None else [],
        totals=totals(preset),
    )


@bp.route("/<preset_id>/edit", methods=["GET", "POST"])
def edit(preset_id: str):
    """Edit this device's preset (403 for a built-in or another device's preset)."""
    stored = preset_to_edit(preset_id)
    if request.method == "POST":
        return handle_editor(stored)
    # The engine's reading of the row (to_preset), not the raw row: text stored before the
    # text rules comes back safe to show (scoring.text.stored_text).
    form = PresetForm(formdata=None, data=PresetForm.data_of(preset_to_dict(stored.to_preset()), stored.notes))
    return render_editor(form, stored)


@bp.route("/<preset_id>/delete", methods=["GET", "POST"])
def delete(preset_id: str):
    """Ask, then delete this device's preset; games started with it keep their copy."""
    stored = preset_to_edit(preset_id)
    form = ButtonForm()
    if form.validate_on_submit():
        name = stored.name
        presets.delete_preset(stored)
        flash(_("Deleted “%(name)s”. Games played with it keep their settings.", name=isolated_text(name)))
        return redirect(url_for("presets.index"), 303)
    return render_template("presets/delete.html", stored=stored, form=form)


@bp.get("/<preset_id>/export")
def export(preset_id: str):
    """The preset object of game-format.md as a JSON download."""
    preset, _stored = preset_to_read(preset_id)
    body = current_app.json.dumps(preset_to_dict(preset)).encode()
    return send_download(body, "application/json", f"barbu-preset-{preset.id}.json")


def import_at_limit(message: str) -> tuple[str, int] | None:
    """The import page's answer to a preset beyond the limit: 429 with the reason next to the
    field. None while the form or its JSON is wrong (the page says what, with 422)."""
    form = ImportPresetForm()
    if not form.validate_on_submit():
        return None
    if accepted(form.preset_json, UnreadableImport) is None:
        return None
    form.text.errors = [message]
    return render_template("presets/import.html", form=form), 429


@bp.route("/import", methods=["GET", "POST"])
@limit(PRESET_SAVES, refuse=import_at_limit)
def import_():
    """Import a preset object (pasted JSON or a file) as a new preset of this device."""
    form = ImportPresetForm()
    if form.validate_on_submit():
        try:
            obj = form.preset_json()
            stored = presets.create_preset(
                obj, "", device_id(create=True), path="preset", creator_address=address_key()
            )
        except ScoringError as exc:
            form.text.errors = [f"{exc.path}: {error_text(exc)}" if exc.path not in ("", "preset") else error_text(exc)]
        except UnreadableImport as exc:
            getattr(form, exc.field).errors = [exc.message]
        else:
            flash(_("Imported “%(name)s”.", name=isolated_text(stored.name)))
            return redirect(url_for("presets.show", preset_id=stored.public_id), 303)
    status = 422 if form.is_submitted() else 200
    return render_template("presets/import.html", form=form), status
