"""JSON API ``/api/v1``: games and rounds in the game document format
(shared/spec/game-format.md), authorised by a game's edit or view token."""

from __future__ import annotations

from pathlib import Path
from typing import Any, TypeVar

from flask import Blueprint, Response, abort, jsonify, request, send_from_directory, url_for

from ..extensions import csrf
from ..models import StoredGame, StoredRound
from ..scoring import Game, export_game
from ..scoring.trust import PROVISIONAL, shown_status
from ..services import confirmation, games, rounds
from ..services.clubs import ClubRefused
from ..services.history import club_fields, export_stored, history_export
from ..services.rematch import start_rematch
from ..web.device import creator
from ..web.errors import error_response, json_errors
from ..web.json_input import body, created
from ..web.limits import GAME_STARTS, limit
from ..web.loaders import api_game, api_game_role, api_witness, club_of_request

bp = Blueprint("api", __name__, url_prefix="/api/v1")
T = TypeVar("T")
csrf.exempt(bp)  # bearer tokens, not cookies, authorise the API
json_errors(bp)


def game_links(stored: StoredGame) -> dict[str, str]:
    """Absolute URLs of the game: ``scorer`` (the scorer's page), ``api``, and with the
    view token (safe to share): ``board`` (the live scoreboard), ``sheet`` (the print page),
    ``sheet_pdf``, ``csv``, ``qr`` (an SVG QR code of the board's URL) and ``card`` (a PNG of
    the standings, to share in a message)."""
    view = stored.view_token
    return {
        "scorer": url_for("games.scorer", token=stored.edit_token, _external=True),
        "api": url_for("api.game", game_id=stored.id, _external=True),
        "board": url_for("board.show", token=view, _external=True),
        "sheet": url_for("sheet.show", token=view, _external=True),
        "sheet_pdf": url_for("sheet.pdf", token=view, _external=True),
        "csv": url_for("sheet.csv_download", token=view, _external=True),
        "qr": url_for("board.qr", token=view, _external=True),
        "card": url_for("card.image", token=view, _external=True),
    }


def round_export(game: StoredGame | Game, number: int, status: str | None = PROVISIONAL) -> dict[str, Any]:
    """Round ``number`` of the export, with its ``result`` and ``status``, plus the game's
    ``standings``. ``game`` is the stored game or the engine's game that a save just returned
    (which saves reading back what was just written); ``status`` the round's as saved (None:
    read from the stored game)."""
    engine_game = game.to_game() if isinstance(game, StoredGame) else game
    doc = export_game(engine_game)
    if status is None and isinstance(game, StoredGame):
        status = game.rounds[number - 1].status
    exported = {**doc["rounds"][number - 1], "standings": doc["standings"]}
    exported["status"] = shown_status(engine_game.confirmation, status or PROVISIONAL)
    return exported


@bp.post("/games")
@limit(GAME_STARTS)
def create_game():
    """Create (or import) a game from a game document → 201 with id, tokens and links."""
    stored, game = games.create_game(body(), **creator(), club=club_of_request())
    return game_created(stored, game)


def game_created(stored: StoredGame, game: Game, *, as_stored: bool = False) -> Response:
    """201 for a game just stored (a new one, an import or a rematch): its id, its three
    tokens (shown this once; the confirm token is the witness's, club-format.md "Trust"), its
    ``links`` (with ``confirm``: the witness's page, which carries the confirm token) and its
    ``game`` export. ``as_stored``: a game stored earlier (a rematch asked for again), exported
    as it is now, with each round's status (``game`` is then not used)."""
    confirm_token = games.confirm_token_of(stored, stored.edit_token or "")
    return created(
        {
            "id": stored.id,
            "edit_token": stored.edit_token,
            "view_token": stored.view_token,
            "confirm_token": confirm_token,
            "links": {**game_links(stored), "confirm": url_for("confirm.show", token=confirm_token, _external=True)},
            "game": export_stored(stored, with_history=False)
            if as_stored
            else export_game(game) | club_fields(stored.club_id, stored.members),
        }
    )


@bp.post("/games/<int:game_id>/rematch")
@limit(GAME_STARTS)
def rematch(game_id: int):
    """Play again (edit token): a new game with the same players in the same seats, the same
    preset and title, the next player declaring first → 201 exactly as creating a game; once
    played again, 200 with that same game (one rematch per game: a second phone, a retry); 409
    while the game is not finished. It counts against the same limits as a new game. A club's
    game is played again for the club (same members) only with the club's admin token as
    ``X-Club-Token``, as a new game joins a club; without it, outside any club; another club's
    token, or a token that is no club's admin token, 403 (nothing stored)."""
    stored = api_game(game_id, write=True)
    club = club_of_request()
    if club is None and request.headers.get("X-Club-Token"):  # refused, not ignored
        raise ClubRefused()
    new, game, started = start_rematch(stored, club=club, **creator())
    response = game_created(new, game, as_stored=not started)
    if not started:
        response.status_code = 200
    return response


@bp.get("/games/<int:game_id>")
def game(game_id: int):
    """The game's export with every result, each round's status, the standings and the game's
    history (edit, view or confirm token)."""
    return jsonify(export_stored(api_game(game_id, write=False)))


@bp.get("/games/<int:game_id>/history")
def history(game_id: int):
    """The game's history, oldest first (club-format.md "Trust"): every record, edit, undo,
    confirm, dispute, import, close and reopen (edit, view or confirm token)."""
    stored, _role = api_game_role(game_id)
    return jsonify(history_export(stored))


