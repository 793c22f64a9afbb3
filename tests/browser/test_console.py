"""No page logs a console error, in any language or layout (issue 13).

One phone-sized context (390×844, touch) walks every page of the scorepad in English,
French, German and Dutch: the home page, a new game, the scorer's page with rounds, the
round form (a Save, an Undo, and an edit of an earlier round), the round page, the board and its share page,
the TV screen at 1920×1080, the score sheet (filled and blank), the presets (list, new, edit, import), the
offline page and a 404. Every console message of type error, every uncaught exception and
every Content-Security-Policy violation (a securitypolicyviolation event, e.g. an inline
style htmx or a template would apply) is collected; the test fails on any, naming the page."""

import json
import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.browser.test_csp import page_paths

EXAMPLE = json.loads((Path(__file__).parent.parent / "data" / "examples" / "tournament-full.json").read_text())
LANGUAGES = ("en", "fr", "de", "nl")
PHONE = {"width": 390, "height": 844}
TV = {"width": 1920, "height": 1080}

# Collects securitypolicyviolation events before any page script runs; they survive in
# sessionStorage across page loads, so a violation just before a navigation is not lost.
LISTEN = """
document.addEventListener("securitypolicyviolation", function (e) {
  var seen = JSON.parse(sessionStorage.getItem("__csp") || "[]");
  seen.push(location.pathname + ": " + e.violatedDirective + " " + (e.blockedURI || "inline") + " "
            + (e.sourceFile || "") + ":" + e.lineNumber + " " + (e.sample || ""));
  sessionStorage.setItem("__csp", JSON.stringify(seen));
});
"""


@pytest.fixture
def phone_context(browser, playwright):
    """One phone context for the whole walk (iPhone 13 metrics, touch, 390×844)."""
    device = {k: v for k, v in playwright.devices["iPhone 13"].items() if k != "default_browser_type"}
    context = browser.new_context(**{**device, "viewport": PHONE})
    context.add_init_script(LISTEN)
    yield context
    context.close()


class Console:
    """What the page said: console errors, uncaught exceptions, CSP violations, each with
    the page (the step of the walk) it happened on."""

    def __init__(self, page: Page):
        self.page = page
        self.step = "start"
        self.expected_failure = ""  # the address of a page visited for its error status (a 404)
        self.problems: list[str] = []
        page.on("console", self.on_console)
        page.on("pageerror", lambda exc: self.problems.append(f"{self.step}: uncaught {exc}"))

    def on_console(self, msg) -> None:
        text = msg.text
        # Chromium logs the error status of the page itself, which the 404 visits ask for.
        if text.startswith("Failed to load resource") and msg.location.get("url") == self.expected_failure:
            return
        if msg.type == "error" or "Content Security Policy" in text or "Content-Security-Policy" in text:
            self.problems.append(f"{self.step}: console {msg.type}: {text}")

    def settled(self) -> None:
        """Wait until htmx has no request in flight (a load-triggered preview, a poll)."""
        self.page.wait_for_load_state("load")
        self.page.wait_for_function("() => !document.querySelector('.htmx-request, .htmx-settling, .htmx-swapping')")

    def visit(self, base: str, path: str, status: int = 200) -> None:
        self.step = path
        self.expected_failure = base + path if status >= 400 else ""
        response = self.page.goto(base + path)
        assert response is not None and response.status == status, (path, response and response.status)
        self.settled()

    def csp_violations(self) -> list[str]:
        return self.page.evaluate("JSON.parse(sessionStorage.getItem('__csp') || '[]')")


def create_game(app) -> tuple[str, str]:
    """The tournament example's first three rounds, started through the API: (edit, view)."""
    doc = {**EXAMPLE["game"], "rounds": EXAMPLE["game"]["rounds"][:3]}
    response = app.test_client().post("/api/v1/games", json=doc)
    assert response.status_code == 201, response.get_json()
    body = response.get_json()
    return body["edit_token"], body["view_token"]


def choose_language(console: Console, base: str, lang: str) -> None:
    """The footer's language switch (a plain form POST; the choice sticks in the session)."""
    console.visit(base, "/")
    console.step = f"/ (language {lang})"
    console.page.locator(f".language-switch button[value='{lang}']").tap()
    expect(console.page.locator("html")).to_have_attribute("lang", lang)
    console.settled()


