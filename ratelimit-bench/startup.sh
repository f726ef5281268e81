#!/usr/bin/env bash
# What our modules add to an app's start: the host app of the build (ratelimit-host-app: JPA on H2, Thymeleaf,
# Spring Security, Caffeine through JCache, actuator) started without us and with every published module of
# ours (ratelimit-host-app-test's runtime classpath), alternated, each start in a JVM of its own, against one
# redis-server of its own. Variants:
#   app        the host app alone
#   ours       the host app with our modules, on the shipped defaults (counters in Redis)
#   starter    the host app with the starter alone (ratelimit-interceptor, which brings ratelimit-core), on the
#              shipped defaults: the jars of the console and the API index left out, theirs alone (the console's
#              other dependencies stay on the classpath, where nothing configures or loads them)
#   ours-memory  all our modules with ratelimit.store=memory: the modules without any Redis work
# Each start gives two figures: "started", the "Started ... in X seconds" of the log, and "first answer", the
# seconds from the launch of the JVM to the answer of its first request, GET /books, sent as soon as the log
# says the app has started. With our modules that request is limited by a dynuri rule set in Redis before the
# start (a limit high enough to admit every request), so it is decided by Redis: whatever the limiter has not
# finished by "Started" (its connection, its first read of the rules) counts in the second figure. The table gives each variant's medians and minimums and what it adds to the app's medians. A start
# is CPU-bound on a 2-core machine (the JIT takes one core most of the time), so run it with nothing else
# running. A second table says where each variant's CPU time went by the time of the first answer, read from
# /proc per thread: the main thread, the JIT compilers, the garbage collector, our threads (ratelimit-*) and
# Lettuce's (lettuce-*): a figure far steadier than the wall times on a shared machine.
#
# With --cds, each variant starts on a class data sharing archive of its own, made first by a training start
# (-XX:ArchiveClassesAtExit, stopped after the context's refresh): the JVM's way, which Spring Boot documents,
# to load an app's classes at a fraction of the cost, so what remains is what our modules make the app do.
#
# Usage: ratelimit-bench/startup.sh [--no-build] [--cds] [ROUNDS]   (ROUNDS defaults to 10)
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" = "--no-build" ]; then shift; else
    mvn -q -B -ntp package -DskipTests -pl ratelimit-host-app-test -am
fi
CDS=false
if [ "${1:-}" = "--cds" ]; then CDS=true; shift; fi
ROUNDS=${1:-10}
APP="ratelimit-host-app/target/ratelimit-host-app-0.1.0-SNAPSHOT.jar:$(cat ratelimit-host-app/target/runtime-classpath.txt)"
OURS=$(cat ratelimit-host-app-test/target/runtime-classpath.txt)
STARTER=$(tr ':' '\n' <<<"$OURS" | grep -v -E '/ratelimit-(console|apiindex)[-/]' | paste -sd: -)
WORK=$(mktemp -d)
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
redis-server --port "$PORT" --save '' --appendonly no --daemonize yes --pidfile "$WORK/redis.pid" >/dev/null
trap 'kill "$(cat "$WORK/redis.pid")" 2>/dev/null; rm -rf "$WORK"' EXIT

redis-cli -p "$PORT" hset ratelimit:sysconfig dynuri./books "1000000/60 ip" >/dev/null

