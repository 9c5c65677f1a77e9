#!/usr/bin/env bash
# Regenerates the typed Python client in clients/python/regintel-client from the OpenAPI document
# of this source tree (`regintel openapi`), with openapi-python-client at the version pinned in
# tests/python-requirements.txt. The test command runs this into a scratch directory and fails
# if the committed client differs: run it after changing the API, and commit the result.
#
#   clients/python/regenerate.sh [OUTPUT_DIR]
#
# REGINTEL: the regintel binary (default: built with cargo). OPENAPI_PYTHON_CLIENT: the generator
# (default: target/test-venv/bin/openapi-python-client, which tests/run.sh installs).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
output="$(realpath -m "${1:-$here/regintel-client}")"
generator="${OPENAPI_PYTHON_CLIENT:-$root/target/test-venv/bin/openapi-python-client}"
if [ -z "${REGINTEL:-}" ]; then
    cargo build --quiet --locked --manifest-path "$root/Cargo.toml" --bin regintel
    REGINTEL="$root/target/debug/regintel"
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# No --public-url: the client is given the server's base URL when it is made.
"$REGINTEL" openapi > "$work/openapi.json"
rm -rf "$output"
# The generator formats its output with ruff (pinned beside it): found on PATH.
PATH="$(dirname "$generator"):$PATH" "$generator" generate --path "$work/openapi.json" --meta setup --config "$here/config.yaml" \
    --output-path "$output" > "$work/generator.log" 2>&1 || { cat "$work/generator.log" >&2; exit 1; }
# ruff's cache is no part of the client.
rm -rf "$output/.ruff_cache"
