#!/usr/bin/env bash
# Fault injection: interrupts builds at random moments and checks that gamedb keeps its
# promises (README, "What gamedb promises").
#
#   scripts/check/fault-inject.sh [N] [SCENARIO...]
#
# Scenarios (default: chomp build-all special):
#   chomp      `gamedb build chomp` of the box in $CHOMP_BOX (default 14x14: about a second on
#              two idle cores; CHOMP_BOX="16 16" for the 16x16 box, about 8 s a build) with a
#              checkpoint after every wave (`--checkpoint-every 0`: a few seconds a build), so
#              kills land in waves, in checkpoints and in the table's writing; the next run
#              resumes from the checkpoint when there is one (`--resume`), and must leave no
#              checkpoint behind
#   slide      `gamedb build slide --rows 3 --cols 4` (239,500,800 positions, 6-15 s a build)
#   build-all  `gamedb build-all` of a small catalog (five tables, a few seconds)
#   enumerate  `gamedb enumerate slide --rows 2 --cols 5 --table` with a checkpoint after every
#              level and each level slowed by 20 ms (about 1.5 s a run), so kills land in
#              levels, in checkpoints and in the table's writing; the next run resumes from
#              the checkpoint when there is one (`--resume`), and must leave no checkpoint
#              folder behind
#   special    one trial each: a full disk (a 3 MiB tmpfs, two builds racing for it), a
#              read-only folder, a table truncated under a running `query -`; the tmpfs
#              needs root (mount); without it these are reported as not run.
#
# Each of the N trials of a scenario starts the build, sends SIGKILL or SIGINT (at random) after
# a random delay between 0 and 1.2 times the time of an uninterrupted build, and checks:
#   1. every file under a final name (*.gtab) verifies and is byte-identical to the reference
#      (a table is either complete or absent, never partial);
#   2. the next run, uninterrupted, succeeds;
#   3. after it, no temporary (.NAME.tmp-PID) and no lock file (.NAME.lock) is left, and every
#      table is byte-identical to the reference build.
# Half of the trials start from a folder holding the tables already (interrupting a rebuild
# must leave the old table intact; build-all gets one table damaged to force a rebuild).
#
# Prints one line per trial and a summary; exit status 1 if any check failed.
set -u
# Builds run with the default SIGINT disposition, as from a terminal: a non-interactive shell
# starts background jobs with SIGINT ignored, and so does anything started under `nohup ... &`
# (an ignored signal is inherited), so each build is started through `env --default-signal`.
set -m
cd "$(dirname "$0")/../.."
N=${1:-50}
shift || true
scenarios=("$@")
[ ${#scenarios[@]} -eq 0 ] && scenarios=(chomp build-all special)
read -r chomp_rows chomp_cols <<<"${CHOMP_BOX:-14 14}"

cargo build --release -q || exit 1
work=$(mktemp -d /tmp/gamedb-fault.XXXXXX)
# A copy, so that a rebuild during the run does not change the program under test.
cp target/release/gamedb "$work/gamedb"
G=$work/gamedb
trap 'umount "$work"/mnt-* 2>/dev/null; rm -rf "$work"' EXIT
echo "fault injection: N=$N, scenarios: ${scenarios[*]}, work in $work, load $(cut -d' ' -f1-3 /proc/loadavg)"

trials=0
resumed=0
interrupted=0
failures=0
fail() {
    failures=$((failures + 1))
    echo "  FAIL: $*"
}

now_ms() { date +%s%3N; }

cat >"$work/catalog.txt" <<'EOF'
nim --heaps 6 --max-heap 40
chomp --rows 12 --cols 12
chomp --rows 10 --cols 10 --grundy
slide --rows 2 --cols 5
candy --max-candies 2001 --max-take 5
EOF

# The command of a scenario, writing into folder $1.
command_of() {
    case $2 in
    chomp) echo "env --default-signal=INT $G build chomp --rows $chomp_rows --cols $chomp_cols --checkpoint-every 0 --out $1 -q" ;;
    slide) echo "env --default-signal=INT $G build slide --rows 3 --cols 4 --out $1 -q" ;;
    build-all) echo "env --default-signal=INT $G build-all --catalog $work/catalog.txt --out $1 -q" ;;
    enumerate) echo "env --default-signal=INT $G enumerate slide --rows 2 --cols 5 --table --checkpoint-every 0 --level-delay-ms 20 --out $1 -q" ;;
    esac
}

# The command that continues an interrupted run in folder $1: enumerate and the chomp build
# resume from their checkpoint when one was written; the other builds simply run again.
next_of() {
    if [ "$2" = enumerate ] && [ -d "$1/slide-2x5.enumerate" ]; then
        echo "$(command_of "$1" "$2") --resume"
    elif [ "$2" = chomp ] && [ -e "$1/chomp-${chomp_rows}x${chomp_cols}.gtab.checkpoint" ]; then
        echo "$(command_of "$1" "$2") --resume"
    else
        command_of "$1" "$2"
    fi
}

