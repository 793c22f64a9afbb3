"""The scorer's game page: what it shows of the game, of the checking and of a finished game.

Shared by the views that answer with the game page (:mod:`scorepad.views.games`, a rematch
refused; :mod:`scorepad.views.rounds`, a save, an undo, a refusal). It gathers the stored game's
parts from the services (the rounds' marks, a closed night, the witness's link) and arranges
them with :func:`scorepad.pages.scorer.scorer_page`. The page's forms are the view's: it passes
their classes (:class:`ScorerForms`), as web/ imports no form module.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from flask import url_for
from flask_babel import get_locale

from ..models import StoredGame
from ..pages.card import result_card, share_text
from ..pages.common import zone_named
from ..pages.confirm import CheckBox, RoundCheck, disputed_notes
from ..pages.history import trust_part
from ..pages.rounds import RoundWords
from ..pages.scorer import scorer_parts
from ..scoring import Game
from ..scoring.game import rematch_first_declarer
from ..scoring.trust import checks_open, shown_status
from ..services import games, rounds
from ..services.scorer import ScorerState, scorer_state
from .live import stamp_etag
from .recent import admin_club

if TYPE_CHECKING:
    from ..forms.common import ButtonForm
    from ..forms.rounds import RoundForm


@dataclass(frozen=True)
class ScorerForms:
    """The game page's form classes: ``button``, the undo button's (a CSRF token only), and
    ``round``, the round form's (its contract set, when the page shows no form of its own)."""

    button: type[ButtonForm]
    round: type[RoundForm]


#: Bumped when the scorer's disputed notes' markup changes, so browsers drop copies cached before.
DISPUTED_VERSION = "1"

SCORER_BLOCKS = ["game_live"]


#: The session key of what an edit changed (pages.rounds.edit_summary), until the game page shows it once.
CHANGED_KEY = "round_changed"


def scorer_context(
    stored: StoredGame,
    token: str,
    can_edit: bool,
    forms: ScorerForms,
    *,
    form: RoundForm | None = None,
    contract: str | None = None,
    message: str | None = None,
    saved: bool = False,
    preview: dict[str, Any] | None = None,
    feedback: dict[str, Any] | None = None,
    state: ScorerState | None = None,
    entered: RoundWords | None = None,
) -> dict[str, Any]:
    """The game page's template variables: :func:`scorepad.pages.scorer.scorer_parts` of the
    game's one read (``state``, :func:`scorepad.services.scorer.scorer_state`: read here when
    the caller has not), with its forms (``forms``: their classes). ``saved``: a round was just recorded (the page
    then leads
    with its points); ``preview``: the settlement preview of the form being entered (see
    rounds.preview_of); ``message``: why a change was refused (with ``refusal``, its code);
    ``feedback``: what the scorer just did (``action``: restored, undone or changed; see
    views/rounds.py); ``entered``: with a refused save, the round the scorer entered, in words
    (:func:`scorepad.pages.rounds.entered_round`)."""
    state = state or scorer_state(stored, can_edit)
    page = scorer_parts(state, can_edit, contract)
    page.update(
        {
            "stored": stored,
            "token": token,
            "can_edit": can_edit,
            "message": message,
            "saved": saved,
            "undo_form": forms.button(),
            "preview": preview,
            "form": None,
            "feedback": feedback or {},
            "entered": entered,
            "trust": trust_part(state.confirmation, state.statuses, state.history, zone_named(state.timezone)),
        }
    )
    if page["contract"] is not None:
        page["form"] = form or forms.round(formdata=None, data={"contract": page["contract"]})
    final = not page["trust"].unsettled
    page["finished"] = finished_part(stored, page["game"], final) if page["standings"].complete else None
    # A closed night's table: no "Let another player check" (a confirm is refused there).
    box = not state.night_closed
    page["witness"] = scorer_witness(stored, can_edit, with_box=box, confirm_token=state.confirm_token)
    return page


def finished_part(stored: StoredGame, game: Game, final: bool = True) -> dict[str, Any]:
    """What a finished game offers (templates/games/_finished.html): ``rematch_declarer``, the
    seat that declares first if the table plays again (the engine's rule), and ``share``: the
    result as text (:func:`scorepad.pages.card.share_text`), the board's link that goes with it
    and the card image's URL in the page's language, None while the standings are not
    ``final`` (provisional: a round disputed, or not confirmed where the game requires it:
    :class:`scorepad.pages.history.Trust` ``unsettled``), a result not to be sent around yet;
    ``club_rematch``: for a club's game, whether playing again here counts for the club (this
    device holds the club's admin token: :func:`scorepad.web.recent.admin_club`), None for a
    game of no club."""
    card = result_card(game)
    in_club = stored.club_id is not None
    share = {
        "title": card.title,
        "text": share_text(card),
        "url": url_for("board.show", token=stored.view_token, _external=True),
        "card": url_for("card.image", token=stored.view_token, lang=str(get_locale())),
        "filename": f"barbu-{game.date.isoformat() if game.date else 'result'}.png",
    }
    return {
        "rematch_declarer": rematch_first_declarer(game.first_declarer),
        "club_rematch": admin_club(stored.club_id) is not None if in_club else None,
        "share": share if final else None,
    }


def round_checks(stored: StoredGame, with_digests: bool = True) -> list[RoundCheck]:
    """Each recorded round's status as shown (``confirmed`` throughout when checking is off),
    note and digest (``""`` without ``with_digests``)."""
    return [
        RoundCheck(
            shown_status(stored.confirmation, row.status),
            row.note,
            rounds.round_digest(row) if with_digests else "",
        )
        for row in stored.rounds
    ]


def scorer_witness(
    stored: StoredGame, can_edit: bool, with_box: bool = True, confirm_token: str | None = None
) -> dict[str, Any]:
    """What the scorer's page shows of the checking (templates/confirm/_disputed.html and
    _scorer_box.html): ``disputed``, each disputed round's number and note
    (:func:`scorepad.pages.confirm.disputed_notes`), and for the edit token, while checking is
    not off, ``box`` (with ``with_box``): the confirm page's link and its QR code
    (:class:`scorepad.pages.confirm.CheckBox`; None otherwise), and ``poll``: the URL the page
    asks every ``poll_seconds`` for new disputes (:func:`disputed`), with its ``etag``.
    ``confirm_token``: the game's, when the caller read it already
    (:class:`scorepad.services.scorer.ScorerState`)."""
    box = poll = etag = None
    if can_edit and stored.edit_token and checks_open(stored.confirmation):
        if with_box:
            confirm_token = confirm_token or games.confirm_token_of(stored, stored.edit_token)
            box = CheckBox(url_for("confirm.show", token=confirm_token, _external=True))
        language = str(get_locale())
        poll = url_for("disputes.disputed", token=stored.edit_token, lang=language)
        etag = disputed_etag(stored, language)
    return {
        "disputed": disputed_notes(round_checks(stored, with_digests=False)),
        "box": box,
        "poll": poll,
        "poll_seconds": DISPUTED_POLL_SECONDS,
        "etag": etag,
    }


#: How often the scorer's page asks for new disputes, in seconds.
DISPUTED_POLL_SECONDS = 5


def disputed_etag(stored: StoredGame, language: str) -> str:
    """The validator of the scorer's disputed notes: the game's last change (a dispute moves
    it) and the language."""
    return stamp_etag(DISPUTED_VERSION, "disputed", str(stored.updated_at), language)
