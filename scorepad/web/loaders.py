"""Loading a game or a preset by what the request presents, one function per role:

- pages: :func:`any_game` (edit or view token, and which), :func:`game_to_read` (either,
  read-only), :func:`game_to_edit` (edit token; 403 for the view token), :func:`game_to_view`
  (view token only; 404 for any other, revealing nothing); :func:`preset_to_read` and
  :func:`preset_to_edit` (this device's own);
- the JSON API: :func:`bearer_token` (the ``Authorization: Bearer`` header), :func:`api_game`,
  :func:`api_witness` (the confirm token), :func:`api_preset_to_write` (reading a preset
  needs only its id: :func:`preset_to_read`) and :func:`club_of_request` (``X-Club-Token``).

Each aborts with the status and message of its role; the answer is the error page or
JSON by :func:`scorepad.web.errors.error_response`.
"""

from __future__ import annotations

from flask import abort, request
from flask_babel import gettext as _

from ..models import StoredClub, StoredGame, StoredPreset
from ..scoring import BUILTIN, Preset
from ..services import clubs, confirmation, games, presets
from .device import device_id
from .errors import error_response


def any_game(token: str) -> tuple[StoredGame, bool]:
    """The game of an edit or view token and whether it may be changed (True for the edit
    token); 404 otherwise."""
    found = games.find_by_token(token)
    if found is None:
        abort(404)
    return found


def game_to_read(token: str) -> StoredGame:
    """The game of an edit or view token, to show it read-only; 404 otherwise."""
    return any_game(token)[0]


def game_to_edit(token: str) -> StoredGame:
    """The game of an edit token: 404 for an unknown token, 403 for the view token."""
    stored, can_edit = any_game(token)
    if not can_edit:
        abort(403, _("This is the read-only link of the game; changing it needs the scorer's link."))
    return stored


def game_to_view(token: str) -> StoredGame:
    """The game of a view token; 404 (revealing nothing) for any other token."""
    stored, can_edit = any_game(token)
    if can_edit:
        abort(404)
    return stored


def bearer_token(what: str) -> str:
    """The token of the request's ``Authorization: Bearer <token>`` header; 401 naming
    ``what`` (e.g. "the game's token") when there is none."""
    scheme, _space, token = request.headers.get("Authorization", "").partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        abort(error_response(401, f"send {what} as 'Authorization: Bearer <token>'"))
    return token.strip()


def api_game(game_id: int, write: bool) -> StoredGame:
    """The game if the bearer token fits it: 401 without a token, 404 for an unknown game
    or a wrong token, 403 for the view or confirm token on a write (``write``). Reading takes
    any of the game's three tokens (the witness reads what they check)."""
    stored, role = api_game_role(game_id)
    if write and role == confirmation.ROLE_VIEWER:
        abort(error_response(403, "this is the read-only view token; changing the game needs its edit token"))
    if write and role == confirmation.ROLE_WITNESS:
        abort(
            error_response(
                403, "this is the confirm token: it confirms or disputes rounds; changing the game needs its edit token"
            )
        )
    return stored


def api_game_role(game_id: int) -> tuple[StoredGame, str]:
    """The game and the role of the bearer token on it (:func:`scorepad.services.confirmation.authorize_role`):
    401 without a token, 404 for an unknown game or a token that is none of its three."""
    found = confirmation.authorize_role(game_id, bearer_token("the game's token"))
    if found is None:
        abort(error_response(404, "no game with this id and token"))
    return found


def api_witness(game_id: int) -> StoredGame:
    """The game if the bearer token is its confirm token: 403 for its edit token (a scorer
    does not confirm their own entry) or view token, and as :func:`api_game_role` otherwise."""
    stored, role = api_game_role(game_id)
    if role != confirmation.ROLE_WITNESS:
        held = "edit" if role == confirmation.ROLE_SCORER else "view"
        abort(
            error_response(
                403,
                f"this is the game's {held} token; rounds are confirmed or disputed with its confirm token,"
                " by another player than the scorer",
            )
        )
    return stored


def api_preset_to_write(preset_id: str) -> StoredPreset:
    """The saved preset if the bearer token is its edit token: 403 for a built-in or a
    wrong token, 404 for an unknown id, 401 without a token."""
    if preset_id in BUILTIN:
        abort(error_response(403, f"{preset_id} is a built-in preset and cannot be changed; POST a copy instead"))
    stored = saved_preset(preset_id, f"no preset called {preset_id!r}")
    if not presets.preset_token_fits(stored, bearer_token("the preset's edit token")):
        abort(error_response(403, "this is not the edit token of this preset"))
    return stored


#: The answer to a game or night that names a club without its admin token (``X-Club-Token``).
CLUB_TOKEN_NEEDED = "joining a club needs the club's admin token as 'X-Club-Token: <admin token>'"


def club_of_request() -> StoredClub | None:
    """The club whose admin token the request carries as ``X-Club-Token`` (club-format.md: a
    game or a night joins a club only with it), or None."""
    return clubs.club_of_admin(request.headers.get("X-Club-Token"))


def saved_preset(preset_id: str, missing: str | None = None) -> StoredPreset:
    """The saved preset with this id; 404 (saying ``missing``, else the stock text) for none."""
    stored = presets.find_preset(preset_id)
    if stored is None:
        abort(404, missing)
    return stored


def preset_to_read(preset_id: str, missing: str | None = None) -> tuple[Preset, StoredPreset | None]:
    """A built-in preset (with None) or a saved one (with its row); 404 (see :func:`saved_preset`)
    otherwise."""
    if preset_id in BUILTIN:
        return BUILTIN[preset_id], None
    stored = saved_preset(preset_id, missing)
    return stored.to_preset(), stored


def preset_to_edit(preset_id: str) -> StoredPreset:
    """A saved preset this device created; 403 for a built-in or someone else's, 404 for none."""
    if preset_id in BUILTIN:
        abort(403, _("The built-in presets cannot be changed; copy one to make it yours."))
    stored = saved_preset(preset_id)
    if not presets.owns_preset(stored, device_id()):
        abort(403, _("Only the device that created this preset can change it; copy it to make it yours."))
    return stored
