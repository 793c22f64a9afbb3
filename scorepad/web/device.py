"""Who is asking: this device's id, a random id (192 bits) in the permanent session cookie
that owns the presets the device saves, and a keyed hash of the client's address. Both
count what one client stores (:mod:`scorepad.web.limits`)."""

from __future__ import annotations

import hashlib
import hmac

from flask import current_app, has_request_context, request, session

from .. import services

SESSION_KEY = "device"


def device_id(create: bool = False) -> str | None:
    """This device's id from the session cookie; with ``create`` a new one is made (and the
    cookie becomes permanent, 400 days) when there is none yet."""
    device = session.get(SESSION_KEY)
    if device is None and create:
        device = services.new_device_id()
        session[SESSION_KEY] = device
    if device is not None:
        session.permanent = True
    return device


def client_device(create: bool = False) -> str | None:
    """The device id of a page's request (see :func:`device_id`); None for the JSON API,
    which tokens authorise, not cookies."""
    api = request.blueprint is not None and request.blueprint.startswith("api")
    return None if api else device_id(create)


def address_key() -> str | None:
    """The client's address as a keyed hash (32 hex digits): enough to count what it stores,
    useless to learn the address. None outside a request."""
    if not has_request_context() or not request.remote_addr:
        return None
    key = current_app.config["SECRET_KEY"].encode()
    return hmac.new(key, request.remote_addr.encode(), hashlib.sha256).hexdigest()[:32]


def creator() -> dict[str, str | None]:
    """Keyword arguments for :func:`scorepad.services.create_game`: who starts this game
    (:func:`client_device`, made when there is none, and :func:`address_key`)."""
    return {"creator_device": client_device(create=True), "creator_address": address_key()}
