"""Limits on what one client stores: at most ``MAX_GAMES_PER_DEVICE`` games per device and
``MAX_GAMES_PER_ADDRESS`` per client address within ``LIMIT_WINDOW``; a device keeps at most
``MAX_PRESETS_PER_DEVICE`` presets and one address saves at most ``MAX_PRESETS_PER_ADDRESS``
within the window. Beyond them a request is refused with 429 and a message.

A view takes a limit with the :func:`limit` decorator (``@limit(GAME_STARTS)``), so the
limit follows the view whatever its name. The counting is done by :mod:`scorepad.services`.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from flask import current_app, request
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_babel import ngettext

from .. import services
from .device import address_key, client_device, device_id
from .errors import error_response

#: How long a refused client is told to wait (``Retry-After``, seconds).
RETRY_AFTER = 3600

View = TypeVar("View", bound=Callable[..., Any])


@dataclass(frozen=True)
class Limit:
    """A limit: ``exceeded()`` gives the message for a client that reached it (None while it
    has not); ``title`` heads the error page."""

    title: Any  # a lazy string, translated when the page is rendered
    exceeded: Callable[[], str | None]


def _hours() -> int:
    return int(current_app.config["LIMIT_WINDOW"].total_seconds() // 3600)


def games_exceeded() -> str | None:
    """The message for a client that started its allowed number of games in the window, or None.
    The device counts even on an API request that carries the session cookie."""
    config = current_app.config
    window = config["LIMIT_WINDOW"]
    device = device_id()
    if device and services.games_started(window, device=device) >= config["MAX_GAMES_PER_DEVICE"]:
        return _(
            "This device has started %(n)d games in the last %(hours)d hours, the most allowed; "
            "finish or reuse one of them, or try again later.",
            n=config["MAX_GAMES_PER_DEVICE"],
            hours=_hours(),
        )
    address = address_key()
    if address and services.games_started(window, address=address) >= config["MAX_GAMES_PER_ADDRESS"]:
        return _(
            "%(n)d games were started from this network in the last %(hours)d hours, the most allowed; "
            "try again later.",
            n=config["MAX_GAMES_PER_ADDRESS"],
            hours=_hours(),
        )
    return None


def presets_exceeded() -> str | None:
    """The message for a client that may not save another preset, or None: its device (pages
    only: the API has none) keeps its allowed number, or its address saved its allowed number
    in the window."""
    config = current_app.config
    device = client_device()
    if device and services.presets_kept(device) >= config["MAX_PRESETS_PER_DEVICE"]:
        return ngettext(
            "This device keeps %(num)d saved preset, the most allowed; delete it if you no longer "
            "use it, then save again.",
            "This device keeps %(num)d saved presets, the most allowed; delete one you no longer use, then save again.",
            config["MAX_PRESETS_PER_DEVICE"],
        )
    address = address_key()
    if address and services.presets_saved(address, config["LIMIT_WINDOW"]) >= config["MAX_PRESETS_PER_ADDRESS"]:
        return ngettext(
            "%(num)d preset was saved from this network in the last %(hours)d hours, the most "
            "allowed; try again later.",
            "%(num)d presets were saved from this network in the last %(hours)d hours, the most "
            "allowed; try again later.",
            config["MAX_PRESETS_PER_ADDRESS"],
            hours=_hours(),
        )
    return None


GAME_STARTS = Limit(_l("Too many games"), games_exceeded)
PRESET_SAVES = Limit(_l("Too Many Requests"), presets_exceeded)


def limit(which: Limit, refuse: Callable[[str], ResponseReturnValue | None] | None = None) -> Callable[[View], View]:
    """Decorate a view so that a POST beyond ``which`` is refused before the view runs: 429
    with the message (error page or JSON, see :func:`~scorepad.web.errors.error_response`)
    and ``Retry-After``. ``refuse(message)``, when given, answers instead (a page that keeps
    what was typed); it returns None for a POST that stores nothing (a button that only
    re-renders, a form with errors), and the view then runs as usual."""

    def decorate(view: View) -> View:
        @functools.wraps(view)
        def limited(*args: Any, **kwargs: Any) -> Any:
            if request.method == "POST":
                message = which.exceeded()
                if message is not None:
                    answer = (
                        refuse(message)
                        if refuse
                        else error_response(429, message, name=str(which.title), retry_after=RETRY_AFTER)
                    )
                    if answer is not None:
                        return answer
            return view(*args, **kwargs)

        return limited  # type: ignore[return-value]

    return decorate
