"""The scorer's pages: home (recent games on this device), a new game, the game page.

Everything shown is computed by the engine (``scoring.score``); templates only display it.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, flash, redirect, render_template, request, session, url_for
from flask_babel import gettext as _

from .. import htmx, labels, security, services
from ..forms import ButtonForm, ImportGameForm, NewGameForm, RoundForm
from ..i18n import engine_text, error_text
from ..models import StoredGame
from ..scoring import Game, ScoringError, score
from ..scoring.contracts import OUTCOME_FIELDS, SEATS
from ..scoring.doubles import refusal
from ..scoring.game import declarer_of, seats_of
from ..web.limits import GAME_STARTS, limit
from ..web.loaders import any_game

bp = Blueprint("games", __name__)

RECENT_GAMES = 10  # edit tokens remembered in the session cookie
SCORER_BLOCKS = ["game_live"]


@bp.app_context_processor
def inject_labels() -> dict[str, Any]:
    """The game's words (contract, suit and rank names) for every template."""
    return {"labels": labels}


def remember(stored: StoredGame) -> None:
    """Put the game first in this device's recent games (edit tokens in the session cookie)."""
    recent = [t for t in session.get("recent", []) if t != stored.edit_token]
    session["recent"] = [stored.edit_token, *recent][:RECENT_GAMES]


# -- what the game page shows --------------------------------------------------------------

def short_names(players: tuple[str, ...] | list[str]) -> list[str]:
    """The players' shortest distinct abbreviations for narrow columns (the grid, the
    round's result): their initials, or the first two or three letters when initials
    clash (case-folded); seat numbers 1-4 when even three letters do not tell them apart.
    Full names always go with them in accessible labels."""
    for length in (1, 2, 3):
        short = [name[:length].strip() for name in players]
        if len({s.casefold() for s in short}) == len(players):
            return short
    return [str(seat + 1) for seat in range(len(players))]


def contract_choices(game: Game, upcoming: Any) -> tuple[str, ...]:
    """The contracts the declarer of the next round may choose: all they have left, or
    with ``chooser: fixed`` only the next one in the preset's order."""
    left = upcoming.contracts_left
    return left[:1] if game.preset.chooser == "fixed" else left


def round_form_context(game: Game, index: int, contract: str) -> dict[str, Any]:
    """What the round form needs for round ``index`` (0-based) played as ``contract``:
    the seats, the outcome parts, and for each cell of the doubles grid the engine's
    reason it can never be used (None for a usable cell); ``family[a]`` is True when
    doubling both neighbours is allowed for seat ``a``."""
    preset = game.preset
    seats = seats_of(preset, game.first_declarer, index, contract)
    negative = preset.contract(contract).negative
    grid = [[refusal(a, b, seats.declarer, not negative, preset.doubling) for b in range(SEATS)]
            for a in range(SEATS)]
    grid = [[engine_text(why) if why else None for why in row] for row in grid]
    family = [a != seats.declarer and not grid[a][(a + 1) % SEATS] and not grid[a][(a - 1) % SEATS]
              for a in range(SEATS)]
    return {
        "number": index + 1,
        "glyph": cell_glyph,
        "seats": seats,
        "contract": contract,
        "parts": OUTCOME_FIELDS[contract],
        "tricks": preset.tricks,
        "doubling": preset.doubling.enabled,
        "auto_redouble": preset.doubling.auto_redouble,
        "grid": grid,
        "family": family,
        "short": short_names(game.players),
        "split": preset.undoubled_negative == "split" and negative,
    }


def cell_glyph(doubler: int, doubled: int) -> str:
    """The mark of an unusable cell of the doubles grid: the diagonal, or another refusal."""
    return "—" if doubler == doubled else "✕"


def schedule_of(game: Game) -> list[dict[str, Any]]:
    """The schedule at a glance, one row per contract of the preset: for each declarer
    seat the number of the round in which they declared it (None while it is left)."""
    preset = game.preset
    played: dict[tuple[str, int], int] = {}
    for index, rnd in enumerate(game.rounds):
        played[(rnd.contract, declarer_of(preset, game.first_declarer, index))] = index + 1
    return [{"contract": c, "rounds": [played.get((c, seat)) for seat in range(SEATS)]}
            for c in preset.contract_ids]


