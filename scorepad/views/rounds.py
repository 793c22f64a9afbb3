"""Recording, showing, editing and undoing rounds of a game (the scorer's phone flow).

Step 1 picks the contract (``rounds.new?contract=…``), step 2 posts the round
(``rounds.create``). Every POST needs the edit token (403 for the view token); the engine
validates through :mod:`scorepad.services` and its refusals come back next to the field.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, redirect, render_template, request, url_for
from flask_babel import gettext as _

from .. import htmx, labels, services
from ..forms import RoundForm, UndoForm
from ..models import StoredGame
from ..scoring import ScoringError, score
from ..scoring.game import contracts_left, declarer_of, seats_of
from .games import SCORER_BLOCKS, load, load_for_edit, round_form_context, scorer_context

bp = Blueprint("rounds", __name__, url_prefix="/g/<token>/rounds")

SCORER = "games/scorer.html"


def game_page(stored: StoredGame, token: str, status: int = 200, **kwargs: Any):
    """The game page (for htmx: its live part, which replaces itself)."""
    context = scorer_context(stored, token, True, **kwargs)
    return htmx.page_or_blocks(SCORER, SCORER_BLOCKS, status=status, **context)


def after_change(stored: StoredGame, token: str):
    """After a save or an undo: 303 to the game page, or for htmx its fresh live part."""
    url = url_for("games.scorer", token=token)
    if htmx.is_htmx():
        return htmx.push_url(game_page(stored, token), url)
    return htmx.vary(redirect(url + "#current_round", 303))


@bp.get("/new")
def new(token: str):
    """Step 2 of recording (the form for ``?contract=``), or step 1 without it; for htmx
    only the round-form block."""
    stored = load_for_edit(token)
    context = scorer_context(stored, token, True, contract=request.args.get("contract"))
    return htmx.page_or_blocks(SCORER, ["round_form"], **context)


@bp.post("")
def create(token: str):
    """Record the next round: 303 (htmx: the live part of the page), 422 with the
    messages next to the fields, 409 when the game changed meanwhile."""
    stored = load_for_edit(token)
    game = stored.to_game()
    form = RoundForm()
    contract = form.contract.data
    if form.validate_on_submit():
        document = form.round_document(game.preset, game.players)
        if document is not None:
            try:
                services.record_round(stored, document)
            except ScoringError as exc:
                form.add_engine_error(exc.path, exc.message)
            except services.Conflict as exc:
                return game_page(stored, token, 409, message=exc.message)
            else:
                return after_change(stored, token)
    upcoming = score(game).standings.next
    if upcoming is None:
        return game_page(stored, token, 409, message=_("The game is complete: all its rounds are recorded."))
    message = None
    if contract not in upcoming.contracts_left:
        # No form to put the message in: the contract itself was refused.
        message = " ".join(form.group_errors.get("contract", []))
        if not message and contract in game.preset.contract_ids:
            message = _("%(name)s has already declared %(contract)s; choose another contract.",
                        name=game.players[upcoming.seats.declarer], contract=labels.contract_name(contract))
        message = message or _("Choose the contract again.")
    return game_page(stored, token, 422, form=form, contract=contract, message=message)


@bp.post("/undo")
def undo(token: str):
    """Delete the last round (the one the button named): 303, or 409 if it is no longer the last."""
    stored = load_for_edit(token)
    form = UndoForm()
    if not form.validate_on_submit():
        abort(400)
    number = int(form.number.data) if (form.number.data or "").isdigit() else None
    try:
        services.undo_round(stored, number)
    except LookupError:
        return game_page(stored, token, 409, message=_("There is no round to undo."))
    except services.Conflict as exc:
        return game_page(stored, token, 409, message=exc.message)
    return after_change(stored, token)


def round_at(stored: StoredGame, number: int):
    """The engine's game, round ``number`` (1-based) and its result; 404 if not recorded."""
    game = stored.to_game()
    if not 1 <= number <= len(game.rounds):
        abort(404)
    scores = score(game)
    return game, game.rounds[number - 1], scores.rounds[number - 1]


@bp.get("/<int:number>")
def show(token: str, number: int):
    """One round: contract, declarer, outcome in words, doubles and its result."""
    stored, can_edit = load(token)
    game, rnd, result = round_at(stored, number)
    seats = seats_of(game.preset, game.first_declarer, number - 1, rnd.contract)
    return render_template("rounds/show.html", stored=stored, token=token, can_edit=can_edit, game=game,
                           players=game.players, rnd=rnd, result=result, seats=seats,
                           rounds_total=game.preset.round_count)


@bp.route("/<int:number>/edit", methods=["GET", "POST"])
def edit(token: str, number: int):
    """Correct an earlier round (the contract may change to one still free for its
    declarer); later totals recompute. 303 to the game page, 422 with the messages."""
    stored = load_for_edit(token)
    game, rnd, _result = round_at(stored, number)
    preset = game.preset
    declarer = declarer_of(preset, game.first_declarer, number - 1)
    still_free = contracts_left(preset, game.first_declarer, game.rounds, declarer)
    free = [c for c in preset.contract_ids if c in still_free or c == rnd.contract]
    status = 200
    if request.method == "POST":
        form = RoundForm()
        contract = form.contract.data if form.contract.data in free else rnd.contract
        if form.validate_on_submit():
            document = form.round_document(preset, game.players)
            if document is not None:
                try:
                    services.replace_round(stored, number, document)
                except ScoringError as exc:
                    form.add_engine_error(exc.path, exc.message)
                except LookupError:
                    abort(404)
                else:
                    return redirect(url_for("games.scorer", token=token) + f"#round-{number}", 303)
        status = 422
    else:
        contract = request.args.get("contract")
        contract = contract if contract in free else rnd.contract
        form = RoundForm(data=RoundForm.data_of(rnd, contract, preset, declarer))
    return render_template("rounds/edit.html", stored=stored, token=token, game=game, players=game.players,
                           number=number, rnd=rnd, free=free, form=form,
                           rf=round_form_context(game, number - 1, contract)), status
