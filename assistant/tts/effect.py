"""Her colour: a post-process any voice can wear (`voice.tts.effect: glados`).

GLaDOS sounds synthetic on purpose: a little higher than the voice, slightly metallic, with a slow shimmer.
Three cheap steps on the synthesised samples: the pitch raised 1.5 semitones by reading the samples faster
(the engine is asked to speak 1.09 times slower first, so the pace is the voice's own), a 4.5 ms comb (the
metal), and a flanger sweeping 0-2 ms at 0.3 Hz (the shimmer). About 5 ms per second of speech.
"""
from __future__ import annotations

import numpy as np

from ..events import Speech

SEMITONES = 1.5
SLOWER = 2 ** (SEMITONES / 12)       # 1.09: what the engine is asked to slow by, and the pitch ratio
COMB_S, COMB_GAIN = 0.0045, 0.35
FLANGE_S, FLANGE_HZ, FLANGE_GAIN = 0.002, 0.3, 0.4


def _faster(samples: np.ndarray, ratio: float) -> np.ndarray:
    """Read the samples `ratio` times faster (pitch and pace up), by linear interpolation."""
    positions = np.arange(0, len(samples) - 1, ratio)
    return np.interp(positions, np.arange(len(samples)), samples).astype(np.float32)


def glados(speech: Speech) -> Speech:
    """The colour applied to one synthesised sentence."""
    x = _faster(speech.samples.astype(np.float32), SLOWER)
    if not len(x):
        return speech
    rate = speech.rate
    comb = int(COMB_S * rate)
    y = x.copy()
    y[comb:] += COMB_GAIN * x[:-comb]
    t = np.arange(len(y)) / rate
    delay = FLANGE_S * rate * 0.5 * (1 - np.cos(2 * np.pi * FLANGE_HZ * t))
    y = y + FLANGE_GAIN * np.interp(np.arange(len(y)) - delay, np.arange(len(y)), y, left=0.0)
    peak = float(np.abs(y).max())
    source_peak = float(np.abs(speech.samples).max()) or 1.0
    y *= min(1.0, source_peak) / peak if peak > 0 else 1.0       # as loud as the voice was, never clipped
    return Speech(y.astype(np.float32), rate, speech.text)


EFFECTS = {"none": None, "glados": glados}
