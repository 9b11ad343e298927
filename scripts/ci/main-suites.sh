#!/usr/bin/env bash
# CI's main steps after `npm ci` (.ci/run starts them with scripts/ci/beside-suites.sh):
#
#  1. `npm run lint` and, beside it, the benchmark smoke run: compare-builds (this build against
#     itself) starts servers, drives them with the load generator and reads their CPU, which is
#     what the benchmarks share, so it keeps bench/ from rotting (no thresholds here). Both need
#     only the build that npm ci's `prepare` made. The whole `npm run bench -- --quick` is left
#     to whoever changes bench/.
#  2. `npm test`, the README's test command: every package's suite, the server's on SQLite and
#     PostgreSQL side by side (scripts/test-all.mjs).
set -euo pipefail
cd "$(dirname "$0")/../.."
started=$(date +%s)

echo "== npm run lint, beside node bench/compare-builds.mjs --quick (this build against itself)"
smoke_log=$(mktemp)
node bench/compare-builds.mjs --other . --backend sqlite --quick >"$smoke_log" 2>&1 &
smoke_pid=$!
npm run lint
if wait "$smoke_pid"; then
  tail -n 20 "$smoke_log"
else
  cat "$smoke_log"
  echo "the benchmark smoke run failed" >&2
  exit 1
fi
echo "== (lint and the benchmark smoke run took $(($(date +%s) - started)) s)"

echo "== npm test"
npm test
