"""The game's record of changes (issue 15; club-format.md "Trust: confirmation and history").

- ``history.show``: the history page, every change to the game oldest first (edit or view token;
  the edit token moves to the view token's address first, as the board and the sheet do: a page
  shown in an appeal must not carry the scorer's link);
Read-only; what is shown is arranged by :mod:`scorepad.pages.history`.
"""

from __future__ import annotations

from flask import Blueprint, redirect, render_template, url_for

from .. import history
from ..pages.history import history_page
from ..web.loaders import any_game
from ..web.recent import remember
from ..web.trust import trust_of
from .sheet import scorer_token

bp = Blueprint("history", __name__, url_prefix="/h")


@bp.get("/<token>")
def show(token: str):
    """The history page: every change to the game (record, edit, undo, confirm, dispute,
    import, close, reopen), oldest first, with its time (the players' clock), who made it and
    what it changed."""
    stored, can_edit = any_game(token)
    if can_edit:
        remember(token)  # its back link then leads to the scorer's page (views.sheet.scorer_token)
        return redirect(url_for("history.show", token=stored.view_token), 303)
    page = history_page(stored.to_game(), history.game_history(stored), stored.timezone)
    page.update(
        {
            "stored": stored,
            "token": stored.view_token,
            "scorer_token": scorer_token(stored),
            "trust": trust_of(stored),  # the rounds changed since recorded, at the top
        }
    )
    return render_template("history/show.html", **page)
