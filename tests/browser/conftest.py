"""Browser tests run the real forms: CSRF is on, so the hidden tokens and htmx's
X-CSRFToken header are exercised too. Each is marked ``browser``: ``pytest -m "not browser"``
runs the rest of the suite."""

from pathlib import Path

import pytest


@pytest.fixture
def app(app):
    app.config["WTF_CSRF_ENABLED"] = True
    return app


def pytest_collection_modifyitems(items):
    """Mark every test of this folder ``browser``."""
    here = Path(__file__).parent
    for item in items:
        if here in item.path.parents:
            item.add_marker(pytest.mark.browser)
