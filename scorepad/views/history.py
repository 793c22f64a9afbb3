"""The game's record of changes (club-format.md "Trust: confirmation and history").

- ``history.show``: the history page, every change to the game oldest first (edit, view or
  confirm token; the edit token moves to the view token's address first, as the board and the
  sheet do: a page shown in an appeal must not carry the scorer's link; the other player who
  checks reads it with their confirm token, and goes back to their confirm page);
Read-only; what is shown is arranged by :mod:`scorepad.pages.history`.
"""

from __future__ import annotations

from flask import Blueprint, abort, redirect, render_template, url_for

from ..models import StoredGame
from ..pages.history import history_page
from ..services import confirmation, games, history
from ..web.recent import remember, scorer_token
from ..web.trust import trust_of

bp = Blueprint("history", __name__, url_prefix="/h")


@bp.get("/<token>")
def show(token: str):
    """The history page: every change to the game (record, edit, undo, confirm, dispute,
    import, close, reopen), oldest first, with its time (the players' clock), who made it and
    what it changed. 404 for a token of no game."""
    found = games.find_by_token(token)
    if found is None:
        witness = confirmation.find_witness(token)
        if witness is None:
            abort(404)
        return render(witness, witness_token=token)
    stored, can_edit = found
    if can_edit:
        remember(token)  # its back link then leads to the scorer's page (web.recent.scorer_token)
        return redirect(url_for("history.show", token=stored.view_token), 303)
    return render(stored, token=stored.view_token, scorer_token=scorer_token(stored))


def render(stored: StoredGame, **links: str | None) -> str:
    """The history page of ``stored`` with ``links``: ``token`` (the view token: the board's
    link) and ``scorer_token``, or ``witness_token`` (the confirm token: back to its page)."""
    rows = history.game_history(stored)
    page = history_page(stored.to_game(), rows, stored.timezone)
    page.update({"stored": stored, "token": None, "scorer_token": None, "witness_token": None, **links})
    page["trust"] = trust_of(stored, rows)  # the rounds changed since recorded, at the top
    return render_template("history/show.html", **page)
