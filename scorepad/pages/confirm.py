"""What the witness's page shows (club-format.md "Trust: confirmation and history"):
the rounds a second player at the table is asked to check, each with what the scorer entered
and what it settles, arranged from the engine's results (:func:`.rounds.settlement_of`); and
what the scorer's page shows of it (the confirm link's QR code, the disputed notes).

No SQL and no rules here: the view hands in each round's stored status, note and digest.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from markupsafe import Markup

from ..scoring import Game
from ..scoring.contracts import SEATS
from .common import short_names
from .console import inline_qr
from .rounds import settlement_of

#: The statuses that wait for the witness (club-format.md "Trust"): a new or edited round is
#: ``provisional``, a round the witness questioned ``disputed``; ``confirmed`` ones are done.
WAITING = ("provisional", "disputed")


@dataclass(frozen=True)
class RoundCheck:
    """A recorded round as the confirm page needs it from the database: its ``status``
    ("provisional" | "confirmed" | "disputed", as shown: "confirmed" throughout when checking is
    off), the witness's dispute ``note`` (None unless disputed) and ``digest``, the round's
    :func:`scorepad.services.rounds.round_digest` (the forms carry it, so that a round changed since the
    page showed it is refused)."""

    status: str
    note: str | None
    digest: str


def round_check(game: Game, index: int, check: RoundCheck) -> dict[str, Any]:
    """Round ``index`` (0-based) of ``game`` as the confirm page shows it: ``number``, ``rnd``
    (the engine's Round), ``settlement`` (:func:`.rounds.settlement_of`: the result in points by
    seat, the declarer, what moved between each pair that doubled), ``grid`` (``grid[a][b]``
    True when seat ``a`` doubled seat ``b``), the check's ``status``, ``note`` and ``digest``,
    and ``state``: 12 hex digits naming the round as entered with its status and note, the id of
    its dispute field (kept while the witness types, as long as the round stays the same)."""
    rnd = game.rounds[index]
    doubled = {(a, b) for a, b in rnd.doubles}
    state = hashlib.sha256(f"{check.digest}|{check.status}|{check.note or ''}".encode()).hexdigest()[:12]
    return {
        "number": index + 1,
        "rnd": rnd,
        "settlement": settlement_of(game, index, rnd),
        "grid": [[(a, b) in doubled for b in range(SEATS)] for a in range(SEATS)],
        "status": check.status,
        "note": check.note,
        "digest": check.digest,
        "state": state,
    }


def witness_page(game: Game, checks: Sequence[RoundCheck], *, checking: bool, closed: bool) -> dict[str, Any]:
    """The confirm page's template variables: ``game``, ``players``, ``short``, ``waiting`` (the
    rounds still to check, provisional or disputed, newest first: :func:`round_check`),
    ``checked`` (the confirmed ones, newest first), ``checking`` (False when the game's
    confirmation is "off": no round is shown, no button) and ``closed`` (the game is a table of a
    closed club night: the rounds are shown, without buttons). ``checks`` has one entry per
    recorded round, in order."""
    rounds = [] if not checking else [round_check(game, i, check) for i, check in enumerate(checks)]
    rounds.reverse()
    return {
        "game": game,
        "players": game.players,
        "short": short_names(game.players),
        "waiting": [r for r in rounds if r["status"] in WAITING],
        "checked": [r for r in rounds if r["status"] not in WAITING],
        "checking": checking,
        "closed": closed,
        "can_check": checking and not closed,
    }


def disputed_notes(checks: Sequence[RoundCheck]) -> list[dict[str, Any]]:
    """The scorer's page's list of disputed rounds: ``number`` (1-based) and the witness's
    ``note`` ("" for a dispute without one), in round order."""
    return [
        {"number": number, "note": check.note or ""}
        for number, check in enumerate(checks, start=1)
        if check.status == "disputed"
    ]


@dataclass
class CheckBox:
    """The scorer's "Let another player check" box: the confirm page's absolute ``url`` and
    its ``qr`` code as inline SVG (:func:`.event.inline_qr`), made when the box is shown: the
    game page's htmx answers (each save) leave the box out, and a QR code takes some 15 ms."""

    url: str

    @cached_property
    def qr(self) -> Markup:
        """The QR code of :attr:`url`, inline SVG."""
        return inline_qr(self.url)
