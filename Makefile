# PyTorch Release Atlas. `make help` lists the targets.
# Every target bootstraps .venv from requirements.lock (exact pins with hashes) when needed.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-$(shell sha256sum requirements.lock | cut -c1-12)
HOST   ?= 127.0.0.1
PORT   ?= 8000
export NO_MKDOCS_2_WARNING := 1

.DEFAULT_GOAL := help

$(STAMP): requirements.lock
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --require-hashes -r requirements.lock
	@rm -f $(VENV)/.installed-* && touch $@

.PHONY: help
help: ## List the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-10s %s\n", $$1, $$2}'

.PHONY: install
install: $(STAMP) ## Create .venv and install the locked dependencies

.PHONY: serve
serve: $(STAMP) ## Serve the site on http://127.0.0.1:8000/atlas/ with live reload of the changed pages only (offline too; HOST=, PORT= to change)
	$(BIN)/mkdocs serve --strict --dirty -a $(HOST):$(PORT)

.PHONY: build
build: $(STAMP) ## Build the site into site/ with --strict
	$(BIN)/mkdocs build --strict

.PHONY: check
check: $(STAMP) ## Validate data/ without building
	$(BIN)/python -m macros check

.PHONY: index
index: $(STAMP) ## Refresh data/pypi.json and data/ecosystem.json from PyPI (the only target that uses the network)
	$(BIN)/python -m macros index

.PHONY: coverage
coverage: $(STAMP) ## Per release: items by kind and facts still unknown
	$(BIN)/python -m macros coverage

.PHONY: scan-data
scan-data: $(STAMP) ## Regenerate macros/tools/scan_data.json, the data the installed scanner reads, from data/
	$(BIN)/python -m macros scandata

.PHONY: schema
schema: $(STAMP) ## Regenerate data/schema/*.json and docs/api/v1/schema/*.json from the models
	$(BIN)/python -m macros schema

OUT ?= materialized
.PHONY: materialize
materialize: $(STAMP) ## Write the site as plain files + a mkdocs.yml without hooks into OUT (exit plan)
	$(BIN)/python -m macros materialize $(OUT)

NODE_STAMP := tests/browser/node_modules/.installed
ESLINT := tests/browser/node_modules/.bin/eslint --config tests/browser/eslint.config.mjs --max-warnings 0
JS_LINTED := docs/assets/atlas.js docs/assets/atlas-env.js docs/assets/atlas-planner.js docs/assets/atlas-stack.js tests/js/

.PHONY: lint
lint: $(STAMP) $(NODE_STAMP) ## ruff check and format check; ESLint on the site's scripts and their tests
	$(BIN)/ruff check macros tests
	$(BIN)/ruff format --check macros tests
	$(ESLINT) $(JS_LINTED)

$(NODE_STAMP): tests/browser/package-lock.json | system
	npm ci --prefix tests/browser --silent --no-audit --no-fund --ignore-scripts
	@touch $@

.PHONY: system
system: ## Install what the tests need from Debian when missing: chromium (browser tests), Java (Nu checker), npm
	@missing=""; \
	command -v chromium >/dev/null 2>&1 || missing="$$missing chromium"; \
	command -v java >/dev/null 2>&1 || missing="$$missing default-jre-headless"; \
	command -v npm >/dev/null 2>&1 || missing="$$missing npm"; \
	if [ -n "$$missing" ]; then \
	  echo "installing from Debian:$$missing"; \
	  if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing >/dev/null; \
	fi

# pytest-xdist: one worker per core plus one, since a browser test's worker mostly waits for chromium
# (TEST_WORKERS=0: one process, no workers); tests that share a build or a server carry an
# xdist_group mark and run on one worker (--dist loadgroup).
TEST_WORKERS ?= $(shell echo $$(( $$(getconf _NPROCESSORS_ONLN) + 1 )))

.PHONY: test
test: system $(STAMP) $(NODE_STAMP) ## Run the whole test suite (lint, data, unit, site build, browser) on every core
	$(BIN)/ruff check macros tests
	$(BIN)/ruff format --check macros tests
	$(BIN)/python -m pytest -n $(TEST_WORKERS) --dist loadgroup

.PHONY: weight
weight: $(STAMP) ## Per page type: HTML size and first-visit bytes in chromium, against the budgets
	$(BIN)/python tests/browser/weight.py

.PHONY: bench
bench: $(STAMP) ## Build time, memory and size against plain MkDocs: real data and N=6/15/30 releases (slow)
	$(BIN)/python tests/perf/bench.py $(BENCH_ARGS)

.PHONY: scan-bench
scan-bench: $(STAMP) ## The code scanner on eleven code bases from PyPI (downloaded once), at --from 2.8 --to 2.13 and at the range read from each tree: files per second, findings, and a table of precision and recall on the hand-checked sample
	$(BIN)/python tests/perf/scan_bench.py $(SCAN_BENCH_ARGS)

.PHONY: lighthouse
lighthouse: build $(NODE_STAMP) system ## Lighthouse scores per page type, mobile and desktop (median of 3; slow, a report)
	$(BIN)/python tests/perf/lighthouse.py $(LIGHTHOUSE_ARGS)

.PHONY: lock
lock: $(STAMP) ## Re-pin requirements.lock from requirements.in (needs network to PyPI)
	$(BIN)/python -m pip install --quiet pip-tools  # maintainer tool, not part of the lock
	$(BIN)/pip-compile --quiet --generate-hashes --allow-unsafe -o requirements.lock requirements.in

.PHONY: permalinks
permalinks: build ## Add newly published URLs and anchors to tests/permalinks.txt (never removes any)
	$(BIN)/python -m macros permalinks --site site --update
