"""The voice loop: speech found in the microphone's frames (vad.py), heard, answered and spoken (loop.py)."""
from .loop import Mouth, Show, Shown, State, TurnTimings, VoiceLoop, VoiceStats, why_ignored
from .vad import Segmenter, SileroVAD, VadOptions

__all__ = ["Mouth", "Segmenter", "Show", "Shown", "State", "SileroVAD", "TurnTimings", "VadOptions", "VoiceLoop", "VoiceStats", "why_ignored"]
