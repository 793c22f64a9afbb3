"""Proves the browser setup: Debian's Chromium through Playwright, against the live app."""


def test_chromium_loads_the_vendored_htmx(live_server, phone):
    response = phone.goto(live_server + "/static/vendor/htmx-2.0.11.min.js")
    assert response.status == 200
    phone.add_script_tag(url=live_server + "/static/vendor/htmx-2.0.11.min.js")
    assert phone.evaluate("htmx.version") == "2.0.11"
