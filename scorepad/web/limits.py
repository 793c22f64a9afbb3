"""Limits on what one client stores, so that one client cannot fill the database nor lock out
the others: games started and presets saved are counted per device and per client address in
fixed windows of time, a short burst window (``LIMIT_BURST_WINDOW``, a minute) and a long one
(``LIMIT_WINDOW``, a day); a device also keeps at most ``MAX_PRESETS_PER_DEVICE`` presets (a
count of kept rows, not a rate). Beyond a limit a request is refused with 429, a message and
``Retry-After``: the seconds until the window that refused it ends. The numbers and why they
are what they are: the limits block of :mod:`scorepad.config`.

Whose count:

- an **established** device (the session cookie's device id has stored something: a game it
  started or a preset it owns, :func:`scorepad.services.limits.device_established`): its own burst
  and day only. It counts in no shared bucket and no shared bucket refuses it, so nothing
  else behind the same address (a script minting cookies, other phones) can lock a phone
  that has started a game before out of **New game**;
- any other request: its device's buckets, if it has a device id (a page's request without
  one gets its id now; an id is only a random number in a cookie, free to get, so being
  minted gives no privilege: only storing does), and the **address**'s (a keyed hash of the
  client's address, an IPv6 client by its /64: :func:`~scorepad.web.device.client_network`),
  in one of two buckets by way in: "new" (pages, and the API when a browser sends a cookie)
  or "api" (the API without a cookie: scripts). These cap how fast one address makes new
  devices and fills the database.

What remains possible: a script can spend its address's "new" bucket (with device cookies of
its own) and so delay phones that never stored anything at that address (a club's new
phones) until the window ends; established phones it cannot delay. Each device it
establishes costs it one count there (of the games' or the presets' bucket), so what one
address stores is bounded by its established devices (at most the two "new" days' counts a
day) times a device's day. A script on the API without a cookie spends only the "api"
bucket.

How it counts: each POST counts one creation per request, whatever it creates, so a request
that starts many games at once (a club night's tables, issue #14) counts once, in the club
nights' own buckets (:data:`EVENT_STARTS`). The counts
are taken before the view runs, by one atomic ``INSERT … ON CONFLICT DO UPDATE … WHERE count <
most RETURNING count`` per bucket (:func:`scorepad.services.limits.take_one`), in the database
transaction that the view then commits with the game or preset it creates. So the count and
the creation are stored together or not at all: a refused request (any of its buckets full)
rolls back what it counted, and so does a view that stores nothing (a form with errors, a
button that only re-renders): the decorator rolls back a counting transaction that the view
did not end. While one request holds its counts, another on the same bucket waits for its
commit or rollback (PostgreSQL's row lock, SQLite's write lock), so no update is lost and no
limit is overshot. Counters of ended windows are deleted after a creation that opened a new
window.

Why not Flask-Limiter (or the ``limits`` library it builds on), the well-kept choice for rate
limits in Flask: its storages are memory (each worker process its own count, so N workers
allow N times the limit), Redis, Memcached, MongoDB and etcd; none is an SQL database, and
this app's one shared store is its database (SQLite or PostgreSQL). Nor could it count in the
transaction of the creation, which is what keeps a failed request from spending budget.

A view takes a limit with the :func:`limit` decorator (``@limit(GAME_STARTS)``), so the limit
follows the view whatever its name.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from typing import Any, TypeVar

from flask import current_app, request
from flask.typing import ResponseReturnValue
from flask_babel import format_timedelta, ngettext
from flask_babel import lazy_gettext as _l

from ..services import common, limits
from .device import address_key, client_device, device_id, keyed_hash
from .errors import error_response

View = TypeVar("View", bound=Callable[..., Any])

#: A rule's message: given the rule's number, its window and the wait, both as words
#: ("1 minute", "24 hours", in the page's language).
Message = Callable[[int, str, str], str]


@dataclass(frozen=True)
class Rule:
    """At most ``config[most]`` creations per ``scope`` ("device" or "address") in each fixed
    window of ``config[window]``; ``message`` says so to a client that met it."""

    scope: str
    window: str
    most: str
    message: Message


@dataclass(frozen=True)
class Refusal:
    """Why a request is refused (``message``) and for how many seconds (``retry_after``; None
    when waiting frees nothing, as for the presets a device keeps)."""

    message: str
    retry_after: int | None


@dataclass(frozen=True)
class Limit:
    """A limit: what it counts (``name``, the counters' prefix), the ``title`` of its error
    page, its ``rules``, and ``check()``, a refusal's message that no count gives (None while
    there is none): the presets a device keeps."""

    name: str
    title: Any  # a lazy string, translated when the page is rendered
    rules: tuple[Rule, ...]
    check: Callable[[], str | None] = lambda: None


def _device_games(n: int, window: str, wait: str) -> str:
    return ngettext(
        "This device has started %(num)d game, the most allowed within %(window)s; finish or reuse it, "
        "or try again in %(wait)s.",
        "This device has started %(num)d games, the most allowed within %(window)s; finish or reuse one of them, "
        "or try again in %(wait)s.",
        n,
        window=window,
        wait=wait,
    )


def _address_games(n: int, window: str, wait: str) -> str:
    return ngettext(
        "%(num)d game was started from this network, the most allowed within %(window)s; try again in %(wait)s.",
        "%(num)d games were started from this network, the most allowed within %(window)s; try again in %(wait)s.",
        n,
        window=window,
        wait=wait,
    )


def _device_presets(n: int, window: str, wait: str) -> str:
    return ngettext(
        "This device has saved %(num)d preset, the most allowed within %(window)s; try again in %(wait)s.",
        "This device has saved %(num)d presets, the most allowed within %(window)s; try again in %(wait)s.",
        n,
        window=window,
        wait=wait,
    )


def _address_presets(n: int, window: str, wait: str) -> str:
    return ngettext(
        "%(num)d preset was saved from this network, the most allowed within %(window)s; try again in %(wait)s.",
        "%(num)d presets were saved from this network, the most allowed within %(window)s; try again in %(wait)s.",
        n,
        window=window,
        wait=wait,
    )


def _device_events(n: int, window: str, wait: str) -> str:
    return ngettext(
        "This device has created %(num)d club night, the most allowed within %(window)s; try again in %(wait)s.",
        "This device has created %(num)d club nights, the most allowed within %(window)s; try again in %(wait)s.",
        n,
        window=window,
        wait=wait,
    )


def _address_events(n: int, window: str, wait: str) -> str:
    return ngettext(
        "%(num)d club night was created from this network, the most allowed within %(window)s; try again in %(wait)s.",
        "%(num)d club nights were created from this network, the most allowed within %(window)s; "
        "try again in %(wait)s.",
        n,
        window=window,
        wait=wait,
    )


def presets_kept_exceeded() -> str | None:
    """The message for a device (pages only: the API has none) that keeps its allowed number
    of presets, or None."""
    most = current_app.config["MAX_PRESETS_PER_DEVICE"]
    device = client_device()
    if device and limits.presets_kept(device) >= most:
        return ngettext(
            "This device keeps %(num)d saved preset, the most allowed; delete it if you no longer "
            "use it, then save again.",
            "This device keeps %(num)d saved presets, the most allowed; delete one you no longer use, then save again.",
            most,
        )
    return None


GAME_STARTS = Limit(
    "games",
    _l("Too many games"),
    (
        Rule("device", "LIMIT_BURST_WINDOW", "MAX_GAMES_PER_DEVICE_BURST", _device_games),
        Rule("device", "LIMIT_WINDOW", "MAX_GAMES_PER_DEVICE", _device_games),
        Rule("address", "LIMIT_BURST_WINDOW", "MAX_GAMES_PER_ADDRESS_BURST", _address_games),
        Rule("address", "LIMIT_WINDOW", "MAX_GAMES_PER_ADDRESS", _address_games),
    ),
)
#: Club nights created: one creation per night, whatever its number of tables, in
#: buckets of their own ("events"), with their own, smaller numbers (MAX_EVENTS_* in scorepad.config).
EVENT_STARTS = Limit(
    "events",
    _l("Too many club nights"),
    (
        Rule("device", "LIMIT_BURST_WINDOW", "MAX_EVENTS_PER_DEVICE_BURST", _device_events),
        Rule("device", "LIMIT_WINDOW", "MAX_EVENTS_PER_DEVICE", _device_events),
        Rule("address", "LIMIT_BURST_WINDOW", "MAX_EVENTS_PER_ADDRESS_BURST", _address_events),
        Rule("address", "LIMIT_WINDOW", "MAX_EVENTS_PER_ADDRESS", _address_events),
    ),
)
PRESET_SAVES = Limit(
    "presets",
    _l("Too Many Requests"),
    (
        Rule("device", "LIMIT_WINDOW", "MAX_PRESET_SAVES_PER_DEVICE", _device_presets),
        Rule("address", "LIMIT_WINDOW", "MAX_PRESETS_PER_ADDRESS", _address_presets),
    ),
    presets_kept_exceeded,
)


def _keyed(value: str) -> str:
    """A keyed hash of a device id (32 hex digits): a counter's name says whose it is without
    holding the id, which owns presets."""
    return keyed_hash("device:" + value)


def buckets(which: Limit) -> list[tuple[str, Rule]]:
    """The counters this request counts in for ``which``, by name, with their rules (see the
    module's docstring): an established device's own buckets only
    (:func:`scorepad.services.limits.device_established`); otherwise its device's, if it has one (a
    page's request without one gets its device id now, as its creation would, so a browser's
    first game counts too), and the address's bucket for its way in: "new" (pages, and the
    API with a browser's cookie) or "api" (the API without a cookie). Sorted by name, so
    that concurrent requests lock shared counters in one order (no deadlock on PostgreSQL)."""
    came_with = device_id()
    # Each scope's counter, as (its kind, whose it is), or None: the request counts in no such bucket.
    whose: dict[str, tuple[str, str] | None]
    if came_with is not None and limits.device_established(came_with):
        whose = {"device": ("device", _keyed(came_with)), "address": None}
    else:
        device = came_with or client_device(create=True)  # a page's first creation makes the device
        api = request.blueprint is not None and request.blueprint.startswith("api")
        address = address_key()
        whose = {
            "device": ("device", _keyed(device)) if device else None,
            "address": ("address-api" if api and device is None else "address-new", address) if address else None,
        }
    found = []
    for rule in which.rules:
        counter = whose[rule.scope]
        if counter is None:
            continue
        kind, key = counter
        seconds = int(current_app.config[rule.window].total_seconds())
        found.append((f"{which.name}:{kind}:{seconds}:{key}", rule))
    return sorted(found, key=lambda found_rule: found_rule[0])


def take(which: Limit) -> tuple[Refusal | None, bool]:
    """Count this request in every bucket of ``which`` (see :func:`buckets`), in the session's
    transaction (the caller commits it with the creation, or rolls it back). Returns the
    refusal, if any bucket was full (the counts are then rolled back already): the message of
    the bucket whose window ends last, and the seconds until it ends; and whether a count
    opened a new window (time to forget ended ones)."""
    message = which.check()
    if message is not None:
        return Refusal(message, None), False
    config = current_app.config
    now = common.clock()
    refused: list[tuple[int, Rule]] = []
    fresh = False
    for bucket, rule in buckets(which):
        window = limits.fixed_window(now, config[rule.window])
        count = limits.take_one(bucket, window, config[rule.most])
        if count is None:
            refused.append((window[1], rule))
        fresh = fresh or count == 1
    if not refused:
        return None, fresh
    common.roll_back()
    end, rule = max(refused, key=lambda end_rule: end_rule[0])
    wait = max(1, math.ceil(end - now.timestamp()))
    length = config[rule.window]
    message = rule.message(config[rule.most], _words(length), _words(timedelta(seconds=wait)))
    return Refusal(message, wait), False


def _words(length: timedelta) -> str:
    """A length of time in words of the page's language ("1 minute", "22 hours")."""
    return format_timedelta(length, threshold=1)


