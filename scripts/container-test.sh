#!/usr/bin/env bash
# The container image tested as an operator would use it (design §16.5, issue 51), with podman
# (Docker Hub is not reachable here: the Node base image is made locally, cached by a key):
#
#  1. compose.yaml is valid, alone and with the `scale` profile;
#  2. the image builds; it runs as `node` under tini, with no npm in the process tree;
#  3. on SQLite in a volume: /healthz and the image's own HEALTHCHECK pass, the explorer is
#     served, a key made by `podman run … keys create` in the same volume works, a snapshot is
#     made and found, `snapgraph backup` copies the database, and after a restart the snapshot
#     is still there;
#  4. as the `scale` profile runs it: a one-shot `migrate` against a fresh database on this
#     machine's PostgreSQL, then two instances with MIGRATE_ON_START=false sharing it and the
#     machine's Redis; what one writes, the other reads.
#
# Every container, volume and database it makes is removed at the end, failed or not.
#   scripts/container-test.sh            (root, podman, runc, debootstrap, docker-compose)
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/container/podman.sh
. scripts/container/podman.sh

run_id="snapgraph-ct-$$"
image="localhost/snapgraph:ci"
volume="$run_id-data"
pg_database="snapgraph_ct_$$"
pg_admin="${SNAPGRAPH_TEST_POSTGRES_URL:-postgres://postgres@127.0.0.1:5432/postgres}"
containers=()
started=$(date +%s)

step() { echo "== [$(($(date +%s) - started)) s] $*"; }
fail() {
  echo "container test FAILED: $*" >&2
  for name in "${containers[@]}"; do
    echo "---- logs of $name" >&2
    pm logs --tail 40 "$name" >&2 2>&1 || true
  done
  exit 1
}
cleanup() {
  for name in "${containers[@]}"; do pm rm -f -v -t 5 "$name" >/dev/null 2>&1 || true; done
  pm volume rm -f "$volume" >/dev/null 2>&1 || true
  psql -q "$pg_admin" -c "DROP DATABASE IF EXISTS $pg_database WITH (FORCE)" >/dev/null 2>&1 || true
  rm -f "$SNAPGRAPH_CONTAINERS_CONF"
}
trap cleanup EXIT

