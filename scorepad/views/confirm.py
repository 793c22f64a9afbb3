"""The witness's page (club-format.md "Trust: confirmation and history"): a second
player at the table opens the game's confirm link (``/c/<confirm token>``, from the QR code on
the scorer's page) and checks each round the scorer entered: **Confirm** in one tap, or
**Dispute** with a short note, which the scorer's page then shows.

The page stays open on that phone: its list of rounds is polled every few seconds, as the
board's live part is (:mod:`scorepad.views.board`: an ETag from one indexed query, 304 while
nothing changed). Only the confirm token opens it: the game's edit and view tokens get 403 (a
scorer does not confirm their own entry), any other token 404. Every button is a plain form
POST with its CSRF token; htmx swaps the list in place, without it the POST answers 303 back to
the page.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Blueprint, abort, flash, redirect, render_template, url_for
from flask_babel import get_locale
from flask_babel import gettext as _
from werkzeug.wrappers import Response as BaseResponse

from ..forms.confirmation import ConfirmForm, DisputeForm
from ..i18n import engine_text, error_text
from ..models import StoredGame
from ..pages.confirm import witness_page
from ..scoring import ScoringError
from ..scoring.trust import MAX_NOTE, checks_open
from ..services import common, confirmation, games, rounds, stamps
from ..web import htmx
from ..web.errors import capitalized
from ..web.live import POLL_SECONDS, live_answer, live_request, stamp_etag
from ..web.loaders import game_to_edit
from ..web.scorer import disputed_etag, round_checks, scorer_witness

bp = Blueprint("confirm", __name__, url_prefix="/c")
#: The scorer's side of the checking: their page's disputed notes, asked for again (``/g/<edit token>/disputed``).
scorer_bp = Blueprint("disputes", __name__, url_prefix="/g")

PAGE = "confirm/page.html"
LIVE = "confirm/_live.html"
BLOCKS = ["confirm_live"]
#: Bumped when the live part's markup changes, so browsers drop copies cached before.
FRAGMENT_VERSION = "1"


def witness_game(token: str) -> StoredGame:
    """The game whose confirm token is ``token``; 403 for the game's edit or view token, 404
    (revealing nothing) for any other."""
    stored = confirmation.find_witness(token)
    if stored is not None:
        return stored
    if games.find_by_token(token) is not None:
        abort(
            403,
            _(
                "This is the scorer’s link or the read-only link of the game. A round is checked on another "
                "player’s phone, from the confirm link: a scorer does not confirm their own entry."
            ),
        )
    abort(404)


def live_etag(token: str, language: str) -> str | None:
    """The validator of the live part of the confirm page of ``token`` in ``language`` (32 hex
    digits), from one indexed query (:func:`scorepad.services.stamps.witness_stamp`); None for an unknown token."""
    found = stamps.witness_stamp(token)
    if found is None:
        return None
    return stamp_etag(FRAGMENT_VERSION, token, found, language)


def witness_context(stored: StoredGame, token: str, **extra: Any) -> dict[str, Any]:
    """The confirm page's template variables (:func:`scorepad.pages.confirm.witness_page`) with
    the token, the poll's interval, language and ETag, and ``extra``: ``message`` (a refusal, at
    the top), ``feedback`` (what the witness just did), ``dispute`` (a refused note: ``number``,
    ``note``, ``errors``)."""
    closed = stored.event_id is not None and common.night_closed(stored.event_id, for_write=False)
    checks = round_checks(stored)
    page = witness_page(stored.to_game(), checks, checking=checks_open(stored.confirmation), closed=closed)
    language = str(get_locale())
    page.update(
        {
            "stored": stored,
            "token": token,
            "poll_seconds": POLL_SECONDS,
            "language": language,
            "etag": live_etag(token, language),
            "message": None,
            "feedback": None,
            "dispute": None,
            "note_length": MAX_NOTE,
        }
    )
    page.update(extra)
    return page


@bp.get("/<token>")
def show(token: str):
    """The witness's page: the rounds waiting for a check, newest first, each with Confirm and
    Dispute; the rounds checked already, collapsed."""
    stored = witness_game(token)
    return render_template(PAGE, **witness_context(stored, token))


@bp.get("/<token>/live")
def live(token: str):
    """The live part of the witness's page, polled by htmx: 304 while nothing changed (as the
    board's, :func:`scorepad.views.board.live`). 403 for the edit or view token, 404 for others."""
    _layout, language, varies = live_request(("page",))
    etag = live_etag(token, language)
    if etag is None:
        witness_game(token)  # 403 or 404
    return live_answer(
        etag, varies, language, lambda: render_template(LIVE, **witness_context(witness_game(token), token))
    )


