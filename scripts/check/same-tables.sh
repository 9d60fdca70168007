#!/usr/bin/env bash
# Same tables, byte for byte: builds gamedb of a git revision and of this working tree, builds
# with each the standard catalog (`gamedb build-all`, the catalog each binary carries) and every
# registered game's sample tables (`scripts/programs/write-samples.rs`, every value kind), into
# two folders, and compares every file with `cmp`: one line per table, then a summary. Exits 1
# when any table differs or is missing on one side. For refactors, which must not change a
# byte of any table.
#
# Usage: [OLD_TARGET=DIR] [THREADS=N] scripts/check/same-tables.sh OLD_REV [OUT]
#   OLD_REV     the revision to compare with (main, HEAD~3, a commit)
#   OUT         folder for the two builds' tables (kept); default a temporary folder, removed
#   OLD_TARGET  cargo target folder for the old revision's build (default target/same-tables,
#               kept between runs: the first run builds every dependency, minutes; later runs
#               only the gamedb crate)
#   THREADS     worker threads of the builds (default: all cores; the bytes do not depend on it)
#
# The old revision is taken with `git archive` (no worktree is registered). When it has no
# write-samples program, this checkout's is added to that copy (it calls
# `gamedb::build::write_samples`, which the old library must have).
set -euo pipefail
cd "$(dirname "$0")/../.."

usage="usage: scripts/check/same-tables.sh OLD_REV [OUT]"
rev=${1:?$usage}
commit=$(git rev-parse --verify --quiet "$rev^{commit}") || {
    echo "$rev: not a revision of this repository; $usage" >&2
    exit 2
}
if [[ -n "${2:-}" ]]; then
    OUT=$2
    mkdir -p "$OUT"
else
    OUT=$(mktemp -d "${TMPDIR:-/tmp}/same-tables.XXXXXX")
    trap 'rm -rf "$OUT"' EXIT
fi
OLD_TARGET=${OLD_TARGET:-target/same-tables}
threads=()
[[ -n "${THREADS:-}" ]] && threads=(--threads "$THREADS")

echo "old: $rev (commit ${commit:0:10}); new: this working tree ($(git rev-parse --short HEAD)$(git diff --quiet HEAD -- && echo ', clean' || echo ', with changes'))"

src=$OUT/old-src
rm -rf "$src"
mkdir -p "$src"
git archive "$commit" | tar -x -C "$src"
if ! grep -q '^name = "write-samples"' "$src/Cargo.toml"; then
    mkdir -p "$src/scripts/programs"
    cp scripts/programs/write-samples.rs "$src/scripts/programs/"
    printf '\n[[example]]\nname = "write-samples"\npath = "scripts/programs/write-samples.rs"\n' \
        >>"$src/Cargo.toml"
fi

echo "building the old revision (target folder $OLD_TARGET) ..."
cargo build --release --locked --quiet --manifest-path "$src/Cargo.toml" \
    --target-dir "$OLD_TARGET" --bin gamedb --example write-samples
echo "building the working tree ..."
cargo build --release --locked --quiet --bin gamedb --example write-samples

# Copies: a rebuild while the tables are built does not change which program builds them.
mkdir -p "$OUT/old" "$OUT/new"
cp "$OLD_TARGET/release/gamedb" "$OLD_TARGET/release/examples/write-samples" "$OUT/old/"
cp target/release/gamedb target/release/examples/write-samples "$OUT/new/"

for side in old new; do
    rm -rf "$OUT/$side/catalog" "$OUT/$side/samples"
    echo "$side: building the standard catalog and the samples ..."
    start=$SECONDS
    "$OUT/$side/gamedb" build-all --out "$OUT/$side/catalog" -q "${threads[@]}" >"$OUT/$side/build-all.txt"
    "$OUT/$side/write-samples" "$OUT/$side/samples" >/dev/null
    echo "$side: done in $((SECONDS - start)) s"
done

same=0
differ=0
missing=0
for folder in catalog samples; do
    names=$( (cd "$OUT/old/$folder" && ls) ; (cd "$OUT/new/$folder" && ls) )
    for name in $(sort -u <<<"$names"); do
        old=$OUT/old/$folder/$name
        new=$OUT/new/$folder/$name
        if [[ ! -f "$old" || ! -f "$new" ]]; then
            side=$([[ -f "$old" ]] && echo new || echo old)
            printf '%-50s MISSING from the %s build\n' "$folder/$name" "$side"
            missing=$((missing + 1))
        elif cmp -s "$old" "$new"; then
            printf '%-50s identical\n' "$folder/$name"
            same=$((same + 1))
        else
            printf '%-50s DIFFERENT (%s)\n' "$folder/$name" "$(cmp "$old" "$new" 2>&1 | head -1)"
            differ=$((differ + 1))
        fi
    done
done
total=$((same + differ + missing))
echo "$total tables: $same identical, $differ different, $missing missing on one side"
[[ $total -gt 0 && $same -eq $total ]]
