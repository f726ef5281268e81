#!/usr/bin/env bash
# What the verdict observation adds to one allowed decision, side by side in one JMH run: observation
# off (Micrometer's no-op registry, the default), a registry without handlers, and Micrometer Tracing
# over the OpenTelemetry SDK recording every decision (VerdictObservationBenchmark). The tracing
# libraries are test dependencies of this module (so that no other benchmark or app of it traces), so
# the benchmark lives in its test sources and runs on the test classpath.
# Usage: ratelimit-bench/trace-overhead.sh [JMH options, e.g. -f 1 -wi 2 -i 3 for a quick look]
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-ratelimit-bench/target/bench-results}
mkdir -p "$OUT"
mvn -B -q -pl ratelimit-bench -am test-compile dependency:build-classpath -Dmaven.javadoc.skip=true \
    -Dmdep.outputFile=target/classpath-traced.txt -DincludeScope=test
java -cp "ratelimit-bench/target/test-classes:ratelimit-bench/target/classes:$(cat ratelimit-bench/target/classpath-traced.txt)" \
    org.openjdk.jmh.Main VerdictObservationBenchmark -rf json -rff "$OUT/trace-overhead.json" "$@" \
    | tee "$OUT/trace-overhead.txt"
