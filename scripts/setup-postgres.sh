#!/usr/bin/env bash
# setup-postgres.sh — give this Debian machine a private PostgreSQL (>= 15)
# with pgvector, for development and CI.
#
# Usage:
#   bash scripts/setup-postgres.sh                     # ensure server + default db
#   bash scripts/setup-postgres.sh --db counterpoint_test   # ...and this db too
#   DATABASE_URL=$(bash scripts/setup-postgres.sh | tail -1)
#
# What it does (each step is skipped when already done, so a second run takes
# well under a couple of seconds and changes nothing):
#   1. finds the newest installed PostgreSQL major >= 15 (apt-installs
#      postgresql-15 if there is none);
#   2. makes sure pgvector is installed for that major. Debian 12 does not
#      package pgvector, so it builds trixie's Debian *source* package against
#      postgresql-server-dev-NN (deb-src only: no trixie binary is installed);
#   3. initialises its OWN cluster in its own data directory, on its own port,
#      listening on 127.0.0.1 only, run by the `postgres` OS user (PostgreSQL
#      refuses to run as root) — it never touches any other cluster, e.g.
#      Debian's `15/main` on port 5432;
#   4. starts it with pg_ctl if it is not running;
#   5. creates the app role (with password) and the database(s) it owns, and
#      runs CREATE EXTENSION IF NOT EXISTS vector in each, as superuser, so the
#      app's own migration doing the same is a no-op.
#
# Output contract: every progress message goes to stderr; the LAST line on
# stdout is the connection URL of the database asked for (the last --db
# given, else COUNTERPOINT_PG_DB), e.g.
#   postgres://counterpoint:counterpoint@127.0.0.1:54329/counterpoint
#
# Environment (all optional):
#   COUNTERPOINT_PG_DIR       base dir for data/, log, socket  (/var/lib/counterpoint/pg)
#   COUNTERPOINT_PG_PORT      TCP port on 127.0.0.1            (54329)
#   COUNTERPOINT_PG_DB        default database name            (counterpoint)
#   COUNTERPOINT_PG_USER      app role name                    (counterpoint)
#   COUNTERPOINT_PG_PASSWORD  app role password                (counterpoint)
#   COUNTERPOINT_PG_OS_USER   OS user that runs the server when run as root (postgres)
#
# Stop the server with scripts/stop-postgres.sh (same environment).
set -euo pipefail

PG_DIR="${COUNTERPOINT_PG_DIR:-/var/lib/counterpoint/pg}"
PG_PORT="${COUNTERPOINT_PG_PORT:-54329}"
PG_DB="${COUNTERPOINT_PG_DB:-counterpoint}"
PG_USER="${COUNTERPOINT_PG_USER:-counterpoint}"
PG_PASSWORD="${COUNTERPOINT_PG_PASSWORD:-counterpoint}"
OS_USER="${COUNTERPOINT_PG_OS_USER:-postgres}"
MIN_MAJOR=15

DATA_DIR="$PG_DIR/data"
LOG_FILE="$PG_DIR/postgres.log"
# A socket directory of our own: avoids depending on /var/run/postgresql
# (may not exist on a fresh machine) and any clash with another cluster.
SOCK_DIR="$PG_DIR/run"

log() { printf '[setup-postgres] %s\n' "$*" >&2; }
die() {
  printf '[setup-postgres] ERROR: %s\n' "$1" >&2
  shift
  local line
  for line in "$@"; do printf '[setup-postgres]   -> %s\n' "$line" >&2; done
  exit 1
}
# If anything unexpected fails under `set -e`, say where, so the user is not
# left with a silent non-zero exit.
trap 'rc=$?; printf "[setup-postgres] ERROR: command failed (exit %s) at line %s: %s\n" "$rc" "$LINENO" "$BASH_COMMAND" >&2; printf "[setup-postgres]   -> see the messages above; server log (if any): %s\n" "$LOG_FILE" >&2' ERR

usage() {
  # The header comment block of this file is the help text.
  awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "${BASH_SOURCE[0]}" >&2
}

# ---------------------------------------------------------------- arguments
EXTRA_DBS=()
while [ $# -gt 0 ]; do
  case "$1" in
    --db) [ $# -ge 2 ] || die "--db needs a database name" "e.g. --db counterpoint_test"
          EXTRA_DBS+=("$2"); shift 2 ;;
    --db=*) EXTRA_DBS+=("${1#--db=}"); shift ;;
    -h|--help) usage; exit 0 ;;
    *) die "unknown argument: $1" "run with --help for usage" ;;
  esac
