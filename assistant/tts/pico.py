"""Text to speech with SVOX Pico (Apache-2.0): a small, fast, female en-US voice, robotic and even; `ttspico`
is compiled from its sdist by the setup (it needs a C compiler; without one this voice is missing and joe
speaks). About 0.01 s of one core per second of speech."""
from __future__ import annotations

import numpy as np

from ..events import Speech
from .base import Synthesizer, TTSMissing

RATE = 16000


def missing() -> str | None:
    import importlib.util
    if importlib.util.find_spec("ttspico") is None:
        return "the Pico voice is not installed (ttspico; building it needs a C compiler: apt-get install gcc)"
    return None


class PicoSynthesizer(Synthesizer):
    rate = RATE

    def __init__(self, language: str = "en-US", speed: float = 1.0):
        if (why := missing()) is not None:
            raise TTSMissing(why)
        import ttspico
        try:
            self.engine = ttspico.TtsEngine(language)
        except RuntimeError as exc:
            raise TTSMissing(f"the Pico voice cannot start ({exc}); run the setup again") from exc
        self.engine.rate = int(round(100 * speed))       # percent of its normal pace

    def synthesize(self, text: str) -> Speech:
        pcm = self.engine.speak(text) or b""
        return Speech(np.frombuffer(pcm, dtype="<i2").astype(np.float32) / 32768, RATE, text)
