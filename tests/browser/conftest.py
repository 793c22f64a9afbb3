"""Browser tests run the real forms: CSRF is on, so the hidden tokens and htmx's
X-CSRFToken header are exercised too."""

from pathlib import Path

import pytest


@pytest.fixture
def app(app):
    app.config["WTF_CSRF_ENABLED"] = True
    return app


def pytest_collection_modifyitems(items):
    """A browser test whose Playwright action times out gets one more try, and only then.

    In CI (the PostgreSQL pass, twice in three runs) headless Chromium stopped producing
    frames in the middle of a long browser game: the page still ran its scripts (locators
    resolved), but no tap could see its element "stable" and even a screenshot timed out.
    Not reproduced in isolation, and no script of ours was found looping. Only a Playwright
    ``TimeoutError`` (an action that never happened) is retried; a wrong value on the page
    (``expect`` raises AssertionError) fails at once, as does a second timeout."""
    browser_dir = Path(__file__).parent
    for item in items:
        if browser_dir in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.flaky(reruns=1, only_rerun=["TimeoutError"]))
