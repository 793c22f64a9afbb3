"""The club night's organiser and director pages (club-format.md "Club night",
"Director"): creating a night (``/events/new``), its seating plan, the printable table cards
and the director's console, at URLs carrying the director token (``/d/<token>``).

Thin views: the forms collect (scorepad/forms/nights.py), :mod:`scorepad.services.nights` stores and
computes (the engine decides the seating, the leaderboard and which tables stand out),
:mod:`scorepad.pages.console` arranges, the templates (templates/director/) show.
"""

from __future__ import annotations

import random
from typing import Any

from flask import Blueprint, abort, flash, make_response, redirect, render_template, request, url_for
from flask_babel import get_translations, ngettext
from flask_babel import gettext as _

from ..forms.common import ButtonForm
from ..forms.nights import AdjustmentForm, NewEventForm, SwapForm
from ..i18n import engine_text, signed
from ..models import StoredEvent
from ..pages.console import console_page, inline_qr
from ..scoring.night import parse_event
from ..services import common, nights, presets
from ..services.night_state import NightState, night_state, unconfirmed_message
from ..services.nights import NightRole
from ..web import htmx
from ..web.device import creator, device_id
from ..web.errors import accepted, capitalized, refusals_on
from ..web.limits import EVENT_STARTS, limit
from ..web.recent import NIGHTS, remember

# No url_prefix: the new-night form lives at /events/new, the director's pages under /d/.
bp = Blueprint("director", __name__)

#: The console's part that refreshes itself (htmx polling, a plain re-fetch of the block).
CONSOLE_BLOCKS = ["console_live"]
#: Seconds between two refreshes of the console's live part.
POLL_SECONDS = 10


def director_event(token: str) -> StoredEvent:
    """The night of a director token: 404 for an unknown token, 403 for the night's view token."""
    found = nights.find_night(token)
    if found is None:
        abort(404)
    stored, role = found
    if role != NightRole.DIRECTOR:
        abort(403, _("This is the night’s public link; the director’s pages need the director’s link."))
    return stored


def console_context(stored: StoredEvent, token: str, **forms: Any) -> dict[str, Any]:
    """The console's template variables: :func:`scorepad.pages.console.console_page` of the night
    now, its token, the poll interval, and its forms (an adjustment form with errors may be given)."""
    state = night_state(stored, NightRole.DIRECTOR)
    page = console_page(state, common.clock())
    page.update(
        {
            "token": token,
            "poll_seconds": POLL_SECONDS,
            "adjustment_form": forms.get("adjustment_form") or AdjustmentForm(players=page["names"]),
            "button_form": ButtonForm(),
            "message": forms.get("message"),
            "unfinished": unfinished_tables(state),
        }
    )
    return page


def new_form(form: NewEventForm, status: int):
    """The new-night form with what was typed, its errors and the count of players typed."""
    today = common.clock().date().isoformat()
    if not form.is_submitted():
        form.date.data = form.date.data or today
    return render_template("director/new.html", form=form, today=today, count=len(form.names())), status


def new_at_limit(message: str):
    """A night beyond the limits of new nights: 429, the reason at the top of the form and what
    was typed kept. None while the form has errors, the form's or the engine's (the page says
    which, with 422), as for a new game."""
    form = NewEventForm(saved=presets.device_presets(device_id()))
    if not form.validate_on_submit():
        return None
    document = form.to_document()
    if accepted(lambda: parse_event(document, presets.saved_for_document(document), random.Random())) is None:
        return None
    form.form_errors.append(message)
    return new_form(form, 429)


@bp.route("/events/new", methods=["GET", "POST"])
@limit(EVENT_STARTS, refuse=new_at_limit)
def new():
    """The new-night form; a valid one creates the night, its seating and every table's game,
    and goes to the director's console (303). Errors name the field (422)."""
    form = NewEventForm(saved=presets.device_presets(device_id()))
    if form.validate_on_submit():
        with refusals_on(form):
            stored = nights.create_night(form.to_document(), **creator())
            flash(_("The night is ready: keep this page’s link, it is the director’s."))
            return redirect(url_for("director.page", token=stored.director_token), 303)
    return new_form(form, 422 if form.is_submitted() else 200)


