"""The progressive web app: manifest, service worker, offline page, versioned static files."""

import contextlib
import json
import os
import re
import shutil
import threading
import time
from pathlib import Path

from flask import Flask

from scorepad.web import assets

EXAMPLE = json.loads((Path(__file__).parent / "data" / "examples" / "tournament-full.json").read_text())


def test_manifest_describes_an_installable_standalone_app(client):
    response = client.get("/manifest.webmanifest")
    assert response.status_code == 200
    assert response.mimetype == "application/manifest+json"
    manifest = response.json
    assert manifest["name"] == "Barbu Scorepad"
    assert manifest["start_url"] == "/"
    assert manifest["display"] == "standalone"
    assert manifest["theme_color"] == "#0b5d3b"
    sizes = {(icon["sizes"], icon.get("purpose", "any")) for icon in manifest["icons"]}
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= sizes
    for icon in manifest["icons"]:
        assert client.get(icon["src"]).status_code == 200


def test_service_worker_is_served_from_the_root_and_never_cached(client):
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response.mimetype == "text/javascript"
    assert response.headers["Cache-Control"] == "no-cache"
    assert b"/offline" in response.data


@contextlib.contextmanager
def appended(path: str, text: bytes):
    """The static file ``path`` with ``text`` at its end, then as it was. Each change is dated
    2 s after the last, as an edit would be: webassets compares whole seconds, and a change
    within the second of the file's last build would go unseen."""
    original = Path(path).read_bytes()
    later = max(time.time(), os.path.getmtime(path)) + 2
    with open(path, "ab") as f:
        f.write(text)
    os.utime(path, (later, later))
    try:
        yield
    finally:
        with open(path, "wb") as f:
            f.write(original)
        os.utime(path, (later + 2, later + 2))


def test_service_worker_version_follows_the_static_files(app, client, tmp_path):
    first = re.search(rb'VERSION = "(\w+)"', client.get("/sw.js").data).group(1)
    # a precached file of this feature; code, as a comment alone is minified away
    with appended(app.static_folder + "/js/pwa.js", b"\nwindow.changedForATest = 1;\n"):
        second = re.search(rb'VERSION = "(\w+)"', client.get("/sw.js").data).group(1)
    assert first != second


#: A built CSS or JS file: its content hash (8 hex digits) in its name.
BUILT = r"/static/gen/{}\.[0-9a-f]{{8}}\.{}"


def test_pages_link_the_manifest_and_versioned_static_files(client):
    page = client.get("/").data.decode()
    assert '<link rel="manifest" href="/manifest.webmanifest">' in page
    css = re.search(r'href="({})"'.format(BUILT.format("site", "css")), page).group(1)
    response = client.get(css)
    assert response.status_code == 200
    assert response.cache_control.max_age == 31536000
    assert response.cache_control.immutable


def test_unversioned_static_files_are_not_cached_for_a_year(client):
    response = client.get("/static/css/app.css")
    assert response.status_code == 200
    assert response.cache_control.max_age == 60
    assert not response.cache_control.immutable


def test_offline_page_and_favicon(client):
    assert b"No connection" in client.get("/offline").data
    assert client.get("/favicon.ico").mimetype == "image/png"


def test_static_files_go_out_minified_and_compressed(client):
    import brotli

    page = client.get("/").data.decode()
    js = re.search(r'src="({})"'.format(BUILT.format("site", "js")), page).group(1)
    response = client.get(js, headers={"Accept-Encoding": "gzip, br"})
    assert response.status_code == 200
    assert response.headers["Content-Encoding"] == "br"
    assert "Accept-Encoding" in response.headers["Vary"]
    source = Path(client.application.static_folder, "js/app.js").read_bytes()
    sent = brotli.decompress(response.data)
    assert b"// " not in sent[len(sent) - len(source) :]  # app.js, the end of the bundle: comments gone
    assert b"htmx:load" in sent and b"serviceWorker.register" in sent
    plain = client.get(js, headers={"Accept-Encoding": "identity"})
    assert "Content-Encoding" not in plain.headers and plain.data == sent


