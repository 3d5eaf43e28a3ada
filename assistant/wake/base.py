"""The wake gate's matcher: what a wake word is. One file per backend beside this one."""
from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass


@dataclass(frozen=True)
class WakeMatch:
    request: str        # the words after the wake word ("" when she was only called)
    score: float


class WakeWord(ABC):
    """Finds the wake phrase in a transcript; `threshold` decides what counts as a call."""
    threshold: float

    @abstractmethod
    def best(self, transcript: str, phrase: str) -> WakeMatch | None:
        """The closest the transcript comes to calling her, whatever the threshold (benchmarks sweep it)."""

    def match(self, transcript: str, phrase: str) -> WakeMatch | None:
        found = self.best(transcript, phrase)
        return found if found is not None and found.score >= self.threshold else None
