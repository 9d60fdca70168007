#!/usr/bin/env bash
# What builds say they need (memory, disk) against what they use: peak resident memory from
# /usr/bin/time -v and the file written, with the load beside each figure.
#
#   scripts/bench/needs.sh            a few builds of every game, each under a second to 20 s
#   scripts/bench/needs.sh --big      adds Chomp 16x16 and the 3x4 sliding puzzle
set -u
source "$(dirname "$0")/setup.sh"
cargo build --release -q || exit 1
G=$PWD/target/release/gamedb
out=$(mktemp -d /tmp/gamedb-needs.XXXXXX)
trap 'rm -rf "$out"' EXIT
builds=(
    "nim --heaps 6 --max-heap 63"
    "nim --heaps 5 --max-heap 40 --grundy"
    "candy --max-candies 20000001 --max-take 3"
    "chomp --rows 14 --cols 14"
    "chomp --rows 12 --cols 12 --grundy"
    "wythoff --max-heap 4000"
    "wythoff --max-heap 600 --grundy"
    "slide --rows 3 --cols 3"
    "pdb --rows 4 --cols 4 --pattern 1,2,3,4,5"
)
if [ "${1:-}" = --big ]; then
    builds+=("chomp --rows 16 --cols 16" "slide --rows 3 --cols 4" "chomp --rows 14 --cols 14 --grundy")
fi
printf '%-44s %12s %12s %12s %12s  %s\n' build "says memory" "peak RSS" "says disk" "file" load
for b in "${builds[@]}"; do
    rm -f "$out"/*.gtab
    /usr/bin/time -v "$G" build $b --out "$out" >"$out/stdout" 2>"$out/stderr"
    said=$(grep -o 'needs [0-9.]* [KMGT]*i*B of memory and [0-9.]* [KMGT]*i*B of disk' "$out/stderr")
    mem=$(echo "$said" | awk '{print $2" "$3}')
    disk=$(echo "$said" | awk '{print $7" "$8}')
    rss=$(awk '/Maximum resident/ {printf "%.1f MiB", $6/1024}' "$out/stderr")
    file=$(stat -c %s "$out"/*.gtab)
    printf '%-44s %12s %12s %12s %12s  %s\n' "$b" "$mem" "$rss" "$disk" "$((file / 1024)) KiB" \
        "$(cut -d' ' -f1-3 /proc/loadavg)"
done
