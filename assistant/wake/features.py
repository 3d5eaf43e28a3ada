"""openWakeWord's speech front end, shared by its phrase models and the name model: a mel
spectrogram, then a 96-number speech embedding every 80 ms over 76 mel frames (0.76 s), as
openwakeword.utils.AudioFeatures computes them for a whole clip. The two ONNX files ship inside the
openwakeword 0.5.1 wheel (the setup installs it with --no-deps); they run on onnxruntime (already here
for Piper) without importing the package, which imports scipy and scikit-learn for training."""
from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np

RATE = 16_000
PAD_S = 1.0            # silence around the audio (as predict_clip pads): the first embeddings need the context
MEL_WINDOW, MEL_STEP = 76, 8
MEL_S = 0.01           # one mel frame per 10 ms


class OpenWakeWordMissing(Exception):
    """The openwakeword wheel (its models) is not installed, or the phrase has no model."""


def models_folder() -> Path:
    spec = importlib.util.find_spec("openwakeword")      # found, not imported (see the module)
    folder = Path(next(iter(spec.submodule_search_locations))) / "resources" / "models" if spec else None
    if folder is None or not (folder / "melspectrogram.onnx").exists():
        raise OpenWakeWordMissing("openWakeWord's models are not installed (the openwakeword engine and the "
                                  "name model need them): .venv/bin/pip install --no-deps openwakeword==0.5.1")
    return folder


def session(name: str):
    """One of the wheel's ONNX models, on one thread that does not spin (whisper needs the CPU next)."""
    import onnxruntime as ort
    options = ort.SessionOptions()
    options.intra_op_num_threads = options.inter_op_num_threads = 1
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    return ort.InferenceSession(str(models_folder() / name), options, providers=["CPUExecutionProvider"])


class SpeechEmbeddings:
    def __init__(self):
        self._mel, self._embed = session("melspectrogram.onnx"), session("embedding_model.onnx")

    def __call__(self, samples: np.ndarray, lead_s: float = PAD_S) -> np.ndarray:
        """(n, 96) embeddings of 16 kHz mono audio with lead_s of silence before it and PAD_S after;
        the one at row i ends at `ends_at(i, lead_s)` seconds into the audio. (0, 96) when too short."""
        pcm = np.concatenate([np.zeros(int(lead_s * RATE), np.float32), samples.astype(np.float32),
                              np.zeros(int(PAD_S * RATE), np.float32)])
        pcm = np.clip(pcm * 32767, -32768, 32767)
        mel = np.squeeze(self._mel.run(None, {"input": np.round(pcm)[None].astype(np.float32)})[0]) / 10 + 2
        if mel.ndim != 2 or len(mel) < MEL_WINDOW:
            return np.zeros((0, 96), np.float32)
        windows = np.stack([mel[i:i + MEL_WINDOW] for i in range(0, len(mel) - MEL_WINDOW + 1, MEL_STEP)])
        return self._embed.run(None, {"input_1": windows[..., None].astype(np.float32)})[0].reshape(len(windows), -1)


def ends_at(row: int, lead_s: float = PAD_S) -> float:
    """Where the speech embedding at `row` ends, in seconds into the audio without its padding."""
    return (MEL_STEP * row + MEL_WINDOW) * MEL_S - lead_s