cpu_by_thread() { # pid: prints "group milliseconds" of CPU (user and system) per group of the JVM's threads
    local hz task stat name
    hz=$(getconf CLK_TCK)
    for task in /proc/"$1"/task/*; do
        stat=$(cat "$task/stat" 2>/dev/null) || continue
        name=${stat#*(}; name=${name%)*}; set -- ${stat##*) }
        case $name in
            java) name=main;; C1*|C2*) name=jit;; GC*|G1*) name=gc;; ratelimit-*) name=ratelimit;; lettuce-*) name=lettuce;;
            *) name=other;;
        esac
        echo "$name $(( (${12} + ${13}) * 1000 / hz ))"
    done | awk '{ ms[$1] += $2 } END { for (g in ms) print g, ms[g] }'
}

start() { # variant classpath [java arguments...]: prints "started first-answer", in seconds
    local variant=$1 classpath=$2; shift 2
    local log="$WORK/$variant.log" launched answered port
    if $CDS; then
        if [ ! -f "$WORK/$variant.jsa" ]; then # the training start: its classes, archived when it exits
            java -XX:ArchiveClassesAtExit="$WORK/$variant.jsa" -Dspring.context.exit=onRefresh -cp "$classpath" \
                -Dspring.data.redis.port="$PORT" -Dserver.port=0 -Dspring.main.banner-mode=off "$@" \
                dev.ratelimit.hostapp.BookshopApplication >"$WORK/$variant-training.log" 2>&1
        fi
        set -- -XX:SharedArchiveFile="$WORK/$variant.jsa" "$@"
    fi
    launched=$(date +%s%N)
    java -cp "$classpath" -Dspring.data.redis.port="$PORT" -Dserver.port=0 -Dspring.main.banner-mode=off "$@" \
        dev.ratelimit.hostapp.BookshopApplication >"$log" 2>&1 &
    local pid=$!
    until grep -q "Started BookshopApplication" "$log" || ! kill -0 "$pid" 2>/dev/null; do sleep 0.05; done
    port=$(grep -o "Tomcat started on port [0-9]*" "$log" | grep -o "[0-9]*$" | head -1)
    if [ -n "$port" ] && curl -sf -o /dev/null "http://127.0.0.1:$port/books"; then
        answered=$(date +%s%N)
        cpu_by_thread "$pid" >"$WORK/$variant.cpu.$(date +%s%N)"
    fi
    kill "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
    if [ "$variant" = ours ] || [ "$variant" = starter ]; then # its request was decided by Redis: it left a counter there
        local counters
        counters=$(redis-cli -p "$PORT" --scan --pattern 'ratelimit:counter:*')
        [ -n "$counters" ] || { echo "the ours variant's request left no counter in Redis: $log" >&2; exit 1; }
        echo "$counters" | xargs redis-cli -p "$PORT" del >/dev/null
    fi
    local started
    started=$(grep -o "Started BookshopApplication in [0-9.]* seconds" "$log" | grep -o "[0-9.]*" | head -1)
    if [ -z "$started" ] || [ -z "${answered:-}" ]; then
        echo "the $variant variant did not start or answer: $log" >&2; cat "$log" >&2; exit 1
    fi
    echo "$started $(( (answered - launched) / 1000000 ))" | awk '{ printf "%s %.3f\n", $1, $2 / 1000 }'
}

for round in $(seq 1 "$ROUNDS"); do
    # The order turns each round, so that no variant always runs after the same one.
    case $((round % 4)) in
        0) order="app ours starter ours-memory";; 1) order="ours starter ours-memory app";;
        2) order="starter ours-memory app ours";; 3) order="ours-memory app ours starter";;
    esac
    for variant in $order; do
        case $variant in
            app) echo "app $(start app "$APP")";;
            ours) echo "ours $(start ours "$OURS")";;
            starter) echo "starter $(start starter "$STARTER")";;
            ours-memory) echo "ours-memory $(start ours-memory "$OURS" -Dratelimit.store=memory)";;
        esac
    done
done > "$WORK/times"
cat "$WORK/times" >&2

python3 - "$WORK/times" <<'PY'
import statistics, sys
started, answered = {}, {}
for line in open(sys.argv[1]):
    variant, start, answer = line.split()
    started.setdefault(variant, []).append(float(start))
    answered.setdefault(variant, []).append(float(answer))
app_started, app_answered = statistics.median(started["app"]), statistics.median(answered["app"])
print(f"{'variant':<12} {'started s':>9} {'min':>6} {'adds':>6}   {'first answer s':>14} {'min':>6} {'adds':>6}  starts")
for variant in ("app", "ours", "starter", "ours-memory"):
    s, a = started[variant], answered[variant]
    print(f"{variant:<12} {statistics.median(s):>9.2f} {min(s):>6.2f} {statistics.median(s) - app_started:>+6.2f}"
          f"   {statistics.median(a):>14.2f} {min(a):>6.2f} {statistics.median(a) - app_answered:>+6.2f}  {len(s)}")
PY

echo
python3 - "$WORK" <<'PY'
import collections, glob, os, statistics, sys
groups = ("main", "jit", "gc", "ratelimit", "lettuce", "other")
print("CPU seconds by the first answer (medians):")
print(f"{'variant':<12} " + " ".join(f"{g:>9}" for g in groups) + f" {'all':>7} {'adds':>6}")
app_all = None
for variant in ("app", "ours", "starter", "ours-memory"):
    starts = []
    for f in glob.glob(os.path.join(sys.argv[1], variant + ".cpu.*")):
        ms = collections.Counter()
        for line in open(f):
            group, value = line.split()
            ms[group] += int(value)
        starts.append(ms)
    med = {g: statistics.median(s[g] for s in starts) / 1000 for g in groups}
    total = statistics.median(sum(s.values()) for s in starts) / 1000
    app_all = total if app_all is None else app_all
    print(f"{variant:<12} " + " ".join(f"{med[g]:>9.2f}" for g in groups) + f" {total:>7.2f} {total - app_all:>+6.2f}")
PY
