"""gunicorn's gevent worker, with the two bounds a server that faces the phones directly needs
(gunicorn.conf.py, the Procfile's server; behind nginx, deploy/ runs sync workers and nginx
holds the slow clients).

gunicorn bounds a request's headers already: the gevent worker reads them under a timeout of
``keepalive`` seconds and closes the connection when they have not all arrived. Nothing bounds
the body: a client that sends its headers at once and then a byte every two seconds holds a
connection, and 2,100 of them hold every connection of two workers (issue 26, item 3). So:

- **A body has a deadline.** It is read before the app runs, into memory, and must arrive
  within ``BODY_SECONDS`` seconds, extended by one second for every ``BODY_MIN_RATE`` bytes
  received (Apache's mod_reqtimeout ``body=5,MinRate=2048``): a phone on bad Wi-Fi sending a
  round (a few hundred bytes) or a game document (a few KB) has seconds to spare; a body that
  trickles in is answered 408 and its connection closed. The app then reads a body that has
  arrived, and never waits on the network. A body larger than ``BODY_MOST`` bytes (above the
  app's own ``MAX_CONTENT_LENGTH``, which answers 413 below it) is answered 413.
- **One client address holds at most a share of the connections**: ``worker_connections //
  ADDRESS_SHARE`` of each worker (250 of its 1000), so one address (IPv6: one /64, as the
  limits count it) leaves three quarters to everyone else. A club's 40 phones behind one NAT
  address, each with the 6 connections a browser opens to one host at most, hold 240. A
  connection past the share is answered 429 and closed at once.

The module imports only the standard library, gevent and gunicorn: gunicorn.conf.py loads it
from its file in gunicorn's master, which must not import the app (the workers load the app
after gevent has patched the standard library).
"""

from __future__ import annotations

import contextlib
import io
import ipaddress
import time

import gevent  # type: ignore[import-untyped]  # no type information shipped
from gunicorn import util  # type: ignore[import-untyped]
from gunicorn.workers.ggevent import GeventWorker  # type: ignore[import-untyped]

#: Seconds a request body has to arrive, before the time its bytes earn.
BODY_SECONDS = 5.0
#: Bytes a second: each BODY_MIN_RATE bytes received extend the body's deadline by one second.
BODY_MIN_RATE = 2048
#: The largest body read, in bytes (the app refuses anything over 256 KiB itself).
BODY_MOST = 1024 * 1024
#: One client address holds at most 1/ADDRESS_SHARE of a worker's connections.
ADDRESS_SHARE = 4
#: Bytes read at a time: the deadline is checked between reads.
READ_STEP = 1024


def _answer(status: str, *headers: str) -> bytes:
    """A complete HTTP/1.1 answer with no body that closes the connection."""
    lines = [f"HTTP/1.1 {status}", "Connection: close", "Content-Length: 0", *headers]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("ascii")


REQUEST_TIMEOUT = _answer("408 Request Timeout")
TOO_LARGE = _answer("413 Content Too Large")
TOO_MANY = _answer("429 Too Many Requests", "Retry-After: 5")
CONTINUE = b"HTTP/1.1 100 Continue\r\n\r\n"


class BodyTimeout(Exception):
    """The request's body did not arrive by its deadline."""


class BodyTooLarge(Exception):
    """The request's body is (or says it is) longer than BODY_MOST bytes."""


def client_address(addr: object) -> str:
    """The key a connection's peer is counted under: its IPv4 address, or its IPv6 /64
    (a host gets a whole /64, as the limits of scorepad/web/limits.py count it); ``""`` for a
    UNIX socket's peer, which has no address."""
    if not isinstance(addr, tuple) or not addr:
        return ""
    try:
        ip = ipaddress.ip_address(addr[0])
    except ValueError:
        return str(addr[0])
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


def _header(req, name: str) -> str | None:
    """The value of header ``name`` (upper case) of a gunicorn request, or None."""
    return next((value for key, value in req.headers if key == name), None)


def arrived_body(req, sock) -> io.BytesIO | None:
    """Read the whole body of gunicorn request ``req`` from ``sock`` within its deadline
    (``BODY_SECONDS`` + bytes received / ``BODY_MIN_RATE``) and return it in memory; None
    when the request has no body (no Content-Length, or 0, and not chunked). Answers an
    ``Expect: 100-continue`` first. Raises BodyTimeout past the deadline, BodyTooLarge past
    ``BODY_MOST`` bytes (declared or received)."""
    length = _header(req, "CONTENT-LENGTH")
    chunked = _header(req, "TRANSFER-ENCODING") is not None  # gunicorn accepts only chunked
    if not chunked and (length is None or int(length) == 0):
        return None
    if length is not None and int(length) > BODY_MOST:
        raise BodyTooLarge
    if req._expected_100_continue:  # gunicorn would send it when the app reads: the body is read here
        sock.sendall(CONTINUE)
        req._expected_100_continue = False
    started = time.monotonic()
    received: list[bytes] = []
    size = 0
    while True:
        left = started + BODY_SECONDS + size / BODY_MIN_RATE - time.monotonic()
        if left <= 0:
            raise BodyTimeout
        with gevent.Timeout(left, BodyTimeout):
            piece = req.body.read(READ_STEP)
        if not piece:
            return io.BytesIO(b"".join(received))
        received.append(piece)
        size += len(piece)
        if size > BODY_MOST:
            raise BodyTooLarge


class BoundedGeventWorker(GeventWorker):
    """gunicorn's gevent worker with a deadline on request bodies and a share of the
    connections per client address (this module's docstring)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.most_per_address = max(1, self.worker_connections // ADDRESS_SHARE)
        #: Open connections per client address (client_address); this worker's greenlets only.
        self.held: dict[str, int] = {}

    def handle(self, listener, client, addr):
        address = client_address(addr)
        if self.held.get(address, 0) >= self.most_per_address:
            self.log.debug("Refused a connection from %s: it holds %s already", address, self.most_per_address)
            with contextlib.suppress(OSError):  # the client has gone already
                client.sendall(TOO_MANY)
            util.close(client)
            return
        self.held[address] = self.held.get(address, 0) + 1
        try:
            super().handle(listener, client, addr)
        finally:
            self.held[address] -= 1
            if not self.held[address]:
                del self.held[address]

    def handle_request(self, listener_name, req, sock, addr):
        try:
            body = arrived_body(req, sock)
        except (BodyTimeout, BodyTooLarge) as refused:
            self.log.debug("Closed a request from %s: %s", client_address(addr), type(refused).__name__)
            with contextlib.suppress(OSError):
                sock.sendall(REQUEST_TIMEOUT if isinstance(refused, BodyTimeout) else TOO_LARGE)
            raise StopIteration from None  # the handler's loop closes the connection
        if body is not None:
            req.body = body
        return super().handle_request(listener_name, req, sock, addr)
