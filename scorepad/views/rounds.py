"""Recording, showing, editing and undoing rounds of a game (the scorer's phone flow).

Step 1 picks the contract (``rounds.new?contract=…``), step 2 posts the round
(``rounds.create``). Every POST needs the edit token (403 for the view token); the engine
validates through :mod:`scorepad.services` and its refusals come back next to the field.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, make_response, redirect, render_template, request, session, url_for
from flask_babel import gettext as _

from ..forms.common import ButtonForm, NumberedForm, whole_number
from ..forms.rounds import PutBackForm, RoundForm, UndoForm
from ..i18n import engine_text
from ..models import StoredGame
from ..pages.rounds import (
    contract_refusal,
    edit_page,
    edit_summary,
    entered_round,
    free_of,
    preview_fragment,
    round_page,
)
from ..pages.rounds import preview_of as round_preview
from ..scoring import Game, score
from ..scoring.game import declarer_of
from ..scoring.trust import shown_status
from ..services import common, games, rounds
from ..services.scorer import scorer_state
from ..web import htmx
from ..web.errors import capitalized, page_errors, refusals_on
from ..web.loaders import any_game, game_to_edit
from ..web.scorer import CHANGED_KEY, SCORER_BLOCKS, ScorerForms, scorer_context

bp = Blueprint("rounds", __name__, url_prefix="/g/<token>/rounds")

SCORER = "games/scorer.html"
#: The game page's forms (:func:`scorepad.web.scorer.scorer_context`).
FORMS = ScorerForms(ButtonForm, RoundForm)
#: The ``data-refusal`` code of a refused save, undo or preview by HTTP status (contracts.md §1).
REFUSALS = {409: "conflict", 422: "invalid"}
#: Round form fields that are not part of the round: left out of its idempotency digest (a
#: retry from the outbox carries the page's current CSRF token).
UNSIGNED_FIELDS = ("csrf_token", "client_key")


def game_page(stored: StoredGame, token: str, status: int = 200, refusal: str | None = None, **kwargs: Any):
    """The game page (for htmx: its live part, which replaces itself). With status 409 or
    422 its ``message`` carries the refusal's code (``refusal``, by default the status's)."""
    context = scorer_context(stored, token, True, FORMS, **kwargs)
    context["refusal"] = refusal or REFUSALS.get(status)
    return htmx.page_or_blocks(SCORER, SCORER_BLOCKS, status=status, **context)


def conflict_page(stored: StoredGame, token: str, conflict: common.Conflict, entered: tuple[int, Any] | None = None):
    """The game page with status 409 and why the change was refused, above the game as it is
    now. The message is the API's, begun with a capital letter as the page's other messages
    are. Its code (data-refusal) is ``closed`` when the table's club night is closed (nothing
    can be saved there: the phone's outbox shows the round as refused, not as one to save
    again under another number), else ``conflict``. ``entered``: a refused save's round number
    and round document, said under the message (what the scorer entered: the phone's card of
    the round not saved shows it)."""
    message = engine_text(conflict.template, **conflict.params)
    refusal = "closed" if isinstance(conflict, common.NightClosed) else None
    state = scorer_state(stored, True)
    words = entered_round(state.game, *entered) if entered else None
    return game_page(stored, token, 409, refusal=refusal, message=capitalized(message), state=state, entered=words)


def refused(status: int, message: str, error: Exception):
    """A change the services refused (:func:`scorepad.web.errors.page_errors`): a conflict's page
    (:func:`conflict_page`), or the game page with ``status`` and the engine's ``message``."""
    token = (request.view_args or {})["token"]
    stored = game_to_edit(token)
    if isinstance(error, common.Conflict):
        return conflict_page(stored, token, error)
    return game_page(stored, token, status, message=message)


page_errors(bp, refused)


def after_change(stored: StoredGame, token: str, action: str = "saved", game: Game | None = None):
    """After a save (``action`` ``saved``), a put back (``restored``: the page leads with the
    round as with a save) or an undo (``undone``: the page says which round was removed and
    offers to put it back, ``#undone``): 303 to the game page, or for htmx its fresh live part
    (of ``game``, the engine's game the change returned, when it did: not read again)."""
    url = url_for("games.scorer", token=token)
    if htmx.is_htmx():
        state = scorer_state(stored, True, game)
        page = game_page(stored, token, saved=action != "undone", feedback={"action": action}, state=state)
        return htmx.push_url(page, url)
    return htmx.vary(redirect(url + ("#undone" if action == "undone" else "#current_round"), 303))


@bp.get("/new")
def new(token: str):
    """Step 2 of recording (the form for ``?contract=``), or step 1 without it; for htmx
    only the round-form block."""
    stored = game_to_edit(token)
    context = scorer_context(stored, token, True, FORMS, contract=request.args.get("contract"))
    return htmx.page_or_blocks(SCORER, ["round_form"], **context)


