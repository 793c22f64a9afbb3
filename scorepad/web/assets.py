"""The static files: built, compressed, served in front of the app (``init_app``).

Static files (``static/``) are served by WhiteNoise, in front of the app. Every CSS and JS
file is built by webassets into ``static/gen/``: minified (rcssmin, rjsmin; ``*.min.*`` files
as they are), with its content hash in its name, and compressed once at the strongest level
(Brotli 11, gzip 9: WhiteNoise's compressor). A file whose name carries its hash never
changes at that URL, so browsers keep it for a year. ``url_for('static', filename=...)`` of a
CSS or JS file gives its built file. A page that sets ``bundle`` loads several files as one
(:data:`BUNDLES`). The build runs when the app starts (and, in debug or testing, again when a
source file changes), so no separate step is needed before ``flask run`` or gunicorn. The
service worker's list of files to store and its version (:func:`precache_urls`,
:func:`cache_version`) come from the same build (:mod:`scorepad.views.pwa` serves it)."""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import re
import shutil
from collections.abc import Iterable, Iterator
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING
from wsgiref.headers import Headers

from flask import Flask, current_app, url_for
from jinja2 import BaseLoader, FunctionLoader
from webassets import Bundle, Environment
from webassets.bundle import get_all_bundle_files
from webassets.updater import TimestampUpdater
from whitenoise import WhiteNoise
from whitenoise.compress import Compressor

if TYPE_CHECKING:
    from _typeshed.wsgi import StartResponse, WSGIApplication, WSGIEnvironment


HTMX = "vendor/htmx-2.0.11.min.js"
#: The scorer's offline support (static/js/offline/), in the order they run: store.js first.
OFFLINE_JS = tuple(f"js/offline/{name}.js" for name in ("store", "drafts", "card", "outbox", "main"))
#: Static files the service worker stores when it installs, so pages render offline.
PRECACHE = (
    "css/app.css",
    "js/app.js",
    "js/pwa.js",
    HTMX,
    "icons/icon-192.png",
    "icons/favicon-32.png",
    # the game page's own files: a game page reloaded offline still enters rounds
    # and shows the ones waiting to send
    "css/entry.css",
    "js/entry.js",
    "css/offline.css",
    *OFFLINE_JS,
    "css/board.css",
    "js/board.js",
)
#: Files sent as one (a page's ``bundle``): the game page's CSS in one file and its JS in
#: another, so its first load makes two requests rather than eleven (each response carries
#: ~350 bytes of headers) and each is compressed as a whole. The scorer's page loads
#: ``game.*``, a read-only game page ``view.*``, every other page ``site.*``; the service
#: worker precaches them all.
BUNDLES = {
    "game.css": ("css/app.css", "css/entry.css"),  # offline.css loads when the outbox first shows
    "game.js": (HTMX, "js/app.js", "js/pwa.js", *OFFLINE_JS, "js/entry.js", "js/table.js"),
    "view.css": ("css/app.css", "css/entry.css"),
    "view.js": (HTMX, "js/app.js", "js/pwa.js", "js/entry.js", "js/table.js"),
    "site.css": ("css/app.css",),
    "site.js": (HTMX, "js/app.js", "js/pwa.js"),
}
BUILT = "gen"  # static/gen/: the built files (not in git)
#: A built file's URL: its content hash before the extension (webassets' "hash" version).
IMMUTABLE = rf"/{BUILT}/.+\.[0-9a-f]{{8}}\.(css|js)$"


def _bundle(files: tuple[str, ...], output: str) -> Bundle:
    """``files`` minified (each on its own; ``*.min.*`` as it is) and joined into ``output``."""
    minify = "rjsmin" if output.endswith(".js") else "rcssmin"
    return Bundle(*(f if ".min." in f else Bundle(f, filters=minify) for f in files), output=output)


class SourcesUpdater(TimestampUpdater):
    """webassets' updater (a bundle built again when it or one of its files changed), also
    comparing a digest of the bundle's source files with the one of its last build: its
    timestamps are whole seconds, so a file changed in the second of the last build was
    missed (a release deployed in a test served its older script). The digest is kept in
    webassets' cache, which the processes on one build state share."""

    id = "sources"

    def __init__(self) -> None:
        self.digests: dict[str, str] = {}  # each bundle's output: its sources' digest as last checked

    def needs_rebuild(self, bundle: Bundle, ctx: object) -> bool:
        digest = hashlib.sha256()
        for filename in get_all_bundle_files(bundle, ctx):
            with contextlib.suppress(OSError):  # a file gone: the timestamp check rebuilds
                digest.update(Path(filename).read_bytes())
        self.digests[bundle.output] = digest.hexdigest()
        last = ctx.cache.get(("sources", bundle.output))  # type: ignore[attr-defined]
        return bool(super().needs_rebuild(bundle, ctx)) or last != self.digests[bundle.output]

    def build_done(self, bundle: Bundle, ctx: object) -> None:
        super().build_done(bundle, ctx)
        if bundle.output in self.digests:
            ctx.cache.set(("sources", bundle.output), self.digests[bundle.output])  # type: ignore[attr-defined]


