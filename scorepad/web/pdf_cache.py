"""The score sheet's PDFs: rendered once per game state, outside the web worker, a bounded
number at a time on the whole machine ("PDF floods").

A PDF costs 2.5–3.6 s of CPU and the view token that asks for it is public, so:

- **One render per state.** A PDF is kept in a folder that every worker and process of the
  machine shares (``PDF_CACHE_DIR``, by default ``instance/sheets/``), named
  ``<game id>-<state>-<page>.pdf``. The state is a digest of the game's ``updated_at``, what the
  board's ETag is built on (every save, edit and undo changes it). The page is a digest of the
  state, of which of the state's sheets it is (blank or not, the language, the print options, a
  saved preset's notes: the view names them) and of :func:`app_version` (the code, templates,
  translations and CSS that print it, and WeasyPrint's version). All of it is known before the
  sheet is scored or its HTML rendered, so a cached PDF costs the game's lookup and a file read.
  A file is written whole under a temporary name and moved into place (``os.replace``), so a
  reader sees all of it or nothing. Writing a state's PDF removes the game's PDFs of other
  states, and the folder is kept under :data:`MAX_BYTES` (the oldest written go first).
- **Outside the event loop.** WeasyPrint runs in a child process
  (:mod:`scorepad.render.pdf`); the worker only waits for it, which a gevent worker does
  cooperatively (gunicorn's gevent worker patches ``subprocess``), so its other requests go on.
- **A bound on the machine.** A render holds one of ``PDF_RENDERS`` slots, lock files under the
  cache folder (``fcntl.flock``, as the static build's lock in :mod:`scorepad.web.assets`; the
  kernel releases a slot when its holders exit, even killed). The renderer inherits its slot's
  lock, so the slot stays taken until the render really ends. A request that finds every slot
  taken waits up to ``PDF_WAIT`` seconds (polling, cooperatively), then gets :class:`Busy`
  (the view answers 503 with ``Retry-After``).
- **Never twice at once.** The first request for a PDF that is not cached takes a lock named
  after it; a second request for the same PDF waits on that lock instead of a slot, then finds
  the first one's file. Only if the first render failed does the second render it itself.
- **Nothing held while waiting.** Before it waits for a lock and before it renders, a request
  gives its database connection back to the pool (:func:`_release_database`), and it scores
  and lays out the sheet only once it holds a slot. (A round saved during that wait shows in
  the PDF, which is then cached under the older state's name: a later request for the new
  state renders again, no request gets an older state than it asked for.)
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from functools import cache
from importlib import metadata
from pathlib import Path
from typing import TypeVar

from flask import current_app

from ..render import pdf as pdf_render
from ..services import common

#: The renderer script, run by path (``python -P``) so that the child does not import the app.
RENDERER = Path(pdf_render.__file__)
#: The cache folder's bound on its PDFs (bytes); a sheet is 20–60 KB, so some thousands fit.
MAX_BYTES = 64 * 1024 * 1024
#: A render that takes longer is killed (seconds): a sheet takes 3, 10 on a loaded machine.
RENDER_TIMEOUT = 120
#: Seconds a refused request is told to wait before it asks again (a render's time, about).
RETRY_AFTER = 5
#: The longest pause between two looks at a taken lock (seconds); the first is 20 ms.
MAX_POLL = 0.25

T = TypeVar("T")


class Busy(Exception):
    """Every render slot stayed taken for ``PDF_WAIT`` seconds: ask again after
    ``retry_after`` seconds."""

    def __init__(self, retry_after: int = RETRY_AFTER) -> None:
        super().__init__(f"every PDF render slot is taken; retry after {retry_after} s")
        self.retry_after = retry_after


class RenderError(RuntimeError):
    """The renderer process failed (its exit status and the end of its error output)."""


def app_version() -> str:
    """A digest of everything besides the game and the request that decides how a sheet
    prints: the app's code (this renderer included), templates, compiled translations and
    static CSS, and WeasyPrint's version. Computed once per process (they change only with a
    restart), each time in debug mode (templates reload)."""
    if current_app.debug:
        return _app_version.__wrapped__(*_version_sources())
    return _app_version(*_version_sources())


def _version_sources() -> tuple[str, str, str, str]:
    app = current_app
    translations = str(app.config.get("BABEL_TRANSLATION_DIRECTORIES", ""))
    return app.root_path, str(app.template_folder or ""), translations, app.static_folder or ""


@cache
def _app_version(package: str, templates: str, translations: str, static: str) -> str:
    digest = hashlib.sha256()
    try:
        digest.update(metadata.version("weasyprint").encode())
    except metadata.PackageNotFoundError:
        digest.update(b"no weasyprint")
    files = [
        *Path(package).rglob("*.py"),
        *Path(templates).rglob("*.html"),
        *[path for folder in translations.split(";") if folder for path in Path(folder).rglob("*.mo")],
        *(Path(static) / "css").glob("*.css"),
    ]
    for path in sorted(files):
        digest.update(str(path).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def cache_folder() -> Path:
    """The app's PDF folder (``PDF_CACHE_DIR``, by default ``<instance>/sheets``), made if missing."""
    folder = Path(current_app.config.get("PDF_CACHE_DIR") or Path(current_app.instance_path) / "sheets")
    for sub in ("", "slots", "locks"):
        (folder / sub).mkdir(parents=True, exist_ok=True)
    return folder


