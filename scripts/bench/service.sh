#!/usr/bin/env bash
# gamedb serve under load, on loopback only, every run bounded in time:
#   (1) single-position GETs with keep-alive from 8 concurrent clients on the 6x63 Nim table,
#       one request at a time per connection and 8 pipelined, against a server with as many
#       request threads as cores and one with a single thread: answers/s, latency percentiles,
#       CPU per request (target: >= 50,000 answers/s with 2 cores, p99 stated);
#   (2) batch POSTs of 10,000 positions beside `gamedb query TABLE - --json` through a pipe,
#       measured in the same run (target: batch >= pipe);
#   (3) 64 clients for SOAK_SECONDS (default 60) sending good GETs, bad positions, unknown
#       tables, traversal attempts, bodies over the limit and small batches: no 5xx other than
#       503, memory sampled every second, and the server still answering afterwards.
# The load generator is scripts/programs/http-load.rs (the example `http-load`: std only, blocking
# HTTP/1.1, one thread per client). The machine's load is printed beside each figure.
#
# usage: scripts/bench/service.sh [WORKDIR]   (default target/bench-service; SECONDS_GET,
#        SECONDS_BATCH, SOAK_SECONDS and LINES change the sizes, PARTS="1 2 3" which parts run)
set -euo pipefail
source "$(dirname "$0")/setup.sh"
work=${1:-target/bench-service}
get_s=${SECONDS_GET:-10}
batch_s=${SECONDS_BATCH:-10}
soak_s=${SOAK_SECONDS:-60}
lines=${LINES:-1000000}
parts=${PARTS:-1 2 3}
part() { [[ " $parts " == *" $1 "* ]]; }
mkdir -p "$work"

cargo build --release --quiet --bin gamedb --example http-load
gamedb=target/release/gamedb
loadgen=target/release/examples/http-load
table=$work/nim-6x63.gtab
if ! "$gamedb" verify-table "$table" >/dev/null 2>&1; then
    echo "== building $table"
    "$gamedb" build nim --heaps 6 --max-heap 63 --out "$work" --quiet
fi
positions=$work/positions-$lines.txt
if [ ! -s "$positions" ]; then
    python3 - "$positions" "$lines" <<'PY'
import random, sys
r = random.Random(1)
with open(sys.argv[1], "w") as f:
    for _ in range(int(sys.argv[2])):
        f.write(",".join(str(r.randint(0, 63)) for _ in range(6)) + "\n")
PY
fi

pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; }
trap cleanup EXIT

# start NAME ARGS...: starts a server under /usr/bin/time -v; sets $addr and $pid.
start() {
    local name=$1; shift
    /usr/bin/time -v -o "$work/$name.time" "$gamedb" serve --tables "$work" --addr 127.0.0.1:0 \
        "$@" >"$work/$name.log" 2>&1 &
    local timer=$!
    for _ in $(seq 100); do
        addr=$(grep -o '127.0.0.1:[0-9]*' "$work/$name.log" 2>/dev/null | head -1 || true)
        [ -n "$addr" ] && break
        sleep 0.1
    done
    pid=$(pgrep -P "$timer" | head -1)
    pids+=("$pid")
    # Open the table (and check its checksum) before measuring.
    curl -sf "http://$addr/api/tables/nim-6x63.gtab/query?position=1,2,3" >/dev/null
}

# stop NAME PID: SIGTERM, then the exit status and peak memory.
stop() {
    kill -TERM "$2"
    while kill -0 "$2" 2>/dev/null; do sleep 0.1; done
    sleep 0.2
    echo "   $1: $(grep -E 'Exit status|Maximum resident' "$work/$1.time" | sed 's/^\s*//' | paste -sd';' -)"
}

start all-cores; addr_all=$addr; pid_all=$pid
start one-thread --workers 1; addr_one=$addr; pid_one=$pid

if part 1; then
echo
echo "== (1) single-position GETs, 8 clients, keep-alive, ${get_s} s each (runs interleaved)"
for round in 1 2; do
    for depth in 1 8; do
        for which in all one; do
            if [ $which = all ]; then a=$addr_all; p=$pid_all; what="workers=cores"; else a=$addr_one; p=$pid_one; what="workers=1"; fi
            echo "-- $what, $depth in flight per connection   [load: $(load)]"
            "$loadgen" --addr "$a" --pid "$p" --table nim-6x63.gtab --positions "$positions" \
                --clients 8 --seconds "$get_s" --pipeline "$depth" | grep -v -e '^  ' -e 'memory' -e '^unexpected answers: 0'
        done
    done
done

fi

if part 2; then
echo
echo "== (2) batch POSTs of 10,000 lines (2 clients, ${batch_s} s) beside the pipe ($lines lines)"
echo "-- batch, workers=cores   [load: $(load)]"
"$loadgen" --addr "$addr_all" --pid "$pid_all" --table nim-6x63.gtab --positions "$positions" \
    --mode batch --batch-lines 10000 --clients 2 --seconds "$batch_s" | grep -e '^mode' -e '^cpu'
echo "-- pipe: gamedb query TABLE - --json   [load: $(load)]"
start_t=$(date +%s.%N)
/usr/bin/time -f "%U %S" -o "$work/pipe.cpu" "$gamedb" query "$table" - --json --no-verify <"$positions" | wc -l >"$work/pipe.count"
end_t=$(date +%s.%N)
python3 -c "import sys; n, s = int(open(sys.argv[1]).read()), float(sys.argv[3]) - float(sys.argv[2]); \
u, k = map(float, open(sys.argv[4]).read().split()); \
print(f'   {n} answers in {s:.2f} s: {n / s:,.0f} answers/s; cpu {(u + k) / s:.2f} cores, {(u + k) * 1e6 / n:.2f} us per answer')" \
    "$work/pipe.count" "$start_t" "$end_t" "$work/pipe.cpu"
echo "-- batch again, workers=cores   [load: $(load)]"
"$loadgen" --addr "$addr_all" --pid "$pid_all" --table nim-6x63.gtab --positions "$positions" \
    --mode batch --batch-lines 10000 --clients 2 --seconds "$batch_s" | grep -e '^mode' -e '^cpu'
fi
stop all-cores "$pid_all"
stop one-thread "$pid_one"

part 3 || exit 0
echo
echo "== (3) soak: 64 clients for ${soak_s} s, good and bad requests mixed   [load: $(load)]"
start soak --max-body 262144; addr_soak=$addr; pid_soak=$pid
"$loadgen" --addr "$addr_soak" --pid "$pid_soak" --table nim-6x63.gtab --positions "$positions" \
    --mode soak --clients 64 --seconds "$soak_s" --max-body 262144 || echo "   SOAK FAILED: unexpected answers"
echo "-- afterwards   [load: $(load)]"
echo "   health: $(curl -s "http://$addr_soak/api/health")"
echo "   a query: $(curl -s "http://$addr_soak/api/tables/nim-6x63.gtab/query?position=1,2,3")"
stop soak "$pid_soak"
