#!/usr/bin/env bash
# CI's fuzzing step: every target of test/fuzz/targets/ for a few seconds each (default 15,
# FEEDMILL_FUZZ_SECONDS overrides), failing on any finding. Bounded, so it catches a regression a
# seed or a short search reaches; the long searches are run by hand (bench/README.md, "Fuzzing").
# FEEDMILL_FUZZ_SKIP="name …" leaves targets out while a finding in them is open.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

seconds=${FEEDMILL_FUZZ_SECONDS:-15}
skip=()
for name in ${FEEDMILL_FUZZ_SKIP:-}; do skip+=(--skip "$name"); done
if ! npm run --silent fuzz -- all --seconds "$seconds" "${skip[@]}"; then
  echo "fuzz-ci: a target reported a finding (its input is under .cache/fuzz/<target>/findings/)" >&2
  exit 1
fi
