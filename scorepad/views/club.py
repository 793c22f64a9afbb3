"""A club's pages (club-format.md "Club, members, statistics, ladder, rating"): a new
club (``/clubs/new``) and, at URLs carrying the club's admin or view token (``/k/<token>``), the
club page, a member's page and its charts, a club game read-only, the printable ladder and its
CSV; with the admin token only, adding, renaming and merging members and starting a game or a
club night for the club (the new-game and new-night forms offering the members).

Thin views: the forms collect (scorepad/forms/),
:mod:`scorepad.services.clubs` stores and computes (the engine's statistics and ladder, the ratings),
:mod:`scorepad.pages.club` arranges, the templates (templates/club/) show. A token that is not
the club's is 404 (nothing can be enumerated); the view token on an admin's page or action, 403.
"""

from __future__ import annotations

import random
from datetime import date
from typing import Any

from babel.dates import format_skeleton
from flask import Blueprint, Response, abort, flash, redirect, render_template, request, url_for
from flask_babel import format_date, get_locale
from flask_babel import gettext as _

from ..forms.clubs import MemberForm, MergeForm, NewClubForm, RenameForm
from ..forms.games import NewGameForm
from ..forms.nights import ClubNightForm
from ..pages.board import board_page
from ..pages.club import (
    LADDER_TOP,
    ladder_csv,
    ladder_rows,
    ladder_rules_text,
    member_figures,
    overview_rows,
    rating_points,
    results_points,
)
from ..pages.common import isolated_text
from ..pages.console import inline_qr
from ..render.charts import rating_svg, results_svg
from ..scoring import parse_game
from ..scoring.night import parse_event
from ..security import image_policy
from ..services import club_stats, clubs, common, games, nights, presets
from ..web.device import creator, device_id
from ..web.downloads import send_download
from ..web.errors import accepted, refusals_on
from ..web.limits import EVENT_STARTS, GAME_STARTS, limit
from ..web.recent import CLUBS, remember, remember_game
from ..web.trust import trust_of

bp = Blueprint("club", __name__)


def club_of(token: str) -> tuple[clubs.StoredClub, bool]:
    """The club of an admin or view token and whether it is the admin's; 404 for any other token."""
    found = clubs.find_club(token)
    if found is None:
        abort(404)
    club, role = found
    return club, role == clubs.ADMIN


def admin_club(token: str) -> clubs.StoredClub:
    """The club of its admin token: 404 for an unknown token, 403 for the club's view token."""
    club, admin = club_of(token)
    if not admin:
        abort(403, _("This is the club’s view link; managing the club needs its admin link."))
    return club


def member_pairs(club: clubs.StoredClub) -> list[tuple[str, str]]:
    """The club's members as ``(public id, name)``, in the club's order."""
    return [(member.public_id, member.name) for member in clubs.club_members(club)]


def long_date(day: date) -> str:
    """A date as a heading writes it, in the page's language (3 December 2026)."""
    return str(format_date(day, "long"))


def short_date(day: date) -> str:
    """A date as a chart's axis writes it, short (no year: the table beside the chart has it),
    in the page's language: Mar 15, 15. März, 15 mrt, 15 mars."""
    return str(format_skeleton("MMMd", day, locale=get_locale()))


def member_url_of(token: str):
    """A member's page URL under ``token``, for the templates: ``member_url(member id)``."""
    return lambda member_id: url_for("club.member_page", token=token, member_id=member_id)


@bp.route("/clubs/new", methods=["GET", "POST"])
@limit(EVENT_STARTS)
def new():
    """The new-club form (name, ladder settings); a valid one creates the club and goes to its
    admin page (303), which says to keep its link. Errors name the field (422)."""
    form = NewClubForm()
    if form.validate_on_submit():
        with refusals_on(form):
            club = clubs.create_club(form.to_document())
            flash(
                _("The club is ready. Keep this page’s link: it is the club’s admin link, which manages the members.")
            )
            return redirect(url_for("club.page", token=club.admin_token), 303)
    return render_template("club/new.html", form=form), 422 if form.is_submitted() else 200


