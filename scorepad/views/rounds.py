"""Recording, showing, editing and undoing rounds of a game (the scorer's phone flow).

Step 1 picks the contract (``rounds.new?contract=…``), step 2 posts the round
(``rounds.create``). Every POST needs the edit token (403 for the view token); the engine
validates through :mod:`scorepad.services` and its refusals come back next to the field.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, make_response, redirect, render_template, request, url_for
from flask_babel import gettext as _

from .. import htmx, labels, services
from ..i18n import engine_text, error_text
from ..forms import RoundForm, UndoForm
from ..models import StoredGame
from ..scoring import Game, ScoringError, parse_round, score
from ..scoring.doubles import pair_settlements
from ..scoring.game import contracts_left, declarer_of, seats_of
from ..web.loaders import any_game, game_to_edit
from .games import SCORER_BLOCKS, contract_choices, round_form_context, scorer_context, short_names

bp = Blueprint("rounds", __name__, url_prefix="/g/<token>/rounds")

SCORER = "games/scorer.html"
MISSING = "this part of the outcome is missing"  # the engine's words for a part not given


def game_page(stored: StoredGame, token: str, status: int = 200, **kwargs: Any):
    """The game page (for htmx: its live part, which replaces itself)."""
    context = scorer_context(stored, token, True, **kwargs)
    return htmx.page_or_blocks(SCORER, SCORER_BLOCKS, status=status, **context)


def after_change(stored: StoredGame, token: str):
    """After a save or an undo: 303 to the game page, or for htmx its fresh live part."""
    url = url_for("games.scorer", token=token)
    if htmx.is_htmx():
        return htmx.push_url(game_page(stored, token, saved=True), url)
    return htmx.vary(redirect(url + "#current_round", 303))


@bp.get("/new")
def new(token: str):
    """Step 2 of recording (the form for ``?contract=``), or step 1 without it; for htmx
    only the round-form block."""
    stored = game_to_edit(token)
    context = scorer_context(stored, token, True, contract=request.args.get("contract"))
    return htmx.page_or_blocks(SCORER, ["round_form"], **context)


@bp.post("")
def create(token: str):
    """Record the next round: 303 (htmx: the live part of the page), 422 with the
    messages next to the fields, 409 when the game changed meanwhile."""
    stored = game_to_edit(token)
    game = stored.to_game()
    form = RoundForm()
    contract = form.contract.data
    if form.validate_on_submit():
        try:
            # A retry of a save that did arrive (its answer was lost): the stored round, as a success.
            client_key = services.check_client_key(form.client_key.data, "client_key")
            if services.round_with_key(stored, client_key) is not None:
                return after_change(stored, token)
        except ScoringError as exc:
            form.add_engine_error(exc.path, error_text(exc))
            client_key = None
        except services.Conflict as exc:
            return game_page(stored, token, 409, message=engine_text(exc.template, **exc.params))
        document = form.round_document(game.preset, game.players)
        if document is not None and not form.has_errors:
            number = int(form.number.data) if (form.number.data or "").isdigit() else None
            try:
                services.record_round(stored, document, number, client_key)
            except ScoringError as exc:
                form.add_engine_error(exc.path, error_text(exc))
            except services.Conflict as exc:
                return game_page(stored, token, 409, message=engine_text(exc.template, **exc.params))
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
    stored = game_to_edit(token)
    form = UndoForm()
    if not form.validate_on_submit():
        abort(400)
    number = int(form.number.data) if (form.number.data or "").isdigit() else None
    try:
        services.undo_round(stored, number)
    except LookupError:
        return game_page(stored, token, 409, message=_("There is no round to undo."))
    except services.Conflict as exc:
        return game_page(stored, token, 409, message=engine_text(exc.template, **exc.params))
    return after_change(stored, token)


def settlement_of(game: Game, index: int, rnd) -> dict[str, Any]:
    """Round ``index`` (0-based) of ``game`` played as ``rnd``, scored by the engine: its
    result (raw, doubles, total in points by seat) and ``pairs``, what moved between each
    pair with a double between them (scoring.doubles.pair_settlements) — the later rounds
    play no part."""
    preset = game.preset
    declarer = declarer_of(preset, game.first_declarer, index)
    head = Game(game.players, game.first_declarer, preset, game.rounds[:index] + (rnd,), game.title)
    result = score(head).rounds[index]
    return {"result": result, "declarer": declarer,
            "pairs": pair_settlements(result.raw, rnd.doubles, declarer, preset.doubling),
            "redouble_implied": preset.doubling.auto_redouble}


def preview_of(game: Game, index: int, form: RoundForm) -> dict[str, Any]:
    """The settlement preview of the form as it stands, for round ``index`` (0-based): the
    engine's :func:`settlement_of` once the round is complete and legal, otherwise
    ``problem``, the first thing the engine (or the form) still needs."""
    waiting = _("enter the outcome to see what each player scores.")
    document = form.round_document(game.preset, game.players)
    if document is None:
        return {"problem": waiting}
    try:
        rnd = parse_round(game.preset, game.players, game.first_declarer, game.rounds[:index], document, "")
    except ScoringError as exc:
        # A part not chosen yet is still being entered; anything else is a real problem.
        return {"problem": waiting if exc.template == MISSING else error_text(exc)}
    return settlement_of(game, index, rnd)


def preview_response(game: Game, index: int, form: RoundForm):
    """htmx: the preview fragment of the form; None for a plain POST (the caller then
    renders the whole page with the preview in it)."""
    preview = preview_of(game, index, form)
    if htmx.is_htmx():
        body = render_template("rounds/_preview.html", preview=preview, players=game.players,
                               short=short_names(game.players), number=index + 1)
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
    if upcoming is None or form.contract.data not in contract_choices(game, upcoming):
        return game_page(stored, token, 409, message=_("Choose the contract again."))
    result, response = preview_response(game, len(game.rounds), form)
    if response is not None:
        return response
    form.group_errors.clear()
    form.form_errors.clear()
    return game_page(stored, token, form=form, contract=form.contract.data, preview=result)


def round_at(stored: StoredGame, number: int):
    """The engine's game, round ``number`` (1-based) and its result; 404 if not recorded."""
    game = stored.to_game()
    if not 1 <= number <= len(game.rounds):
        abort(404)
    scores = score(game)
    return game, game.rounds[number - 1], scores.rounds[number - 1]


