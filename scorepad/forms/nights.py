"""A club night's forms (club-format.md "Club night", "Director"): the organiser's new night, a
club's new night with its members ticked, a hand change to the seating, a director's adjustment.

The forms only collect what was typed and build the night's document
(``barbu-scorepad/event@1``); the engine (``scorepad.scoring.night``, through
:mod:`scorepad.services.nights`) decides what is valid, and :meth:`NewEventForm.add_engine_error` puts its
refusal next to the field its path names.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import HiddenField, RadioField, SelectField, SelectMultipleField, StringField, SubmitField, TextAreaField
from wtforms.fields.choices import SelectChoice

from ..scoring.document import known_timezones
from .common import (
    CONFIRMATION_HELP,
    confirmation_field,
    member_choices,
    points_from_text,
    preset_choices,
    strip,
    whole_number,
)

#: How many games each player plays in a night: club-format.md "Club night" (``sessions``: 1 to 6).
SESSION_CHOICES = tuple(range(1, 7))
#: A pasted list's bullet or number before a name ("- Anne", "• Beth", "3. Cath", "4) Diana").
LIST_MARKER = re.compile(r"^(?:[-*•·–]\s*|\d{1,3}[.)]\s+)")
#: The most lines read from the players' box: the engine refuses more than 200 players, naming them.
MAX_LINES = 1000


def player_lines(text: str | None) -> list[tuple[int, str]]:
    """The names of the players' box as ``(line number, name)``, 1-based: one name a line,
    blank lines skipped, a pasted list's bullet or number dropped (a line holding only a
    marker or a number stays, for the engine to refuse)."""
    names = []
    for number, line in enumerate((text or "").splitlines()[:MAX_LINES], start=1):
        name = line.strip()
        if not name:
            continue
        names.append((number, LIST_MARKER.sub("", name, count=1) or name))
    return names


#: The help of each confirmation choice on the new-night form: a required night also waits
#: for every round to be checked before it closes.
NIGHT_CONFIRMATION_HELP = {
    **CONFIRMATION_HELP,
    "required": _l(
        "Every round must be checked before the night can close; until then, the results show as provisional."
    ),
}


class NewEventForm(FlaskForm):
    """A new club night: title, date, preset, sessions, ranking, the players present and the
    confirmation every table takes (off, optional or required)."""

    title = StringField(_l("Title"), filters=[strip], description=_l("For example: Thursday club night"))
    # The night's date, today by default; event.js puts the phone's own date in it when the page
    # opens and sends the phone's time zone with it.
    date = StringField(_l("Date"), filters=[strip])
    timezone = HiddenField()
    preset = SelectField(_l("Scoring"), description=_l("Every table plays it."))
    sessions = SelectField(
        _l("Sessions"),
        choices=[SelectChoice(str(n), str(n)) for n in SESSION_CHOICES],
        default="2",
        description=_l("How many games each player plays tonight: one game at a table each session."),
        validate_choice=False,  # the engine refuses another number, naming the field
    )
    ranking = RadioField(
        _l("Ranking"),
        choices=[
            SelectChoice("points", _l("By points: average points per game played.")),
            SelectChoice("places", _l("By places: players beaten at each table, then points.")),
        ],
        default="points",
        validate_choice=False,
    )
    players = TextAreaField(
        _l("Players present"),
        description=_l("One name a line; pasting a list works."),
    )
    confirmation = confirmation_field()
    confirmation_help = NIGHT_CONFIRMATION_HELP
    submit = SubmitField(_l("Create the night"))

    def __init__(self, *args: Any, saved: Sequence[Any] = (), **kwargs: Any):
        """``saved``: this device's saved presets (StoredPreset rows), offered after the built-ins."""
        super().__init__(*args, **kwargs)
        self.preset.choices = preset_choices(saved)
        if self.preset.data is None and self.preset.choices:
            self.preset.data = self.preset.choices[0].value

    def names(self) -> list[tuple[int, str]]:
        """The players typed, as ``(line number, name)`` (:func:`player_lines`)."""
        return player_lines(self.players.data)

    def to_document(self) -> dict[str, Any]:
        """The night's document (club-format.md ``POST /api/v1/events``) for services.nights.create_night.
        ``sessions`` is a whole number when typed as one, else passed on for the engine to
        refuse; the phone's time zone only when the server knows it (as a new game's)."""
        sessions = whole_number(self.sessions.data)
        doc: dict[str, Any] = {
            "format": "barbu-scorepad/event@1",
            "preset": self.preset.data,
            "sessions": sessions if sessions is not None else self.sessions.data,
            "ranking": self.ranking.data,
            "players": [name for _, name in self.names()],
        }
        if self.confirmation.data:
            doc["confirmation"] = self.confirmation.data
        if self.title.data:
            doc["title"] = self.title.data
        if self.date.data:
            doc["date"] = self.date.data
        if self.timezone.data in known_timezones():
            doc["timezone"] = self.timezone.data
        return doc

    def add_engine_error(self, path: str, message: str) -> None:
        """Put a ScoringError's message next to the field its ``path`` names: ``players[3]``
        names the line of that player (``Line 5: …``), ``preset.…`` the preset, the other
        fields by name; anything else goes at the top of the form."""
        match = re.fullmatch(r"players\[(\d+)\].*", path or "")
        names = self.names()
        if match and int(match.group(1)) < len(names):
            line, name = names[int(match.group(1))]
            self.players.errors.append(
                _("Line %(line)d (%(name)s): %(message)s", line=line, name=name, message=message)
            )
            return
        field = (path or "").split(".")[0].split("[")[0]
        if field in ("title", "date", "preset", "sessions", "ranking", "players", "confirmation"):
            getattr(self, field).errors.append(message)
        elif field == "timezone":
            self.date.errors.append(message)
        else:
            self.form_errors.append(message)


