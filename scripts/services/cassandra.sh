#!/usr/bin/env bash
# Apache Cassandra for development and CI: `cassandra.sh start | stop | status`.
#
# start   resolves cassandra-all $version and its runtime dependencies from Maven Central into
#         .cache/services/cassandra/lib (once), writes our cassandra.yaml (one node, loopback, no
#         auth, small memory; template beside this script), starts CassandraDaemon in the
#         background on 127.0.0.1:$FEEDMILL_CASSANDRA_PORT (9042) and waits until it answers CQL.
#         A server already answering there is left alone (not ours: `stop` will not touch it).
#         Installs Java 17 and Maven with apt when they are missing (a fresh CI machine).
# stop    stops the daemon this script started (by its pid file), nothing else.
# status  exit 0 when something answers CQL on the port (prints its release_version), 1 otherwise.
#
# Measured on the 2-core Debian 12 dev machine (Java 17.0.15, Maven 3.8.7, Cassandra 5.0.9):
#   resolve, cold Maven cache (103 jars, 67 MB in lib/ + 83 MB in m2/) ....... 8-16 s, once
#   start to first CQL answer, fresh data dir or warm ............................ 9-10 s
#     (~20 s when `tsc` builds beside it, as in scripts/test.sh)
#   everything cold (resolve + first start) ...................................... ~31 s
#   stop (SIGTERM; Cassandra flushes memtables before it exits) .................. ~7 s
#   status ............................................................................ 0.3 s
set -euo pipefail

# The newest 5.0.x on Maven Central when this was written; 5.0 runs on Java 11 and 17.
version=5.0.9
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
state="$root/.cache/services/cassandra"
lib="$state/lib"
pidfile="$state/cassandra.pid"
logdir="$state/logs"
port="${FEEDMILL_CASSANDRA_PORT:-9042}"
storage_port="${FEEDMILL_CASSANDRA_STORAGE_PORT:-7000}"
heap="${FEEDMILL_CASSANDRA_HEAP:-1g}"
timeout="${FEEDMILL_CASSANDRA_START_TIMEOUT:-180}"

say() { echo "cassandra: $*" >&2; }

as_root() {
  if [[ $(id -u) -eq 0 ]]; then "$@"
  elif command -v sudo >/dev/null; then sudo "$@"
  else say "installing needs root (or sudo): $*"; return 1
  fi
}

apt_install() {
  export DEBIAN_FRONTEND=noninteractive
  # Lists may be missing (fresh container) or stale (a 404 on download): refresh only then.
  if ! as_root apt-get install -y --no-install-recommends "$@" >&2; then
    as_root apt-get update >&2
    as_root apt-get install -y --no-install-recommends "$@" >&2
  fi
}

java_major() { "$1" -version 2>&1 | sed -nE '1s/.*version "(1\.)?([0-9]+).*/\2/p'; }

# Cassandra 5.0 supports Java 11 and 17 only; prefer the `java` on PATH when it is one of them.
find_java() {
  local candidate
  for candidate in "${JAVA_HOME:+$JAVA_HOME/bin/java}" "$(command -v java || true)" /usr/lib/jvm/java-17-openjdk-*/bin/java; do
    [[ -n $candidate && -x $candidate ]] || continue
    case "$(java_major "$candidate")" in 11 | 17) echo "$candidate"; return 0 ;; esac
  done
  return 1
}

resolve_jars() {
  [[ -f $lib/.resolved-$version ]] && return 0
  command -v mvn >/dev/null || { say "Maven not found; installing it with apt"; apt_install maven; }
  say "resolving cassandra-all $version and its runtime dependencies from Maven Central"
  rm -rf "$lib"
  mvn -B -q -Dstyle.color=never -f "$here/cassandra/pom.xml" -Dcassandra.version="$version" \
    -Dmaven.repo.local="$state/m2" dependency:copy-dependencies \
    -DincludeScope=runtime -DoutputDirectory="$lib" >&2
  touch "$lib/.resolved-$version"
}

