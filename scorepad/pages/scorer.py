"""The game page (the scorer's page, or the read-only view) and the round form it holds:
what they show, from the engine's results."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..i18n import engine_text
from ..scoring import Game, ScoringError, parse_round, score
from ..scoring.contracts import GIVEN_PLACES, OUTCOME_FIELDS, SEATS
from ..scoring.doubles import family_cells, needed_double, refusal
from ..scoring.game import declared_in, declarer_of, leaders, quota_reminders, seats_of, split_applies
from .common import short_names, standings_part

if TYPE_CHECKING:
    from ..services.scorer import ScorerState


def cell_glyph(doubler: int, doubled: int) -> str:
    """The mark of an unusable cell of the doubles grid: the diagonal, or another refusal."""
    return "—" if doubler == doubled else "✕"


def round_form(game: Game, index: int, contract: str) -> dict[str, Any]:
    """What the round form needs for round ``index`` (0-based) played as ``contract``:
    the seats, the outcome parts, and for each cell of the doubles grid the engine's
    reason it can never be used (translated; None for a usable cell) and ``needs[a][b]`` the
    double it needs ticked first (``"b-a"``, a redouble's double; None: none); ``family[a]``
    the cells the "family" shortcut ticks for seat ``a`` as ``"a-b"`` values (empty: no
    shortcut for that seat); ``seat_count`` (4) and ``given_places`` (Domino's places the
    scorer taps before the last is implied), which entry.js reads as data attributes."""
    preset = game.preset
    seats = seats_of(preset, game.first_declarer, index, contract)
    positive = not preset.contract(contract).negative
    grid = [[refusal(a, b, seats.declarer, positive, preset.doubling) for b in range(SEATS)] for a in range(SEATS)]
    family = [
        " ".join(f"{a}-{b}" for a, b in family_cells(doubler, seats.declarer, positive, preset.doubling))
        for doubler in range(SEATS)
    ]
    needed = [[needed_double(a, b, seats.declarer) for b in range(SEATS)] for a in range(SEATS)]
    return {
        "number": index + 1,
        "glyph": cell_glyph,
        "seats": seats,
        "contract": contract,
        "parts": OUTCOME_FIELDS[contract],
        "tricks": preset.tricks,
        "doubling": preset.doubling.enabled,
        "auto_redouble": preset.doubling.auto_redouble,
        "grid": [[engine_text(why) if why else None for why in row] for row in grid],
        "family": family,
        "needs": [[f"{n[0]}-{n[1]}" if n else None for n in row] for row in needed],
        "seat_count": SEATS,
        "given_places": GIVEN_PLACES,
        "short": short_names(game.players),
        "split": split_applies(preset, contract),
    }


def schedule_of(game: Game) -> list[dict[str, Any]]:
    """The schedule at a glance, one row per contract of the preset: for each declarer
    seat the number of the round in which they declared it (None while it is left)."""
    played = declared_in(game.preset, game.first_declarer, game.rounds)
    return [
        {"contract": c, "rounds": [played.get((c, seat)) for seat in range(SEATS)]} for c in game.preset.contract_ids
    ]


def scorer_page(game: Game, can_edit: bool, contract: str | None = None) -> dict[str, Any]:
    """The game page's template variables (see :func:`.common.standings_part`), plus
    ``last`` (the last round and its result, or None), ``short``, ``schedule``,
    ``quota_notes`` (the engine's quota reminders), ``choices`` (the contracts the next
    declarer may choose), ``contract`` (the contract whose form is shown, or None: with one
    choice only, that one) and ``rf`` (:func:`round_form` for it, or None)."""
    scores = score(game)
    page = standings_part(game, scores)
    upcoming = page["upcoming"]
    rows = page["rows"]
    page.update(
        {
            "last": rows[-1] if rows else None,
            "short": short_names(game.players),
            "schedule": schedule_of(game),
            "quota_notes": quota_reminders(game.preset.doubling, scores.standings),
            "choices": (),
            "contract": None,
            "rf": None,
        }
    )
    if upcoming is not None:
        choices = upcoming.choices
        page["choices"] = choices
        if can_edit and contract is None and len(choices) == 1:
            contract = choices[0]  # nothing to choose: straight to the form
        if can_edit and contract is not None and contract in choices:
            page["contract"] = contract
            page["rf"] = round_form(game, len(game.rounds), contract)
    return page


def scorer_parts(state: ScorerState, can_edit: bool, contract: str | None = None) -> dict[str, Any]:
    """The game page's template variables from its one read (:class:`~scorepad.services.scorer.ScorerState`):
    :func:`scorer_page`, plus ``undone`` (:func:`undone_part`, for the edit token) and
    ``night_closed`` (a table of a closed club night: shown, no longer scored; no round form,
    no undo, and a line saying so). (The rounds' marks, ``trust``, are
    :func:`.history.trust_part` of the state: pages.history imports this module.)"""
    page = scorer_page(state.game, can_edit, contract)
    page["undone"] = undone_part(state.game, state.undone) if can_edit else None
    page["night_closed"] = state.night_closed
    return page


def undone_part(game: Game, undone: Any) -> dict[str, Any] | None:
    """The round the last undo removed, as the game page offers to put it back:
    ``number``, ``rnd`` (the engine's :class:`~scorepad.scoring.Round`) and ``declarer``
    (seat); None when ``undone`` (``StoredGame.undone``: ``{"number": n, "round": {...}}``) is
    None or is not a round the engine would take as the game's next one now."""
    if not isinstance(undone, dict) or undone.get("number") != len(game.rounds) + 1:
        return None
    try:
        rnd = parse_round(game.preset, game.players, game.first_declarer, game.rounds, undone.get("round"), "")
    except ScoringError:
        return None
    return {
        "number": undone["number"],
        "rnd": rnd,
        "declarer": declarer_of(game.preset, game.first_declarer, len(game.rounds)),
    }


def recent_game(game: Game) -> dict[str, Any]:
    """A game in the home page's list: ``game``, its ``standings`` and the names of the
    ``leaders`` (none before the first round)."""
    standings = score(game).standings
    return {"game": game, "standings": standings, "leaders": [game.players[p] for p in leaders(standings)]}
