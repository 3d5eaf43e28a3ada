"""Text to speech: the interface (base.py), one file per backend, chosen by `voice.tts.engine`;
sentence chunking for streaming (chunker.py)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from .base import Synthesizer, TTSError
from .chunker import SentenceChunker

if TYPE_CHECKING:
    from ..config import TTSConfig

ENGINES = ("piper",)


def make_synthesizer(config: "TTSConfig") -> Synthesizer:
    """The voice `voice.tts` describes (its backend imported only now)."""
    if config.engine == "piper":
        from .piper import PiperSynthesizer
        return PiperSynthesizer(config.model, config.config, config.length_scale)
    raise TTSError(f"unknown voice.tts.engine {config.engine!r}; use one of {', '.join(ENGINES)}")


def __getattr__(name: str):
    if name == "PiperSynthesizer":
        from .piper import PiperSynthesizer
        return PiperSynthesizer
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["ENGINES", "PiperSynthesizer", "SentenceChunker", "Synthesizer", "TTSError", "make_synthesizer"]
