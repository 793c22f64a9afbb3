"""Browser tests run the real forms: CSRF is on, so the hidden tokens and htmx's
X-CSRFToken header are exercised too."""

import pytest


@pytest.fixture
def app(app):
    app.config["WTF_CSRF_ENABLED"] = True
    return app
