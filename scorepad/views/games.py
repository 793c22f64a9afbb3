"""The scorer's pages: home (recent games on this device), a new game, the game page.

Everything shown is computed by the engine (``scoring.score``) and arranged by
:mod:`scorepad.pages.scorer`; templates only display it.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, flash, redirect, render_template, request, session, url_for
from flask_babel import gettext as _

from .. import labels
from ..forms.common import ButtonForm, UnreadableImport
from ..forms.games import ImportGameForm, NewGameForm
from ..forms.rounds import RoundForm
from ..i18n import error_text
from ..models import StoredGame
from ..pages.common import isolated_text
from ..pages.scorer import recent_game
from ..scoring import ScoringError, parse_game
from ..services import games, nights, presets
from ..services.clubs import ClubRefused
from ..services.rematch import start_rematch
from ..web import htmx
from ..web.device import creator, device_id
from ..web.errors import accepted, capitalized, error_response, page_errors, refusals_on
from ..web.limits import GAME_STARTS, limit
from ..web.loaders import any_game, game_to_edit
from ..web.recent import NIGHTS, admin_club, admin_clubs, keep_recent, recent_tokens
from ..web.recent import remember_game as remember
from ..web.scorer import CHANGED_KEY, SCORER_BLOCKS, ScorerForms, scorer_context

bp = Blueprint("games", __name__)
#: The game page's forms (:func:`scorepad.web.scorer.scorer_context`).
FORMS = ScorerForms(ButtonForm, RoundForm)


@bp.app_context_processor
def inject_labels() -> dict[str, Any]:
    """The game's words (contract, suit and rank names) for every template."""
    return {"labels": labels}


@bp.get("/")
def home(import_form: ImportGameForm | None = None, status: int = 200):
    """Start page: a big New game button, this device's recent games and the club nights it
    created or directed (their consoles), importing a game."""
    recent = []
    tokens = recent_tokens()
    for token in tokens:
        found = games.find_by_token(token)
        if found is None:
            continue
        stored, _can_edit = found
        recent.append({"stored": stored, **recent_game(stored.to_game())})
    keep_recent(tokens)  # seals a list a cookie from before kept in clear (else the cookie stays as it is)
    directed = [
        found[0]
        for found in map(nights.find_night, recent_tokens(NIGHTS))
        if found and found[1] == nights.NightRole.DIRECTOR
    ]
    form = import_form or ImportGameForm()
    return (
        render_template("games/home.html", recent=recent, nights=directed, clubs=admin_clubs(), import_form=form),
        status,
    )


@bp.post("/games/import")
@limit(GAME_STARTS)
def import_game():
    """Import a game document (a file): a new game with new links, its rounds replayed by
    the engine → 303 to its page; a bad file re-renders the home page with 422 and the
    problem (the document path and message) next to the field."""
    form = ImportGameForm()
    if form.validate_on_submit():
        try:
            document = form.game_json()
            stored, game = games.create_game(document, **creator())
        except ScoringError as exc:
            where = exc.path or _("the file")
            form.file.errors = [_("%(path)s: %(message)s", path=where, message=error_text(exc))]
        except UnreadableImport as exc:  # its own type: no other error's text (Python's words) is shown
            form.file.errors = [exc.message]
        except ClubRefused:
            form.file.errors = [
                _(
                    "club: this game was played for a club; only the club’s admin link adds games to the club "
                    "(remove “club” and “members” from the file to import it as a game of its own)"
                )
            ]
        else:
            remember(stored)
            flash(
                _(
                    "Imported: %(n)d of %(total)d rounds. This game has its own new links.",
                    n=len(game.rounds),
                    total=game.preset.round_count,
                )
            )
            return redirect(url_for("games.scorer", token=stored.edit_token), 303)
    return home(import_form=form, status=422)


def new_game_at_limit(message: str) -> tuple[str, int] | None:
    """The new-game form's answer to a game beyond the limit: 429, the reason at the top and
    what was typed kept. None while the form has errors, the form's or the engine's (the page
    says which, with 422)."""
    form = NewGameForm(saved=presets.device_presets(device_id()))
    if not form.validate_on_submit():
        return None
    document = form.to_document()
    if accepted(lambda: parse_game(document, presets.saved_for_document(document))) is None:
        return None
    form.form_errors.append(message)
    return render_template("games/new.html", form=form), 429


