"""Which host names the app answers to, and the base of every absolute link it makes.

- ``PUBLIC_URL`` (``https://scores.club.example``, ``http://192.168.1.20:8000``, or with a
  path, ``https://club.example/barbu``, when the server mounts the app there): every
  absolute link (``url_for(..., _external=True)``: the API's ``links`` and ``Location``,
  the share page's link and its QR code, a preset's link) is this base followed by the
  path inside the app, whatever Host header the request carried (:class:`ScorepadFlask`).
  Without it, absolute links use the request's host, which the check below has made a
  trusted one. A value that is not such a URL stops the app at start-up
  (:func:`public_url`).
- Trusted hosts: a request is served only when its host (the ``Host`` header, or behind
  ``TRUSTED_PROXIES`` the proxy's ``X-Forwarded-Host``, which ProxyFix has put in its
  place) is a loopback name or address, one of this machine's addresses or its host name,
  ``PUBLIC_URL``'s host, or in ``TRUSTED_HOSTS`` (comma-separated; ``.club.example``
  also trusts every subdomain; ``*`` turns the check off, for a proxy that checks the
  host itself). Any other gets 400 before a view runs (:func:`refuse_untrusted_host`), so
  that a forged Host header never ends up in a link the app hands out.

Flask 3.1 has a ``TRUSTED_HOSTS`` setting of its own, left unset here: its check runs
while Flask binds the URL adapter, so the error page it leads to cannot build a URL (a 500
for people), and Werkzeug's matching drops any IPv6 address (``[::1]`` never matches).
"""

from __future__ import annotations

import ipaddress
import socket
import threading
import time
from typing import Any
from urllib.parse import urlsplit

import ifaddr
from flask import Flask, Request, Response, current_app, has_request_context, request
from flask.globals import request_ctx
from flask_babel import gettext as _
from werkzeug.routing import MapAdapter

from .errors import error_response

#: How often, at most, the machine's addresses are read again when a request names a host
#: that is not among them (a laptop that joined another network since start-up): seconds.
REREAD_SECONDS = 30.0


def public_url(value: str | None) -> str | None:
    """``PUBLIC_URL`` checked and normalised: ``scheme://host[:port][/path]`` without a
    trailing slash; None when unset or blank. Raises :class:`ValueError` naming the setting
    for anything else: no http(s) scheme, no host, a user name or password, a query, a
    fragment, or a port that is not one."""
    if value is None or not value.strip():
        return None
    value = value.strip()
    problem = None
    try:
        parts = urlsplit(value)
        port = parts.port  # ValueError for a port out of range or not a number
    except ValueError:
        parts, port, problem = None, None, "its port is not a number from 1 to 65535"
    if parts is not None:
        if parts.scheme not in ("http", "https"):
            problem = "it must start with http:// or https://"
        elif not parts.hostname:
            problem = "it has no host name"
        elif parts.username is not None or parts.password is not None:
            problem = "it must not hold a user name or password"
        elif parts.query or value.endswith("?"):
            problem = "it must not have a query (?…)"
        elif parts.fragment or "#" in value:
            problem = "it must not have a fragment (#…)"
        elif port == 0:
            problem = "its port is not a number from 1 to 65535"
    if problem or parts is None:
        raise ValueError(
            f"PUBLIC_URL={value!r} is not usable: {problem}. "
            "Give the address people reach the scorepad at, e.g. https://scores.club.example "
            "or http://192.168.1.20:8000"
        )
    return f"{parts.scheme}://{parts.netloc.lower()}{parts.path.rstrip('/')}"


def trusted_list(value: str | None) -> tuple[str, ...]:
    """``TRUSTED_HOSTS`` as a tuple of lower-case names or addresses (brackets of an IPv6
    address and a port dropped); empty when unset."""
    names = []
    for item in (value or "").split(","):
        name = host_name(item.strip())
        if name:
            names.append(name)
    return tuple(names)


def host_name(host: str) -> str:
    """The name or address of a ``host[:port]`` value, lower-case, without an IPv6
    address's brackets, the port or a final dot (``[::1]:8000`` → ``::1``)."""
    host = host.strip().lower()
    if host.startswith("["):
        host = host[1 : host.find("]")] if "]" in host else host[1:]
    elif host.count(":") == 1:
        host = host.partition(":")[0]
    return host.rstrip(".")


def is_loopback(name: str) -> bool:
    """True for ``localhost`` (and its subdomains, RFC 6761) and loopback addresses."""
    if name == "localhost" or name.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def reaches_this_machine_only(url: str) -> bool:
    """True when the absolute ``url`` names a loopback host (``http://127.0.0.1:5000/b/…``):
    a phone that scans it opens itself, not the scorepad. The share box then says how to let
    the phones in (``make run HOST=0.0.0.0`` and its printed address, or ``PUBLIC_URL``)."""
    return is_loopback(host_name(urlsplit(url).netloc))


