#!/usr/bin/env bash
# Set everything up (first run only) and start the assistant. Arguments go to `glados`.
set -euo pipefail
cd "$(dirname "$0")"
scripts/system-packages.sh libportaudio2 gcc python3-dev
scripts/setup.sh
exec .venv/bin/glados "$@"
