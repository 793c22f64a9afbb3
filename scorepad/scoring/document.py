"""The game document (shared/spec/game-format.md): parse, validate, export.

:func:`parse_game` turns a JSON document into a validated :class:`~.game.Game` or raises
:class:`~.errors.ScoringError` with the path and a plain message; :func:`export_game`
writes the document back with every round's ``result`` and the game's ``standings``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, date, datetime
from functools import cache
from typing import Any
from zoneinfo import ZoneInfo, available_timezones

from .contracts import SEATS, START_RANKS, TRUMP_SUITS, is_int, parse_outcome
from .doubles import validate_doubles
from .errors import N_, AlreadyDeclared, OutOfOrder, ScheduleError, ScoringError, each_error, join, refuse_all
from .game import Game, Round, Scores, contract_choices, contracts_left, declared_later, declarer_of, not_played, score
from .presets import MAX_PLAYER, Preset, preset_to_dict, resolve_preset
from .text import clean_names, clean_text, refuse_lone_surrogates, stored_text
from .trust import PROVISIONAL, parse_confirmation, shown_status

FORMAT = "barbu-scorepad/game@1"
MAX_TITLE = 80
MAX_TIMEZONE = 64  # characters; the longest IANA name has 32
GAME_FIELDS = {
    "format",
    "title",
    "date",
    "timezone",
    "confirmation",
    "players",
    "first_declarer",
    "preset",
    "rounds",
    "standings",
    "history",
    "club",
    "members",
}
ROUND_FIELDS = {"contract", "doubles", "outcome", "trump", "start_rank", "declarer", "number", "result", "status"}

#: A round's optional details (game-format.md "Round"), in the order they are checked: the
#: contract each belongs to, the values it takes, and the messages for the detail given on
#: another contract and for a value not among them.
ROUND_DETAILS: dict[str, tuple[str, tuple[str, ...], str, str]] = {
    "trump": (
        "trumps",
        TRUMP_SUITS,
        N_("only a Trumps round has a trump suit"),
        N_("the trump suit is one of %(choices)s"),
    ),
    "start_rank": (
        "domino",
        START_RANKS,
        N_("only a Domino round has a starting rank"),
        N_("the starting rank is one of %(choices)s"),
    ),
}


def parse_players(obj: Any, path: str = "players", *, stored: bool = False) -> tuple[str, str, str, str]:
    """Four player names in clockwise seat order, each a name by the rules of
    :mod:`.text` (NFC, trimmed, at most 40 characters, no control character or lone
    surrogate, something visible) and no two the same after :func:`~.text.name_key`
    ("Anne" and "ANNE\\u200b" are one player). ``stored``: read back from the database, see
    :func:`parse_game`. Raises :class:`ScoringError` naming the seat (``players[1]``)."""
    if not isinstance(obj, list) or len(obj) != SEATS:
        raise ScoringError(path, N_("a game has exactly four players"))
    return player_names(obj, path, stored=stored)  # type: ignore[return-value]  # four, checked above


def player_names(values: Sequence[Any], path: str = "players", *, stored: bool = False) -> tuple[str, ...]:
    """Players' names by the rules of a game's (:func:`parse_players`; a club night's
    ``players`` too, club-format.md "Club night"), however many: each by :mod:`.text`
    (at most 40 characters), no two the same after :func:`~.text.name_key`. Raises
    :class:`ScoringError` naming the player (``players[5]``)."""
    return clean_names(
        values,
        path,
        MAX_PLAYER,
        empty_message=N_("the name is empty"),
        too_long_message=N_("the name is longer than %(limit)d characters"),
        stored=stored,
    )


def parse_seat(obj: Any, path: str) -> int:
    """A seat 0..3; raises :class:`ScoringError` otherwise."""
    if not is_int(obj) or not 0 <= obj < SEATS:
        raise ScoringError(path, N_("must be a seat from 0 to 3"))
    return obj


def parse_title(obj: Any, path: str = "title", *, stored: bool = False) -> str | None:
    """An optional title: None, or text by the rules of :mod:`.text` (NFC, trimmed, at most
    80 characters, no line break, control character or lone surrogate, something visible);
    empty means none. ``stored``: see :func:`parse_game`. Raises :class:`ScoringError` at ``path``."""
    if obj is None:
        return None
    if not isinstance(obj, str):
        raise ScoringError(path, N_("the title must be text"))
    title = clean_text(
        obj, path, MAX_TITLE, too_long_message=N_("the title is longer than %(limit)d characters"), stored=stored
    )
    return title or None


#: A date as club-format.md writes it: exactly YYYY-MM-DD in ASCII digits (``fromisoformat``
#: alone also takes ``20261203`` and, since Python 3.11, week dates such as ``2026-W49-4``).
DATE_SHAPE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


def parse_date(obj: Any, path: str = "date") -> date | None:
    """The local calendar date a game was played (club-format.md "Game document
    additions"): ``YYYY-MM-DD`` text, a real day of the calendar; None when absent (null).
    Raises :class:`ScoringError` at ``path`` for anything else (another type, another
    shape such as ``2026-2-3`` or ``20261203``, a day that does not exist)."""
    if obj is None:
        return None
    if not isinstance(obj, str) or not DATE_SHAPE.fullmatch(obj):
        raise ScoringError(path, N_("write the date as YYYY-MM-DD, such as 2026-12-03"))
    try:
        return date.fromisoformat(obj)
    except ValueError:
        raise ScoringError(path, N_("%(date)s is not a day of the calendar"), date=obj) from None


#: Files of a system's time zone folder that are not zones a phone reports: the machine's
#: own zone, the zone "Factory" (no place) and the POSIX rules template.
NOT_ZONES = frozenset({"localtime", "Factory", "posixrules"})


@cache
def known_timezones() -> frozenset[str]:
    """Every IANA time zone name of this machine's time zone database (the system's, or
    the ``tzdata`` package's) but :data:`NOT_ZONES`, read once: ~600 names."""
    return frozenset(available_timezones()) - NOT_ZONES


def parse_timezone(obj: Any, path: str = "timezone", *, stored: bool = False) -> str | None:
    """The time zone the phone said it is in (club-format.md "Game document additions"):
    an IANA name such as ``Europe/Amsterdam``, exactly as the time zone database spells it;
    None when absent (null). Raises :class:`ScoringError` at ``path`` for anything else.
    Only names in :func:`known_timezones` are accepted, so a path-like or odd string
    (``../../etc/passwd``, a NUL) never reaches the file system. ``stored``: read back from
    the database, where it was checked when the game started; it only labels the game then
    (its date was fixed at the start), so a name this machine's database lacks (the game
    moved to another host) is kept as it is, made safe to show, never refused."""
    if obj is None:
        return None
    if stored and isinstance(obj, str):
        return stored_text(obj)
    if not isinstance(obj, str) or len(obj) > MAX_TIMEZONE or obj not in known_timezones():
        raise ScoringError(path, N_("the time zone is an IANA name such as Europe/Amsterdam"))
    return obj


def default_date(timezone: str | None, now: datetime) -> date:
    """The date of a game whose document gave none (club-format.md): the day ``now`` (an
    aware datetime: the server's clock) falls on in ``timezone`` (a name accepted by
    :func:`parse_timezone`), else in UTC."""
    return now.astimezone(ZoneInfo(timezone) if timezone else UTC).date()


def parse_round(
    preset: Preset, players: tuple[str, ...], first_declarer: int, previous: tuple[Round, ...], obj: Any, path: str
) -> Round:
    """Validate the round that follows ``previous`` (game-format.md "Round").

    Checks the declarer (if given) against the schedule, that the contract is one of the
    declarer's remaining ones (the next in the list with ``chooser: fixed``), the trump suit
    or starting rank, the doubles grid, and the outcome (absent exactly when an undoubled
    negative contract is split). Raises :class:`ScoringError` with the path.
    """
    if not isinstance(obj, dict):
        raise ScoringError(path, N_("a round must be an object"))
    for key in obj:
        if key not in ROUND_FIELDS:
            raise ScoringError(join(path, key), N_("unknown round field"))
    index = len(previous)
    if index >= preset.round_count:
        raise ScheduleError(path, N_("the game is complete after %(rounds)d rounds"), rounds=preset.round_count)
    declarer = declarer_of(preset, first_declarer, index)
    if "declarer" in obj and (not is_int(obj["declarer"]) or obj["declarer"] != declarer):
        raise ScheduleError(
            join(path, "declarer"),
            N_("round %(number)d is declared by %(player)s (seat %(seat)d)"),
            number=index + 1,
            player=players[declarer],
            seat=declarer,
        )
    cid = check_contract(preset, players, first_declarer, previous, obj.get("contract"), join(path, "contract"))
    details: dict[str, str | None] = {}
    for field, (owner, allowed, elsewhere, unknown) in ROUND_DETAILS.items():
        value = details[field] = obj.get(field)
        if value is not None and cid != owner:
            raise ScoringError(join(path, field), elsewhere)
        if value is not None and value not in allowed:
            raise ScoringError(join(path, field), unknown, choices=", ".join(allowed))
    contract = preset.contract(cid)
    doubles = validate_doubles(
        obj.get("doubles", []), declarer, not contract.negative, preset.doubling, join(path, "doubles")
    )
    opath = join(path, "outcome")
    outcome = obj.get("outcome")
    if not_played(preset, cid, doubles):
        if outcome is not None:
            raise ScoringError(opath, N_("nobody doubled, so this deal is not played and has no outcome"))
    else:
        outcome = parse_outcome(cid, outcome, preset.deck, opath)
    return Round(cid, doubles, outcome, details["trump"], details["start_rank"])


def check_contract(
    preset: Preset,
    players: Sequence[str],
    first_declarer: int,
    previous: Sequence[Round],
    contract: Any,
    path: str = "contract",
) -> str:
    """``contract`` (a contract id as given, None when none was chosen) when it may be
    declared in the round that follows ``previous``, or why not (barbu-rules.md "Table
    and schedule"): each declarer declares every contract of the preset once, in the preset's
    order when ``chooser`` is ``fixed``. Raises :class:`ScoringError` at ``path`` for no
    contract or one the preset does not have, :class:`AlreadyDeclared` for one the declarer
    has declared, :class:`OutOfOrder` for one that is not the next of a fixed order."""
    if contract is None:
        raise ScoringError(path, N_("choose the contract"))
    if not isinstance(contract, str) or contract not in preset.contract_ids:
        raise ScoringError(path, N_("%(contract)r is not a contract of this preset"), contract=contract)
    declarer = declarer_of(preset, first_declarer, len(previous))
    left = contracts_left(preset, first_declarer, previous, declarer)
    if contract not in left:
        raise AlreadyDeclared(path, declarer, players[declarer], contract)
    choices = contract_choices(preset, left)
    if contract not in choices:
        raise OutOfOrder(path, choices[0])
    return contract


def parse_replacement(game: Game, index: int, obj: Any, path: str = "") -> Round:
    """Validate ``obj`` as the new version of recorded round ``index`` (0-based) of
    ``game``: :func:`parse_round` after the rounds before it, and its contract not one its
    declarer declares in a later round (each contract once). Raises :class:`ScoringError`
    with the path (``contract`` for a contract declared later)."""
    rnd = parse_round(game.preset, game.players, game.first_declarer, game.rounds[:index], obj, path)
    later = declared_later(game.preset, game.first_declarer, game.rounds, index, rnd.contract)
    if later is not None:
        declarer = declarer_of(game.preset, game.first_declarer, index)
        raise ScheduleError(
            join(path, "contract"),
            N_("%(name)s declares %(contract)s in round %(n)d"),
            name=game.players[declarer],
            contract=rnd.contract,
            n=later + 1,
        )
    return rnd


def parse_game(obj: Any, saved: Mapping[str, Preset] | None = None, *, stored: bool = False) -> Game:
    """Validate a whole game document and return the :class:`Game`.

    ``saved`` maps the ids of saved presets a document may name. Results (``number``,
    ``result``, ``standings``) in an export are ignored, and so are its rounds' ``status`` and
    its ``history`` (club-format.md "Trust"): an imported game starts a record of its own, its
    rounds provisional, so that no scorer can import a round as checked. ``date`` and ``timezone`` are kept
    as given (None when absent: the caller picks the default, :func:`default_date`). ``stored``: the document was read
    back from the database, so it was checked when it was written, by the rules of that day;
    its text (title, names, the preset's name and default players) is then read as it is and
    only made safe to show (:func:`~.text.stored_text`: a lone surrogate becomes U+FFFD, a
    control character a space), never refused, so that a game stored before a rule still
    opens and exports. Every other rule applies. Raises :class:`ScoringError` with the path
    and message of the first problem found; nothing is partially accepted. The title, club,
    date, time zone, confirmation and each player's name are read each on its own: problems
    among them raise :class:`~.errors.ScoringErrors` of them all (reading as the first).
    """
    if not isinstance(obj, dict):
        raise ScoringError("", N_("a game document must be a JSON object"))
    if not stored:
        refuse_lone_surrogates(obj)
    if "game" in obj and "players" not in obj:  # an example file: {"game": …, "expected": …}
        raise ScoringError(
            "game", N_("this file holds a game document under “game”, as the examples do: import that object alone")
        )
    for key in obj:
        if key not in GAME_FIELDS:
            raise ScoringError(key, N_("unknown field of a game document"))
    if "format" in obj and obj["format"] != FORMAT:
        raise ScoringError("format", N_("this is not a game document (%(format)s)"), format=FORMAT)
    # The fields that stand on their own are each read, whatever the others hold, so that
    # every problem among them is refused at once (ScoringErrors: a form shows them all).
    problems: list[ScoringError] = []

    def read(parse: Callable[[], Any]) -> Any:
        try:
            return parse()
        except ScoringError as exc:
            problems.extend(each_error(exc))
            return None

    title = read(lambda: parse_title(obj.get("title"), stored=stored))
    if not stored:
        read(lambda: parse_game_club(obj))  # their shape; whether they are the club's is the app's check
    played_on = read(lambda: parse_date(obj.get("date")))
    timezone = read(lambda: parse_timezone(obj.get("timezone"), stored=stored))
    confirmation = read(lambda: parse_confirmation(obj.get("confirmation")))
    players = read(lambda: parse_players(obj.get("players"), stored=stored))
    refuse_all(problems)
    if "first_declarer" not in obj:
        raise ScoringError("first_declarer", N_("say who declares first (a seat from 0 to 3)"))
    first = parse_seat(obj["first_declarer"], "first_declarer")
    if "preset" not in obj:
        raise ScoringError("preset", N_("name a preset (such as tournament) or give a whole preset object"))
    preset = resolve_preset(obj["preset"], "preset", dict(saved or {}), stored=stored)
    raw_rounds = obj.get("rounds", [])
    if not isinstance(raw_rounds, list):
        raise ScoringError("rounds", N_("must be a list of rounds"))
    if len(raw_rounds) > preset.round_count:
        raise ScoringError(
            "rounds",
            N_("%(given)d rounds given, a game of this preset has %(rounds)d"),
            given=len(raw_rounds),
            rounds=preset.round_count,
        )
    rounds: tuple[Round, ...] = ()
    for i, r in enumerate(raw_rounds):
        rounds += (parse_round(preset, players, first, rounds, r, join("rounds", i)),)
    return Game(players, first, preset, rounds, title, played_on, timezone, confirmation)


#: A club's or a member's public id: URL-safe, as the app makes them (scorepad.services.clubs.new_public_id).
PUBLIC_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")


def parse_public_id(obj: Any, path: str) -> str:
    """A club's or a member's id as sent: 1 to 32 URL-safe characters. Raises :class:`ScoringError` at ``path``."""
    if not isinstance(obj, str) or not PUBLIC_ID.fullmatch(obj):
        raise ScoringError(path, N_("not an id of this app"))
    return obj


def parse_game_club(obj: Mapping[str, Any], count: int = 4) -> tuple[str | None, tuple[str | None, ...] | None]:
    """A game or night document's ``club`` and ``members`` (club-format.md "Game document
    additions"): the club id (None when absent or null) and the members, one per player
    (``count``: 4 for a game, a night's number of players; a member id or None for a guest;
    None when absent or null). ``members`` without ``club`` is refused; no member twice.
    Whether the ids are the club's is the app's check.
    Raises :class:`ScoringError` at ``club``, ``members`` or ``members[i]``."""
    club = obj.get("club")
    if club is not None:
        club = parse_public_id(club, "club")
    raw = obj.get("members")
    if raw is None:
        return club, None
    if club is None:
        raise ScoringError("members", N_("members belong to a club: give the club too"))
    if not isinstance(raw, list) or len(raw) != count:
        raise ScoringError("members", N_("a list of member ids (null for a guest), one per player"))
    seen: set[str] = set()
    members: list[str | None] = []
    for i, value in enumerate(raw):
        if value is None:
            members.append(None)
            continue
        member = parse_public_id(value, join("members", i))
        if member in seen:
            raise ScoringError(join("members", i), N_("this member already has a seat"))
        seen.add(member)
        members.append(member)
    return club, tuple(members)


def round_to_dict(rnd: Round) -> dict[str, Any]:
    """The round as recorded (game-format.md "Round"), without results."""
    out: dict[str, Any] = {"contract": rnd.contract}
    if rnd.trump is not None:
        out["trump"] = rnd.trump
    if rnd.start_rank is not None:
        out["start_rank"] = rnd.start_rank
    out["doubles"] = [list(pair) for pair in rnd.doubles]
    if rnd.outcome is not None:
        out["outcome"] = {k: (list(v) if isinstance(v, (list, tuple)) else v) for k, v in rnd.outcome.items()}
    return out


def same_round(one: dict[str, Any], other: dict[str, Any]) -> bool:
    """True when two round objects (game-format.md "Round") record the same round: equal but
    for the order of their ``doubles`` pairs and of ``outcome.most`` (sets: their order means
    nothing). The scorer's form lists doubles in grid order, whatever order the API stored them
    in, so saving it unchanged must not count as an edit (club-format.md "Trust")."""

    def canonical(rnd: dict[str, Any]) -> dict[str, Any]:
        out = {**rnd, "doubles": sorted(map(list, rnd.get("doubles") or []))}
        if isinstance(rnd.get("outcome"), dict) and isinstance(rnd["outcome"].get("most"), list):
            out["outcome"] = {**rnd["outcome"], "most": sorted(rnd["outcome"]["most"])}
        return out

    return canonical(one) == canonical(other)


def export_game(game: Game, scores: Scores | None = None, statuses: Sequence[str] | None = None) -> dict[str, Any]:
    """The export of game-format.md: the document with the whole preset object, each
    round's ``number``, ``declarer``, ``status`` and ``result``, and the game's ``standings``;
    its ``date`` and ``timezone`` (club-format.md) when known (a stored game always has a date)
    and its ``confirmation``. ``statuses``: each round's stored status, in order (all
    ``provisional`` when not given); a game whose confirmation is ``off`` exports every round
    ``confirmed`` (:func:`~.trust.shown_status`)."""
    scores = scores or score(game)
    doc: dict[str, Any] = {"format": FORMAT}
    if game.title:
        doc["title"] = game.title
    if game.date is not None:
        doc["date"] = game.date.isoformat()
    if game.timezone is not None:
        doc["timezone"] = game.timezone
    doc["confirmation"] = game.confirmation
    doc["players"] = list(game.players)
    doc["first_declarer"] = game.first_declarer
    doc["preset"] = preset_to_dict(game.preset)
    rounds = []
    for index, (rnd, res) in enumerate(zip(game.rounds, scores.rounds, strict=True)):
        status = statuses[index] if statuses is not None else PROVISIONAL
        out = {"number": res.number, "declarer": res.declarer, **round_to_dict(rnd)}
        out["status"] = shown_status(game.confirmation, status)
        out["result"] = {
            "raw": list(res.raw),
            "doubles": list(res.doubles),
            "total": list(res.total),
            "running": list(res.running),
            "played": res.played,
        }
        rounds.append(out)
    doc["rounds"] = rounds
    st = scores.standings
    doc["standings"] = {
        "totals": list(st.totals),
        "quota_penalties": list(st.quota_penalties),
        "final": list(st.final),
        "rank": list(st.rank),
        "complete": st.complete,
        "rounds_played": st.rounds_played,
        "rounds_total": st.rounds_total,
        "quota_given": [list(row) for row in st.quota_given],
        "next": None
        if st.next is None
        else {
            "number": st.next.number,
            "declarer": st.next.seats.declarer,
            "dealer": st.next.seats.dealer,
            "contracts_left": list(st.next.contracts_left),
        },
    }
    return doc
