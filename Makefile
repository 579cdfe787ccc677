# Every target does its own set-up: virtualenv, install, code generation.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
ADDRESS ?= 127.0.0.1:50051
PROTOS := $(wildcard protos/crabgames/v1/*.proto)
INSTALLED := $(VENV)/.installed
GENERATED := server/crabgames/v1/.generated
PYTEST_ARGS ?=

.PHONY: setup run test protos lint format bench clean

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

run: setup
	$(VENV)/bin/crabgames-server --address $(ADDRESS)

test: setup
	$(PY) -m pytest $(PYTEST_ARGS)

lint: setup
	$(VENV)/bin/ruff check server clients tests
	$(VENV)/bin/ruff format --check server clients tests
	cd protos && ../$(VENV)/bin/buf lint

format: setup
	$(VENV)/bin/ruff format server clients tests
	$(VENV)/bin/ruff check --fix server clients tests

clean:
	rm -rf $(VENV) server/crabgames/v1