done

# Identifiers are quoted properly in SQL (format %I), but keep names sane so
# URLs and shell usage stay simple.
for name in "$PG_DB" "$PG_USER" ${EXTRA_DBS[@]+"${EXTRA_DBS[@]}"}; do
  [[ "$name" =~ ^[A-Za-z_][A-Za-z0-9_]{0,62}$ ]] \
    || die "invalid database/role name: '$name'" "use letters, digits and underscores (max 63 chars)"
done
[[ "$PG_PORT" =~ ^[0-9]+$ ]] && [ "$PG_PORT" -ge 1 ] && [ "$PG_PORT" -le 65535 ] \
  || die "invalid COUNTERPOINT_PG_PORT: '$PG_PORT'" "set it to a free TCP port, e.g. 54329"
case "$PG_DIR" in /*) ;; *) die "COUNTERPOINT_PG_DIR must be an absolute path (got '$PG_DIR')" ;; esac

# ------------------------------------------------------------ who runs what
# PostgreSQL refuses to run as root, so as root we run every server-side
# command as $OS_USER; as a normal user we run them as ourselves (then no apt
# installs are possible and COUNTERPOINT_PG_DIR must be writable by us).
IS_ROOT=0
[ "$(id -u)" -eq 0 ] && IS_ROOT=1
as_pg() {
  if [ "$IS_ROOT" -eq 1 ]; then
    runuser -u "$OS_USER" -- "$@"
  else
    "$@"
  fi
}

# --------------------------------------------------------------------- apt
APT_UPDATED=0
apt_update_once() {
  [ "$APT_UPDATED" -eq 1 ] && return 0
  log "apt-get update ..."
  apt-get update -qq >&2 || die "apt-get update failed" "check network access to the Debian mirrors and /etc/apt/sources.list.d/"
  APT_UPDATED=1
}
apt_install() {
  [ "$IS_ROOT" -eq 1 ] || die "need to install Debian packages: $*" \
    "run this script as root (or: sudo apt-get install -y $*) and re-run"
  apt_update_once
  log "apt-get install $* ..."
  # --no-install-recommends keeps it small; never `apt-get upgrade` (that, with
  # the trixie deb-src entry below, would still not pull trixie binaries, but
  # upgrading the machine is not this script's business).
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >&2 \
    || die "apt-get install $* failed" "try it by hand to see why: apt-get install $*"
}
pkg_installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q '^install ok installed$'; }

# ------------------------------------------- 1. pick the PostgreSQL binaries
newest_major() {
  # Debian layout: /usr/lib/postgresql/<major>/bin/{postgres,pg_ctl,initdb}.
  # (/usr/local/bin/pg_ctl may exist too — we ignore PATH on purpose and use
  # the versioned directory so binaries, server-dev and extension all match.)
  local d m best=""
  for d in /usr/lib/postgresql/*/bin; do
    [ -x "$d/postgres" ] && [ -x "$d/pg_ctl" ] && [ -x "$d/initdb" ] || continue
    m="$(basename "$(dirname "$d")")"
    [[ "$m" =~ ^[0-9]+$ ]] && [ "$m" -ge "$MIN_MAJOR" ] || continue
    if [ -z "$best" ] || [ "$m" -gt "$best" ]; then best="$m"; fi
  done
  printf '%s' "$best"
}

if [ -f "$DATA_DIR/PG_VERSION" ]; then
  # An existing cluster must keep running on the major it was created with.
  PG_MAJOR="$(cat "$DATA_DIR/PG_VERSION")"
  [ -x "/usr/lib/postgresql/$PG_MAJOR/bin/postgres" ] || die \
    "cluster in $DATA_DIR was created by PostgreSQL $PG_MAJOR, whose server is not installed" \
    "install it (apt-get install postgresql-$PG_MAJOR), or stop and move $PG_DIR away to start fresh"
else
  PG_MAJOR="$(newest_major)"
  if [ -z "$PG_MAJOR" ]; then
    log "no PostgreSQL >= $MIN_MAJOR server found under /usr/lib/postgresql; installing postgresql-15"
    # Note: Debian's package also creates (and starts) its own 15/main cluster
    # on port 5432; we leave that one alone.
    apt_install postgresql-15
    PG_MAJOR="$(newest_major)"
    [ -n "$PG_MAJOR" ] || die "postgresql-15 installed but no server binaries under /usr/lib/postgresql/*/bin" "check: dpkg -L postgresql-15"
  fi
