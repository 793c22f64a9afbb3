"""A recorded round's page, its edit page and the settlement preview: what they show, from
the engine's results."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from flask_babel import gettext as _

from .. import labels
from ..i18n import error_text
from ..scoring import Game, MissingPart, Round, ScoringError, parse_round, score
from ..scoring.contracts import OUTCOME_FIELDS
from ..scoring.document import check_contract
from ..scoring.doubles import pair_settlements
from ..scoring.errors import AlreadyDeclared, ScheduleError
from ..scoring.game import declarer_of, free_contracts, round_points, seats_of
from .common import isolated_text, short_names, signed
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


def edit_summary(after: Game, number: int, old: Round) -> dict[str, Any]:
    """What the edit of round ``number`` (1-based) from ``old`` to what it is in ``after`` (the
    game as saved) changed, for the game page's confirmation: ``number``, ``changes`` (the
    round's parts that changed, in words: :func:`round_changes`) and ``moved``, ``[seat,
    points]`` for each player whose total the engine now scores differently (points after minus
    points before, the game before being ``after`` with round ``number`` as ``old``). Plain
    lists and strings: the summary is kept in the session until the game page shows it."""
    before = replace(after, rounds=after.rounds[: number - 1] + (old,) + after.rounds[number:])
    totals_before = score(before).standings.totals
    totals_after = score(after).standings.totals
    moved = [[seat, now - then] for seat, (then, now) in enumerate(zip(totals_before, totals_after, strict=True))]
    declarer = declarer_of(before.preset, before.first_declarer, number - 1)
    return {
        "number": number,
        "changes": round_changes(before.rounds[number - 1], after.rounds[number - 1], before.players, declarer),
        "moved": [pair for pair in moved if pair[1]],
    }


def round_changes(old: Round, new: Round, players: Sequence[str], declarer: int) -> list[str]:
    """The differences between round ``old`` and its edit ``new``, one sentence-like line a
    part, in the reader's language: "Contract: No Queens → No Tricks", "Last trick: Élodie →
    Marc", "Tricks: Anne 3 → 4, Beth 5 → 4", "Doubles added: Anne doubled Beth". A part the
    old round did not have (another contract) is given with its new value only. Names are
    isolated (:func:`~.common.isolated_text`): the lines are plain text."""
    names = [isolated_text(name) for name in players]
    changes: list[str] = []

    def said(part: str, before: str | None, after: str) -> None:
        change = after if before is None else f"{before} → {after}"
        changes.append(_("%(part)s: %(change)s", part=part, change=change))

    if old.contract != new.contract:
        said(_("Contract"), labels.contract_name(old.contract), labels.contract_name(new.contract))
    if old.trump != new.trump:
        said(_("Trump suit"), _suit(old.trump), _suit(new.trump))
    if old.start_rank != new.start_rank:
        said(_("Starting rank"), _rank(old.start_rank), _rank(new.start_rank))
    if (old.outcome is None) != (new.outcome is None):
        played, unplayed = _("played"), _("not played")
        said(_("Outcome"), unplayed if old.outcome is None else played, played if old.outcome is None else unplayed)
    before, after = old.outcome or {}, new.outcome or {}
    for part in OUTCOME_FIELDS[new.contract] if new.outcome is not None else ():
        value, was = after[part], before.get(part)
        if value == was:
            continue
        label = str(labels.OUTCOME_PARTS[part])
        if part in COUNTED and was is not None:
            moves = [f"{names[seat]} {a} → {b}" for seat, (a, b) in enumerate(zip(was, value, strict=True)) if a != b]
            said(label, None, ", ".join(moves))
        else:
            said(label, None if was is None else _part_value(part, was, names), _part_value(part, value, names))
    added = [pair for pair in new.doubles if pair not in old.doubles]
    removed = [pair for pair in old.doubles if pair not in new.doubles]
    if added:
        changes.append(_("Doubles added: %(doubles)s", doubles=_doubles(added, names, declarer)))
    if removed:
        changes.append(_("Doubles removed: %(doubles)s", doubles=_doubles(removed, names, declarer)))
    return changes


#: The outcome's parts that count something for each player (the others name players).
COUNTED = ("tricks", "queens", "hearts")


def _part_value(part: str, value: Any, names: Sequence[str]) -> str:
    """A part of an outcome in words: each player's count ("Anne 3, Beth 5, …"), the players
    in order ("Marc, Anne, …") or the player who took it ("Marc")."""
    if part in COUNTED:
        return ", ".join(f"{names[seat]} {n}" for seat, n in enumerate(value))
    if part in ("order", "most"):
        return ", ".join(names[seat] for seat in value)
    return names[value]


@dataclass(frozen=True)
class RoundWords:
    """A round in words, as the history page and the phone's card of a round not saved say it
    (plain text, names isolated): ``title`` ("Round 3: Marc declares No Queens"), ``outcome``
    (a line a part of the outcome, then the doubles: "Queens: Anne 1, Beth 0, …", "Doubles:
    Anne doubled Marc"; "Outcome: not played" for a deal nobody doubled) and ``totals``, each
    player's points of the round by seat (the engine's :func:`~scorepad.scoring.game.round_points`),
    said by ``points`` ("Points: Anne −6, Beth +4, …")."""

    title: str
    outcome: tuple[str, ...]
    totals: tuple[int, ...]
    points: str

    @property
    def lines(self) -> tuple[str, ...]:
        """The outcome's lines and the points' line."""
        return (*self.outcome, self.points)


def points_line(players: Sequence[str], totals: Sequence[int], before: Sequence[int] | None = None) -> str:
    """Each player's points of a round: "Points: Anne −6, Beth +4, Cath 0, Diana +2"; with
    ``before`` (the points before an edit), a player whose points changed as "Anne −6 → −10"."""
    said = []
    for seat, (name, now) in enumerate(zip(players, totals, strict=True)):
        value = signed(now, plus=True)
        if before is not None and before[seat] != now:
            value = f"{signed(before[seat], plus=True)} → {value}"
        said.append(f"{isolated_text(name)} {value}")
    return _("%(part)s: %(change)s", part=_("Points"), change=", ".join(said))


def round_words(game: Game, number: int, rnd: Round) -> RoundWords:
    """Round ``rnd`` said as round ``number`` (1-based) of ``game``: its declarer is the
    schedule's, its points the engine's (:class:`RoundWords`). ``rnd`` is a round the engine
    validated (a stored one, or one parsed for this number)."""
    preset = game.preset
    declarer = declarer_of(preset, game.first_declarer, number - 1)
    names = [isolated_text(name) for name in game.players]
    raw, net, played = round_points(preset, rnd, declarer)
    totals = tuple(r + n for r, n in zip(raw, net, strict=True))
    if rnd.outcome is None or not played:
        outcome = [_("%(part)s: %(change)s", part=_("Outcome"), change=_("not played"))]
    else:
        outcome = [
            _(
                "%(part)s: %(change)s",
                part=labels.OUTCOME_PARTS[part],
                change=_part_value(part, rnd.outcome[part], names),
            )
            for part in OUTCOME_FIELDS[rnd.contract]
        ]
    if rnd.doubles:
        outcome.append(_("%(part)s: %(change)s", part=_("Doubles"), change=_doubles(rnd.doubles, names, declarer)))
    title = _(
        "Round %(n)d: %(name)s declares %(contract)s",
        n=number,
        name=names[declarer],
        contract=contract_words(rnd),
    )
    return RoundWords(title, tuple(outcome), totals, points_line(game.players, totals))


def contract_words(rnd: Round) -> str:
    """A round's contract in words: "No Queens", "Trumps (♥ Hearts)", "Domino (starting rank: 7)"."""
    text = str(labels.contract_name(rnd.contract))
    if rnd.trump in labels.SUITS:
        text += f" ({_suit(rnd.trump)})"
    if rnd.start_rank in labels.RANKS:
        text += " ({})".format(_("starting rank: %(rank)s", rank=labels.RANKS[rnd.start_rank]))
    return text


