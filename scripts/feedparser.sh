#!/usr/bin/env bash
# Installs Python's feedparser (pinned) into .cache/feedparser-venv, the independent parser the
# hosted-output tests read every format with (test/http/hosted-formats-feedparser.test.ts).
# Prints the venv's python on success. A venv of its own: scripts/schemathesis.sh rebuilds
# .cache/venv whenever its own pin changes.
#
#   bash scripts/feedparser.sh
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

version=6.0.14
venv=.cache/feedparser-venv

# shellcheck source=scripts/lib/python-venv.sh
source scripts/lib/python-venv.sh
# Only CI (FEEDMILL_REQUIRE_FEEDPARSER=true) installs system packages; a test run skips instead.
pinned_venv "$venv" feedparser "$version" "$([[ ${FEEDMILL_REQUIRE_FEEDPARSER:-} == true ]] && echo true || echo false)"
echo "$PWD/$venv/bin/python"
