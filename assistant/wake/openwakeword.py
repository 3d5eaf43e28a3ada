"""Wake word in the audio: openWakeWord's pre-trained phrases ("hey jarvis", "alexa", "hey mycroft",
"hey rhasspy"), for a user who would rather call her by one of them than by "hey GLaDOS".

The phrase's classifier runs over 16 speech embeddings (features.py: the wheel's front end) at a
time, as openwakeword's Model.predict_clip does for a whole clip; the score is its best over the
utterance. The transcript still supplies the request (the words after the phrase).
"""
from __future__ import annotations

import numpy as np

from .base import WakeMatch, WakeWord
from .features import OpenWakeWordMissing, SpeechEmbeddings, session
from .transcript import TranscriptWakeWord

MODELS = {"hey jarvis": "hey_jarvis_v0.1.onnx", "alexa": "alexa_v0.1.onnx",
          "hey mycroft": "hey_mycroft_v0.1.onnx", "hey rhasspy": "hey_rhasspy_v0.1.onnx"}
EMBEDDINGS = 16


class OpenWakeWord(WakeWord):
    acoustic = True

    def __init__(self, phrase: str, threshold: float = 0.5):
        key = " ".join(phrase.lower().replace(",", " ").split())
        if key not in MODELS:
            raise OpenWakeWordMissing(f"openwakeword has no model for {phrase!r}; set voice.wake.phrase to one of: "
                                      f"{', '.join(MODELS)} (or voice.wake.engine: transcript for any phrase)")
        self._features, self._phrase = SpeechEmbeddings(), session(MODELS[key])
        self._input = self._phrase.get_inputs()[0].name
        self.phrase, self.threshold = key, threshold
        self._words = TranscriptWakeWord(threshold=0.5)

    def listen(self, samples: np.ndarray) -> float:
        features = self._features(samples)
        if len(features) < EMBEDDINGS:
            return 0.0
        scores = [self._phrase.run(None, {self._input: features[i:i + EMBEDDINGS][None].astype(np.float32)})[0]
                  for i in range(len(features) - EMBEDDINGS + 1)]
        return float(np.max(scores))

    def best(self, transcript: str, phrase: str) -> WakeMatch | None:
        """Where the phrase sits in the words (for the request); the call itself is decided by listen."""
        return self._words.best(transcript, self.phrase)
