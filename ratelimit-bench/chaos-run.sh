#!/usr/bin/env bash
# The chaos run (not CI): two instances of the fixture app under load for CHAOS_MINUTES (default 10)
# while Redis is killed and restarted empty, paused, flushed, and an instance is paused, round after
# round; the report (markdown) says what was admitted over the limit while Redis answered, the 5xx, the
# responses decided by another limit than the operator's, and the operator values lost. See
# dev.ratelimit.bench.chaos.ChaosRun.
#
# Usage: ratelimit-bench/chaos-run.sh [--no-build]
# Environment: CHAOS_MINUTES (10), CHAOS_THREADS (8), CHAOS_USERS (16), OUT (ratelimit-bench/target/bench-results).
set -euo pipefail

cd "$(dirname "$0")/.."
if [[ "${1:-}" != "--no-build" ]]; then
  mvn -B -q -pl ratelimit-bench -am package dependency:build-classpath -DskipTests \
      -Dmdep.outputFile=target/classpath.txt -DincludeScope=runtime
fi
exec java -cp "ratelimit-bench/target/classes:$(cat ratelimit-bench/target/classpath.txt)" \
    dev.ratelimit.bench.chaos.ChaosRun
