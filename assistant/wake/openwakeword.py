"""Wake word in the audio: openWakeWord's pre-trained phrases ("hey jarvis", "alexa", "hey mycroft",
"hey rhasspy"), for a user who would rather call her by one of them than by "hey GLaDOS".

The models ship inside the openwakeword 0.5.1 wheel; the setup installs it with --no-deps (its
package imports scipy and scikit-learn at import, for training we do not do, and asks for
tflite-runtime), and this file runs its ONNX files on onnxruntime (already here for Piper) without
importing the package: mel spectrogram -> speech embedding every 80 ms over 76 frames -> the
phrase's classifier over 16 embeddings, as openwakeword.utils.AudioFeatures and
Model.predict_clip do for a whole clip. The score is the classifier's best over the utterance.
The transcript still supplies the request (the words after the phrase).
"""
from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np

from .base import WakeMatch, WakeWord
from .transcript import TranscriptWakeWord

MODELS = {"hey jarvis": "hey_jarvis_v0.1.onnx", "alexa": "alexa_v0.1.onnx",
          "hey mycroft": "hey_mycroft_v0.1.onnx", "hey rhasspy": "hey_rhasspy_v0.1.onnx"}
RATE = 16_000
PAD_S = 1.0            # silence around the utterance (as predict_clip pads): the classifier needs the context
MEL_WINDOW, MEL_STEP, EMBEDDINGS = 76, 8, 16


class OpenWakeWordMissing(Exception):
    """The openwakeword wheel (its models) is not installed, or the phrase has no model."""


def models_folder() -> Path:
    spec = importlib.util.find_spec("openwakeword")      # found, not imported (see the module)
    folder = Path(next(iter(spec.submodule_search_locations))) / "resources" / "models" if spec else None
    if folder is None or not (folder / "melspectrogram.onnx").exists():
        raise OpenWakeWordMissing("voice.wake.engine openwakeword needs its models: "
                                  ".venv/bin/pip install --no-deps openwakeword==0.5.1")
    return folder


class OpenWakeWord(WakeWord):
    acoustic = True

    def __init__(self, phrase: str, threshold: float = 0.5):
        key = " ".join(phrase.lower().replace(",", " ").split())
        if key not in MODELS:
            raise OpenWakeWordMissing(f"openwakeword has no model for {phrase!r}; set voice.wake.phrase to one of: "
                                      f"{', '.join(MODELS)} (or voice.wake.engine: transcript for any phrase)")
        import onnxruntime as ort
        folder = models_folder()
        options = ort.SessionOptions()
        options.intra_op_num_threads = options.inter_op_num_threads = 1
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")   # no busy threads beside whisper

        def load(name: str):
            return ort.InferenceSession(str(folder / name), options, providers=["CPUExecutionProvider"])
        self._mel, self._embed, self._phrase = load("melspectrogram.onnx"), load("embedding_model.onnx"), load(MODELS[key])
        self._input = self._phrase.get_inputs()[0].name
        self.phrase, self.threshold = key, threshold
        self._words = TranscriptWakeWord(threshold=0.5)

    def listen(self, samples: np.ndarray) -> float:
        pad = np.zeros(int(PAD_S * RATE), np.float32)
        pcm = np.clip(np.concatenate([pad, samples.astype(np.float32), pad]) * 32767, -32768, 32767)
        mel = np.squeeze(self._mel.run(None, {"input": np.round(pcm)[None].astype(np.float32)})[0]) / 10 + 2
        if mel.ndim != 2 or len(mel) < MEL_WINDOW:
            return 0.0
        windows = np.stack([mel[i:i + MEL_WINDOW] for i in range(0, len(mel) - MEL_WINDOW + 1, MEL_STEP)])
        features = self._embed.run(None, {"input_1": windows[..., None].astype(np.float32)})[0].reshape(len(windows), -1)
        if len(features) < EMBEDDINGS:
            return 0.0
        scores = [self._phrase.run(None, {self._input: features[i:i + EMBEDDINGS][None].astype(np.float32)})[0]
                  for i in range(len(features) - EMBEDDINGS + 1)]
        return float(np.max(scores))

    def best(self, transcript: str, phrase: str) -> WakeMatch | None:
        """Where the phrase sits in the words (for the request); the call itself is decided by listen."""
        return self._words.best(transcript, self.phrase)
