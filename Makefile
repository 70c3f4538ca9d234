# The two entry points of the README: `make run` (main job) and `make test`.
# Each creates ./.venv on first use and installs what it needs into it.
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
OUT    ?= runs/default

.PHONY: run test lint bench clean-venv

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip

# torch is pinned to the CPU build that this machine keeps on disk; any torch>=2.4 works.
$(VENV)/.installed-run: pyproject.toml | $(PY)
	$(PY) -m pip install -q -e '.[hf,plots]'
	touch $@

$(VENV)/.installed-test: pyproject.toml | $(PY)
	$(PY) -m pip install -q 'torch==2.13.0'
	$(PY) -m pip install -q -e '.[hf,plots,dev,transformers,openai]'
	touch $@ $(VENV)/.installed-run

run: $(VENV)/.installed-run
	$(PY) run_eval.py main --out $(OUT)

test: $(VENV)/.installed-test
	$(PY) -m ruff check .
	$(PY) -m pytest

bench: $(VENV)/.installed-test
	for b in benchmarks/bench_*.py; do echo "== $$b"; $(PY) $$b || exit 1; done

clean-venv:
	rm -rf $(VENV)
