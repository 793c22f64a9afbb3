"""The printed score sheet and the downloads of a game.

- ``sheet.show``: a print page laid out like a paper Barbu sheet (one A4 or US Letter page
  for 28 or 32 rounds), ``sheet.pdf`` the same page as a PDF (WeasyPrint), ``sheet.blank``
  an empty sheet for the same players and preset;
- ``sheet.csv``: the sheet as CSV, ``sheet.export``: the game document (JSON, the export
  of game-format.md).

All are read-only and accept the view token (the edit token too, but the print page moves
to the view token's address first: browsers print the address in the page footer).
Everything shown is the engine's (``scoring.score``); this module only arranges it.
"""

from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from flask import Blueprint, Response, abort, current_app, redirect, render_template, request, send_file, url_for
from flask_babel import format_number
from flask_babel import gettext as _
from flask_babel import ngettext

from .. import labels, services
from ..models import StoredGame
from ..scoring import Game, Preset, export_game, score
from ..scoring.contracts import SEATS
from ..scoring.game import declarer_of
from ..web.loaders import any_game, game_to_read

bp = Blueprint("sheet", __name__, url_prefix="/s")

#: Column letters of the four players on paper: the doubles are marked with them.
LETTERS = ("A", "B", "C", "D")
PAPERS = ("a4", "letter")
MAX_PLACE = 80
#: Spreadsheets run a cell that starts with one of these as a formula (CSV injection).
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


# -- the sheet's rows ------------------------------------------------------------------------

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


