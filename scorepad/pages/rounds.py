"""A recorded round's page, its edit page and the settlement preview: what they show, from
the engine's results."""

from __future__ import annotations

from typing import Any

from ..scoring import Game, Round, score
from ..scoring.doubles import pair_settlements
from ..scoring.game import declarer_of, free_contracts, seats_of
from .common import short_names
from .scorer import round_form


def settlement_of(game: Game, index: int, rnd: Round) -> dict[str, Any]:
    """Round ``index`` (0-based) of ``game`` played as ``rnd``, scored by the engine: its
    result (raw, doubles, total in points by seat) and ``pairs``, what moved between each
    pair with a double between them (scoring.doubles.pair_settlements) — the later rounds
    play no part."""
    preset = game.preset
    declarer = declarer_of(preset, game.first_declarer, index)
    head = Game(game.players, game.first_declarer, preset, game.rounds[:index] + (rnd,), game.title)
    result = score(head).rounds[index]
    return {
        "result": result,
        "declarer": declarer,
        "pairs": pair_settlements(result.raw, rnd.doubles, declarer, preset.doubling),
        "redouble_implied": preset.doubling.auto_redouble,
    }


def preview_fragment(game: Game, index: int, preview: dict[str, Any]) -> dict[str, Any]:
    """The template variables of the preview fragment of round ``index`` (0-based)."""
    return {"preview": preview, "players": game.players, "short": short_names(game.players), "number": index + 1}


def round_page(game: Game, number: int) -> dict[str, Any]:
    """Round ``number`` (1-based, recorded): ``rnd``, its ``result``, ``seats`` and
    ``settlement`` (:func:`settlement_of`), with ``game``, ``players``, ``short`` and
    ``rounds_total``."""
    rnd = game.rounds[number - 1]
    settlement = settlement_of(game, number - 1, rnd)  # a round's result depends only on the rounds up to it
    return {
        "game": game,
        "players": game.players,
        "rnd": rnd,
        "result": settlement["result"],
        "seats": seats_of(game.preset, game.first_declarer, number - 1, rnd.contract),
        "settlement": settlement,
        "short": short_names(game.players),
        "rounds_total": game.preset.round_count,
    }


def free_of(game: Game, number: int) -> tuple[str, ...]:
    """The contracts round ``number`` (1-based) may be changed to (the engine's
    :func:`~scorepad.scoring.game.free_contracts`)."""
    return free_contracts(game.preset, game.first_declarer, game.rounds, number - 1)


def edit_page(game: Game, number: int, contract: str) -> dict[str, Any]:
    """The edit page of round ``number`` (1-based) shown as ``contract``: ``rnd``, ``free``
    (the contracts it may change to), ``rf`` (the round form), ``game``, ``players``."""
    return {
        "game": game,
        "players": game.players,
        "number": number,
        "rnd": game.rounds[number - 1],
        "free": free_of(game, number),
        "rf": round_form(game, number - 1, contract),
    }