# Exit 0 when a CQL session can read system.local; prints the server's release_version.
cql_answers() {
  (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null || return 1
  # Before `npm ci` there is no driver: an open native port is then the best we can tell.
  [[ -d $root/node_modules/cassandra-driver ]] || { echo "unknown (port open)"; return 0; }
  # shellcheck disable=SC2016 # JavaScript template literal, not shell
  (cd "$root" && CQL_PORT="$port" node -e '
    const { Client, policies } = require("cassandra-driver");
    const client = new Client({
      contactPoints: [`127.0.0.1:${process.env.CQL_PORT}`],
      // Any data centre will do for a readiness probe, so no localDataCenter to guess.
      policies: { loadBalancing: new policies.loadBalancing.RoundRobinPolicy() },
      socketOptions: { connectTimeout: 3000, readTimeout: 5000 },
    });
    client.execute("SELECT release_version FROM system.local")
      .then((rs) => { console.log(rs.first().release_version); return client.shutdown(); })
      .then(() => process.exit(0), () => process.exit(1));
  ' 2>/dev/null)
}

our_pid() {
  [[ -s $pidfile ]] || return 1
  local pid
  pid=$(<"$pidfile")
  [[ -r /proc/$pid/cmdline ]] && tr '\0' ' ' <"/proc/$pid/cmdline" | grep -q CassandraDaemon && echo "$pid"
}

write_config() {
  mkdir -p "$state"/{data,commitlog,saved_caches,hints,cdc_raw,triggers} "$logdir"
  sed -e "s|@STATE@|$state|g" -e "s|@STORAGE_PORT@|$storage_port|g" -e "s|@NATIVE_PORT@|$port|g" \
    "$here/cassandra/cassandra.yaml.in" >"$state/cassandra.yaml"
}

show_logs() {
  say "last log lines ($logdir):"
  tail -n 30 "$logdir/system.log" >&2 2>/dev/null || true
  tail -n 15 "$logdir/stdout.log" >&2 2>/dev/null || true
}

start() {
  if release=$(cql_answers); then
    say "already answering CQL on 127.0.0.1:$port (release $release; not started by this script)"
    return 0
  fi
  if our_pid >/dev/null; then say "started earlier (pid $(<"$pidfile")) and still starting; waiting"
  else launch
  fi
  wait_for_cql
}

launch() {
  local java
  java=$(find_java) || { say "no Java 11/17 found; installing openjdk-17 with apt"; apt_install openjdk-17-jre-headless; java=$(find_java); }
  resolve_jars
  write_config
  # .cache holds only downloads and scratch data: keep it out of git without touching .gitignore.
  [[ -f $root/.cache/.gitignore ]] || echo '*' >"$root/.cache/.gitignore"
  local jvm_opts=(
    # G1 settings of conf/jvm17-server.options, on a small heap.
    -Xms512m "-Xmx$heap" -XX:+UseG1GC -XX:+ParallelRefProcEnabled -XX:MaxTenuringThreshold=1
    -XX:MaxGCPauseMillis=300 -XX:+ExitOnOutOfMemoryError
    # C1 only: starts ~3 s sooner here (11 s -> 8 s); peak throughput does not matter for tests.
    -XX:TieredStopAtLevel=1
    -Djava.net.preferIPv4Stack=true
    # Java 17 module access: exactly the JPMS block of Cassandra 5.0's conf/jvm17-server.options.
    -Djdk.attach.allowAttachSelf=true
    --add-exports java.base/jdk.internal.misc=ALL-UNNAMED
    --add-exports java.management.rmi/com.sun.jmx.remote.internal.rmi=ALL-UNNAMED
    --add-exports java.rmi/sun.rmi.registry=ALL-UNNAMED
    --add-exports java.rmi/sun.rmi.server=ALL-UNNAMED
    --add-exports java.sql/java.sql=ALL-UNNAMED
    --add-exports java.base/java.lang.ref=ALL-UNNAMED
    --add-exports jdk.unsupported/sun.misc=ALL-UNNAMED
    --add-exports jdk.compiler/com.sun.tools.javac.file=ALL-UNNAMED
    --add-exports jdk.attach/sun.tools.attach=ALL-UNNAMED
    --add-opens java.base/java.lang.module=ALL-UNNAMED
    --add-opens java.base/jdk.internal.loader=ALL-UNNAMED
    --add-opens java.base/jdk.internal.ref=ALL-UNNAMED
    --add-opens java.base/jdk.internal.reflect=ALL-UNNAMED
    --add-opens java.base/jdk.internal.math=ALL-UNNAMED
    --add-opens java.base/jdk.internal.module=ALL-UNNAMED
    --add-opens java.base/jdk.internal.util.jar=ALL-UNNAMED
    --add-opens jdk.management/com.sun.management.internal=ALL-UNNAMED
    --add-opens java.base/sun.nio.ch=ALL-UNNAMED
    --add-opens java.base/java.io=ALL-UNNAMED
    --add-opens java.base/java.lang.reflect=ALL-UNNAMED
    --add-opens jdk.compiler/com.sun.tools.javac=ALL-UNNAMED
    --add-opens java.base/java.lang=ALL-UNNAMED
    --add-opens java.base/java.util=ALL-UNNAMED
    # Netty settings of the same file.
    -Dio.netty.tryReflectionSetAccessible=true -Dio.netty.allocator.useCacheForAllThreads=true
    -Dio.netty.allocator.maxOrder=11
    # cassandra-env.sh loads jamm as an agent so memtables can measure what they hold.
    "-javaagent:$(ls "$lib"/jamm-*.jar)"
    # Start fast: a lone node has no gossip to wait for and no superuser to race with.
    -Dcassandra.skip_wait_for_gossip_to_settle=0 -Dcassandra.ring_delay_ms=100
    -Dcassandra.superuser_setup_delay_ms=0
    "-Dcassandra.config=file://$state/cassandra.yaml" "-Dcassandra.storagedir=$state"
    "-Dcassandra.triggers_dir=$state/triggers" "-Dcassandra.logdir=$logdir" "-Dlogback.configurationFile=file://$here/cassandra/logback.xml"
    # Keep stdout open: JVM failures before logging starts land in stdout.log.
    -Dcassandra-foreground=yes
  )
  say "starting Cassandra $version ($java, heap $heap)"
  : >"$logdir/system.log"
  "$java" "${jvm_opts[@]}" -cp "$lib/*" org.apache.cassandra.service.CassandraDaemon \
    </dev/null >"$logdir/stdout.log" 2>&1 &
  echo $! >"$pidfile"
}

wait_for_cql() {
  local pid deadline release
  pid=$(<"$pidfile")
  deadline=$((SECONDS + timeout))
  while ((SECONDS < deadline)); do
    if release=$(cql_answers); then say "ready on 127.0.0.1:$port (release $release, pid $pid, ${SECONDS}s)"; return 0; fi
    if ! kill -0 "$pid" 2>/dev/null; then
      say "the daemon (pid $pid) exited before answering CQL"
      show_logs; rm -f "$pidfile"; return 1
    fi
    sleep 0.5
  done
  say "no CQL answer on 127.0.0.1:$port within ${timeout}s (FEEDMILL_CASSANDRA_START_TIMEOUT); stopping it"
  show_logs
  stop || true
  return 1
}

stop() {
  local pid
  if ! pid=$(our_pid); then say "nothing of ours to stop"; rm -f "$pidfile"; return 0; fi
  kill -TERM "$pid"
  for _ in $(seq 1 60); do
    if ! kill -0 "$pid" 2>/dev/null; then rm -f "$pidfile"; say "stopped (pid $pid)"; return 0; fi
    sleep 0.5
  done
  say "pid $pid ignored SIGTERM for 30 s; killing it"
  kill -KILL "$pid" 2>/dev/null || true
  rm -f "$pidfile"
}

status() {
  local release pid
  if release=$(cql_answers); then
    if pid=$(our_pid); then say "running on 127.0.0.1:$port (release $release; ours, pid $pid)"
    else say "running on 127.0.0.1:$port (release $release; not ours)"
    fi
    return 0
  fi
  say "not answering CQL on 127.0.0.1:$port"
  return 1
}

case "${1:-}" in
  start | stop | status) "$1" ;;
  *) echo "usage: $0 start|stop|status" >&2; exit 2 ;;
esac
