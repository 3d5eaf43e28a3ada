"""WAV files as the microphone and the speaker."""
from __future__ import annotations

import time
import wave
from pathlib import Path
from typing import Iterator

import numpy as np

from ..events import RATE, Speech
from .base import FRAME, AudioFileError, AudioSink, AudioSource, resample


def read_wav(path: str | Path, rate: int | None = None) -> tuple[np.ndarray, int]:
    """Any WAV (PCM 8/16/24/32-bit or float, any rate, any channels), or other audio FFmpeg reads,
    -> float32 mono (the channels' mean) at the file's own rate, or at `rate` by FFmpeg's band-limited
    resampler (the voice loop resamples linearly, as its wake gate was tuned; a voiceprint wants no aliases).
    PyAV (installed with faster-whisper) decodes it."""
    import av
    try:
        with av.open(str(path)) as container:
            stream = container.streams.audio[0]
            rate = rate or stream.codec_context.sample_rate
            # planar float at that rate in the file's layout: one row per channel, averaged below
            convert = av.AudioResampler(format="fltp", layout=stream.layout.name, rate=rate)
            blocks = [out.to_ndarray() for frame in container.decode(stream) for out in convert.resample(frame)]
            blocks += [out.to_ndarray() for out in convert.resample(None)]
    except (av.FFmpegError, OSError, IndexError, ValueError) as exc:
        why = "no sound in it" if isinstance(exc, IndexError) else (getattr(exc, "strerror", None) or type(exc).__name__)
        raise AudioFileError(f"cannot read {path} as a WAV or other audio file ({why}); give a .wav recording") from exc
    if not blocks:
        return np.zeros(0, np.float32), rate
    return np.concatenate(blocks, axis=1).mean(axis=0).astype(np.float32), rate


def write_wav(path: str | Path, samples: np.ndarray, rate: int) -> None:
    pcm = (np.clip(samples, -1, 1) * 32767).astype("<i2")
    try:
        with open(path, "wb") as fh, wave.open(fh, "wb") as wav:
            wav.setnchannels(1)
            wav.setsampwidth(2)
            wav.setframerate(rate)
            wav.writeframes(pcm.tobytes())
    except OSError as exc:
        raise AudioFileError(f"cannot write {path} ({exc.strerror or exc}); choose a writable --output path") from exc


class WavSource(AudioSource):
    """The file is the microphone: resampled to 16 kHz mono, then a little silence so the last
    utterance ends."""

    def __init__(self, path: str | Path, tail_silence_s: float = 1.5, realtime: bool = False):
        """realtime: hand out frames no faster than they were spoken, as a microphone does (else
        as fast as they are read)."""
        data, rate = read_wav(path)
        self.samples = np.concatenate([resample(data, rate, RATE), np.zeros(int(tail_silence_s * RATE), np.float32)])
        self.realtime = realtime

    def frames(self) -> Iterator[np.ndarray]:
        usable = len(self.samples) // FRAME * FRAME
        started = time.perf_counter()
        for i in range(0, usable, FRAME):
            if self.realtime and (ahead := started + i / RATE - time.perf_counter()) > 0:
                time.sleep(ahead)
            yield self.samples[i:i + FRAME]


class WavSink(AudioSink):
    """Everything spoken, in order, written to one WAV file on close."""

    def __init__(self, path: str | Path, rate: int = 22_050, gap_s: float = 0.3):
        self.path, self.rate = Path(path), rate
        write_wav(self.path, np.zeros(0, np.float32), rate)   # fail now, not after the conversation
        self.gap = np.zeros(int(gap_s * rate), np.float32)
        self.pieces: list[np.ndarray] = []
        self.current = 0          # index of the piece now "playing"

    def start(self, speech: Speech) -> None:
        self.pieces.append(resample(speech.samples, speech.rate, self.rate))
        self.current = len(self.pieces) - 1

    def stop(self, played_s: float) -> None:
        if self.pieces:
            self.pieces[self.current] = self.pieces[self.current][: int(played_s * self.rate)]

    def end_reply(self) -> None:
        self.pieces.append(self.gap)

    def close(self) -> None:
        audio = np.concatenate(self.pieces) if self.pieces else np.zeros(0, np.float32)
        write_wav(self.path, audio, self.rate)
