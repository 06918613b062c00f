#!/usr/bin/env bash
# CI's fuzzing step: every target of test/fuzz/targets/ over a fixed number of mutations from a
# fixed seed (`npm run fuzz -- all --ci`: each target's `ciRuns`), failing on any finding. The same
# inputs on every machine: a pass green on a developer's machine is green in CI, and a finding here
# is a regression, never the luck of a new random seed. Searching for new findings is the timed
# runs' job (bench/README.md, "Fuzzing"). FEEDMILL_FUZZ_SKIP="name …" leaves targets out while a
# finding in them is open.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

skip=()
for name in ${FEEDMILL_FUZZ_SKIP:-}; do skip+=(--skip "$name"); done
if ! npm run --silent fuzz -- all --ci "${skip[@]}"; then
  echo "fuzz-ci: a target reported a finding (its input is under .cache/fuzz/<target>/findings/)" >&2
  exit 1
fi