@bp.post("")
def create(token: str):
    """Record the next round: 303 (htmx: the live part of the page), 422 with the
    messages next to the fields, 409 when the game changed meanwhile."""
    stored = game_to_edit(token)
    preset, players = games.rules_of(stored)  # the save replays the game itself, under the lock
    form = RoundForm()
    contract = form.contract.data
    key_refusal = None  # the idempotency key names another round: said above all else
    number: int | None = None
    if form.validate_on_submit():
        digest = rounds.request_digest(
            sorted([name, value] for name, value in request.form.items(multi=True) if name not in UNSIGNED_FIELDS)
        )
        document = form.round_document(preset, players)
        try:
            with refusals_on(form):
                client_key = rounds.check_client_key(form.client_key.data, "client_key")
                if document is not None and not form.has_errors:
                    number = whole_number(form.number.data)
                    _row, game = rounds.record_round(stored, document, number, client_key, digest)
                    return after_change(stored, token, game=game)
        except rounds.Replayed:  # a retry of a save that did arrive (its answer was lost): a success
            return after_change(stored, token)
        except rounds.KeyReused as exc:
            key_refusal = engine_text(exc.template)
            form.add_engine_error("client_key", key_refusal)  # nothing was stored
        except common.Conflict as conflict:  # the game changed meanwhile: say what was entered
            return conflict_page(stored, token, conflict, None if number is None else (number, document))
    state = scorer_state(stored, True)
    game = state.game
    upcoming = score(game).standings.next
    if upcoming is None:
        return game_page(
            stored, token, 409, state=state, message=_("The game is complete: all its rounds are recorded.")
        )
    message = None
    if contract not in upcoming.choices:
        # No form to put the message in: the contract itself was refused (already declared, or
        # not the next one of a fixed order: the engine's message says which).
        message = key_refusal or " ".join(form.group_errors.get("contract", []))
        # The round was not sent to the engine (a part missing): ask it why.
        message = message or contract_refusal(game, contract) or _("Choose the contract again.")
    return game_page(stored, token, 422, state=state, form=form, contract=contract, message=message)


def button_number(stored: StoredGame, token: str, form: NumberedForm) -> int | None:
    """The round number a button's form (undo, put back) carries, or None for none; aborts
    with the game page and 422 for a number that is not one, 400 for a form that is no form
    of ours (no CSRF token)."""
    if not form.validate_on_submit():
        if form.form_errors:  # a round number that is not one (forms.NumberedForm)
            abort(game_page(stored, token, 422, message=" ".join(form.form_errors)))
        abort(400)
    return whole_number(form.number.data)


@bp.post("/undo")
def undo(token: str):
    """Delete the last round (the one the button named): 303 to the page that offers to put
    it back, or 409 if it is no longer the last."""
    stored = game_to_edit(token)
    number = button_number(stored, token, UndoForm())
    try:
        rounds.undo_round(stored, number)
    except common.NotFound:
        return game_page(stored, token, 409, message=_("There is no round to undo."))
    return after_change(stored, token, "undone")


@bp.post("/put-back")
def put_back(token: str):
    """Put back the round the last undo removed (the one the button named), as the next
    round: 303 (htmx: the live part, leading with it), or 409 when there is none to put back
    any more (put back already, or a round was saved, edited or undone since)."""
    stored = game_to_edit(token)
    number = button_number(stored, token, PutBackForm())
    _row, game = rounds.put_back_round(stored, number)
    return after_change(stored, token, "restored", game)


def preview_of(game: Game, index: int, form: RoundForm) -> dict[str, Any]:
    """The settlement preview of the form as it stands, for round ``index`` (0-based): the
    engine's :func:`settlement_of` once the round is complete and legal, otherwise
    ``problem``, the first thing the engine (or the form) still needs."""
    return round_preview(game, index, form.round_document(game.preset, game.players))


def preview_response(game: Game, index: int, form: RoundForm):
    """htmx: the preview fragment of the form; None for a plain POST (the caller then
    renders the whole page with the preview in it)."""
    preview = preview_of(game, index, form)
    if htmx.is_htmx():
        body = render_template("rounds/_preview.html", **preview_fragment(game, index, preview))
        return preview, htmx.vary(make_response(body))
    return preview, None


@bp.post("/preview")
def preview(token: str):
    """The settlement preview of the next round as entered so far (nothing is stored):
    for htmx the preview fragment, otherwise the game page with the form and its preview."""
    stored = game_to_edit(token)
    game = stored.to_game()
    form = RoundForm()
    if not form.validate_on_submit():
        abort(400)
    upcoming = score(game).standings.next
    if upcoming is None or form.contract.data not in upcoming.choices:
        return game_page(stored, token, 409, message=_("Choose the contract again."))
    result, response = preview_response(game, len(game.rounds), form)
    if response is not None:
        return response
    form.group_errors.clear()
    form.form_errors.clear()
    return game_page(stored, token, form=form, contract=form.contract.data, preview=result)


