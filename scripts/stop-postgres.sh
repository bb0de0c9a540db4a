#!/usr/bin/env bash
# stop-postgres.sh — stop the private PostgreSQL cluster started by
# scripts/setup-postgres.sh, and only that one: it is addressed by its data
# directory, so any other cluster (e.g. Debian's 15/main on port 5432) is left
# alone. Idempotent: does nothing, successfully, if it is not running or was
# never created. Data is kept; start it again with setup-postgres.sh.
#
# Environment (same as setup-postgres.sh):
#   COUNTERPOINT_PG_DIR      base dir holding data/   (/var/lib/counterpoint/pg)
#   COUNTERPOINT_PG_OS_USER  OS user running the server when run as root (postgres)
set -euo pipefail

PG_DIR="${COUNTERPOINT_PG_DIR:-/var/lib/counterpoint/pg}"
OS_USER="${COUNTERPOINT_PG_OS_USER:-postgres}"
DATA_DIR="$PG_DIR/data"

log() { printf '[stop-postgres] %s\n' "$*" >&2; }
die() { printf '[stop-postgres] ERROR: %s\n' "$*" >&2; exit 1; }

if [ ! -f "$DATA_DIR/PG_VERSION" ]; then
  log "no cluster in $DATA_DIR; nothing to stop"
  exit 0
fi

# Use pg_ctl of the major the cluster was created with.
PG_MAJOR="$(cat "$DATA_DIR/PG_VERSION")"
PG_CTL="/usr/lib/postgresql/$PG_MAJOR/bin/pg_ctl"
[ -x "$PG_CTL" ] || die "$PG_CTL not found (cluster is PostgreSQL $PG_MAJOR); install postgresql-$PG_MAJOR"

# pg_ctl refuses to run as root: run it as the server's OS user.
as_pg() {
  if [ "$(id -u)" -eq 0 ]; then runuser -u "$OS_USER" -- "$@"; else "$@"; fi
}

if ! as_pg "$PG_CTL" -D "$DATA_DIR" status >/dev/null 2>&1; then
  log "server for $DATA_DIR is not running"
  exit 0
fi

log "stopping server for $DATA_DIR"
# fast = roll back open transactions and disconnect clients, then a clean
# shutdown (no crash recovery on next start). -w waits until it is down.
as_pg "$PG_CTL" -D "$DATA_DIR" -m fast -w -t 60 stop >/dev/null \
  || die "pg_ctl stop failed; see $PG_DIR/postgres.log"
log "stopped"
