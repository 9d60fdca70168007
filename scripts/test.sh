#!/usr/bin/env bash
# The test command: sets itself up on a fresh Debian machine, then runs the full test suite.
#
#   scripts/test.sh [ARGS...]      # ARGS go to `cargo test` (a test name, --test cli, ...)
#   scripts/test.sh --setup        # only install what is missing
#
# What it needs beyond Rust and a C compiler, and installs when missing (it says so first):
#   * Open MPI and libclang (the `mpi` feature: `gamedb enumerate` across processes), chromium
#     and chromium-driver (the explorer's browser test), python3-venv where Debian splits it
#     off: Debian packages, one `apt-get update`, then `apt-get install` (as root, or through
#     sudo);
#   * maturin, numpy and pandas for the Python package's tests (tests/python_package.rs, which
#     also makes a fresh venv of its own under target/python-package and installs the package
#     there from the repository, as README says): into a virtual environment under
#     target/test-venv, never into the user's Python.
# Tests that need one of these fail, never skip, when it is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

say() { printf '== %s\n' "$*" >&2; }

# ---- Debian packages ----------------------------------------------------------------------
need_debs=()
have_deb() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
if command -v dpkg-query >/dev/null 2>&1; then
    for p in openmpi-bin libopenmpi-dev libclang-dev chromium chromium-driver; do
        have_deb "$p" || need_debs+=("$p")
    done
    # Debian's own python3 makes virtual environments only with python3-venv.
    if ! python3 -c 'import ensurepip, venv' >/dev/null 2>&1; then
        need_debs+=(python3-venv)
    fi
fi
if [ ${#need_debs[@]} -gt 0 ]; then
    say "installing Debian packages: ${need_debs[*]} (Open MPI and libclang: the mpi feature; chromium: the browser test; python3-venv, where listed: the Python tests' venv)"
    sudo=()
    if [ "$(id -u)" -ne 0 ]; then
        command -v sudo >/dev/null 2>&1 || { echo "scripts/test.sh: not root and no sudo; install as root: apt-get install ${need_debs[*]}" >&2; exit 2; }
        sudo=(sudo)
    fi
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need_debs[@]}" >/dev/null
elif ! command -v dpkg-query >/dev/null 2>&1; then
    say "not a Debian machine: install Open MPI (mpirun, mpi.h), libclang, chromium and chromedriver yourself"
fi

# ---- Python packages, in a virtual environment under target/ --------------------------------
venv=target/test-venv
py_packages=(maturin numpy pandas)
if ! "$venv/bin/python" -c 'import maturin, numpy, pandas' >/dev/null 2>&1; then
    say "installing Python packages into $venv: ${py_packages[*]} (the Python package's tests)"
    mkdir -p target
    python3 -m venv "$venv"
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "${py_packages[@]}"
fi
PYTHON="$(pwd)/$venv/bin/python"
# PyO3 (the `python` feature, linted by .ci/run) builds against this Python.
PYO3_PYTHON=$PYTHON
export PYTHON PYO3_PYTHON

[ "${1:-}" = --setup ] && exit 0

# ---- the suite ------------------------------------------------------------------------------
say "cargo test --release --features mpi $*"
exec cargo test --release --features mpi "$@"
