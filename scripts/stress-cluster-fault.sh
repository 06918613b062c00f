#!/usr/bin/env bash
# Runs the cluster fault test (test/e2e/cluster-fault.test.ts) many times in a row on a machine
# whose CPU is saturated, to show that no item is announced twice whatever the timing: a worker
# starved of CPU misses its job lock renewal, another worker takes the job over, and the two
# refreshes race to store the same new items. Not part of every CI run (about 2 min a run).
#
#   bash scripts/stress-cluster-fault.sh [RUNS=20] [BURNERS=2 x cores]
#
# How the stress is made: BURNERS child processes each spin a busy loop (`node -e 'for(;;);'`) at
# normal priority for the whole run, so the test's API, workers, Redis and Cassandra compete with
# them for every core. They are killed when the script ends, however it ends. Output: one line per
# run, then "N passed, N failed".
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

runs=${1:-20}
burners=${2:-$(($(nproc) * 2))}
burner_pids=()
stop_burners() {
  for pid in "${burner_pids[@]}"; do kill "$pid" 2>/dev/null || true; done
}
trap stop_burners EXIT

for ((i = 0; i < burners; i++)); do
  node -e 'for (;;);' &
  burner_pids+=($!)
done
echo "stress: $burners busy loops on $(nproc) cores; $runs runs of the cluster fault test" >&2

passed=0
failed=0
for ((run = 1; run <= runs; run++)); do
  started=$(date +%s)
  if bash scripts/test.sh dist/test/e2e/cluster-fault.test.js >"/tmp/feedmill-stress-$run.log" 2>&1; then
    passed=$((passed + 1))
    echo "run $run: passed in $(($(date +%s) - started)) s" >&2
  else
    failed=$((failed + 1))
    echo "run $run: FAILED in $(($(date +%s) - started)) s; log: /tmp/feedmill-stress-$run.log" >&2
    grep -E 'not ok|announced by two' "/tmp/feedmill-stress-$run.log" | head -n 5 >&2 || true
  fi
done
echo "stress: $passed passed, $failed failed"
[[ $failed -eq 0 ]]
