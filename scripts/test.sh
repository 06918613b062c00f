#!/usr/bin/env bash
# What `npm test` runs: build, make sure Redis and Cassandra answer (starting those that do not),
# run tap with the arguments given (`scripts/test.sh dist/test/contract/store-cassandra.test.js`),
# stop what this run started, and exit with tap's code. FEEDMILL_TEST_RUNS=N runs tap N times in a
# row (each to the end, failing if any failed), for hunting flaky tests on a loaded machine.
#
# The cluster adapters are tested against real servers, so a server that does not come up fails
# the run: never a silent skip. FEEDMILL_TEST_REDIS_URL / FEEDMILL_TEST_CASSANDRA_CONTACT_POINTS
# set beforehand point the tests at servers managed elsewhere; this script then leaves them alone.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

say() { echo "test: $*" >&2; }

started=()
build_pid=
# shellcheck disable=SC2317 # called by the EXIT trap
cleanup() {
  local status=$?
  if [[ -n $build_pid ]]; then kill "$build_pid" 2>/dev/null || true; fi
  # Reverse order of start (STYLE.md habit 14).
  for ((i = ${#started[@]} - 1; i >= 0; i--)); do
    bash "scripts/services/${started[i]}.sh" stop || say "could not stop ${started[i]}"
  done
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# Starts a service unless it already answers; remembers it so cleanup stops it again.
ensure() {
  local name=$1
  if bash "scripts/services/$name.sh" status 2>/dev/null; then
    say "$name: using the server already running"
    return 0
  fi
  # Remembered before starting: a start that fails half-way still leaves a process to stop.
  started+=("$name")
  if ! bash "scripts/services/$name.sh" start; then
    say "$name did not come up; the cluster adapter tests need it (see the lines above)"
    exit 1
  fi
}

# The build runs while the servers start: Cassandra needs ~8 s, tsc about as long. Compiled tests
# go first (with the build info, or tsc would not emit them again): tsc never deletes the output of a
# source that is gone, and tap would run a stale test.
rm -rf dist/test dist/.tsbuildinfo
npx tsc -p tsconfig.json &
build_pid=$!

if [[ -z ${FEEDMILL_TEST_CASSANDRA_CONTACT_POINTS:-} ]]; then
  ensure cassandra
  export FEEDMILL_TEST_CASSANDRA_CONTACT_POINTS="127.0.0.1:${FEEDMILL_CASSANDRA_PORT:-9042}"
fi
if [[ -z ${FEEDMILL_TEST_REDIS_URL:-} ]]; then
  ensure redis
  export FEEDMILL_TEST_REDIS_URL="redis://127.0.0.1:${FEEDMILL_REDIS_PORT:-6379}"
fi

# The browser tests use the Chromium already installed, never install one (`.ci/run` does, and
# sets FEEDMILL_REQUIRE_BROWSER so they fail instead of skipping); without one they are skipped.
if [[ -z ${FEEDMILL_CHROMIUM_PATH:-} ]] && chromium=$(bash scripts/services/chromium.sh --no-install 2>/dev/null); then
  export FEEDMILL_CHROMIUM_PATH=$chromium
fi

if ! wait "$build_pid"; then
  build_pid=
  say "the build failed (tsc above)"
  exit 1
fi
build_pid=

status=0
runs=${FEEDMILL_TEST_RUNS:-1}
failed=0
for ((run = 1; run <= runs; run++)); do
  if npx tap "$@"; then
    if ((runs > 1)); then say "run $run of $runs passed"; fi
  else
    status=1
    failed=$((failed + 1))
    say "run $run of $runs failed"
  fi
done
if ((runs > 1)); then say "$((runs - failed)) of $runs runs passed"; fi
exit "$status"
