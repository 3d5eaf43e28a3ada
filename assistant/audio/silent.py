"""A speaker that plays nothing: with `--input FILE.wav` on a machine with no sound card, her replies are
shown as text (the loop prints each as it is said) instead of the file going unheard."""
from __future__ import annotations

from .base import AudioSink, Speech


class SilentSink(AudioSink):
    """Takes her speech and drops it; the replies reach the user as the printed lines."""

    rate = 22_050

    def start(self, speech: Speech) -> None:
        return None

    def stop(self, played_s: float) -> None:
        return None
