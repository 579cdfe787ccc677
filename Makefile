# Every target does its own set-up: virtualenv, install, code generation. Serving (make run,
# make demo) installs only the runtime dependencies and the code generator; make play adds the
# terminal's drawing library; make test, lint and the rest add the development tools.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
# Where make run serves gRPC: CRABGAMES_ADDRESS, which every client and example reads too.
ADDRESS ?= $(or $(CRABGAMES_ADDRESS),127.0.0.1:50051)
# Connect, gRPC-Web (and the web page) over HTTP beside gRPC: make run HTTP_ADDRESS=off to leave
# out. Taken, it moves to a free port and make run says where (--http-fallback).
HTTP_ADDRESS ?= $(or $(CRABGAMES_HTTP_ADDRESS),127.0.0.1:8080)
PROTOS := $(wildcard protos/crabgames/v1/*.proto)
INSTALLED := $(VENV)/.installed
INSTALLED_PLAY := $(VENV)/.installed-play
INSTALLED_AGENTS := $(VENV)/.installed-agents
INSTALLED_DEV := $(VENV)/.installed-dev
INSTALLED_COMPILE := $(VENV)/.installed-compile
# The compiled build of the rules (crabgames.compiled): remade when any source it compiles changes.
COMPILED := server/crabgames/.compiled/manifest.json
COMPILED_SOURCES := server/crabgames/compiled.py \
	$(shell find server/crabgames/core server/crabgames/games server/crabgames/service -name '*.py' 2>/dev/null)
PIP_INSTALL := $(PY) -m pip install --quiet --disable-pip-version-check
GENERATED := server/crabgames/v1/.generated
PYTEST_ARGS ?=
GAME ?= kraby
PLAY_ARGS ?=
NODE_DEPS := clients/node/node_modules/.installed
# The web page (clients/web, docs/clients.md): its TypeScript client generated from protos/ by
# buf and protoc-gen-es (never committed: made by the build, so never stale), bundled by esbuild.
WEB := clients/web
WEB_DEPS := $(WEB)/node_modules/.installed
WEB_BUNDLE := $(WEB)/dist/.built
WEB_SOURCES := $(wildcard $(WEB)/src/*.ts $(WEB)/src/*.json $(WEB)/src/games/*.ts) \
	$(wildcard docs/rules/*.md) $(WEB)/index.html \
	$(WEB)/style.css $(WEB)/build.mjs $(WEB)/buf.gen.yaml $(WEB)/tsconfig.json

.PHONY: compiled web web-if-npm setup setup-play setup-agents setup-dev readme-check run test protos lint format bench bench-quick h2load clean play demo typecheck fuzz-large load-large attack

setup: $(GENERATED)
setup-play: $(GENERATED) $(INSTALLED_PLAY)
# The learning agents' packages (docs/agents.md): numpy, gymnasium, PettingZoo, OpenSpiel.
setup-agents: $(GENERATED) $(INSTALLED_AGENTS)
setup-dev: $(GENERATED) $(INSTALLED_DEV)

$(INSTALLED): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PIP_INSTALL) -e '.[gen]'
	touch $@

$(INSTALLED_PLAY): $(INSTALLED)
	$(PIP_INSTALL) -e '.[gen,play]'
	touch $@

$(INSTALLED_AGENTS): $(INSTALLED)
	$(PIP_INSTALL) -e '.[gen,agents]'
	touch $@

$(INSTALLED_COMPILE): $(INSTALLED)
	$(PIP_INSTALL) -e '.[gen,compile]'
	touch $@

$(INSTALLED_DEV): $(INSTALLED)
	$(PIP_INSTALL) -e '.[dev]'
	touch $@ $(INSTALLED_PLAY) $(INSTALLED_AGENTS) $(INSTALLED_COMPILE)

$(GENERATED): $(INSTALLED) $(PROTOS)
	rm -rf server/crabgames/v1
	mkdir -p server/crabgames/v1
	PATH="$(abspath $(VENV))/bin:$$PATH" $(PY) -m grpc_tools.protoc -I protos \
		--python_out=server --grpc_python_out=server \
		--mypy_out=server --mypy_grpc_out=server $(PROTOS)
	# Connect and gRPC-Web (service/browser.py): connectrpc's ASGI application, on google.protobuf.
	PATH="$(abspath $(VENV))/bin:$$PATH" $(PY) -m grpc_tools.protoc -I protos \
		--connectrpc_out=server --connectrpc_opt=protobuf=google $(PROTOS)
	touch server/crabgames/v1/__init__.py $@

# The rules compiled by mypyc (docs/performance.md): the same source, 2-3x faster for search and
# learning agents. Without a C compiler and Python's headers it says so and the pure source runs.
$(COMPILED): $(GENERATED) $(INSTALLED_COMPILE) $(COMPILED_SOURCES)
	$(PY) -c "from crabgames.compiled import main; main()"

compiled: $(COMPILED)

protos:
	rm -f $(GENERATED)
	$(MAKE) $(GENERATED)

# The Node.js reference client's packages, from the npm registry (exact versions: package-lock).
$(NODE_DEPS): clients/node/package.json clients/node/package-lock.json
	npm ci --prefix clients/node --ignore-scripts --no-audit --no-fund --loglevel=error
	touch $@

# ----- the web page: make web (make run builds it when npm is there; make test always) -----
$(WEB_DEPS): $(WEB)/package.json $(WEB)/package-lock.json
	npm ci --prefix $(WEB) --ignore-scripts --no-audit --no-fund --loglevel=error
	touch $@

$(WEB_BUNDLE): $(WEB_DEPS) $(PROTOS) $(WEB_SOURCES)
	cd $(WEB) && ./node_modules/.bin/buf generate && ./node_modules/.bin/tsc --noEmit -p . \
		&& node build.mjs
	touch $@

web: $(WEB_BUNDLE)

web-if-npm:
	@if command -v npm >/dev/null; then $(MAKE) --no-print-directory web; \
	else echo "npm not found: serving without the web page (make web builds it)"; fi
# ----- end of the web page -----

# Play in the terminal against bots: make play GAME=crab_rage PLAY_ARGS="--players 4"
play: setup-play
	$(VENV)/bin/crabgames-play --game $(GAME) $(PLAY_ARGS)

# Start a server, play one game of each title with bots through it, print a summary.
demo: setup
	$(VENV)/bin/crabgames-demo

typecheck: setup-dev
	$(VENV)/bin/mypy --config-file clients/mypy.ini -p crabclients

# The game host (crabclients.host, docs/clients.md): tables for people in two places, one link a
# seat, served beside the rules service by make run (HOST_ADDRESS=off to leave out).
HOST_ADDRESS ?= $(or $(CRABGAMES_HOST_ADDRESS),127.0.0.1:8090)

# The rules service in the foreground, the game host beside it (it waits for the service, and
# ends with make run).
run: setup web-if-npm
	@host=; if [ "$(HOST_ADDRESS)" != off ]; then \
		$(VENV)/bin/python -m crabclients.host --address $(HOST_ADDRESS) --rules $(ADDRESS) \
			--page-url http://$(HTTP_ADDRESS)/ --cors-origins http://$(HTTP_ADDRESS) & host=$$!; \
	fi; \
	trap '[ -z "$$host" ] || kill $$host 2>/dev/null' EXIT INT TERM; \
	$(VENV)/bin/crabgames-server --address $(ADDRESS) --http-address $(HTTP_ADDRESS) --http-fallback

test: setup-dev $(NODE_DEPS) web compiled
	$(PY) -m pytest $(PYTEST_ARGS)

# Property-based fuzzing of every game at 25 times the CI size, fresh examples every run
# (CRABGAMES_FUZZ_SCALE=N for another size). docs/security.md
fuzz-large: setup-dev
	CRABGAMES_FUZZ=large $(PY) -m pytest tests/test_fuzz.py tests/test_sealing.py $(PYTEST_ARGS)

# The adversarial campaign of issue 13 on loopback: idle streams, withheld bodies, max-cost
# Playouts, padded and oversized states, fuzzed views, against a server without and with sealing,
# while a well-behaved client plays (60 s each: CRABGAMES_ATTACK_SECONDS). Fails on a missed goal.
ATTACK_ARGS ?=
attack: setup-dev
	$(PY) -m bench.attack $(ATTACK_ARGS)

# The loopback load test with 64 clients for 60 s (CRABGAMES_LOAD_CLIENTS, _SECONDS to change).
load-large: setup-dev
	CRABGAMES_LOAD=large $(PY) -m pytest tests/test_load.py $(PYTEST_ARGS)

# buf breaking compares protos/ (as in the work tree) with the commit before the last one, so
# both the last commit and uncommitted edits are checked (a clone without that commit: with HEAD).
# Another baseline: make lint BUF_AGAINST='.git#branch=release,subdir=protos'. An intended break
# of the wire is told in CHANGELOG.md (protos/buf.yaml says how; tests/test_changelog.py checks).
BUF_AGAINST ?= .git\#ref=$(shell git rev-parse -q --verify HEAD~1 >/dev/null && echo HEAD~1 || echo HEAD),subdir=protos
lint: setup-dev
	$(VENV)/bin/ruff check server clients tests bench
	$(VENV)/bin/ruff format --check server clients tests bench
	# mypy --strict over server/ (pyproject.toml [tool.mypy]), and the clients' own settings
	$(VENV)/bin/mypy
	$(VENV)/bin/mypy --config-file clients/mypy.ini -p crabclients
	cd protos && ../$(VENV)/bin/buf lint
	cd protos && ../$(VENV)/bin/buf format -d --exit-code
	$(VENV)/bin/buf breaking protos --against '$(BUF_AGAINST)'

format: setup-dev
	$(VENV)/bin/ruff format server clients tests bench
	$(VENV)/bin/ruff check --fix server clients tests bench
	cd protos && ../$(VENV)/bin/buf format -w

# Performance against the floor gRPC sets, on loopback (docs/performance.md); a few minutes.
# The worker rows want h2load (Debian's nghttp2-client): installed here when root with apt;
# without it the bench falls back to Python load processes and says so.
bench: setup-dev h2load web compiled
	$(PY) -m bench.bench

h2load:
	@command -v h2load >/dev/null || [ "$$(id -u)" != 0 ] || ! command -v apt-get >/dev/null \
		|| (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nghttp2-client) \
		|| echo "h2load not installed: the worker rows use Python load processes"

# The same, with short timings: a smoke run in well under a minute that checks the benchmark
# runs, not how fast anything is. Results go to BENCH_OUT (default: a new temporary folder).
BENCH_OUT ?=
QUICK_WARNING := "make bench-quick: a smoke run with 0.3 s timings; its numbers mean nothing (use make bench)"
bench-quick: setup-dev web compiled
	@echo "warning: "$(QUICK_WARNING)
	@out="$(BENCH_OUT)"; [ -n "$$out" ] || out=$$(mktemp -d -t crabgames-bench-quick.XXXXXX); \
		mkdir -p "$$out" && $(PY) -m bench.bench --quick --out "$$out"
	@echo "warning: "$(QUICK_WARNING)

# Mutation testing (docs/testing.md): mutmut changes GAME's rules modules one thing at a time
# and runs GAME's rule tests (tests/GAME/ without test_golden.py) against each change; it reports
# the score and every surviving mutant, less the equivalent ones (tests/mutation_equivalents.txt).
# Long (minutes to an hour a game), niced, one worker, in a scratch copy; not part of make test.
# One module: make mutation GAME=crab_rage MUTATION_ARGS="--module actions.py"
MUTATION_ARGS ?=
.PHONY: mutation
mutation: setup-dev
	nice -n 15 $(PY) -m tests.mutation $(GAME) $(MUTATION_ARGS)

# Realistic rule faults (tests/rule_faults.py, docs/testing.md), each applied alone to a scratch
# copy of server/ and required to fail a test of its own rule; a fault whose text no longer
# matches the code fails the run. A few minutes; not part of make test.
# Some rules only: make rule-faults RULE_FAULTS_ARGS="K6 R12"
RULE_FAULTS_ARGS ?=
.PHONY: rule-faults
rule-faults: setup-dev
	$(PY) -m tests.rule_faults $(RULE_FAULTS_ARGS)

# Every code block of README.md and docs/*.md run verbatim from a fresh clone of this
# repository's last commit, or marked with what it needs (tests/readme_check.py; a few minutes).
readme-check:
	$(PYTHON) tests/readme_check.py

clean:
	rm -rf $(VENV) server/crabgames/v1
