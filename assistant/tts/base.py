"""Text to speech: what a synthesiser is. One file per backend beside this one."""
from __future__ import annotations

from abc import ABC, abstractmethod

from ..events import Speech


class TTSError(Exception):
    """The voice could not be loaded; the message says what to configure."""


class TTSMissing(TTSError):
    """The configured engine's files are not installed here: the bundled voice speaks instead."""


class Synthesizer(ABC):
    rate: int

    @abstractmethod
    def synthesize(self, text: str) -> Speech:
        ...
