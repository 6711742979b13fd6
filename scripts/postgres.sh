#!/usr/bin/env bash
# A PostgreSQL server for the tests: prints its address (postgres://user@host:port, no
# database), which the tests take from QIPAI_TEST_POSTGRES. Uses the one that variable
# names, or the machine's own at 127.0.0.1:5432 if it answers; otherwise installs
# PostgreSQL from Debian if missing and starts a private server for the tests on port
# 55432, its data under target/postgres (trust authentication, this machine only).
# Everything but the address goes to stderr.
set -euo pipefail
cd "$(dirname "$0")/.."
url="${QIPAI_TEST_POSTGRES:-postgres://postgres@127.0.0.1:5432}"
answers() { psql "$1/postgres" -tAc 'SELECT 1' >/dev/null 2>&1; }
if answers "$url"; then
    echo "$url"
    exit 0
fi
private="postgres://postgres@127.0.0.1:55432"
if answers "$private"; then
    echo "$private"
    exit 0
fi
sudo=""
[ "$(id -u)" = 0 ] || sudo="sudo"
if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || ! command -v psql >/dev/null; then
    $sudo apt-get update -qq >&2
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq postgresql >&2
fi
bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
data="$PWD/target/postgres"
# The server refuses to run as root: it runs as the postgres account Debian made.
as_postgres=()
[ "$(id -u)" = 0 ] && as_postgres=(runuser -u postgres --)
if [ ! -f "$data/PG_VERSION" ]; then
    mkdir -p "$data"
    [ "$(id -u)" = 0 ] && chown postgres "$data"
    "${as_postgres[@]}" "$bin/initdb" -D "$data" -A trust -U postgres >&2
fi
"${as_postgres[@]}" "$bin/pg_ctl" -D "$data" -l "$data/server.log" -w \
    -o "-p 55432 -k /tmp -c listen_addresses=127.0.0.1" start >&2
echo "$private"
