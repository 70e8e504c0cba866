#!/usr/bin/env bash
# CI: build the image from the Dockerfile with podman and run tests/container against it (the
# container migrates, posts to the fake Slack, answers /healthz, stops on SIGTERM, keeps its
# data on the volume, runs as non-root). Where this machine cannot run containers it says
# plainly why and skips; a build or a test that fails is a failure.
#
#   PAPERCLUB_CONTAINER=0        skip it
#   PAPERCLUB_BASE_IMAGE=IMAGE   build on this base instead of finding one
set -euo pipefail
cd "$(dirname "$0")/.."

IMAGE=localhost/paperclub:ci
SLIM=docker.io/library/python:3.12-slim
BASE=localhost/paperclub-base:bookworm
# The base's own packages; the version of Debian whose python3 is 3.11, as the project needs.
SUITE=bookworm
PACKAGES=python3,python3-venv,ca-certificates
MIRROR=http://deb.debian.org/debian
# podman's settings live in the checkout; /etc/containers is left as the machine has it.
export CONTAINERS_CONF="$PWD/.ci/containers.conf"

skip() {
  echo "container test: SKIPPED: $*"
  exit 0
}

seconds() {
  echo "$((SECONDS - $1))"
}

if [ "${PAPERCLUB_CONTAINER:-1}" = 0 ]; then
  skip "PAPERCLUB_CONTAINER=0"
fi

# A fresh CI machine has no podman; as root with apt (as CI is), install it. The package lists
# are fetched once a run.
apt_updated=
apt_install() {
  if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
    return 1
  fi
  if [ -z "$apt_updated" ]; then
    apt-get update -qq && apt_updated=1
  fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}

started=$SECONDS
if ! command -v podman >/dev/null 2>&1 || ! command -v runc >/dev/null 2>&1; then
  echo "container test: installing podman and runc"
  apt_install podman runc || skip "podman and runc are not installed, and apt-get cannot install them here (not root, or no apt)"
fi
if ! problem=$(podman info 2>&1 >/dev/null); then
  skip "podman info fails here (with .ci/containers.conf): ${problem##*$'\n'}"
fi
# A container left by a test run that was killed would hold its volume; clear them first
# (quietly: without systemd, podman logs an error for each healthcheck timer it has none of).
podman ps -aq --filter label=org.paperclub.test | xargs -r podman rm -f -t 0 >/dev/null 2>&1
podman volume ls -q --filter label=org.paperclub.test | xargs -r podman volume rm -f >/dev/null 2>&1
setup=$(seconds "$started")

# The base: a given one, else the registry's slim Python image, else one bootstrapped here from
# Debian's packages (no container registry is reachable from CI's machines; Debian's mirror is).
started=$SECONDS
bootstrap() {
  # The image is reused while its recipe and the ISO week are the same: a rebuild a week picks
  # up Debian's security updates, and a CI run on a machine that kept it spends nothing on it.
  local recipe key tarball log
  recipe="$SUITE $PACKAGES $MIRROR $(declare -f mmdebstrap_args)"
  key=$(printf '%s %s' "$recipe" "$(date -u +%G-W%V)" | sha256sum | cut -c1-16)
  if [ "$(podman image inspect --format '{{index .Config.Labels "org.paperclub.base-key"}}' "$BASE" 2>/dev/null)" = "$key" ]; then
    echo "container test: base image $BASE (bootstrapped before, reused)"
    return 0
  fi
  if ! command -v mmdebstrap >/dev/null 2>&1; then
    echo "container test: installing mmdebstrap"
    apt_install mmdebstrap || skip "the registry's $SLIM cannot be pulled, and mmdebstrap is not installed and cannot be installed here"
  fi
  echo "container test: bootstrapping $BASE from Debian $SUITE ($PACKAGES)"
  tarball=$(mktemp --suffix=.tar)
  log=$(mktemp --suffix=.log)
  # shellcheck disable=SC2064 # the paths are fixed now, on purpose
  trap "rm -f '$tarball' '$log'" EXIT
  # Its apt and dpkg chatter only when it fails.
  if ! mmdebstrap_args "$tarball" >"$log" 2>&1; then
    tail -n 40 "$log"
    echo "container test: FAILED: mmdebstrap could not bootstrap $BASE (its log's end is above)"
    exit 1
  fi
  podman import --quiet \
    --change 'ENV=PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    --change 'ENV=LANG=C.UTF-8' \
    --change 'CMD=["/bin/bash"]' \
    --change "LABEL=org.paperclub.base-key=$key" \
    "$tarball" "$BASE" >/dev/null
  rm -f "$tarball" "$log"
  trap - EXIT
}

mmdebstrap_args() {
  # minbase and no Recommends: what python3 needs, and apt. The merged-/usr hook makes /bin
  # and the others links as Debian's own bootstrap does, so usrmerge (and perl, which it pulls
  # in: 40 MB) is not installed to convert them. No manuals, translations or docs but the
  # licences, as the registry's slim images do. The updates and security suites keep it patched.
  mmdebstrap --quiet --variant=minbase --include="$PACKAGES" \
    --hook-dir=/usr/share/mmdebstrap/hooks/merged-usr \
    --aptopt='APT::Install-Recommends "false"' \
    --dpkgopt='path-exclude=/usr/share/man/*' \
    --dpkgopt='path-exclude=/usr/share/locale/*' \
    --dpkgopt='path-include=/usr/share/locale/locale.alias' \
    --dpkgopt='path-exclude=/usr/share/doc/*' \
    --dpkgopt='path-include=/usr/share/doc/*/copyright' \
    --dpkgopt='path-exclude=/usr/share/info/*' \
    --format=tar "$SUITE" "$1" \
    "deb $MIRROR $SUITE main" \
    "deb $MIRROR $SUITE-updates main" \
    "deb $MIRROR-security $SUITE-security main"
}

if [ -n "${PAPERCLUB_BASE_IMAGE:-}" ]; then
  base=$PAPERCLUB_BASE_IMAGE
elif podman image exists "$SLIM" || timeout 120 podman pull --quiet "$SLIM" >/dev/null 2>&1; then
  base=$SLIM
else
  echo "container test: $SLIM cannot be pulled here; a base from Debian's packages stands in"
  bootstrap
  base=$BASE
fi
base_seconds=$(seconds "$started")
# `podman info` can pass where starting a container fails (a runtime that cannot set up its
# sandbox here): try one before building.
if ! problem=$(podman run --rm --network none "$base" true 2>&1); then
  skip "podman cannot start a container here: ${problem##*$'\n'}"
fi

# The build: the host's network, for PyPI; the host's CA bundle as a build secret, for a
# machine whose outgoing TLS a proxy re-signs (it is in no layer of the image).
started=$SECONDS
build=(podman build --runtime runc --network host --format docker --quiet
  --build-arg BASE_IMAGE="$base" --tag "$IMAGE")
# --format docker: the OCI format has no HEALTHCHECK, and podman would drop the Dockerfile's.
for bundle in /etc/ssl/certs/ca-certificates.crt /etc/pki/tls/certs/ca-bundle.crt; do
  if [ -f "$bundle" ]; then
    build+=(--secret "id=ca-bundle,src=$bundle")
    break
  fi
done
echo "container test: building $IMAGE on $base"
"${build[@]}" . >/dev/null

echo "container test: setup ${setup}s, base image ${base_seconds}s, build $(seconds "$started")s"

# pytest's closing line is the last word (it says how long the test took).
PAPERCLUB_CONTAINER_IMAGE=$IMAGE .venv/bin/pytest tests/container -p no:cacheprovider
