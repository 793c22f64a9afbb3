"""The printed score sheet and its CSV: the lines of a paper Barbu sheet and what its header
says, from the engine's results (:func:`scorepad.scoring.score`); this module only arranges
them."""

from __future__ import annotations

import csv
import io
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from flask_babel import gettext as _
from flask_babel import ngettext

from .. import labels
from ..scoring import Game, Preset, Round, score
from ..scoring.contracts import SEATS
from ..scoring.doubles import double_kind, implicit_redoubles
from ..scoring.game import declarer_of, fixed_contract
from ..scoring.trust import PROVISIONAL, shown_status
from .common import signed

#: Points as the sheet's rule notes write them: −6, +45, 0 (:func:`~.common.signed` with a plus).
with_plus = partial(signed, plus=True)

#: Column letters of the four players on paper: the doubles are marked with them.
LETTERS = ("A", "B", "C", "D")
#: Spreadsheets run a cell that starts with one of these as a formula (CSV injection).
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


@dataclass
class Mark:
    """One double as written on paper in the doubler's cell: the ``letter`` of the doubled
    player; ``kind`` is ``double``, ``on-declarer`` (counts for the quota) or ``redouble``
    (the declarer doubling back someone who doubled them; ``implicit`` when the preset
    redoubles automatically and nothing was recorded)."""

    letter: str
    kind: str
    implicit: bool = False


@dataclass
class SheetRow:
    """A round line (``kind`` ``round``) or a subtotal line (``subtotal``) of the sheet.

    Round: ``number``, ``declarer`` seat, ``rnd`` (the engine's Round, None on a blank
    sheet), ``contract`` id when known, ``raw`` and ``total`` points by seat, ``marks``
    by seat, ``played``. Subtotal: ``declarer`` of the run (None for a block of a
    round-by-round rotation), ``sums`` (the run's points by seat), ``running`` (totals after
    it), ``check`` (Σ of ``sums``), ``expected`` (the preset's run total, or None when
    the block is no whole run), ``quota`` (doubles each player gave the run's declarer).
    """

    kind: str
    number: int = 0
    declarer: int | None = None
    rnd: Any = None
    contract: str | None = None
    raw: tuple[int, ...] | None = None
    total: tuple[int, ...] | None = None
    marks: list[list[Mark]] = field(default_factory=lambda: [[] for _ in range(SEATS)])
    played: bool = True
    sums: tuple[int, ...] | None = None
    running: tuple[int, ...] | None = None
    check: int | None = None
    expected: int | None = None
    quota: tuple[int, ...] | None = None


def marks_of(preset: Preset, rnd: Round, declarer: int) -> list[list[Mark]]:
    """The doubles of a round as paper marks, by the doubler's seat (see :class:`Mark`),
    each of the kind the engine names (:func:`~scorepad.scoring.doubles.double_kind`); the
    engine's implicit redoubles (``auto_redouble``) come after, marked as such."""
    marks: list[list[Mark]] = [[] for _ in range(SEATS)]
    for doubler, doubled in sorted(set(rnd.doubles)):
        marks[doubler].append(Mark(LETTERS[doubled], double_kind(doubler, doubled, declarer)))
    for doubler, doubled in implicit_redoubles(rnd.doubles, declarer, preset.doubling):
        marks[doubler].append(Mark(LETTERS[doubled], double_kind(doubler, doubled, declarer), implicit=True))
    return marks


def block_size(preset: Preset) -> int:
    """Rounds between two subtotal lines: a declarer's run (the number of contracts)."""
    return len(preset.contracts)