@bp.get("/d/<token>")
def page(token: str):
    """The director's console: every table's progress, the leaderboard, adjustments, close and
    reopen; its live part refreshes itself (htmx asks for that block alone)."""
    stored = director_event(token)
    if not htmx.is_htmx():  # opened (not the console's own refresh): first in this device's nights
        remember(token, NIGHTS)
    return htmx.page_or_blocks("director/console.html", CONSOLE_BLOCKS, **console_context(stored, token))


def refused(stored: StoredEvent, token: str, status: int, **forms: Any):
    """The console with ``status`` and the refusal (a form with errors, or a ``message``)."""
    body = render_template("director/console.html", **console_context(stored, token, **forms))
    return htmx.vary(make_response(body, status))


@bp.post("/d/<token>/adjustments")
def add_adjustment(token: str):
    """Add an adjustment (player, points, reason) → 303 to the console; 422 with the message
    next to the field, 409 when the night is closed."""
    stored = director_event(token)
    form = AdjustmentForm(players=stored.players)
    if form.validate_on_submit():
        with refusals_on(form, conflicts=True) as refusal:
            nights.add_adjustment(stored, *form.values())
            flash(_("Adjustment added."))
            return redirect(url_for("director.page", token=token) + "#adjustments", 303)
        return refused(stored, token, refusal.status or 422, adjustment_form=form)
    return refused(stored, token, 422, adjustment_form=form)


@bp.post("/d/<token>/adjustments/<int:adjustment_id>/remove")
def remove_adjustment(token: str, adjustment_id: int):
    """Remove an adjustment (a button POST, confirmed on the console) → 303 to the console
    saying which; 404 for an adjustment this night does not have, 409 when the night is closed."""
    stored = director_event(token)
    if not ButtonForm().validate_on_submit():
        abort(400)
    try:
        removed = nights.remove_adjustment(stored, adjustment_id)
    except common.NotFound:
        abort(404)
    except common.Conflict as exc:
        message = engine_text(exc.template, **exc.params)
        return refused(stored, token, 409, message=capitalized(message))
    name = stored.players[removed.player]
    points = signed(removed.points, plus=True)
    flash(_("Adjustment removed: %(name)s %(points)s (%(reason)s).", name=name, points=points, reason=removed.reason))
    return redirect(url_for("director.page", token=token) + "#adjustments", 303)


def _button(token: str, action: Any, done: str):
    """A button POST (CSRF only) that runs ``action(stored)`` → 303 to the console saying ``done``."""
    stored = director_event(token)
    if not ButtonForm().validate_on_submit():
        abort(400)
    try:
        action(stored)
    except nights.Unconfirmed as exc:  # the tables and rounds, named in the page's language
        message = unconfirmed_message(exc.tables, get_translations())
        return refused(stored, token, 409, message=capitalized(message))
    except common.Conflict as exc:
        return refused(stored, token, 409, message=engine_text(exc.template, **exc.params))
    flash(done)
    return redirect(url_for("director.page", token=token), 303)


def unfinished_tables(state: NightState) -> int:
    """How many of the night's tables have not played their last round (the services' ``complete``)."""
    return sum(1 for session in state.sessions for table in session.tables if not table.complete)


