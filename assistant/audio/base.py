"""What a microphone and a speaker are to the voice loop. A WAV file is as real as a device."""
from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Iterator

import numpy as np

from ..errors import AudioError
from ..events import RATE, Speech

FRAME = 512   # samples per frame at 16 kHz (32 ms): the Silero VAD's window


class AudioFileError(AudioError):
    """A WAV file that cannot be read or written (not a missing device)."""


class AudioSource(ABC):
    """Yields FRAME-sample float32 frames of 16 kHz mono; time is the count of samples read."""

    @abstractmethod
    def frames(self) -> Iterator[np.ndarray]:
        ...

    def catch_up(self) -> int:
        """Drop input that queued up while she was busy (a live microphone); returns how many
        frames. A file has no backlog: nothing to drop."""
        return 0

    def close(self) -> None:
        pass


class AudioSink(ABC):
    """Plays speech. start() returns at once; the loop waits by reading input for the duration."""

    rate: int

    @abstractmethod
    def start(self, speech: Speech) -> None:
        ...

    @abstractmethod
    def stop(self, played_s: float) -> None:
        """Barge-in: cut what is playing after played_s seconds of the current speech."""

    def end_reply(self) -> None:
        """One reply is over (a file leaves a gap between replies; a speaker needs nothing)."""

    def finish(self) -> None:
        """Block until everything started has been played."""

    def close(self) -> None:
        pass


def resample(samples: np.ndarray, rate_in: int, rate_out: int = RATE) -> np.ndarray:
    """Linear-interpolation resampling. libsoxr's band-limited resampler removes the aliasing this lets
    through (bench/resample_bench.py) but, tried as the default, let one more near miss wake her on held-out
    wake set 18 (the gate's settings were chosen on audio resampled this way): it waits for a re-tuning."""
    if rate_in == rate_out or len(samples) == 0:
        return samples.astype(np.float32, copy=False)
    n = int(round(len(samples) * rate_out / rate_in))
    x = np.linspace(0, len(samples) - 1, n)
    return np.interp(x, np.arange(len(samples)), samples).astype(np.float32)
