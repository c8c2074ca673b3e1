#!/usr/bin/env bash
# Start a real NetBox on 127.0.0.1 for l2tpgen's NetBox tests; scripts/netbox-down.sh stops it.
#
# PostgreSQL and Redis (Debian packages, installed here when run as root) run as plain processes
# on private ports; NetBox (PyPI `netbox`, Python 3.12 from pyenv) runs under gunicorn. The slow
# part, `netbox migrate` (about 225 s of one core), runs once: the migrated database (with a
# superuser and an API token) is kept as a `pg_dump -Fc` snapshot in a cache directory outside the
# clone, and later runs restore it in about a second. The snapshot's token hash depends on the
# fixed pepper below, which is why the test-only secrets are fixed: never use them for a NetBox
# that holds anything real.
#
# Writes KEY=VALUE lines for the tests to $L2TPGEN_NETBOX_ENV (default: $RUN/netbox.env):
# L2TPGEN_NETBOX_URL, L2TPGEN_NETBOX_TOKEN, and what tests/conftest_netbox.py needs to reset the
# database between tests.
set -euo pipefail

CACHE=${L2TPGEN_NETBOX_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/l2tpgen-ci/netbox}
# PostgreSQL runs as the postgres user, which cannot enter root's home: run-time files go to /tmp.
RUN=${L2TPGEN_NETBOX_RUN:-/tmp/l2tpgen-netbox-$(id -u)}
ENV_FILE=${L2TPGEN_NETBOX_ENV:-$RUN/netbox.env}
PG_PORT=${L2TPGEN_NETBOX_PG_PORT:-55432}
REDIS_PORT=${L2TPGEN_NETBOX_REDIS_PORT:-56379}
HTTP_PORT=${L2TPGEN_NETBOX_HTTP_PORT:-58080}
NETBOX_SPEC='netbox>=4.7,<5'
VENV=$CACHE/venv
log() { printf 'netbox-up: %s\n' "$*" >&2; }
now() { date +%s.%N; }
took() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }

# --- PostgreSQL and Redis -------------------------------------------------------------------------
pg_bin() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1; }
# NetBox's `psycopg[c]` is built from source: it needs libpq's headers (pg_config) and a compiler.
PACKAGES="postgresql redis-server libpq-dev gcc"
if [ -z "$(pg_bin)" ] || ! command -v redis-server > /dev/null || ! command -v pg_config > /dev/null \
  || ! command -v gcc > /dev/null; then
  if [ "$(id -u)" != 0 ]; then
    log "missing some of: $PACKAGES; install them (or run as root)"
    exit 1
  fi
  t=$(now)
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  # shellcheck disable=SC2086 # a list of package names
  apt-get install -y -qq --no-install-recommends $PACKAGES > /dev/null
  log "apt-get install $PACKAGES: $(took "$t") s"
fi
PG=$(pg_bin)

# --- Python 3.12 and NetBox ---------------------------------------------------------------------
find_python() {
  if [ -n "${L2TPGEN_NETBOX_PYTHON:-}" ]; then echo "$L2TPGEN_NETBOX_PYTHON"; return; fi
  local root candidate
  root=$( (command -v pyenv > /dev/null && pyenv root) || echo "${PYENV_ROOT:-$HOME/.pyenv}")
  # pyenv's `python3.12` shim fails until a version is selected: take the interpreter itself.
  for candidate in "$root"/versions/3.12.*/bin/python3.12 "$root"/versions/3.13.*/bin/python3.13 \
    "$(command -v python3.12 || true)" "$(command -v python3.13 || true)"; do
    if [ -n "$candidate" ] && [ -x "$candidate" ] && "$candidate" -c '' 2> /dev/null; then
      echo "$candidate"
      return
    fi
  done
  log "no Python 3.12 or 3.13 (NetBox 4 needs one); set L2TPGEN_NETBOX_PYTHON"
  exit 1
}
if [ ! -e "$VENV/.l2tpgen-installed" ]; then
  t=$(now)
  rm -rf "$VENV"
  mkdir -p "$CACHE"
  "$(find_python)" -m venv "$VENV"
  "$VENV/bin/pip" install -q --disable-pip-version-check "$NETBOX_SPEC"
  touch "$VENV/.l2tpgen-installed"
  log "pip install $NETBOX_SPEC: $(took "$t") s"
