"""A rematch ("Play again"): the game a table plays after a finished one, started once."""

from __future__ import annotations

from sqlalchemy import update

from ..extensions import db
from ..models import (
    StoredClub,
    StoredGame,
)
from ..scoring import Game
from ..scoring.document import export_game
from ..scoring.errors import N_
from ..scoring.game import rematch, score
from ..tokens import TOKEN_BYTES as TOKEN_BYTES  # the size of every token (192 bits), for callers that check a shape
from ..tokens import InvalidToken, seal, unseal
from . import clubs
from .clubs import ClubRefused, club_rating
from .common import Conflict, NightClosed, night_closed
from .games import add_game, find_by_token

#: :func:`scorepad.tokens.seal`'s purpose for a rematch's edit token kept on the game before it.
REMATCH = "rematch"


def start_rematch(
    stored: StoredGame,
    *,
    club: StoredClub | None = None,
    creator_device: str | None = None,
    creator_address: str | None = None,
) -> tuple[StoredGame, Game, bool]:
    """Start the game a table plays after the finished game ``stored`` (holding its edit
    token): the engine's :func:`~scorepad.scoring.game.rematch` of it (same players, seats,
    preset object, title and time zone; the next player declares first), stored as
    :func:`create_game` stores a new game (new tokens, today's date where the players are;
    ``creator_*`` count it against the same limits). Returns the new game as
    :func:`create_game` does, and True. A table of a closed club night is not played again
    (:class:`Conflict` "the night is closed").

    A club's game is played again for the club, with the same members, only with ``club``, the
    game's club as the club's admin token names it (club-format.md: a game joins a club with
    the admin token, "so nobody adds games to another club's statistics"; the table's edit
    token is not enough). Without it the new game is played outside any club, the same names
    without members. ``club`` of another club, or for a game of no club, raises
    :class:`~scorepad.services.clubs.ClubRefused` (HTTP 403, nothing stored).

    A game is played again once: its rematch's edit token is kept on it (``rematch_sealed``),
    sealed with a key from its own edit token, so that only who holds that token opens it.
    Every later call (a second phone at the table, a double tap, a race: the claim is one
    conditional UPDATE) returns that same game, holding its tokens, and False; nothing new is
    stored. Raises :class:`Conflict` while ``stored`` is not complete (a rematch follows the
    last round), :class:`ScoringError` if the old game's text no longer passes today's rules
    (nothing stored in either case)."""
    if club is not None and club.id != stored.club_id:
        raise ClubRefused()
    earlier = rematch_of(stored)
    if earlier is not None:
        return (*earlier, False)
    game = stored.to_game()
    standings = score(game).standings
    if not standings.complete:
        raise Conflict(
            N_("the game is not finished (%(n)d of %(total)d rounds recorded); a rematch starts after the last round"),
            n=standings.rounds_played,
            total=standings.rounds_total,
        )
    document = export_game(rematch(game))
    for result in ("standings", "date"):  # computed on export, ignored on import; the new game is dated today
        document.pop(result, None)
    old_token = stored.edit_token or ""
    new, new_game = add_game(document, creator_device=creator_device, creator_address=creator_address)
    if club is not None:  # the table plays again for its club (its admin asked), with the same members
        new.club_id, new.members = stored.club_id, stored.members
        db.session.flush()
        clubs.refresh_results(new, new_game)
    sealed = seal(old_token, REMATCH, (new.edit_token or "").encode())
    claim = (
        update(StoredGame)
        .where(StoredGame.id == stored.id, StoredGame.rematch_sealed.is_(None))
        .values(rematch_sealed=sealed)
        .execution_options(synchronize_session=False)
    )
    if db.session.execute(claim).rowcount != 1:  # type: ignore[attr-defined]  # another tap claimed it first
        db.session.rollback()
        stored.edit_token = old_token
        earlier = rematch_of(stored)
        if earlier is None:  # the row that refused the claim holds a rematch: not expected
            raise Conflict(N_("the game was played again meanwhile; open it again"))
        return (*earlier, False)
    # A table of a closed club night: read after the claim's write, which took the write lock (as a
    # round's save reads it after lock_game), so a close cannot slip in before the commit.
    if stored.event_id is not None and night_closed(stored.event_id):
        db.session.rollback()
        stored.edit_token = old_token
        raise NightClosed
    db.session.commit()
    club_rating(new)
    return new, new_game, True


def rematch_of(stored: StoredGame) -> tuple[StoredGame, Game] | None:
    """The game started when ``stored`` (holding its edit token) was played again, holding
    its tokens, or None: never played again, or ``stored`` holds no edit token."""
    if not stored.rematch_sealed or not stored.edit_token:
        return None
    try:
        token = unseal(stored.edit_token, REMATCH, stored.rematch_sealed).decode()
    except InvalidToken:
        return None
    found = find_by_token(token)
    return (found[0], found[0].to_game()) if found is not None else None
