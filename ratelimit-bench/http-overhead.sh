#!/usr/bin/env bash
# HTTP overhead of the starter, measured with wrk (Debian package wrk) on loopback only.
#
# One instance of one small app (dev.ratelimit.bench.http.OverheadApplication) per variant, each with its
# own redis-server, all started before the first measurement:
#   bare      the app without the starter on its classpath, GET /plain
#   no-rule   with the starter, GET /plain (an endpoint without a rule)
#   allowed   with the starter, GET /allowed (a rule that always admits; under wrk its counter is hot, so the
#             starter decides it from permits taken in batches, ratelimit.hot-keys.*, a Redis call per batch)
#   allowed-unbatched  as allowed, with ratelimit.hot-keys.enabled=false: one Redis decision per request
#   allowed-unbatched-epoll  as allowed-unbatched, with Netty's native epoll transport on the classpath
#             (io.netty:netty-transport-native-epoll, linux-x86_64, taken from Maven Central into target/):
#             Lettuce then uses epoll instead of Java NIO for its connections, the limiter's included (not in
#             the default list: name it in VARIANTS)
#   allowed-hot  with the starter, GET /global (a GLOBAL limit of 10^9 an hour, the module's one shared counter:
#             the hot key of issue 25, batched)
#   rejected  with the starter, GET /rejected (100 an hour: after the first hundred, every request is a 429,
#             refused from the near cache without a Redis call)
#   rejected-uncached  as rejected, with ratelimit.near-cache.enabled=false: a Redis decision per rejection
#   allowed-in-process  as allowed, but with ratelimit.store=memory: the starter's own work on a limited
#             request without the Redis round trip
#   allowed-no-stats, rejected-no-stats  as allowed and rejected, with ratelimit.stats.enabled=false:
#             what the live statistics and the blocked-clients list cost a request (an in-memory count
#             per limit, a note per refusal; their Redis writes run on a thread of their own)
#   allowed-planned  as allowed, on a rule whose client plan is an expression on the request
#             (GET /planned?plan=pro, with a count for plan pro in the config hash): what a plan costs
#   denied    with the starter, GET /plain from a client on the deny list (deny.ip.127.0.0.1 in the config
#             hash): every request is a 403, refused from the config snapshot without a Redis call
#   allowed-traced  as allowed, in an app traced by Micrometer Tracing over OpenTelemetry (every request
#             sampled, spans ended but exported nowhere): the request's span and the limiter's decision span
#   allowed-traced-unobserved  as allowed-traced, with the limiter's observation switched off
#             (management.observations.enable.ratelimit=false): the difference is what the decision span costs
#   redis-call without the starter, GET /redis-call (one INCR of the app's own per request: what a single
#             Redis round trip costs a request here, whoever makes it)
# After one warm-up pass (WARMUP seconds each, long enough for the JIT on a busy 2-core machine), ROUNDS passes run wrk against each in turn (side by side in time, so a change
# in the machine's load hits all four alike); the table shows each variant's median over the passes and
# its ratio to the bare app, and the CPU time the app and its redis-server spent per request (from
# /proc/<pid>/stat around each run), which shows where the time of a limited request goes.
#
# Usage: ratelimit-bench/http-overhead.sh [--no-build]
# Environment: VARIANTS (a space-separated subset of the variants above, starting with bare and no-rule;
#              default all),
#              DURATION (s per wrk run, default 10), WARMUP (s per variant, default 30), CONNECTIONS (default 32), WRK_THREADS (default 1),
#              ROUNDS (default 5), OUT (result folder, default ratelimit-bench/target/bench-results).
set -euo pipefail

cd "$(dirname "$0")/.."
DURATION=${DURATION:-10}
WARMUP=${WARMUP:-30}
CONNECTIONS=${CONNECTIONS:-32}
WRK_THREADS=${WRK_THREADS:-1}
ROUNDS=${ROUNDS:-5}
OUT=${OUT:-ratelimit-bench/target/bench-results}
read -r -a VARIANTS <<<"${VARIANTS:-bare no-rule allowed allowed-unbatched allowed-hot allowed-planned allowed-no-stats rejected rejected-no-stats rejected-uncached allowed-in-process denied allowed-traced allowed-traced-unobserved redis-call}"