def answer(stored: StoredGame, token: str, status: int, **extra: Any) -> BaseResponse:
    """The page with ``status`` (for htmx: its live part, which replaces itself)."""
    return htmx.page_or_blocks(PAGE, BLOCKS, status=status, **witness_context(stored, token, **extra))


def refusal(stored: StoredGame, token: str, message: str) -> BaseResponse:
    """409: ``message`` above the rounds as they are now."""
    return answer(stored, token, 409, message=capitalized(message))


def check(
    stored: StoredGame, token: str, number: int, form: ConfirmForm, change: Callable[[str], object], done: str
) -> BaseResponse:
    """Run ``change`` (a confirm or a dispute of round ``number``, given the digest of the round
    the page showed) and answer: the fresh list saying ``done`` (htmx), or 303 back to the page
    with ``done`` shown once; 409 with the fresh list when the round changed since the page
    showed it, is gone, checking is off or the night is closed; 422 for a note the services
    refuse; 404 for a round the game never had."""
    if not form.validate_on_submit():
        abort(400)  # no form of ours: no CSRF token
    digest = form.digest.data or ""
    try:
        if not digest:  # the page always sends one: without it, what the witness saw is unknown
            if not 1 <= number <= len(stored.rounds):
                raise LookupError(number)
            raise rounds.round_changed(number)
        change(digest)
    except rounds.RoundChanged:
        return refusal(stored, token, _("Round %(n)d was changed since this page showed it: check it again.", n=number))
    except common.Conflict as exc:
        return refusal(stored, token, engine_text(exc.template, **exc.params))
    except LookupError:
        if not digest:
            abort(404)
        return refusal(stored, token, _("Round %(n)d is no longer there: the scorer undid it.", n=number))
    except ScoringError as exc:
        note = form.note.data if isinstance(form, DisputeForm) else ""
        return answer(stored, token, 422, dispute={"number": number, "note": note, "errors": [error_text(exc)]})
    if htmx.is_htmx():
        return answer(stored, token, 200, feedback=done)
    flash(done)
    return htmx.vary(redirect(url_for("confirm.show", token=token) + "#confirm_live", 303))


@bp.post("/<token>/rounds/<int:number>/confirm")
def confirm(token: str, number: int):
    """Confirm round ``number`` as the page showed it (one tap)."""
    stored = witness_game(token)
    return check(
        stored,
        token,
        number,
        ConfirmForm(),
        lambda digest: confirmation.confirm_round(stored, number, based_on=digest),
        _("Round %(n)d confirmed.", n=number),
    )


@bp.post("/<token>/rounds/<int:number>/dispute")
def dispute(token: str, number: int):
    """Dispute round ``number`` as the page showed it, with a short note for the scorer."""
    stored = witness_game(token)
    form = DisputeForm()
    return check(
        stored,
        token,
        number,
        form,
        lambda digest: confirmation.dispute_round(stored, number, form.note.data or "", based_on=digest),
        _("Round %(n)d disputed: the scorer sees your note.", n=number)
        if (form.note.data or "").strip()
        else _("Round %(n)d disputed.", n=number),
    )


@scorer_bp.get("/<token>/disputed")
def disputed(token: str):
    """The scorer's disputed notes (edit token; 403 for the view token, 404 for others), asked
    for again every few seconds by the scorer's page: 304 while the game did not change."""
    stored = game_to_edit(token)
    _layout, language, varies = live_request(("page",))
    closed = stored.event_id is not None and common.night_closed(stored.event_id, for_write=False)

    def render() -> str:
        witness = scorer_witness(stored, True, with_box=False)
        return render_template(
            "confirm/_disputed.html", witness=witness, can_edit=True, night_closed=closed, token=token
        )

    return live_answer(disputed_etag(stored, language), varies, language, render)
