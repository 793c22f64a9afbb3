"""One score sheet's PDF, rendered by WeasyPrint in a process of its own.

:mod:`scorepad.web.pdf_cache` runs this file as a script for each PDF it has not cached yet::

    python -P scorepad/render/pdf.py STATIC_FOLDER STATIC_URL_PATH < sheet.html > sheet.pdf

It reads the sheet's HTML (UTF-8) on stdin and writes the PDF on stdout; exit status 0 on
success, anything else with WeasyPrint's error on stderr. A render costs 2.5–3.6 s of CPU, so
it runs here rather than in a web worker, whose event loop would stall for every other request
it holds (a gevent worker waits for this process cooperatively). The file imports nothing of
the app (importing ``scorepad`` takes 0.6 s: Flask, SQLAlchemy, Babel), only the standard
library and WeasyPrint, which loads Debian's pango; the process runs niced, so the web
workers' polls and saves come first on a busy machine. ``-P`` keeps this folder off
``sys.path`` (its modules' names must not shadow a library's).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

#: The page's base URL: only the static files' paths matter (:func:`static_fetcher`), so the
#: PDF is the same whatever host the request named.
BASE_URL = "http://localhost/"
#: How much lower than the web workers a render runs (``nice``: 0 to 19).
NICENESS = 10


def static_fetcher(root: Path, url_path: str) -> Callable[..., Any]:
    """WeasyPrint's URL fetcher for the app's static folder ``root`` served under
    ``url_path`` (``/static``): a URL whose path is under it gets the file from disk (the
    print stylesheet), any other URL raises ``ValueError`` (nothing is fetched from the
    network, and nothing outside ``root``)."""
    prefix = (url_path or "/static").rstrip("/") + "/"
    folder = root.resolve()

    def fetch(url: str, *args: Any, **kwargs: Any) -> Any:
        path = urlsplit(url).path
        if not path.startswith(prefix):
            raise ValueError(f"not fetched while printing: {url}")
        target = (folder / path[len(prefix) :]).resolve()
        if folder not in target.parents or not target.is_file():
            raise ValueError(f"no such static file: {url}")
        # Imported here: WeasyPrint loads pango, which takes a moment (and may be missing where
        # the app only imports this module for the fetcher).
        from weasyprint.urls import URLFetcherResponse  # noqa: PLC0415

        mime = "text/css" if target.suffix == ".css" else "application/octet-stream"
        return URLFetcherResponse(url, body=target.read_bytes(), headers={"Content-Type": mime})

    return fetch


def render(html: str, root: Path, url_path: str) -> bytes:
    """The PDF of the page ``html`` whose static files are in ``root`` under ``url_path``."""
    from weasyprint import HTML  # noqa: PLC0415 (loads pango: only the renderer needs it)

    return HTML(string=html, base_url=BASE_URL, url_fetcher=static_fetcher(root, url_path)).write_pdf()


def main(argv: list[str]) -> int:
    """The script: ``argv`` is ``[script, static folder, static URL path]``."""
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    os.nice(NICENESS)
    html = sys.stdin.buffer.read().decode("utf-8")
    sys.stdout.buffer.write(render(html, Path(argv[1]), argv[2]))
    sys.stdout.buffer.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
