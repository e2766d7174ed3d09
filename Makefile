# Two commands on a fresh machine: `make run` serves the shipped data, `make test` runs every test.
# the venv's interpreter: the system's /usr/bin/python3 where it is 3.11+ and can make a venv (Debian's, built with
# PGO and LTO: a request takes 14–20 % less time, the suite 6–12 % less CPU than on pyenv's plain build), else the
# python3 on PATH; PYTHON=… picks another. Looked up only when a venv is made, not at every make
PYTHON ?= $(or $(shell /usr/bin/python3 -c 'import ensurepip, sys; assert sys.version_info >= (3, 11)' 2>/dev/null \
  && echo /usr/bin/python3),python3)
VENV := .venv
BIN := $(VENV)/bin
PORT ?= 8000
CONTRACT_EXAMPLES ?= 200
BENCH_ARGS ?=
# the suite in 4 processes (pytest-xdist), a module's tests in one of them, so that a server a module shares is
# started once: two more than the cores, as many tests wait on a server, a feed or a browser (docs/PERFORMANCE.md);
# PYTEST_WORKERS=0 runs it in this one
PYTEST_WORKERS ?= 4

# `make` alone lists the targets: the first rule below is the venv's, which nobody asks for by name
.DEFAULT_GOAL := help

.PHONY: help migrate survey run test lint test-latest tools contract smoke-local docs-screenshot screenshots bench bench-scale bench-import soak clean

help:  ## list the targets with what each does
	@grep -hE '^[a-z][a-z-]*:.*## ' $(MAKEFILE_LIST) | \
	  awk -v port=$(PORT) 'BEGIN {FS = ":.*## "} {gsub(/\$$\(PORT\)/, port, $$2); printf "  make %-16s %s\n", $$1, $$2}'

# uv installs the pinned requirements into the venv: the same packages as pip, in 13 s rather than 43 s here;
# compiled at install as pip does, since every test starts Python processes (and PYTHONDONTWRITEBYTECODE may be set)
UV_VERSION := 0.13.9
# $(call new_venv,DIR) makes a venv in DIR with uv in it; $(call uv_install,DIR) installs into it
new_venv = $(PYTHON) -m venv $(1) && $(1)/bin/python -m pip install --quiet --disable-pip-version-check uv==$(UV_VERSION)
uv_install = $(1)/bin/uv pip install --quiet --compile-bytecode --python $(1)/bin/python

$(BIN)/python:
	$(call new_venv,$(VENV))

$(VENV)/.runtime: requirements.txt | $(BIN)/python
	$(call uv_install,$(VENV)) -r requirements.txt
	touch $@

$(VENV)/.dev: requirements.txt requirements-dev.txt | $(BIN)/python
	$(call uv_install,$(VENV)) -r requirements-dev.txt
	touch $@

migrate: $(VENV)/.runtime  ## apply the database migrations to DATABASE_URL (default: instance/corridor.sqlite3)
	@$(BIN)/flask --app app db upgrade

# the shipped survey rows, each file's country pairs beside the other's: imported once (a second run finds nothing
# changed and says so)
survey: migrate  ## import the World Bank survey rows, its published averages and the money flows in data/ into DATABASE_URL
	@$(BIN)/flask --app app prices import-rpw data/rpw-east-africa-2025.csv
	@$(BIN)/flask --app app prices import-rpw data/rpw-2025q3-21-corridors.csv
	@$(BIN)/flask --app app prices import-published data/wb-rpw-corridor-average-cost-2011q1-2020q3.csv
	@$(BIN)/flask --app app flows import data/knomad-bilateral-remittance-matrix-2021.xlsx

run: survey  ## apply the database migrations, import what data/ ships, then serve on 127.0.0.1:$(PORT) with a development key it prints
	@made=; if [ -z "$$API_KEYS" ]; then \
	  API_KEYS=$$($(BIN)/python -c 'import secrets; print(secrets.token_urlsafe(24))'); export API_KEYS; made=--made-key; \
	fi; \
	$(BIN)/python -m corridor.serving.banner --port $(PORT) $$made; \
	exec $(BIN)/gunicorn -c gunicorn.conf.py --bind 127.0.0.1:$(PORT) wsgi:app

# schemathesis's and anyio's pytest plugins serve no test here (`make contract` runs schemathesis itself): not loading
# them saves each of the suite's processes about a CPU-second; and where PYTHONDONTWRITEBYTECODE is set, pytest caches
# no rewritten test module, and each process rewrites them all on every run (3.4 CPU-seconds)
test: $(VENV)/.dev tools  ## the whole suite
	PYTHONDONTWRITEBYTECODE= $(BIN)/python -m pytest -n $(PYTEST_WORKERS) --dist loadscope -p no:schemathesis \
	  -p no:anyio $(PYTEST_ARGS)

