# Sourced by the container scripts: podman as it runs on this machine and in CI (issue 51).
# No Docker Hub here, and no systemd cgroups or ulimit defaults in the CI sandbox, so every call
# goes through `pm`: cgroupfs, Debian's runc, and a containers.conf without default ulimits.
# Builds and runs use the host's network (`--network=host`): the Debian archive apt already uses
# is reachable from the host only.

SNAPGRAPH_CONTAINERS_CONF="${SNAPGRAPH_CONTAINERS_CONF:-$(mktemp -t snapgraph-containers-XXXXXX.conf)}"
printf '[containers]\ndefault_ulimits = []\n' >"$SNAPGRAPH_CONTAINERS_CONF"
export SNAPGRAPH_CONTAINERS_CONF

# Without systemd, podman says on every run, stop and restart that it cannot schedule the
# HEALTHCHECK's timer; the test runs the check itself (`podman healthcheck run`), so those lines
# are left out.
pm() {
  CONTAINERS_CONF="$SNAPGRAPH_CONTAINERS_CONF" podman --cgroup-manager=cgroupfs --runtime runc "$@" \
    2> >(grep -v 'unable to get systemd connection' >&2)
}

# The Debian mirror apt on this machine uses (deb822 or one-line sources), for debootstrap and
# for apt inside the images; Debian's own when none is configured.
debian_mirror() {
  local uri
  uri=$(grep -hsE '^URIs:' /etc/apt/sources.list.d/*.sources | grep -v -- '-security' | head -n 1 | awk '{print $2}')
  [ -n "$uri" ] || uri=$(grep -hsE '^deb ' /etc/apt/sources.list | grep -v -- '-security' | head -n 1 | awk '{print $2}')
  echo "${uri:-http://deb.debian.org/debian}"
}