def test_a_static_file_loaded_on_its_own_is_minified_and_versioned_too(client):
    """Pages other than the game page load some files on their own (url_for('static', ...)):
    they get the built, minified file with its hash in its name."""
    with client.application.test_request_context():
        from flask import url_for

        url = url_for("static", filename="js/board.js")
    assert re.fullmatch(BUILT.format("js/board", "js"), url)
    sent = client.get(url, headers={"Accept-Encoding": "identity"}).data
    source = Path(client.application.static_folder, "js/board.js").read_bytes()
    assert b"// " in source and b"// " not in sent and b"scorepadBoard" in sent


def test_the_game_page_loads_its_css_and_js_as_one_file_each(app, client):
    import brotli

    from scorepad.services import games

    with app.app_context():
        stored, _ = games.create_game({**EXAMPLE["game"], "rounds": []})
        edit = stored.edit_token
    page = client.get(f"/g/{edit}").data.decode()
    css = re.search(r'<link rel="stylesheet" href="({})">'.format(BUILT.format("game", "css")), page).group(1)
    js = re.search(r'<script src="({})" data-sw="/sw.js"'.format(BUILT.format("game", "js")), page).group(1)
    assert "/static/css/" not in page and "/static/js/" not in page and "/static/vendor/" not in page
    sent = {}
    for url in (css, js):
        response = client.get(url, headers={"Accept-Encoding": "gzip, br"})
        assert response.status_code == 200
        assert response.headers["Content-Encoding"] == "br"
        assert response.cache_control.max_age == 31536000 and response.cache_control.immutable
        assert "Content-Security-Policy" not in response.headers  # a file, not a document
        assert response.headers["X-Content-Type-Options"] == "nosniff"
        sent[url] = brotli.decompress(response.data)
        assert b"\n// " not in sent[url] and b"\n/* " not in sent[url]  # minified: comments gone
    # The files in the order the page used to load them: htmx (unchanged), app.js, pwa.js,
    # the offline modules, entry.js; app.css first, then entry.css.
    htmx = Path(app.static_folder, "vendor/htmx-2.0.11.min.js").read_bytes().strip()
    assert sent[js].startswith(htmx)
    marks = [
        sent[js].index(m, len(htmx))
        for m in (
            b'addEventListener("htmx:load"',
            b"serviceWorker.register",
            b"scorepadOffline={}",
            b"htmx:beforeRequest",
            b'classList.add("js")',
        )
    ]
    assert marks == sorted(marks)
    assert sent[css].index(b".site-header") < sent[css].index(b".last-round")
    assert client.get("/static/gen/nothing.js").status_code == 404
    # The outbox card's style sheet is not part of the first load: the card loads it when it
    # first shows (data-css).
    assert b".outbox" not in sent[css]
    outbox_css = re.search(r'data-css="({})"'.format(BUILT.format("css/offline", "css")), page).group(1)
    assert b".outbox-item" in client.get(outbox_css, headers={"Accept-Encoding": "identity"}).data
    # The service worker stores what the page loads, and the outbox's style sheet for offline.
    sw = client.get("/sw.js").data.decode()
    assert f'"{css}"' in sw and f'"{js}"' in sw and f'"{outbox_css}"' in sw


def test_a_bundle_changes_its_version_with_its_files(app, client):
    game_css = r'"({})"'.format(BUILT.format("game", "css"))
    first = client.get("/sw.js").data.decode()
    url = re.search(game_css, first).group(1)
    # entry.css: the last file of game.css
    with appended(app.static_folder + "/css/entry.css", b"\n.changed-for-a-test { color: red; }\n"):
        second = client.get("/sw.js").data.decode()
        changed = re.search(game_css, second).group(1)
        body = client.get(changed, headers={"Accept-Encoding": "identity"}).data
    assert changed != url
    assert body.endswith(b".changed-for-a-test{color:red}")


def test_pages_go_out_without_their_indentation(app, client):
    html = client.get("/").data.decode()
    assert "\n " not in html and " \n" not in html
    assert "<main" in html


def test_the_static_build_keeps_its_cache_manifest_and_lock_out_of_the_served_folder(app, client):
    built = Path(app.static_folder) / "gen"
    assert list(built.glob("*.js")), "the build wrote its files"
    assert not [p.name for p in built.iterdir() if p.name.startswith(".") or p.suffix == ".json"]
    for path in ("/static/gen/.lock", "/static/gen/manifest.json", "/static/gen/.webassets-cache/"):
        assert client.get(path).status_code == 404


