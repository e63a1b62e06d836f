# Set-up and entry points. `make run` and `make test` install whatever is missing first.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
HOST ?= 127.0.0.1
PORT ?= 5000
PYTEST_ARGS ?=
# The suite mostly waits on servers and browsers, so more workers than cores pays off.
PYTEST_WORKERS ?= 4
# A test module's tests all go to one worker, so its module-scoped server starts once, not on
# every worker that happened to get one of its tests.
PYTEST_DIST ?= loadfile
# `make test` lets Python keep compiled modules even where the environment says not to
# (PYTHONDONTWRITEBYTECODE): every worker otherwise compiles, and pytest rewrites the asserts
# of, every test module on each run, most of a minute of CPU per worker.

.PHONY: messages translations run dist test test-slow test-cluster cluster cluster-stop lint format typecheck clean

# --- set-up ---------------------------------------------------------------

$(PY):
	@$(PYTHON) -c 'import sys; assert sys.version_info >= (3, 11), "Python 3.11 or newer is needed (set PYTHON=...)"'
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

$(VENV)/.installed: pyproject.toml | $(PY)
	$(PY) -m pip install --quiet -e .
	@touch $@

$(VENV)/.installed-dev: pyproject.toml | $(PY)
	$(PY) -m pip install --quiet -e '.[dev]'
	@touch $@ $(VENV)/.installed

# npm writes node_modules/.package-lock.json on every install: a fresh stamp for free.
node_modules/.package-lock.json: package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error

# --- translations -----------------------------------------------------------
# The catalogs' sources (.po) are kept in git; the compiled .mo files are made here, as part of
# set-up, so `make run` and `make test` work on a fresh clone (docs/i18n.md).
LANGUAGES := fr de es pt sv
PYBABEL := $(VENV)/bin/pybabel
CATALOGS := $(wildcard translations/*/LC_MESSAGES/*.po)

translations/.compiled: $(CATALOGS) | $(VENV)/.installed
	$(PYBABEL) -q compile -d translations -D messages
	$(PYBABEL) -q compile -d translations -D js
	@touch $@

translations: translations/.compiled

# Extract every marked message into the two templates (translations/*.pot, not kept in git),
# then bring each language's catalog up to date with them (a new language's catalog is made on
# the way). Unwrapped lines and no new date when nothing changed: a catalog's diff is its change.
messages: $(VENV)/.installed-dev
	$(PYBABEL) -q extract -F babel.cfg -k say -k say_in:1c,2 -k say_n:1,2 \
		--no-location --no-wrap --sort-output --project chess-threats -o translations/messages.pot .
	$(PYBABEL) -q extract -F babel_js.cfg --no-default-keywords -k t -k tn:1,2 \
		--no-location --no-wrap --sort-output --project chess-threats -o translations/js.pot .
	@for lang in $(LANGUAGES); do for domain in messages js; do \
		if [ -f translations/$$lang/LC_MESSAGES/$$domain.po ]; then \
			$(PYBABEL) -q update --no-fuzzy-matching --ignore-obsolete --no-wrap --ignore-pot-creation-date -D $$domain -l $$lang \
				-i translations/$$domain.pot -d translations; \
		else \
			$(PYBABEL) -q init --no-wrap -D $$domain -l $$lang -i translations/$$domain.pot -d translations; \
		fi; done; done

# --- entry points -----------------------------------------------------------

run: $(VENV)/.installed node_modules/.package-lock.json translations/.compiled
	$(PY) -m server --host $(HOST) --port $(PORT)

# A wheel that runs with no checkout and no npm: setup.py copies templates/, static/ and the
# served node_modules files into it. No build isolation, so it builds offline from the venv.
dist: $(VENV)/.installed-dev node_modules/.package-lock.json translations/.compiled
	rm -rf build
	$(PY) -m pip wheel --quiet --no-deps --no-build-isolation --wheel-dir dist .

test: $(VENV)/.installed-dev node_modules/.package-lock.json translations/.compiled
	@CHROMIUM_PATH="$$($(PY) -m tests.support.chromium)" || exit 1; \
	echo "Chromium for the browser tests: $$CHROMIUM_PATH"; \
	CHROMIUM_PATH="$$CHROMIUM_PATH" PYTHONDONTWRITEBYTECODE= \
	$(PY) -m pytest -n $(PYTEST_WORKERS) --dist $(PYTEST_DIST) $(PYTEST_ARGS)

test-slow: PYTEST_ARGS = -m slow
test-slow: test

# PostgreSQL, Redis and nginx started by the tests themselves; skipped (saying why) where the
# servers are missing, failed instead when CI=true.
test-cluster: $(VENV)/.installed-dev node_modules/.package-lock.json translations/.compiled
	$(PY) -m pytest -m cluster $(PYTEST_ARGS)

# A local cluster to try: PostgreSQL, Redis, two server processes and nginx on 127.0.0.1.
cluster: $(VENV)/.installed-dev node_modules/.package-lock.json translations/.compiled
	$(PY) -m deploy.cluster start

cluster-stop:
	$(PY) -m deploy.cluster stop

# The front end too: TypeScript checks static/js's JSDoc types (tsconfig.json) and ESLint lints
# it (eslint.config.mjs), both from the npm dev dependencies `npm ci` installs.
lint: $(VENV)/.installed-dev node_modules/.package-lock.json
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	npx --no -- tsc --noEmit -p .
	npx --no -- eslint --max-warnings 0 static/js

format: $(VENV)/.installed-dev
	$(VENV)/bin/ruff format .
	$(VENV)/bin/ruff check --fix .

typecheck: $(VENV)/.installed-dev
	$(VENV)/bin/mypy

clean:
	rm -rf $(VENV) node_modules artifacts .pytest_cache .mypy_cache .ruff_cache
