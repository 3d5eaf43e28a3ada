"""The wake gate's matcher: what a wake word is. One file per backend beside this one."""
from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np


class WakeError(Exception):
    """The configured wake engine does not exist or cannot load; the message says what to do."""


@dataclass(frozen=True)
class WakeMatch:
    request: str        # the words after the wake word ("" when she was only called)
    score: float


@dataclass(frozen=True)
class Wording:
    """How the transcript would read had she been called where it heard something else: `text` to
    score against the audio, `request` what she was then asked."""
    text: str
    request: str


class WakeWord(ABC):
    """Finds the wake phrase in a transcript; `threshold` decides what counts as a call. An
    acoustic engine decides from the audio instead (`listen`) and uses the transcript only to
    find the request."""
    threshold: float
    acoustic: bool = False

    def someone_else(self, plain: str, phrase: str, anywhere: bool = False) -> bool:
        """Whether a transcript made without the hotword shows the call was for someone else
        (anywhere: a name in any place, when where the call was is not known)."""
        return False

    def near_miss(self, text: str, phrase: str) -> bool:
        """Whether a transcript holds, anywhere, a word that sounds like the phrase's name but is
        another word or name ("glad", "gladly", "Gladys", "hey guys")."""
        return False

    def wordings(self, heard: str, phrase: str, quick: bool = False, called: bool = False) -> list[Wording]:
        """The transcript with her name in place of the words where a call would be (the gate asks
        the recogniser whether the audio fits one of them as well as what it heard); quick: in place
        of the first words only, one spelling (a first look, checked again in full); called: another
        transcript of the same audio already holds a call, so a word that is how the recogniser writes
        her name for some voices, though also a real word, may be replaced too."""
        return []

    def placed(self, words: Sequence[str], start: int, stop: int, phrase: str) -> list[Wording]:
        """The transcript's words, as the recogniser wrote them, with her name in place of
        words[start:stop] (start == stop: put in before words[start]), where the sound says her name
        was; none when a replaced word names someone else."""
        return []

    def listen(self, samples: "np.ndarray") -> float:
        """How surely 16 kHz mono audio holds the wake phrase, 0 to 1 (acoustic engines only)."""
        raise NotImplementedError(f"{type(self).__name__} decides from the transcript")

    @abstractmethod
    def best(self, transcript: str, phrase: str) -> WakeMatch | None:
        """The closest the transcript comes to calling her, whatever the threshold (benchmarks sweep it)."""

    def match(self, transcript: str, phrase: str) -> WakeMatch | None:
        found = self.best(transcript, phrase)
        return found if found is not None and found.score >= self.threshold else None