# Check 1/3: every table in folder $1 verifies and equals the reference in $2 (or is still
# the damaged copy $3 this script planted, which gamedb did not get to replace yet).
tables_match() {
    local dir=$1 ref=$2 planted=${3:-} ok=0 f
    for f in "$dir"/*.gtab; do
        [ -e "$f" ] || continue
        if [ -n "$planted" ] && [ "planted-$(basename "$f")" = "$(basename "$planted")" ] && cmp -s "$f" "$planted"; then
            continue
        fi
        if ! "$G" verify-table "$f" >/dev/null 2>"$work/verify.err"; then
            fail "$(basename "$f") under its final name does not verify: $(cat "$work/verify.err")"
            ok=1
        elif ! cmp -s "$f" "$ref/$(basename "$f")"; then
            fail "$(basename "$f") differs from the reference build"
            ok=1
        fi
    done
    return $ok
}

leftovers() {
    find "$1" -maxdepth 1 -name '.*' -type f | sed 's|.*/||' | tr '\n' ' '
}

run_scenario() {
    local s=$1 ref=$work/ref-$s dir=$work/$s
    local t0 t1 ms
    echo "== $s: reference build"
    t0=$(now_ms)
    $(command_of "$ref" "$s") >/dev/null 2>"$work/ref.err" || {
        echo "reference build failed: $(cat "$work/ref.err")"
        exit 1
    }
    t1=$(now_ms)
    ms=$((t1 - t0))
    echo "   $(ls "$ref" | wc -l) table(s) in ${ms} ms (load $(cut -d' ' -f1-3 /proc/loadavg))"
    mkdir -p "$dir"
    local i
    for ((i = 1; i <= N; i++)); do
        trials=$((trials + 1))
        local before=$failures
        local start="fresh" planted=""
        if ((RANDOM % 2)); then
            start="over old tables"
            cp "$ref"/*.gtab "$dir"/
            if [ "$s" = build-all ]; then
                # Damage one table so that it is rebuilt (flip one payload byte).
                local victim
                victim=$(ls "$dir"/*.gtab | shuf -n 1)
                printf '\x55' | dd of="$victim" bs=1 seek=4100 conv=notrunc status=none
                planted=$work/planted-$(basename "$victim")
                cp "$victim" "$planted"
            fi
        else
            rm -f "$dir"/*.gtab
        fi
        local sig=KILL
        ((RANDOM % 2)) && sig=INT
        local delay=$(((RANDOM * 32768 + RANDOM) % (ms * 12 / 10 + 1)))
        $(command_of "$dir" "$s") >"$work/run.out" 2>&1 &
        local pid=$!
        sleep "$(printf '%d.%03d' $((delay / 1000)) $((delay % 1000)))"
        kill -"$sig" "$pid" 2>/dev/null
        { wait "$pid"; } 2>/dev/null
        local rc=$?
        [ "$rc" -ne 0 ] && interrupted=$((interrupted + 1))
        tables_match "$dir" "$ref" "$planted"
        if compgen -G "$dir/*.checkpoint" >/dev/null || [ -d "$dir/slide-2x5.enumerate" ]; then
            resumed=$((resumed + 1))
        fi
        # The next run completes.
        if ! $(next_of "$dir" "$s") >"$work/next.out" 2>&1; then
            fail "the next run failed: $(tail -3 "$work/next.out")"
        fi
        local left
        left=$(leftovers "$dir")
        [ -z "$left" ] || fail "left after the next run: $left"
        [ ! -e "$dir/slide-2x5.enumerate" ] || fail "a checkpoint folder left after the next run"
        ! compgen -G "$dir/*.checkpoint" >/dev/null || fail "a checkpoint left after the next run"
        tables_match "$dir" "$ref"
        local want have
        want=$(cd "$ref" && ls *.gtab | sort | tr '\n' ' ')
        have=$(cd "$dir" && ls *.gtab 2>/dev/null | sort | tr '\n' ' ')
        [ "$want" = "$have" ] || fail "tables after the next run: $have; expected $want"
        printf '   trial %3d: %-16s SIG%-4s after %6d ms (exit %3d)  %s\n' "$i" "$start" "$sig" \
            "$delay" "$rc" "$([ $failures -eq $before ] && echo ok || echo FAILED)"
        if [ $failures -ne $before ]; then
            echo "     damaged before the run: ${planted:-none}; output of the interrupted run:"
            sed 's/^/     | /' "$work/run.out"
        fi
    done
}

mount_tmpfs() { # folder, options
    mkdir -p "$1"
    mount -t tmpfs -o "$2" tmpfs "$1" 2>/dev/null
}

run_special() {
    echo "== special cases"
    # A full disk: two builds race for a 3 MiB tmpfs, each fitting alone.
    trials=$((trials + 1))
    local m=$work/mnt-full
    if mount_tmpfs "$m" size=3m; then
        "$G" build slide --rows 2 --cols 5 --out "$m" -q >"$work/a.out" 2>&1 &
        local a=$!
        "$G" build slide --rows 5 --cols 2 --out "$m" -q >"$work/b.out" 2>&1 &
        local b=$!
        wait $a; local ra=$?
        wait $b; local rb=$?
        echo "   full disk: exits $ra and $rb; $(cat "$work/a.out" "$work/b.out" | grep -v '^wrote' | head -2)"
        tables_match "$m" "$work/ref-disk"
        [ $ra -eq 0 ] && [ $rb -eq 0 ] && echo "   (both fitted: the race did not fill the disk)"
        if [ $ra -ne 0 ] || [ $rb -ne 0 ]; then
            cat "$work/a.out" "$work/b.out" | grep -q "writing the table failed: No space left\|of disk" ||
                fail "full disk: no clear message: $(cat "$work/a.out" "$work/b.out")"
        fi
        local left
        left=$(leftovers "$m")
        [ -z "$left" ] || fail "full disk: left behind: $left"
        # What does not fit now is refused before solving, with needed vs free.
        rm -f "$m"/*.gtab
        dd if=/dev/zero of="$m/filler" bs=1k count=2000 status=none
        if "$G" build slide --rows 2 --cols 5 --out "$m" -q >"$work/c.out" 2>&1; then
            fail "full disk: a build that cannot fit was not refused"
        else
            grep -q "of disk, but" "$work/c.out" || fail "full disk: $(cat "$work/c.out")"
            echo "   full disk, refused up front: $(head -c 160 "$work/c.out")"
        fi
        umount "$m"
    else
        echo "   full disk: not run (cannot mount a tmpfs here: run as root)"
    fi

    # A read-only folder: refused at once, before solving.
    trials=$((trials + 1))
    m=$work/mnt-ro
    if mount_tmpfs "$m" ro,size=1m; then
        local t0 t1
        t0=$(now_ms)
        "$G" build slide --rows 3 --cols 4 --out "$m" >"$work/ro.out" 2>&1 && fail "read-only: built"
        "$G" build-all --catalog "$work/catalog.txt" --out "$m" >>"$work/ro.out" 2>&1 &&
            fail "read-only: build-all succeeded"
        t1=$(now_ms)
        [ $((t1 - t0)) -lt 1000 ] || fail "read-only: took $((t1 - t0)) ms"
        grep -c "not writable" "$work/ro.out" | grep -q 2 || fail "read-only: $(cat "$work/ro.out")"
        echo "   read-only folder: both refused in $((t1 - t0)) ms: $(head -1 "$work/ro.out")"
        umount "$m"
    else
        echo "   read-only folder: not run (cannot mount a tmpfs here: run as root)"
    fi

    # A table truncated while `query -` has it mapped: the answers given before are right,
    # none is given after; gamedb says what happened and exits 2.
    trials=$((trials + 1))
    local q=$work/query
    mkdir -p "$q"
    "$G" build nim --heaps 6 --max-heap 63 --out "$q" -q >/dev/null || fail "truncation: build"
    cp "$q/nim-6x63.gtab" "$q/ref.gtab"
    python3 - "$G" "$q" <<'EOF' || fail "truncation: see above"
import json, os, random, subprocess, sys
g, q = sys.argv[1], sys.argv[2]
table, ref = os.path.join(q, "nim-6x63.gtab"), os.path.join(q, "ref.gtab")
r = random.Random(13)
lines = [",".join(str(r.randrange(64)) for _ in range(6)) for _ in range(400)]
want = subprocess.run([g, "query", ref, "-", "--json"], input="\n".join(lines) + "\n",
                      capture_output=True, text=True).stdout.splitlines()
p = subprocess.Popen([g, "query", table, "-", "--json"], stdin=subprocess.PIPE,
                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
got = []
for k, line in enumerate(lines):
    if k == 200:
        os.truncate(table, 8192)
    p.stdin.write(line + "\n")
    p.stdin.flush()
    answer = p.stdout.readline()
    if not answer:
        break
    got.append(answer.rstrip("\n"))
try:
    p.stdin.close()
except BrokenPipeError:
    pass
p.wait()
err = p.stderr.read()
wrong = [k for k, a in enumerate(got) if a != want[k]]
print("   truncated under query -: %d answers before, %d after the cut, exit %d, wrong %d; %s"
      % (min(len(got), 200), max(0, len(got) - 200), p.returncode, len(wrong), err.strip()[:90]))
ok = not wrong and p.returncode == 2 and "truncated" in err
sys.exit(0 if ok else 1)
EOF
}

mkdir -p "$work/ref-disk"
"$G" build slide --rows 2 --cols 5 --out "$work/ref-disk" -q >/dev/null
"$G" build slide --rows 5 --cols 2 --out "$work/ref-disk" -q >/dev/null
for s in "${scenarios[@]}"; do
    case $s in
    chomp | slide | build-all | enumerate) run_scenario "$s" ;;
    special) run_special ;;
    *) echo "unknown scenario $s" && exit 2 ;;
    esac
done
echo "fault injection: $trials trials ($interrupted builds killed before they finished, $resumed of them \
resumed from a checkpoint; the others had finished when the signal came), $failures failed checks (load $(cut -d' ' -f1-3 /proc/loadavg))"
[ "$failures" -eq 0 ]
