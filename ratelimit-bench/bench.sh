#!/usr/bin/env bash
# Builds the benchmarks and runs them, writing Markdown tables to ratelimit-bench/target/bench-results/.
#
# Usage: ratelimit-bench/bench.sh [redis] [hot] [latency] [local] [memory] [http] [ratio] [--quick]
#   no part named: all but ratio, in that order. ratio: our fixed window against the same script on a bare Lettuce
#   connection at 1, 8 and 64 threads, hot and spread keys, two rounds, the ratio of each (about 4 minutes): the
#   check to run before and after a change of the request path. hot: one hot counter with and without permits in batches, two
#   instance JVMs, next to redis-benchmark's single-key EVALSHA ceiling (about 5 minutes; HOT_WARMUP, HOT_SECONDS
#   and HOT_ROUNDS change its durations). --quick: short measurements, to try the setup (not for figures).
# Needs Java 17, Maven, and on the PATH redis-server, redis-benchmark (Debian: redis-server, redis-tools) and,
# for http, wrk and curl. Everything runs on loopback, on free ports, with its own redis-server processes.
set -euo pipefail

cd "$(dirname "$0")/.."
OUT=ratelimit-bench/target/bench-results
QUICK=""
PARTS=()
for arg in "$@"; do
  case $arg in
    --quick) QUICK=--quick ;;
    redis | hot | latency | local | memory | http | ratio) PARTS+=("$arg") ;;
    *) echo "unknown argument $arg; expected redis, hot, latency, local, memory, http, ratio or --quick" >&2; exit 2 ;;
  esac
done
[[ ${#PARTS[@]} -gt 0 ]] || PARTS=(redis hot latency local memory http)

mvn -B -q -pl ratelimit-bench -am package dependency:build-classpath -DskipTests \
    -Dmdep.outputFile=target/classpath.txt -DincludeScope=runtime
mkdir -p "$OUT"
{
  echo "## Machine"
  echo
  echo "- CPU: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | xargs)"
  echo "- memory: $(free -h | awk '/^Mem:/ { print $2 }')"
  echo "- $(redis-server --version)"
  echo "- $(java -version 2>&1 | head -1)"
  echo "- load at start: $(cut -d' ' -f1-3 /proc/loadavg)"
} >"$OUT/machine.md"
cat "$OUT/machine.md"

JAVA_PARTS=()
for part in "${PARTS[@]}"; do [[ $part == http ]] || JAVA_PARTS+=("$part"); done
if [[ ${#JAVA_PARTS[@]} -gt 0 ]]; then
  # JOL measures the heap through an agent it attaches to this JVM.
  java -Djdk.attach.allowAttachSelf=true ${HOT_WARMUP:+-Dhot.warmup=$HOT_WARMUP} ${HOT_SECONDS:+-Dhot.seconds=$HOT_SECONDS} \
      ${HOT_ROUNDS:+-Dhot.rounds=$HOT_ROUNDS} -cp "ratelimit-bench/target/classes:$(cat ratelimit-bench/target/classpath.txt)" \
      dev.ratelimit.bench.report.BenchmarkRun "${JAVA_PARTS[@]}" $QUICK --out "$OUT"
fi
if [[ " ${PARTS[*]} " == *" http "* ]]; then
  if [[ -n $QUICK ]]; then
    DURATION=3 WARMUP=3 ROUNDS=1 OUT=$OUT ratelimit-bench/http-overhead.sh --no-build
  else
    OUT=$OUT ratelimit-bench/http-overhead.sh --no-build
  fi
fi
echo "- load at end: $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$OUT/machine.md"