def _digest(parts: Sequence[str], length: int) -> str:
    text = "\0".join(parts)
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:length]


def entry_name(game_id: int, state: str, page: Sequence[str]) -> str:
    """The cache file's name of a sheet PDF of game ``game_id`` in ``state`` (its
    ``updated_at``, as text), ``page`` naming which of the state's pages it is (blank or
    not, language, print options, notes): ``<id>-<16 hex digits>-<32 hex digits>.pdf``, the
    second digest over ``page``, the state and :func:`app_version`."""
    return f"{game_id}-{_digest([state], 16)}-{_digest([app_version(), state, *page], 32)}.pdf"


def sheet_pdf(game_id: int, state: str, page: Sequence[str], html: Callable[[], str]) -> bytes:
    """The PDF of a sheet of game ``game_id`` in ``state`` (``updated_at`` as text), ``page``
    naming which of the state's sheets (see :func:`entry_name`): the cached file if there is
    one (neither ``html`` nor WeasyPrint is called), else ``html()``'s page rendered in a
    child process once a slot is free, cached and returned. Raises :class:`Busy` when no slot
    (or the same PDF's render by another request) came free within ``PDF_WAIT`` seconds,
    :class:`RenderError` when the renderer fails."""
    folder = cache_folder()
    name = entry_name(game_id, state, page)
    path = folder / name
    found = _read(path)
    if found is not None:
        return found
    deadline = time.monotonic() + float(current_app.config.get("PDF_WAIT", 0))
    _release_database()
    with _locked(folder / "locks" / f"{name}.lock", deadline) as lock:
        found = _read(path)  # rendered by the request this one waited for
        if found is None:
            slots = [folder / "slots" / f"{n}.lock" for n in range(max(1, int(current_app.config["PDF_RENDERS"])))]
            with _any_locked(slots, deadline) as slot:
                # Scored and laid out only once a slot is taken: 25 requests for different
                # games would otherwise each spend 30 ms of the event loop on a page that
                # most of them never print (503).
                source = html()
                _release_database()
                found = _render(source, slot)
            _store(folder, name, found)
        lock.unlink(missing_ok=True)  # while still held: a request that opened it finds the file
    return found


def _release_database() -> None:
    """End the request's read transaction before a wait or a render, so its pooled database
    connection goes back to the pool: 25 requests waiting for one PDF held all 15 of
    SQLAlchemy's connections, and the board's polls waited seconds for one. What the request
    loaded stays usable (expired: read again when next used, e.g. by ``html()``)."""
    common.roll_back()


