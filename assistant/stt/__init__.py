"""Speech to text: the interface (base.py), one file per backend, chosen by `voice.stt.engine`."""
from __future__ import annotations

from typing import TYPE_CHECKING

from .base import STTError, Transcriber

if TYPE_CHECKING:
    from ..config import STTConfig

ENGINES = ("whisper",)


def make_transcriber(config: "STTConfig") -> Transcriber:
    """The recogniser `voice.stt` describes (its backend imported only now)."""
    if config.engine == "whisper":
        from .whisper import WhisperTranscriber
        return WhisperTranscriber(config.model, config.device, config.compute_type, config.beam_size)
    raise STTError(f"unknown voice.stt.engine {config.engine!r}; use one of {', '.join(ENGINES)}")


def __getattr__(name: str):
    if name in ("WhisperTranscriber", "bundled_model_path"):
        from . import whisper
        return getattr(whisper, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["ENGINES", "STTError", "Transcriber", "WhisperTranscriber", "make_transcriber"]
