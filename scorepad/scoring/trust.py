"""Trust at the table (club-format.md "Trust: confirmation and history"): how a game asks
for its rounds to be checked, each round's status, and its history replayed.

A second phone (the *witness*, holding the game's confirm token) confirms or disputes each
round the scorer records. Whether that is asked for is the game's ``confirmation``:

- ``off``: nobody checks; every round exports as ``confirmed``, confirm and dispute are refused;
- ``optional`` (the default): a witness may check; nothing waits for it;
- ``required``: a club night cannot be closed while a round is unconfirmed, and its
  leaderboard shows results that count an unconfirmed round as provisional.

A round's status: ``provisional`` when recorded, and again whenever it is changed;
``confirmed`` or ``disputed`` once the witness says so.

Every change is appended to the game's history, never removed: :func:`replay` rebuilds the
game's rounds and their statuses from it, which is how a disputed score is settled later.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from .errors import N_, ScoringError
from .text import clean_text

#: A game's (or a club night's) ``confirmation`` values, and the default.
CONFIRMATION: tuple[str, ...] = ("off", "optional", "required")
DEFAULT_CONFIRMATION = "optional"
#: A round's ``status`` values; a round is :data:`PROVISIONAL` until the witness checks it.
PROVISIONAL, CONFIRMED, DISPUTED = "provisional", "confirmed", "disputed"
STATUSES: tuple[str, ...] = (PROVISIONAL, CONFIRMED, DISPUTED)
#: A history entry's ``action`` values: changes of one round, then whole-game ones (``round`` null).
ROUND_ACTIONS: tuple[str, ...] = ("record", "edit", "undo", "confirm", "dispute")
GAME_ACTIONS: tuple[str, ...] = ("import", "close", "reopen")
ACTIONS: tuple[str, ...] = ROUND_ACTIONS + GAME_ACTIONS
#: Who made a change: the role of the token it came with (the edit token is the scorer's,
#: the confirm token the witness's, a club night's director token the director's).
SCORER, WITNESS, DIRECTOR = "scorer", "witness", "director"
ROLES: tuple[str, ...] = (SCORER, WITNESS, DIRECTOR)
#: The longest dispute note, in characters.
MAX_NOTE = 200


def aware_utc(moment: datetime) -> datetime:
    """``moment`` as an aware UTC datetime: a time read back from a database (a history entry's
    ``at``), which SQLite returns naive (in UTC) and PostgreSQL aware."""
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def parse_confirmation(obj: Any, path: str = "confirmation") -> str:
    """A game's or a club night's ``confirmation``: one of :data:`CONFIRMATION`, or
    :data:`DEFAULT_CONFIRMATION` for None (absent). Raises :class:`ScoringError` at ``path``."""
    if obj is None:
        return DEFAULT_CONFIRMATION
    if not isinstance(obj, str) or obj not in CONFIRMATION:
        raise ScoringError(path, N_("confirmation is one of %(choices)s"), choices=", ".join(CONFIRMATION))
    return obj


def parse_note(obj: Any, path: str = "note") -> str | None:
    """A dispute's note: text by the rules of :mod:`.text` (NFC, trimmed, no control
    character), at most :data:`MAX_NOTE` characters; None for none or an empty one (a
    dispute may say nothing more). Raises :class:`ScoringError` at ``path``."""
    if obj is None:
        return None
    text = clean_text(obj, path, MAX_NOTE, too_long_message=N_("the note is longer than %(limit)d characters"))
    return text or None


def shown_status(confirmation: str, status: str) -> str:
    """The status a round shows and exports: ``confirmed`` for every round of a game whose
    ``confirmation`` is ``off`` (nobody is asked to check it), else its own ``status``."""
    return CONFIRMED if confirmation == "off" else status


def checks_open(confirmation: str) -> bool:
    """True when a witness may confirm or dispute this game's rounds (not ``off``)."""
    return confirmation != "off"


def counts_as_provisional(confirmation: str, statuses: Sequence[str]) -> bool:
    """True when a result built on rounds of these ``statuses`` is provisional (club-format.md
    "Leaderboard"): the game requires confirmation and a round of it is not confirmed."""
    return confirmation == "required" and any(status != CONFIRMED for status in statuses)


@dataclass(frozen=True)
class Replayed:
    """One round as the history leaves it: the ``round`` object of game-format.md (contract,
    doubles, outcome, trump or starting rank), its ``status`` and the dispute ``note`` (None
    unless disputed)."""

    round: Mapping[str, Any]
    status: str = PROVISIONAL
    note: str | None = None


