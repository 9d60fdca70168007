# Sourced (not run) by every benchmark of this folder, first thing: the repository root as the
# working folder; BIN, the release gamedb there (each benchmark builds it with `cargo build
# --release`, and the examples it needs); load(), the load average printed beside each
# figure; and out_folder [DIR]: OUT set to DIR (made, kept), else to a fresh temporary folder
# removed at exit.
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
BIN=$PWD/target/release/gamedb
load() { cut -d' ' -f1-3 /proc/loadavg; }
out_folder() {
    if [ -n "${1:-}" ]; then
        OUT=$1
        mkdir -p "$OUT"
    else
        OUT=$(mktemp -d)
        trap 'rm -rf "$OUT"' EXIT
    fi
}
