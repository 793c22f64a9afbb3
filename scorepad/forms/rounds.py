"""Flask-WTF forms: a new game, a round as the scorer enters it, and the empty form of the
button POSTs (undo).

The forms only collect what happened at the table and turn it into the game document's
objects (shared/spec/game-format.md); the engine decides whether it is legal and scores it.
"""

from __future__ import annotations

import json
import re
import secrets
from collections.abc import Sequence
from typing import Any

from babel.lists import format_list
from flask_babel import get_locale, ngettext
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
    SelectField,
    SelectMultipleField,
    StringField,
    SubmitField,
    TextAreaField,
)
from wtforms.fields.choices import SelectChoice
from wtforms.validators import Optional

from .. import labels
from ..i18n import error_text
from ..pages.common import isolated_text
from ..scoring import BUILTIN, Preset, Round
from ..scoring.contracts import OUTCOME_FIELDS, SEATS, START_RANKS, TRUMP_SUITS
from ..scoring.document import known_timezones
from ..scoring.doubles import refusal
from ..scoring.game import not_played
from ..scoring.presets import CONTRACT_DEFAULTS, DEFAULT_DOUBLING, doubling_to_dict
from ..web.json_input import BadJSON, parse_json

DRAW = "draw"  # the first-declarer choice "draw by lot"
COUNT_PARTS = ("tricks", "queens", "hearts")
SEAT_PARTS = ("ace", "king", "penultimate", "last")
SEAT_CHOICES = [
    SelectChoice(seat, str(seat)) for seat in range(SEATS)
]  # labelled with the players' names in the template


#: A whole number as typed or tapped: one to nine ASCII digits (``"²"`` passes ``str.isdigit``
#: and 5,000 digits are more than ``int`` reads; neither is a count or a round number).
WHOLE_NUMBER = re.compile(r"[0-9]{1,9}")


def whole_number(text: Any) -> int | None:
    """``text`` as a whole number (0 or more), or None when it is not one to nine ASCII digits."""
    return int(text) if isinstance(text, str) and WHOLE_NUMBER.fullmatch(text) else None


def _strip(value: Any) -> Any:
    return value.strip() if isinstance(value, str) else value


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


class NewGameForm(FlaskForm):
    """A new game: title, four players clockwise, the first declarer (or a draw), the preset
    and, among more options, the confirmation (off, optional or required)."""

    title = StringField(_l("Title (optional)"), filters=[_strip], description=_l("For example: Thursday, table 2"))
    players = FieldList(StringField(filters=[_strip]), min_entries=SEATS, max_entries=SEATS)
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