def build_state(app: Flask) -> Path:
    """Where the static build keeps its cache, manifest and lock: ``instance/webassets/``."""
    return Path(app.instance_path) / "webassets"


def _environment(app: Flask) -> Environment:
    """The webassets environment of ``app``'s static folder: :data:`BUNDLES` by name, and each
    CSS and JS file of the folder on its own by its path."""
    static = Path(app.static_folder or "")
    # webassets' cache (each bundle's definition, so a bundle whose list of files changed is
    # built again although none of its files did) and its manifest of versions live in the
    # instance folder, not under static/, which is served to anyone.
    cache = build_state(app) / "cache"
    cache.mkdir(parents=True, exist_ok=True)
    env = Environment(
        directory=str(static),
        url=app.static_url_path,
        versions="hash",
        cache=str(cache),
        manifest=f"json:{build_state(app) / 'manifest.json'}",
        updater=SourcesUpdater(),
        auto_build=app.debug or app.testing,
    )
    for name, files in BUNDLES.items():
        stem, ext = name.rsplit(".", 1)
        env.register(name, _bundle(files, f"{BUILT}/{stem}.%(version)s.{ext}"))
    for path in sorted(static.glob("*/**/*")):
        filename = path.relative_to(static).as_posix()
        if path.suffix in (".css", ".js") and not filename.startswith(f"{BUILT}/"):
            output = f"{BUILT}/{filename.removesuffix(path.suffix)}.%(version)s{path.suffix}"
            env.register(filename, _bundle((filename,), output))
    return env


