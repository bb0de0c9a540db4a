#!/usr/bin/env bash
# `npm run test:all`: installs what the tests need on a Debian machine (Debian's chromium for
# Playwright, a local PostgreSQL with pgvector for the second database backend), then runs every
# suite: type check, unit, integration on PGlite, integration on PostgreSQL, end-to-end.
# It runs all suites even when one fails, and ends with one line: "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/.."

export NEXT_TELEMETRY_DISABLED=1
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
# Not under test-results/: Playwright empties that folder when it starts.
REPORTS=.test-data/reports
rm -rf "$REPORTS" && mkdir -p "$REPORTS"

step() { printf '\n== %s\n' "$*"; }
as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else return 1; fi; }

step "dependencies"
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm install --no-audit --no-fund || { echo "npm install failed"; exit 1; }
fi

step "chromium (Debian package; Playwright never downloads a browser)"
CHROMIUM_PATH=${CHROMIUM_PATH:-/usr/bin/chromium}
if [ ! -x "$CHROMIUM_PATH" ]; then
  if ! { as_root apt-get update -qq && DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq chromium; } >&2; then
    echo "Could not install chromium. Install Debian's chromium package (apt-get install chromium) or set CHROMIUM_PATH." >&2
    exit 1
  fi
fi
export CHROMIUM_PATH

step "PostgreSQL with pgvector (own cluster, own port)"
if [ -n "${TEST_DATABASE_URL:-}" ]; then
  echo "using TEST_DATABASE_URL from the environment"
else
  TEST_DATABASE_URL=$(bash scripts/setup-postgres.sh --db counterpoint_test | tail -n 1) || { echo "PostgreSQL setup failed (see above)" >&2; exit 1; }
fi
echo "$TEST_DATABASE_URL" | sed -E 's#://([^:]+):[^@]*@#://\1:***@#'
# The end-to-end spec of two app servers and two workers (e2e/multi-server.spec.ts) wipes a
# database of its own: never the integration suite's.
if [ -z "${E2E_POSTGRES_URL:-}" ]; then
  E2E_POSTGRES_URL=$(bash scripts/setup-postgres.sh --db counterpoint_e2e | tail -n 1) || { echo "PostgreSQL setup for the end-to-end database failed (see above)" >&2; exit 1; }
fi
export E2E_POSTGRES_URL

# Each suite writes a JSON report; a suite that crashes before reporting counts as one failure.
run_vitest() { # name, project, [env...]
  local name=$1 project=$2; shift 2
  step "$name"
  env "$@" npx vitest run --project "$project" --reporter=default --reporter=json --outputFile.json="$REPORTS/$name.vitest.json"
  echo $? > "$REPORTS/$name.exit"
}

# The type checker runs on one core for minutes: it runs beside the checks and unit tests below,
# and its output is printed after them.
{ npx tsc --noEmit; echo $? > "$REPORTS/typecheck.exit"; } > "$REPORTS/typecheck.log" 2>&1 &
typecheck=$!

step "dependency rules (db/ below lib/, lib/ below app/ and the CLI, no import circles)"
node scripts/check-deps.mjs; echo $? > "$REPORTS/dependency-rules.exit"

step "lint (biome)"
npx biome lint .; echo $? > "$REPORTS/lint.exit"

# The formatter check starts once the tree has been formatted (npm run format) and the marker
# file .format-enforced is committed; before that it would fail on every file written by hand.
if [ -f .format-enforced ]; then
  step "format (biome)"
  npx biome format .; echo $? > "$REPORTS/format.exit"
fi

run_vitest unit unit

step "typecheck (ran beside the steps above)"
wait "$typecheck"
cat "$REPORTS/typecheck.log"

# The two integration passes run side by side: PGlite's pass waits on the CPU of its own process,
# PostgreSQL's on its server, so together they take little more than the longer one. Each file
# still runs alone within its pass (one database per file). The PGlite pass prints when it is done.
step "integration on PGlite and on PostgreSQL, side by side (PGlite's output follows PostgreSQL's)"
run_vitest integration-pglite integration TEST_DATABASE_URL= > "$REPORTS/integration-pglite.log" 2>&1 &
pglite_pass=$!
run_vitest integration-postgres integration TEST_DATABASE_URL="$TEST_DATABASE_URL"
# The end-to-end suite's production build starts as soon as the PostgreSQL pass ends, on the core
# it frees while the PGlite pass may still run (not earlier: the PostgreSQL pass's bench-scale test
# starts an app server on .next when a build exists). Every page renders per request, so the build
# reads no setting the end-to-end server is started with; if it fails, the end-to-end server's
# start (scripts/start.mjs) builds again and shows why.
npx next build > "$REPORTS/build.log" 2>&1 &
build=$!
wait "$pglite_pass"
cat "$REPORTS/integration-pglite.log"
wait "$build"; echo "(production build exit code $?)" >> "$REPORTS/build.log"

step "end-to-end (production build, started when the PostgreSQL pass ended; headless chromium)"
cat "$REPORTS/build.log"
PLAYWRIGHT_JSON_OUTPUT_NAME="$REPORTS/e2e.playwright.json" npx playwright test --reporter=list,json
echo $? > "$REPORTS/e2e.exit"

step "summary"
node scripts/test-summary.mjs "$REPORTS"
