"""Speech to text: what a transcriber is. One file per backend beside this one."""
from __future__ import annotations

from abc import ABC, abstractmethod

from collections.abc import Sequence

from ..events import TimedWord, Transcript, Utterance


class STTError(Exception):
    """The recogniser could not be loaded; the message says what to configure."""


class Transcriber(ABC):
    concurrent: bool = False    # transcribe may run in two threads at once (the wake gate's plain check)

    @abstractmethod
    def transcribe(self, utterance: Utterance, hotwords: str | None = None) -> Transcript:
        ...

    def transcribe_wider(self, utterance: Utterance, hotwords: str | None = None, beam_size: int = 5) -> Transcript | None:
        """The same audio read again, `beam_size` readings searched at once (the wake gate's beam look);
        None: this recogniser cannot."""
        return None

    def rescore(self, transcript: Transcript, texts: Sequence[str]) -> list[float] | None:
        """How well other wordings fit the transcript's audio: their log-probabilities under the recogniser
        (the wake gate asks whether "Glados, ..." fits where it heard "Waddles, ..."). None: it cannot say."""
        return None

    def timings(self, transcript: Transcript) -> tuple[TimedWord, ...] | None:
        """When each word of the transcript was said (seconds from the utterance's start). None: it cannot say."""
        return None
