#!/bin/sh
# The image's entrypoint (after tini): `podman run <image> keys create --json` runs the CLI with
# those arguments; a program (`node …`, the default CMD; `sh` to look around) runs as given.
# `exec` leaves no shell behind: tini's child is the program itself.
set -e
case "$1" in
  node | snapgraph | sh | bash | /*) exec "$@" ;;
  *) exec node /app/packages/server/bin/snapgraph.js "$@" ;;
esac
