"""What the game's record of changes shows (club-format.md "Trust: confirmation and
history"): the marks of the rounds on the board, the scorer's page and the printed sheet, the
"edited twice, last at 21:14" of a corrected round, the history page and the sheet's footnotes.

Everything is arranged from the game's history rows (:func:`scorepad.services.history.game_history`, oldest
first), its rounds' statuses and the engine's rounds; nothing here writes or decides a rule. Times
are shown in the players' time zone (the game's ``timezone``; UTC without one) in the page
language's time format.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import TYPE_CHECKING, Any
from zoneinfo import ZoneInfo

from babel.dates import format_date, format_time
from flask_babel import get_locale, ngettext
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l

from ..scoring import Game, Round
from ..scoring.game import declarer_of
from ..scoring.trust import Edits, aware_utc, round_edits, shown_status
from .common import isolated_text, zone_named
from .rounds import contract_words, points_line, round_changes, round_words

if TYPE_CHECKING:
    from ..models import StoredHistory

#: The marks a round can carry, in the order the legends list them, each with its symbol (the
#: mark is the symbol and words together: the words are read out, and written in the legend).
MARK_SYMBOLS = {"provisional": "○", "confirmed": "✓", "disputed": "!", "edited": "✎"}
MARK_WORDS = {
    "provisional": _l("provisional: not checked yet"),
    "confirmed": _l("confirmed by another player"),
    "disputed": _l("disputed"),
    "edited": _l("changed after it was recorded"),
}
#: Who made a change, by the role of the token (club-format.md "Trust": ``by``).
ROLE_NAMES = {"scorer": _l("The scorer"), "witness": _l("The other player"), "director": _l("The director")}
#: The actions that show someone checks the game's rounds.
CHECKS = ("confirm", "dispute")


def clock(moment: datetime, zone: ZoneInfo | None) -> str:
    """``moment`` as the players' clock showed it ("21:14", "9:14 PM"): their zone, the
    page language's short time format."""
    return format_time(aware_utc(moment), "short", tzinfo=zone or UTC, locale=get_locale())


def local_day(moment: datetime, zone: ZoneInfo | None) -> date:
    """The players' calendar day of ``moment``."""
    return aware_utc(moment).astimezone(zone or UTC).date()


def checking(confirmation: str, rows: Sequence[StoredHistory]) -> bool:
    """Whether someone checks this game's rounds, so that a round not yet checked is marked
    provisional: the game's ``confirmation`` is ``required``, or any of its rounds was ever
    confirmed or disputed (its history ``rows`` say so, undone rounds' included). Never with
    ``off``: every round then counts as confirmed (scoring.trust.shown_status). The one place
    that decides it, for the board, the scorer’s page and the sheet (:func:`trust_part`)."""
    if confirmation == "off":
        return False
    return confirmation == "required" or any(row.action in CHECKS for row in rows)


def edited_text(edits: Edits, zone: ZoneInfo | None) -> str:
    """A corrected round's line: "edited once, last at 21:14", "edited twice, …",
    "edited 3 times, …" (the players' clock: :func:`clock`)."""
    time = clock(edits.last_at, zone)
    if edits.count == 1:
        return _("edited once, last at %(time)s", time=time)
    if edits.count == 2:
        return _("edited twice, last at %(time)s", time=time)
    return ngettext(
        "edited %(num)d time, last at %(time)s", "edited %(num)d times, last at %(time)s", edits.count, time=time
    )


@dataclass(frozen=True)
class RoundMarks:
    """What a round's row shows: ``status`` (the mark ``provisional``, ``confirmed`` or
    ``disputed``; None for no mark) and ``edited`` ("edited twice, last at 21:14"; None for a
    round not changed since it was recorded)."""

    status: str | None
    edited: str | None

    @property
    def kinds(self) -> tuple[str, ...]:
        """The marks shown, in :data:`MARK_SYMBOLS` order."""
        return tuple(kind for kind in (self.status, "edited" if self.edited else None) if kind)


@dataclass(frozen=True)
class Trust:
    """The marks of a game's rounds: ``checking`` (:func:`checking`), ``rounds`` (round number →
    :class:`RoundMarks`, for the rounds with a mark), ``legend`` (the kinds of mark shown,
    in :data:`MARK_SYMBOLS` order, for the legend under the table) and ``unsettled``: the
    standings are provisional, not final, because a round is disputed or the game requires
    confirmation and a round is not confirmed yet (the scorer's page and the board then say
    "Standings *", not "Final standings")."""

    checking: bool
    rounds: Mapping[int, RoundMarks]
    legend: tuple[str, ...]
    unsettled: bool = False

    def of(self, number: int) -> RoundMarks | None:
        """Round ``number``'s marks, or None."""
        return self.rounds.get(number)

    @property
    def edited(self) -> list[tuple[int, str]]:
        """The rounds changed since they were recorded, in order: (number, "edited twice, last at 21:14")."""
        return [(number, marks.edited) for number, marks in sorted(self.rounds.items()) if marks.edited]

    @staticmethod
    def symbol(kind: str) -> str:
        """A mark's symbol (:data:`MARK_SYMBOLS`)."""
        return MARK_SYMBOLS[kind]

    @staticmethod
    def words(kind: str) -> str:
        """A mark's words, translated (:data:`MARK_WORDS`)."""
        return str(MARK_WORDS[kind])


