"""Her name in the audio: how surely 16 kHz speech holds "GLaDOS" rather than a word that only
sounds like it ("Gladys", "glad", "gladly", "hey lads"). Tiny.en, told to expect her name, writes
"glados" for all of those; this listens to the sound instead. Small networks (1536 -> 32 -> 1) read
16 of openWakeWord's speech embeddings (features.py; 1.96 s) at a time; each scores the utterance by
its best window, and the score is the lowest of theirs, 0 to 1 (three members, trained on different
near misses, each fooled by a few sentences the others are not; the third was added for "glad" before
a vowel, "glad all's well", which the first two were as sure of as of her name).

Trained by training/train_name_model.py on synthetic speech only (Piper 'joe' and espeak-ng
voices that the wake sets do not use), her name said three ways (GLAD-oss, GLAH-dohz, gee-la-DOS).
It also fires on some ordinary sentences, so it never wakes her by itself: the wake gate uses it only
to turn down a call the words found whose name did not sound like hers (`SHIPPED.name_floor`)."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .features import SpeechEmbeddings, ends_at

DEFAULT_MODEL = Path(__file__).with_name("glados_name.npz")
WINDOW = 16            # embeddings per window (1.96 s of audio)
LEAD_S = 2.0           # silence put before the audio: a window can then end anywhere in it, so a name at its
                       # very start ("Glados, ...") has a window that ends just after it
NAME = "glados"        # the name the model knows; another wake phrase leaves it unused


class NameModelMissing(Exception):
    """The weights file is missing or unreadable."""


@dataclass(frozen=True)
class Sounded:
    """How surely audio holds her name (0-1), and where: the end of the window the members agree on
    most, in seconds into the audio (her name ends up to 0.2 s before it)."""
    score: float
    at_s: float = 0.0


class NameModel:
    def __init__(self, path: Path = DEFAULT_MODEL, features: SpeechEmbeddings | None = None):
        try:
            with np.load(path) as data:
                weights = {k: data[k] for k in data.files}
            if missing := {"w1", "b1", "w2", "b2", "mean", "scale"} - set(weights):
                raise ValueError(f"no {', '.join(sorted(missing))} in it")
        except (OSError, ValueError) as exc:
            raise NameModelMissing(f"cannot read the name model {path} ({exc}); run the setup again "
                                   "(./glados.sh) to reinstall it") from exc
        self._set(weights, features or SpeechEmbeddings())      # loaded now, not on the first call heard

    @classmethod
    def from_weights(cls, weights: dict[str, np.ndarray], features: SpeechEmbeddings | None = None) -> NameModel:
        model = cls.__new__(cls)
        model._set(weights, features)
        return model

    def _set(self, weights: dict[str, np.ndarray], features: SpeechEmbeddings | None) -> None:
        """weights: each member's w1 (1536, 32), b1, w2 (32, 1), b2, mean and scale (1536), stacked on a
        first axis (one member: unstacked is fine too)."""
        def stacked(key: str, dims: int) -> np.ndarray:
            value = np.asarray(weights[key], np.float32)
            return value if value.ndim == dims + 1 else value[None]
        self.w1, self.w2 = stacked("w1", 2), stacked("w2", 2)
        self.b1, self.b2, self.mean, self.scale = (stacked(k, 1) for k in ("b1", "b2", "mean", "scale"))
        self._features = features

    @staticmethod
    def knows(phrase: str) -> bool:
        """Whether the wake phrase calls her by the name this model knows."""
        return NAME in phrase.lower().replace(" ", "")

    def probabilities(self, windows: np.ndarray) -> np.ndarray:
        """Each member's chance (members, n) that each window (n, 16 * 96) ends just after her name."""
        normal = (windows[None] - self.mean[:, None]) / self.scale[:, None]
        hidden = np.maximum(0, normal @ self.w1 + self.b1[:, None])
        return 1 / (1 + np.exp(-(hidden @ self.w2)[..., 0] - self.b2))

    def score(self, samples: np.ndarray) -> float:
        """The lowest of the members' best windows over the whole of 16 kHz mono audio (0 for none)."""
        return self.hear(samples).score

    def prepare(self) -> SpeechEmbeddings:
        """Load the speech features' models now (about 0.2 s), not inside the first utterance."""
        if self._features is None:
            self._features = SpeechEmbeddings()
        return self._features

    def hear(self, samples: np.ndarray) -> Sounded:
        """The score, and where in the audio her name was heard."""
        cut = windows(samples, self.prepare())
        if not len(cut):
            return Sounded(0.0)
        chances = self.probabilities(cut)
        agreed = int(chances.min(axis=0).argmax())
        return Sounded(float(chances.max(axis=1).min()), ends_at(agreed + WINDOW - 1, LEAD_S))


def windows(samples: np.ndarray, features: SpeechEmbeddings) -> np.ndarray:
    """Every window of 16 kHz mono audio, (n, 16 * 96); the one at row i ends `ends_at(i + 15, LEAD_S)`
    seconds into it."""
    rows = features(samples, LEAD_S)
    if len(rows) < WINDOW:
        return np.zeros((0, WINDOW * rows.shape[1]), np.float32)
    return np.lib.stride_tricks.sliding_window_view(rows, (WINDOW, rows.shape[1]))[:, 0].reshape(len(rows) - WINDOW + 1, -1)
