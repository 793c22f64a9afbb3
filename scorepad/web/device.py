"""Who is asking: this device's id, a random id (192 bits) in the permanent session cookie
that owns the presets the device saves, and a keyed hash of the client's address. Both
count what one client stores (:mod:`scorepad.web.limits`)."""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
from typing import TypedDict

from flask import current_app, has_request_context, request, session

from ..services import presets

SESSION_KEY = "device"


def device_id(create: bool = False) -> str | None:
    """This device's id from the session cookie; with ``create`` a new one is made (and the
    cookie becomes permanent, 400 days) when there is none yet."""
    device = session.get(SESSION_KEY)
    if device is None and create:
        device = presets.new_device_id()
        session[SESSION_KEY] = device
    if device is not None:
        session.permanent = True
    return device


def client_device(create: bool = False) -> str | None:
    """The device id of a page's request (see :func:`device_id`); None for the JSON API,
    which tokens authorise, not cookies."""
    api = request.blueprint is not None and request.blueprint.startswith("api")
    return None if api else device_id(create)


def client_network(address: str) -> str:
    """Whose address ``address`` is, for counting: an IPv4 address itself; an IPv6 address's
    /64 network (one subscriber's, or one LAN's: a client picks any address in it, so
    counting by address would give it 2⁶⁴ budgets); an IPv4-mapped IPv6 address
    (``::ffff:192.0.2.1``) as its IPv4 address. Anything else (not an IP address) as it is."""
    try:
        parsed = ipaddress.ip_address(address.split("%", 1)[0])  # without an IPv6 zone ("fe80::1%eth0")
    except ValueError:
        return address
    if isinstance(parsed, ipaddress.IPv6Address):
        if parsed.ipv4_mapped is not None:
            return str(parsed.ipv4_mapped)
        return str(ipaddress.IPv6Network((parsed, 64), strict=False))
    return str(parsed)


def address_key() -> str | None:
    """The client's address (by :func:`client_network`: an IPv6 client by its /64) as a keyed
    hash (32 hex digits): enough to count what it stores, useless to learn the address. None
    outside a request."""
    if not has_request_context() or not request.remote_addr:
        return None
    return keyed_hash(client_network(request.remote_addr))


def keyed_hash(text: str) -> str:
    """A keyed hash of ``text`` (HMAC-SHA256 with ``SECRET_KEY``, 32 hex digits): what the
    app keeps of a client's address or device id to count by, useless to learn either."""
    key = current_app.config["SECRET_KEY"].encode()
    return hmac.new(key, text.encode(), hashlib.sha256).hexdigest()[:32]


class Creator(TypedDict):
    """Who starts a game or a night (:func:`creator`)."""

    creator_device: str | None
    creator_address: str | None


def creator() -> Creator:
    """Keyword arguments for :func:`scorepad.services.games.create_game`: who starts this game
    (:func:`client_device`, made when there is none, and :func:`address_key`)."""
    return Creator(creator_device=client_device(create=True), creator_address=address_key())