def round_mark(status: str, watched: bool) -> str | None:
    """The mark of a round whose status is ``status`` (as shown: scoring.trust.shown_status): a
    disputed round always; a provisional one, and a quiet tick for a confirmed one, only while
    someone checks (``watched``)."""
    if status == "disputed" or watched:
        return status
    return None


def trust_part(
    confirmation: str, statuses: Sequence[str], rows: Sequence[StoredHistory], zone: ZoneInfo | None
) -> Trust:
    """The marks of every round: ``statuses[i]`` is round ``i + 1``'s stored status, ``rows`` the
    game's history oldest first (:func:`scorepad.services.history.game_history`), ``confirmation`` the
    game's setting, ``zone`` the players' time zone."""
    watched = checking(confirmation, rows)
    edits = round_edits(list(rows))
    marks: dict[int, RoundMarks] = {}
    for number, status in enumerate(statuses, start=1):
        mark = round_mark(shown_status(confirmation, status), watched)
        edited = edited_text(edits[number], zone) if number in edits else None
        if mark or edited:
            marks[number] = RoundMarks(mark, edited)
    shown = {kind for m in marks.values() for kind in m.kinds}
    unsettled = "disputed" in shown or (confirmation == "required" and "provisional" in shown)
    return Trust(watched, marks, tuple(kind for kind in MARK_SYMBOLS if kind in shown), unsettled)


def round_of(obj: Mapping[str, Any]) -> Round:
    """The engine's :class:`~scorepad.scoring.Round` of a round object stored in the history
    (game-format.md "Round", checked when it was written): only to say it in words."""
    doubles = tuple((int(pair[0]), int(pair[1])) for pair in obj.get("doubles", ()))
    return Round(str(obj.get("contract", "")), doubles, obj.get("outcome"), obj.get("trump"), obj.get("start_rank"))


def contract_text(obj: Mapping[str, Any]) -> str:
    """A stored round's contract in words: "No Queens", "Trumps (♥ Hearts)", "Domino
    (starting rank: 7)" (:func:`~.rounds.contract_words`)."""
    return contract_words(round_of(obj))


@dataclass(frozen=True)
class Entry:
    """One line of the history page: ``at`` (aware UTC), ``time`` (the players' clock),
    ``day`` (their calendar day), ``who`` (the role, in words), ``what`` (the change in one
    sentence), ``changes`` (the lines under it, :func:`entry_words`), ``note`` (a dispute's
    note) and ``action``, ``number`` (the round, or None)."""

    at: datetime
    time: str
    day: date
    who: str
    what: str
    changes: tuple[str, ...]
    note: str | None
    action: str
    number: int | None


def entry_words(game: Game, row: StoredHistory) -> tuple[str, tuple[str, ...]]:
    """What history ``row`` did, in the reader's language: one sentence, and the lines under
    it. A round recorded, undone (what the undo removed), confirmed or disputed: the round's
    outcome and points as it was then (:func:`~.rounds.round_words`: "Recorded round 3: No
    Queens, declarer Marc" with "Queens: Anne 1, …" and "Points: Anne −6, …"). An edit: the
    parts that changed and the points before → after ("Changed round 2" with "♥A: Beth →
    Marc" and "Points: Anne −6 → −10, …")."""
    n = row.round or 0
    name = isolated_text(game.players[declarer_of(game.preset, game.first_declarer, n - 1)]) if n else ""
    if n and row.action == "record" and row.after is not None:
        said = _(
            "Recorded round %(n)d: %(contract)s, declarer %(name)s", n=n, contract=contract_text(row.after), name=name
        )
        return said, round_words(game, n, round_of(row.after)).lines
    if n and row.action == "edit" and row.before is not None and row.after is not None:
        old, new = round_of(row.before), round_of(row.after)
        changes = round_changes(old, new, game.players, declarer_of_round(game, n))
        points = points_line(game.players, round_words(game, n, new).totals, round_words(game, n, old).totals)
        return _("Changed round %(n)d", n=n), (*changes, points)
    if n and row.action == "undo" and row.before is not None:
        said = _(
            "Undid round %(n)d: %(contract)s, declarer %(name)s", n=n, contract=contract_text(row.before), name=name
        )
        return said, round_words(game, n, round_of(row.before)).lines
    checked = round_words(game, n, round_of(row.after)).lines if n and row.after is not None else ()
    if row.action == "confirm":
        return _("Confirmed round %(n)d", n=n), checked
    if row.action == "dispute":
        return _("Disputed round %(n)d", n=n), checked
    if row.action == "import":
        count = len((row.after or {}).get("rounds", ()))
        return ngettext("Imported the game with %(num)d round", "Imported the game with %(num)d rounds", count), ()
    if row.action == "close":
        return _("Closed the club night"), ()
    if row.action == "reopen":
        return _("Reopened the club night"), ()
    return row.action, ()


