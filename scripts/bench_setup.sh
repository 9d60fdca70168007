# Sourced (not run) by bench_nim.sh and bench_slide.sh, which build the same table at 1 and 2
# threads: builds gamedb (release) from the repository root, and sets BIN to it and OUT to the
# script's first argument, else to a temporary folder removed at exit, with t1/ and t2/ in it.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
BIN=target/release/gamedb
OUT=${1:-$(mktemp -d)}
[ -n "${1:-}" ] || trap 'rm -rf "$OUT"' EXIT
mkdir -p "$OUT/t1" "$OUT/t2"
