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

say() { echo "feedparser: $*" >&2; }

installed() { [[ $("$venv/bin/python" -m pip show feedparser 2>/dev/null | sed -n 's/^Version: //p') == "$version" ]]; }
if ! installed; then
  if ! command -v python3 >/dev/null; then
    say "Python 3 is needed (feedparser is a Python library); install python3 with its venv module"
    exit 1
  fi
  say "installing feedparser $version into $venv"
  rm -rf "$venv"
  # A venv keeps it apart from the system's packages (which pip may refuse to touch, PEP 668).
  if ! python3 -m venv "$venv"; then
    rm -rf "$venv"
    # Debian ships the venv module apart from python3. Only CI (FEEDMILL_REQUIRE_FEEDPARSER=true)
    # installs system packages; a test run on someone's machine skips instead.
    if [[ ${FEEDMILL_REQUIRE_FEEDPARSER:-} != true ]]; then
      say "python3 -m venv failed; install python3-venv (Debian) to run the hosted-format tests"
      exit 1
    fi
    say "python3 -m venv failed; installing python3-venv"
    export DEBIAN_FRONTEND=noninteractive
    apt-get install -y --no-install-recommends python3-venv >&2 || { apt-get update >&2 && apt-get install -y --no-install-recommends python3-venv >&2; }
    python3 -m venv "$venv"
  fi
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "feedparser==$version" >&2
fi
echo "$PWD/$venv/bin/python"
