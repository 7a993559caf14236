#!/usr/bin/env bash
# A throw-away PostgreSQL server for the PostgreSQL suites (Docs/Postgres.md G30-G32).
#
#   bash Scripts/postgres.sh start DIR   installs Debian's postgresql when missing, makes a cluster
#                                        in DIR/data owned by a non-root user, starts it on a free
#                                        port of 127.0.0.1 (its socket in DIR), creates the database
#                                        `stateloop`, and prints its URL (STATELOOP_POSTGRES_URL)
#   bash Scripts/postgres.sh stop DIR    stops it (immediately) and deletes DIR
#
# The server's user `stateloop` logs in with the password `stateloop` over TCP (scram-sha-256),
# so that a wrong password is refused as it would be on a real server (G27).
set -euo pipefail
command="${1:?usage: postgres.sh start|stop DIR}"
dir="${2:?usage: postgres.sh start|stop DIR}"

# The user the server runs as: initdb and postgres refuse to run as root.
as_server() {
    if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

bin() {
    local found
    found=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
    [ -n "$found" ] || { command -v pg_ctl >/dev/null 2>&1 && found=$(dirname "$(command -v pg_ctl)"); }
    echo "$found"
}

case "$command" in
start)
    if [ -z "$(bin)" ] || [ ! -x "$(bin)/initdb" ]; then
        if command -v apt-get >/dev/null 2>&1; then
            sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
            echo "Installing postgresql (apt-get)..." >&2
            $sudo apt-get update -qq >&2
            DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq postgresql >/dev/null
        else
            echo "error: install PostgreSQL (Debian: apt-get install postgresql; macOS: brew install postgresql)" >&2
            exit 2
        fi
    fi
    pgbin="$(bin)"
    mkdir -p "$dir"
    [ "$(id -u)" -eq 0 ] && chown postgres "$dir"
    echo stateloop > "$dir/password"
    [ "$(id -u)" -eq 0 ] && chown postgres "$dir/password"
    as_server "$pgbin/initdb" -D "$dir/data" -U stateloop --pwfile="$dir/password" -E UTF8 --locale=C \
        --auth-local=trust --auth-host=scram-sha-256 >"$dir/initdb.log" 2>&1 \
        || { cat "$dir/initdb.log" >&2; exit 1; }
    # A free port: taken by the kernel, given back, and taken by the server at once.
    for attempt in 1 2 3 4 5; do
        port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])' 2>/dev/null \
            || echo $((20000 + RANDOM % 20000)))
        if as_server "$pgbin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 30 \
            -o "-c listen_addresses=127.0.0.1 -c port=$port -c unix_socket_directories=$dir -c max_connections=200" start >/dev/null; then
            as_server "$pgbin/createdb" -h "$dir" -p "$port" -U stateloop stateloop
            echo "$port" > "$dir/port"
            echo "postgres://stateloop:stateloop@127.0.0.1:$port/stateloop"
            exit 0
        fi
    done
    cat "$dir/server.log" >&2
    exit 1
    ;;
stop)
    if [ -d "$dir/data" ] && [ -n "$(bin)" ]; then
        as_server "$(bin)/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
    fi
    rm -rf "$dir"
    ;;
*)
    echo "usage: postgres.sh start|stop DIR" >&2
    exit 2
    ;;
esac