def test_a_version_is_read_whole_while_another_process_builds(app, tmp_path):
    """Test apps of several pytest workers (and gunicorn's workers as they start) share the
    instance folder's build state: one reads a file's version while another builds. The
    manifest of versions, rewritten in place, was read half written (a JSONDecodeError in an
    unrelated test of a CI run). Here a second app on the same build state (a copy of the
    static files, so the changes reach no other test) builds a changed style sheet 80 times
    while the first looks up its script's URL; every lookup gives the script's built file."""
    static = tmp_path / "static"
    shutil.copytree(app.static_folder, static, ignore=shutil.ignore_patterns("gen"))

    def app_on_the_build_state() -> Flask:
        other = Flask("scorepad", instance_path=str(tmp_path / "instance"), static_folder=str(static))
        other.testing = True
        other.extensions["webassets"] = assets._environment(other)
        return other

    reader, writer = app_on_the_build_state(), app_on_the_build_state()
    with reader.app_context():
        script = assets.built_path("site.js")
    built, errors, done = [], [], threading.Event()

    def build_changed_styles():
        env = writer.extensions["webassets"]
        for n in range(80):
            with open(static / "css" / "app.css", "a") as css:
                css.write(f"\n.release-{n} {{ color: #0b5d3b; }}\n")
            assets.build(env, [env["site.css"]])
        done.set()

    thread = threading.Thread(target=build_changed_styles)
    thread.start()
    with reader.app_context():
        while not done.is_set():
            try:
                built.append(assets.built_path("site.js"))
            except Exception as error:  # noqa: BLE001 (the failure this test is about)
                errors.append(repr(error))
    thread.join()
    assert errors == []
    assert set(built) == {script}
    assert re.fullmatch(r"gen/site\.[0-9a-f]{8}\.js", script)


def test_a_file_changed_in_the_second_of_its_last_build_is_built_again(app, tmp_path):
    """webassets compares whole-second timestamps: a style sheet changed in the second its
    bundle was built kept the older build (a test deploying a release got the older script).
    Its sources' digest tells the change (a copy of the static files, as above)."""
    static = tmp_path / "static"
    shutil.copytree(app.static_folder, static, ignore=shutil.ignore_patterns("gen"))
    own = Flask("scorepad", instance_path=str(tmp_path / "instance"), static_folder=str(static))
    own.testing = True
    own.extensions["webassets"] = assets._environment(own)
    with own.app_context():
        before = assets.built_path("site.css")
        built = static / before
        with open(static / "css" / "app.css", "a") as css:
            css.write("\n.release-2 { color: #0b5d3b; }\n")
        second = int(built.stat().st_mtime)
        os.utime(static / "css" / "app.css", (second, second))  # the build's own second
        after = assets.built_path("site.css")
    assert after != before
    assert ".release-2{color:#0b5d3b}" in (static / after).read_text()
    assert ".release-2" not in built.read_text()


def test_a_post_to_a_static_file_gets_the_apps_method_not_allowed_page(client):
    page = client.post("/static/css/app.css")
    assert page.status_code == 405
    assert page.mimetype == "text/html" and b"Method Not Allowed" in page.data
    api_client = client.post("/static/css/app.css", headers={"Accept": "application/json"})
    assert api_client.status_code == 405 and api_client.json["error"]


def test_with_force_https_static_files_are_redirected_and_carry_hsts(app):
    from scorepad import create_app

    secure = create_app({**app.config, "FORCE_HTTPS": True})
    secure.test_client_class = app.test_client_class  # closes each response, as a server does
    client = secure.test_client()
    plain = client.get("/static/icons/icon-192.png")
    assert plain.status_code in (301, 302)
    assert plain.headers["Location"].startswith("https://")
    over_https = client.get("/static/icons/icon-192.png", base_url="https://localhost")
    assert over_https.status_code == 200
    assert over_https.headers["Strict-Transport-Security"].startswith("max-age=31536000")


def test_the_service_worker_version_follows_an_icon_it_precaches(app, client):
    first = re.search(rb'VERSION = "(\w+)"', client.get("/sw.js").data).group(1)
    with appended(app.static_folder + "/icons/favicon-32.png", b"\0"):
        second = re.search(rb'VERSION = "(\w+)"', client.get("/sw.js").data).group(1)
    assert first != second