@contextlib.contextmanager
def _build_lock(env: Environment) -> Iterator[None]:
    """One process (and one thread) at a time builds the static files or reads their versions:
    gunicorn's workers start together, and test apps of several pytest workers share a build
    state. webassets' manifest of versions (a JSON file) is rewritten in place, so a version
    read while another process wrote it read half a file (a JSONDecodeError)."""
    with open(Path(env.cache.directory).parent / "build.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield


def build(env: Environment, bundles: list[Bundle] | None = None) -> None:
    """Build the ``bundles`` of ``env`` (all by default) whose sources changed since their last
    build, and compress each built file once (``.br``, ``.gz`` beside it), under
    :func:`_build_lock`."""
    directory = Path(env.directory) / BUILT
    directory.mkdir(exist_ok=True)
    # What builds before this version kept beside the built files (served to anyone) goes.
    for leftover in (directory / ".lock", directory / "manifest.json"):
        leftover.unlink(missing_ok=True)
    shutil.rmtree(directory / ".webassets-cache", ignore_errors=True)
    with _build_lock(env):
        _build(env, bundles or list(env))


def _build(env: Environment, bundles: list[Bundle]) -> None:
    """:func:`build`'s work, with :func:`_build_lock` held."""
    directory = Path(env.directory) / BUILT
    for bundle in bundles:
        bundle.build()
        built = directory.parent / bundle.resolve_output()
        if not built.with_name(built.name + ".br").exists():
            Compressor(quiet=True).compress(str(built))


def _static_headers(headers: Headers, path: str, url: str, hsts: bool = False) -> None:
    """``nosniff``; a CSS or JS file's type without ``charset="utf-8"`` (17 bytes of each
    response on the page weight): a browser reads a script or style sheet with no charset in
    the encoding of the page that loads it, UTF-8; a built file's ``Cache-Control`` short."""
    headers["X-Content-Type-Options"] = "nosniff"
    if hsts:  # as Flask-Talisman sends on the pages (with FORCE_HTTPS, static files go out on HTTPS only)
        headers["Strict-Transport-Security"] = "max-age=31536000; includeSubDomains"
    if path.endswith((".css", ".js")):
        headers["Content-Type"] = (headers["Content-Type"] or "").split(";")[0]
    if headers.get("Cache-Control", "").endswith("immutable"):
        headers["Cache-Control"] = "max-age=31536000, immutable"  # a year, as before; "public" goes without saying


#: Indentation and trailing spaces of a template's lines: the templates' nesting, never content.
INDENTATION = re.compile(r"[ \t]*\n[ \t]*")


def _unindented_loader(app: Flask) -> BaseLoader | None:
    """``app``'s template loader, with the text of its HTML templates (``*.html``) loaded
    without the spaces around its line breaks (~300 bytes of the game page, compressed): a
    browser shows a run of whitespace as one space either way. Done once per template as
    Jinja loads it, on the text between Jinja's tags only (its lexer tells them apart), so
    no response is rewritten and values put in a page keep their spaces. Templates with a
    ``<pre>`` or ``<textarea>``, and other templates (sw.js), load as they are.

    (jinja2-htmlmin, the library for this, re-serializes every tag through htmlmin: quotes
    become ``&#34;``, a tag with an empty Jinja condition gets a space before its ``>``;
    the pages' markup, which tests and htmx selectors rely on, would change.)"""
    files = app.jinja_loader
    if files is None:
        return None

    def load(name: str) -> tuple[str, str | None, object]:
        source, path, uptodate = files.get_source(app.jinja_env, name)
        if name.endswith(".html") and "<pre" not in source and "<textarea" not in source:
            source = "".join(
                INDENTATION.sub("\n", value) if token == "data" else value
                for _, token, value in app.jinja_env.lex(source, name, path)
            )
        return source, path, uptodate

    return FunctionLoader(load)  # type: ignore[arg-type]


def init_app(app: Flask) -> None:
    """Build the static files and serve ``static/`` with WhiteNoise: built files cached for a
    year, the others for a minute; in debug or testing, files changed on disk are seen. HTML
    templates load without their indentation (:func:`_unindented_loader`). ``url_for('static',
    ...)`` of a CSS or JS file gives its built file (:func:`static_built`), and templates have
    :func:`bundle_url`."""
    app.jinja_loader = _unindented_loader(app)
    env = _environment(app)
    build(env)
    app.extensions["webassets"] = env
    refresh = app.debug or app.testing
    files = WhiteNoise(
        app.wsgi_app,
        root=app.static_folder,
        prefix=app.static_url_path,
        autorefresh=refresh,
        max_age=60,
        allow_all_origins=False,
        immutable_file_test=IMMUTABLE,
        add_headers_function=partial(_static_headers, hsts=bool(app.config.get("FORCE_HTTPS"))),
    )
    app.wsgi_app = StaticFiles(app.wsgi_app, files, force_https=bool(app.config.get("FORCE_HTTPS")))  # type: ignore[method-assign]
    app.url_defaults(static_built)
    app.add_template_global(bundle_url)


class StaticFiles:
    """WSGI: GET and HEAD go to WhiteNoise (a static file, or the app for any other path);
    any other method goes to the app, whose error page answers it (405), and so does plain
    HTTP with ``FORCE_HTTPS``, which the app redirects to HTTPS (Flask-Talisman)."""

    def __init__(self, app: WSGIApplication, files: WhiteNoise, force_https: bool) -> None:
        self.app, self.files, self.force_https = app, files, force_https

    def __call__(self, environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        plain = environ.get("wsgi.url_scheme") != "https"
        if environ.get("REQUEST_METHOD") in ("GET", "HEAD") and not (self.force_https and plain):
            return self.files(environ, start_response)
        return self.app(environ, start_response)


def built_path(name: str) -> str | None:
    """The built file of a :data:`BUNDLES` name or a static CSS/JS path, relative to the
    static folder (``gen/game.1a2b3c4d.js``); None for any other file."""
    env: Environment = current_app.extensions["webassets"]
    if name not in env:
        return None
    if env.auto_build:
        # debug, testing: a source may have changed since the last request; built and its
        # version read under one lock (webassets reads the manifest on every URL then)
        with _build_lock(env):
            _build(env, [env[name]])
            url = env[name].urls()[0]
    elif name in _BUILT_PATHS:
        return _BUILT_PATHS[name]  # built once at start: a page's url_for costs a dict lookup, not webassets
    else:
        url = env[name].urls()[0]
    path = _BUILT_PATHS[name] = url[len(current_app.static_url_path or "") + 1 :]
    return path


#: Built files by name, kept when the build runs only at start (not in debug or testing).
_BUILT_PATHS: dict[str, str] = {}


def static_built(endpoint: str, values: dict) -> None:
    """``url_for('static', filename=<a CSS or JS file>)`` gives its built file."""
    if endpoint == "static":
        values["filename"] = built_path(values.get("filename", "")) or values.get("filename")


def bundle_url(name: str) -> str:
    """The URL of a :data:`BUNDLES` entry's built file."""
    return url_for("static", filename=built_path(name))


def precache_urls() -> list[str]:
    """What the service worker stores when it installs: :data:`PRECACHE` and the bundles."""
    return [url_for("static", filename=f) for f in PRECACHE] + [bundle_url(name) for name in BUNDLES]


def cache_version() -> str:
    """The service worker's cache name suffix: changes whenever a precached file changes.
    Computed once when the build runs only at start (static files change with a restart)."""
    env: Environment = current_app.extensions["webassets"]
    if not env.auto_build and _VERSION:
        return _VERSION[0]
    digest = hashlib.sha256("".join(precache_urls()).encode())
    static = Path(current_app.static_folder or "")
    for name in PRECACHE:
        if not name.endswith((".css", ".js")):  # built CSS and JS carry their hash in their URL; icons do not
            digest.update((static / name).read_bytes())
    version = digest.hexdigest()[:10]
    if not env.auto_build:
        _VERSION[:] = [version]
    return version


#: The service worker's version, kept once computed when the build runs only at start.
_VERSION: list[str] = []
