#!/usr/bin/env bash
# The project's tests: the crate's (cargo), then the Python package's (pytest). What they need
# beyond cargo is installed here when missing, so this works on a fresh machine:
# - Debian's chromium and chromium-driver for the GUI's browser test (as root, or through sudo);
# - a virtual environment in target/python-venv with maturin, pytest and mypy from PyPI;
# - cargo-fuzz, for a short fuzz of each parser (scripts/fuzz.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -x /usr/bin/chromium ] || [ ! -x /usr/bin/chromedriver ]; then
    echo "Installing chromium and chromium-driver for the GUI's browser test..."
    as_root=()
    [ "$(id -u)" -eq 0 ] || as_root=(sudo)
    "${as_root[@]}" apt-get update -qq
    DEBIAN_FRONTEND=noninteractive "${as_root[@]}" apt-get install -y -qq chromium chromium-driver >/dev/null
fi
cargo test --release --all-features "$@"

# The Python package, built against the binaries the tests above built (its tests drive them).
venv=target/python-venv
if [ ! -x "$venv/bin/maturin" ] || [ ! -x "$venv/bin/pytest" ] || [ ! -x "$venv/bin/mypy" ]; then
    echo "Creating $venv with maturin, pytest and mypy for the Python package's tests..."
    python=$(command -v python3.11 || command -v python3)
    [ -x "$venv/bin/python" ] || "$python" -m venv "$venv"
    "$venv/bin/pip" install -q "maturin>=1.7,<2" "pytest>=7" "mypy>=1.10"
fi
(cd python && VIRTUAL_ENV="$PWD/../$venv" PATH="$PWD/../$venv/bin:$PATH" maturin develop --release -q)
"$venv/bin/python" -m pytest -q python/tests

# A short coverage-guided fuzz of each parser (installs cargo-fuzz when missing).
bash scripts/fuzz.sh 10
