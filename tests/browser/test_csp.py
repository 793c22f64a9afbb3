"""The strict Content-Security-Policy (scorepad/security.py) breaks nothing: every page, and
the htmx swaps on it, load in Chromium without a single CSP violation."""

import json
from pathlib import Path

import pytest
from playwright.sync_api import expect

from scorepad.extensions import db
from scorepad.services import games

EXAMPLE = json.loads((Path(__file__).parent.parent / "data" / "examples" / "tournament-full.json").read_text())

# Chromium reports a blocked script, style, frame or connection with one of these.
CSP_WORDS = ("Content Security Policy", "Content-Security-Policy", "Refused to")

# Collects securitypolicyviolation events before any page script runs.
LISTEN = """
window.__csp = [];
document.addEventListener("securitypolicyviolation", function (e) {
  window.__csp.push(e.violatedDirective + " " + (e.blockedURI || "inline") + " "
                    + (e.sourceFile || "") + ":" + e.lineNumber);
});
"""


@pytest.fixture
def tokens(app):
    """A game with three rounds (edit and view tokens)."""
    doc = {**EXAMPLE["game"], "rounds": EXAMPLE["game"]["rounds"][:3]}
    with app.app_context():
        stored, _ = games.create_game(doc)
        tokens = stored.edit_token, stored.view_token
        db.session.remove()
    return tokens


def page_paths(edit: str, view: str) -> list[str]:
    return [
        "/",
        "/games/new",
        f"/g/{edit}",
        f"/g/{edit}/rounds/new?contract=domino",
        f"/g/{edit}/rounds/new?contract=trumps",
        f"/g/{edit}/rounds/1",
        f"/g/{edit}/rounds/2/edit",
        f"/g/{view}",
        "/presets",
        "/presets/new",
        f"/b/{view}",
        f"/b/{view}/screen",
        f"/s/{view}",
        "/offline",
    ]


def test_no_page_breaks_the_content_security_policy(live_server, phone, tokens):
    edit, view = tokens
    messages: list[str] = []
    phone.on("console", lambda msg: messages.append(f"{msg.type}: {msg.text}"))
    phone.on("pageerror", lambda exc: messages.append(f"pageerror: {exc}"))
    phone.add_init_script(LISTEN)
    seen = []
    for path in page_paths(edit, view):
        response = phone.goto(live_server + path)
        assert response.status == 200, path
        assert "script-src 'self'" in response.headers["content-security-policy"]
        seen.append((path, phone.evaluate("window.__csp")))
    # htmx at work under the policy: pick a contract (a swap), then go back to the game page.
    phone.goto(live_server + f"/g/{edit}")
    phone.locator("a[data-contract]").first.tap()
    phone.locator("form.round-form").wait_for()
    seen.append(("htmx swap", phone.evaluate("window.__csp")))
    violations = [(path, v) for path, found in seen for v in found]
    csp_console = [m for m in messages if any(word in m for word in CSP_WORDS)]
    assert violations == [] and csp_console == []


def test_a_save_applies_no_inline_style_even_to_elements_styled_through_the_cssom(live_server, phone, tokens):
    """htmx's settle copies an old element's settled attributes onto its same-id replacement
    with setAttribute; a copied ``style`` is an inline style the policy refuses, logged on
    every Save once a script, the browser or an extension styled such an element through the
    CSSOM (which the policy allows). base.html settles class, width and height only."""
    edit, _view = tokens
    messages: list[str] = []
    phone.on("console", lambda msg: messages.append(f"{msg.type}: {msg.text}"))
    phone.add_init_script(LISTEN)
    phone.goto(live_server + f"/g/{edit}")
    phone.locator("a[data-contract='no-king-of-hearts']").tap()
    form = phone.locator("form.round-form")
    form.locator("input[name='king'][value='3']").tap()
    expect(form.locator("#preview tr.strong td")).to_have_count(4)
    styled = phone.evaluate(
        "() => { const els = document.querySelectorAll('#game_live [id]');"
        " els.forEach(e => { e.style.outlineOffset = '1px'; }); return els.length; }"
    )
    assert styled > 5
    form.locator("button.btn-primary[type='submit']").tap()
    expect(phone.locator("form.undo-form button").first).to_contain_text("4")
    csp_console = [m for m in messages if any(word in m for word in CSP_WORDS)]
    assert phone.evaluate("window.__csp") == [] and csp_console == []