command -v wrk >/dev/null || { echo "wrk is not on the PATH (Debian: apt-get install wrk)" >&2; exit 1; }
if [[ "${1:-}" != "--no-build" ]]; then
  mvn -B -q -pl ratelimit-bench -am package dependency:build-classpath -DskipTests \
      -Dmdep.outputFile=target/classpath.txt -DincludeScope=runtime
fi
# Written here, not by bench.sh's build, which leaves it out: with --no-build too when it is missing.
if [[ "${1:-}" != "--no-build" || ! -f ratelimit-bench/target/classpath-traced.txt ]]; then
  mvn -B -q -pl ratelimit-bench dependency:build-classpath \
      -Dmdep.outputFile=target/classpath-traced.txt -DincludeScope=test
fi
FULL_CP="ratelimit-bench/target/classes:$(cat ratelimit-bench/target/classpath.txt)"
# Tracing's jars (test scope) only where a variant is traced: elsewhere the app has no observation registry.
TRACED_CP="ratelimit-bench/target/classes:$(cat ratelimit-bench/target/classpath-traced.txt)"
BARE_CP=$(tr ':' '\n' <<<"$FULL_CP" | grep -v -E '/(ratelimit-interceptor|ratelimit-core|i18n)/' | paste -sd: -)
if [[ " ${VARIANTS[*]} " == *" allowed-unbatched-epoll "* ]]; then
  # Netty's native epoll transport, of the Netty version on the classpath, only for the variant that measures it.
  netty_version=$(tr ':' '\n' <<<"$FULL_CP" | sed -n 's|.*/netty-transport/\([^/]*\)/netty-transport-.*\.jar$|\1|p' | head -1)
  EPOLL_DIR=ratelimit-bench/target/netty-epoll
  if [[ ! -f $EPOLL_DIR/netty-transport-native-epoll-$netty_version-linux-x86_64.jar ]]; then
    mvn -B -q dependency:copy -Dartifact="io.netty:netty-transport-native-epoll:$netty_version:jar:linux-x86_64" \
        -DoutputDirectory="$EPOLL_DIR"
    mvn -B -q dependency:copy -Dartifact="io.netty:netty-transport-classes-epoll:$netty_version" \
        -DoutputDirectory="$EPOLL_DIR"
  fi
  EPOLL_CP="$FULL_CP:$EPOLL_DIR/netty-transport-native-epoll-$netty_version-linux-x86_64.jar:$EPOLL_DIR/netty-transport-classes-epoll-$netty_version.jar"
fi
mkdir -p "$OUT/http"

source ratelimit-bench/processes.sh

