#!/usr/bin/env bash
# The test command: installs what the tests need beyond cargo (the OpenAPI validator, from PyPI,
# into a venv under target/), then runs every test with cargo-nextest (or cargo test).
set -euo pipefail
cd "$(dirname "$0")/.."
venv=target/test-venv
if [ ! -x "$venv/bin/openapi-spec-validator" ]; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check openapi-spec-validator
fi
export OPENAPI_SPEC_VALIDATOR="$PWD/$venv/bin/openapi-spec-validator"
if cargo nextest --version >/dev/null 2>&1; then
    cargo nextest run --no-fail-fast "$@"
else
    cargo test "$@"
fi
