"""Wake words: the interface (base.py), one file per backend, chosen by `voice.wake.engine`."""
from __future__ import annotations

from typing import TYPE_CHECKING

from .base import WakeMatch, WakeWord
from .transcript import TranscriptWakeWord, skeleton, similarity

if TYPE_CHECKING:
    from ..config import WakeConfig

ENGINES = ("transcript", "openwakeword")


class WakeError(Exception):
    """The configured wake engine does not exist; the message lists those that do."""


def make_wake(config: "WakeConfig") -> WakeWord:
    if config.engine == "transcript":
        return TranscriptWakeWord(config.threshold)
    if config.engine == "openwakeword":
        from .openwakeword import OpenWakeWord, OpenWakeWordMissing
        try:
            return OpenWakeWord(config.phrase, config.acoustic_threshold)
        except OpenWakeWordMissing as exc:
            raise WakeError(str(exc)) from exc
    raise WakeError(f"unknown voice.wake.engine {config.engine!r}; use one of {', '.join(ENGINES)}")


__all__ = ["ENGINES", "TranscriptWakeWord", "WakeError", "WakeMatch", "WakeWord", "make_wake", "skeleton", "similarity"]
