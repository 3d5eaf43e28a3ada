"""Is it for her? The wake word's interface (base.py), one file per backend chosen by `voice.wake.engine`,
the gate (gate.py) that gathers evidence about an utterance, and decide.py that turns it into a call, not
hers, or someone else's name."""
from __future__ import annotations

from typing import TYPE_CHECKING

from .base import WakeError, WakeMatch, WakeWord
from .decide import Decision, Evidence, Policy, decide
from .gate import Verdict, WakeGate
from .transcript import TranscriptWakeWord, skeleton, similarity

if TYPE_CHECKING:
    from ..config import WakeConfig

ENGINES = ("transcript", "openwakeword")


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


__all__ = ["ENGINES", "Decision", "Evidence", "Policy", "Verdict", "TranscriptWakeWord", "WakeError", "WakeGate", "WakeMatch", "WakeWord", "decide", "make_wake", "skeleton", "similarity"]
