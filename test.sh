#!/usr/bin/env bash
# Set everything up (first run only) and run the test suite. Arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")"
scripts/setup.sh test
exec .venv/bin/python -m pytest "$@"
