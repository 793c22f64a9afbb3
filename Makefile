PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.install.stamp
PORT ?= 5000

.PHONY: venv install run test test-postgres bench clean translations compile-translations

venv install: $(STAMP)

# Re-install only when the dependencies change.
$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -e '.[test]'
	touch $(STAMP)

# The message catalogues (translations/<lang>/LC_MESSAGES/messages.po) are compiled on
# every run and test, so a changed .po is never served stale.
compile-translations: $(STAMP)
	@if ls translations/*/LC_MESSAGES/messages.po >/dev/null 2>&1; then $(BIN)/pybabel -q compile -d translations; fi

# Extract every _() / _l() string and merge it into the catalogues (then translate the .po files).
translations: $(STAMP)
	$(BIN)/pybabel extract -F babel.cfg -k _l -k lazy_gettext -k N_ -o translations/messages.pot .
	$(BIN)/pybabel update -i translations/messages.pot -d translations

run: $(STAMP) compile-translations
	$(BIN)/flask --app scorepad db upgrade
	$(BIN)/flask --app scorepad run --host 127.0.0.1 --port $(PORT)

# Browser tests use Debian's Chromium; Playwright cannot download its own here.
test: $(STAMP) compile-translations
	@if [ ! -x /usr/bin/chromium ] && [ "$$(id -u)" = 0 ]; then \
		apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium fonts-liberation poppler-utils; \
	fi
	$(BIN)/python -m pytest -q

# The same suite on PostgreSQL: TEST_DATABASE_URL names an empty database whose tables
# are dropped and re-created for each test (.ci/run creates one; see README, Tests).
TEST_DATABASE_URL ?= postgresql://scorepad:scorepad@127.0.0.1/scorepad_test
test-postgres: $(STAMP)
	TEST_DATABASE_URL=$(TEST_DATABASE_URL) $(BIN)/python -m pytest -q

# The club-night load benchmark (run by hand; results go in the README).
bench: $(STAMP)
	$(BIN)/python bench/club_night.py

clean:
	rm -rf $(VENV) *.egg-info .pytest_cache