def club_context(club: clubs.StoredClub, token: str, admin: bool, **forms: Any) -> dict[str, Any]:
    """The club page's template variables: the club, its members' figures
    (:func:`scorepad.pages.club.overview_rows`), the ladder's first lines, the ladder's rules
    and, for the admin, the members' forms (one given with its errors is kept) and the view
    link with its QR code."""
    pairs = member_pairs(club)
    rules, entries = club_stats.club_ladder(club)
    context: dict[str, Any] = {
        "club": club,
        "token": token,
        "admin": admin,
        "members": overview_rows(club_stats.club_overview(club)),
        "ladder_top": ladder_rows(entries[:LADDER_TOP]),
        "rules": ladder_rules_text(rules, long_date),
        "member_url": member_url_of(token),
        "message": forms.get("message"),
    }
    if admin:
        view_url = url_for("club.page", token=club.view_token, _external=True)
        context.update(
            {
                "member_form": forms.get("member_form") or MemberForm(formdata=None),
                "rename_form": forms.get("rename_form") or RenameForm(formdata=None, members=pairs),
                "merge_form": forms.get("merge_form")
                or MergeForm(formdata=None, members=pairs, data=merge_default(pairs)),
                "view_url": view_url,
                "view_url_text": view_url.split("://", 1)[-1],
                "view_qr": inline_qr(view_url),
            }
        )
    return context


@bp.get("/k/<token>")
def page(token: str):
    """The club page: its members (games, wins, average, rating), the ladder's top and, with the
    admin link, the members' forms, the view link and a new game or night for the club."""
    club, admin = club_of(token)
    if admin:  # first in this device's clubs on the home page: the admin link is not lost
        remember(token, CLUBS)
    return render_template("club/page.html", **club_context(club, token, admin))


def merge_default(pairs: list[tuple[str, str]]) -> dict[str, str]:
    """The merge form's first choice: the first member into the second (never one into itself)."""
    return {"source": pairs[0][0], "target": pairs[1][0]} if len(pairs) > 1 else {}


def refused(club: clubs.StoredClub, token: str, status: int, **forms: Any) -> tuple[str, int]:
    """The admin's club page with ``status`` and the refused form's errors."""
    return render_template("club/page.html", **club_context(club, token, True, **forms)), status


@bp.post("/k/<token>/members")
def add_member(token: str):
    """Add a member (admin) → 303 to the club page; 422 with the message next to the name."""
    club = admin_club(token)
    form = MemberForm()
    if form.validate_on_submit():
        with refusals_on(form, field="name"):
            member = clubs.add_member(club, form.name.data or "")
            flash(_("%(name)s is a member.", name=isolated_text(member.name)))
            return redirect(url_for("club.page", token=token) + "#manage", 303)
    return refused(club, token, 422, member_form=form)


def chosen_member(club: clubs.StoredClub, member_id: str | None) -> clubs.StoredMember | None:
    """The club's member of a form's choice (public id), or None."""
    return clubs.find_member(club, member_id) if member_id else None


@bp.post("/k/<token>/rename")
def rename(token: str):
    """Rename a member (admin) → 303 to the club page; 422 with the message next to the field."""
    club = admin_club(token)
    form = RenameForm(members=member_pairs(club))
    if form.validate_on_submit():
        member = chosen_member(club, form.member.data)
        if member is None:
            form.member.errors.append(_("Choose a member of the club."))
        else:
            old = member.name
            with refusals_on(form, field="name"):
                clubs.rename_member(club, member, form.name.data or "")
                flash(_("%(old)s is now %(new)s.", old=isolated_text(old), new=isolated_text(member.name)))
                return redirect(url_for("club.page", token=token) + "#manage", 303)
    return refused(club, token, 422, rename_form=form)


@bp.post("/k/<token>/merge")
def merge(token: str):
    """Merge two members (admin), in two steps without JavaScript: the form's choice shows what
    will happen (200, a confirm button); the confirmed POST merges → 303 to the club page. Two
    equal choices 422; members who sat at one table together cannot be merged (409, saying so)."""
    club = admin_club(token)
    form = MergeForm(members=member_pairs(club))
    if form.validate_on_submit():
        source = chosen_member(club, form.source.data)
        target = chosen_member(club, form.target.data)
        if source is None or target is None:
            form.form_errors.append(_("Choose two members of the club."))
        elif source.id == target.id:
            form.form_errors.append(_("Choose two different members."))
        else:
            # Refused at the first step (the confirm page) as well as at the second (a change in
            # between): on the merge's own short page, the refusal at its top, in view.
            sides = merge_sides(club, source, target)
            with refusals_on(form, at_top=True, conflicts=True) as refusal:
                if form.confirmed.data != "yes":
                    clubs.check_merge(source, target)
                    return render_template("club/merge.html", club=club, token=token, form=form, **sides)
                clubs.merge_members(club, source, target)
                flash(
                    _(
                        "%(source)s and %(target)s are one member now: %(target)s.",
                        source=isolated_text(source.name),
                        target=isolated_text(target.name),
                    )
                )
                return redirect(url_for("club.page", token=token) + "#members", 303)
            page = render_template("club/merge.html", club=club, token=token, form=form, refused=True, **sides)
            return page, refusal.status or 409
    return refused(club, token, 422, merge_form=form)


