"""WAV files as the microphone and the speaker."""
from __future__ import annotations

import time
import wave
from pathlib import Path
from typing import Iterator

import numpy as np

from ..events import RATE, Speech
from .base import FRAME, AudioFileError, AudioSink, AudioSource, resample


def read_wav(path: str | Path) -> tuple[np.ndarray, int]:
    """Any WAV (PCM 8/16/24/32-bit or float, any rate, any channels) -> float32 mono and its rate."""
    try:
        with open(path, "rb") as fh, wave.open(fh, "rb") as wav:
            rate, channels, width = wav.getframerate(), wav.getnchannels(), wav.getsampwidth()
            raw = wav.readframes(wav.getnframes())
    except wave.Error:
        return _decode_any(path)      # float or WAVE_FORMAT_EXTENSIBLE, which `wave` cannot read
    except (OSError, EOFError) as exc:
        raise AudioFileError(f"cannot read {path} as a WAV file ({exc}); give a PCM .wav file") from exc
    if width == 1:
        data = (np.frombuffer(raw, np.uint8).astype(np.float32) - 128) / 128
    elif width == 2:
        data = np.frombuffer(raw, "<i2").astype(np.float32) / 32768
    elif width == 3:
        b = np.frombuffer(raw, np.uint8).reshape(-1, 3).astype(np.int32)
        data = ((b[:, 0] | (b[:, 1] << 8) | (b[:, 2] << 16)) << 8 >> 8).astype(np.float32) / 8388608
    elif width == 4:
        data = np.frombuffer(raw, "<i4").astype(np.float32) / 2147483648
    else:
        raise AudioFileError(f"{path}: {width * 8}-bit samples are not supported; use 16-bit PCM")
    if channels > 1:
        data = data[: len(data) // channels * channels].reshape(-1, channels).mean(axis=1)
    return data, rate


def _decode_any(path: str | Path) -> tuple[np.ndarray, int]:
    """PyAV (installed with faster-whisper) decodes what `wave` cannot: 32-bit float WAV and more."""
    try:
        from faster_whisper import decode_audio
        return decode_audio(str(path), sampling_rate=RATE).astype(np.float32), RATE
    except Exception as exc:  # noqa: BLE001 - PyAV raises many error types for a bad file
        raise AudioFileError(f"cannot read {path} as a WAV or other audio file ({type(exc).__name__}); "
                             f"give a .wav recording") from exc


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