def round_at(stored: StoredGame, token: str, number: int) -> Game:
    """The engine's game of ``stored``; 404 when it has no round ``number`` (1-based). A
    POST of the edit form of a round that is gone (another phone undid it since the form was
    opened: an edit/undo race) gets the game page with status 409 and the API's message
    (:func:`scorepad.services.rounds.round_gone`). The form was opened on a round when it carries
    the round's digest (``based_on``); without it (a client of its own), only the round after
    the last counts as undone, as for the API."""
    game = stored.to_game()
    if not 1 <= number <= len(game.rounds):
        opened = request.method == "POST" and (request.form.get("based_on") or number == len(game.rounds) + 1)
        if opened and 1 <= number <= game.preset.round_count:
            abort(conflict_page(stored, token, rounds.round_gone(number)))
        abort(404)
    return game


@bp.get("/<int:number>")
def show(token: str, number: int):
    """One round: contract, declarer, outcome in words, doubles, what moved between each
    pair that doubled, and its result."""
    stored, can_edit = any_game(token)
    game = round_at(stored, token, number)
    return render_template(
        "rounds/show.html", stored=stored, token=token, can_edit=can_edit, **round_page(game, number)
    )


@bp.post("/<int:number>/preview")
def edit_preview(token: str, number: int):
    """The settlement preview of an edited round (nothing is stored): for htmx the
    fragment, otherwise the edit page with the preview."""
    stored = game_to_edit(token)
    game = round_at(stored, token, number)
    form = RoundForm()
    if not form.validate_on_submit():
        abort(400)
    if form.contract.data not in free_of(game, number):
        abort(400)
    result, response = preview_response(game, number - 1, form)
    if response is not None:
        return response
    form.group_errors.clear()
    form.form_errors.clear()
    return render_edit(stored, token, game, number, form, form.contract.data, preview=result)


def render_edit(
    stored: StoredGame,
    token: str,
    game: Game,
    number: int,
    form: RoundForm,
    contract: str,
    status: int = 200,
    preview: dict[str, Any] | None = None,
):
    """The edit page of round ``number`` shown as ``contract``, with ``dispute``: the other
    player's note when the round is disputed ("" for a dispute without one; None otherwise), so
    that the scorer corrects the round with the note in view."""
    row = stored.rounds[number - 1]
    dispute = (row.note or "") if shown_status(stored.confirmation, row.status) == "disputed" else None
    return render_template(
        "rounds/edit.html",
        stored=stored,
        token=token,
        form=form,
        preview=preview,
        dispute=dispute,
        **edit_page(game, number, contract),
    ), status


@bp.route("/<int:number>/edit", methods=["GET", "POST"])
def edit(token: str, number: int):
    """Correct an earlier round (the contract may change to one still free for its
    declarer); later totals recompute. 303 to the game page, 422 with the messages."""
    stored = game_to_edit(token)
    game = round_at(stored, token, number)
    preset = game.preset
    rnd = game.rounds[number - 1]
    free = free_of(game, number)
    status = 200
    if request.method == "POST":
        form = RoundForm()
        if not form.based_on.data:  # which round was it opened on? Saving blind could overwrite another
            return conflict_page(stored, token, rounds.round_unanchored(number))
        contract = form.contract.data if form.contract.data in free else rnd.contract
        if form.validate_on_submit():
            document = form.round_document(preset, game.players)
            if document is not None:
                try:
                    with refusals_on(form) as refusal:
                        _row, after = rounds.replace_round(stored, number, document, form.based_on.data)
                except common.NotFound:  # undone (more than the last round) between the check above and the save
                    return conflict_page(stored, token, rounds.round_gone(number))
                if refusal.status is None:
                    # The game page confirms the edit once: what changed and whose totals moved.
                    summary = edit_summary(after, number, rnd)  # rnd: the round the form was opened on (based_on)
                    session[CHANGED_KEY] = {"game": stored.id, "action": "changed", **summary}
                    return redirect(url_for("games.scorer", token=token) + f"#round-{number}", 303)
        status = 422
    else:
        contract = request.args.get("contract")
        contract = contract if contract in free else rnd.contract
        declarer = declarer_of(preset, game.first_declarer, number - 1)
        form = RoundForm(data=RoundForm.data_of(rnd, contract, preset, declarer))
        form.based_on.data = rounds.round_digest(stored.rounds[number - 1])
    return render_edit(stored, token, game, number, form, contract, status)