def _number(entry: Mapping[str, Any], rounds: list[Replayed], at: int) -> int:
    number = entry.get("round")
    if not isinstance(number, int) or not 1 <= number <= len(rounds) + 1:
        raise ValueError(f"history entry {at}: round {number!r} does not fit a game of {len(rounds)} rounds")
    return number


def _round_object(obj: Any, at: int, what: str) -> dict[str, Any]:
    if not isinstance(obj, Mapping):
        raise ValueError(f"history entry {at}: its {what} is not a round object")
    return dict(obj)


def _imported(entry: Mapping[str, Any], at: int) -> list[Replayed]:
    after = entry.get("after") or {}
    rounds = after.get("rounds", []) if isinstance(after, Mapping) else None
    if not isinstance(rounds, list):
        raise ValueError(f"history entry {at}: an import's after holds no list of rounds")
    return [Replayed(_round_object(r, at, "imported round")) for r in rounds]


def replay(entries: Sequence[Mapping[str, Any]]) -> list[Replayed]:
    """The rounds a game's history leaves, in order: each entry applied to the rounds the
    entries before it left, oldest first.

    ``entries`` are history entries as exported (``action``, ``round``, ``before``, ``after``,
    ``note``): ``import`` sets the rounds (``after["rounds"]``, all provisional); ``record``
    appends ``after`` as round ``round`` (provisional); ``edit`` replaces round ``round`` with
    ``after`` (provisional again); ``undo`` removes the last round; ``confirm`` and ``dispute``
    set a round's status (a dispute keeps its note); ``close`` and ``reopen`` change no round.
    Raises ``ValueError`` naming the entry when the history does not add up (a round number
    that does not fit, an unknown action, a ``before`` that is not the round it changes, an
    entry or a round that is not an object)."""
    rounds: list[Replayed] = []
    for at, entry in enumerate(entries):
        if not isinstance(entry, Mapping):
            raise ValueError(f"history entry {at}: not an object")
        action = entry.get("action")
        if action in ("close", "reopen"):
            continue
        if action == "import":
            rounds = _imported(entry, at)
            continue
        if action not in ROUND_ACTIONS:
            raise ValueError(f"history entry {at}: unknown action {action!r}")
        number = _number(entry, rounds, at)
        if action == "record":
            if number != len(rounds) + 1:
                raise ValueError(f"history entry {at}: round {number} recorded after {len(rounds)} rounds")
            rounds.append(Replayed(_round_object(entry.get("after"), at, "after")))
            continue
        if number > len(rounds):
            raise ValueError(f"history entry {at}: there is no round {number} to {action}")
        before = entry.get("before")
        if before is not None and _round_object(before, at, "before") != dict(rounds[number - 1].round):
            raise ValueError(f"history entry {at}: its round {number} before is not the round the history holds")
        if action == "undo":
            if number != len(rounds):
                raise ValueError(f"history entry {at}: only the last round is undone, not {number}")
            rounds.pop()
        elif action == "edit":
            rounds[number - 1] = Replayed(_round_object(entry.get("after"), at, "after"))
        elif action == "confirm":
            rounds[number - 1] = Replayed(rounds[number - 1].round, CONFIRMED)
        else:
            rounds[number - 1] = Replayed(rounds[number - 1].round, DISPUTED, entry.get("note"))
    return rounds


@dataclass(frozen=True)
class Edits:
    """How often a round was changed since it was last recorded (``count``, at least 1) and
    when it last was (``last_at``, aware UTC)."""

    count: int
    last_at: datetime


def round_edits(entries: Iterable[Any]) -> dict[int, Edits]:
    """The rounds changed after they were recorded, by round number, from a game's history
    ``entries`` oldest first (each with ``action``, ``round`` and ``at``, a datetime; naive is
    UTC): each edit of round ``n`` since it was last recorded (a round undone and recorded again starts over; an import
    starts every round over). Rounds never edited are not in it."""
    edits: dict[int, Edits] = {}
    for entry in entries:
        if entry.action in GAME_ACTIONS:
            if entry.action == "import":
                edits.clear()
        elif entry.round is None:
            continue
        elif entry.action in ("record", "undo"):
            edits.pop(entry.round, None)
        elif entry.action == "edit":
            earlier = edits.get(entry.round)
            edits[entry.round] = Edits((earlier.count if earlier else 0) + 1, aware_utc(entry.at))
    return edits
