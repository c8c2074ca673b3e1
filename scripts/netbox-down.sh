#!/usr/bin/env bash
# Stop what scripts/netbox-up.sh started (gunicorn, Redis, PostgreSQL) and remove its run-time
# directory. The cache (venv, snapshot) stays for the next run. Safe to run when nothing is up.
set -uo pipefail

RUN=${L2TPGEN_NETBOX_RUN:-/tmp/l2tpgen-netbox-$(id -u)}
[ -d "$RUN" ] || exit 0

stop_pid() {  # stop one process by its pid file and wait for it to go (a new one may reuse ports)
  local file=$1 pid
  [ -s "$file" ] || return 0
  pid=$(cat "$file")
  kill "$pid" 2> /dev/null || return 0
  for _ in $(seq 1 100); do
    kill -0 "$pid" 2> /dev/null || return 0
    sleep 0.1
  done
  kill -9 "$pid" 2> /dev/null || true
}
stop_pid "$RUN/gunicorn.pid"
stop_pid "$RUN/redis.pid"
if [ -e "$RUN/pg/data/postmaster.pid" ]; then
  PG=$(ls -d /usr/lib/postgresql/*/bin 2> /dev/null | sort -V | tail -n 1)
  if [ "$(id -u)" = 0 ]; then
    runuser -u postgres -- "$PG/pg_ctl" -D "$RUN/pg/data" -m fast -w stop > /dev/null
  else
    "$PG/pg_ctl" -D "$RUN/pg/data" -m fast -w stop > /dev/null
  fi
fi
rm -rf "$RUN"
