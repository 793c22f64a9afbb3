"""Tokens out of every log line: a logging filter that replaces anything shaped like a token
with ``…``, installed on the loggers and handlers of the app, werkzeug and gunicorn.

A token is recognised by its shape, wherever it stands: a run of 20 or more URL-safe
characters (``A-Z a-z 0-9 _ -``, or any of them percent-encoded: ``%41``). Edit and view
tokens have 32 of them, preset ids 22, digests 64; so a token is caught in a path followed by
any punctuation (``/g/<token>.`` ``)`` ``;x`` ``%20``), in a query string (``?t=<token>``), in a
Referer, in an exception's message or a database error's detail. Nothing the logs need is
that long: status codes, dates, user agents, and static files whose names carry a content
hash (``game.a16f2d5c.css``) are made of shorter runs. The only runs of 20 or more kept are
the names in a traceback:

- plain words joined by ``_`` or ``-`` in one case (``_handle_dbapi_exception``,
  ``content-security-policy``, ``HTTP_X_FORWARDED_FOR``). A random 22-character id has that
  shape about once in 10**8 (28 of the 64 characters are lowercase letters, ``_`` and ``-``:
  (28/64)**22, as much again for uppercase);
- a class name of capitalised words after a module's name and a dot
  (``psycopg.errors.InvalidTextRepresentation``), where a token never stands.

The filter redacts the message (with its arguments), the traceback and the stack of a
record. It is added to loggers (records logged on them) and to their handlers (records
propagated to them from child loggers, which a logger's filter never sees).

This module imports nothing but the standard library, so gunicorn.conf.py can load it in
gunicorn's master process without importing the app (which the gevent workers load only
after patching the standard library).
"""

from __future__ import annotations

import logging
import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from flask import Flask

REDACTED = "…"
TOKEN_LIKE = re.compile(r"(?:[A-Za-z0-9_-]|%[0-9A-Fa-f]{2}){20,}")
WORDS = re.compile(r"_*(?:[a-z]+(?:[_-]+[a-z]+)*|[A-Z]+(?:[_-]+[A-Z]+)*)_*")
CLASS_NAME = re.compile(r"(?:[A-Z][a-z]+)+")
AFTER_MODULE = re.compile(r"[A-Za-z0-9_]\.")
# The loggers of `flask run` (werkzeug) and of gunicorn (access and error logs).
LOGGERS = ("werkzeug", "gunicorn.access", "gunicorn.error")
# Formats a traceback exactly as logging's default formatter does.
_TRACEBACKS = logging.Formatter()


def _replace(match: re.Match[str]) -> str:
    run = match.group()
    if WORDS.fullmatch(run):
        return run
    if CLASS_NAME.fullmatch(run) and AFTER_MODULE.fullmatch(match.string, max(0, match.start() - 2), match.start()):
        return run
    return REDACTED


def redact(text: str) -> str:
    """``text`` with every token-shaped run (see the module's docstring) replaced by ``…``."""
    return TOKEN_LIKE.sub(_replace, text)


class RedactTokens(logging.Filter):
    """A logging filter that takes token-shaped text out of a record: its message (the
    arguments merged in), its traceback and its stack. Never drops a record."""

    # How install() recognises the filter, whichever copy of this module made it
    # (gunicorn.conf.py loads its own, outside the scorepad package).
    redacts_tokens = True

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # a template its arguments do not fit: logged as both, redacted
            record.msg, record.args = redact(f"{record.msg} {record.args}"), None
        else:
            clean = redact(message)
            if clean != message:
                record.msg, record.args = clean, None
        if record.exc_info or record.exc_text:
            # The formatted traceback, redacted, replaces the exception: a formatter writes
            # exc_text as it is and never formats the original (whose message or SQL
            # parameters may hold a token).
            text = record.exc_text or _TRACEBACKS.formatException(record.exc_info)  # type: ignore[arg-type]
            record.exc_text, record.exc_info = redact(text), None
        if record.stack_info:
            record.stack_info = redact(record.stack_info)
        return True


REDACTOR = RedactTokens()


def install(*loggers: logging.Logger) -> None:
    """Add the filter to each of ``loggers`` and to each of their handlers (once each), and
    to logging's last resort (the handler of a record that finds no other)."""
    for holder in (logging.lastResort, *loggers, *(handler for logger in loggers for handler in logger.handlers)):
        if holder is not None and not any(getattr(f, "redacts_tokens", False) for f in holder.filters):
            holder.addFilter(REDACTOR)


def init_app(app: Flask) -> None:
    """Redact every log the app writes: the root logger, the app's, werkzeug's and gunicorn's,
    and their handlers as they are now (gunicorn's workers also get them filtered by
    gunicorn.conf.py's logger class)."""
    install(logging.getLogger(), app.logger, *map(logging.getLogger, LOGGERS))