def entered_round(game: Game, number: int, document: Any) -> RoundWords | None:
    """What a scorer entered as round ``number`` (1-based): the round ``document`` of their
    form (game-format.md "Round") in words, validated by the engine as the round after the
    game's first ``number - 1`` rounds, the game they saw. None when the game no longer has
    those rounds (one was undone since) or the engine refuses the round."""
    if document is None or number < 1 or len(game.rounds) < number - 1:
        return None
    previous = game.rounds[: number - 1]
    try:
        rnd = parse_round(game.preset, game.players, game.first_declarer, previous, document, "")
    except ScoringError:
        return None
    return round_words(game, number, rnd)


def _suit(suit: str | None) -> str:
    return f"{labels.SUIT_SYMBOLS[suit]} {labels.SUITS[suit]}" if suit else _("none")


def _rank(rank: str | None) -> str:
    return str(labels.RANKS[rank]) if rank else _("none")


def _doubles(pairs: Sequence[Sequence[int]], names: Sequence[str], declarer: int) -> str:
    """Doubles in words, as the round page says them ("Anne doubled Beth", "Beth redoubled Anne")."""
    said = [
        _("%(a)s redoubled %(b)s", a=names[a], b=names[b])
        if a == declarer
        else _("%(a)s doubled %(b)s", a=names[a], b=names[b])
        for a, b in pairs
    ]
    return ", ".join(said)


def contract_refusal(game: Game, contract: str | None) -> str | None:
    """Why the engine refuses ``contract`` as the next round of ``game``, in the page's
    language (:func:`~scorepad.scoring.document.check_contract`): already declared by its
    declarer (named), or not the next one of a fixed order (the engine's message names it).
    None when the engine does not say (no contract, or none of the preset's)."""
    try:
        check_contract(game.preset, game.players, game.first_declarer, game.rounds, contract)
    except AlreadyDeclared as refused:
        return _(
            "%(name)s has already declared %(contract)s; choose another contract.",
            name=isolated_text(game.players[refused.seat]),
            contract=labels.contract_name(refused.contract),
        )
    except ScheduleError as refused:
        return error_text(refused)
    except ScoringError:
        return None
    return None


def preview_of(game: Game, index: int, document: dict[str, Any] | None) -> dict[str, Any]:
    """The settlement preview of a round form's ``document`` (None while the form cannot make
    one) as round ``index`` (0-based): the engine's :func:`settlement_of` once the round is
    complete and legal, otherwise ``{"problem": text}``, the first thing the engine still needs."""
    waiting = _("enter the outcome to see what each player scores.")
    if document is None:
        return {"problem": waiting}
    try:
        rnd = parse_round(game.preset, game.players, game.first_declarer, game.rounds[:index], document, "")
    except MissingPart:
        return {"problem": waiting}  # a part not chosen yet is still being entered
    except ScoringError as exc:
        return {"problem": error_text(exc)}
    return settlement_of(game, index, rnd)
