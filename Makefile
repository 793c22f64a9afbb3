PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.install.stamp
PORT ?= 5000

.PHONY: venv install run test clean

venv install: $(STAMP)

# Re-install only when the dependencies change.
$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -e '.[test]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/flask --app scorepad db upgrade
	$(BIN)/flask --app scorepad run --host 127.0.0.1 --port $(PORT)

# Browser tests use Debian's Chromium; Playwright cannot download its own here.
test: $(STAMP)
	@if [ ! -x /usr/bin/chromium ] && [ "$$(id -u)" = 0 ]; then \
		apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium fonts-liberation poppler-utils; \
	fi
	$(BIN)/python -m pytest -q

clean:
	rm -rf $(VENV) *.egg-info .pytest_cache
