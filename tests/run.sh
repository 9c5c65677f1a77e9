#!/usr/bin/env bash
# The test command: installs what the tests need beyond cargo (Debian's chromium and
# chromium-driver for the browser tests, when missing; the OpenAPI validator, the OpenAPI client
# generator and Selenium, from PyPI at the exact versions of tests/python-requirements.txt, into a
# venv under target/), then runs every test with cargo-nextest (or cargo test).
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium chromium-driver >/dev/null
fi
venv=target/test-venv
requirements=tests/python-requirements.txt
# Reinstalled whenever the pinned versions change.
if ! cmp -s "$requirements" "$venv/requirements.txt"; then
    rm -rf "$venv"
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check -r "$requirements"
    cp "$requirements" "$venv/requirements.txt"
fi
export OPENAPI_SPEC_VALIDATOR="$PWD/$venv/bin/openapi-spec-validator"
export OPENAPI_PYTHON_CLIENT="$PWD/$venv/bin/openapi-python-client"
export TEST_PYTHON="$PWD/$venv/bin/python"
if cargo nextest --version >/dev/null 2>&1; then
    cargo nextest run --no-fail-fast "$@"
else
    cargo test "$@"
fi