def save_and_undo(console: Console, base: str, edit: str) -> None:
    """Round 4 (Beth declares the Barbu: Marc took the K♥, Anne doubled Beth), saved
    through htmx, then undone, so each language finds the same game."""
    page = console.page
    barbu = page.locator("a[data-contract='no-king-of-hearts']")
    console.visit(base, f"/g/{edit}")
    console.step = f"/g/{edit} (choose, save)"
    barbu.tap()
    form = page.locator("form.round-form")
    form.locator("input[name='king'][value='3']").tap()
    form.locator("input[name='doubles'][value='1-2']").tap()
    expect(form.locator("#preview tr.strong td")).to_have_count(4)
    console.settled()
    form.locator("button.btn-primary[type='submit']").tap()
    expect(barbu).to_have_count(0)  # saved: Beth has declared the Barbu
    console.settled()
    console.step = f"/g/{edit} (undo)"
    page.once("dialog", lambda dialog: dialog.accept())
    page.locator("form.undo-form button[type='submit']").first.tap()
    expect(barbu).to_have_count(1)  # undone: the Barbu is hers to declare again
    console.settled()


def edit_round(console: Console, base: str, edit: str) -> None:
    """Round 2's edit form, saved unchanged (a plain form POST answered 303, or htmx)."""
    page = console.page
    console.visit(base, f"/g/{edit}/rounds/2/edit")
    console.step = f"/g/{edit}/rounds/2/edit (save)"
    with page.expect_response(lambda r: r.request.method == "POST" and r.url.endswith("/rounds/2/edit")) as answer:
        page.locator("form.round-form button.btn-primary[type='submit']").tap()
    if answer.value.status == 303:
        page.wait_for_url(lambda url: not url.endswith("/edit"))
    console.settled()


def make_preset(console: Console, base: str) -> str:
    """A preset saved from the editor by this device (so it may edit it): its edit path."""
    page = console.page
    console.visit(base, "/presets/new")
    console.step = "/presets/new (save)"
    page.locator("input[name='name']").fill("Thursday club")
    with page.expect_navigation():
        page.locator("button.btn-primary[type='submit']").tap()
    console.settled()
    href = page.locator("a[href$='/edit']").first.get_attribute("href")
    assert href and re.fullmatch(r"/presets/[^/]+/edit", href), href
    return href


def test_no_page_logs_a_console_error_in_any_language(app, live_server, phone_context):
    page = phone_context.new_page()
    console = Console(page)
    edit, view = create_game(app)
    preset_edit = None
    for lang in LANGUAGES:
        choose_language(console, live_server, lang)
        # test_csp's pages (the TV screen among them, here at phone size too), and the others.
        extra = [f"/b/share/{edit}", f"/s/{view}/blank", "/presets/tournament", "/presets/import"]
        for path in [*page_paths(edit, view), *extra]:
            console.visit(live_server, path)
        save_and_undo(console, live_server, edit)
        edit_round(console, live_server, edit)
        preset_edit = preset_edit or make_preset(console, live_server)
        console.visit(live_server, preset_edit)
        console.visit(live_server, "/no-such-page", status=404)
        console.visit(live_server, "/g/no-such-game-token", status=404)
        # The board on a TV: 1920×1080, then back to the phone.
        page.set_viewport_size(TV)
        console.visit(live_server, f"/b/{view}/screen")
        page.set_viewport_size(PHONE)
    assert console.problems == [] and console.csp_violations() == []


def test_quick_taps_on_a_slow_network_log_nothing(app, live_server, phone_context):
    """A scorer taps faster than a slow Wi-Fi answers the settlement preview: each tap asks
    for one, and an aborted request (htmx's ``hx-sync`` replace) logs htmx:sendAbort and
    htmx:afterRequest as console errors. The preview queues the last tap instead: nothing is
    logged, and the preview shown is the last tap's (Marc, who took the K♥, scores −20)."""
    page = phone_context.new_page()
    console = Console(page)
    edit, _ = create_game(app)
    console.visit(live_server, f"/g/{edit}")
    page.locator("a[data-contract='no-king-of-hearts']").tap()
    form = page.locator("form.round-form")
    form.locator("input[name='king'][value='0']").tap()
    expect(form.locator("#preview tr.strong td")).to_have_count(4)
    console.settled()
    cdp = phone_context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send(
        "Network.emulateNetworkConditions",
        {"offline": False, "latency": 400, "downloadThroughput": -1, "uploadThroughput": -1},
    )
    console.step = f"/g/{edit} (quick taps, 400 ms latency)"
    for seat in ("1", "2", "3"):  # each tap before the last one's preview is back
        form.locator(f"input[name='king'][value='{seat}']").tap()
    console.settled()
    strong = form.locator("#preview tr.strong td")
    expect(strong.nth(3)).to_have_text("−20")
    cdp.send(
        "Network.emulateNetworkConditions",
        {"offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1},
    )
    assert console.problems == [] and console.csp_violations() == []
