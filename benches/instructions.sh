#!/usr/bin/env bash
# Instructions the server executes for a fixed set of uncached answers, counted by valgrind's
# callgrind: repeatable for the same binary and requests whatever else the machine does, so a
# change of a few percent shows, where wrk's req/s on a shared 2-core machine varies by ±10 %.
#
#   benches/instructions.sh [BINARY]      (default: target/release/regintel, built if missing: the
#                                          build without the profile; the load bench builds the
#                                          packaged one into target/shipped/packaged/regintel)
#
# It imports the bundled data into a temporary directory, starts the server under callgrind
# with the answer cache off, waits until it holds the public rows in memory, sends the first N
# NUTS-3 profiles and N comparisons (N=300, or the environment's N) on one kept-alive
# connection, stops it, and prints the instructions of the whole run, of start-up alone (a
# second run with no requests, which waits for the same), and per request. The callgrind file
# of the first run is kept for `callgrind_annotate --inclusive=yes FILE`.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-target/release/regintel}
n=${N:-300}
[ -x "$bin" ] || cargo build --release --bin regintel
command -v valgrind >/dev/null || apt-get install -y valgrind
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$bin" import --bundled --data-dir "$dir/data" >/dev/null 2>&1

run() { # requests per kind -> instructions
    local out="$dir/callgrind.$1"
    valgrind --tool=callgrind --callgrind-out-file="$out" "$bin" serve --data-dir "$dir/data" \
        --listen 127.0.0.1:0 --plain-http --cache-mb 0 --no-rate-limits >"$dir/log.$1" 2>&1 &
    local pid=$! addr=""
    for _ in $(seq 120); do
        addr=$(grep -o 'http://127\.0\.0\.1:[0-9]*' "$dir/log.$1" | head -1 || true)
        [ -n "$addr" ] && curl -fs -o /dev/null "$addr/readyz" && break
        sleep 1
    done
    # Both runs wait until the public rows are held in memory, so that their reading is part of
    # start-up and every answer is read as it is in service.
    for _ in $(seq 600); do
        curl -fs "$addr/metrics" | grep -q '^regintel_public_data_bytes [1-9]' && break
        sleep 1
    done
    python3 - "$addr" "$1" <<'PY'
import csv, http.client, sys
host, port = sys.argv[1].removeprefix("http://").split(":")
n = int(sys.argv[2])
rows = [r for r in csv.DictReader(open("data/nuts_regions.csv"))
        if r["classification"] == "NUTS" and r["in_nuts2024"] == "true"
        and not r["nuts_code"].endswith("Z")]
nuts2 = [r["nuts_code"] for r in rows if r["level"] == "2"]
nuts3 = [r["nuts_code"] for r in rows if r["level"] == "3"]
datasets = ["demo_r_pjangrp3", "nama_10r_2gdp", "tgs00010", "demo_r_d3dens"]
paths = [f"/api/v1/regional/regions/{c}/profile" for c in nuts3[:n]]
# Three regions a third of the list apart, so every comparison is another one.
third = len(nuts2) // 3
paths += [f"/api/v1/regional/compare?regions={nuts2[i % len(nuts2)]},"
          f"{nuts2[(i + third) % len(nuts2)]},{nuts2[(i + 2 * third) % len(nuts2)]}"
          f"&dataset={datasets[i % len(datasets)]}" for i in range(n)]
conn = http.client.HTTPConnection(host, int(port))
for p in paths:
    conn.request("GET", p)
    r = conn.getresponse()
    r.read()
    assert r.status == 200, (p, r.status)
PY
    kill -TERM "$pid"
    wait "$pid" || true
    awk '/^totals:/ {print $2}' "$out"
}

total=$(run "$n")
startup=$(run 0)
cp "$dir/callgrind.$n" target/callgrind.out
echo "instructions: $total in all, $startup at start-up, $(( (total - startup) / (2 * n) )) per request ($n profiles + $n comparisons)"
echo "callgrind file: target/callgrind.out"
