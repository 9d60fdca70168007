#!/usr/bin/env bash
# The README's set-up times, measured as a newcomer meets them: a fresh clone of this
# repository's HEAD in a temporary folder (its own target/, so nothing is reused from this
# checkout), then the README's two commands in it, each timed by wall clock and by processor
# time (user + system, its child processes included), with the machine's cores and load beside.
# Prints the lines to paste into README.md's "Set up" section. Takes over an hour on two cores.
#
# Usage: scripts/check/setup-times.sh [--dry-run] [--keep] [--ci] [-- COMMAND...]
#   --dry-run   say what would be cloned and run, run nothing
#   --keep      keep the clone (and the installed binary under it) afterwards
#   --ci        also time `.ci/run` in the clone (after the two commands; about 30 minutes more)
#   -- COMMAND  time these commands (each one argument, run by bash in the clone) instead of the
#               README's: a quick check of this script, e.g. `-- 'cargo --version'`
#
# The install goes into the clone (`cargo install --locked --path . --root CLONE/root`), never
# into ~/.cargo/bin. Cargo's registry cache (CARGO_HOME) is this user's: packages already
# downloaded are not downloaded again, so a machine that never built Rust takes longer by their
# download. scripts/test.sh installs Debian and Python packages when they are missing (it says
# so); on a machine that has them, that part costs nothing.
set -euo pipefail
cd "$(dirname "$0")/../.."

usage="usage: scripts/check/setup-times.sh [--dry-run] [--keep] [--ci] [-- COMMAND...]"
dry=0
keep=0
ci=0
commands=()
while [[ $# -gt 0 ]]; do
    case $1 in
        --dry-run) dry=1 ;;
        --keep) keep=1 ;;
        --ci) ci=1 ;;
        --)
            shift
            commands=("$@")
            [[ ${#commands[@]} -gt 0 ]] || { echo "-- needs at least one command; $usage" >&2; exit 2; }
            break
            ;;
        *) echo "$1: not an option; $usage" >&2; exit 2 ;;
    esac
    shift
done

# The README's two commands (README.md, "Set up"), in the clone, and their names in README.
labels=("${commands[@]}")
if [[ ${#commands[@]} -eq 0 ]]; then
    commands=('cargo install --locked --path . --root "$PWD/root"' 'scripts/test.sh')
    labels=('cargo install --locked --path .' 'scripts/test.sh')
    if [[ $ci -eq 1 ]]; then
        commands+=('.ci/run')
        labels+=('.ci/run')
    fi
fi

commit=$(git rev-parse HEAD)
cores=$(nproc)
clone=$(mktemp -d "${TMPDIR:-/tmp}/gamedb-setup-times.XXXXXX")

echo "== a fresh clone of $commit into $clone ($cores cores)"
if [[ $dry -eq 1 ]]; then
    for c in "${commands[@]}"; do
        echo "would time, in $clone/gamedb: $c"
    done
    rmdir "$clone"
    exit 0
fi
if [[ $keep -eq 0 ]]; then
    trap 'rm -rf "$clone"' EXIT
fi
git clone --quiet --no-local "$(pwd)" "$clone/gamedb"
git -C "$clone/gamedb" checkout --quiet "$commit"
cd "$clone/gamedb"
# Nothing of this checkout's build: a target folder of the clone's own.
unset CARGO_TARGET_DIR

# `12 min 05 s`
human() { awk -v s="$1" 'BEGIN { printf "%d min %02d s", s / 60, s % 60 }'; }

# Wall-clock and processor seconds of each command (bash's `time` counts its children).
lines=()
TIMEFORMAT='%R %U %S'
for i in "${!commands[@]}"; do
    c=${commands[$i]}
    load=$(cut -d' ' -f1 /proc/loadavg)
    echo "== $c (load $load at the start)"
    set +e
    { time bash -c "$c" >"$clone/step.log" 2>&1; } 2>"$clone/time"
    status=$?
    set -e
    if [[ $status -ne 0 ]]; then
        trap - EXIT
        echo "failed (exit $status): $c; its output: $clone/step.log (the clone is kept)" >&2
        exit 1
    fi
    read -r wall user sys <"$clone/time"
    cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.0f", u + s }')
    load_end=$(cut -d' ' -f1 /proc/loadavg)
    line="\`${labels[$i]}\`: $(human "$wall") of wall-clock time, $cpu s of processor time (load $load at the start, $load_end at the end)"
    echo "   $line"
    lines+=("$line")
done

echo
echo "== for README.md (\"Set up\"): measured $(date -u +%Y-%m-%d) on a fresh clone of ${commit:0:10}, $cores cores:"
for l in "${lines[@]}"; do
    echo "- $l"
done
