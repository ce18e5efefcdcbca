#!/usr/bin/env bash
# The reader in the browser, timed in Chromium (bench/reader/run.py). Not a test.
set -euo pipefail
cd "$(dirname "$0")/../.."
scripts/install-deps.sh chromium chromium-driver python3-selenium
swift build -c release >/dev/null
SHELF_BUILD_DIR="$PWD/.build/release" /usr/bin/python3 bench/reader/run.py "$@"
