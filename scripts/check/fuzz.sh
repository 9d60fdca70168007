#!/usr/bin/env bash
# Builds the cargo-fuzz targets of tests/fuzz/ and runs them one after another, each for
# SECONDS (default 60), and prints per target: executions, corpus size, and whether it found a
# crash, a hang or a leak (libFuzzer stops at the first one and leaves it in
# tests/fuzz/artifacts/TARGET/).
#
#   scripts/check/fuzz.sh [--check] [SECONDS] [TARGET...]    targets: every one of tests/fuzz (default)
#
# Each run starts from the corpus kept in tests/fuzz/corpus/TARGET/ and adds what it finds there
# (minimise it afterwards: cargo +nightly fuzz cmin --fuzz-dir tests/fuzz TARGET). With --check
# (what .ci/run uses) the kept corpus is only read: new inputs and crashes go to a temporary
# folder, so the work tree stays as it was.
#
# Installs what it needs when missing: cargo-fuzz (`cargo install cargo-fuzz --locked`), the
# nightly toolchain (through rustup, where it can be fetched), and numpy for the python target
# (target/test-venv when scripts/test.sh --setup made it, else a virtual environment of its
# own under target/fuzz-venv). Without a nightly toolchain nothing can be fuzzed: the targets
# are then built on the stable one and run once over their kept corpus (a compile break and a
# regression still fail), and the script says so.
#
# Builds: release (`-O`) with the address sanitizer (cargo-fuzz's defaults). A run longer than
# -timeout (10 s) on one input counts as a hang; -rss_limit_mb=2048 as a memory blow-up.
# Exit status: 0 when every target built and ran clean, 1 otherwise.
set -u
cd "$(dirname "$0")/../.."
check=0
if [ "${1:-}" = --check ]; then
    check=1
    shift
fi
secs=${1:-60}
shift || true
fuzz_dir=tests/fuzz
say() { printf '== %s\n' "$*" >&2; }

# ---- tools ----------------------------------------------------------------------------------
nightly=1
if ! cargo +nightly --version >/dev/null 2>&1; then
    say "no nightly toolchain: trying rustup toolchain install nightly"
    timeout 300 rustup toolchain install nightly --profile minimal >/dev/null 2>&1 || nightly=0
    cargo +nightly --version >/dev/null 2>&1 || nightly=0
fi
if [ $nightly = 1 ] && ! cargo fuzz --version >/dev/null 2>&1; then
    say "installing cargo-fuzz (cargo install cargo-fuzz --locked)"
    cargo install cargo-fuzz --locked --quiet || exit 1
fi

# numpy for the python target, and the package's own folder is found by the target itself.
venv=target/test-venv
if ! "$venv/bin/python" -c 'import numpy' >/dev/null 2>&1; then
    venv=target/fuzz-venv
    if ! "$venv/bin/python" -c 'import numpy' >/dev/null 2>&1; then
        say "installing numpy into $venv (the python target)"
        mkdir -p target
        python3 -m venv "$venv" &&
            "$venv/bin/python" -m pip install --quiet --disable-pip-version-check numpy || exit 1
    fi
fi
# PyO3 builds against python3 on PATH, the CPython the venv was made from; the embedded
# interpreter finds numpy through PYTHONPATH (which PyO3's build does not read, so setting it
# rebuilds nothing).
PYTHONPATH="$("$venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"
export PYTHONPATH

targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    # Every [[bin]] of the fuzz crate: a new target needs no line here.
    mapfile -t targets < <(sed -n 's/^name = "\(.*\)"$/\1/p' "$fuzz_dir/Cargo.toml" | grep -v '^gamedb-fuzz$')
fi

# ---- without nightly: build on stable, run the kept corpus once ------------------------------
if [ $nightly = 0 ]; then
    say "no nightly toolchain to be had: building the targets on stable and running each over its kept corpus once (no fuzzing)"
    cargo build --release --manifest-path "$fuzz_dir/Cargo.toml" --bins || exit 1
    status=0
    for t in "${targets[@]}"; do
        mkdir -p "$fuzz_dir/corpus/$t"
        n=$(ls "$fuzz_dir/corpus/$t" | wc -l)
        if "$fuzz_dir/target/release/$t" -runs=0 -detect_leaks=0 "$fuzz_dir/corpus/$t" >/tmp/fuzz-$$.log 2>&1; then
            printf '%-10s corpus %6s inputs run once: clean\n' "$t" "$n"
        else
            printf '%-10s corpus %6s inputs run once: FAILED\n' "$t" "$n"
            tail -40 /tmp/fuzz-$$.log
            status=1
        fi
    done
    rm -f /tmp/fuzz-$$.log
    exit $status
fi

# ---- fuzzing --------------------------------------------------------------------------------
build=(--fuzz-dir "$fuzz_dir" -O)
started=$(date +%s)
cargo +nightly fuzz build "${build[@]}" || exit 1
say "built in $(($(date +%s) - started)) s"
scratch=""
if [ $check = 1 ]; then
    scratch=$(mktemp -d)
    trap 'rm -rf "$scratch"' EXIT
fi
status=0
for t in "${targets[@]}"; do
    kept="$fuzz_dir/corpus/$t"
    mkdir -p "$kept"
    if [ $check = 1 ]; then
        corpora=("$scratch/corpus-$t" "$kept")
        artifacts="$scratch/artifacts-$t/"
        mkdir -p "${corpora[0]}" "$artifacts"
    else
        corpora=("$kept")
        artifacts="$fuzz_dir/artifacts/$t/"
        mkdir -p "$artifacts"
    fi
    log=$(mktemp)
    say "$t: ${secs} s (load before: $(cut -d' ' -f1-3 /proc/loadavg))"
    # CPython keeps memory to the end of the process, which the leak checks (libFuzzer's after
    # each input, the sanitizer's at exit) take for leaks.
    leaks=1
    [ "$t" = python ] && leaks=0
    ASAN_OPTIONS="detect_leaks=$leaks${ASAN_OPTIONS:+:$ASAN_OPTIONS}" \
        cargo +nightly fuzz run "${build[@]}" "$t" "${corpora[@]}" -- \
            -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
            -detect_leaks=$leaks -artifact_prefix="$artifacts" >"$log" 2>&1
    rc=$?
    execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1)
    files=$(ls "$kept" | wc -l)
    bytes=$(find "$kept" -type f -printf '%s\n' | awk '{ s += $1 } END { print s + 0 }')
    [ $check = 1 ] && files="$files+$(ls "${corpora[0]}" | wc -l)"
    found=$(grep -E 'ERROR: libFuzzer|panicked at|deadly signal|==ERROR' "$log" | head -3)
    printf '%-10s executions %12s  corpus %8s files %9s bytes  exit %s  %s\n' "$t" "${execs:-?}" \
        "$files" "$bytes" "$rc" "${found:-no crash, no hang}"
    if [ "$rc" -ne 0 ]; then
        status=1
        tail -60 "$log"
        ls -1 "$artifacts"
    fi
    rm -f "$log"
done
exit $status
