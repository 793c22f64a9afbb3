"""Offline after one visit (issue 26, item 10), in Chromium on a phone: the service worker
installs once the first page has loaded, so that page never came through it and was not
stored; a Wi-Fi drop then showed "This page is not stored on this phone yet", and the offline
page stayed on "No connection" once the network was back. The first visit now stores the page
it opened, and the offline page opens the page asked for by itself when the network returns."""

from playwright.sync_api import expect

from tests.browser.test_offline import start

NOT_STORED = "This page is not stored on this phone yet"


def test_a_scorer_page_opened_once_opens_without_a_connection(app, live_server, phone, screenshot_dir):
    page = phone
    start(app, live_server, page)  # the first page this phone opens on the site
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    # Stored without a second visit: the page asked the new service worker to store it, and is
    # told once it is stored. (Waiting for the page to be found in the cache instead was not
    # enough: under load the page found the entry while the worker's write of it had not ended,
    # and the worker, asked for the page at once without a connection, did not find it.)
    page.wait_for_function("() => document.documentElement.hasAttribute('data-stored-offline')", timeout=10000)
    assert page.evaluate("caches.match(location.href).then(found => found !== undefined)")
    page.context.set_offline(True)
    page.reload()
    expect(page.locator("h1")).to_have_text("Anne · Béatrice · Cath · Diana")
    expect(page.locator("a[data-contract='no-last-two']")).to_be_visible()
    expect(page.get_by_text(NOT_STORED)).to_have_count(0)
    page.screenshot(path=str(screenshot_dir / "offline-first-visit-390.png"))
    page.context.set_offline(False)


def test_the_offline_page_opens_the_page_by_itself_when_the_network_is_back(app, live_server, phone, screenshot_dir):
    page = phone
    page.goto(live_server + "/")
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    page.context.set_offline(True)
    # A game this phone never opened, asked for without a connection: the offline page, at its address.
    _, token = start(app, live_server, page)
    expect(page.get_by_role("heading", name="No connection")).to_be_visible()
    expect(page.get_by_text(NOT_STORED)).to_be_visible()
    assert page.url == f"{live_server}/g/{token}"
    page.screenshot(path=str(screenshot_dir / "offline-not-stored-390.png"))
    page.context.set_offline(False)
    # Nobody taps anything: the game's page replaces the offline page.
    expect(page.locator("h1")).to_have_text("Anne · Béatrice · Cath · Diana", timeout=10000)
    expect(page.locator("a[data-contract='no-last-two']")).to_be_visible()
    assert page.url == f"{live_server}/g/{token}"
