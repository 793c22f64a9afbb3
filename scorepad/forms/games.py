"""A new game's forms: the game typed in (players, first declarer, preset, confirmation), and a
game document imported from its file (game-format.md)."""

from __future__ import annotations

import re
import secrets
from collections.abc import Sequence
from typing import Any

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from flask_wtf.file import FileField
from wtforms import FieldList, HiddenField, RadioField, SelectField, StringField, SubmitField
from wtforms.fields.choices import SelectChoice

from ..scoring import BUILTIN
from ..scoring.contracts import SEATS
from ..scoring.document import known_timezones
from .common import CONFIRMATION_HELP, UnreadableImport, confirmation_field, imported_json, preset_choices, strip

DRAW = "draw"  # the first-declarer choice "draw by lot"


class NewGameForm(FlaskForm):
    """A new game: title, four players clockwise, the first declarer (or a draw), the preset
    and, among more options, the confirmation (off, optional or required)."""

    title = StringField(_l("Title (optional)"), filters=[strip], description=_l("For example: Thursday, table 2"))
    players = FieldList(StringField(filters=[strip]), min_entries=SEATS, max_entries=SEATS)
    first_declarer = RadioField(
        _l("Who declares first?"),
        choices=[
            SelectChoice("0", _l("Player 1")),
            SelectChoice("1", _l("Player 2")),
            SelectChoice("2", _l("Player 3")),
            SelectChoice("3", _l("Player 4")),
            SelectChoice(DRAW, _l("Draw by lot")),
        ],
        default=DRAW,
    )
    preset = SelectField(_l("Scoring"))
    confirmation = confirmation_field()
    confirmation_help = CONFIRMATION_HELP
    # The phone's local date (YYYY-MM-DD) and IANA time zone, filled in by presets.js as the
    # form is sent; without JavaScript both stay empty and the server dates the game.
    date = HiddenField()
    timezone = HiddenField()
    submit = SubmitField(_l("Start the game"))

    def __init__(self, *args: Any, saved: Sequence[Any] = (), **kwargs: Any):
        """``saved``: this device's saved presets (StoredPreset rows), offered after the built-ins."""
        super().__init__(*args, **kwargs)
        presets = dict(BUILTIN.items())
        presets.update({s.public_id: s.to_preset() for s in saved})
        # The default players of each preset, for the prefill (and presets.js on a change).
        self.default_players = {pid: list(p.default_players) for pid, p in presets.items()}

        self.preset.choices = preset_choices(saved)
        # Flagged by to_document() when the first declarer was drawn by lot.
        self.drawn = False

    def prefill(self, preset_id: str | None) -> None:
        """Select ``preset_id`` (a built-in or one of the offered saved presets) and put its
        default players into the empty player fields; an unknown id is ignored."""
        if preset_id not in self.default_players:
            return
        self.preset.data = preset_id
        defaults = self.default_players[preset_id]
        if defaults and not any(entry.data for entry in self.players):
            for entry, name in zip(self.players, defaults, strict=True):
                entry.data = name

    def to_document(self) -> dict[str, Any]:
        """The game document for services.create_game; draws the first declarer by lot
        (``secrets.randbelow``) when asked to. Carries the phone's ``date`` and a known
        ``timezone`` when it sent them."""
        if self.first_declarer.data == DRAW:
            first = secrets.randbelow(SEATS)
            self.drawn = True
        else:
            first = int(self.first_declarer.data)
        doc: dict[str, Any] = {
            "players": [entry.data or "" for entry in self.players],
            "first_declarer": first,
            "preset": self.preset.data,
            "rounds": [],
        }
        if self.confirmation.data:
            doc["confirmation"] = self.confirmation.data
        if self.title.data:
            doc["title"] = self.title.data
        if self.date.data:
            doc["date"] = self.date.data  # the engine checks it: a bad one is a form error
        # A zone the server does not know (a browser may say "Etc/Unknown") is not the
        # scorer's to fix: the game is then dated as without one, not refused.
        if self.timezone.data in known_timezones():
            doc["timezone"] = self.timezone.data
        return doc

    def add_engine_error(self, path: str, message: str) -> None:
        """Put a ScoringError's message next to the field its ``path`` names."""
        match = re.fullmatch(r"players\[(\d)\]", path)
        if match:
            self.players.entries[int(match.group(1))].errors.append(message)
        elif path in ("title", "first_declarer", "confirmation") or path.startswith("preset"):
            getattr(self, path.split(".")[0]).errors.append(message)
        else:
            self.form_errors.append(message)


class ImportGameForm(FlaskForm):
    """Import a game document (game-format.md; an export with results is fine, they are
    recomputed) from a .json file: it starts a new game with new links."""

    file = FileField(_l("Game file (.json)"))
    submit = SubmitField(_l("Import the game"))

    def game_json(self) -> Any:
        """The parsed JSON of the uploaded file. Raises :class:`UnreadableImport` for the file
        field: no file, not UTF-8, or not JSON the scorepad reads (see
        :func:`scorepad.web.json_input.parse_json`)."""
        upload = self.file.data
        if not upload or not getattr(upload, "filename", ""):
            raise UnreadableImport("file", _("Choose a game file (.json) to import."))
        return imported_json(upload.read(), "file", _("The file is empty."))
