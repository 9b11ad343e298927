#!/usr/bin/env bash
# Runs the given command (CI's main steps, scripts/ci/main-suites.sh) with the suites that need
# no part of it beside it, in the background: the Node LTS lines (scripts/ci/node-lines.sh) and
# the container image (scripts/container-test.sh). They run at a lower priority (nice), so the
# main suite, whose tests watch the clock more, keeps the cores it wants; they use what it
# leaves. Each one's output is printed whole when everything has finished; the exit code is 1 if
# any failed.
#
#   scripts/ci/beside-suites.sh bash scripts/ci/main-suites.sh
set -uo pipefail
cd "$(dirname "$0")/../.."
logs="$(mktemp -d -t snapgraph-beside-XXXXXX)"
started=$(date +%s)

declare -A pids
nice -n 10 bash scripts/ci/node-lines.sh >"$logs/node-lines.log" 2>&1 &
pids[node-lines]=$!
nice -n 10 bash scripts/container-test.sh >"$logs/container-test.log" 2>&1 &
pids[container-test]=$!

"$@"
main=$?
echo "== $* exited $main after $(($(date +%s) - started)) s; waiting for: ${!pids[*]}"

failed=0
for name in node-lines container-test; do
  if wait "${pids[$name]}"; then verdict=passed; else verdict=FAILED; failed=1; fi
  echo
  echo "=== $name: $verdict (all done after $(($(date +%s) - started)) s) ==="
  cat "$logs/$name.log"
done
rm -rf "$logs"
[ "$main" -eq 0 ] && [ "$failed" -eq 0 ]
