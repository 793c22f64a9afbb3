"""What several subjects' forms use: the field filter and number readers, the button forms, the
preset and confirmation choices, and the reader of an import's JSON."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import HiddenField, RadioField
from wtforms.fields.choices import SelectChoice

from .. import labels
from ..i18n import error_text
from ..scoring import BUILTIN, Preset
from ..web.json_input import BadJSON, parse_json

#: A whole number as typed or tapped: one to nine ASCII digits (``"²"`` passes ``str.isdigit``
#: and 5,000 digits are more than ``int`` reads; neither is a count or a round number).
WHOLE_NUMBER = re.compile(r"[0-9]{1,9}")


def whole_number(text: Any) -> int | None:
    """``text`` as a whole number (0 or more), or None when it is not one to nine ASCII digits."""
    return int(text) if isinstance(text, str) and WHOLE_NUMBER.fullmatch(text) else None


def strip(value: Any) -> Any:
    """A text field's filter: the text without the spaces around it; anything else as it is."""
    return value.strip() if isinstance(value, str) else value


#: Points as typed: an optional sign (``-``, ``+`` or a true minus ``−``) and one to nine ASCII
#: digits (``\d`` would take any script's digits, and ``int`` then up to 4,300 of them).
NUMBER_RE = re.compile(r"[+\-\u2212]?[0-9]{1,9}")


def points_from_text(text: Any) -> Any:
    """A typed number of points as an int (``"-2"``, ``"−2"`` with a true minus, ``"+5"``);
    anything else is passed on unchanged, for the engine to refuse naming the field."""
    if isinstance(text, str) and NUMBER_RE.fullmatch(text.strip()):
        return int(text.strip().replace("\u2212", "-"))
    return text


class NumberedForm(FlaskForm):
    """A form whose hidden ``number`` names the round the page showed (empty: none). A
    ``number`` that is not a whole number (``"²"``, 5,000 digits) came from no page of
    ours: the form is invalid, with a message at its top, rather than read as no number
    (which would skip the check that the round is still the one the scorer saw)."""

    number = HiddenField()

    def validate(self, extra_validators: Any = None) -> bool:
        """The fields' validation, and ``number`` empty or a whole number."""
        valid = super().validate(extra_validators)
        if self.number.data and whole_number(self.number.data) is None:
            self.form_errors.append(_("The round number of this page is not a whole number; reload the page."))
            return False
        return valid


class ButtonForm(FlaskForm):
    """An empty form for button POSTs (undo): only the CSRF token."""


def preset_choices(saved: Sequence[Any] = ()) -> list[SelectChoice]:
    """The preset choices of a new game or club night: the built-ins, then ``saved`` (this
    device's StoredPreset rows), each option carrying its default players (``data-players``)."""

    def choice(pid: str, preset: Preset, group: Any) -> SelectChoice:
        players = {"data-players": json.dumps(list(preset.default_players))} if preset.default_players else {}
        return SelectChoice(pid, labels.preset_name(preset), render_kw=players, optgroup=str(group))

    builtin_group, saved_group = _l("Built-in presets"), _l("Your presets")
    return [choice(pid, p, builtin_group) for pid, p in BUILTIN.items()] + [
        choice(s.public_id, s.to_preset(), saved_group) for s in saved
    ]


#: A game's or a club night's confirmation (club-format.md "Trust"), one line of help each.
CONFIRMATION_CHOICES = (
    SelectChoice("off", _l("Off")),
    SelectChoice("optional", _l("Optional")),
    SelectChoice("required", _l("Required")),
)
CONFIRMATION_HELP = {
    "off": _l("Nobody checks the rounds."),
    "optional": _l("Another player may check each round on their phone."),
    "required": _l("Every round must be checked; until it is, the results show as provisional."),
}


def confirmation_field() -> RadioField:
    """The confirmation choice of a new game or club night: off, optional (the default) or
    required; another value is passed on for the engine to refuse, naming the field."""
    return RadioField(
        _l("Confirmation by another player"),
        choices=list(CONFIRMATION_CHOICES),
        default="optional",
        validate_choice=False,
    )


def member_choices(members: Sequence[tuple[str, str]]) -> list[SelectChoice]:
    """A club's members as choices: ``(public id, name)`` pairs, in the club's order."""
    return [SelectChoice(mid, name) for mid, name in members]


class UnreadableImport(ValueError):
    """An import whose file or text cannot be read as JSON (missing, not UTF-8, not JSON):
    ``message`` for the form's ``field`` (``"text"`` or ``"file"``), in the request's language.
    Its own type, so that the views never show another error's text (Python's words)."""

    def __init__(self, field: str, message: str):
        super().__init__(field, message)
        self.field = field
        self.message = message


def imported_json(raw: str | bytes, field: str, empty: str) -> Any:
    """The JSON of an import form's file (bytes) or pasted text: UTF-8, with or without the
    byte order mark that some editors (Windows Notepad) write first. Raises
    :class:`UnreadableImport` for ``field``: not UTF-8, blank (with the message ``empty``),
    or not JSON the scorepad reads (see :func:`scorepad.web.json_input.parse_json`). The one
    reader of the game and preset imports."""
    if isinstance(raw, bytes):
        try:
            raw = raw.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise UnreadableImport(field, _("The file is not UTF-8 text.")) from None
    raw = raw.removeprefix("\ufeff")  # pasted text may start with one too
    if not raw.strip():
        raise UnreadableImport(field, empty)
    try:
        return parse_json(raw)
    except BadJSON as exc:
        raise UnreadableImport(field, error_text(exc)) from None