class RoundForm(NumberedForm):
    """One round: the contract, its trump suit or starting rank, the outcome parts the
    contract needs, and the doubles grid (checkbox values ``"doubler-doubled"``).

    Only the parts of the chosen contract are shown and read; :meth:`round_document`
    builds the round object, :meth:`add_engine_error` files the engine's refusal next to
    the part it names.
    """

    contract = HiddenField()
    # ``number`` (NumberedForm): the round the phone was recording; a second phone's save of it is a 409
    # The idempotency key of this save (offline.js makes one per round entered): a retry
    # with the same key gets the round already stored, never a second one.
    client_key = HiddenField()
    # The edit form only: the round as it was when the form was opened (services.round_digest); the
    # save is refused if another phone changed, or undid and recorded again, that round meanwhile.
    based_on = HiddenField()
    trump = RadioField(
        _l("Trump suit (optional)"), choices=[SelectChoice(s) for s in TRUMP_SUITS], validators=[Optional()]
    )
    start_rank = RadioField(
        _l("Starting rank (optional)"), choices=[SelectChoice(r) for r in START_RANKS], validators=[Optional()]
    )
    tricks = FieldList(StringField(filters=[_strip]), min_entries=SEATS, max_entries=SEATS)
    queens = FieldList(StringField(filters=[_strip]), min_entries=SEATS, max_entries=SEATS)
    hearts = FieldList(StringField(filters=[_strip]), min_entries=SEATS, max_entries=SEATS)
    ace = RadioField(choices=SEAT_CHOICES, coerce=int, validators=[Optional()])
    king = RadioField(choices=SEAT_CHOICES, coerce=int, validators=[Optional()])
    penultimate = RadioField(choices=SEAT_CHOICES, coerce=int, validators=[Optional()])
    last = RadioField(choices=SEAT_CHOICES, coerce=int, validators=[Optional()])
    # The domino finishing order, one field per place (order-0 = first out); the form
    # shows the first three, the fourth is the player left (see finishing_order).
    order_0 = RadioField(choices=SEAT_CHOICES, coerce=int, validators=[Optional()], name="order-0")
    order_1 = RadioField(choices=SEAT_CHOICES, coerce=int, validators=[Optional()], name="order-1")
    order_2 = RadioField(choices=SEAT_CHOICES, coerce=int, validators=[Optional()], name="order-2")
    order_3 = RadioField(choices=SEAT_CHOICES, coerce=int, validators=[Optional()], name="order-3")
    most = SelectMultipleField(choices=SEAT_CHOICES, coerce=int, validators=[Optional()])
    doubles = SelectMultipleField(validate_choice=False)
    submit = SubmitField(_l("Save round"))

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.group_errors: dict[str, list[str]] = {}

    def validate(self, extra_validators: Any = None) -> bool:
        """The fields' validation, with a message at the top of the form when a choice is none
        of the form's (a seat ``"²"``, a trump suit ``"x"``): WTForms files its own refusal
        on the field, which the round form does not show."""
        valid = super().validate(extra_validators)
        if any(name not in (None, "csrf_token") for name in self.errors):
            self.form_errors.append(_("A choice in this form is not one of its options; choose again."))
        return valid

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
        name = path[len("outcome.") :] if path.startswith("outcome.") else path
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
            # A part left untapped gets one message at the top of its chip group, in the
            # chips' words ("Tap how many queens each player took."), before the engine is asked.
            if part in COUNT_PARTS:
                counts = [whole_number(entry.data) for entry in getattr(self, part)]
                untapped = [players[seat] for seat, count in enumerate(counts) if count is None]
                if untapped:
                    self.add_error(part, count_message(part, untapped))
                    ok = False
                outcome[part] = counts
            elif part == "order":
                order = self.finishing_order(players)
                if order is None:
                    ok = False
                outcome["order"] = order
            elif part == "most":
                outcome["most"] = list(self.most.data or [])
                if not outcome["most"]:
                    self.add_error("most", _("Tap who took the most cards of one suit (everyone tied)."))
                    ok = False
            elif getattr(self, part).data is not None:
                outcome[part] = getattr(self, part).data
            else:
                self.add_error(part, str(SEAT_QUESTIONS[part]))
                ok = False
        if not ok:
            return None
        doc["outcome"] = outcome
        return doc

    @property
    def order(self) -> list[RadioField]:
        """The four domino place fields, first out first."""
        return [self.order_0, self.order_1, self.order_2, self.order_3]

    def finishing_order(self, players: tuple[str, ...]) -> list[int] | None:
        """The domino finishing order (four seats, first out first) from the first three
        places the scorer tapped: the fourth is the one player left, so the form never
        asks for it (a posted ``order-3`` is passed on for the engine to check). None,
        with the error next to the order, when a place is missing or a player is chosen
        for two places."""
        places = [entry.data for entry in self.order]
        if all(place is None for place in places):
            self.add_error("order", _("Tap who went out first, second and third."))
            return None
        for place in range(SEATS - 1):
            if places[place] is None:
                self.add_error("order", str(PLACE_QUESTIONS[place]))
                return None
        first = places[: SEATS - 1]
        for seat in first:
            if first.count(seat) > 1:
                self.add_error(
                    "order",
                    _(
                        "%(name)s is chosen for two places; each player goes out once.",
                        name=isolated_text(players[seat]),
                    ),
                )
                return None
        if places[SEATS - 1] is None:
            places[SEATS - 1] = next(seat for seat in range(SEATS) if seat not in first)
        return places

    # -- filling the form -----------------------------------------------------------------

    @staticmethod
    def data_of(rnd: Round, contract: str, preset: Preset, declarer: int) -> dict[str, Any]:
        """Form data prefilled from a recorded round, for editing it as ``contract``.

        Changing the contract keeps the doubles the new contract allows and drops the rest."""
        positive = not preset.contract(contract).negative
        doubles = [f"{a}-{b}" for a, b in rnd.doubles if refusal(a, b, declarer, positive, preset.doubling) is None]
        data: dict[str, Any] = {"contract": contract, "doubles": doubles}
        if contract != rnd.contract:
            return data
        data["trump"] = rnd.trump
        data["start_rank"] = rnd.start_rank
        for part, value in (rnd.outcome or {}).items():
            if part in COUNT_PARTS:
                data[part] = [str(v) for v in value]
            elif part == "order":
                data.update({f"order_{place}": seat for place, seat in enumerate(value)})
            else:
                data[part] = list(value) if isinstance(value, (list, tuple)) else value
        return data


#: The form's question for each domino place it asks about (the fourth is implied).
PLACE_QUESTIONS = (
    _l("Tap who went out first."),
    _l("Tap who went out second."),
    _l("Tap who went out third."),
)

#: The form's message for each "who took it" chip group left untapped.
SEAT_QUESTIONS = {
    "ace": _l("Tap who took the ace of hearts."),
    "king": _l("Tap who took the king of hearts."),
    "penultimate": _l("Tap who took the second-to-last trick."),
    "last": _l("Tap who took the last trick."),
}


def count_message(part: str, untapped: Sequence[str]) -> str:
    """The one message of a count group (``tricks``, ``queens`` or ``hearts``: a row of number
    chips per player) with no count, or no whole number, for the players ``untapped`` (their
    names, in seat order): "Tap how many queens each player took." when that is all four,
    else "Tap how many queens Beth and Dora took." (the names listed as the language does)."""
    if len(untapped) == SEATS:
        everyone = {
            "tricks": _("Tap how many tricks each player took."),
            "queens": _("Tap how many queens each player took."),
            "hearts": _("Tap how many hearts each player took."),
        }
        return everyone[part]
    names = format_list([isolated_text(name) for name in untapped], locale=get_locale())
    n = len(untapped)  # one name or several: the verb agrees in some languages (German, Dutch)
    if part == "tricks":
        return ngettext("Tap how many tricks %(names)s took.", "Tap how many tricks %(names)s took.", n, names=names)
    if part == "queens":
        return ngettext("Tap how many queens %(names)s took.", "Tap how many queens %(names)s took.", n, names=names)
    return ngettext("Tap how many hearts %(names)s took.", "Tap how many hearts %(names)s took.", n, names=names)


