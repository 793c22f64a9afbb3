"""Downloads: a file name that every system can save and every server can send, and the
answer that carries it.

A download's name comes from what a scorer typed (a game's title, its players), so it is
made safe here whatever the text holds, even text stored before the input rules of
:mod:`scorepad.scoring.text`: a line break in the ``Content-Disposition`` header made
Werkzeug refuse the whole answer (500), a lone surrogate could not be encoded (500), and
gunicorn refuses any control character in a header. Non-ASCII names are fine: Werkzeug's
``send_file`` sends them RFC 6266 / 5987 encoded (``filename*=UTF-8''...``) with an ASCII
fallback.
"""

from __future__ import annotations

import io
import re
import unicodedata

from flask import Response, send_file

#: Characters Windows, macOS or Linux refuse in a file name, each replaced by "-".
RESERVED = re.compile(r'[\\/:*?"<>|]+')
#: The longest stem kept (characters), well within every file system's 255 bytes.
MAX_STEM = 100
MAX_SUFFIX = 8
FALLBACK = "barbu"


def _shown(char: str) -> bool:
    """False for what a file name must not hold: control and format characters (Cc, Cf:
    invisible, and a direction override would disguise the extension), line and paragraph
    separators (Zl, Zp) and lone surrogates (Cs)."""
    return unicodedata.category(char) not in ("Cc", "Cf", "Zl", "Zp", "Cs")


def safe_file_name(name: str) -> str:
    """The file name ``name`` (``stem.suffix``) safe to save and to send: NFC; each control,
    format or separator character a space and each lone surrogate dropped;
    ``\\ / : * ? " < > |`` as ``-``; spaces collapsed; no leading or trailing dot or space;
    at most :data:`MAX_STEM` characters before the suffix (``barbu`` when nothing is left).
    The suffix is what follows the last dot when it is 1 to 8 letters or digits."""
    stem, dot, suffix = name.rpartition(".")
    if not (dot and stem and suffix.isascii() and suffix.isalnum() and len(suffix) <= MAX_SUFFIX):
        stem, suffix = name, ""
    stem = "".join(
        char if _shown(char) else " "
        for char in stem
        if unicodedata.category(char) != "Cs"  # a lone surrogate: no character to keep
    )
    stem = unicodedata.normalize("NFC", RESERVED.sub("-", stem))
    stem = " ".join(stem.split())[:MAX_STEM].strip(" .") or FALLBACK
    return f"{stem}.{suffix}" if suffix else stem


def send_download(body: bytes, mimetype: str, name: str, *, max_age: int | None = 0) -> Response:
    """``body`` as an attachment named :func:`safe_file_name` of ``name`` (``max_age``
    seconds of caching; 0 by default: a game's files change with each round)."""
    return send_file(
        io.BytesIO(body),
        mimetype=mimetype,
        as_attachment=True,
        download_name=safe_file_name(name),
        max_age=max_age,
    )