def merge_sides(club: clubs.StoredClub, *members: clubs.StoredMember) -> dict[str, dict[str, Any]]:
    """The merge page's ``source`` and ``target``: each member's public id, name and games."""
    games = {row.member.id: row.games for row in club_stats.club_overview(club)}
    return {
        key: {"id": m.public_id, "name": m.name, "games": games.get(m.id, 0)}
        for key, m in zip(("source", "target"), members, strict=True)
    }


def member_of(club: clubs.StoredClub, member_id: str) -> clubs.StoredMember:
    """The club's member with this public id (a merged one's target); 404 for none."""
    member = clubs.find_member(club, member_id)
    if member is None:
        abort(404)
    return member


@bp.get("/k/<token>/m/<member_id>")
def member_page(token: str, member_id: str):
    """A member's page: the spec's statistics, the rating and its chart, the result per game
    and the last games. A merged member's old id moves to the member it became (303)."""
    club, admin = club_of(token)
    found = member_of(club, member_id)
    if found.public_id != member_id:
        return redirect(url_for("club.member_page", token=token, member_id=found.public_id), 303)
    stats = club_stats.member_statistics(club, found)
    context = member_figures(stats, club_stats.member_rating(club, found), clubs.member_names(club))
    opponents = club_stats.opponents(club, found, [game.game_id for game in context["games"]])
    return render_template(
        "club/member.html",
        club=club,
        token=token,
        admin=admin,
        name=found.name,
        member_id=found.public_id,
        opponents=opponents,
        **context,
    )


def svg_answer(body: bytes) -> Response:
    """A chart as an SVG image, kept by the browser only while it revalidates (a game may change it)."""
    response = Response(body, mimetype="image/svg+xml")
    response.headers["Cache-Control"] = "private, no-cache"
    return response


@bp.get("/k/<token>/m/<member_id>/rating.svg")
@image_policy
def rating_chart(token: str, member_id: str):
    """The member's rating after each rated game (μ and the ordinal), as an SVG chart."""
    club, _admin = club_of(token)
    rating = club_stats.member_rating(club, member_of(club, member_id))
    return svg_answer(rating_svg(rating_points(rating, short_date)))


@bp.get("/k/<token>/m/<member_id>/results.svg")
@image_policy
def results_chart(token: str, member_id: str):
    """The member's points in each of their latest games, as an SVG chart."""
    club, _admin = club_of(token)
    stats = club_stats.member_statistics(club, member_of(club, member_id))
    return svg_answer(results_svg(results_points(stats.history, short_date)))


@bp.get("/k/<token>/g/<int:game_id>")
def game(token: str, game_id: int):
    """A club game, read-only, under the club's token (a game's own view token is not stored):
    the board's standings and score sheet; 404 unless the game is the club's."""
    club, _admin = club_of(token)
    stored = clubs.club_game(club, game_id)
    if stored is None:
        abort(404)
    context = board_page(stored.to_game(), "board")
    names = clubs.member_names(club)
    seats = [{"id": mid, "name": names[mid]} if mid in names else None for mid in stored.members or [None] * 4]
    return render_template(
        "club/game.html", club=club, token=token, stored=stored, trust=trust_of(stored), members=seats, **context
    )


@bp.get("/k/<token>/ladder")
def ladder_page(token: str):
    """The season ladder, printable on one page (60 members fit)."""
    club, admin = club_of(token)
    rules, entries = club_stats.club_ladder(club)
    return render_template(
        "club/ladder.html",
        club=club,
        token=token,
        admin=admin,
        rows=ladder_rows(entries),
        rules=ladder_rules_text(rules, long_date),
        member_url=member_url_of(token),
        today=common.clock().date(),
    )


@bp.get("/k/<token>/ladder.csv", endpoint="ladder_csv")
def ladder_download(token: str):
    """The ladder as CSV (:func:`scorepad.pages.club.ladder_csv`)."""
    club, _admin = club_of(token)
    _rules, entries = club_stats.club_ladder(club)
    body = ladder_csv(entries).encode("utf-8-sig")
    return send_download(body, "text/csv", f"{common.clock().date().isoformat()} {club.name} ladder.csv")


def form_extras(club: clubs.StoredClub, token: str, endpoint: str) -> dict[str, Any]:
    """What the new-game and new-night forms show for a club: the club, the members' names (the
    form offers them), where the form posts."""
    return {
        "club": club,
        "club_token": token,
        "member_names": [name for _id, name in member_pairs(club)],
        "form_action": url_for(endpoint, token=token),
    }


