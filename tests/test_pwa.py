"""The progressive web app: manifest, service worker, offline page, versioned static files."""

import json
import re
from pathlib import Path

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


def test_service_worker_version_follows_the_static_files(app, client, tmp_path):
    first = re.search(rb'VERSION = "(\w+)"', client.get("/sw.js").data).group(1)
    script = app.static_folder + "/js/pwa.js"  # a precached file of this feature
    original = open(script, "rb").read()
    try:
        with open(script, "ab") as f:
            f.write(b"\n// changed\n")
        second = re.search(rb'VERSION = "(\w+)"', client.get("/sw.js").data).group(1)
    finally:
        with open(script, "wb") as f:
            f.write(original)
    assert first != second


def test_pages_link_the_manifest_and_versioned_static_files(client):
    page = client.get("/").data.decode()
    assert '<link rel="manifest" href="/manifest.webmanifest">' in page
    css = re.search(r'href="(/static/css/app\.css\?v=\w+)"', page).group(1)
    response = client.get(css)
    assert response.status_code == 200
    assert response.cache_control.max_age == 31536000
    assert response.cache_control.immutable


def test_unversioned_static_files_are_not_cached_for_a_year(client):
    response = client.get("/static/css/app.css")
    assert response.status_code == 200
    assert response.cache_control.max_age != 31536000


def test_offline_page_and_favicon(client):
    assert b"No connection" in client.get("/offline").data
    assert client.get("/favicon.ico").mimetype == "image/png"


def test_static_files_go_out_minified_and_compressed(client):
    import brotli

    page = client.get("/").data.decode()
    js = re.search(r'src="(/static/js/app\.js\?v=\w+)"', page).group(1)
    response = client.get(js, headers={"Accept-Encoding": "gzip, br"})
    assert response.status_code == 200
    assert response.headers["Content-Encoding"] == "br"
    assert "Accept-Encoding" in response.headers["Vary"]
    assert "Accept-Ranges" not in response.headers
    source = open(client.application.static_folder + "/js/app.js", "rb").read()
    sent = brotli.decompress(response.data)
    assert len(sent) < len(source) and b"// " not in sent  # comments gone
    assert b"htmx:load" in sent
    plain = client.get(js, headers={"Accept-Encoding": "identity"})
    assert "Content-Encoding" not in plain.headers and plain.data == sent


def test_the_game_page_loads_its_css_and_js_as_one_file_each(app, client):
    import brotli
    from scorepad import services

    with app.app_context():
        stored, _ = services.create_game({**EXAMPLE["game"], "rounds": []})
        edit = stored.edit_token
    page = client.get(f"/g/{edit}").data.decode()
    css = re.search(r'<link rel="stylesheet" href="(/static/pack/game\.css\?v=\w+)">', page).group(1)
    js = re.search(r'<script src="(/static/pack/game\.js\?v=\w+)" data-sw="/sw.js"', page).group(1)
    assert "/static/css/" not in page and "/static/js/" not in page and "/static/vendor/" not in page
    sent = {}
    for url in (css, js):
        response = client.get(url, headers={"Accept-Encoding": "gzip, br"})
        assert response.status_code == 200
        assert response.headers["Content-Encoding"] == "br"
        assert response.cache_control.max_age == 31536000 and response.cache_control.immutable
        assert "Content-Security-Policy" not in response.headers  # a file, not a document
        sent[url] = brotli.decompress(response.data)
        assert b"\n// " not in sent[url] and b"\n/* " not in sent[url]  # minified: comments gone
    # The files in the order the page used to load them: htmx (unchanged), app.js, pwa.js,
    # offline.js, entry.js; app.css first, then entry.css and offline.css.
    htmx = open(app.static_folder + "/vendor/htmx-2.0.11.min.js", "rb").read().strip()
    assert sent[js].startswith(htmx)
    marks = [sent[js].index(m, len(htmx)) for m in
             (b'addEventListener("htmx:load"', b"serviceWorker.register", b"outbox", b'classList.add("js")')]
    assert marks == sorted(marks)
    assert sent[css].index(b".site-header") < sent[css].index(b".last-round") < sent[css].index(b".outbox")
    assert client.get("/static/pack/nothing.js").status_code == 404
    # The service worker stores what the page loads.
    sw = client.get("/sw.js").data.decode()
    assert f'"{css}"' in sw and f'"{js}"' in sw


def test_a_bundle_changes_its_version_with_its_files(app, client):
    first = client.get("/sw.js").data.decode()
    url = re.search(r'"(/static/pack/game\.css\?v=\w+)"', first).group(1)
    path = app.static_folder + "/css/offline.css"  # the last file of game.css
    original = open(path, "rb").read()
    try:
        with open(path, "ab") as f:
            f.write(b"\n.changed-for-a-test { color: red; }\n")
        second = client.get("/sw.js").data.decode()
        changed = re.search(r'"(/static/pack/game\.css\?v=\w+)"', second).group(1)
        body = client.get(changed, headers={"Accept-Encoding": "identity"}).data
    finally:
        with open(path, "wb") as f:
            f.write(original)
    assert changed != url
    assert body.endswith(b".changed-for-a-test{color:red}")


def test_pages_go_out_without_their_indentation(app, client):
    html = client.get("/").data.decode()
    assert "\n " not in html and " \n" not in html
    assert "<main" in html
