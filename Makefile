PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

# compiled modules kept where the environment says not to write them
# (PYTHONDONTWRITEBYTECODE): every `symbolic` process the tests and the docs' examples
# start would otherwise compile the package from source again (0.3 s of its 0.9 s)
unexport PYTHONDONTWRITEBYTECODE

.PHONY: setup test typecheck test-slow demo fuzz fuzz-parser bench bench-chocolate bench-gdl bench-ggp clean gdl

# the environment without the old pip and setuptools that ensurepip would unpack and
# compile (seconds); this Python's pip puts the current pip in it (a pip without
# --python: ensurepip's copy, then upgraded)
$(BIN)/python:
	$(PY) -m venv --without-pip $(VENV)

$(STAMP): $(BIN)/python pyproject.toml
	$(PY) -m pip --python $(BIN)/python install -q --upgrade pip \
		|| ($(BIN)/python -m ensurepip && $(BIN)/python -m pip install -q --upgrade pip)
	$(BIN)/python -m pip install -q --no-compile -e '.[test]'
	touch $(STAMP)

setup: $(STAMP)

# static checks first (ruff lint and format, mypy: seconds), then the suite on two workers
# (pytest-xdist; a worker that runs out of tests takes some of the other's)
test: $(STAMP)
	$(BIN)/ruff check symbolic tests bench
	$(BIN)/ruff format --check symbolic tests bench
	$(BIN)/mypy
	$(BIN)/python -m pytest -n 2 --dist worksteal -m "not fuzz and not slow and not gdl_slow"

# the type check alone (also the second step of make test)
typecheck: $(STAMP)
	$(BIN)/mypy

test-slow: $(STAMP)
	$(BIN)/python -m pytest -m slow

gdl: $(STAMP)
	$(BIN)/python -m pytest -m gdl_slow tests/test_gdl.py tests/test_gdl_invariant.py tests/test_gdl_concurrent.py

fuzz: $(STAMP)
	SYMBOLIC_FUZZ_EXAMPLES=10000 $(BIN)/python -m pytest -m fuzz -s

# the parser and model fuzzer of issue 8: 10**5 hostile inputs in one process, counts printed
fuzz-parser: $(STAMP)
	$(BIN)/python -m tests.fuzz_parser 100000

demo: $(STAMP)
	$(BIN)/symbolic check models/ens2005.game --engine both --limit 5
	$(BIN)/symbolic ens2005 --u0 42

bench: $(STAMP)
	$(BIN)/python bench/run.py

bench-chocolate: $(STAMP)
	$(BIN)/python bench/chocolate.py

bench-gdl: $(STAMP)
	$(BIN)/python bench/gdl.py

# the GGP corpus (issue 36): GGP_ARGS=--limit-seconds 20 --only NAME ... (resumable)
bench-ggp: $(STAMP)
	$(BIN)/python bench/ggp_corpus.py --readme $(GGP_ARGS)

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .hypothesis
