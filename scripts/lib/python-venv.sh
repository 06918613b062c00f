# shellcheck shell=bash
# The one way our scripts install a pinned Python tool: a venv of its own under .cache (apart from
# the system's packages, which pip may refuse to touch, PEP 668), rebuilt when the pin changes.
#
#   source scripts/lib/python-venv.sh
#   pinned_venv .cache/venv schemathesis 4.32.5 true   # true: may apt-get python3-venv when missing
#
# Messages go to standard error, prefixed with the package's name.

pinned_venv() {
  local venv=$1 package=$2 version=$3 may_install_system=$4
  local say_prefix="$package:"
  installed() { [[ $("$venv/bin/python" -m pip show "$package" 2>/dev/null | sed -n 's/^Version: //p') == "$version" ]]; }
  installed && return 0
  if ! command -v python3 >/dev/null; then
    echo "$say_prefix Python 3 is needed ($package is a Python package); install python3 with its venv module" >&2
    return 1
  fi
  echo "$say_prefix installing $package $version into $venv" >&2
  rm -rf "$venv"
  if ! python3 -m venv "$venv"; then
    rm -rf "$venv"
    # Debian ships the venv module apart from python3; only a caller that may touch the system
    # (CI) installs it, a test run on someone's machine says what to do instead.
    if [[ $may_install_system != true ]]; then
      echo "$say_prefix python3 -m venv failed; install python3-venv (Debian)" >&2
      return 1
    fi
    echo "$say_prefix python3 -m venv failed; installing python3-venv" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get install -y --no-install-recommends python3-venv >&2 || { apt-get update >&2 && apt-get install -y --no-install-recommends python3-venv >&2; }
    python3 -m venv "$venv"
  fi
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "$package==$version" >&2
}
