#!/usr/bin/env bash
# Install the Debian/Ubuntu packages the assistant (and its audio tests) need, when missing.
# Usage: scripts/system-packages.sh PACKAGE...   Never fails the setup: says what to do instead.
set -uo pipefail
missing=()
for pkg in "$@"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done
[ ${#missing[@]} -eq 0 ] && exit 0
if ! command -v apt-get >/dev/null 2>&1; then
    echo "setup: not a Debian/Ubuntu system; install these yourself if audio fails: ${missing[*]}" >&2
    exit 0
fi
if [ "$(id -u)" -eq 0 ]; then sudo=""; elif sudo -n true 2>/dev/null; then sudo="sudo -n"; else
    echo "setup: missing system packages: ${missing[*]}; run: sudo apt-get install ${missing[*]}" >&2
    exit 0
fi
echo "setup: installing ${missing[*]} (apt-get)..."
$sudo apt-get update -qq >/dev/null 2>&1 || true
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null 2>&1 \
    || echo "setup: apt-get could not install ${missing[*]}; audio devices may not work" >&2