lint: $(VENV)/.dev  ## ruff's rules and format on the whole tree, mypy on the package (pyproject.toml)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

# the whole suite on the newest release of every direct dependency, in a venv of its own
test-latest: tools  ## the whole suite on the newest releases (no pins)
	rm -rf .venv-latest
	$(call new_venv,.venv-latest)
	$(call uv_install,.venv-latest) --upgrade -r requirements.in -r requirements-dev.in
	.venv-latest/bin/python -m pip list --disable-pip-version-check | grep -iE '^(alembic|apispec|babel|cachetools|click|email-validator|flask|flask-migrate|flask-smorest|flask-sqlalchemy|flask-wtf|gevent|gunicorn|marshmallow|mdit-py-plugins|openpyxl|prometheus-client|psycopg|sqlalchemy|swagger-ui-bundle|webargs|werkzeug|wtforms|hypothesis|openapi-[a-z-]+|mypy|pytest|pytest-xdist|ruff|schemathesis|selenium) '
	.venv-latest/bin/python -m pytest -n $(PYTEST_WORKERS) --dist loadscope $(PYTEST_ARGS)

# installs only as root with apt-get; anyone else is told what to install, and the tests that need a
# missing tool skip with a reason, so `make test` never needs root
tools:  ## curl and wrk from Debian (when root), for the tests that drive a real gunicorn
	@missing=""; for tool in curl wrk; do command -v $$tool >/dev/null || missing="$$missing $$tool"; done; \
	[ -z "$$missing" ] && exit 0; \
	if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null && apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; then exit 0; fi; \
	set -- $$missing; if [ $$# = 2 ]; then what="$$1 and $$2 are"; it=them; else what="$$1 is"; it=it; fi; \
	echo "$$what missing: install $$it (Debian: apt-get install$$missing); tests that need $$it will be skipped"

# one worker thread: with two, case generation died inside schemathesis in 2 of 10 runs (CPython
# 3.11's "AST constructor recursion depth mismatch", a thread-unsafe counter in its ast module);
# one thread generates the same 2,480 cases in the same ~45 s
contract: $(VENV)/.dev tools survey  ## schemathesis, all checks, against real gunicorn and the served OpenAPI document
	SCHEMATHESIS_HOOKS=scripts.contract_hooks PYTHONPATH=. BIN=$(BIN) scripts/with_server.sh sh -c '$(BIN)/st run "$$BASE_URL/api/openapi.json" --checks all --exclude-checks status_code_conformance \
	  -H "Authorization: Bearer $$API_KEY" --max-examples $(CONTRACT_EXAMPLES) --workers 1 --seed 1 --no-color'

smoke-local: $(VENV)/.runtime tools survey  ## scripts/smoke.sh against real gunicorn on loopback
	BIN=$(BIN) scripts/with_server.sh sh -c 'scripts/smoke.sh "$$BASE_URL" "$$API_KEY"'

docs-screenshot: $(VENV)/.runtime migrate  ## docs-screenshot.png of /api/docs (needs Debian's chromium)
	BIN=$(BIN) scripts/with_server.sh scripts/docs_screenshot.sh docs-screenshot.png

screenshots: $(VENV)/.dev survey  ## docs/page-*.png of / (send, receive, an error, a survey's trend; 1280 and 375 px) and docs/account-keys.png (needs chromium, chromedriver)
	BIN=$(BIN) scripts/with_server.sh $(BIN)/python scripts/page_screenshots.py docs
	BIN=$(BIN) scripts/with_server.sh sh -c 'PYTHONPATH=. $(BIN)/python scripts/account_screenshot.py docs'

bench: $(VENV)/.runtime tools survey  ## throughput and latency against a bare Flask floor (docs/PERFORMANCE.md)
	$(BIN)/python -m bench.run $(BENCH_ARGS)

bench-scale: $(VENV)/.runtime tools migrate  ## the service on 2,000 corridors: start-up, memory, p99, HUP (docs/PERFORMANCE.md)
	$(BIN)/python -m bench.scale $(BENCH_ARGS)

bench-import: $(VENV)/.dev  ## the survey import on a 200,000-row workbook: time and peak memory (docs/PERFORMANCE.md)
	$(BIN)/python -m bench.import_rpw $(BENCH_ARGS)

soak: $(VENV)/.runtime tools migrate  ## 60 s of mixed traffic: errors and worker memory growth
	$(BIN)/python scripts/soak.py

clean:  ## remove the venvs and pytest's cache
	rm -rf $(VENV) .venv-latest .pytest_cache