def check_body() -> dict[str, Any]:
    """The body of a confirm or dispute: none, or a JSON object with at most ``note`` (a 422
    naming the field otherwise)."""
    if not request.get_data(cache=True):
        return {}
    doc = body()
    if not isinstance(doc, dict):
        abort(error_response(422, "the body must be a JSON object", path=""))
    for key in doc:
        if key != "note":
            abort(error_response(422, "unknown field: a confirm or dispute sends at most a note", path=key))
    return doc


@bp.post("/games/<int:game_id>/rounds/<int:number>/confirm")
def confirm_round(game_id: int, number: int):
    """The witness (confirm token; the edit and view tokens get 403) confirms round ``number``
    → 200 with the round (``status: confirmed``) and the standings; confirming a confirmed round
    changes nothing (200). With ``If-Match`` (the round's ETag), a round changed since is a
    412. 404 for no such round, 409 when the game's confirmation is off or its night closed."""
    return check_round(game_id, number, dispute=False)


@bp.post("/games/<int:game_id>/rounds/<int:number>/dispute")
def dispute_round(game_id: int, number: int):
    """The witness disputes round ``number`` with ``{"note": "…"}`` (optional, at most 200
    characters) → 200 with the round (``status: disputed``), as :func:`confirm_round`."""
    return check_round(game_id, number, dispute=True)


def check_round(game_id: int, number: int, dispute: bool) -> Response:
    """Confirm or dispute round ``number`` (see :func:`confirm_round`)."""
    stored = api_witness(game_id)
    doc = check_body()
    if not dispute and doc.get("note") is not None:
        return error_response(422, "a confirmation has no note; dispute the round to say what is wrong", path="note")
    if dispute:
        row, _changed = confirmation.dispute_round(stored, number, doc.get("note"), if_match())
    else:
        row, _changed = confirmation.confirm_round(stored, number, if_match())
    # The game as checked (row.saved_game): another phone may have undone the round since the commit.
    return with_etag(jsonify(round_export(row.saved_game or stored, number, row.saved_status)), row)


@bp.post("/games/<int:game_id>/rounds")
def record_round(game_id: int):
    """Record the next round → 201 with the stored round and its result. With an
    ``Idempotency-Key`` header, a repeat of a save that was stored (its answer lost, or sent
    twice at once) gets 200 with that round (header ``Idempotent-Replayed: true``) instead of
    a second round; the same key with another body is a 422, the key of a round undone since
    a 409."""
    stored = api_game(game_id, write=True)
    client_key = rounds.check_client_key(request.headers.get("Idempotency-Key"), "Idempotency-Key")
    doc = body()
    digest = rounds.request_digest(doc)  # the body as sent, its "number" too
    number = doc.pop("number", None) if isinstance(doc, dict) else None
    if number is not None and (not isinstance(number, int) or isinstance(number, bool)):
        return error_response(422, "the round number must be a whole number", path="number")
    try:
        row, game = rounds.record_round(stored, doc, number, client_key, digest)
    except rounds.Replayed as replay:
        if replay.number > len(stored.rounds):  # undone by another phone since it was found
            return error_response(409, rounds.key_round_undone().message)
        response = jsonify(round_export(stored, replay.number, replay.status))
        response.set_etag(replay.digest)
        response.headers["Idempotent-Replayed"] = "true"
        return response
    # The round as saved: the row is not read again (another phone may have undone it since the commit).
    response = with_etag(jsonify(round_export(game, len(game.rounds), row.saved_status)), row)
    response.status_code = 201
    return response


def if_match() -> tuple[str, ...] | None:
    """The round ETags (:func:`scorepad.services.rounds.round_digest`) an ``If-Match`` header accepts:
    its strong ones (none for weak ones only: If-Match compares strongly; none for an empty
    ``""``, which Werkzeug reads as None and no round's ETag is); None without the header or
    with ``*`` (any round that is there)."""
    if "If-Match" not in request.headers or request.if_match.star_tag:
        return None
    return tuple(tag for tag in request.if_match.as_set() if tag)


def with_etag(response: Response, row: StoredRound) -> Response:
    """``response`` with the round's ETag: what a later PUT's ``If-Match`` names (as saved,
    for a round this request saved: :func:`scorepad.services.rounds._commit_round`)."""
    response.set_etag(row.saved_digest or rounds.round_digest(row))
    return response


@bp.put("/games/<int:game_id>/rounds/<int:number>")
def replace_round(game_id: int, number: int):
    """Replace an earlier round; later totals recompute. With ``If-Match`` (the round's ETag,
    from the answer that stored it), a round changed since is a 412, nothing changed."""
    stored = api_game(game_id, write=True)
    doc = body()
    sent = doc.get("number", number) if isinstance(doc, dict) else number
    if sent != number or isinstance(sent, bool) or not isinstance(sent, int):  # True == 1, 1.0 == 1
        return error_response(422, f"the body's number does not match round {number} of the URL", path="number")
    if isinstance(doc, dict):
        doc.pop("number", None)
    row, game = rounds.replace_round(stored, number, doc, if_match())
    return with_etag(jsonify(round_export(game, number, row.saved_status)), row)


@bp.delete("/games/<int:game_id>/rounds/<int:number>")
def delete_round(game_id: int, number: int):
    """Delete the last round (undo) → 204."""
    stored = api_game(game_id, write=True)
    rounds.undo_round(stored, number)
    return "", 204


@bp.get("/health")
def health():
    """A trivial answer that touches no database: for load balancers and uptime checks, and
    the ceiling that bench/club_night.py compares the other endpoints with."""
    return jsonify(ok=True)


@bp.get("/openapi.json")
def openapi():
    """The OpenAPI description of ``/api/v1`` (the static file scorepad/openapi.json)."""
    return send_from_directory(Path(__file__).resolve().parent.parent, "openapi.json", mimetype="application/json")