declare -A URL APP_PID REDIS_PID REDIS_PORT
for variant in "${VARIANTS[@]}"; do
  redis_port=$(free_port)
  redis-server --port "$redis_port" --bind 127.0.0.1 --save '' --appendonly no \
      >"$OUT/http/redis-$variant.log" 2>&1 &
  PIDS+=($!)
  REDIS_PID[$variant]=$!
  REDIS_PORT[$variant]=$redis_port
  app_port=$(free_port)
  store=redis
  near_cache=true
  stats=true
  extra=()
  case $variant in
    bare) cp=$BARE_CP path=/plain ;;
    no-rule) cp=$FULL_CP path=/plain ;;
    allowed) cp=$FULL_CP path=/allowed ;;
    allowed-unbatched) cp=$FULL_CP path=/allowed extra=(--ratelimit.hot-keys.enabled=false) ;;
    allowed-unbatched-epoll) cp=$EPOLL_CP path=/allowed extra=(--ratelimit.hot-keys.enabled=false) ;;
    allowed-hot) cp=$FULL_CP path=/global ;;
    allowed-no-stats) cp=$FULL_CP path=/allowed stats=false ;;
    rejected) cp=$FULL_CP path=/rejected ;;
    rejected-no-stats) cp=$FULL_CP path=/rejected stats=false ;;
    rejected-uncached) cp=$FULL_CP path=/rejected near_cache=false ;;
    allowed-in-process) cp=$FULL_CP path=/allowed store=memory ;;
    allowed-planned) cp=$FULL_CP path=/planned?plan=pro
      await_redis "$redis_port"
      redis-cli -p "$redis_port" hset ratelimit:sysconfig app-bench.OverheadController.planned.plan.pro 1000000000/1 >/dev/null ;;
    denied) cp=$FULL_CP path=/plain
      await_redis "$redis_port"
      redis-cli -p "$redis_port" hset ratelimit:sysconfig deny.ip.127.0.0.1 forever >/dev/null ;;
    allowed-traced) cp=$TRACED_CP path=/allowed
      extra=(--management.tracing.sampling.probability=1.0) ;;
    allowed-traced-unobserved) cp=$TRACED_CP path=/allowed
      extra=(--management.tracing.sampling.probability=1.0 --management.observations.enable.ratelimit=false) ;;
    redis-call) cp=$BARE_CP path=/redis-call ;;
  esac
  java -Xms512m -Xmx512m -cp "$cp" dev.ratelimit.bench.http.OverheadApplication \
      --server.port="$app_port" --spring.application.name=app-bench \
      --spring.data.redis.host=127.0.0.1 --spring.data.redis.port="$redis_port" \
      --ratelimit.store="$store" --ratelimit.near-cache.enabled="$near_cache" --ratelimit.stats.enabled="$stats" --logging.level.root=WARN "${extra[@]}" >"$OUT/http/app-$variant.log" 2>&1 &
  PIDS+=($!)
  APP_PID[$variant]=$!
  URL[$variant]="http://127.0.0.1:$app_port$path"
done
for variant in "${VARIANTS[@]}"; do await "${URL[$variant]}"; done

