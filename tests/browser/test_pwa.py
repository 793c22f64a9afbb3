"""The scorepad installs as an app in Chromium, and its service worker serves pages offline."""

import pytest
from playwright.sync_api import expect

from tests.conftest import CHROMIUM, CHROMIUM_ARGS


@pytest.fixture
def persistent(playwright, tmp_path):
    """A persistent Chromium profile: an incognito context always reports "in-incognito"."""
    context = playwright.chromium.launch_persistent_context(
        str(tmp_path / "profile"),
        executable_path=CHROMIUM,
        args=CHROMIUM_ARGS,
        viewport={"width": 390, "height": 844},
        is_mobile=True,
        has_touch=True,
    )
    yield context
    context.close()


def test_home_page_is_installable(persistent, live_server):
    page = persistent.new_page()
    page.goto(live_server + "/")
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    cdp = persistent.new_cdp_session(page)
    errors = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
    assert errors == []
    manifest = cdp.send("Page.getAppManifest")
    assert manifest["url"].endswith("/manifest.webmanifest")
    assert manifest.get("errors", []) == []


def test_a_visited_page_opens_offline_and_an_unknown_one_shows_the_offline_page(persistent, live_server):
    page = persistent.new_page()
    page.goto(live_server + "/")
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.reload()  # now under the service worker's control, the page is stored
    # A function, not an expression: the CSP forbids the eval an expression needs to be re-checked.
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    # The service worker stores a page after answering with it: wait until it is stored.
    page.wait_for_function("() => caches.match(location.href).then(found => found !== undefined)")
    persistent.set_offline(True)
    page.reload()
    # The stored home page itself, not the offline page (which has the site's link too).
    expect(page.get_by_role("heading", name="Barbu score sheet")).to_be_visible()
    expect(page.get_by_role("heading", name="No connection")).to_have_count(0)
    page.goto(live_server + "/games/new?never-visited")
    assert page.get_by_role("heading", name="No connection").is_visible()
    persistent.set_offline(False)
