#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for the tests: `start DIR` makes one under DIR (initdb, trust
# authentication, a Unix socket in DIR/socket and no TCP port, nothing synced to disk) and starts
# it; `stop DIR` stops it and removes DIR; `pause DIR` and `resume DIR` stop and start its server,
# keeping its data (the tests of an outage). The tests connect through the socket as the cluster's
# superuser only to make a database and an ordinary owner role for each test (see
# src/store/postgres/testing.rs).
#
# initdb refuses to run as root: as root, the cluster belongs to the `postgres` system user, which
# must be able to reach DIR. PostgreSQL 14 or newer is taken from the machine; Debian's
# `postgresql` package is installed when there is none.
set -euo pipefail
command=${1:?usage: postgres-cluster.sh start|stop|pause|resume DIR}
dir=${2:?usage: postgres-cluster.sh start|stop|pause|resume DIR}

bindir() {
    local found=""
    for candidate in /usr/lib/postgresql/*/bin; do
        [ -x "$candidate/initdb" ] && found=$candidate
    done
    echo "$found"
}

as_owner() {
    if [ "$(id -u)" -eq 0 ]; then
        runuser -u postgres -- "$@"
    else
        "$@"
    fi
}

case "$command" in
start)
    bin=$(bindir)
    if [ -z "$bin" ]; then
        sudo=""
        [ "$(id -u)" -eq 0 ] || sudo="sudo"
        $sudo apt-get update -qq
        DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq postgresql >/dev/null
        bin=$(bindir)
    fi
    version=$("$bin/initdb" --version | sed -E 's/.* ([0-9]+)(\.[0-9]+)?.*/\1/')
    if [ "$version" -lt 14 ]; then
        echo "PostgreSQL $version is too old for regintel's tests (14 or newer)" >&2
        exit 1
    fi
    # A cluster left by an interrupted run is stopped and replaced.
    if [ -f "$dir/data/postmaster.pid" ]; then
        as_owner "$bin/pg_ctl" -D "$dir/data" stop -m immediate >/dev/null 2>&1 || true
    fi
    rm -rf "$dir"
    mkdir -p "$dir/socket"
    [ "$(id -u)" -ne 0 ] || chown -R postgres: "$dir"
    as_owner "$bin/initdb" --pgdata="$dir/data" --auth=trust --username=postgres \
        --encoding=UTF8 --locale=C.UTF-8 --no-sync >"$dir/initdb.log" 2>&1 \
        || { cat "$dir/initdb.log" >&2; exit 1; }
    # In its configuration, so that `resume` starts it the same way. fsync off: a crash loses
    # only this throwaway cluster. Connections: nextest runs as many tests at once as there are
    # processors (n); a test holds at most two nodes, each with 3n + 9 request, n + 1 lookup and
    # 4 system connections (4n + 14), and ten of its own at most (on 2 processors, 69 at the
    # busiest moment of a full run, sampled from pg_stat_activity, against 128 here).
    # At most 2,000: beyond, a large machine runs the PostgreSQL tests with fewer threads
    # (`-j`) rather than a cluster that needs gigabytes for its connection slots.
    cores=$(nproc)
    max_connections=$((cores * (2 * (4 * cores + 14) + 10) + 20))
    [ "$max_connections" -le 2000 ] || max_connections=2000
    cat >>"$dir/data/postgresql.conf" <<SETTINGS
listen_addresses = ''
unix_socket_directories = '$dir/socket'
fsync = off
synchronous_commit = off
full_page_writes = off
max_connections = $max_connections
SETTINGS
    as_owner "$bin/pg_ctl" --pgdata="$dir/data" --log="$dir/server.log" --wait start >/dev/null \
        || { cat "$dir/server.log" >&2; exit 1; }
    ;;
pause)
    as_owner "$(bindir)/pg_ctl" --pgdata="$dir/data" --wait stop -m fast >/dev/null
    ;;
resume)
    as_owner "$(bindir)/pg_ctl" --pgdata="$dir/data" --log="$dir/server.log" --wait start >/dev/null
    ;;
stop)
    bin=$(bindir)
    if [ -n "$bin" ] && [ -f "$dir/data/postmaster.pid" ]; then
        as_owner "$bin/pg_ctl" --pgdata="$dir/data" stop -m fast >/dev/null
    fi
    rm -rf "$dir"
    ;;
*)
    echo "usage: postgres-cluster.sh start|stop|pause|resume DIR" >&2
    exit 2
    ;;
esac
