"""Flask-WTF forms: a new game, a round as the scorer enters it, and the empty form of the
button POSTs (undo).

The forms only collect what happened at the table and turn it into the game document's
objects (shared/spec/game-format.md); the engine decides whether it is legal and scores it.
"""

from __future__ import annotations

import re
import secrets
from typing import Any

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import FieldList, HiddenField, RadioField, SelectField, SelectMultipleField, StringField, SubmitField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import Optional

from . import labels
from .scoring import BUILTIN, Preset, Round
from .scoring.contracts import OUTCOME_FIELDS, SEATS, START_RANKS, TRUMP_SUITS
from .scoring.doubles import refusal

DRAW = "draw"  # the first-declarer choice "draw by lot"
COUNT_PARTS = ("tricks", "queens", "hearts")
SEAT_PARTS = ("ace", "king", "penultimate", "last")
SEAT_CHOICES = [SelectChoice(seat, str(seat)) for seat in range(SEATS)]  # labelled with the players' names in the template


def _strip(value: Any) -> Any:
    return value.strip() if isinstance(value, str) else value


class ButtonForm(FlaskForm):
    """An empty form for button POSTs (undo): only the CSRF token."""


class NewGameForm(FlaskForm):
    """A new game: title, four players clockwise, the first declarer (or a draw), the preset."""

    title = StringField(_l("Title (optional)"), filters=[_strip],
                        description=_l("For example: Thursday, table 2"))
    players = FieldList(StringField(filters=[_strip]), min_entries=SEATS, max_entries=SEATS)
    first_declarer = RadioField(
        _l("Who declares first?"),
        choices=[SelectChoice("0", _l("Player 1")), SelectChoice("1", _l("Player 2")),
                 SelectChoice("2", _l("Player 3")), SelectChoice("3", _l("Player 4")),
                 SelectChoice(DRAW, _l("Draw by lot"))],
        default=DRAW,
    )
    preset = SelectField(_l("Scoring"))
    submit = SubmitField(_l("Start the game"))

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.preset.choices = [SelectChoice(pid, labels.preset_name(p)) for pid, p in BUILTIN.items()]
        # Flagged by to_document() when the first declarer was drawn by lot.
        self.drawn = False

    def to_document(self) -> dict[str, Any]:
        """The game document for services.create_game; draws the first declarer by lot
        (``secrets.randbelow``) when asked to."""
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
        if self.title.data:
            doc["title"] = self.title.data
        return doc

    def add_engine_error(self, path: str, message: str) -> None:
        """Put a ScoringError's message next to the field its ``path`` names."""
        match = re.fullmatch(r"players\[(\d)\]", path)
        if match:
            self.players.entries[int(match.group(1))].errors.append(message)
        elif path in ("title", "first_declarer") or path.startswith("preset"):
            getattr(self, path.split(".")[0]).errors.append(message)
        else:
            self.form_errors.append(message)