fi
VERSION=$("$VENV/bin/python" -c 'import importlib.metadata as m; print(m.version("netbox"))')
SNAPSHOT=$CACHE/netbox-$VERSION.dump
TOKEN_FILE=$CACHE/netbox-$VERSION.token

# --- Run-time directory and NetBox's configuration ------------------------------------------------
if [ -e "$RUN/gunicorn.pid" ] || [ -e "$RUN/pg/postmaster.pid" ]; then
  log "a NetBox from an earlier run is still up in $RUN: stopping it first"
  bash "$(dirname "$0")/netbox-down.sh"
fi
rm -rf "$RUN"
mkdir -p "$RUN/pg"
chmod 755 "$RUN"
cat > "$RUN/l2tpgen_netbox_configuration.py" << EOF
# NetBox for l2tpgen's tests only: fixed, public secrets (the snapshot's token hash needs them).
ALLOWED_HOSTS = ["127.0.0.1", "localhost"]
SECRET_KEY = "l2tpgen-tests-only-not-a-secret-0123456789abcdefghijklmnopqrstuvwxyz"
API_TOKEN_PEPPERS = {1: "l2tpgen-tests-only-pepper-not-a-secret-0123456789abcdefghijklmnop"}
DATABASES = {
    "default": {
        "NAME": "netbox",
        "USER": "postgres",
        "PASSWORD": "",
        "HOST": "127.0.0.1",
        "PORT": "$PG_PORT",
        "CONN_MAX_AGE": 300,
        # The tests drop and recreate the database between tests: without this, the first request
        # per worker after a reset fails on a closed connection.
        "CONN_HEALTH_CHECKS": True,
    }
}
REDIS = {
    "tasks": {"HOST": "127.0.0.1", "PORT": $REDIS_PORT, "DATABASE": 0, "SSL": False},
    "caching": {"HOST": "127.0.0.1", "PORT": $REDIS_PORT, "DATABASE": 1, "SSL": False},
}
EOF
export PYTHONPATH=$RUN NETBOX_CONFIGURATION=l2tpgen_netbox_configuration NETBOX_ROOT=$RUN

# --- Start PostgreSQL and Redis -----------------------------------------------------------------
as_pg() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
[ "$(id -u)" = 0 ] && chown postgres: "$RUN/pg"
t=$(now)
as_pg "$PG/initdb" -D "$RUN/pg/data" -U postgres --auth=trust -E UTF8 > /dev/null
as_pg "$PG/pg_ctl" -D "$RUN/pg/data" -l "$RUN/pg/postgres.log" -w start \
  -o "-c listen_addresses=127.0.0.1 -p $PG_PORT -c fsync=off -c unix_socket_directories=$RUN/pg" \
  > /dev/null
redis-server --bind 127.0.0.1 --port "$REDIS_PORT" --daemonize yes --save '' --appendonly no \
  --dir "$RUN" --pidfile "$RUN/redis.pid" --logfile "$RUN/redis.log"
log "PostgreSQL and Redis up: $(took "$t") s"
PSQL=("$PG/psql" -h 127.0.0.1 -p "$PG_PORT" -U postgres -v ON_ERROR_STOP=1 -q)
"${PSQL[@]}" -d postgres -c 'CREATE DATABASE netbox'

# --- The database: restored from the snapshot, or migrated once and snapshotted --------------------
# A fresh machine has no cached snapshot: it starts from the one shipped in the repository (the
# schema of a migrated NetBox, no user and no token), lets `netbox migrate` add only what a newer
# NetBox release brings, then makes the test user and token and caches the result. Without a
# shipped snapshot (or with L2TPGEN_NETBOX_NO_SHIPPED=1) it migrates from nothing (~225 s of CPU).
SHIPPED=${L2TPGEN_NETBOX_SHIPPED:-$(cd "$(dirname "$0")" && pwd)/netbox/netbox-schema.dump}
if [ -s "$SNAPSHOT" ] && [ -s "$TOKEN_FILE" ]; then
  t=$(now)
  "$PG/pg_restore" -h 127.0.0.1 -p "$PG_PORT" -U postgres -d netbox --no-owner "$SNAPSHOT"
  log "restored $SNAPSHOT: $(took "$t") s"
