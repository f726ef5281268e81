#!/usr/bin/env bash
# Where the CPU of a request goes: the HTTP overhead app (with the starter) under wrk, profiled by
# async-profiler (taken from Maven Central, tools.profiler:async-profiler, into target/). Prints the share
# of the request threads' CPU samples spent in the rate-limit interceptor, which wrk's requests/s cannot
# resolve when the difference is a few percent.
#
# Usage: ratelimit-bench/profile-http.sh [--no-build] [path]   (path: /plain by default; or /allowed, /rejected)
# Environment: SECONDS_UNDER_LOAD (default 40), CONNECTIONS (default 32), OUT (default ratelimit-bench/target/bench-results),
# APP_ARGS (more arguments of the app, e.g. --ratelimit.hot-keys.enabled=false: a Redis decision per request).
# Needs Java 17, Maven, redis-server, wrk and curl; Linux x86-64 (the profiler is a native agent).
set -euo pipefail

cd "$(dirname "$0")/.."
BUILD=true
if [[ "${1:-}" == "--no-build" ]]; then
  BUILD=false
  shift
fi
REQUEST_PATH=${1:-/plain}
SECONDS_UNDER_LOAD=${SECONDS_UNDER_LOAD:-40}
CONNECTIONS=${CONNECTIONS:-32}
OUT=${OUT:-ratelimit-bench/target/bench-results}
PROFILER_VERSION=4.1
PROFILER_DIR=ratelimit-bench/target/async-profiler

if $BUILD; then
  mvn -B -q -pl ratelimit-bench -am package dependency:build-classpath -DskipTests \
      -Dmdep.outputFile=target/classpath.txt -DincludeScope=runtime
fi
if [[ ! -f $PROFILER_DIR/linux-x64/libasyncProfiler.so ]]; then
  mvn -B -q dependency:copy -Dartifact="tools.profiler:async-profiler:$PROFILER_VERSION:jar:linux-x64" \
      -DoutputDirectory="$PROFILER_DIR"
  (cd "$PROFILER_DIR" && unzip -q -o "async-profiler-$PROFILER_VERSION-linux-x64.jar" 'linux-x64/*')
fi
mkdir -p "$OUT"
PROFILE="$(cd "$OUT" && pwd)/profile${REQUEST_PATH//\//-}.collapsed"

source ratelimit-bench/processes.sh

redis_port=$(free_port)
redis-server --port "$redis_port" --bind 127.0.0.1 --save '' --appendonly no >/dev/null 2>&1 &
PIDS+=($!)
app_port=$(free_port)
# The profile starts with the JVM; only samples of Tomcat's request threads are counted below, so
# start-up does not count, and the first seconds of load (interpreted code) weigh little in 40 s.
java -Xms512m -Xmx512m \
    -agentpath:"$PWD/$PROFILER_DIR/linux-x64/libasyncProfiler.so=start,event=cpu,interval=500us,collapsed,file=$PROFILE" \
    -cp "ratelimit-bench/target/classes:$(cat ratelimit-bench/target/classpath.txt)" \
    dev.ratelimit.bench.http.OverheadApplication --server.port="$app_port" --spring.application.name=app-bench \
    --spring.data.redis.host=127.0.0.1 --spring.data.redis.port="$redis_port" --logging.level.root=WARN ${APP_ARGS:-} \
    >"$OUT/profile-app.log" 2>&1 &
app_pid=$!
PIDS+=($app_pid)
url="http://127.0.0.1:$app_port$REQUEST_PATH"
await "$url"
wrk -t1 -c"$CONNECTIONS" -d"${SECONDS_UNDER_LOAD}s" "$url" | grep -E 'Requests/sec|Non-2xx' || true
# The agent writes the profile when the JVM exits.
kill "$app_pid"
wait "$app_pid" 2>/dev/null || true

awk -v path="$REQUEST_PATH" '
  /SocketProcessorBase.run/ { requests += $NF }
  /SocketProcessorBase.run/ && /RateLimitInterceptor.preHandle/ { limiter += $NF }
  /SocketProcessorBase.run/ && /RateLimitInterceptor.preHandle/ && /RateLimitStore.acquire/ { store += $NF }
  END {
    printf "GET %s: %d CPU samples on request threads; RateLimitInterceptor.preHandle %.2f%% of them", path, requests, 100 * limiter / requests
    printf " (of which deciding in the store, including the wait for Redis: %.2f%%)\n", 100 * store / requests
  }' "$PROFILE" | tee "${PROFILE%.collapsed}.md"
