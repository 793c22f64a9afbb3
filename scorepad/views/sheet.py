"""The printed score sheet and the downloads of a game.

- ``sheet.show``: a print page laid out like a paper Barbu sheet (one A4 or US Letter page
  for 28 or 32 rounds), ``sheet.pdf`` the same page as a PDF (WeasyPrint), ``sheet.blank``
  an empty sheet for the same players and preset;
- ``sheet.csv``: the sheet as CSV, ``sheet.export``: the game document (JSON, the export
  of game-format.md).

All are read-only and accept the view token (the edit token too, but the print page moves
to the view token's address first: browsers print the address in the page footer).
Everything shown is the engine's (``scoring.score``), arranged by :mod:`scorepad.pages.sheet`.
"""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path
from typing import Any

from flask import Blueprint, current_app, redirect, render_template, request, url_for
from flask_babel import get_locale
from flask_babel import gettext as _

from ..models import StoredGame
from ..pages.common import zone_named
from ..pages.history import sheet_notes
from ..pages.sheet import sheet_csv, sheet_page
from ..render import pdf as pdf_render
from ..services import history, presets
from ..web.downloads import send_download
from ..web.errors import error_response
from ..web.loaders import any_game, game_to_read
from ..web.pdf_cache import Busy, sheet_pdf
from ..web.recent import remember, scorer_token
from ..web.trust import trust_of

bp = Blueprint("sheet", __name__, url_prefix="/s")

PAPERS = ("a4", "letter")
MAX_PLACE = 80


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
    """The sheet's template variables: :func:`scorepad.pages.sheet.sheet_page` for the
    stored game, with the print options of the query string and the view token; a filled-in
    sheet's rounds have their marks (``trust``) and ``footnotes``
    (:func:`scorepad.pages.history.sheet_notes`)."""
    game = stored.to_game()
    opts, errors = options()
    page = sheet_page(game, blank, presets.saved_notes(game.preset.id))
    trust, footnotes = None, []
    if not blank:
        rows = history.game_history(stored)
        trust = trust_of(stored, rows)
        footnotes = sheet_notes(game, stored.confirmation, history.statuses(stored), rows, zone_named(stored.timezone))
    day = opts["date"] or (None if blank else stored.date)
    page.update(
        {
            "stored": stored,
            "trust": trust,
            "footnotes": footnotes,
            # The players' date (the day at their table), unless the print options say another.
            "day": day,
            "place": opts["place"],
            "paper": opts["paper"],
            "query": {
                k: v
                for k, v in (("place", opts["place"]), ("date", request.args.get("date", "")), ("paper", opts["paper"]))
                if v
            },
            "token": stored.view_token,
            "errors": errors,
            # The date field holds the date the sheet shows (the game's own by default, never an
            # empty "mm/dd/yyyy" above a dated sheet), or what was typed when it is refused.
            "date_value": request.args.get("date", "") if "date" in errors else (day and day.isoformat()) or "",
        }
    )
    return page


def _print_page(token: str, blank: bool):
    stored, can_edit = any_game(token)
    endpoint = "sheet.blank" if blank else "sheet.show"
    if can_edit:
        # The scorer opened the sheet: its back link leads to the scorer's page (scorer_token).
        remember(token)
        # Only the page's own options go along (a query could otherwise set url_for's _external,
        # _scheme, _anchor or _method).
        options: dict[str, Any] = {
            key: value for key, value in request.args.items() if key in ("place", "date", "paper")
        }
        return redirect(url_for(endpoint, token=stored.view_token, **options), 303)
    context = sheet_context(stored, blank)
    context["scorer_token"] = scorer_token(stored)
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


def static_fetcher(url: str, *args: Any, **kwargs: Any) -> Any:
    """WeasyPrint's URL fetcher for this app (:func:`scorepad.render.pdf.static_fetcher`):
    the app's static files from disk (the print stylesheet), nothing from the network. Raises
    ``ValueError`` for any other URL."""
    fetch = pdf_render.static_fetcher(Path(current_app.static_folder or ""), current_app.static_url_path or "")
    return fetch(url, *args, **kwargs)


def download_name(stored: StoredGame, suffix: str, blank: bool = False) -> str:
    """A file name for a download: the title (or the players) and the players' date (made safe
    to save and send by :func:`scorepad.web.downloads.send_download`, whatever the title holds)."""
    name = stored.title or " ".join(stored.players)
    when = stored.date.isoformat()
    if blank:
        name = _("blank sheet")  # outside the f-string, where pybabel finds it
    # The name is cut before the date goes on, so a long one (four names of 40 characters)
    # never cuts the date off (send_download keeps at most 100 characters before the suffix).
    return f"{name[:80].rstrip()} {when}.{suffix}"


@bp.get("/<token>/sheet.pdf")
def pdf(token: str):
    """The score sheet (or ``?blank=1`` the blank sheet) as a one-page PDF: rendered once per
    game state and page, then served from the shared cache (:mod:`scorepad.web.pdf_cache`);
    503 with ``Retry-After`` while the machine's render slots stay taken."""
    stored = game_to_read(token)
    is_blank = request.args.get("blank") == "1"
    opts, errors = options()
    if errors:
        return render_template("sheet/sheet.html", **sheet_context(stored, is_blank)), 422
    # Which of the game state's sheets this is: what the PDF shows besides the game's row (whose
    # every change sets updated_at, the state), known before the sheet is scored or rendered, so
    # a cached PDF costs no more than the game's lookup. A saved preset's notes live in its own row.
    day = opts["date"].isoformat() if opts["date"] else ""
    notes = presets.saved_notes(str(stored.preset.get("id", ""))) or ""
    page = ("blank" if is_blank else "filled", str(get_locale()), opts["paper"], opts["place"], day, notes)

    def html() -> str:
        return render_template("sheet/sheet.html", pdf=True, **sheet_context(stored, is_blank))

    try:
        document = sheet_pdf(stored.id, str(stored.updated_at), page, html)
    except Busy as busy:
        message = _("Many score sheets are being printed right now. Try again in a few seconds.")
        return error_response(503, message, name=_("Printing is busy"), retry_after=busy.retry_after)
    return send_download(document, "application/pdf", download_name(stored, "pdf", is_blank), max_age=None)


@bp.get("/<token>/sheet.csv")
def csv_download(token: str):
    """The sheet as CSV (UTF-8 with a byte-order mark, so Excel reads the accents right), each
    round with its status."""
    stored = game_to_read(token)
    body = sheet_csv(stored.to_game(), history.statuses(stored)).encode("utf-8-sig")
    return send_download(body, "text/csv", download_name(stored, "csv"))


@bp.get("/<token>/game.json")
def export(token: str):
    """The game document with every result and the standings (game-format.md export), each
    round's status and the game's history (club-format.md "Trust")."""
    stored = game_to_read(token)
    body = json.dumps(history.export_stored(stored), ensure_ascii=False, indent=2).encode()
    return send_download(body, "application/json", download_name(stored, "json"))
