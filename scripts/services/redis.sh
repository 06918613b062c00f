#!/usr/bin/env bash
# Redis for development and CI: `redis.sh start | stop | status`.
#
# start   installs Debian's redis-server when it is missing, starts it daemonized on
#         127.0.0.1:$FEEDMILL_REDIS_PORT (6379) with its pid, log and data under
#         .cache/services/redis/<port>/ (one directory per port, so a second server can run beside
#         the tests' on another port), and waits for PING. A server already answering on the port is
#         left alone (it is not ours, so `stop` will not touch it).
# stop    stops the server this script started (by its pid file), nothing else.
# status  exit 0 when something answers PING on the port, 1 otherwise.
#
# Measured on the 2-core Debian 12 dev machine (redis-server 7.0.15 from bookworm-security):
# install with fresh apt lists, then start: ~11 s; warm start to PONG: 0.04 s; stop: ~1.4 s.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
port="${FEEDMILL_REDIS_PORT:-6379}"
dir="$root/.cache/services/redis/$port"
pidfile="$dir/redis.pid"
logfile="$dir/redis.log"

say() { echo "redis: $*" >&2; }

as_root() {
  if [[ $(id -u) -eq 0 ]]; then "$@"
  elif command -v sudo >/dev/null; then sudo "$@"
  else say "installing needs root (or sudo): $*"; return 1
  fi
}

install_if_missing() {
  command -v redis-server >/dev/null && command -v redis-cli >/dev/null && return 0
  say "redis-server not found; installing it with apt"
  export DEBIAN_FRONTEND=noninteractive
  # Lists may be missing (fresh container) or stale (a 404 on download): refresh only then.
  if ! as_root apt-get install -y --no-install-recommends redis-server >&2; then
    as_root apt-get update >&2
    as_root apt-get install -y --no-install-recommends redis-server >&2
  fi
}

answers() { redis-cli -h 127.0.0.1 -p "$port" ping 2>/dev/null | grep -q PONG; }

# The pid in our pid file, when that process is still a redis-server (not a recycled pid).
our_pid() {
  [[ -s $pidfile ]] || return 1
  local pid
  pid=$(<"$pidfile")
  [[ -r /proc/$pid/comm ]] && grep -q '^redis-server' "/proc/$pid/comm" && echo "$pid"
}

start() {
  install_if_missing
  if answers; then
    say "already answering on 127.0.0.1:$port (not started by this script)"
    return 0
  fi
  mkdir -p "$dir"
  # .cache holds only downloads and scratch data: keep it out of git without touching .gitignore.
  [[ -f $root/.cache/.gitignore ]] || echo '*' >"$root/.cache/.gitignore"
  # Throwaway data for tests and development: no RDB snapshots, no AOF, so nothing slows a test
  # down and nothing stale is loaded at the next start.
  redis-server --daemonize yes --bind 127.0.0.1 --port "$port" --dir "$dir" \
    --pidfile "$pidfile" --logfile "$logfile" --save '' --appendonly no
  for _ in $(seq 1 100); do
    if answers; then say "ready on 127.0.0.1:$port"; return 0; fi
    sleep 0.1
  done
  say "did not answer PING on 127.0.0.1:$port within 10 s; last log lines:"
  tail -n 20 "$logfile" >&2 || true
  return 1
}

stop() {
  local pid
  if ! pid=$(our_pid); then
    say "nothing of ours to stop"
    rm -f "$pidfile"
    return 0
  fi
  kill -TERM "$pid"
  for _ in $(seq 1 100); do
    if ! kill -0 "$pid" 2>/dev/null; then rm -f "$pidfile"; say "stopped (pid $pid)"; return 0; fi
    sleep 0.1
  done
  say "pid $pid did not stop within 10 s"
  return 1
}

status() {
  if command -v redis-cli >/dev/null && answers; then
    if pid=$(our_pid); then say "running on 127.0.0.1:$port (ours, pid $pid)"; else say "running on 127.0.0.1:$port (not ours)"; fi
    return 0
  fi
  say "not answering on 127.0.0.1:$port"
  return 1
}

case "${1:-}" in
  start | stop | status) "$1" ;;
  *) echo "usage: $0 start|stop|status" >&2; exit 2 ;;
esac
