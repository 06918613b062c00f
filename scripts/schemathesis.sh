#!/usr/bin/env bash
# The REST contract proven against the binary: starts `feedmill all` on embedded defaults (a temp
# data dir, a free port, its self-signed certificate), makes an API key with `feedmill keys create`,
# and runs Schemathesis with every check against the OpenAPI document the process serves. Any
# finding fails the run. Schemathesis (pinned) is installed into .cache/venv when missing.
#
#   bash scripts/schemathesis.sh            # after `npm run build`
#   SCHEMATHESIS_MAX_EXAMPLES=50 bash scripts/schemathesis.sh
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

version=4.32.5
venv=.cache/venv
examples=${SCHEMATHESIS_MAX_EXAMPLES:-15}
# A backstop for the fuzzing and stateful phases, which the examples bound first; the whole
# script stays well under ten minutes.
max_time=${SCHEMATHESIS_MAX_TIME:-300}

say() { echo "schemathesis: $*" >&2; }

# shellcheck source=scripts/lib/python-venv.sh
source scripts/lib/python-venv.sh
pinned_venv "$venv" schemathesis "$version" true
# RE2's Python binding (a wheel with the library inside): the hooks judge `format: regex` by the
# dialect feedmill matches patterns with (scripts/schemathesis_hooks.py).
re2_version=1.1.20251105
if [[ $("$venv/bin/python" -m pip show google-re2 2>/dev/null | sed -n 's/^Version: //p') != "$re2_version" ]]; then
  say "installing google-re2 $re2_version into $venv"
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "google-re2==$re2_version" >&2
fi

# The run itself happens in a network namespace of its own, with nothing but a loopback interface:
# fuzzed sources and webhook targets name random hosts and public addresses, and none of those
# requests (nor a DNS lookup for them) may leave this machine. feedmill refuses them with
# `source_unreachable` at once, which is also what keeps the run fast.
if [[ -z ${FEEDMILL_SCHEMATHESIS_ISOLATED:-} ]]; then
  if ! command -v unshare >/dev/null || ! command -v ip >/dev/null; then
    say "installing util-linux and iproute2 (unshare and ip make the run's private network)"
    export DEBIAN_FRONTEND=noninteractive
    apt-get install -y --no-install-recommends util-linux iproute2 >&2 || { apt-get update >&2 && apt-get install -y --no-install-recommends util-linux iproute2 >&2; }
  fi
  # Root may make a namespace outright; anyone else maps themselves to root inside one.
  as_root=()
  if [[ $(id -u) -ne 0 ]]; then as_root=(--map-root-user); fi
  exec env FEEDMILL_SCHEMATHESIS_ISOLATED=1 unshare --net "${as_root[@]}" -- bash -c 'ip link set lo up && exec bash "$0"' "${BASH_SOURCE[0]}"
fi

if [[ ! -f dist/src/main/cli.js ]]; then
  say "dist/ is missing; run \`npm run build\` first"
  exit 1
fi

data=$(mktemp -d)
pid=
# shellcheck disable=SC2317 # called by the EXIT trap
cleanup() {
  local status=$?
  if [[ -n $pid ]] && kill -0 "$pid" 2>/dev/null; then
    kill -TERM "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  fi
  if [[ $status -ne 0 && -f $data/feedmill.log ]]; then
    say "the last lines feedmill printed:"
    tail -n 20 "$data/feedmill.log" >&2 || true
  fi
  rm -rf "$data"
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

port=$(node -e 'const s = require("node:net").createServer().listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); })')
export FEEDMILL_DATA_DIR=$data FEEDMILL_PORT=$port FEEDMILL_HOST=127.0.0.1 FEEDMILL_METRICS_PORT=0
# Schemathesis sends a few thousand requests with one key; the default budget would answer 429.
export FEEDMILL_RATE_LIMIT=1000000
# Generated sources and webhook targets are mostly names that do not resolve or hosts that do not
# answer; short deadlines keep each such request from eating the time budget.
export FEEDMILL_FETCH_TIMEOUT=3 FEEDMILL_WEBHOOK_TIMEOUT=3
export FEEDMILL_PUBLIC_URL="https://localhost:$port"
# A feed's `min_interval` may not go below the installation's floor, which no static schema knows:
# the schema states the lowest floor there is (1 s), so the run uses it.
export FEEDMILL_POLL_MIN_INTERVAL=1
# `render: always` starts the service's Chromium (FEEDMILL_CHROMIUM_PATH, set by CI); as root, as CI
# runs, Chromium starts only without its own sandbox, which the service drops only when told
# (docs/rendering.md). Otherwise every such request would be a 503 `render_unavailable`.
if [[ $(id -u) -eq 0 ]]; then export FEEDMILL_RENDER_NO_SANDBOX=true; fi

credentials=$(node dist/src/main/cli.js keys create --account schemathesis --scopes read,write --json)
bearer=$(node -e 'const k = JSON.parse(process.argv[1]); console.log(`${k.key}:${k.secret}`)' "$credentials")

node dist/src/main/cli.js all >"$data/feedmill.log" 2>&1 &
pid=$!

cert=$data/tls/self-signed-cert.pem
for _ in $(seq 1 150); do
  if ! kill -0 "$pid" 2>/dev/null; then
    say "feedmill exited before answering"
    exit 1
  fi
  if [[ -f $cert ]] && curl --silent --fail --cacert "$cert" "https://localhost:$port/healthz" >/dev/null 2>&1; then break; fi
  sleep 0.2
done

# Every check and every phase, stateful included, judged as the server judges: `format: regex` by
# RE2's dialect (the hooks below), not Python's. One check is left out: a webhook whose body names a
# feed or bundle that does not exist is 404 `feed_not_found` / `bundle_not_found` (DESIGN.md:
# another account's resource is 404), and ensure_resource_availability reads any 404 after a create
# as "the created resource vanished", although the webhook in the path is there and the error code
# names what was not found.
# Deterministic enough for CI: a fixed seed, no example database, and bounded by examples per
# operation (the time cap is a backstop that a healthy run does not reach).
export SCHEMATHESIS_HOOKS=schemathesis_hooks
export PYTHONPATH="$PWD/scripts${PYTHONPATH:+:$PYTHONPATH}"
say "running against https://localhost:$port (max $examples examples per operation, ${max_time}s of fuzzing)"
# Run from the temp dir: Schemathesis keeps a cache (.schemathesis/) in its working directory.
root=$PWD
cd "$data"
"$root/$venv/bin/schemathesis" --config-file "$root/scripts/schemathesis.toml" run "https://localhost:$port/v1/openapi.json" \
  --url "https://localhost:$port" \
  --checks all \
  --exclude-checks ensure_resource_availability \
  --phases examples,coverage,fuzzing,stateful \
  --tls-verify "$cert" \
  --header "Authorization: Bearer $bearer" \
  --max-examples "$examples" \
  --max-time "$max_time" \
  --request-timeout 20 \
  --seed "${SCHEMATHESIS_SEED:-1}" \
  --generation-database none \
  --no-color
