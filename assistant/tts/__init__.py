"""Text to speech: the interface (base.py), one file per backend, chosen by `voice.tts.engine`;
sentence chunking for streaming (chunker.py)."""
from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Callable

from ..events import Speech
from .base import Synthesizer, TTSError, TTSMissing
from .chunker import SentenceChunker
from .effect import EFFECTS, SLOWER

if TYPE_CHECKING:
    from ..config import TTSConfig

ENGINES = ("pico", "kokoro", "piper")


class Coloured(Synthesizer):
    """Any voice with an effect applied to each sentence it says."""

    def __init__(self, voice: Synthesizer, effect: Callable[[Speech], Speech]):
        self.voice, self.effect, self.rate = voice, effect, voice.rate

    def synthesize(self, text: str) -> Speech:
        return self.effect(self.voice.synthesize(text))


def _engine(config: "TTSConfig", speed: float) -> Synthesizer:
    if config.engine == "piper":
        from .piper import PiperSynthesizer
        scale = config.length_scale
        return PiperSynthesizer(config.model, config.config, None if scale is None and speed == 1 else (scale or 1.0) / speed)
    if config.engine == "kokoro":
        from .kokoro import KokoroSynthesizer
        return KokoroSynthesizer(config.voice, speed)
    if config.engine == "pico":
        from .pico import PicoSynthesizer
        return PicoSynthesizer(speed=speed)
    raise TTSError(f"unknown voice.tts.engine {config.engine!r}; use one of {', '.join(ENGINES)}")


def make_synthesizer(config: "TTSConfig", notice: Callable[[str], None] = lambda line: None) -> Synthesizer:
    """The voice `voice.tts` describes (its backend imported only now), wearing `voice.tts.effect`. An engine
    whose files are not installed here gives way to the bundled Piper voice, said once through `notice`."""
    if config.effect not in EFFECTS:
        raise TTSError(f"unknown voice.tts.effect {config.effect!r}; use one of {', '.join(EFFECTS)}")
    effect = EFFECTS[config.effect]
    speed = 1 / SLOWER if effect is not None else 1.0     # the effect raises the pitch by speeding up
    try:
        voice = _engine(config, speed)
    except TTSMissing as exc:
        if config.engine == "piper":
            raise
        notice(f"{exc}; speaking with the bundled voice (joe) instead")
        voice = _engine(replace(config, engine="piper", model="bundled", config=None), speed)
    return Coloured(voice, effect) if effect is not None else voice


def __getattr__(name: str):
    if name == "PiperSynthesizer":
        from .piper import PiperSynthesizer
        return PiperSynthesizer
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["Coloured", "ENGINES", "PiperSynthesizer", "SentenceChunker", "Synthesizer", "TTSError", "TTSMissing",
           "make_synthesizer"]