def declarer_of_round(game: Game, number: int) -> int:
    """The seat that declares round ``number`` (1-based) of ``game``: the schedule's, whatever the contract."""
    return declarer_of(game.preset, game.first_declarer, number - 1)


def history_entries(game: Game, rows: Sequence[StoredHistory], zone: ZoneInfo | None) -> list[Entry]:
    """The history page's lines, one per row of ``rows`` (the game's history, oldest first), in
    that order."""
    entries = []
    for row in rows:
        what, changes = entry_words(game, row)
        entries.append(
            Entry(
                at=aware_utc(row.at),
                time=clock(row.at, zone),
                day=local_day(row.at, zone),
                who=str(ROLE_NAMES.get(row.by, row.by)),
                what=what,
                changes=changes,
                note=row.note if row.action == "dispute" else None,
                action=row.action,
                number=row.round,
            )
        )
    return entries


def history_page(game: Game, rows: Sequence[StoredHistory], zone_name: str | None) -> dict[str, Any]:
    """The history page's template variables: ``game``, ``players``, ``days`` (the entries
    of :func:`history_entries` oldest first, in runs of one calendar day of the players:
    ``{"date": date, "day": the date in words, "entries": [...]}``), ``count`` (entries), ``zone`` (the
    time zone's name as the page states it, "UTC" without one) and ``before_record`` (the game
    has rounds but no history: it was started before changes were recorded).

    Oldest first, as a club's appeal reads it: what was recorded, then each change to it."""
    zone = zone_named(zone_name)
    entries = history_entries(game, rows, zone)
    days: list[dict[str, Any]] = []
    for entry in entries:
        if not days or days[-1]["date"] != entry.day:
            days.append({"date": entry.day, "day": format_date(entry.day, "full", locale=get_locale()), "entries": []})
        days[-1]["entries"].append(entry)
    return {
        "game": game,
        "players": game.players,
        "days": days,
        "count": len(entries),
        "zone": zone_name if zone is not None else "UTC",
        "before_record": not rows and bool(game.rounds),
    }


def corrections(rows: Sequence[StoredHistory]) -> dict[int, tuple[dict[str, Any], dict[str, Any]]]:
    """Each round changed since it was last recorded: round number → (the round as recorded,
    the round after its last edit), from the history ``rows`` oldest first. A record, an undo
    or an import starts the round afresh."""
    spans: dict[int, tuple[dict[str, Any], dict[str, Any]]] = {}
    for row in rows:
        if row.action == "import":
            spans.clear()
        elif row.action in ("record", "undo") and row.round is not None:
            spans.pop(row.round, None)
        elif row.action == "edit" and row.round is not None and row.before is not None and row.after is not None:
            first = spans[row.round][0] if row.round in spans else row.before
            spans[row.round] = (first, row.after)
    return spans


def last_disputes(rows: Sequence[StoredHistory]) -> dict[int, StoredHistory]:
    """The last dispute of each round, from the history ``rows`` oldest first."""
    return {row.round: row for row in rows if row.action == "dispute" and row.round is not None}


def sheet_notes(
    game: Game, confirmation: str, statuses: Sequence[str], rows: Sequence[StoredHistory], zone: ZoneInfo | None
) -> list[str]:
    """The sheet's footnotes, in round order: one per round changed after it was recorded
    ("Round 2 was changed twice after it was recorded, last at 21:14: ♥A: Beth → Marc", what
    changed from the round as recorded to the round as it stands; every step is on the history
    page) and one per disputed round ("Round 3 is disputed (21:20): “…”")."""
    edits = round_edits(list(rows))
    spans = corrections(rows)
    disputes = last_disputes(rows)
    notes = []
    for number, status in enumerate(statuses, start=1):
        if number in edits:
            count, time = edits[number].count, clock(edits[number].last_at, zone)
            if count == 1:
                said = _("Round %(n)d was changed once after it was recorded, last at %(time)s", n=number, time=time)
            elif count == 2:
                said = _("Round %(n)d was changed twice after it was recorded, last at %(time)s", n=number, time=time)
            else:
                said = ngettext(
                    "Round %(n)d was changed %(num)d time after it was recorded, last at %(time)s",
                    "Round %(n)d was changed %(num)d times after it was recorded, last at %(time)s",
                    count,
                    n=number,
                    time=time,
                )
            if number in spans:
                old, new = spans[number]
                changes = round_changes(round_of(old), round_of(new), game.players, declarer_of_round(game, number))
                back = _("back as it was recorded")  # outside the f-string, where pybabel finds it
                said = f"{said}: {'; '.join(changes) if changes else back}"
            notes.append(said)
        if shown_status(confirmation, status) == "disputed" and number in disputes:
            row = disputes[number]
            time = clock(row.at, zone)
            if row.note:
                notes.append(_("Round %(n)d is disputed (%(time)s): “%(note)s”", n=number, time=time, note=row.note))
            else:
                notes.append(_("Round %(n)d is disputed (%(time)s).", n=number, time=time))
    return notes
