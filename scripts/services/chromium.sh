#!/usr/bin/env bash
# The Chromium the browser tests drive: `chromium.sh [--no-install]` prints the path of its binary.
#
# FEEDMILL_CHROMIUM_PATH, when set, is the answer (and must be an executable file: a wrong path is
# an error, never silently replaced by another browser). Otherwise Debian's `chromium` on PATH.
# When there is none, Debian's `chromium` package is installed with apt; `--no-install` only looks
# (exit 1 when nothing is found), which is what `npm test` uses on a developer's machine.
#
# Only the distribution's package, never a browser download (`playwright install` and the like
# fetch from a CDN; CI machines have no internet, and apt has the signed, patched build).
set -euo pipefail

say() { echo "chromium: $*" >&2; }

as_root() {
  if [[ $(id -u) -eq 0 ]]; then "$@"
  elif command -v sudo >/dev/null; then sudo "$@"
  else say "installing needs root (or sudo): $*"; return 1
  fi
}

# A path given by FEEDMILL_CHROMIUM_PATH is the answer, checked before anything is installed.
if [[ -n ${FEEDMILL_CHROMIUM_PATH:-} && ! ( -f $FEEDMILL_CHROMIUM_PATH && -x $FEEDMILL_CHROMIUM_PATH ) ]]; then
  say "FEEDMILL_CHROMIUM_PATH: expected an executable file, got \`$FEEDMILL_CHROMIUM_PATH\`"
  exit 1
fi

find_chromium() {
  if [[ -n ${FEEDMILL_CHROMIUM_PATH:-} ]]; then echo "$FEEDMILL_CHROMIUM_PATH"; else command -v chromium; fi
}

install() {
  say "no chromium found; installing Debian's chromium with apt"
  export DEBIAN_FRONTEND=noninteractive
  # Lists may be missing (fresh container) or stale (a 404 on download): refresh only then.
  if ! as_root apt-get install -y --no-install-recommends chromium >&2; then
    as_root apt-get update >&2
    as_root apt-get install -y --no-install-recommends chromium >&2
  fi
}

case "${1:-}" in
  "") ;;
  --no-install)
    find_chromium || { say "no chromium on PATH; set FEEDMILL_CHROMIUM_PATH or run $0 to install it"; exit 1; }
    exit 0
    ;;
  *) echo "usage: $0 [--no-install]" >&2; exit 2 ;;
esac

if ! path=$(find_chromium); then
  install
  path=$(find_chromium)
fi
# A binary that cannot start (a missing library, a CPU it refuses) fails here, not in every test.
if ! version=$("$path" --version 2>/dev/null); then
  say "$path does not start: \`$path --version\` failed"
  exit 1
fi
say "$version at $path"
echo "$path"