fi
PG_BIN="/usr/lib/postgresql/$PG_MAJOR/bin"
log "using PostgreSQL $PG_MAJOR ($PG_BIN)"

if [ "$IS_ROOT" -eq 1 ] && ! id -u "$OS_USER" >/dev/null 2>&1; then
  log "creating system user $OS_USER"
  useradd --system --user-group --home-dir /var/lib/postgresql --shell /bin/bash "$OS_USER" \
    || die "could not create OS user $OS_USER" "create it by hand: useradd --system --user-group $OS_USER"
fi

# ---------------------------------------------------------- 2. pgvector
# Debian layout of extension files for major NN (same as pg_config's
# --sharedir/--pkglibdir, but pg_config only exists once server-dev is in).
EXT_CONTROL="/usr/share/postgresql/$PG_MAJOR/extension/vector.control"
EXT_LIB="/usr/lib/postgresql/$PG_MAJOR/lib/vector.so"
TRIXIE_SRC_LIST=/etc/apt/sources.list.d/counterpoint-trixie-src.sources

install_pgvector() {
  [ "$IS_ROOT" -eq 1 ] || die "pgvector is not installed for PostgreSQL $PG_MAJOR" \
    "re-run this script as root to build and install it (or install postgresql-$PG_MAJOR-pgvector)"

  # A packaged build, if this Debian happens to have one, is the quickest.
  if apt-cache show "postgresql-$PG_MAJOR-pgvector" >/dev/null 2>&1; then
    apt_install "postgresql-$PG_MAJOR-pgvector"
    [ -f "$EXT_CONTROL" ] && return 0
  fi

  # Debian 12 has no pgvector: build trixie's source package. Only a deb-src
  # entry is added (in its own file), so apt never sees trixie *binary*
  # packages and nothing on the machine moves to trixie.
  if [ ! -f "$TRIXIE_SRC_LIST" ]; then
    log "adding trixie deb-src entry: $TRIXIE_SRC_LIST"
    cat >"$TRIXIE_SRC_LIST" <<'EOF'
# Added by Counterpoint's scripts/setup-postgres.sh: source packages only
# (used to build pgvector, which Debian 12 does not package). No binaries.
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: trixie
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
    APT_UPDATED=0 # the new source's index must be fetched
  fi

  local need=()
  pkg_installed build-essential || need+=(build-essential)
  pkg_installed dpkg-dev || need+=(dpkg-dev)
  pkg_installed "postgresql-server-dev-$PG_MAJOR" || need+=("postgresql-server-dev-$PG_MAJOR")
  if [ ${#need[@]} -gt 0 ]; then
    apt_install "${need[@]}"
  else
    apt_update_once
  fi

  local pg_config="$PG_BIN/pg_config"
  [ -x "$pg_config" ] || die "$pg_config not found after installing postgresql-server-dev-$PG_MAJOR" \
    "check: dpkg -L postgresql-server-dev-$PG_MAJOR | grep pg_config"

  local tmp
  tmp="$(mktemp -d /tmp/counterpoint-pgvector.XXXXXX)"
  # apt downloads as the unprivileged _apt user when it can write the target
  # dir (otherwise it warns and downloads as root).
  if id -u _apt >/dev/null 2>&1; then chown _apt "$tmp"; fi
  log "fetching pgvector source (trixie) into $tmp"
  ( cd "$tmp" && apt-get source -qq pgvector >&2 ) || die "apt-get source pgvector failed" \
    "check $TRIXIE_SRC_LIST and that 'apt-get update' fetched trixie Sources"
  local srcdir
  srcdir="$(find "$tmp" -mindepth 1 -maxdepth 1 -type d -name 'pgvector-*' | head -n1)"
  [ -n "$srcdir" ] || die "pgvector source not unpacked in $tmp" "is dpkg-dev installed? (dpkg-source is needed)"

  log "building $(basename "$srcdir") against PostgreSQL $PG_MAJOR"
  # OPTFLAGS= : no -march=native (as Debian's own build does), so the .so
  # also runs if this image lands on a different CPU.
  make -s -C "$srcdir" -j"$(nproc)" PG_CONFIG="$pg_config" OPTFLAGS= >&2 \
    || die "building pgvector failed" "see the compiler output above; sources left in $srcdir"
  make -s -C "$srcdir" install PG_CONFIG="$pg_config" OPTFLAGS= >&2 \
    || die "installing pgvector failed" "sources left in $srcdir"
  rm -rf "$tmp"
}

if [ -f "$EXT_CONTROL" ] && [ -f "$EXT_LIB" ]; then
  log "pgvector already installed for PostgreSQL $PG_MAJOR"
else
  log "pgvector not installed for PostgreSQL $PG_MAJOR; installing"
  install_pgvector
  [ -f "$EXT_CONTROL" ] && [ -f "$EXT_LIB" ] || die "pgvector install finished but $EXT_CONTROL / $EXT_LIB are missing" \
    "check the build output above"
  log "pgvector installed: $(grep -E '^default_version' "$EXT_CONTROL" || true)"
fi

# ------------------------------------------------------- 3. the cluster
# Serialise concurrent runs (e.g. parallel CI jobs) on one lock per PG_DIR.
if [ "$IS_ROOT" -eq 1 ]; then
  mkdir -p "$PG_DIR"
  # The data dir's parents must be traversable by the server's OS user.
  chown "$OS_USER:" "$PG_DIR"
  chmod 700 "$PG_DIR"
else
  mkdir -p "$PG_DIR" 2>/dev/null && [ -w "$PG_DIR" ] || die "cannot create or write $PG_DIR" \
    "run as root, or set COUNTERPOINT_PG_DIR to a directory you own (e.g. \$HOME/.counterpoint/pg)"
fi
exec 9>>"$PG_DIR/.setup.lock"
# Let the server's OS user run this script on the same dir later, too.
if [ "$IS_ROOT" -eq 1 ]; then chown "$OS_USER:" "$PG_DIR/.setup.lock"; fi
flock -w 120 9 || die "another setup-postgres.sh holds $PG_DIR/.setup.lock for over 2 minutes" "wait for it, or check for a stuck process"

as_pg mkdir -p "$SOCK_DIR"

if [ ! -f "$DATA_DIR/PG_VERSION" ]; then
  log "initialising new cluster in $DATA_DIR"
  # The superuser is the OS user ($OS_USER), reached by peer auth over our own
  # unix socket; TCP logins (the app) need a scram-sha-256 password.
  as_pg "$PG_BIN/initdb" -D "$DATA_DIR" -E UTF8 --locale=C.UTF-8 \
    --auth-local=peer --auth-host=scram-sha-256 >"$PG_DIR/initdb.log" 2>&1 \
    || die "initdb failed" "see $PG_DIR/initdb.log; remove $DATA_DIR before retrying"
fi

# Our settings live in their own file, included from postgresql.conf once and
# rewritten every run so env changes (e.g. the port) take effect.
CONF_FILE="$DATA_DIR/counterpoint.conf"
NEW_CONF="# Written by scripts/setup-postgres.sh on every run; edit the env vars, not this file.
listen_addresses = '127.0.0.1'
port = $PG_PORT
unix_socket_directories = '$SOCK_DIR'
"
CONF_CHANGED=0
if [ ! -f "$CONF_FILE" ] || [ "$(cat "$CONF_FILE")" != "$(printf '%s' "$NEW_CONF")" ]; then
  printf '%s' "$NEW_CONF" | as_pg tee "$CONF_FILE" >/dev/null
  CONF_CHANGED=1
fi
grep -q "^include_if_exists = 'counterpoint.conf'" "$DATA_DIR/postgresql.conf" \
  || printf "\ninclude_if_exists = 'counterpoint.conf'\n" | as_pg tee -a "$DATA_DIR/postgresql.conf" >/dev/null

# ------------------------------------------------------------ 4. start it
start_server() {
  log "starting server on 127.0.0.1:$PG_PORT (log: $LOG_FILE)"
  # 9>&- : the server must not inherit our lock's file descriptor, or it
  # would hold the lock for as long as it runs.
  if ! as_pg "$PG_BIN/pg_ctl" -D "$DATA_DIR" -l "$LOG_FILE" -w -t 60 start >/dev/null 2>&1 9>&-; then
    tail -n 20 "$LOG_FILE" >&2 2>/dev/null || true
    die "the server did not start (log tail above, full log: $LOG_FILE)" \
      "if the port is taken, pick another: COUNTERPOINT_PG_PORT=NNNN bash scripts/setup-postgres.sh" \
      "check what listens there: ss -ltnp | grep :$PG_PORT"
  fi
}
if as_pg "$PG_BIN/pg_ctl" -D "$DATA_DIR" status >/dev/null 2>&1; then
  if [ "$CONF_CHANGED" -eq 1 ]; then
    log "settings changed (port/listen/socket); restarting"
    as_pg "$PG_BIN/pg_ctl" -D "$DATA_DIR" -m fast -w stop >/dev/null
    start_server
  else
    log "server already running (data: $DATA_DIR)"
  fi
else
  start_server
fi

# ------------------------------------------------- 5. role, databases, vector
# Superuser session over our private unix socket. ON_ERROR_STOP makes any SQL
# failure a non-zero exit.
psql_su() {
  as_pg "$PG_BIN/psql" -X -q -v ON_ERROR_STOP=1 -h "$SOCK_DIR" -p "$PG_PORT" -d "$1" "${@:2}"
}

# The app role: created if missing. If the password in the environment does
# not work for a TCP login (role new, or password changed), set it; otherwise
# leave the catalog untouched so a second run changes nothing.
role_login_ok() {
  PGPASSWORD="$PG_PASSWORD" PGCONNECT_TIMEOUT=5 "$PG_BIN/psql" -X -q -At \
    "host=127.0.0.1 port=$PG_PORT user=$PG_USER dbname=postgres" -c 'SELECT 1' >/dev/null 2>&1
}
if ! role_login_ok; then
  log "creating/updating role $PG_USER"
  psql_su postgres -v role="$PG_USER" -v pw="$PG_PASSWORD" >/dev/null <<'SQL' \
    || die "could not create/update role $PG_USER" "see the psql error above; server log: $LOG_FILE"
SELECT format('CREATE ROLE %I LOGIN', :'role')
  WHERE NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = :'role') \gexec
SELECT format('ALTER ROLE %I LOGIN PASSWORD %L', :'role', :'pw') \gexec
SQL
  role_login_ok || die "role $PG_USER still cannot log in over TCP with the given password" \
    "check $DATA_DIR/pg_hba.conf and the server log: $LOG_FILE"
fi

ensure_db() {
  local db="$1"
  psql_su postgres -v db="$db" -v role="$PG_USER" >/dev/null <<'SQL' \
    || die "could not create database $db" "see the psql error above; server log: $LOG_FILE"
SELECT format('CREATE DATABASE %I OWNER %I', :'db', :'role')
  WHERE NOT EXISTS (SELECT 1 FROM pg_database WHERE datname = :'db') \gexec
SQL
  # Created by the superuser up front, so the app's own
  # `CREATE EXTENSION IF NOT EXISTS vector` (run as $PG_USER) is a no-op.
  psql_su "$db" -c 'CREATE EXTENSION IF NOT EXISTS vector' >/dev/null 2>&1 \
    || die "CREATE EXTENSION vector failed in database $db" \
      "check $EXT_CONTROL and $EXT_LIB exist and match PostgreSQL $PG_MAJOR; server log: $LOG_FILE"
}

TARGET_DB="$PG_DB"
ensure_db "$PG_DB"
for db in ${EXTRA_DBS[@]+"${EXTRA_DBS[@]}"}; do
  ensure_db "$db"
  TARGET_DB="$db"
done
log "ready: databases [$PG_DB${EXTRA_DBS[*]:+ ${EXTRA_DBS[*]}}] owned by $PG_USER, vector $(psql_su "$TARGET_DB" -At -c "SELECT extversion FROM pg_extension WHERE extname = 'vector'")"

# ------------------------------------------------------------------ 6. URL
urlencode() {
  local s="$1" out="" c i
  for ((i = 0; i < ${#s}; i++)); do
    c="${s:i:1}"
    case "$c" in
      [A-Za-z0-9._~-]) out+="$c" ;;
      *) out+="$(printf '%%%02X' "'$c")" ;;
    esac
  done
  printf '%s' "$out"
}
trap - ERR
printf 'postgres://%s:%s@127.0.0.1:%s/%s\n' \
  "$(urlencode "$PG_USER")" "$(urlencode "$PG_PASSWORD")" "$PG_PORT" "$TARGET_DB"
