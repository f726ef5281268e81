# Sourced by the HTTP benchmark scripts: the processes they start, on free loopback ports, stopped on exit.

PIDS=()
stop_started_processes() {
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
}
trap stop_started_processes EXIT

# A loopback port nobody listens on (at most 50 tries).
free_port() {
  local port
  for _ in $(seq 1 50); do
    port=$((20000 + RANDOM % 40000))
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
      echo "$port"
      return
    fi
  done
  echo "no free port found" >&2
  exit 1
}

# Waits at most 30 s for the redis-server on a port to answer.
await_redis() {
  for _ in $(seq 1 60); do
    redis-cli -p "$1" ping >/dev/null 2>&1 && return 0
    sleep 0.5
  done
  echo "redis-server on port $1 did not answer within 30 s" >&2
  exit 1
}

# Waits at most 60 s for a URL to answer.
await() {
  for _ in $(seq 1 120); do
    curl -s -o /dev/null "$1" && return 0
    sleep 0.5
  done
  echo "$1 did not answer within 60 s" >&2
  exit 1
}
