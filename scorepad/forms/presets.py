"""The preset editor's form (every setting of game-format.md's preset object, the contracts in
their order) and the import of a preset's JSON."""

from __future__ import annotations

import re
from typing import Any

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from flask_wtf.file import FileField
from wtforms import (
    BooleanField,
    FieldList,
    Form,
    FormField,
    HiddenField,
    RadioField,
    StringField,
    SubmitField,
    TextAreaField,
)
from wtforms.fields.choices import SelectChoice

from .. import labels
from ..scoring.contracts import SEATS
from ..scoring.presets import CONTRACT_DEFAULTS, DEFAULT_DOUBLING, doubling_to_dict
from .common import imported_json, points_from_text, strip

DOUBLING_NUMBERS = ("single", "mutual", "quota", "quota_penalty")
#: The value of a move button of the preset editor: a row (at most two digits) and a direction.
MOVE_RE = re.compile(r"([0-9]{1,2})-(up|down)")


def _choices(named: dict[str, Any]) -> list[SelectChoice]:
    return [SelectChoice(value, label) for value, label in named.items()]


def _text_or_none(value: Any) -> str:
    return "" if value is None else str(value)


class ContractRowForm(Form):
    """One contract in the preset editor: on or off, and its values as typed. The row's
    place in :attr:`PresetForm.contracts` is its place in the preset's order."""

    id = HiddenField()
    on = BooleanField()
    per_trick = StringField(filters=[strip])
    per_queen = StringField(filters=[strip])
    penultimate = StringField(filters=[strip])
    last = StringField(filters=[strip])
    per_heart = StringField(filters=[strip])
    ace = StringField(filters=[strip])
    king = StringField(filters=[strip])
    penalty = StringField(filters=[strip])
    places = FieldList(StringField(filters=[strip]), min_entries=SEATS, max_entries=SEATS)


