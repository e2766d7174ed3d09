#!/usr/bin/env bash
# Usage: BASE_URL=… scripts/docs_screenshot.sh [OUT.png]  (make docs-screenshot starts a server)
# Renders /api/docs in headless Chromium (Debian's `chromium` package) and saves a screenshot.
set -euo pipefail
OUT=${1:-docs-screenshot.png}
PROFILE=$(mktemp -d)
trap 'rm -rf "$PROFILE"' EXIT
chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
  --disable-background-networking --disable-component-update --disable-sync \
  --user-data-dir="$PROFILE" --virtual-time-budget=15000 --window-size=1280,1400 \
  --screenshot="$OUT" "${BASE_URL:?set BASE_URL}/api/docs" 2>/dev/null
echo "wrote $OUT"