def sheet_rows(game: Game | None, preset: Preset, first_declarer: int) -> list[SheetRow]:
    """The lines of the sheet: every round of the game (or, with ``game`` None, the empty
    lines of a blank sheet, with the schedule's declarer and, for a fixed order, the
    contract) and a subtotal after each declarer's run.

    A run's points add up to ``preset.run_total()`` (every contract once: 0 for a balanced
    preset) — the paper sheet's check sum (barbu-rules.md "The contracts"). With rotation
    ``round`` the blocks are not runs and get no expected sum. A run's quota line is the
    engine's count of the doubles each player gave its declarer (``quota_given``: with
    rotation ``run`` a declarer's rounds are their one run).
    """
    rows: list[SheetRow] = []
    size = block_size(preset)
    scores = score(game) if game is not None else None
    results = scores.rounds if scores is not None else ()
    running: tuple[int, ...] = (0, 0, 0, 0)
    block_sums = [0] * SEATS
    for index in range(preset.round_count):
        declarer = declarer_of(preset, first_declarer, index)
        recorded = game is not None and index < len(results)
        if game is not None and recorded:
            rnd, res = game.rounds[index], results[index]
            rows.append(
                SheetRow(
                    "round",
                    res.number,
                    declarer,
                    rnd,
                    rnd.contract,
                    res.raw,
                    res.total,
                    marks_of(preset, rnd, declarer),
                    res.played,
                )
            )
            running = res.running
            block_sums = [a + b for a, b in zip(block_sums, res.total, strict=True)]
        else:
            rows.append(SheetRow("round", index + 1, declarer, None, fixed_contract(preset, index)))
        if (index + 1) % size == 0:
            whole = preset.rotation == "run"
            filled = scores is not None and recorded
            quota = None
            if scores is not None and filled and whole and preset.doubling.enabled:
                quota = scores.standings.quota_given[declarer]
            rows.append(
                SheetRow(
                    "subtotal",
                    index + 1,
                    declarer if whole else None,
                    sums=tuple(block_sums) if filled else None,
                    running=running if filled else None,
                    check=sum(block_sums) if filled else None,
                    expected=preset.run_total() if whole else None,
                    quota=quota,
                )
            )
            block_sums = [0] * SEATS
    return rows


def contract_values(preset: Preset) -> list[tuple[str, str]]:
    """Each contract's name and its values in points, as written in the sheet's header
    (e.g. ``("No Hearts", "−2 per heart, ♥A −6")``)."""
    out = []
    for c in preset.contracts:
        v = dict(c.values)
        if c.id == "domino":
            text = " / ".join(with_plus(p) for p in v["places"])
        elif c.id == "ravage-city":
            text = with_plus(v["penalty"])
        elif c.id == "salade":
            text = _("every penalty at once")
        else:
            parts = []
            if "per_trick" in v:
                parts.append(_("%(points)s per trick", points=with_plus(v["per_trick"])))
            if "per_queen" in v:
                parts.append(_("%(points)s per queen", points=with_plus(v["per_queen"])))
            if "penultimate" in v:
                parts.append(_("%(p)s / %(l)s last two", p=with_plus(v["penultimate"]), l=with_plus(v["last"])))
            if "per_heart" in v:
                parts.append(
                    _("%(points)s per heart, ♥A %(ace)s", points=with_plus(v["per_heart"]), ace=with_plus(v["ace"]))
                )
            if "king" in v:
                parts.append(_("♥K %(points)s", points=with_plus(v["king"])))
            text = ", ".join(parts)
        out.append((labels.contract_name(c.id), text))
    return out


def rule_notes(preset: Preset) -> list[str]:
    """The preset's scoring rules that a paper sheet states: who chooses, rotation, deck,
    doubles and their multipliers, the quota and its penalty, undoubled negative contracts."""
    notes = []
    if preset.chooser != "declarer":
        notes.append(str(labels.CHOOSERS[preset.chooser]))
    if preset.rotation != "run":
        notes.append(str(labels.ROTATIONS[preset.rotation]))
    if preset.deck != 52:
        notes.append(_("%(deck)d-card deck, %(tricks)d tricks a deal", deck=preset.deck, tricks=preset.tricks))
    d = preset.doubling
    if not d.enabled:
        notes.append(_("No doubling."))
    else:
        notes.append(
            _(
                "Double ×%(single)d, double and redouble ×%(mutual)d of the difference of raw scores.",
                single=d.single,
                mutual=d.mutual,
            )
        )
        if d.target == "declarer":
            notes.append(_("Only the declarer may be doubled."))
        if d.auto_redouble:
            notes.append(_("The declarer redoubles everyone who doubled, without a word."))
        if d.quota_penalty:
            notes.append(
                ngettext(
                    "Quota: %(num)d double on each declarer; %(pen)d points off for each one owed.",
                    "Quota: %(num)d doubles on each declarer; %(pen)d points off for each one owed.",
                    d.quota,
                    pen=d.quota_penalty,
                )
            )
        else:
            notes.append(
                ngettext(
                    "Quota: %(num)d double on each declarer (not penalised).",
                    "Quota: %(num)d doubles on each declarer (not penalised).",
                    d.quota,
                )
            )
    if preset.undoubled_negative == "split":
        notes.append(str(labels.UNDOUBLED["split"]))
    return notes


