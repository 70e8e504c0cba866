# The two commands of the README: `make run` and `make test`. Both install what they need.
VENV ?= .venv
PYTHON ?= python3
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-stamp

.PHONY: install run test faults lint bench clean

# `make run` installs the runtime alone (pip install -e .); `make test` adds the dev toolchain
# (pytest, ruff, mypy, playwright, the semantic extra). Each has its stamp, so a run after a
# test installs nothing more, and pip's own progress shows on the long step.
DEV_STAMP := $(VENV)/.installed-dev-stamp

$(VENV)/bin/python:
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "Paper Club needs Python 3.11 or newer")'
	@echo "Creating $(VENV) ..."
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

$(STAMP): pyproject.toml $(VENV)/bin/python
	@echo "Installing Paper Club and what it needs to run (about a minute the first time) ..."
	$(PY) -m pip install --progress-bar on -e .
	@touch $(STAMP)

$(DEV_STAMP): pyproject.toml $(STAMP)
	@echo "Installing the development tools (pytest, ruff, mypy, playwright, the semantic extra) ..."
	$(PY) -m pip install --progress-bar on -e '.[dev]'
	@touch $(DEV_STAMP)

install: $(STAMP)

run: install
	$(VENV)/bin/paperclub run

lint: $(DEV_STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy

# A file to a worker (module fixtures stay whole), one worker more than there are cores: most
# tests wait on a fake's answer, a subprocess or a coalescing interval (one worker a core kept
# two cores ~70% busy), so the extra one overlaps those waits: 4:43 -> 4:18 on two cores
# (a fourth worker gained nothing more).
WORKERS ?= $(shell expr $$(nproc 2>/dev/null || echo 1) + 1)
# The fault tests (tests/faults: real processes killed with -9, replicas, floods) are a stage
# of their own, run by CI after this one: the plain suite stays under five minutes on two cores.
test: lint
	$(VENV)/bin/pytest -n $(WORKERS) --dist loadfile --ignore=tests/faults

faults: $(DEV_STAMP)
	$(VENV)/bin/pytest -n $(WORKERS) --dist loadfile tests/faults

bench: $(DEV_STAMP)
	$(PY) -m bench

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .mypy_cache .ruff_cache
