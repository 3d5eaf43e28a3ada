"""The typed events the voice stages hand each other."""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

RATE = 16_000   # what the recogniser and the VAD take: 16 kHz mono float32


@dataclass(frozen=True)
class Pause:
    """Silence inside an utterance, shorter than the silence that ends one: where another sentence,
    or another speaker, may begin."""
    at_s: float         # where speech resumed, seconds from the utterance's first sample
    silence_s: float    # how long the silence before it lasted


@dataclass(frozen=True)
class Utterance:
    """Speech cut out by the VAD, with its place on the input timeline (seconds)."""
    samples: np.ndarray = field(repr=False)
    start_s: float
    end_s: float
    speech_end_s: float | None = None     # when the voice stopped; end_s is when the silence rule fired
    pauses: tuple[Pause, ...] = ()        # silences inside it, in order (the segmenter's; none from a file read whole)

    @property
    def end_of_speech_s(self) -> float:
        """How long the segmenter listened to silence before calling the utterance over (measured)."""
        return max(0.0, self.end_s - self.speech_end_s) if self.speech_end_s is not None else 0.0

    @property
    def seconds(self) -> float:
        return len(self.samples) / RATE


@dataclass(frozen=True)
class TimedWord:
    """A word of a transcript as the recogniser wrote it (with its punctuation), and when it was said
    (seconds from the utterance's first sample)."""
    text: str
    start_s: float
    end_s: float
    probability: float | None = None    # how sure the recogniser was of the word (0-1); None: it cannot say


@dataclass(frozen=True)
class Transcript:
    text: str
    utterance: Utterance = field(repr=False)
    stt_s: float = 0.0
    # What the recogniser kept of the audio to read it again without hearing it anew (whisper: its encoder's
    # output), for its `rescore` and `timings`; opaque to everyone else. None: nothing kept.
    kept: object | None = field(default=None, repr=False, compare=False)


@dataclass(frozen=True)
class Speech:
    """Synthesised audio for one piece of text."""
    samples: np.ndarray = field(repr=False)
    rate: int
    text: str

    @property
    def seconds(self) -> float:
        return len(self.samples) / self.rate
