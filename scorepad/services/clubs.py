"""Use cases of a club (club-format.md "Club, members, statistics, ladder, rating"):
create a club, find it by a token, keep its members (add, rename, merge), attach games and
nights to it, keep each club game's per-seat results inside the transaction of every round
write, and read a member's statistics, the club's members and the season ladder.

Scores and rules are the engine's (:mod:`scorepad.scoring.club`); the rating is
:mod:`scorepad.services.rating`'s. Every write is one transaction: a refused input stores nothing.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, select, update

from ..extensions import db
from ..models import StoredClub, StoredGame, StoredMember, StoredResult, token_digest, utcnow
from ..scoring import Game, ScoringError
from ..scoring.club import (
    LadderRules,
    ladder_to_dict,
    parse_club,
    parse_club_name,
    parse_ladder,
    parse_member_name,
    seat_results,
)
from ..scoring.document import parse_game_club
from ..scoring.errors import N_, join
from ..scoring.text import name_key
from ..tokens import derive_token, new_token
from .common import MAX_ID, Conflict, Refused, find_by_digest
from .rating import settle

#: The roles of a club's tokens (club-format.md, "Tokens"): the admin token manages, the view token reads.
ADMIN = "admin"
VIEWER = "viewer"
#: The purpose the club's view token is derived from its admin token with.
VIEW = "view"


class ClubRefused(Refused):
    """A game or a night names a club without that club's admin token (``X-Club-Token``, or the
    admin link in the browser): HTTP 403, nothing stored (club-format.md: "so nobody adds games
    to another club's statistics")."""

    message = "joining a club needs the club's admin token as 'X-Club-Token: <admin token>'"


class MemberConflict(Conflict):
    """A change of members that cannot be made as asked (HTTP 409): two members who sat at one
    game cannot be merged; a member cannot be merged into itself; a member merged already (into
    another, by a merge that came first) is merged no further."""


def lock_club(club_id: int) -> None:
    """Start the write transaction of a change to the club's members and make it the only one:
    the first statement writes the club's row (a no-op update), so PostgreSQL holds that row's
    lock and SQLite its database write lock until the commit or rollback. Two admins adding
    "Zoe" and "zoe", or merging Ann into Bob and Bob into Ann, at once: the second waits here,
    then reads the members as the first left them, and its checks see the first's change."""
    db.session.execute(update(StoredClub).where(StoredClub.id == club_id).values(stamp=StoredClub.stamp))


#: The longest chain of merges a lookup follows. A merge points every member merged into the
#: source at the target too, so a chain is one step long; the bound keeps a lookup from running
#: forever on a cycle written some other way (a row edited by hand, say).
MAX_MERGE_STEPS = 8


def final_member_id(member_id: int, merged_into: Any) -> int | None:
    """The id ``member_id`` reads as: the member it was merged into, followed to the end.
    ``merged_into(id)`` gives a member's ``merged_into`` (None for a member not merged). None
    when the chain loops or is longer than :data:`MAX_MERGE_STEPS` (no member to show)."""
    current = member_id
    for _step in range(MAX_MERGE_STEPS + 1):
        nxt = merged_into(current)
        if nxt is None:
            return current
        current = nxt
    return None


def new_public_id() -> str:
    """A fresh public id of a club or member: 12 URL-safe characters (72 random bits). Ids only
    name; the tokens authorize."""
    return secrets.token_urlsafe(9)


def create_club(document: Any) -> StoredClub:
    """Validate a club document ``{"name", "ladder"?}`` (:func:`~scorepad.scoring.club.parse_club`)
    and store the club with a fresh admin token and the view token derived from it (only
    digests; the returned club holds both, shown this once). Raises :class:`ScoringError`."""
    spec = parse_club(document)
    admin = new_token()
    view = derive_token(admin, VIEW)
    club = StoredClub(
        public_id=new_public_id(),
        name=spec.name,
        ladder=ladder_to_dict(spec.ladder),
        admin_digest=token_digest(admin),
        view_digest=token_digest(view),
    )
    db.session.add(club)
    db.session.commit()
    club.admin_token, club.view_token = admin, view
    return club


def update_club(club: StoredClub, document: Any) -> None:
    """Change a club's ``name`` and/or ``ladder`` (each optional; the ladder object replaces the
    old one whole). Raises :class:`ScoringError` at ``name`` or ``ladder.…`` (nothing stored)."""
    if not isinstance(document, dict):
        raise ScoringError("", N_("a club document must be a JSON object"))
    for key in document:
        if key not in ("name", "ladder"):
            raise ScoringError(key, N_("unknown field of a club document"))
    name = parse_club_name(document["name"]) if "name" in document else club.name
    rules = ladder_to_dict(parse_ladder(document["ladder"])) if "ladder" in document else club.ladder
    club.name, club.ladder = name, rules
    ladder_changed(club.id)
    db.session.commit()


def ladder_rules(club: StoredClub) -> LadderRules:
    """The club's stored ladder settings as the engine's :class:`LadderRules`."""
    return parse_ladder(club.ladder)


def find_club(token: str) -> tuple[StoredClub, str] | None:
    """The club whose admin (role :data:`ADMIN`) or view token (:data:`VIEWER`) ``token`` is,
    holding the tokens its holder may see (the admin: both), or None."""
    found = find_by_digest(StoredClub, token, (StoredClub.admin_digest, StoredClub.view_digest))
    if found is None:
        return None
    club, role = found
    if role == 0:
        club.admin_token, club.view_token = token, derive_token(token, VIEW)
        return club, ADMIN
    club.view_token = token
    return club, VIEWER


def authorize_club(public_id: str, token: str) -> tuple[StoredClub, str] | None:
    """:func:`find_club` for the API's ``/clubs/<id>``: None unless ``token`` is a token of the
    club ``public_id`` (the caller answers 404: nothing can be enumerated)."""
    found = find_club(token)
    if found is None or found[0].public_id != public_id:
        return None
    return found


def club_of_admin(token: str | None) -> StoredClub | None:
    """The club whose admin token is ``token`` (``X-Club-Token``), or None."""
    if not token:
        return None
    found = find_club(token)
    return found[0] if found is not None and found[1] == ADMIN else None


def ladder_changed(club_id: int) -> None:
    """Move the club's ``stamp`` on, inside the caller's transaction: a change the ladder reads
    (a complete game's results, a member added, renamed or merged, the settings). Each process's
    copy of the ladder is kept under the stamp (:func:`club_ladder`)."""
    db.session.execute(update(StoredClub).where(StoredClub.id == club_id).values(stamp=StoredClub.stamp + 1))


def club_members(club: StoredClub) -> list[StoredMember]:
    """The club's members (merged-away ones left out), by name (case-folded)."""
    rows = db.session.scalars(
        select(StoredMember).where(StoredMember.club_id == club.id, StoredMember.merged_into.is_(None))
    ).all()
    return sorted(rows, key=lambda m: (name_key(m.name), m.id))


def find_member(club: StoredClub, public_id: str) -> StoredMember | None:
    """The club's member ``public_id``; a member merged into another resolves to that one; None
    for an id of no member of this club."""
    return _as_merged(
        db.session.scalar(
            select(StoredMember).where(StoredMember.club_id == club.id, StoredMember.public_id == public_id)
        )
    )


def _as_merged(member: StoredMember | None) -> StoredMember | None:
    """``member``, or the member it was merged into (the find of :func:`find_member` and
    :func:`member_rows`); None for a chain of merges that does not end (:func:`final_member_id`)."""
    if member is None or member.merged_into is None:
        return member

    def merged_into(member_id: int) -> int | None:
        row = db.session.get(StoredMember, member_id)
        return None if row is None else row.merged_into

    final = final_member_id(member.id, merged_into)
    return None if final is None else db.session.get(StoredMember, final)


def _name_taken(club: StoredClub, name: str, but: StoredMember | None = None) -> None:
    key = name_key(name)
    for other in club_members(club):
        if other is not but and name_key(other.name) == key:
            raise ScoringError("name", N_("a member of this club is already called %(name)s"), name=other.name)


def _checked(check: Any) -> None:
    """Run ``check()`` inside the club's write transaction; on its refusal roll the transaction
    back (releasing the club's lock) and raise the refusal."""
    try:
        check()
    except (ScoringError, Conflict):
        db.session.rollback()
        raise


def add_member(club: StoredClub, name: Any) -> StoredMember:
    """Add a member named ``name`` (a player's name; no two members of a club with one
    :func:`~scorepad.scoring.text.name_key`, checked under the club's lock: :func:`lock_club`).
    Raises :class:`ScoringError` at ``name``."""
    clean = parse_member_name(name)
    lock_club(club.id)
    _checked(lambda: _name_taken(club, clean))
    member = StoredMember(public_id=new_public_id(), club_id=club.id, name=clean)
    db.session.add(member)
    ladder_changed(club.id)
    db.session.commit()
    return member


def rename_member(club: StoredClub, member: StoredMember, name: Any) -> None:
    """Rename ``member`` (games keep the names they were played with; the name checked under
    the club's lock: :func:`lock_club`). Raises :class:`ScoringError` at ``name``."""
    clean = parse_member_name(name)
    lock_club(club.id)
    _checked(lambda: _name_taken(club, clean, but=member))
    member.name = clean
    ladder_changed(club.id)
    db.session.commit()


def merge_members(club: StoredClub, source: StoredMember, target: StoredMember) -> None:
    """Merge ``source`` into ``target`` (a duplicate: one person entered twice): every result of
    ``source`` counts for ``target`` from now on, the games keep the ids they were played with,
    and ``source``'s id reads as ``target``. The ratings are replayed from ``source``'s first game.
    Checked under the club's lock (:func:`lock_club`), with both members as they are then.
    Raises :class:`MemberConflict` when they are one member, when either was merged already,
    or when they sat at one game together."""
    lock_club(club.id)
    db.session.refresh(source)
    db.session.refresh(target)
    _checked(lambda: check_merge(source, target))
    source.merged_into = target.id
    db.session.execute(update(StoredMember).where(StoredMember.merged_into == source.id).values(merged_into=target.id))
    db.session.execute(
        update(StoredResult)
        .where(StoredResult.member_id == source.id)
        .values(member_id=target.id, rated=False, version=StoredResult.version + 1)
    )
    ladder_changed(club.id)
    db.session.commit()
    settle(club.id)


def check_merge(source: StoredMember, target: StoredMember) -> None:
    """Raise :class:`MemberConflict` unless ``source`` can be merged into ``target`` as they are
    now (the refusals of :func:`merge_members`, asked before the merge is confirmed; the merge
    checks again under the club's lock)."""
    if source.id == target.id:
        raise MemberConflict(N_("a member cannot be merged into themselves"))
    _mergeable(source, target)


def _mergeable(source: StoredMember, target: StoredMember) -> None:
    """Raise :class:`MemberConflict` unless ``source`` can be merged into ``target`` now."""
    for member in (source, target):
        if member.merged_into is not None:
            raise MemberConflict(N_("%(name)s was merged into another member already"), name=member.name)
    shared = db.session.scalar(
        select(func.count())
        .select_from(StoredResult)
        .where(StoredResult.member_id == source.id)
        .where(StoredResult.game_id.in_(select(StoredResult.game_id).where(StoredResult.member_id == target.id)))
    )
    if shared:
        raise MemberConflict(
            N_("%(one)s and %(other)s played at the same table: they are two people"),
            one=source.name,
            other=target.name,
        )


def members_for_names(club: StoredClub, names: Sequence[str]) -> list[str]:
    """The member id of each name (already checked as players' names): a name matching a
    member's (:func:`~scorepad.scoring.text.name_key`) takes that member, any other becomes a
    new member (added to the session, not committed: the game's or night's commit stores
    them). For the club's new-game and new-night forms (the admin link). Takes the club's lock
    (:func:`lock_club`) first, so a member added at the same moment is found, not added twice."""
    lock_club(club.id)
    known = {name_key(m.name): m for m in club_members(club)}
    ids = []
    for name in names:
        member = known.get(name_key(name))
        if member is None:
            member = StoredMember(public_id=new_public_id(), club_id=club.id, name=name)
            db.session.add(member)
            known[name_key(name)] = member
            ladder_changed(club.id)
        ids.append(member.public_id)
    db.session.flush()
    return ids


@dataclass(frozen=True)
class ClubSeats:
    """A document's club, authorized, and the member row id of each seat or player (None: a guest)."""

    club: StoredClub
    member_ids: tuple[str | None, ...]
    rows: tuple[int | None, ...]


def club_seats(document: Any, club: StoredClub | None, count: int) -> ClubSeats | None:
    """The ``club`` and ``members`` of a game document (``count`` 4) or a night's (``count``
    its players), checked: None when the document names no club. Raises :class:`ClubRefused`
    when it names one and ``club`` (the club whose admin token came with the request) is
    another or None; :class:`ScoringError` at ``members`` (not ``count`` items) or
    ``members[i]`` (no member of this club)."""
    if not isinstance(document, dict):
        return None
    club_id, members = parse_game_club(document, count)
    if club_id is None:
        return None
    if club is None or club.public_id != club_id:
        raise ClubRefused()
    members = members or (None,) * count
    rows: list[int | None] = []
    for i, public_id in enumerate(members):
        if public_id is None:
            rows.append(None)
            continue
        member = find_member(club, public_id)
        if member is None:
            raise ScoringError(join("members", i), N_("no member of this club has this id"))
        rows.append(member.id)
    present = [r for r in rows if r is not None]
    if len(set(present)) != len(present):  # two ids of one merged member
        raise ScoringError("members", N_("one member has two seats"))
    return ClubSeats(club, members, tuple(rows))


def attach_game(stored: StoredGame, seats: ClubSeats, game: Game) -> None:
    """Make ``stored`` (added to the session) a game of ``seats.club`` with its members, and
    write its results (:func:`refresh_results`). Not committed."""
    stored.club_id = seats.club.id
    stored.members = list(seats.member_ids)
    db.session.flush()
    refresh_results(stored, game)


def member_rows(stored: StoredGame) -> list[int | None]:
    """The member row id of each seat of the club game ``stored`` (a merged member's id read as
    the member it became), None for a guest."""
    ids = [m for m in (stored.members or []) if m is not None]
    found = {
        m.public_id: m
        for m in db.session.scalars(
            select(StoredMember).where(StoredMember.club_id == stored.club_id, StoredMember.public_id.in_(ids))
        )
    }
    rows: list[int | None] = []
    for public_id in stored.members or [None] * 4:
        member = _as_merged(found.get(public_id) if public_id else None)
        rows.append(member.id if member else None)
    return rows


def refresh_results(stored: StoredGame, game: Game) -> None:
    """Rewrite the four results rows of the club game ``stored`` from ``game`` (its rounds as
    they are now, :func:`~scorepad.scoring.club.seat_results`), inside the caller's transaction
    (every round write: record, edit, undo, put back, import). Each rewrite moves ``version`` on;
    one of a game that is or was complete clears ``rated`` and sets ``stored.rating_due``, so the
    ratings (:mod:`scorepad.services.rating`) replay from this game after the commit. Does nothing for a
    game of no club."""
    if stored.club_id is None:
        return
    members = member_rows(stored)
    existing = {r.seat: r for r in db.session.scalars(select(StoredResult).where(StoredResult.game_id == stored.id))}
    results = seat_results(game)
    # The ratings read complete games only: a change that leaves the game in play (27 of a game's
    # 28 saves) leaves them as they are.
    # A row left unrated (a replay that ran while this game was being saved skipped it) is replayed too.
    due = results[0].complete or any(row.complete or not row.rated for row in existing.values())
    if due:
        stored.rating_due = stored.club_id
        ladder_changed(stored.club_id)
    for result in results:
        row = existing.get(result.seat)
        if row is None:
            row = StoredResult(game_id=stored.id, seat=result.seat, club_id=stored.club_id, version=0, rated=not due)
            db.session.add(row)
        row.member_id = members[result.seat]
        row.date = stored.date
        row.created_at = stored.created_at or utcnow()
        row.complete, row.rounds_played = result.complete, result.rounds_played
        row.final, row.rank = result.final, result.rank
        row.by_contract = {c: line.to_dict() for c, line in result.by_contract.items()}
        row.given, row.received, row.net = result.given, result.received, result.net
        row.against = list(result.against)
        if due:
            row.mu = row.sigma = None
            row.rated = False
        row.version = (row.version or 0) + 1


def club_game(club: StoredClub, game_id: int) -> StoredGame | None:
    """The club's game ``game_id`` (None when it is not this club's, or larger than any id column
    holds: asking the database would fail): its page under the club's token."""
    if not 0 < game_id <= MAX_ID:
        return None
    stored = db.session.get(StoredGame, game_id)
    return stored if stored is not None and stored.club_id == club.id else None


def member_names(club: StoredClub) -> dict[str, str]:
    """Every member id of the club (merged ones too) → the name it reads as now."""
    rows = db.session.scalars(select(StoredMember).where(StoredMember.club_id == club.id)).all()
    by_id = {m.id: m for m in rows}
    out = {}
    for m in rows:
        final = final_member_id(m.id, lambda i: by_id[i].merged_into if i in by_id else None)
        out[m.public_id] = (by_id[final] if final is not None else m).name
    return out


def club_results(stored: StoredGame, game: Game) -> None:
    """Inside a round write of ``stored`` (before its commit): rewrite the game's per-seat
    results when it is a club's (:func:`scorepad.services.clubs.refresh_results`)."""
    if stored.club_id is not None:
        refresh_results(stored, game)


def club_rating(stored: StoredGame) -> None:
    """After the commit of a round write of ``stored``: bring its club's ratings up to date when
    the write changed what they read (``stored.rating_due``: :func:`scorepad.services.clubs.refresh_results`;
    :func:`scorepad.services.rating.settle`: now, or after the answer for a long replay)."""
    club_id, stored.rating_due = stored.rating_due, None
    if club_id is not None:
        settle(club_id)
