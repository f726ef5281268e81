#!/usr/bin/env bash
# What our modules add to an app's start: the host app of the build (ratelimit-host-app: JPA on H2, Thymeleaf,
# Spring Security, Caffeine through JCache, actuator) started without us and with every published module of
# ours (ratelimit-host-app-test's runtime classpath), alternated, each start in a JVM of its own, against one
# redis-server of its own. Variants:
#   app        the host app alone
#   ours       the host app with our modules, on the shipped defaults (counters in Redis)
#   ours-memory  the same with ratelimit.store=memory: the modules without any Redis work
# Each start's "Started ... in X seconds" is read from the log; the table gives each variant's median and
# minimum and what it adds to the app's median. A start is CPU-bound on a 2-core machine (the JIT takes one
# core most of the time), so run it with nothing else running.
#
# Usage: ratelimit-bench/startup.sh [--no-build] [ROUNDS]   (ROUNDS defaults to 10)
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" = "--no-build" ]; then shift; else
    mvn -q -B -ntp package -DskipTests -pl ratelimit-host-app-test -am
fi
ROUNDS=${1:-10}
APP="ratelimit-host-app/target/ratelimit-host-app-0.1.0-SNAPSHOT.jar:$(cat ratelimit-host-app/target/runtime-classpath.txt)"
OURS=$(cat ratelimit-host-app-test/target/runtime-classpath.txt)
WORK=$(mktemp -d)
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
redis-server --port "$PORT" --save '' --appendonly no --daemonize yes --pidfile "$WORK/redis.pid" >/dev/null
trap 'kill "$(cat "$WORK/redis.pid")" 2>/dev/null; rm -rf "$WORK"' EXIT

start() { # variant classpath [java arguments...]: prints the seconds the app took to start
    local variant=$1 classpath=$2; shift 2
    local log="$WORK/$variant.log"
    java -cp "$classpath" -Dspring.data.redis.port="$PORT" -Dserver.port=0 -Dspring.main.banner-mode=off "$@" \
        dev.ratelimit.hostapp.BookshopApplication >"$log" 2>&1 &
    local pid=$!
    until grep -q "Started BookshopApplication" "$log" || ! kill -0 "$pid" 2>/dev/null; do sleep 0.1; done
    kill "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
    grep -o "Started BookshopApplication in [0-9.]* seconds" "$log" | grep -o "[0-9.]*" | head -1 \
        || { echo "the $variant variant did not start: $log" >&2; cat "$log" >&2; exit 1; }
}

for round in $(seq 1 "$ROUNDS"); do
    # The order turns each round, so that no variant always runs after the same one.
    case $((round % 3)) in
        0) order="app ours ours-memory";; 1) order="ours ours-memory app";; 2) order="ours-memory app ours";;
    esac
    for variant in $order; do
        case $variant in
            app) echo "app $(start app "$APP")";;
            ours) echo "ours $(start ours "$OURS")";;
            ours-memory) echo "ours-memory $(start ours-memory "$OURS" -Dratelimit.store=memory)";;
        esac
    done
done > "$WORK/times"
cat "$WORK/times" >&2

python3 - "$WORK/times" <<'PY'
import statistics, sys
times = {}
for line in open(sys.argv[1]):
    variant, seconds = line.split()
    times.setdefault(variant, []).append(float(seconds))
app = statistics.median(times["app"])
print(f"{'variant':<12} {'median s':>9} {'min s':>7} {'adds s':>7}  starts")
for variant in ("app", "ours", "ours-memory"):
    median = statistics.median(times[variant])
    print(f"{variant:<12} {median:>9.2f} {min(times[variant]):>7.2f} {median - app:>+7.2f}  {len(times[variant])}")
PY