@bp.route("/games/new", methods=["GET", "POST"])
@limit(GAME_STARTS, refuse=new_game_at_limit)
def new():
    """The new-game form; a valid one starts the game and goes to its page (303).
    ``?preset=<id>`` picks a preset (built-in or this device's) and its default players."""
    form = NewGameForm(saved=presets.device_presets(device_id()))
    if request.method == "GET":
        form.prefill(request.args.get("preset"))
    if form.validate_on_submit():
        document = form.to_document()
        with refusals_on(form):
            stored, game = games.create_game(document, **creator())
            remember(stored)
            if form.drawn:
                flash(
                    _("Drawn by lot: %(name)s declares first.", name=isolated_text(game.players[game.first_declarer]))
                )
            return redirect(url_for("games.scorer", token=stored.edit_token), 303)
    status = 422 if form.is_submitted() else 200
    return render_template("games/new.html", form=form), status


@bp.get("/g/<token>")
def scorer(token: str):
    """The game page: score table, current round, the round form (edit token) or read-only."""
    stored, can_edit = any_game(token)
    feedback = None
    if can_edit:
        remember(stored)
        changed = session.pop(CHANGED_KEY, None)  # shown once, and only on the game it is about
        ours = isinstance(changed, dict) and changed.get("game") == stored.id
        # ... while it still has the round: another phone may have undone it since the edit.
        feedback = changed if ours and 1 <= changed.get("number", 0) <= len(stored.rounds) else None
    context = scorer_context(stored, token, can_edit, FORMS, feedback=feedback)
    return htmx.page_or_blocks("games/scorer.html", SCORER_BLOCKS, **context)


def refused_rematch(stored: StoredGame, token: str, message: str, status: int):
    """The game page with ``status`` and why no rematch was started at the top."""
    context = scorer_context(stored, token, True, FORMS, message=capitalized(message))
    return htmx.page_or_blocks("games/scorer.html", SCORER_BLOCKS, status=status, **context)


def refused(status: int, message: str, error: Exception):
    """A use case refused on the game's page (a rematch not started: 409 while the game is not
    finished): the game page with the status and why (:func:`scorepad.web.errors.page_errors`)."""
    token = (request.view_args or {}).get("token")
    if token is None:  # not a game's page: the error page
        return error_response(status, message)
    return refused_rematch(game_to_edit(token), token, message, status)


page_errors(bp, refused)


def rematch_at_limit(message: str):
    """Play again beyond the new-game limits: the game page with 429 and the reason at the top."""
    token = (request.view_args or {}).get("token", "")
    return refused_rematch(game_to_edit(token), token, message, 429)


@bp.post("/g/<token>/rematch")
@limit(GAME_STARTS, refuse=rematch_at_limit)
def rematch(token: str):
    """Play again (edit token; a button POST with its CSRF token): a new game with the same
    players in the same seats, the same preset and title, the next player declaring first →
    303 to its page. A club's game plays again for the club only on a device that opened the
    club's admin page (it holds the admin token, :func:`scorepad.web.recent.admin_club`);
    elsewhere the new game counts for no club, and the page says so. 409 (the game page
    saying why) while the game is not finished. It counts against the same limits as a new
    game (429 beyond them)."""
    stored = game_to_edit(token)
    if not ButtonForm().validate_on_submit():
        abort(400)
    club = admin_club(stored.club_id)  # a club's game plays again for it only where its admin link was opened
    new_game, game, started = start_rematch(stored, club=club, **creator())
    remember(new_game)
    first = isolated_text(game.players[game.first_declarer])
    if started and stored.club_id is not None and club is None:
        flash(_("Play again: %(name)s declares first. This game does not count for the club.", name=first))
    elif started:
        flash(_("Play again: %(name)s declares first.", name=first))
    else:  # a second phone or tap: the table's one new game
        flash(_("This game is being played again already: here it is. %(name)s declares first.", name=first))
    return redirect(url_for("games.scorer", token=new_game.edit_token), 303)
