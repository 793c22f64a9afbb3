PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# One stamp per install set: what running needs (`pip install -e .`) and that plus the test
# extras (`.[test]`: pytest, Playwright, Hypothesis, Schemathesis, the linters).
RUN_STAMP := $(VENV)/.install-run.stamp
TEST_STAMP := $(VENV)/.install-test.stamp
# Test workers (pytest-xdist): one per core; `make test TEST_WORKERS=0` runs in one process.
TEST_WORKERS ?= auto
# `make run HOST=0.0.0.0` serves the phones on the local network (and prints their address).
HOST ?= 127.0.0.1
PORT ?= 5000

.PHONY: venv install system-deps run dev lint test test-postgres bench bench-events bench-club bench-federation clean translations compile-translations

venv install: $(RUN_STAMP)

# Re-install only when the dependencies change; a venv with the test extras installed since
# then has everything running needs.
$(RUN_STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	if [ ! $(TEST_STAMP) -nt pyproject.toml ]; then $(BIN)/pip install -e .; fi
	touch $@

$(TEST_STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -e '.[test]'
	touch $@ $(RUN_STAMP)

# The message catalogues (translations/<lang>/LC_MESSAGES/messages.po) are compiled on
# every run and test, so a changed .po is never served stale.
compile-translations: $(RUN_STAMP)
	@if ls translations/*/LC_MESSAGES/messages.po >/dev/null 2>&1; then $(BIN)/pybabel -q compile -d translations; fi

# Extract every _() / _l() string and merge it into the catalogues (then translate the .po files).
translations: $(RUN_STAMP)
	$(BIN)/pybabel extract -F babel.cfg -k _l -k lazy_gettext -k lazy_pgettext:1c,2 -k N_ -o translations/messages.pot .
	$(BIN)/pybabel update -i translations/messages.pot -d translations

# Debian packages: pango for the PDF score sheet (WeasyPrint) on every run; Chromium,
# fonts, poppler-utils (pdfinfo, pdftotext, pdftoppm) and nginx (tests/test_deploy.py runs
# deploy/nginx/ in front of gunicorn) for the tests. Installed when missing and root;
# otherwise a note says what to install.
PANGO_DEBS := libpango-1.0-0 libpangoft2-1.0-0 fonts-dejavu-core fonts-liberation
TEST_DEBS := chromium poppler-utils nginx-light
system-deps:
	@if ! ldconfig -p | grep -q libpangoft2-1.0; then \
		if [ "$$(id -u)" = 0 ]; then apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y $(PANGO_DEBS); \
		else echo "PDF downloads need: apt-get install $(PANGO_DEBS)"; fi; \
	fi

# The production server, as the Procfile runs it: gunicorn with ./gunicorn.conf.py (gevent
# workers, one per core), so a club night on a laptop is served as a server would serve it.
run: $(RUN_STAMP) compile-translations system-deps
	$(BIN)/flask --app scorepad db upgrade
	@$(BIN)/flask --app scorepad addresses --host $(HOST) --port $(PORT)
	$(BIN)/gunicorn --bind $(HOST):$(PORT) "scorepad:create_app()"

# For changing the code: Flask's development server in debug mode, which restarts itself when
# a Python file changes and re-reads templates, CSS and JS on each request (scorepad/web/assets.py),
# and shows a traceback page with Werkzeug's debugger: keep HOST at 127.0.0.1. Not for a
# night's phones: it has no bounds on slow clients.
dev: $(RUN_STAMP) compile-translations system-deps
	$(BIN)/flask --app scorepad db upgrade
	@$(BIN)/flask --app scorepad addresses --host $(HOST) --port $(PORT)
	$(BIN)/flask --app scorepad run --debug --host $(HOST) --port $(PORT)

# The static checks, in this order (each stops the run): lint, formatting (`ruff format` fixes
# it), types of the app, the import contracts (pyproject.toml, [tool.importlinter]).
lint: $(TEST_STAMP)
	$(BIN)/ruff check
	$(BIN)/ruff format --check
	$(BIN)/mypy scorepad
	$(BIN)/lint-imports

# The checks, then the whole suite. Browser tests use Debian's Chromium; Playwright cannot
# download its own here.
test: lint compile-translations system-deps
	@if { [ ! -x /usr/bin/chromium ] || ! command -v pdftoppm >/dev/null || [ ! -x /usr/sbin/nginx ]; } && [ "$$(id -u)" = 0 ]; then \
		apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y $(TEST_DEBS) $(PANGO_DEBS); \
	fi
	$(BIN)/python -m pytest -q -n $(TEST_WORKERS) -m "not postgresql"

# The same suite on PostgreSQL, pytest only (the checks do not depend on the database):
# TEST_DATABASE_URL names an empty database whose tables are dropped and re-created for each
# test (.ci/run creates one; see docs/development.md, Tests).
TEST_DATABASE_URL ?= postgresql://scorepad:scorepad@127.0.0.1/scorepad_test
# Browser, PDF, fuzz and server tests run once, in the SQLite pass (`make test`): this pass is
# for what touches the database.
test-postgres: $(TEST_STAMP) compile-translations
	TEST_DATABASE_URL=$(TEST_DATABASE_URL) $(BIN)/python -m pytest -q -n $(TEST_WORKERS) -m "not browser and not pdf and not fuzz and not server"

# The board load benchmark: board polls and saves of an evening (run by hand; results go in bench/README.md).
bench: $(TEST_STAMP)
	$(BIN)/python bench/board_load.py

# The club night's load benchmark: 20 tables of one night saving while 500 viewers poll its event board.
bench-events: $(TEST_STAMP)
	$(BIN)/python bench/event_load.py

# A club's season: 60 members and 2,000 games bulk-imported; its pages' p95, a save's p99 while they load.
bench-club: $(TEST_STAMP)
	$(BIN)/python bench/club_load.py

# Federation night: PostgreSQL, two gunicorn instances and nginx (deploy/) on loopback, as root.
bench-federation: $(TEST_STAMP)
	$(BIN)/python bench/federation.py

clean:
	rm -rf $(VENV) *.egg-info .pytest_cache