def house_notes(preset: Preset, saved_notes: str | None) -> list[str]:
    """The preset's description and play-only house rules (labels, for a built-in) or
    ``saved_notes``, the notes of the saved preset the game was started with (None when
    it is a built-in or no longer exists), one line each."""
    notes: list[str] = []
    if labels.preset_description(preset.id):
        notes.append(str(labels.preset_description(preset.id)))
    notes.extend(str(n) for n in labels.preset_notes(preset.id))
    if not notes and saved_notes:
        notes.extend(line.strip() for line in saved_notes.splitlines() if line.strip())
    return notes


def sheet_page(game: Game, blank: bool, saved_notes: str | None) -> dict[str, Any]:
    """The sheet's template variables from the engine's results: ``game``, ``preset``,
    ``players``, ``letters``, ``rows`` (:func:`sheet_rows`; a blank sheet's are empty),
    ``blank``, ``standings`` (None on a blank sheet), ``values``, ``rule_notes``,
    ``house_notes`` (see :func:`house_notes`), ``notes_saved`` (they are the saved preset's
    free text, up to 2,000 characters, which the sheet cuts to its first lines) and
    ``game_check`` (a whole game's points)."""
    preset = game.preset
    notes = house_notes(preset, saved_notes)
    return {
        "game": game,
        "preset": preset,
        "players": game.players,
        "letters": LETTERS,
        "rows": sheet_rows(None if blank else game, preset, game.first_declarer),
        "blank": blank,
        "standings": None if blank else score(game).standings,
        "values": contract_values(preset),
        "rule_notes": rule_notes(preset),
        "house_notes": notes,
        "notes_saved": bool(notes) and not labels.preset_description(preset.id) and not labels.preset_notes(preset.id),
        "game_check": preset.game_total(),
    }


def csv_cell(value: Any) -> Any:
    """A text cell that a spreadsheet would run as a formula gets a leading apostrophe (OWASP,
    "CSV Injection"): one that starts with :data:`FORMULA_START`, or does after characters a
    reader does not see (a zero-width space U+200B, a byte order mark U+FEFF, any other format
    or control character, spaces), which some spreadsheets skip before they look."""
    if isinstance(value, str) and (value.startswith(FORMULA_START) or _seen_part(value).startswith(FORMULA_START)):
        return "'" + value
    return value


def _seen_part(text: str) -> str:
    """``text`` from its first character a reader sees: Unicode's format (Cf) and control (Cc)
    characters and whitespace before it left out."""
    for index, char in enumerate(text):
        if not (unicodedata.category(char) in ("Cf", "Cc") or char.isspace()):
            return text[index:]
    return ""


def sheet_csv(game: Game, statuses: Sequence[str] = ()) -> str:
    """The sheet as CSV text: one line per round — ``date`` (the players' date, YYYY-MM-DD),
    ``round``, ``declarer`` (name), ``contract`` (id), ``trump``, ``start_rank``, ``played``,
    ``status`` (provisional, confirmed or disputed, as the game file exports it:
    scoring.trust.shown_status of ``statuses[i]``, provisional when not given), ``doubles``
    (``doubler>doubled`` letter pairs), then per player ``<name> raw``,
    ``<name> doubles`` (the settlement), ``<name> total`` and ``<name> running`` (points,
    zeros written as 0) — then an empty line and the standings: ``date``, ``player``,
    ``total``, ``quota_penalty``, ``final``, ``rank``. Every line carries the date, so the
    sheets of several games pasted together stay apart."""
    scores = score(game)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    names = [csv_cell(p) for p in game.players]
    day = game.date.isoformat() if game.date else ""
    header = ["date", "round", "declarer", "contract", "trump", "start_rank", "played", "status", "doubles"]
    for name in names:
        header += [f"{name} raw", f"{name} doubles", f"{name} total", f"{name} running"]
    writer.writerow(header)
    for index, (rnd, res) in enumerate(zip(game.rounds, scores.rounds, strict=True)):
        doubles = " ".join(f"{LETTERS[a]}>{LETTERS[b]}" for a, b in rnd.doubles)
        status = shown_status(game.confirmation, statuses[index] if index < len(statuses) else PROVISIONAL)
        line = [
            day,
            res.number,
            names[res.declarer],
            rnd.contract,
            rnd.trump or "",
            rnd.start_rank or "",
            "yes" if res.played else "no",
            status,
            doubles,
        ]
        for p in range(SEATS):
            line += [res.raw[p], res.doubles[p], res.total[p], res.running[p]]
        writer.writerow(line)
    writer.writerow([])
    st = scores.standings
    writer.writerow(["date", "player", "letter", "total", "quota_penalty", "final", "rank"])
    for p in range(SEATS):
        writer.writerow([day, names[p], LETTERS[p], st.totals[p], st.quota_penalties[p], st.final[p], st.rank[p]])
    return out.getvalue()
