#!/usr/bin/env bash
# Usage: scripts/with_server.sh COMMAND [ARG…]
# Serves the shipped data with gunicorn and gunicorn.conf.py on a free 127.0.0.1 port with a fresh
# random key, runs COMMAND with BASE_URL and API_KEY exported, then stops the server (always).
# The rate feeds are off unless ECB_RATES_URL or FRANKFURTER_URL say otherwise: no check reaches the internet.
# Rate limits are off unless RATE_LIMITS says otherwise: a check sends thousands of requests from one address.
# The drain on TERM is off unless DRAIN_SECONDS says otherwise: the server stops as soon as the check is done.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${BIN:-.venv/bin}
API_KEY=$("$BIN/python" -c 'import secrets; print(secrets.token_urlsafe(24))')
PORT=$("$BIN/python" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
BASE_URL="http://127.0.0.1:$PORT"
LOG=$(mktemp)
DRAIN_SECONDS=${DRAIN_SECONDS:-0} ECB_RATES_URL=${ECB_RATES_URL:-off} FRANKFURTER_URL=${FRANKFURTER_URL:-off} RATE_LIMITS=${RATE_LIMITS:-off} API_KEYS=$API_KEY WEB_CONCURRENCY=${WEB_CONCURRENCY:-2} "$BIN/gunicorn" -c gunicorn.conf.py --bind "127.0.0.1:$PORT" wsgi:app >"$LOG" 2>&1 &
SERVER=$!
trap 'kill "$SERVER" 2>/dev/null; wait "$SERVER" 2>/dev/null; rm -f "$LOG"' EXIT
for _ in $(seq 100); do
  curl -fs -o /dev/null "$BASE_URL/api/poc/health" && break
  kill -0 "$SERVER" 2>/dev/null || { echo "gunicorn did not start:"; cat "$LOG"; exit 1; }
  sleep 0.1
done
export BASE_URL API_KEY
"$@"
