"""Errors raised by the scoring engine."""

from __future__ import annotations


def N_(template: str) -> str:
    """Mark an English message template for translation (pybabel extracts ``N_``); the
    engine stays free of Flask-Babel, the web layer translates ``ScoringError.template``."""
    return template


class ScoringError(ValueError):
    """Invalid game input, refused whole.

    ``path`` names the place in the game document (``rounds[3].outcome.tricks``,
    ``players[1]``, ``preset.contracts[2].penalty``); ``message`` says what is wrong
    in words a scorer understands (game-format.md, "Errors"). ``template`` and ``params``
    are the message before formatting (``template % params``), for translation.
    """

    def __init__(self, path: str, template: str, **params: object):
        message = template % params if params else template
        super().__init__(f"{path}: {message}" if path else message)
        self.path = path
        self.template = template
        self.params = params
        self.message = message


class ScoringErrors(ScoringError):
    """Several problems of one input found at once, each of its own field (a form shows every
    one next to its field, so a scorer fixes them in one go): ``errors``, in the order the
    fields are read, at least two. Reads as the first of them (``path``, ``message``): an
    answer that names one problem names the one a one-at-a-time check would have."""

    def __init__(self, errors: list[ScoringError]):
        first = errors[0]
        super().__init__(first.path, first.template, **first.params)
        self.errors: tuple[ScoringError, ...] = tuple(errors)


def refuse_all(errors: list[ScoringError]) -> None:
    """Raise the problems found, if any: the one alone, or :class:`ScoringErrors` of them all."""
    if len(errors) == 1:
        raise errors[0]
    if errors:
        raise ScoringErrors(errors)


def each_error(exc: ScoringError) -> tuple[ScoringError, ...]:
    """The problems an engine error stands for: a :class:`ScoringErrors`' ``errors``, or itself."""
    return exc.errors if isinstance(exc, ScoringErrors) else (exc,)


class MissingPart(ScoringError):
    """A part of a round's outcome (or the outcome itself) is not given yet: the round is
    still being entered rather than wrong."""


class ScheduleError(ScoringError):
    """The round does not fit the schedule: the contract is not one its declarer may
    choose (declared already, in a later round, or not the next of a fixed order), or the
    declarer is not the schedule's (barbu-rules.md "Table and schedule")."""


class AlreadyDeclared(ScheduleError):
    """The contract is refused because its declarer has declared it already: each declarer
    plays every contract once (barbu-rules.md "Table and schedule"). ``seat`` is the
    declarer's seat (0 to 3), ``contract`` the contract's id."""

    def __init__(self, path: str, seat: int, player: str, contract: str):
        super().__init__(path, N_("%(player)s has already declared %(contract)s"), player=player, contract=contract)
        self.seat = seat
        self.contract = contract


class OutOfOrder(ScheduleError):
    """The contract is refused because the preset plays its contracts in a fixed order
    (``chooser: fixed``) and it is not the next one; ``next`` is the id of the one that is."""

    def __init__(self, path: str, next_contract: str):
        super().__init__(
            path, N_("the contracts are played in a fixed order: next is %(contract)s"), contract=next_contract
        )
        self.next = next_contract


class IllegalDouble(ScoringError):
    """A double the rules do not allow in this round (barbu-rules.md "Doubles")."""


def join(path: str, part: str | int) -> str:
    """Extend a document path: ``join("rounds", 3) == "rounds[3]"``,
    ``join("rounds[3]", "outcome") == "rounds[3].outcome"``."""
    if isinstance(part, int):
        return f"{path}[{part}]"
    return f"{path}.{part}" if path else part