else
  t=$(now)
  if [ -s "$SHIPPED" ] && [ -z "${L2TPGEN_NETBOX_NO_SHIPPED:-}" ]; then
    "$PG/pg_restore" -h 127.0.0.1 -p "$PG_PORT" -U postgres -d netbox --no-owner "$SHIPPED"
    log "restored the shipped schema $SHIPPED ($(cat "$SHIPPED.version" 2> /dev/null || echo '?')): $(took "$t") s"
    t=$(now)
  fi
  nice -n 5 "$VENV/bin/netbox" migrate --no-input > "$RUN/migrate.log"
  log "netbox migrate (NetBox $VERSION): $(took "$t") s"
  if [ -n "${L2TPGEN_NETBOX_SHIP:-}" ]; then  # maintainers: write the shipped schema snapshot
    "$PG/pg_dump" -h 127.0.0.1 -p "$PG_PORT" -U postgres -Fc -Z 9 -f "$L2TPGEN_NETBOX_SHIP" netbox
    echo "NetBox $VERSION" > "$L2TPGEN_NETBOX_SHIP.version"
    log "shipped schema written to $L2TPGEN_NETBOX_SHIP"
  fi
  "$VENV/bin/netbox" shell --no-imports -c "
from users.models import Token, User
user = User.objects.create_user('l2tpgen', 'l2tpgen@example.invalid', None, is_superuser=True)
token = Token(user=user, write_enabled=True, description='l2tpgen tests')
token.save()
print(f'nbt_{token.key}.{token.token}', file=open('$TOKEN_FILE.tmp', 'w'))
"
  "$PG/pg_dump" -h 127.0.0.1 -p "$PG_PORT" -U postgres -Fc -f "$SNAPSHOT.tmp" netbox
  mv "$TOKEN_FILE.tmp" "$TOKEN_FILE"
  mv "$SNAPSHOT.tmp" "$SNAPSHOT"
  log "snapshot written to $SNAPSHOT"
fi
# The tests reset the database to this template between tests (drop, create from it: ~0.2 s).
"${PSQL[@]}" -d postgres -c 'CREATE DATABASE netbox_template TEMPLATE netbox'
TOKEN_KEY=$(cat "$TOKEN_FILE")

# --- gunicorn ---------------------------------------------------------------------------------
t=$(now)
"$VENV/bin/gunicorn" --bind "127.0.0.1:$HTTP_PORT" --workers 2 --timeout 120 --daemon \
  --pid "$RUN/gunicorn.pid" --error-logfile "$RUN/gunicorn.log" netbox.wsgi
# /api/status/ needs a token: any HTTP answer means it is up.
for _ in $(seq 1 240); do
  code=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$HTTP_PORT/api/status/" || true)
  [ "$code" != 000 ] && break
  sleep 0.5
done
if [ "$code" = 000 ]; then
  log "gunicorn did not answer on 127.0.0.1:$HTTP_PORT; see $RUN/gunicorn.log"
  exit 1
fi
log "gunicorn answering: $(took "$t") s"

mkdir -p "$(dirname "$ENV_FILE")"
cat > "$ENV_FILE" << EOF
L2TPGEN_NETBOX_URL=http://127.0.0.1:$HTTP_PORT
L2TPGEN_NETBOX_TOKEN=$TOKEN_KEY
L2TPGEN_NETBOX_PSQL=$PG/psql
L2TPGEN_NETBOX_PG_PORT=$PG_PORT
L2TPGEN_NETBOX_REDIS_PORT=$REDIS_PORT
EOF
log "NetBox $VERSION on http://127.0.0.1:$HTTP_PORT; environment in $ENV_FILE"