def machine_names() -> frozenset[str]:
    """This machine's addresses (every interface's IPv4 and IPv6 address) and its host name
    (also as ``<name>.local``, the name mDNS answers on a local network).

    ifaddr reads the interfaces' addresses (getifaddrs on Unix, GetAdaptersAddresses on
    Windows): the standard library has no portable way, and resolving the host name gives
    only some of them (often just 127.0.1.1 on Debian). A phone on the club's Wi-Fi then
    reaches ``make run HOST=0.0.0.0`` at the machine's LAN address."""
    names: set[str] = set()
    for adapter in ifaddr.get_adapters():
        for ip in adapter.ips:
            address = ip.ip if isinstance(ip.ip, str) else ip.ip[0]  # IPv6: (address, flowinfo, scope id)
            names.add(address.lower())
    hostname = socket.gethostname().lower().rstrip(".")
    if hostname:
        names.update({hostname, f"{hostname}.local"})
    return frozenset(names)


class TrustedHosts:
    """The host names one app answers to (see the module's text). ``configured`` is
    ``PUBLIC_URL``'s host and ``TRUSTED_HOSTS``; the machine's names are read at start-up
    and again, at most every :data:`REREAD_SECONDS`, when a request names another host."""

    def __init__(self, configured: tuple[str, ...]) -> None:
        self.everyone = "*" in configured
        self.exact = frozenset(name.lstrip(".") for name in configured)  # ".club.example" trusts itself too
        self.suffixes = tuple(name for name in configured if name.startswith("."))
        self._lock = threading.Lock()
        self._machine = machine_names()
        self._read_at = time.monotonic()

    def trusts(self, host: str) -> bool:
        """True when ``host`` (a ``host[:port]`` value; empty for a missing or malformed
        Host header) may be served."""
        if self.everyone:
            return True
        name = host_name(host)
        if not name:
            return False
        if name in self._machine or name in self.exact or name.endswith(self.suffixes) or is_loopback(name):
            return True
        with self._lock:
            if time.monotonic() - self._read_at >= REREAD_SECONDS:
                self._machine = machine_names()
                self._read_at = time.monotonic()
            return name in self._machine


def refuse_untrusted_host() -> Response | None:
    """400 (error page or JSON) for a request whose host is not trusted; None otherwise."""
    hosts: TrustedHosts = current_app.extensions["scorepad_hosts"]
    if hosts.trusts(request.host):
        return None
    current_app.logger.warning("refused a request for untrusted host %r (see TRUSTED_HOSTS)", request.host[:100])
    return error_response(
        400,
        _(
            "This server does not answer to the host name %(host)s. Its administrator can add it to "
            "TRUSTED_HOSTS or set PUBLIC_URL.",
            host=host_name(request.host)[:100] or "?",
        ),
        name=_("Bad Request"),
    )


class ScorepadFlask(Flask):
    """Flask whose absolute URLs start with ``PUBLIC_URL`` when it is set (see the module's
    text): the one place every ``url_for(..., _external=True)``, in Python and in
    templates, goes through."""

    def url_for(
        self,
        endpoint: str,
        *,
        _anchor: str | None = None,
        _method: str | None = None,
        _scheme: str | None = None,
        _external: bool | None = None,
        **values: Any,
    ) -> str:
        """Flask's ``url_for``; an absolute URL (``_external``, or any URL built outside a
        request) is ``PUBLIC_URL`` followed by the path inside the app when ``PUBLIC_URL``
        is set (``_scheme`` is then PUBLIC_URL's own)."""
        base = self.config.get("PUBLIC_URL")
        external = _external if _external is not None else (_scheme is not None or not has_request_context())
        if not base or not external or not has_request_context():
            # Outside a request, create_url_adapter(None) is bound to PUBLIC_URL already.
            scheme = None if base else _scheme
            return super().url_for(
                endpoint, _anchor=_anchor, _method=_method, _scheme=scheme, _external=_external, **values
            )
        path = super().url_for(endpoint, _anchor=_anchor, _method=_method, _external=False, **values)
        adapter = request_ctx.url_adapter
        root = adapter.script_name.rstrip("/") if adapter is not None else ""
        if root and path.startswith(root):
            path = path[len(root) :]
        return base + path

    def create_url_adapter(self, request: Request | None) -> MapAdapter | None:
        """Flask's adapter; outside a request, one bound to ``PUBLIC_URL`` when it is set
        (so that the command line builds the same links)."""
        base = self.config.get("PUBLIC_URL")
        if request is None and base:
            parts = urlsplit(base)
            return self.url_map.bind(parts.netloc, script_name=parts.path or "/", url_scheme=parts.scheme)
        return super().create_url_adapter(request)


def init_app(app: Flask) -> None:
    """Check ``PUBLIC_URL`` (ValueError naming it at start-up), gather the trusted hosts and
    refuse the others before anything else runs for a request."""
    app.config["PUBLIC_URL"] = public_url(app.config.get("PUBLIC_URL"))
    names = app.config.get("TRUSTED_HOST_NAMES") or ""
    configured = trusted_list(names if isinstance(names, str) else ",".join(names))
    if app.config["PUBLIC_URL"]:
        configured += (host_name(urlsplit(app.config["PUBLIC_URL"]).netloc),)
    app.extensions["scorepad_hosts"] = TrustedHosts(configured)
    app.before_request(refuse_untrusted_host)
    app.add_template_global(reaches_this_machine_only)
