"""Log mel filter bank features as Kaldi computes them (`compute-fbank-feats`, torchaudio's
`compliance.kaldi.fbank`), the input CAM++ was trained on: 25 ms frames every 10 ms, DC removed,
pre-emphasis 0.97, Povey window, 512-point power spectrum, 80 triangular mel bins from 20 Hz to Nyquist,
natural log; then each bin's mean over the utterance is subtracted (what the speaker model expects).
"""
from __future__ import annotations

from functools import lru_cache

import numpy as np

RATE = 16000
FRAME = 400          # 25 ms
SHIFT = 160          # 10 ms
FFT = 512
BINS = 80
LOW_HZ = 20.0


def _mel(hz: np.ndarray) -> np.ndarray:
    return 1127.0 * np.log(1.0 + hz / 700.0)


@lru_cache(maxsize=1)
def _banks() -> np.ndarray:
    """(FFT//2 + 1, BINS) triangular weights, equally spaced in mel, as Kaldi's MelBanks (Nyquist bin 0)."""
    low, high = _mel(np.float64(LOW_HZ)), _mel(np.float64(RATE / 2))
    step = (high - low) / (BINS + 1)
    left = low + step * np.arange(BINS)
    centre, right = left + step, left + 2 * step
    mel = _mel(np.arange(FFT // 2) * RATE / FFT)[:, None]
    up = (mel - left) / (centre - left)
    down = (right - mel) / (right - centre)
    weights = np.maximum(0.0, np.minimum(up, down))
    return np.vstack([weights, np.zeros((1, BINS))]).astype(np.float32)


@lru_cache(maxsize=1)
def _window() -> np.ndarray:
    n = np.arange(FRAME)
    return (0.5 - 0.5 * np.cos(2 * np.pi * n / (FRAME - 1))) ** 0.85


def fbank(audio: np.ndarray, normalise: bool = True) -> np.ndarray:
    """(frames, 80) log mel energies of 16 kHz mono float audio (at least 25 ms), each bin's mean over the
    utterance subtracted unless `normalise` is False."""
    audio = np.asarray(audio, dtype=np.float32)
    if len(audio) < FRAME:
        raise ValueError("fewer than 25 ms of audio")
    count = 1 + (len(audio) - FRAME) // SHIFT
    frames = np.lib.stride_tricks.sliding_window_view(audio, FRAME)[::SHIFT][:count].astype(np.float64)
    frames = frames - frames.mean(axis=1, keepdims=True)
    frames[:, 1:] -= 0.97 * frames[:, :-1].copy()
    frames[:, 0] -= 0.97 * frames[:, 0]
    power = np.abs(np.fft.rfft(frames * _window(), n=FFT)) ** 2
    energies = np.log(np.maximum(power.astype(np.float32) @ _banks(), np.finfo(np.float32).eps))
    return energies - energies.mean(axis=0, keepdims=True) if normalise else energies
