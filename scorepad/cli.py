"""Command line.

- ``scorepad settle FILE`` (also ``flask --app scorepad settle FILE``): reads a game
  document (docs/game-format.md) from FILE or ``-`` (stdin) and prints its export with every
  round's result and the standings as JSON. Invalid input: exit status 2, ``path: message``
  on stderr, nothing on stdout.
- ``flask --app scorepad addresses --host HOST --port PORT``: prints the address(es) the
  players' phones should open for a server listening on HOST:PORT (``make run`` calls it
  just before ``flask run``): ``PUBLIC_URL`` when it is set, else this machine's network
  addresses for ``0.0.0.0`` or ``::``, and a hint when the server is for this computer only.
"""

from __future__ import annotations

import ipaddress
import json
import re
import socket
import sys
from collections.abc import Iterable

import click
from flask import current_app
from flask.cli import with_appcontext

from .scoring import ScoringError, export_game, parse_game
from .web.hosts import host_name, is_loopback, machine_names
from .web.json_input import parse_json

#: The hosts that mean "every address of this machine" to ``flask run`` (IPv4 and IPv6).
ALL_ADDRESSES = frozenset({"0.0.0.0", "::", ""})


def settle_document(text: str) -> dict:
    """Parse and settle a game document given as JSON text; returns the export.

    Raises :class:`ScoringError` (path ``""`` for JSON that cannot be read, as the web app's
    :func:`~scorepad.web.json_input.parse_json`: malformed, nested too deep, huge numbers) on
    invalid input."""
    return export_game(parse_game(parse_json(text)))


@click.command("settle")
@click.argument("file", type=click.File("r", encoding="utf-8"))
def settle_command(file) -> None:
    """Settle the game document in FILE (- for stdin) and print its export as JSON."""
    try:
        doc = settle_document(file.read())
    except ScoringError as exc:
        click.echo(f"{exc.path}: {exc.message}" if exc.path else exc.message, err=True)
        sys.exit(2)
    except UnicodeDecodeError:
        click.echo("the file is not UTF-8 text", err=True)
        sys.exit(2)
    click.echo(json.dumps(doc, ensure_ascii=False, indent=2))


def network_addresses(names: Iterable[str], ipv6: bool) -> list[str]:
    """The addresses among ``names`` (e.g. :func:`~scorepad.web.hosts.machine_names`) that
    another device on the network can reach: no host names, no loopback, no link-local
    address (``169.254.…``, ``fe80::…``, which need a zone), IPv6 ones only when ``ipv6``.
    IPv4 first, then private before public, each in numeric order."""
    found = []
    for name in names:
        try:
            address = ipaddress.ip_address(name)
        except ValueError:
            continue  # the host name and <name>.local
        if address.is_loopback or address.is_link_local or address.is_unspecified:
            continue
        if address.version == 6 and not ipv6:
            continue
        found.append(address)
    found.sort(key=lambda a: (a.version, not a.is_private, a))
    return [str(a) for a in found]


def dotted_ipv4(name: str) -> str:
    """An IPv4 address in the short forms the socket library (``inet_aton``) and so ``flask
    run --host`` accept, written out: ``0`` → ``0.0.0.0`` (every address), ``127.1`` →
    ``127.0.0.1``, ``10.1`` → ``10.0.0.1``. Any other ``name`` (a host name, IPv6, an
    address that is none) is returned as it is."""
    if re.fullmatch(r"[0-9]+(\.[0-9]+){0,3}", name):
        try:
            return socket.inet_ntoa(socket.inet_aton(name))
        except OSError:
            return name  # 999.1.1.1: no address; said as typed
    return name


def base_url(host: str, port: int) -> str:
    """``http://host:port`` with an IPv6 address in brackets."""
    return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"


def serving_lines(host: str, port: int, public_url: str | None, names: Iterable[str]) -> list[str]:
    """What to tell the person starting a server on ``host``:``port`` (as ``flask run
    --host --port`` takes them) about where the phones connect, one line per item.

    - ``public_url`` (``PUBLIC_URL``, already normalised) set: that is the address, whatever
      ``host`` is (every link and QR code carries it).
    - ``host`` is every address (``0.0.0.0``, ``::``): one URL per reachable address among
      ``names`` (see :func:`network_addresses`), or a line saying none was found.
    - a loopback ``host``: only this computer can open it; how to serve the phones instead.
    - any other ``host``: that address."""
    if public_url:
        return [f"Phones open: {public_url}/", "(PUBLIC_URL; every link and QR code uses it)"]
    name = host_name(host) if host.startswith("[") else dotted_ipv4(host.strip().lower())
    if name in ALL_ADDRESSES:
        urls = [base_url(address, port) for address in network_addresses(names, ipv6=name == "::")]
        if not urls:
            return [
                "No network address found: is this computer on the club’s Wi-Fi?",
                f"This computer only: {base_url('127.0.0.1', port)}",
            ]
        lines = [f"Phones on this network open: {urls[0]}"]
        lines += [f"  or: {url}" for url in urls[1:]]
        lines.append("Open it on this computer too: the share box’s QR code then carries it.")
        return lines
    if is_loopback(name):
        return [
            f"This computer only: {base_url(name, port)}",
            "Phones cannot open it: serve them with `make run HOST=0.0.0.0`.",
        ]
    return [f"Phones open: {base_url(name, port)}"]


@click.command("addresses")
@click.option("--host", default="127.0.0.1", show_default=True, help="The address the server listens on.")
@click.option("--port", default=5000, show_default=True, type=click.IntRange(1, 65535), help="Its port.")
@with_appcontext
def addresses_command(host: str, port: int) -> None:
    """Print the address(es) the players' phones should open for a server on HOST:PORT."""
    for line in serving_lines(host, port, current_app.config.get("PUBLIC_URL"), machine_names()):
        click.echo(line)


@click.group()
def main() -> None:
    """Barbu Scorepad from the command line."""


main.add_command(settle_command)


def register(app) -> None:
    """Add the ``settle`` and ``addresses`` commands to the Flask CLI of ``app``."""
    app.cli.add_command(settle_command)
    app.cli.add_command(addresses_command)