class RoundForm(FlaskForm):
    """One round: the contract, its trump suit or starting rank, the outcome parts the
    contract needs, and the doubles grid (checkbox values ``"doubler-doubled"``).

    Only the parts of the chosen contract are shown and read; :meth:`round_document`
    builds the round object, :meth:`add_engine_error` files the engine's refusal next to
    the part it names.
    """

    contract = HiddenField()
    trump = RadioField(_l("Trump suit (optional)"), choices=[SelectChoice(s) for s in TRUMP_SUITS], validators=[Optional()])
    start_rank = RadioField(_l("Starting rank (optional)"), choices=[SelectChoice(r) for r in START_RANKS], validators=[Optional()])
    tricks = FieldList(StringField(filters=[_strip]), min_entries=SEATS, max_entries=SEATS)
    queens = FieldList(StringField(filters=[_strip]), min_entries=SEATS, max_entries=SEATS)
    hearts = FieldList(StringField(filters=[_strip]), min_entries=SEATS, max_entries=SEATS)
    ace = RadioField(choices=SEAT_CHOICES, coerce=int, validators=[Optional()])
    king = RadioField(choices=SEAT_CHOICES, coerce=int, validators=[Optional()])
    penultimate = RadioField(choices=SEAT_CHOICES, coerce=int, validators=[Optional()])
    last = RadioField(choices=SEAT_CHOICES, coerce=int, validators=[Optional()])
    order = FieldList(RadioField(choices=SEAT_CHOICES, coerce=int, validators=[Optional()]),
                      min_entries=SEATS, max_entries=SEATS)
    most = SelectMultipleField(choices=SEAT_CHOICES, coerce=int, validators=[Optional()])
    doubles = SelectMultipleField(validate_choice=False)
    submit = SubmitField(_l("Save round"))

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.group_errors: dict[str, list[str]] = {}

    # -- errors ---------------------------------------------------------------------------

    def add_error(self, group: str | None, message: str) -> None:
        """A message for a field group (``tricks``, ``doubles``, ...) or, with None, the form."""
        if group is None:
            self.form_errors.append(message)
        else:
            self.group_errors.setdefault(group, []).append(message)

    def add_engine_error(self, path: str, message: str) -> None:
        """File a ScoringError by its ``path`` relative to the round (``outcome.tricks[2]``,
        ``doubles[1]``, ``trump``): next to the group it names, else at the top."""
        name = path[len("outcome."):] if path.startswith("outcome.") else path
        group = re.split(r"[\[.]", name, maxsplit=1)[0]
        known = {"contract", "trump", "start_rank", "doubles", *COUNT_PARTS, *SEAT_PARTS, "order", "most"}
        self.add_error(group if group in known else None, message)

    @property
    def has_errors(self) -> bool:
        return bool(self.form_errors or self.group_errors or self.errors)

    # -- reading the form -----------------------------------------------------------------

    def double_pairs(self) -> list[list[int]] | None:
        """The ticked doubles as ``[doubler, doubled]`` pairs in grid order, or None (with
        an error) for a value that is not a pair of seats."""
        pairs = []
        for value in self.doubles.data or []:
            match = re.fullmatch(r"([0-3])-([0-3])", value or "")
            if not match:
                self.add_error("doubles", _("This double is not a pair of players."))
                return None
            pairs.append([int(match.group(1)), int(match.group(2))])
        return sorted(pairs)

    def round_document(self, preset: Preset, players: tuple[str, ...]) -> dict[str, Any] | None:
        """The round object (game-format.md "Round") for services.record_round, or None
        when a count is empty or not a whole number (the errors then name player and part).

        With ``undoubled_negative: split``, a negative contract nobody doubled is not
        played, so no outcome is sent (the engine refuses one)."""
        cid = self.contract.data or ""
        doc: dict[str, Any] = {"contract": cid}
        if cid == "trumps" and self.trump.data:
            doc["trump"] = self.trump.data
        if cid == "domino" and self.start_rank.data:
            doc["start_rank"] = self.start_rank.data
        pairs = self.double_pairs()
        if pairs is None:
            return None
        doc["doubles"] = pairs
        if cid not in preset.contract_ids:
            return doc  # the engine names the problem with the contract
        if not_played(preset, cid, pairs):
            return doc
        outcome: dict[str, Any] = {}
        ok = True
        for part in OUTCOME_FIELDS[cid]:
            if part in COUNT_PARTS:
                counts = []
                for seat, entry in enumerate(getattr(self, part)):
                    text = entry.data or ""
                    if not text.isdigit():
                        self.add_error(part, count_message(part, players[seat], preset.tricks))
                        ok = False
                    else:
                        counts.append(int(text))
                outcome[part] = counts
            elif part == "order":
                order = []
                for place, entry in enumerate(self.order):
                    if entry.data is None:
                        self.add_error("order", _("Choose who went out %(place)s.", place=str(labels.PLACES[place]).lower()))
                        ok = False
                    order.append(entry.data)
                outcome["order"] = order
            elif part == "most":
                outcome["most"] = list(self.most.data or [])
            elif getattr(self, part).data is not None:
                outcome[part] = getattr(self, part).data
            # a seat left unchosen is left out: the engine names the missing part
        if not ok:
            return None
        doc["outcome"] = outcome
        return doc

    # -- filling the form -----------------------------------------------------------------

    @staticmethod
    def data_of(rnd: Round, contract: str, preset: Preset, declarer: int) -> dict[str, Any]:
        """Form data prefilled from a recorded round, for editing it as ``contract``.

        Changing the contract keeps the doubles the new contract allows and drops the rest."""
        positive = not preset.contract(contract).negative
        doubles = [f"{a}-{b}" for a, b in rnd.doubles
                   if refusal(a, b, declarer, positive, preset.doubling) is None]
        data: dict[str, Any] = {"contract": contract, "doubles": doubles}
        if contract != rnd.contract:
            return data
        data["trump"] = rnd.trump
        data["start_rank"] = rnd.start_rank
        for part, value in (rnd.outcome or {}).items():
            if part in COUNT_PARTS:
                data[part] = [str(v) for v in value]
            else:
                data[part] = list(value) if isinstance(value, (list, tuple)) else value
        return data


def not_played(preset: Preset, contract: str, pairs: list) -> bool:
    """True when the preset splits an undoubled negative contract and nobody doubled."""
    return preset.undoubled_negative == "split" and preset.contract(contract).negative and not pairs


def count_message(part: str, player: str, tricks: int) -> str:
    """The form's message for an empty or non-numeric count of ``part`` for ``player``."""
    if part == "tricks":
        return _("%(player)s's tricks: enter a whole number from 0 to %(n)d.", player=player, n=tricks)
    if part == "queens":
        return _("%(player)s's queens: enter a whole number from 0 to 4.", player=player)
    return _("%(player)s's hearts: enter a whole number from 0 to %(n)d.", player=player, n=tricks)


class UndoForm(FlaskForm):
    """The "Undo round N" button: ``number`` is the round the scorer saw as the last one."""

    number = HiddenField()
