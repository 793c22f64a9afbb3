"""The scorer's round forms: one round as entered (contract, outcome parts, doubles grid) and the
undo and put-back buttons, each naming the round the page showed.

The form only collects what happened at the table and builds the round object
(game-format.md "Round"); the engine decides whether it is legal and scores it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from babel.lists import format_list
from flask_babel import get_locale, ngettext
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from wtforms import FieldList, HiddenField, RadioField, SelectMultipleField, StringField, SubmitField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import Optional

from ..pages.common import isolated_text
from ..scoring import Preset, Round
from ..scoring.contracts import GIVEN_PLACES, OUTCOME_FIELDS, SEATS, START_RANKS, TRUMP_SUITS, implied_place
from ..scoring.doubles import refusal
from ..scoring.game import not_played
from .common import NumberedForm, strip, whole_number

COUNT_PARTS = ("tricks", "queens", "hearts")
SEAT_PARTS = ("ace", "king", "penultimate", "last")
SEAT_CHOICES = [
    SelectChoice(seat, str(seat)) for seat in range(SEATS)
]  # labelled with the players' names in the template


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
    tricks = FieldList(StringField(filters=[strip]), min_entries=SEATS, max_entries=SEATS)
    queens = FieldList(StringField(filters=[strip]), min_entries=SEATS, max_entries=SEATS)
    hearts = FieldList(StringField(filters=[strip]), min_entries=SEATS, max_entries=SEATS)
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
        for place in range(GIVEN_PLACES):
            if places[place] is None:
                self.add_error("order", str(PLACE_QUESTIONS[place]))
                return None
        first = places[:GIVEN_PLACES]
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
        if places[GIVEN_PLACES] is None:
            places[GIVEN_PLACES] = implied_place(first)
        return places

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