free_port() { node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"; }

# Waits until the URL answers 200 (or the container has stopped, or 90 s have passed).
wait_healthy() {
  local name=$1 url=$2
  for _ in $(seq 1 180); do
    curl -fsS -o /dev/null "$url" 2>/dev/null && return 0
    [ "$(pm inspect --format '{{.State.Running}}' "$name" 2>/dev/null)" = "true" ] || fail "$name stopped before $url answered"
    sleep 0.5
  done
  fail "$url did not answer 200 within 90 s"
}

# `serve` in the background on the host's network, on its own port; extra arguments are podman's.
start_server() {
  local name=$1 port=$2
  shift 2
  containers+=("$name")
  pm run -d --name "$name" --network=host -e PORT="$port" -e LOG_LEVEL=warn "$@" "$image" >/dev/null ||
    fail "podman run $name"
}

# A one-off CLI command in the image (what `podman run --rm … snapgraph <args>` does).
cli() { pm run --rm --network=host "$@"; }

json_field() { node -e "let s='';process.stdin.on('data',d=>s+=d).on('end',()=>{const v=JSON.parse(s)$1;if(v===undefined)process.exit(1);console.log(v)})"; }

step "compose.yaml: docker-compose config, alone and with --profile scale"
# Debian's docker-compose (1.29: profiles, `depends_on` conditions) validates; podman-compose
# 1.0 in Debian has no `config` and knows neither.
if ! command -v docker-compose >/dev/null 2>&1; then
  (apt-get update -qq && apt-get install -y -qq --no-install-recommends docker-compose) >/dev/null 2>&1 ||
    fail "docker-compose is not installed and apt-get could not install it"
fi
docker-compose -f compose.yaml config -q || fail "compose.yaml is not valid"
docker-compose -f compose.yaml --env-file .env.example --profile scale config -q || fail "compose.yaml (scale) is not valid"
[ "$(docker-compose -f compose.yaml --env-file .env.example --profile scale config | grep -c 'condition: service_healthy')" -ge 6 ] ||
  fail "compose.yaml: every dependency waits for a healthy service"

step "base image node:22-bookworm-slim (made locally, cached)"
bash scripts/container/node-base-image.sh 22 || fail "making the base image"

step "podman build"
# The images of an earlier run (untagged once a new build replaces them: its build stage, its
# image) go first: one of each is kept at most.
pm image prune -f --filter label=org.snapgraph.stage=build >/dev/null
pm image prune -f --filter label=org.opencontainers.image.title=Snapgraph >/dev/null
# The machine's CA bundle goes in as a build secret, for npm behind a TLS-intercepting proxy.
ca_bundle="${NODE_EXTRA_CA_CERTS:-/etc/ssl/certs/ca-certificates.crt}"
ca_secret=()
[ -s "$ca_bundle" ] && ca_secret=(--secret "id=ca-certificates,src=$ca_bundle")
# The dependencies stage is tagged, so that its layers (npm ci and the native build) outlive the
# prune above and the next run reuses them while the manifests and the lockfile are unchanged.
pm build --format docker --network=host --pull=never --target deps -t "$image-deps" "${ca_secret[@]}" \
  . >"/tmp/$run_id-build.log" 2>&1 || {
  tail -n 60 "/tmp/$run_id-build.log" >&2
  fail "podman build --target deps (log above)"
}
pm build --format docker --network=host --pull=never -t "$image" "${ca_secret[@]}" \
  --build-arg REVISION="$(git rev-parse HEAD 2>/dev/null || echo unknown)" . >"/tmp/$run_id-build.log" 2>&1 || {
  tail -n 60 "/tmp/$run_id-build.log" >&2
  fail "podman build (log above)"
}
rm -f "/tmp/$run_id-build.log"
[ "$(pm image inspect --format '{{.Config.User}}' "$image")" = "node" ] || fail "the image runs as root"
pm image inspect --format '{{json .Config.Healthcheck}}' "$image" | grep -q healthz || fail "the image has no HEALTHCHECK"

step "SQLite in a volume: start, /healthz, HEALTHCHECK, explorer"
port=$(free_port)
base="http://127.0.0.1:$port"
pm volume create "$volume" >/dev/null
start_server "$run_id-sqlite" "$port" -v "$volume:/data"
wait_healthy "$run_id-sqlite" "$base/healthz"
pm healthcheck run "$run_id-sqlite" >/dev/null || fail "the image's HEALTHCHECK did not pass"
curl -fsS "$base/" | grep -qi '<!doctype html' || fail "the explorer is not served at /"
[ "$(pm exec "$run_id-sqlite" cat /proc/1/comm)" = "tini" ] || fail "PID 1 is not tini"
[ "$(pm exec "$run_id-sqlite" id -u)" = "1000" ] || fail "the server does not run as uid 1000"
pm exec "$run_id-sqlite" sh -c 'cat /proc/[0-9]*/cmdline | tr "\0" " "' | grep -q npm && fail "npm is in the process tree"

step "keys create in the same volume, a snapshot made and found"
key_json=$(cli -v "$volume:/data" "$image" keys create --json) || fail "keys create"
key=$(echo "$key_json" | json_field .key)
auth=(-H "authorization: Bearer $key" -H 'content-type: application/json')
snapshot_id=$(curl -fsS "${auth[@]}" -d '{"name":"Container proof","core":"Podman ran the Snapgraph image with a volume"}' \
  "$base/v1/snapshots" | json_field .data.id) || fail "POST /v1/snapshots"
search() { curl -fsS "${auth[@]}" "$1/v1/snapshots/search?q=podman+volume" | json_field ".data.map(r=>r.snapshot?.id??r.id).join(' ')"; }
search "$base" | grep -q "$snapshot_id" || fail "search did not find the snapshot"

step "snapgraph backup inside the running container"
pm exec "$run_id-sqlite" snapgraph backup /data/backup.db >/dev/null || fail "snapgraph backup"
pm exec "$run_id-sqlite" snapgraph backup /data/backup.db >/dev/null 2>&1 && fail "backup replaced a file without --force"

step "restart: the snapshot is still there"
pm restart -t 20 "$run_id-sqlite" >/dev/null || fail "podman restart"
wait_healthy "$run_id-sqlite" "$base/healthz"
curl -fsS "${auth[@]}" "$base/v1/snapshots/$snapshot_id" | grep -q '"Container proof"' || fail "the snapshot is gone after a restart"
search "$base" | grep -q "$snapshot_id" || fail "search did not find the snapshot after a restart"
pm stop -t 20 "$run_id-sqlite" >/dev/null
[ "$(pm inspect --format '{{.State.ExitCode}}' "$run_id-sqlite")" = "0" ] || fail "the server did not exit 0 on SIGTERM"

step "as the scale profile: migrate once, two instances on PostgreSQL and Redis"
pg_url="${pg_admin%/*}/$pg_database"
psql -q "$pg_admin" -c "CREATE DATABASE $pg_database" || fail "creating the database $pg_database"
cli -e DATABASE_URL="$pg_url" "$image" migrate | grep -q 'Applied' || fail "the one-shot migrate"
port_a=$(free_port)
port_b=$(free_port)
scaled=(-e DATABASE_URL="$pg_url" -e REDIS_URL=redis://127.0.0.1:6379 -e MIGRATE_ON_START=false)
start_server "$run_id-api-1" "$port_a" "${scaled[@]}"
start_server "$run_id-api-2" "$port_b" "${scaled[@]}"
wait_healthy "$run_id-api-1" "http://127.0.0.1:$port_a/readyz"
wait_healthy "$run_id-api-2" "http://127.0.0.1:$port_b/readyz"
key=$(cli -e DATABASE_URL="$pg_url" "$image" keys create --json | json_field .key) || fail "keys create on PostgreSQL"
auth=(-H "authorization: Bearer $key" -H 'content-type: application/json')
snapshot_id=$(curl -fsS "${auth[@]}" -d '{"name":"Scaled proof","core":"Podman ran two instances on one PostgreSQL"}' \
  "http://127.0.0.1:$port_a/v1/snapshots" | json_field .data.id) || fail "POST /v1/snapshots on instance 1"
curl -fsS "${auth[@]}" "http://127.0.0.1:$port_b/v1/snapshots/$snapshot_id" | grep -q '"Scaled proof"' ||
  fail "instance 2 does not see what instance 1 wrote"
search "http://127.0.0.1:$port_b" | grep -q "$snapshot_id" || fail "search on instance 2 did not find the snapshot"

step "container test passed in $(($(date +%s) - started)) s"
