#!/usr/bin/env bash
# The project's tests. The GUI's browser test needs Debian's chromium and chromium-driver:
# installed here when missing (as root, or through sudo), so this works on a fresh machine.
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