def limit(which: Limit, refuse: Callable[[str], ResponseReturnValue | None] | None = None) -> Callable[[View], View]:
    """Decorate a view so that a POST counts in ``which`` (one creation per request, whatever
    it creates: a club night's tables started by one request count once) and a POST beyond
    it is refused before the view runs: 429 with the message (error page or JSON, see
    :func:`~scorepad.web.errors.error_response`) and ``Retry-After``. ``refuse(message)``,
    when given, answers instead (a page that keeps what was typed); it returns None for a
    POST that stores nothing (a button that only re-renders, a form with errors), and the
    view then runs as usual.

    The view must commit its creation in the session's transaction, which holds the counts
    (:func:`take`); if it returns or raises without ending that transaction, it stored
    nothing and the counts are rolled back. Until then the counters stay locked (on SQLite
    the database's write lock, as a round's save holds it from ``common.lock_game``), so
    the request's body is read in full before counting, and the view must not wait on the
    network before its commit."""

    def decorate(view: View) -> View:
        @functools.wraps(view)
        def limited(*args: Any, **kwargs: Any) -> Any:
            if request.method != "POST":
                return view(*args, **kwargs)
            # The whole body first: a slow client must not hold the counters' locks (SQLite's
            # write lock: every writer) while it sends. Form fields stay in request.form.
            request.get_data(parse_form_data=True)
            refusal, fresh = take(which)
            if refusal is not None:
                answer = (
                    refuse(refusal.message)
                    if refuse
                    else error_response(429, refusal.message, name=str(which.title), retry_after=refusal.retry_after)
                )
                if answer is None:
                    return view(*args, **kwargs)
                response = current_app.make_response(answer)
                if refusal.retry_after is not None:
                    response.headers["Retry-After"] = str(refusal.retry_after)
                return response
            counting = common.open_transaction()
            try:
                answer = view(*args, **kwargs)
            finally:
                if common.open_transaction() is counting:
                    common.roll_back()  # the view stored nothing: nothing is counted
            if fresh:
                limits.forget_ended_windows(common.clock())
            return answer

        return limited  # type: ignore[return-value]

    return decorate