def marks_of(preset: Preset, rnd, declarer: int) -> list[list[Mark]]:
    """The doubles of a round as paper marks, by the doubler's seat (see :class:`Mark`).
    With ``auto_redouble`` the declarer's unrecorded redoubles are added as implicit."""
    marks: list[list[Mark]] = [[] for _ in range(SEATS)]
    pairs = set(rnd.doubles)
    for doubler, doubled in sorted(pairs):
        if doubler == declarer:
            kind = "redouble"
        elif doubled == declarer:
            kind = "on-declarer"
        else:
            kind = "double"
        marks[doubler].append(Mark(LETTERS[doubled], kind))
    if preset.doubling.auto_redouble:
        for doubler, doubled in sorted(pairs):
            if doubled == declarer and (declarer, doubler) not in pairs:
                marks[declarer].append(Mark(LETTERS[doubler], "redouble", implicit=True))
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
    ``round`` the blocks are not runs and get no expected sum.
    """
    rows: list[SheetRow] = []
    size = block_size(preset)
    results = score(game).rounds if game is not None else ()
    count = preset.round_count
    running = (0, 0, 0, 0)
    quota = [0] * SEATS
    block_sums = [0] * SEATS
    for index in range(count):
        declarer = declarer_of(preset, first_declarer, index)
        if game is not None and index < len(results):
            rnd, res = game.rounds[index], results[index]
            rows.append(SheetRow("round", res.number, declarer, rnd, rnd.contract, res.raw, res.total,
                                 marks_of(preset, rnd, declarer), res.played))
            running = res.running
            block_sums = [a + b for a, b in zip(block_sums, res.total)]
            for doubler, doubled in rnd.doubles:
                if doubled == declarer:
                    quota[doubler] += 1
            recorded = True
        else:
            contract = preset.contract_ids[index % size] if preset.chooser == "fixed" else None
            rows.append(SheetRow("round", index + 1, declarer, None, contract))
            recorded = False
        if (index + 1) % size == 0:
            whole = preset.rotation == "run"
            filled = game is not None and recorded
            rows.append(SheetRow(
                "subtotal", index + 1, declarer if whole else None,
                sums=tuple(block_sums) if filled else None,
                running=running if filled else None,
                check=sum(block_sums) if filled else None,
                expected=preset.run_total() if whole else None,
                quota=tuple(quota) if filled and whole and preset.doubling.enabled else None))
            block_sums = [0] * SEATS
            quota = [0] * SEATS
    return rows


# -- what the header says ------------------------------------------------------------------

def signed(value: int) -> str:
    """Points with a true minus sign (U+2212), a plus for positives and the language's digit
    grouping: −6, +45, 0, +1,000 (German +1.000)."""
    return f"−{format_number(-value)}" if value < 0 else (f"+{format_number(value)}" if value > 0 else "0")


def contract_values(preset: Preset) -> list[tuple[str, str]]:
    """Each contract's name and its values in points, as written in the sheet's header
    (e.g. ``("No Hearts", "−2 per heart, ♥A −6")``)."""
    out = []
    for c in preset.contracts:
        v = dict(c.values)
        if c.id == "domino":
            text = " / ".join(signed(p) for p in v["places"])
        elif c.id == "ravage-city":
            text = signed(v["penalty"])
        elif c.id == "salade":
            text = _("every penalty at once")
        else:
            parts = []
            if "per_trick" in v:
                parts.append(_("%(points)s per trick", points=signed(v["per_trick"])))
            if "per_queen" in v:
                parts.append(_("%(points)s per queen", points=signed(v["per_queen"])))
            if "penultimate" in v:
                parts.append(_("%(p)s / %(l)s last two", p=signed(v["penultimate"]), l=signed(v["last"])))
            if "per_heart" in v:
                parts.append(_("%(points)s per heart, ♥A %(ace)s", points=signed(v["per_heart"]), ace=signed(v["ace"])))
            if "king" in v:
                parts.append(_("♥K %(points)s", points=signed(v["king"])))
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
        notes.append(_("Double ×%(single)d, double and redouble ×%(mutual)d of the difference of raw scores.",
                       single=d.single, mutual=d.mutual))
        if d.target == "declarer":
            notes.append(_("Only the declarer may be doubled."))
        if d.auto_redouble:
            notes.append(_("The declarer redoubles everyone who doubled, without a word."))
        if d.quota_penalty:
            notes.append(ngettext("Quota: %(num)d double on each declarer; %(pen)d points off for each one owed.",
                                  "Quota: %(num)d doubles on each declarer; %(pen)d points off for each one owed.",
                                  d.quota, pen=d.quota_penalty))
        else:
            notes.append(ngettext("Quota: %(num)d double on each declarer (not penalised).",
                                  "Quota: %(num)d doubles on each declarer (not penalised).", d.quota))
    if preset.undoubled_negative == "split":
        notes.append(str(labels.UNDOUBLED["split"]))
    return notes


def house_notes(preset: Preset) -> list[str]:
    """The preset's description and play-only house rules (labels, for a built-in) or the
    notes of the saved preset the game was started with, when it still exists."""
    notes: list[str] = []
    describe = getattr(labels, "preset_description", None)
    if describe and describe(preset.id):
        notes.append(str(describe(preset.id)))
    house = getattr(labels, "preset_notes", None)
    if house:
        notes.extend(str(n) for n in house(preset.id))
    finder = getattr(services, "find_preset", None)
    if not notes and finder is not None:
        saved = finder(preset.id)
        if saved is not None and saved.notes:
            notes.extend(line.strip() for line in saved.notes.splitlines() if line.strip())
    return notes


def options() -> tuple[dict[str, Any], dict[str, str]]:
    """The print page's options from the query string: ``place`` (free text, at most 80
    characters), ``date`` (YYYY-MM-DD) and ``paper`` (``a4`` | ``letter``), and the
    problems found, by field (a bad value is then left out)."""
    errors: dict[str, str] = {}
    place = request.args.get("place", "").strip()
    if len(place) > MAX_PLACE:
        errors["place"] = _("At most %(n)d characters.", n=MAX_PLACE)
        place = ""
    day = None
    if request.args.get("date"):
        try:
            day = date.fromisoformat(request.args["date"])
        except ValueError:
            errors["date"] = _("Write the date as YYYY-MM-DD.")
    paper = request.args.get("paper", "a4")
    if paper not in PAPERS:
        errors["paper"] = _("Choose A4 or US Letter.")
        paper = "a4"
    return {"place": place, "date": day, "paper": paper}, errors


def sheet_context(stored: StoredGame, blank: bool) -> dict[str, Any]:
    """Everything the sheet template needs (see :func:`sheet_rows`)."""
    game = stored.to_game()
    opts, errors = options()
    preset = game.preset
    scores = score(game)
    rows = sheet_rows(None if blank else game, preset, game.first_declarer)
    return {
        "stored": stored, "game": game, "preset": preset, "players": game.players,
        "letters": LETTERS, "rows": rows, "blank": blank,
        "standings": None if blank else scores.standings,
        "values": contract_values(preset), "rule_notes": rule_notes(preset),
        "house_notes": house_notes(preset),
        "day": opts["date"] or (None if blank else stored.created_at.date()),
        "place": opts["place"], "paper": opts["paper"],
        "game_check": 4 * preset.run_total(),
        "query": {k: v for k, v in (("place", opts["place"]), ("date", request.args.get("date", "")),
                                    ("paper", opts["paper"])) if v},
        "token": stored.view_token, "errors": errors,
        "date_value": request.args.get("date", "") if "date" in errors else (opts["date"] or "") and opts["date"].isoformat(),
    }


# -- pages ---------------------------------------------------------------------------------

def _print_page(token: str, blank: bool):
    stored, can_edit = any_game(token)
    endpoint = "sheet.blank" if blank else "sheet.show"
    if can_edit:
        return redirect(url_for(endpoint, token=stored.view_token, **request.args), 303)
    context = sheet_context(stored, blank)
    status = 422 if context["errors"] else 200
    response = current_app.make_response((render_template("sheet/sheet.html", **context), status))
    return response


@bp.get("/<token>")
def show(token: str):
    """The print page of the score sheet (query: place, date, paper)."""
    return _print_page(token, blank=False)


@bp.get("/<token>/blank")
def blank(token: str):
    """An empty sheet for the same players and preset, to score on paper."""
    return _print_page(token, blank=True)


def static_fetcher(url: str, *args: Any, **kwargs: Any):
    """WeasyPrint's URL fetcher: the app's static files from disk (the print stylesheet),
    nothing from the network. Raises ``ValueError`` for any other URL."""
    path = urlsplit(url).path
    prefix = (current_app.static_url_path or "/static").rstrip("/") + "/"
    if not path.startswith(prefix):
        raise ValueError(f"not fetched while printing: {url}")
    root = Path(current_app.static_folder).resolve()
    target = (root / path[len(prefix):]).resolve()
    if root not in target.parents or not target.is_file():
        raise ValueError(f"no such static file: {url}")
    from weasyprint.urls import URLFetcherResponse

    mime = "text/css" if target.suffix == ".css" else "application/octet-stream"
    return URLFetcherResponse(url, body=target.read_bytes(), headers={"Content-Type": mime})


def download_name(stored: StoredGame, suffix: str, blank: bool = False) -> str:
    """A file name for a download: the title (or the players) and the date."""
    name = stored.title or " ".join(stored.players)
    when = stored.created_at.date().isoformat()
    if blank:
        name = _("blank sheet")  # outside the f-string, where pybabel finds it
    return f"{name} {when}.{suffix}".replace("/", "-")


@bp.get("/<token>/sheet.pdf")
def pdf(token: str):
    """The score sheet (or ``?blank=1`` the blank sheet) as a one-page PDF."""
    from weasyprint import HTML  # imported here: loading pango takes a moment

    stored = game_to_read(token)
    is_blank = request.args.get("blank") == "1"
    context = sheet_context(stored, is_blank)
    if context["errors"]:
        return render_template("sheet/sheet.html", **context), 422
    html = render_template("sheet/sheet.html", pdf=True, **context)
    document = HTML(string=html, base_url=request.host_url, url_fetcher=static_fetcher).write_pdf()
    return send_file(io.BytesIO(document), mimetype="application/pdf", as_attachment=True,
                     download_name=download_name(stored, "pdf", is_blank))


def csv_cell(value: Any) -> Any:
    """A text cell that a spreadsheet would run as a formula gets a leading apostrophe."""
    if isinstance(value, str) and value.startswith(FORMULA_START):
        return "'" + value
    return value


def sheet_csv(stored: StoredGame) -> str:
    """The sheet as CSV text: one line per round — ``round``, ``declarer`` (name),
    ``contract`` (id), ``trump``, ``start_rank``, ``played``, ``doubles`` (``doubler>doubled``
    letter pairs), then per player ``<name> raw``, ``<name> doubles`` (the settlement),
    ``<name> total`` and ``<name> running`` (points, zeros written as 0) — then an empty
    line and the standings: ``player``, ``total``, ``quota_penalty``, ``final``, ``rank``."""
    game = stored.to_game()
    scores = score(game)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    names = [csv_cell(p) for p in game.players]
    header = ["round", "declarer", "contract", "trump", "start_rank", "played", "doubles"]
    for name in names:
        header += [f"{name} raw", f"{name} doubles", f"{name} total", f"{name} running"]
    writer.writerow(header)
    for rnd, res in zip(game.rounds, scores.rounds):
        doubles = " ".join(f"{LETTERS[a]}>{LETTERS[b]}" for a, b in rnd.doubles)
        line = [res.number, names[res.declarer], rnd.contract, rnd.trump or "", rnd.start_rank or "",
                "yes" if res.played else "no", doubles]
        for p in range(SEATS):
            line += [res.raw[p], res.doubles[p], res.total[p], res.running[p]]
        writer.writerow(line)
    writer.writerow([])
    st = scores.standings
    writer.writerow(["player", "letter", "total", "quota_penalty", "final", "rank"])
    for p in range(SEATS):
        writer.writerow([names[p], LETTERS[p], st.totals[p], st.quota_penalties[p], st.final[p], st.rank[p]])
    return out.getvalue()


@bp.get("/<token>/sheet.csv")
def csv_download(token: str):
    """The sheet as CSV (UTF-8 with a byte-order mark, so Excel reads the accents right)."""
    stored = game_to_read(token)
    body = sheet_csv(stored).encode("utf-8-sig")
    return send_file(io.BytesIO(body), mimetype="text/csv", as_attachment=True,
                     download_name=download_name(stored, "csv"), max_age=0)


@bp.get("/<token>/game.json")
def export(token: str):
    """The game document with every result and the standings (game-format.md export)."""
    stored = game_to_read(token)
    body = json.dumps(export_game(stored.to_game()), ensure_ascii=False, indent=2).encode()
    response: Response = send_file(io.BytesIO(body), mimetype="application/json", as_attachment=True,
                                   download_name=download_name(stored, "json"), max_age=0)
    return response
