# Every target does its own set-up: virtualenv, install, code generation.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
ADDRESS ?= 127.0.0.1:50051
PROTOS := $(wildcard protos/crabgames/v1/*.proto)
INSTALLED := $(VENV)/.installed
GENERATED := server/crabgames/v1/.generated
PYTEST_ARGS ?=
GAME ?= kraby
PLAY_ARGS ?=
NODE_DEPS := clients/node/node_modules/.installed

.PHONY: setup run test protos lint format bench bench-quick h2load clean play demo typecheck fuzz-large load-large attack

setup: $(GENERATED)

$(INSTALLED): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -e '.[dev]'
	touch $@

$(GENERATED): $(INSTALLED) $(PROTOS)
	rm -rf server/crabgames/v1
	mkdir -p server/crabgames/v1
	PATH="$(abspath $(VENV))/bin:$$PATH" $(PY) -m grpc_tools.protoc -I protos \
		--python_out=server --grpc_python_out=server \
		--mypy_out=server --mypy_grpc_out=server $(PROTOS)
	touch server/crabgames/v1/__init__.py $@

protos:
	rm -f $(GENERATED)
	$(MAKE) $(GENERATED)

# The Node.js reference client's packages, from the npm registry (exact versions: package-lock).
$(NODE_DEPS): clients/node/package.json clients/node/package-lock.json
	npm ci --prefix clients/node --ignore-scripts --no-audit --no-fund --loglevel=error
	touch $@

# Play in the terminal against bots: make play GAME=crab_rage PLAY_ARGS="--players 3"
play: setup
	$(VENV)/bin/crabgames-play --game $(GAME) $(PLAY_ARGS)

# Start a server, play one game of each title with bots through it, print a summary.
demo: setup
	$(VENV)/bin/crabgames-demo

typecheck: setup
	$(VENV)/bin/mypy --config-file clients/mypy.ini -p crabclients

run: setup
	$(VENV)/bin/crabgames-server --address $(ADDRESS)

test: setup $(NODE_DEPS)
	$(PY) -m pytest $(PYTEST_ARGS)

# Property-based fuzzing of every game at 25 times the CI size, fresh examples every run
# (CRABGAMES_FUZZ_SCALE=N for another size). docs/security.md
fuzz-large: setup
	CRABGAMES_FUZZ=large $(PY) -m pytest tests/test_fuzz.py tests/test_sealing.py $(PYTEST_ARGS)

# The adversarial campaign of issue 13 on loopback: idle streams, withheld bodies, max-cost
# Playouts, padded and oversized states, fuzzed views, against a server without and with sealing,
# while a well-behaved client plays (60 s each: CRABGAMES_ATTACK_SECONDS). Fails on a missed goal.
ATTACK_ARGS ?=
attack: setup
	$(PY) -m bench.attack $(ATTACK_ARGS)

# The loopback load test with 64 clients for 60 s (CRABGAMES_LOAD_CLIENTS, _SECONDS to change).
load-large: setup
	CRABGAMES_LOAD=large $(PY) -m pytest tests/test_load.py $(PYTEST_ARGS)

lint: setup
	$(VENV)/bin/ruff check server clients tests bench
	$(VENV)/bin/ruff format --check server clients tests bench
	cd protos && ../$(VENV)/bin/buf lint

format: setup
	$(VENV)/bin/ruff format server clients tests bench
	$(VENV)/bin/ruff check --fix server clients tests bench

# Performance against the floor gRPC sets, on loopback (docs/performance.md); a few minutes.
# The worker rows want h2load (Debian's nghttp2-client): installed here when root with apt;
# without it the bench falls back to Python load processes and says so.
bench: setup h2load
	$(PY) -m bench.bench

h2load:
	@command -v h2load >/dev/null || [ "$$(id -u)" != 0 ] || ! command -v apt-get >/dev/null \
		|| (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nghttp2-client) \
		|| echo "h2load not installed: the worker rows use Python load processes"

# The same, with short timings: a smoke run in well under a minute.
bench-quick: setup
	$(PY) -m bench.bench --quick --out /tmp

clean:
	rm -rf $(VENV) server/crabgames/v1
