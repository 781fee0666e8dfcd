# Two commands on a fresh machine (python3 >= 3.10, node + npm for the end-to-end tests):
#   make demo   set up, then show what forewarn injects for a Write to .claude-plugin/plugin.json and why
#   make test   set up, then run every test, the real Claude Code end-to-end tests included
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python

.PHONY: setup demo test bench clean

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $@

setup: $(VENV)/.installed

demo: setup
	@echo "== A Write to .claude-plugin/plugin.json (the version-bump checklist fires)"
	@FOREWARN_DATA_DIR=$$(mktemp -d) $(PY) -m forewarn explain --tool Write --file .claude-plugin/plugin.json --content '{"name": "forewarn", "version": "0.2.0"}'
	@echo
	@echo "== A Write to README.md (the same checklist is gated out)"
	@FOREWARN_DATA_DIR=$$(mktemp -d) $(PY) -m forewarn explain --tool Write --file README.md --content 'forewarn 0.2.0 is out: see the new version'

test: setup
	$(PY) -m pytest

bench: setup
	$(PY) benchmarks/run_hook_bench.py
	$(PY) -m pytest benchmarks -p no:cacheprovider --benchmark-only

clean:
	rm -rf $(VENV) .cache .pytest_cache .benchmarks