class PresetForm(FlaskForm):
    """The preset editor: every setting of game-format.md's preset object, the contracts
    on/off in their order, default players and notes.

    The form collects what was typed; :meth:`preset_object` builds the preset object and the
    engine (``parse_preset`` through services) decides what is valid. :meth:`add_engine_error`
    files its refusal next to the field the path names. ``move`` (``"<row>-up"`` or
    ``"<row>-down"``) and ``check`` are the editor's other submit buttons: they re-render
    the form with the rows moved or the totals recomputed, storing nothing.
    """

    name = StringField(_l("Name"), filters=[strip])
    deck = RadioField(
        _l("Deck"),
        choices=[SelectChoice("52", _l("52 cards (13 tricks)")), SelectChoice("32", _l("32 cards (8 tricks)"))],
        default="52",
        validate_choice=False,
    )
    chooser = RadioField(
        _l("Who chooses the contract"), choices=_choices(labels.CHOOSERS), default="declarer", validate_choice=False
    )
    rotation = RadioField(
        _l("Declarer rotation"), choices=_choices(labels.ROTATIONS), default="run", validate_choice=False
    )
    doubling_enabled = BooleanField(_l("Doubles are played"), default=DEFAULT_DOUBLING.enabled)
    doubling_target = RadioField(
        _l("Who may be doubled"),
        choices=_choices(labels.DOUBLE_TARGETS),
        default=DEFAULT_DOUBLING.target,
        validate_choice=False,
    )
    doubling_auto_redouble = BooleanField(_l("The declarer redoubles everyone who doubled, without a word"))
    doubling_single = StringField(
        _l("A double multiplies the difference by"), filters=[strip], default=str(DEFAULT_DOUBLING.single)
    )
    doubling_mutual = StringField(
        _l("A double and redouble multiply it by"), filters=[strip], default=str(DEFAULT_DOUBLING.mutual)
    )
    doubling_quota = StringField(
        _l("Quota: doubles owed to each declarer"), filters=[strip], default=str(DEFAULT_DOUBLING.quota)
    )
    doubling_quota_penalty = StringField(
        _l("Quota penalty per missing double (0: only shown)"),
        filters=[strip],
        default=str(DEFAULT_DOUBLING.quota_penalty),
    )
    undoubled_negative = RadioField(
        _l("A negative contract nobody doubled"),
        choices=_choices(labels.UNDOUBLED),
        default="play",
        validate_choice=False,
    )
    players = FieldList(StringField(filters=[strip]), min_entries=SEATS, max_entries=SEATS)
    notes = TextAreaField(_l("Notes for the table (house rules that only change the play)"), filters=[strip])
    contracts = FieldList(
        FormField(ContractRowForm), min_entries=len(CONTRACT_DEFAULTS), max_entries=len(CONTRACT_DEFAULTS)
    )
    move = HiddenField()  # the up/down buttons are submit buttons named "move"
    check = HiddenField()  # the "Show totals" button

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.problems: dict[str, list[str]] = {}
        self.moved_to: int | None = None  # the row a move button just moved (to keep it in view)

    @staticmethod
    def data_of(obj: dict[str, Any], notes: str = "") -> dict[str, Any]:
        """Form data for a preset object (game-format.md): its contracts on, in order, then
        the others off with their default values."""
        doubling = {**doubling_to_dict(DEFAULT_DOUBLING), **obj.get("doubling", {})}
        rows = []
        listed = [c["id"] for c in obj.get("contracts", [])]
        for contract in obj.get("contracts", []):
            rows.append(PresetForm._row(contract["id"], contract, True))
        for cid, values in CONTRACT_DEFAULTS.items():
            if cid not in listed:
                rows.append(PresetForm._row(cid, values, False))
        players = list(obj.get("default_players", [])) or [""] * SEATS
        return {
            "name": obj.get("name", ""),
            "deck": str(obj.get("deck", 52)),
            "chooser": obj.get("chooser", "declarer"),
            "rotation": obj.get("rotation", "run"),
            "doubling_enabled": doubling["enabled"],
            "doubling_target": doubling["target"],
            "doubling_auto_redouble": doubling["auto_redouble"],
            **{f"doubling_{key}": str(doubling[key]) for key in DOUBLING_NUMBERS},
            "undoubled_negative": obj.get("undoubled_negative", "play"),
            "players": players,
            "notes": notes,
            "contracts": rows,
        }

    @staticmethod
    def _row(cid: str, values: dict[str, Any], on: bool) -> dict[str, Any]:
        row: dict[str, Any] = {"id": cid, "on": on}
        for field, value in values.items():
            if field == "places":
                row["places"] = [_text_or_none(v) for v in value]
            elif field != "id":
                row[field] = _text_or_none(value)
        return row

    def rows(self) -> list[dict[str, Any]]:
        """The contract rows as typed, in the editor's order."""
        return [entry.form.data for entry in self.contracts]

    def moved(self) -> dict[str, Any] | None:
        """The form's data with one contract moved up or down (the ``move`` button), or None
        when no move was asked for. A ``move`` that is not one of the editor's buttons
        (``"²-up"``, 5,000 digits, the first row up) is a problem at the top of the form
        (see :attr:`has_problems`), with None."""
        if not self.move.data:
            return None
        match = MOVE_RE.fullmatch(self.move.data)
        rows = self.rows()
        index = int(match.group(1)) if match else -1
        other = index - 1 if match and match.group(2) == "up" else index + 1
        if not (0 <= index < len(rows) and 0 <= other < len(rows)):
            self.add_problem(None, _("This contract cannot be moved that way."))
            return None
        rows[index], rows[other] = rows[other], rows[index]
        data = {key: value for key, value in self.data.items() if key not in ("csrf_token", "move", "check")}
        data["contracts"] = rows
        self.moved_to = other
        return data

    def included(self) -> list[tuple[int, dict[str, Any]]]:
        """``(row index, contract object)`` of each contract switched on, in order, with the
        typed values converted to points where they are whole numbers."""
        out = []
        for index, row in enumerate(self.rows()):
            if not row.get("on") or row.get("id") not in CONTRACT_DEFAULTS:
                continue
            contract: dict[str, Any] = {"id": row["id"]}
            for field in CONTRACT_DEFAULTS[row["id"]]:
                if field == "places":
                    # An empty place is left out: the engine then says all four are needed.
                    contract["places"] = [points_from_text(p) for p in row["places"] if p not in (None, "")]
                else:
                    contract[field] = points_from_text(row.get(field) or "")
            out.append((index, contract))
        return out

    def preset_object(self) -> dict[str, Any]:
        """The preset object (game-format.md "Preset", without ``id``) of what was typed."""
        players = [entry.data or "" for entry in self.players]
        return {
            "name": self.name.data or "",
            "deck": points_from_text(self.deck.data or ""),
            "chooser": self.chooser.data,
            "rotation": self.rotation.data,
            "contracts": [contract for _, contract in self.included()],
            "doubling": {
                "enabled": bool(self.doubling_enabled.data),
                "target": self.doubling_target.data,
                "auto_redouble": bool(self.doubling_auto_redouble.data),
                **{key: points_from_text(getattr(self, f"doubling_{key}").data or "") for key in DOUBLING_NUMBERS},
            },
            "undoubled_negative": self.undoubled_negative.data,
            "default_players": players if any(players) else [],
        }

    def add_problem(self, key: str | None, message: str) -> None:
        """A message next to the field with id ``key`` (``name``, ``contracts-2-per_trick``,
        ``players-1``, ``contracts``), or at the top of the form with None."""
        if key is None:
            self.form_errors.append(message)
        else:
            self.problems.setdefault(key, []).append(message)

    def add_engine_error(self, path: str, message: str) -> None:
        """File a ScoringError of the preset object (path ``preset.contracts[1].places[2]``,
        ``preset.doubling.quota``, ``notes``) next to the editor field it names."""
        name = path[len("preset.") :] if path.startswith("preset.") else path
        rows = [index for index, _ in self.included()]
        match = re.fullmatch(r"contracts\[(\d+)\](?:\.(\w+))?(?:\[(\d+)\])?", name)
        if match and int(match.group(1)) < len(rows):
            row = rows[int(match.group(1))]
            field = match.group(2)
            key = f"contracts-{row}" if field in (None, "id") else f"contracts-{row}-{field}"
            self.add_problem(key, message)
            return
        match = re.fullmatch(r"default_players\[(\d)\]", name)
        if match:
            self.add_problem(f"players-{match.group(1)}", message)
        elif name == "default_players":
            self.add_problem("players", message)
        elif name.startswith("doubling."):
            self.add_problem("doubling_" + name.split(".", 1)[1], message)
        elif name in ("name", "deck", "chooser", "rotation", "undoubled_negative", "contracts", "notes"):
            self.add_problem(name, message)
        else:
            self.add_problem(None, message)

    def problems_of(self, key: str) -> list[str]:
        """The messages filed next to field ``key``."""
        return self.problems.get(key, [])

    @property
    def has_problems(self) -> bool:
        return bool(self.problems or self.form_errors)


class ImportPresetForm(FlaskForm):
    """Import a preset: its JSON (game-format.md's preset object) pasted or as a file."""

    text = TextAreaField(_l("The preset as JSON"), filters=[strip])
    file = FileField(_l("… or a .json file"))
    submit = SubmitField(_l("Import"))

    def preset_json(self) -> Any:
        """The parsed JSON of the file, else of the text. Raises :class:`UnreadableImport`
        naming the field (``"text"`` or ``"file"``)."""
        upload = self.file.data
        raw, field = (
            (upload.read(), "file") if upload and getattr(upload, "filename", "") else (self.text.data or "", "text")
        )
        return imported_json(raw, field, _("Paste a preset's JSON or choose its file."))