def game_form(club: clubs.StoredClub, token: str, form: NewGameForm, status: int) -> tuple[str, int]:
    """The new-game form for the club with what was typed and its errors."""
    return render_template("games/new.html", form=form, **form_extras(club, token, "club.new_game")), status


def night_form(club: clubs.StoredClub, token: str, form: ClubNightForm, status: int) -> tuple[str, int]:
    """The new-night form for the club with what was typed and ticked, its errors and the count of players."""
    today = common.clock().date().isoformat()
    if not form.is_submitted():
        form.date.data = form.date.data or today
    extras = form_extras(club, token, "club.new_night")
    context = {"form": form, "today": today, "count": len(form.names()), "members": form.members, **extras}
    return render_template("director/new.html", **context), status


def at_limit(message: str, check: Any, answer: Any) -> Any:
    """A club's new game or night beyond the limits: 429 with the reason at the top of the form and
    what was typed kept (``answer(club, token)`` builds the form); None while the form has
    errors, the form's or the engine's (``check(document, saved)`` raises): the view then says which."""
    token = (request.view_args or {}).get("token", "")
    club = admin_club(token)
    form = answer(club, token)
    if not form.validate_on_submit():
        return None
    document = form.to_document()
    if accepted(lambda: check(document, presets.saved_for_document(document))) is None:
        return None
    form.form_errors.append(message)
    return (game_form if isinstance(form, NewGameForm) else night_form)(club, token, form, 429)


def new_game_form(club: clubs.StoredClub, token: str) -> NewGameForm:
    """The new-game form of this device (its saved presets offered)."""
    return NewGameForm(saved=presets.device_presets(device_id()))


def new_night_form(club: clubs.StoredClub, token: str) -> ClubNightForm:
    """The club's new-night form of this device: its saved presets and the club's members offered."""
    return ClubNightForm(saved=presets.device_presets(device_id()), members=member_pairs(club))


def parse_night(document: Any, saved: Any) -> Any:
    """The engine's check of a night's document (its seating drawn at random: only validity matters here)."""
    return parse_event(document, saved, random.Random())


def for_the_club(club: clubs.StoredClub, document: dict[str, Any], check: Any) -> dict[str, Any]:
    """A game's or a night's ``document`` from the club's form, made the club's: its ``club`` and
    the ``members`` of its players (:func:`scorepad.services.clubs.members_for_names`: a name typed anew
    becomes a member, stored with the game). The engine checks the document first (``check``
    raises :class:`ScoringError`), so that nobody becomes a member of a game that is refused."""
    check(document, presets.saved_for_document(document))
    return {**document, "club": club.public_id, "members": clubs.members_for_names(club, document["players"])}


@bp.route("/k/<token>/game", methods=["GET", "POST"])
@limit(GAME_STARTS, refuse=lambda message: at_limit(message, parse_game, new_game_form))
def new_game(token: str):
    """The new-game form for the club (admin): the members offered on each player's field; the
    names typed anew become members; the game counts for the club → 303 to its scorer's page."""
    club = admin_club(token)
    form = new_game_form(club, token)
    if request.method == "GET":
        form.prefill(request.args.get("preset"))
    if form.validate_on_submit():
        with refusals_on(form):
            document = for_the_club(club, form.to_document(), parse_game)
            stored, started = games.create_game(document, club=club, **creator())
            remember_game(stored)
            if form.drawn:
                first = isolated_text(started.players[started.first_declarer])
                flash(_("Drawn by lot: %(name)s declares first.", name=first))
            return redirect(url_for("games.scorer", token=stored.edit_token), 303)
    return game_form(club, token, form, 422 if form.is_submitted() else 200)


@bp.route("/k/<token>/night", methods=["GET", "POST"])
@limit(EVENT_STARTS, refuse=lambda message: at_limit(message, parse_night, new_night_form))
def new_night(token: str):
    """The new-night form for the club (admin): the members ticked as present, other players
    typed (they become members); the night's games count for the club → 303 to its director's
    console."""
    club = admin_club(token)
    form = new_night_form(club, token)
    if form.validate_on_submit():
        with refusals_on(form):
            stored = nights.create_night(for_the_club(club, form.to_document(), parse_night), club=club, **creator())
            flash(_("The night is ready: keep this page’s link, it is the director’s."))
            return redirect(url_for("director.page", token=stored.director_token), 303)
    return night_form(club, token, form, 422 if form.is_submitted() else 200)