def quota_notes(game: Game, standings: Any) -> list[dict[str, Any]]:
    """Players who still owe the next round's declarer doubles (barbu-rules.md, the quota)
    when the declarer's rounds left are no more than the doubles owed plus one: a gentle
    reminder, never a block. Each note: ``player``, ``owed``, ``left`` (rounds)."""
    upcoming = standings.next
    doubling = game.preset.doubling
    if upcoming is None or not doubling.enabled or not doubling.quota:
        return []
    declarer = upcoming.seats.declarer
    left = len(upcoming.contracts_left)
    notes = []
    for p in range(SEATS):
        owed = doubling.quota - standings.quota_given[declarer][p]
        if p != declarer and owed > 0 and left <= owed + 1:
            notes.append({"player": p, "owed": owed, "left": left})
    return notes


def scorer_context(stored: StoredGame, token: str, can_edit: bool, *, form: RoundForm | None = None,
                   contract: str | None = None, message: str | None = None, saved: bool = False,
                   preview: dict[str, Any] | None = None) -> dict[str, Any]:
    """Everything the game page shows, from the engine's scores. ``saved``: a round was
    just recorded (the page then leads with its points); ``preview``: the settlement
    preview of the form being entered (see rounds.preview_of)."""
    game = stored.to_game()
    scores = score(game)
    standings = scores.standings
    upcoming = standings.next
    rows = list(zip(game.rounds, scores.rounds))
    context: dict[str, Any] = {
        "stored": stored, "token": token, "can_edit": can_edit, "game": game, "scores": scores,
        "standings": standings, "upcoming": upcoming, "players": game.players, "preset": game.preset,
        "rows": rows, "message": message, "saved": saved, "last": rows[-1] if rows else None,
        "short": short_names(game.players), "schedule": schedule_of(game),
        "quota_notes": quota_notes(game, standings),
        "ranking": sorted(range(SEATS), key=lambda p: (standings.rank[p], p)),
        "contract": None, "form": None, "rf": None, "undo_form": ButtonForm(), "choices": (),
        "preview": preview,
    }
    if upcoming is not None:
        choices = contract_choices(game, upcoming)
        context["choices"] = choices
        context["declared"] = [c for c in game.preset.contract_ids if c not in upcoming.contracts_left]
        if can_edit and contract is None and len(choices) == 1:
            contract = choices[0]  # nothing to choose: straight to the form
        if can_edit and contract in choices:
            context["contract"] = contract
            context["form"] = form or RoundForm(formdata=None, data={"contract": contract})
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
def home(import_form: ImportGameForm | None = None, status: int = 200):
    """Start page: a big New game button, this device's recent games, importing a game."""
    recent = []
    for token in session.get("recent", []):
        found = services.find_by_token(token)
        if found is None:
            continue
        stored, _can_edit = found
        game, standings, leaders = leader_of(stored)
        recent.append({"stored": stored, "game": game, "standings": standings, "leaders": leaders})
    return render_template("games/home.html", recent=recent, import_form=import_form or ImportGameForm()), status


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
            stored, game = services.create_game(document, **security.creator())
        except ScoringError as exc:  # before ValueError, which it is a kind of
            where = exc.path or _("the file")
            form.file.errors = [_("%(path)s: %(message)s", path=where, message=error_text(exc))]
        except ValueError as exc:
            form.file.errors = [exc.args[0]]
        else:
            remember(stored)
            flash(_("Imported: %(n)d of %(total)d rounds. This game has its own new links.",
                    n=len(game.rounds), total=game.preset.round_count))
            return redirect(url_for("games.scorer", token=stored.edit_token), 303)
    return home(import_form=form, status=422)


@bp.route("/games/new", methods=["GET", "POST"])
@limit(GAME_STARTS)
def new():
    """The new-game form; a valid one starts the game and goes to its page (303).
    ``?preset=<id>`` picks a preset (built-in or this device's) and its default players."""
    form = NewGameForm(saved=services.device_presets(session.get("device")))
    if request.method == "GET":
        form.prefill(request.args.get("preset"))
    if form.validate_on_submit():
        document = form.to_document()
        try:
            stored, game = services.create_game(document, **security.creator())
        except ScoringError as exc:
            form.add_engine_error(exc.path, error_text(exc))
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
    stored, can_edit = any_game(token)
    if can_edit:
        remember(stored)
    context = scorer_context(stored, token, can_edit)
    return htmx.page_or_blocks("games/scorer.html", SCORER_BLOCKS, **context)
