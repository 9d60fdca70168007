#!/usr/bin/env bash
# `gamedb export` speed: the P-positions of the 16x16 Chomp box (3,317,972 rows, the
# published count) as CSV and as JSON lines, at 1 and 2 threads, with time, peak memory and the
# machine's load; the two thread counts must give identical bytes.
#
# usage: scripts/bench/export.sh [WORKDIR]   (default target/bench-export; builds the 16x16
#        table there, about 10 s and 76 MiB on two cores, unless an intact one is present)
set -euo pipefail
source "$(dirname "$0")/setup.sh"
work=${1:-target/bench-export}
mkdir -p "$work"
cargo build --release --quiet --bin gamedb
gamedb=target/release/gamedb
table=$work/chomp-16x16.gtab
if ! "$gamedb" verify-table "$table" >/dev/null 2>&1; then
    echo "== building $table"
    "$gamedb" build chomp --rows 16 --cols 16 --out "$work" --quiet
fi
for format in csv jsonl; do
    for threads in 1 2; do
        out=$work/p-$threads.$format
        echo "-- export --only P --format $format --threads $threads   [load: $(load)]"
        /usr/bin/time -f "   %e s wall, %U s user, %S s system, peak memory %M KB" \
            "$gamedb" export "$table" --only P --format "$format" --threads "$threads" --quiet \
            --out "$out" 2>&1 | sed 's/^wrote/   wrote/'
    done
    cmp "$work/p-1.$format" "$work/p-2.$format" && echo "   1 and 2 threads: identical bytes"
    rows=$(wc -l <"$work/p-2.$format")
    [ "$format" = csv ] && rows=$((rows - 1))  # the header line
    echo "   $rows rows $( [ "$rows" = 3317972 ] && echo '= the published 3,317,972 P-positions' || echo 'MISMATCH: expected 3,317,972')"
    head -3 "$work/p-2.$format" | sed 's/^/   /'
done
