"""Text to speech: what a synthesiser is. One file per backend beside this one."""
from __future__ import annotations

from abc import ABC, abstractmethod

from ..events import Speech


class TTSError(Exception):
    """The voice could not be loaded; the message says what to configure."""


class Synthesizer(ABC):
    rate: int

    @abstractmethod
    def synthesize(self, text: str) -> Speech:
        ...