@bp.get("/<int:number>")
def show(token: str, number: int):
    """One round: contract, declarer, outcome in words, doubles, what moved between each
    pair that doubled, and its result."""
    stored, can_edit = any_game(token)
    game, rnd, result = round_at(stored, number)
    seats = seats_of(game.preset, game.first_declarer, number - 1, rnd.contract)
    settlement = settlement_of(game, number - 1, rnd)
    return render_template("rounds/show.html", stored=stored, token=token, can_edit=can_edit, game=game,
                           players=game.players, rnd=rnd, result=result, seats=seats, settlement=settlement,
                           short=short_names(game.players), rounds_total=game.preset.round_count)


@bp.post("/<int:number>/preview")
def edit_preview(token: str, number: int):
    """The settlement preview of an edited round (nothing is stored): for htmx the
    fragment, otherwise the edit page with the preview."""
    stored = game_to_edit(token)
    game, rnd, _result = round_at(stored, number)
    form = RoundForm()
    if not form.validate_on_submit():
        abort(400)
    free = free_contracts(game, number)
    if form.contract.data not in free:
        abort(400)
    result, response = preview_response(game, number - 1, form)
    if response is not None:
        return response
    form.group_errors.clear()
    form.form_errors.clear()
    return render_edit(stored, token, game, number, rnd, free, form, form.contract.data, preview=result)


def free_contracts(game: Game, number: int) -> list[str]:
    """The contracts round ``number`` may be changed to: its own and those its declarer
    has not declared in the other rounds."""
    preset = game.preset
    declarer = declarer_of(preset, game.first_declarer, number - 1)
    still_free = contracts_left(preset, game.first_declarer, game.rounds, declarer)
    rnd = game.rounds[number - 1]
    return [c for c in preset.contract_ids if c in still_free or c == rnd.contract]


def render_edit(stored, token, game, number, rnd, free, form, contract, status=200, preview=None):
    """The edit page of round ``number``."""
    return render_template("rounds/edit.html", stored=stored, token=token, game=game, players=game.players,
                           number=number, rnd=rnd, free=free, form=form, preview=preview,
                           rf=round_form_context(game, number - 1, contract)), status


@bp.route("/<int:number>/edit", methods=["GET", "POST"])
def edit(token: str, number: int):
    """Correct an earlier round (the contract may change to one still free for its
    declarer); later totals recompute. 303 to the game page, 422 with the messages."""
    stored = game_to_edit(token)
    game, rnd, _result = round_at(stored, number)
    preset = game.preset
    declarer = declarer_of(preset, game.first_declarer, number - 1)
    free = free_contracts(game, number)
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
                    form.add_engine_error(exc.path, error_text(exc))
                except LookupError:
                    abort(404)
                else:
                    return redirect(url_for("games.scorer", token=token) + f"#round-{number}", 303)
        status = 422
    else:
        contract = request.args.get("contract")
        contract = contract if contract in free else rnd.contract
        form = RoundForm(data=RoundForm.data_of(rnd, contract, preset, declarer))
    return render_edit(stored, token, game, number, rnd, free, form, contract, status)