# Lettuce's event loop threads of an app, by transport (thread names are cut to 15 characters in /proc).
event_loops() {
  cat /proc/"${APP_PID[$1]}"/task/*/comm 2>/dev/null | awk '
    /^lettuce-epoll/ { epoll++ } /^lettuce-nio/ { nio++ } END { printf "%d epoll, %d nio", epoll, nio }'
}

# CPU time (user + system, in clock ticks) a process has used so far.
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }

# Commands the variant's redis-server has run so far (INFO commandstats): every command, and EVALSHA alone.
redis_calls() {
  redis-cli -p "${REDIS_PORT[$1]}" info commandstats | tr -d '\r' | awk -F'[:=,]' '
    /^cmdstat_/ { all += $3 } /^cmdstat_evalsha:/ { scripts = $3 } END { printf "%d %d", all, scripts }'
}

# Runs wrk against one variant for $2 seconds; appends the CPU ticks its app and redis-server used
# meanwhile, and the commands and script calls Redis ran.
run_wrk() {
  local variant=$1 seconds=$2 app_before redis_before calls_before calls_after
  app_before=$(cpu_ticks "${APP_PID[$variant]}")
  redis_before=$(cpu_ticks "${REDIS_PID[$variant]}")
  calls_before=$(redis_calls "$variant")
  timeout $((seconds + 30)) wrk -t"$WRK_THREADS" -c"$CONNECTIONS" -d"${seconds}s" --latency "${URL[$variant]}"
  calls_after=$(redis_calls "$variant")
  echo "cpu-ticks app $(($(cpu_ticks "${APP_PID[$variant]}") - app_before)) redis $(($(cpu_ticks "${REDIS_PID[$variant]}") - redis_before))"
  echo "redis-calls $((${calls_after% *} - ${calls_before% *})) scripts $((${calls_after#* } - ${calls_before#* }))"
}

echo "warm-up: ${WARMUP}s per variant" >&2
for variant in "${VARIANTS[@]}"; do run_wrk "$variant" "$WARMUP" >"$OUT/http/warmup-$variant.txt"; done
for round in $(seq 1 "$ROUNDS"); do
  echo "round $round of $ROUNDS" >&2
  for variant in "${VARIANTS[@]}"; do run_wrk "$variant" "$DURATION" >"$OUT/http/round$round-$variant.txt"; done
done

# One line per wrk run: requests/s, p50 µs, p99 µs, share of non-2xx responses, CPU µs per request of
# the app and of its redis-server.
summarise() {
  awk -v tick_micros="$((1000000 / $(getconf CLK_TCK)))" '
    function micros(v) {
      if (v ~ /us$/) return v + 0
      if (v ~ /ms$/) return v * 1000
      if (v ~ /s$/) return v * 1000000
      return v
    }
    /^ +50%/ { p50 = micros($2) }
    /^ +99%/ { p99 = micros($2) }
    /requests in/ { total = $1 }
    /Non-2xx or 3xx responses/ { non2xx = $5 }
    /^Requests\/sec/ { rps = $2 }
    /^cpu-ticks/ { app = $3; redis = $5 }
    /^redis-calls/ { calls = $2; scripts = $4 }
    END {
      printf "%s %s %s %s %s %s %s %s\n", rps, p50, p99, (total > 0 ? non2xx / total : 0),
          app * tick_micros / total, redis * tick_micros / total, calls / total, scripts / total
    }' "$1"
}

median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

{
  echo "## HTTP overhead (wrk -t$WRK_THREADS -c$CONNECTIONS -d${DURATION}s, median of $ROUNDS rounds)"
  echo
  echo "| variant | requests/s | ratio to bare | p50 µs | p99 µs | non-2xx | app CPU µs/request | CPU ratio to no-rule | redis CPU µs/request | Redis commands/request | script calls/request |"
  echo "|---|---|---|---|---|---|---|---|---|---|---|"
  bare_rps=""
  no_rule_cpu=$(for round in $(seq 1 "$ROUNDS"); do summarise "$OUT/http/round$round-no-rule.txt"; done \
      | awk '{ print $5 }' | median)
  for variant in "${VARIANTS[@]}"; do
    lines=$(for round in $(seq 1 "$ROUNDS"); do summarise "$OUT/http/round$round-$variant.txt"; done)
    rps=$(awk '{ print $1 }' <<<"$lines" | median)
    p50=$(awk '{ print $2 }' <<<"$lines" | median)
    p99=$(awk '{ print $3 }' <<<"$lines" | median)
    non2xx=$(awk '{ print $4 }' <<<"$lines" | median)
    app_cpu=$(awk '{ print $5 }' <<<"$lines" | median)
    redis_cpu=$(awk '{ print $6 }' <<<"$lines" | median)
    calls=$(awk '{ print $7 }' <<<"$lines" | median)
    scripts=$(awk '{ print $8 }' <<<"$lines" | median)
    bare_rps=${bare_rps:-$rps}
    awk -v v="$variant" -v r="$rps" -v b="$bare_rps" -v p50="$p50" -v p99="$p99" -v n="$non2xx" \
        -v app="$app_cpu" -v redis="$redis_cpu" -v nr="$no_rule_cpu" -v calls="$calls" -v scripts="$scripts" \
        'BEGIN { printf "| %s | %d | %.3f | %.0f | %.0f | %.1f%% | %.1f | %.2f | %.1f | %.3f | %.3f |\n",
                 v, r, r / b, p50, p99, n * 100, app, app / nr, redis, calls, scripts }'
  done
  echo
  echo "Lettuce event loop threads: $(for variant in "${VARIANTS[@]}"; do printf '%s %s; ' "$variant" "$(event_loops "$variant")"; done)"
  echo
  echo "Per round (requests/s):"
  echo
  for variant in "${VARIANTS[@]}"; do
    echo "- $variant: $(for round in $(seq 1 "$ROUNDS"); do summarise "$OUT/http/round$round-$variant.txt" | awk '{ printf "%d ", $1 }'; done)"
  done
} | tee "$OUT/http.md"
