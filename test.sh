#!/usr/bin/env bash
# Set everything up (first run only) and run the test suite. Arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")"
# PortAudio for sounddevice, a compiler for the Pico voice, PulseAudio for the virtual microphone and speaker test,
# Chromium and its driver for the memory page's browser tests.
scripts/system-packages.sh libportaudio2 gcc python3-dev pulseaudio pulseaudio-utils chromium chromium-driver
scripts/setup.sh test
exec .venv/bin/python -m pytest "$@"
