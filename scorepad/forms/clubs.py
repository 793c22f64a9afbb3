"""A club's forms (club-format.md "Club, members, statistics, ladder, rating"): a new club with
its ladder settings, adding, renaming and merging members. A club's new night is a night's
form, in :mod:`scorepad.forms.nights`.

The forms only collect what was typed and build the club's document (``POST /api/v1/clubs``);
the engine (``scorepad.scoring.club``, through :mod:`scorepad.services.clubs`) decides what is valid,
and ``add_engine_error`` puts its refusal next to the field its path names.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import HiddenField, RadioField, SelectField, StringField, SubmitField
from wtforms.fields.choices import SelectChoice

from .common import member_choices, strip, whole_number

#: The ladder's defaults as the form shows them (scoring/club.py DEFAULT_LADDER: best 10 of at least 5 games).
DEFAULT_BEST = "10"
DEFAULT_MIN_GAMES = "5"


def _number_or_text(text: str | None) -> Any:
    """A typed count as an int when it is a whole number, else as typed (the engine refuses it, naming the field)."""
    number = whole_number(text)
    return number if number is not None else (text or "")


class NewClubForm(FlaskForm):
    """A new club: its name and its season ladder (how many results count, the games to qualify,
    by points or by places, the season's first and last day)."""

    name = StringField(_l("Club name"), filters=[strip], description=_l("For example: De Zwarte Koning"))
    best = StringField(
        _l("Results counted"),
        filters=[strip],
        default=DEFAULT_BEST,
        description=_l("Each member’s best games that count for the ladder."),
    )
    min_games = StringField(
        _l("Games to qualify"),
        filters=[strip],
        default=DEFAULT_MIN_GAMES,
        description=_l("Members with fewer games are listed after the qualified ones, unranked."),
    )
    by = RadioField(
        _l("A game scores"),
        choices=[
            SelectChoice("points", _l("Points: the member’s final score.")),
            SelectChoice("places", _l("Places: players beaten at the table (0 to 3).")),
        ],
        default="points",
        validate_choice=False,  # the engine refuses another value, naming the field
    )
    start = StringField(_l("Season from"), filters=[strip], description=_l("Empty: from the first game."))
    end = StringField(_l("Season to"), filters=[strip], description=_l("Empty: no end."))
    submit = SubmitField(_l("Create the club"))

    def to_document(self) -> dict[str, Any]:
        """The club's document (club-format.md ``POST /api/v1/clubs``) for clubs.create_club: the
        counts as whole numbers when typed as such (else as typed), the dates only when given."""
        ladder: dict[str, Any] = {
            "best": _number_or_text(self.best.data),
            "min_games": _number_or_text(self.min_games.data),
            "by": self.by.data,
        }
        if self.start.data:
            ladder["from"] = self.start.data
        if self.end.data:
            ladder["to"] = self.end.data
        return {"name": self.name.data or "", "ladder": ladder}

    def add_engine_error(self, path: str, message: str) -> None:
        """A refusal next to the field its ``path`` names (``name``, ``ladder.best``,
        ``ladder.from``…), else at the top of the form."""
        fields = {
            "name": self.name,
            "ladder.best": self.best,
            "ladder.min_games": self.min_games,
            "ladder.by": self.by,
            "ladder.from": self.start,
            "ladder.to": self.end,
        }
        field = fields.get(path or "")
        if field is not None:
            field.errors.append(message)
        else:
            self.form_errors.append(message)


class MemberForm(FlaskForm):
    """A new member of the club: a name (a player's name rules)."""

    name = StringField(_l("Name"), filters=[strip])
    submit = SubmitField(_l("Add the member"))


class RenameForm(FlaskForm):
    """A member's new name."""

    # Ids of their own: the add-member form on the same page has a field `name` (its label
    # would otherwise focus the other form's field).
    member = SelectField(_l("Member"), validate_choice=False, id="rename-member-id")
    name = StringField(_l("New name"), filters=[strip], id="rename-name")
    submit = SubmitField(_l("Rename"))

    def __init__(self, *args: Any, members: Sequence[tuple[str, str]] = (), **kwargs: Any):
        """``members``: ``(public id, name)`` of the club's members."""
        super().__init__(*args, **kwargs)
        self.member.choices = member_choices(members)


class MergeForm(FlaskForm):
    """Two entries of the same person: ``source`` is merged into ``target`` (its games then
    count for the target; both histories kept). ``confirmed`` is set by the confirm step."""

    source = SelectField(_l("Merge"), validate_choice=False)
    target = SelectField(_l("into"), validate_choice=False)
    confirmed = HiddenField()
    submit = SubmitField(_l("Merge…"))

    def __init__(self, *args: Any, members: Sequence[tuple[str, str]] = (), **kwargs: Any):
        """``members``: ``(public id, name)`` of the club's members."""
        super().__init__(*args, **kwargs)
        self.source.choices = member_choices(members)
        self.target.choices = member_choices(members)