def _read(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        return None


def _poll(attempt: Callable[[], T | None], deadline: float) -> T:
    """``attempt()``'s first result that is not None, trying again after a growing pause
    (20 ms to :data:`MAX_POLL`; ``time.sleep``, which gevent makes cooperative) until
    ``deadline`` (``time.monotonic``). Raises :class:`Busy` past it (tries once at least)."""
    pause = 0.02
    while True:
        result = attempt()
        if result is not None:
            return result
        left = deadline - time.monotonic()
        if left <= 0:
            raise Busy()
        time.sleep(min(pause, left))
        pause = min(pause * 2, MAX_POLL)


def _try_lock(fd: int) -> bool:
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True


@contextlib.contextmanager
def _locked(path: Path, deadline: float) -> Iterator[Path]:
    """Hold the lock file ``path`` (made if missing), waiting for it until ``deadline``."""
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        _poll(lambda: True if _try_lock(fd) else None, deadline)
        yield path
    finally:
        os.close(fd)  # releases the lock


@contextlib.contextmanager
def _any_locked(paths: list[Path], deadline: float) -> Iterator[int]:
    """Hold the first of the lock files ``paths`` that is free, waiting until ``deadline``;
    yields its file descriptor."""
    fds = [os.open(path, os.O_RDWR | os.O_CREAT, 0o600) for path in paths]
    try:
        yield _poll(lambda: next((fd for fd in fds if _try_lock(fd)), None), deadline)
    finally:
        for fd in fds:
            os.close(fd)


def _render(html: str, slot: int) -> bytes:
    """Run the renderer on ``html``; it inherits the ``slot`` lock's descriptor, so the slot
    stays taken until the renderer has exited, even if this worker is killed first."""
    command = [sys.executable, "-P", str(RENDERER), current_app.static_folder or "", current_app.static_url_path or ""]
    try:
        done = subprocess.run(
            command,
            input=html.encode("utf-8", "surrogatepass"),
            capture_output=True,
            timeout=RENDER_TIMEOUT,
            pass_fds=(slot,),
            check=False,
        )
    except subprocess.TimeoutExpired as error:  # run() has killed it
        raise RenderError(f"the PDF renderer took longer than {RENDER_TIMEOUT} s") from error
    if done.returncode != 0 or not done.stdout.startswith(b"%PDF"):
        tail = done.stderr.decode("utf-8", "replace")[-2000:]
        raise RenderError(f"the PDF renderer failed (exit status {done.returncode}): {tail}")
    return done.stdout


def _store(folder: Path, name: str, data: bytes) -> None:
    """Write ``data`` as ``folder/name`` atomically, remove the same game's PDFs of other
    states, and keep the folder within :data:`MAX_BYTES`."""
    fd, temporary = tempfile.mkstemp(dir=folder, prefix=".tmp-", suffix=".pdf")
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
        os.replace(temporary, folder / name)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    game, state, _ = name.split("-", 2)
    for other in folder.glob(f"{game}-*.pdf"):
        if not other.name.startswith(f"{game}-{state}-"):
            other.unlink(missing_ok=True)
    prune(folder)


def prune(folder: Path, max_bytes: int = MAX_BYTES) -> None:
    """Keep ``folder``'s PDFs within ``max_bytes`` (down to three quarters of it, the oldest
    written first), and remove what a killed process left behind: temporary files and lock
    files older than two render timeouts."""
    now = time.time()
    entries: list[tuple[float, int, Path]] = []
    for directory in (folder, folder / "locks"):
        for entry in os.scandir(directory):
            try:
                info = entry.stat()
            except FileNotFoundError:  # removed meanwhile by another process
                continue
            path = Path(entry.path)
            if entry.name.startswith(".tmp-") or directory.name == "locks":
                if now - info.st_mtime > 2 * RENDER_TIMEOUT:
                    path.unlink(missing_ok=True)
            elif entry.name.endswith(".pdf"):
                entries.append((info.st_mtime, info.st_size, path))
    total = sum(size for _, size, _ in entries)
    if total <= max_bytes:
        return
    for _, size, path in sorted(entries):
        path.unlink(missing_ok=True)
        total -= size
        if total <= max_bytes * 3 // 4:
            break
