"""Command line: ``scorepad settle FILE`` (also ``flask --app scorepad settle FILE``).

Reads a game document (shared/spec/game-format.md) from FILE or ``-`` (stdin) and prints
its export with every round's result and the standings as JSON. Invalid input: exit
status 2, ``path: message`` on stderr, nothing on stdout.
"""

from __future__ import annotations

import json
import sys

import click

from .scoring import ScoringError, export_game, parse_game
from .web.json_input import parse_json


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


@click.group()
def main() -> None:
    """Barbu Scorepad from the command line."""


main.add_command(settle_command)


def register(app) -> None:
    """Add the ``settle`` command to the Flask CLI of ``app``."""
    app.cli.add_command(settle_command)