class ClubNightForm(NewEventForm):
    """A new club night for a club: the members present ticked (checkboxes, in the club's
    order), the other players typed one a line (they become members), then the night's
    settings as any night's (:class:`NewEventForm`)."""

    present = SelectMultipleField(_l("Members present"), validate_choice=False)
    players = TextAreaField(
        _l("Other players"),
        description=_l("One name a line: they become members of the club."),
    )

    def __init__(self, *args: Any, members: Sequence[tuple[str, str]] = (), **kwargs: Any):
        """``members``: ``(public id, name)`` of the club's members, offered as present."""
        super().__init__(*args, **kwargs)
        self.members = list(members)
        self.present.choices = member_choices(self.members)

    def ticked(self) -> list[str]:
        """The names of the members ticked as present, in the club's order (an id that is no
        member's is ignored)."""
        ticked = set(self.present.data or [])
        return [name for mid, name in self.members if mid in ticked]

    def names(self) -> list[tuple[int, str]]:
        """The night's players as ``(line number, name)``: the members ticked (line 0), then the
        names typed (their line in the box)."""
        return [(0, name) for name in self.ticked()] + player_lines(self.players.data)

    def add_engine_error(self, path: str, message: str) -> None:
        """As a night's (:meth:`NewEventForm.add_engine_error`), a ticked member's refusal
        naming them next to the members' boxes."""
        match = re.fullmatch(r"players\[(\d+)\].*", path or "")
        ticked = self.ticked()
        if match and int(match.group(1)) < len(ticked):
            name = ticked[int(match.group(1))]
            self.present.errors = [*self.present.errors, f"{name}: {message}"]
            return
        super().add_engine_error(path, message)


class AdjustmentForm(FlaskForm):
    """A director's adjustment: a player of the night, points (a sign allowed, a true minus
    too) and the reason, shown on the results."""

    player = SelectField(_l("Player"), validate_choice=False)
    points = StringField(_l("Points"), filters=[strip], description=_l("For example −10 or 5"))
    reason = StringField(_l("Reason"), filters=[strip])
    submit = SubmitField(_l("Add the adjustment"))

    def __init__(self, *args: Any, players: Sequence[str] = (), **kwargs: Any):
        """``players``: the night's names, in its order (the choice's value is the index)."""
        super().__init__(*args, **kwargs)
        self.player.choices = [SelectChoice(str(i), name) for i, name in enumerate(players)]

    def values(self) -> tuple[Any, Any, str]:
        """``(player, points, reason)`` for events.add_adjustment: whole numbers when typed as
        such, else passed on as typed for the service to refuse naming the field."""
        player = whole_number(self.player.data)
        return (
            player if player is not None else self.player.data,
            points_from_text(self.points.data or ""),
            self.reason.data or "",
        )

    def add_engine_error(self, path: str, message: str) -> None:
        """A refusal next to ``player``, ``points`` or ``reason``, else at the top."""
        field = (path or "").split(".")[0].split("[")[0]
        if field in ("player", "points", "reason"):
            getattr(self, field).errors.append(message)
        else:
            self.form_errors.append(message)


class SwapForm(FlaskForm):
    """The organiser's hand change to the seating: in one session, two players trade places
    (a seat or a sit-out)."""

    session = SelectField(_l("Session"), validate_choice=False)
    first = SelectField(_l("Player"), validate_choice=False)
    second = SelectField(_l("Trades places with"), validate_choice=False)
    submit = SubmitField(_l("Swap"))

    def __init__(self, *args: Any, sessions: int = 1, players: Sequence[str] = (), **kwargs: Any):
        """``sessions``: the night's number of sessions; ``players``: its names, in its order."""
        super().__init__(*args, **kwargs)
        self.session.choices = [SelectChoice(str(n), str(n)) for n in range(1, sessions + 1)]
        choices = [SelectChoice(str(i), name) for i, name in enumerate(players)]
        self.first.choices = choices
        self.second.choices = choices

    def values(self) -> tuple[int, int, int] | None:
        """``(session, first, second)`` as whole numbers, or None (with a message at the top of
        the form) when one is not: such a form came from no page of ours."""
        numbers = [whole_number(field.data) for field in (self.session, self.first, self.second)]
        if None in numbers:
            self.form_errors.append(_("Choose a session and two players."))
            return None
        session, first, second = (int(n or 0) for n in numbers)
        return session, first, second