class PutBackForm(NumberedForm):
    """The "Put back round N" button offered after an undo: ``number`` is the round the page offered."""


class UndoForm(NumberedForm):
    """The "Undo round N" button: ``number`` is the round the scorer saw as the last one."""


# -- the preset editor ------------------------------------------------------------------------

DOUBLING_NUMBERS = ("single", "mutual", "quota", "quota_penalty")
#: Points as typed: an optional sign (``-``, ``+`` or a true minus ``−``) and one to nine ASCII
#: digits (``\d`` would take any script's digits, and ``int`` then up to 4,300 of them).
NUMBER_RE = re.compile(r"[+\-\u2212]?[0-9]{1,9}")
#: The value of a move button of the preset editor: a row (at most two digits) and a direction.
MOVE_RE = re.compile(r"([0-9]{1,2})-(up|down)")


def _choices(named: dict[str, Any]) -> list[SelectChoice]:
    return [SelectChoice(value, label) for value, label in named.items()]


def points_from_text(text: Any) -> Any:
    """A typed number of points as an int (``"-2"``, ``"−2"`` with a true minus, ``"+5"``);
    anything else is passed on unchanged, for the engine to refuse naming the field."""
    if isinstance(text, str) and NUMBER_RE.fullmatch(text.strip()):
        return int(text.strip().replace("\u2212", "-"))
    return text


def _text_or_none(value: Any) -> str:
    return "" if value is None else str(value)


class ContractRowForm(Form):
    """One contract in the preset editor: on or off, and its values as typed. The row's
    place in :attr:`PresetForm.contracts` is its place in the preset's order."""

    id = HiddenField()
    on = BooleanField()
    per_trick = StringField(filters=[_strip])
    per_queen = StringField(filters=[_strip])
    penultimate = StringField(filters=[_strip])
    last = StringField(filters=[_strip])
    per_heart = StringField(filters=[_strip])
    ace = StringField(filters=[_strip])
    king = StringField(filters=[_strip])
    penalty = StringField(filters=[_strip])
    places = FieldList(StringField(filters=[_strip]), min_entries=SEATS, max_entries=SEATS)


class PresetForm(FlaskForm):
    """The preset editor: every setting of game-format.md's preset object, the contracts
    on/off in their order, default players and notes.

    The form collects what was typed; :meth:`preset_object` builds the preset object and the
    engine (``parse_preset`` through services) decides what is valid. :meth:`add_engine_error`
    files its refusal next to the field the path names. ``move`` (``"<row>-up"`` or
    ``"<row>-down"``) and ``check`` are the editor's other submit buttons: they re-render
    the form with the rows moved or the totals recomputed, storing nothing.
    """

    name = StringField(_l("Name"), filters=[_strip])
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
        _l("A double multiplies the difference by"), filters=[_strip], default=str(DEFAULT_DOUBLING.single)
    )
    doubling_mutual = StringField(
        _l("A double and redouble multiply it by"), filters=[_strip], default=str(DEFAULT_DOUBLING.mutual)
    )
    doubling_quota = StringField(
        _l("Quota: doubles owed to each declarer"), filters=[_strip], default=str(DEFAULT_DOUBLING.quota)
    )
    doubling_quota_penalty = StringField(
        _l("Quota penalty per missing double (0: only shown)"),
        filters=[_strip],
        default=str(DEFAULT_DOUBLING.quota_penalty),
    )
    undoubled_negative = RadioField(
        _l("A negative contract nobody doubled"),
        choices=_choices(labels.UNDOUBLED),
        default="play",
        validate_choice=False,
    )
    players = FieldList(StringField(filters=[_strip]), min_entries=SEATS, max_entries=SEATS)
    notes = TextAreaField(_l("Notes for the table (house rules that only change the play)"), filters=[_strip])
    contracts = FieldList(
        FormField(ContractRowForm), min_entries=len(CONTRACT_DEFAULTS), max_entries=len(CONTRACT_DEFAULTS)
    )
    move = HiddenField()  # the up/down buttons are submit buttons named "move"
    check = HiddenField()  # the "Show totals" button

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.problems: dict[str, list[str]] = {}
        self.moved_to: int | None = None  # the row a move button just moved (to keep it in view)

    # -- filling ----------------------------------------------------------------------------

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

    # -- reading ----------------------------------------------------------------------------

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

    # -- errors -----------------------------------------------------------------------------

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


class ImportPresetForm(FlaskForm):
    """Import a preset: its JSON (game-format.md's preset object) pasted or as a file."""

    text = TextAreaField(_l("The preset as JSON"), filters=[_strip])
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