@bp.post("/d/<token>/close")
def close(token: str):
    """Close the night: every table read-only (409 on writes) until it is reopened. While a
    table has not finished, the form must say so (its ``unfinished`` box ticked, which the
    console shows only then): else 422 with the count, nothing closed. A night that requires
    confirmation does not close while a round is not confirmed: 409 naming the tables and
    rounds (:class:`scorepad.services.nights.Unconfirmed`)."""
    stored = director_event(token)
    if request.form.get("unfinished") != "yes":
        left = unfinished_tables(night_state(stored, NightRole.DIRECTOR))
        if left and ButtonForm().validate_on_submit():
            message = ngettext(
                "%(num)d table has not finished: tick the box to close the night all the same.",
                "%(num)d tables have not finished: tick the box to close the night all the same.",
                left,
            )
            return refused(stored, token, 422, message=message)
    return _button(token, nights.close_night, _("The night is closed: every table is read-only."))


@bp.post("/d/<token>/reopen")
def reopen(token: str):
    """Reopen a closed night: the tables can be scored again."""
    return _button(token, nights.reopen_night, _("The night is open again."))


@bp.route("/d/<token>/seating", methods=["GET", "POST"])
def seating(token: str):
    """The seating plan of every session, and a swap of two players in a session (POST →
    303 here); refused (409, saying why) once that session has a round or the night is closed.
    A swap that seats together players who share a table in another session is not made: the
    page (422) names them and the sessions, and its "Swap all the same" makes it."""
    stored = director_event(token)
    state = night_state(stored, NightRole.DIRECTOR)
    names = state.spec.players
    form = SwapForm(sessions=len(state.sessions), players=names)
    status = 200
    meetings: tuple[Any, ...] = ()
    if form.is_submitted():
        status = 422
        values = form.values() if form.validate() else None
        if values is not None:
            session, first, second = values
            meet_again = request.form.get("meet_again") == "yes"  # the warning's "Swap all the same"
            with refusals_on(form, at_top=True, conflicts=True) as refusal:
                try:
                    nights.swap_players(stored, session, first, second, meet_again=meet_again)
                except nights.MeetsAgain as exc:  # asked first: the page says who meets again, where
                    meetings = exc.meetings
                else:
                    flash(_("Session %(n)d: %(a)s and %(b)s trade places.", n=session, a=names[first], b=names[second]))
                    # to the session changed: its new tables in view
                    return redirect(url_for("director.seating", token=token, _anchor=f"session-{session}"), 303)
            status = refusal.status or 422
        state = night_state(stored, NightRole.DIRECTOR)
    context = console_page(state, common.clock())
    return render_template("director/seating.html", token=token, form=form, meetings=meetings, **context), status


def confirm_url(token: str) -> str:
    """The absolute URL of the confirm page of a table's confirm token (``/c/<token>``, the
    witness's page: club-format.md "Trust")."""
    return url_for("confirm.show", token=token, _external=True)


@bp.get("/d/<token>/cards")
def cards(token: str):
    """The printable table cards: pages of six cards (A4 or US Letter), a card per table with
    its players in seat order, who declares first, the QR code of its scorer page and, unless
    the night's confirmation is off, of its confirm page (the other player checks there), and
    the scorer page's address; every session's, or one session's with ``?session=<n>`` (a
    later session printed when its players arrive; 404 for a session the night does not have)."""
    stored = director_event(token)
    context = console_page(night_state(stored, NightRole.DIRECTOR), common.clock())
    only = request.args.get("session")
    if only is not None:
        chosen = [s for s in context["sessions"] if str(s["number"]) == only]
        if not chosen:
            abort(404)
        context["printed"] = chosen
    else:
        context["printed"] = context["sessions"]
    qr = {}
    checks = context["confirmation"] != "off"
    for session in context["printed"]:
        for part in session["tables"]:
            table = part["table"]
            url = url_for("games.scorer", token=table.edit_token, _external=True)
            qr[(table.session, table.number)] = {
                "svg": inline_qr(url),
                "url": url.split("://", 1)[-1],
                "confirm": inline_qr(confirm_url(table.confirm_token)) if checks and table.confirm_token else None,
            }
    return render_template("director/cards.html", token=token, qr=qr, only=only, **context)
