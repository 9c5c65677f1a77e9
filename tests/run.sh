#!/usr/bin/env bash
# The test command: installs what the tests need beyond cargo (Debian's chromium and
# chromium-driver for the browser tests, systemd and dpkg, when missing; cargo-deb at a fixed
# version, which builds the Debian package the packaging test unpacks; the OpenAPI validator, the
# OpenAPI client generator, Selenium and prometheus_client, from PyPI at the exact versions of
# tests/python-requirements.txt, into a venv under target/; the wheels the Python client installs
# from; the MCP Python SDK at the versions of tests/mcp-requirements.txt, into a venv of its
# own), starts a throwaway PostgreSQL cluster (tests/postgres-cluster.sh, which installs Debian's
# postgresql when missing), then runs every test with cargo-nextest (installed at a pinned
# version when missing).
set -euo pipefail
cd "$(dirname "$0")/.."
# Debian packages: the browser for the account area's tests, systemd-analyze for the units'
# checks, dpkg-deb for the package's, deb-systemd-helper which its maintainer scripts call.
if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null \
    || ! command -v systemd-analyze >/dev/null || ! command -v dpkg-deb >/dev/null \
    || ! command -v deb-systemd-helper >/dev/null; then
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium chromium-driver systemd dpkg init-system-helpers >/dev/null
fi
# A venv at $1 holding the exact versions of the requirements file $2, made anew whenever they
# change.
pinned_venv() {
    if ! cmp -s "$2" "$1/requirements.txt"; then
        rm -rf "$1"
        python3 -m venv "$1"
        "$1/bin/pip" install --quiet --disable-pip-version-check -r "$2"
        cp "$2" "$1/requirements.txt"
    fi
}
venv=target/test-venv
requirements=tests/python-requirements.txt
pinned_venv "$venv" "$requirements"
# Wheels of what the Python client and the Python package need to be installed (their
# dependencies with the package's pandas extra, setuptools and wheel to build them, and pytest and
# standardwebhooks, which the package's tests import), at the pinned versions: the tests install
# them from these alone into fresh venvs, as clients/python/README.md tells an air-gapped site to.
wheels=target/client-wheels
client_setup=clients/python/regintel-client/setup.py
package_project=clients/python/regintel/pyproject.toml
if ! cat "$requirements" "$client_setup" "$package_project" | cmp -s - "$wheels/inputs.txt"; then
    rm -rf "$wheels" target/client-source target/package-source
    # From copies: reading their dependencies writes build metadata beside their sources.
    cp -r clients/python/regintel-client target/client-source
    cp -r clients/python/regintel target/package-source
    "$venv/bin/pip" download --quiet --disable-pip-version-check --dest "$wheels" \
        -c "$requirements" setuptools wheel pytest standardwebhooks \
        ./target/client-source "./target/package-source[pandas]"
    rm -rf target/client-source target/package-source
    cat "$requirements" "$client_setup" "$package_project" > "$wheels/inputs.txt"
fi
export CLIENT_WHEELS="$PWD/$wheels"
# The official MCP Python SDK, in a venv of its own: its pinned versions differ from the tools'.
pinned_venv target/mcp-venv tests/mcp-requirements.txt
export MCP_PYTHON="$PWD/target/mcp-venv/bin/python"
# The package of the binary the tests run (the dev profile's, stripped: the same assets and
# metadata as a release package, without a second, slow release build).
cargo_deb_version=3.8.0
if [ "$(cargo deb --version 2>/dev/null)" != "cargo-deb $cargo_deb_version" ]; then
    cargo install --quiet --locked cargo-deb --version "$cargo_deb_version"
fi
cargo build --quiet --locked --bin regintel
# (cargo-deb warns that a dev profile is meant for tests only: said when the build fails.)
if ! packaged=$(cargo deb --locked --no-build --profile dev --fast --output target/regintel-test.deb 2>&1); then
    echo "$packaged" >&2
    exit 1
fi
export REGINTEL_DEB="$PWD/target/regintel-test.deb"
export OPENAPI_SPEC_VALIDATOR="$PWD/$venv/bin/openapi-spec-validator"
export OPENAPI_PYTHON_CLIENT="$PWD/$venv/bin/openapi-python-client"
export TEST_PYTHON="$PWD/$venv/bin/python"
# A throwaway PostgreSQL cluster under target/ for the tests of the PostgreSQL store, stopped
# and removed when the tests end.
postgres_dir="$PWD/target/postgres-cluster"
bash tests/postgres-cluster.sh start "$postgres_dir"
trap 'bash tests/postgres-cluster.sh stop "$postgres_dir"' EXIT
export REGINTEL_TEST_POSTGRES="$postgres_dir/socket"
# cargo-nextest runs each test in a process of its own and ends one that hangs (after how long:
# .config/nextest.toml); `cargo test` does neither, so there is no falling back to it.
nextest_version=0.9.143
if ! cargo nextest --version >/dev/null 2>&1; then
    cargo install --quiet --locked cargo-nextest --version "$nextest_version"
fi
cargo nextest run --no-fail-fast "$@"
