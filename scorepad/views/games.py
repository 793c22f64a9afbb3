"""The scorer's pages: home (recent games on this device), a new game, the game page.

Everything shown is computed by the engine (``scoring.score``); templates only display it.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, flash, redirect, render_template, session, url_for
from flask_babel import gettext as _

from .. import htmx, labels, services
from ..forms import ButtonForm, NewGameForm, RoundForm
from ..models import StoredGame
from ..scoring import Game, ScoringError, score
from ..scoring.contracts import OUTCOME_FIELDS, SEATS
from ..scoring.doubles import refusal
from ..scoring.game import seats_of

bp = Blueprint("games", __name__)

RECENT_GAMES = 10  # edit tokens remembered in the session cookie
SCORER_BLOCKS = ["game_live"]


@bp.app_context_processor
def inject_labels() -> dict[str, Any]:
    """The game's words (contract, suit and rank names) for every template."""
    return {"labels": labels}


# -- loading a game by its token -----------------------------------------------------------

def load(token: str) -> tuple[StoredGame, bool]:
    """The game of an edit or view token and whether it may be changed; 404 otherwise."""
    found = services.find_by_token(token)
    if found is None:
        abort(404)
    return found


def load_for_edit(token: str) -> StoredGame:
    """The game of an edit token: 404 for an unknown token, 403 for the view token."""
    stored, can_edit = load(token)
    if not can_edit:
        abort(403, _("This is the read-only link of the game; changing it needs the scorer's link."))
    return stored


def remember(stored: StoredGame) -> None:
    """Put the game first in this device's recent games (edit tokens in the session cookie)."""
    recent = [t for t in session.get("recent", []) if t != stored.edit_token]
    session["recent"] = [stored.edit_token, *recent][:RECENT_GAMES]


# -- what the game page shows --------------------------------------------------------------

def round_form_context(game: Game, index: int, contract: str) -> dict[str, Any]:
    """What the round form needs for round ``index`` (0-based) played as ``contract``:
    the seats, the outcome parts, and for each cell of the doubles grid the engine's
    reason it can never be used (None for a usable cell)."""
    preset = game.preset
    seats = seats_of(preset, game.first_declarer, index, contract)
    negative = preset.contract(contract).negative
    grid = [[refusal(a, b, seats.declarer, not negative, preset.doubling) for b in range(SEATS)]
            for a in range(SEATS)]
    reasons: list[tuple[str, str]] = []
    for a in range(SEATS):
        for b in range(SEATS):
            if grid[a][b] and (cell_glyph(a, b), grid[a][b]) not in reasons:
                reasons.append((cell_glyph(a, b), grid[a][b]))
    return {
        "number": index + 1,
        "reasons": sorted(reasons),
        "glyph": cell_glyph,
        "seats": seats,
        "contract": contract,
        "parts": OUTCOME_FIELDS[contract],
        "tricks": preset.tricks,
        "doubling": preset.doubling.enabled,
        "grid": grid,
        "split": preset.undoubled_negative == "split" and negative,
    }


def cell_glyph(doubler: int, doubled: int) -> str:
    """The mark of an unusable cell of the doubles grid: the diagonal, or another refusal."""
    return "—" if doubler == doubled else "✕"


def scorer_context(stored: StoredGame, token: str, can_edit: bool, *, form: RoundForm | None = None,
                   contract: str | None = None, message: str | None = None) -> dict[str, Any]:
    """Everything the game page shows, from the engine's scores."""
    game = stored.to_game()
    scores = score(game)
    standings = scores.standings
    upcoming = standings.next
    context: dict[str, Any] = {
        "stored": stored, "token": token, "can_edit": can_edit, "game": game, "scores": scores,
        "standings": standings, "upcoming": upcoming, "players": game.players, "preset": game.preset,
        "rows": list(zip(game.rounds, scores.rounds)), "message": message,
        "ranking": sorted(range(SEATS), key=lambda p: (standings.rank[p], p)),
        "contract": None, "form": None, "rf": None, "undo_form": ButtonForm(),
    }
    if upcoming is not None:
        context["declared"] = [c for c in game.preset.contract_ids if c not in upcoming.contracts_left]
        if can_edit and contract in upcoming.contracts_left:
            context["contract"] = contract
            context["form"] = form or RoundForm(data={"contract": contract})
            context["rf"] = round_form_context(game, len(game.rounds), contract)
    return context


def leader_of(stored: StoredGame) -> tuple[Game, Any, list[str]]:
    """A recent game's engine view: the game, its standings and the leading player(s)."""
    game = stored.to_game()
    standings = score(game).standings
    leaders = [game.players[p] for p in range(SEATS) if standings.rank[p] == 1] if standings.rounds_played else []
    return game, standings, leaders


# -- pages ---------------------------------------------------------------------------------

@bp.get("/")
def home():
    """Start page: a big New game button and this device's recent games."""
    recent = []
    for token in session.get("recent", []):
        found = services.find_by_token(token)
        if found is None:
            continue
        stored, _can_edit = found
        game, standings, leaders = leader_of(stored)
        recent.append({"stored": stored, "game": game, "standings": standings, "leaders": leaders})
    return render_template("games/home.html", recent=recent)


@bp.route("/games/new", methods=["GET", "POST"])
def new():
    """The new-game form; a valid one starts the game and goes to its page (303)."""
    form = NewGameForm()
    if form.validate_on_submit():
        document = form.to_document()
        try:
            stored, game = services.create_game(document)
        except ScoringError as exc:
            form.add_engine_error(exc.path, exc.message)
        else:
            remember(stored)
            if form.drawn:
                flash(_("Drawn by lot: %(name)s declares first.", name=game.players[game.first_declarer]))
            return redirect(url_for("games.scorer", token=stored.edit_token), 303)
    status = 422 if form.is_submitted() else 200
    return render_template("games/new.html", form=form), status


@bp.get("/g/<token>")
def scorer(token: str):
    """The game page: score table, current round, the round form (edit token) or read-only."""
    stored, can_edit = load(token)
    if can_edit:
        remember(stored)
    context = scorer_context(stored, token, can_edit)
    return htmx.page_or_blocks("games/scorer.html", SCORER_BLOCKS, **context)
