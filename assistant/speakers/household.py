"""Who is talking: enrolment (a person's voiceprint from their utterances) and attribution (an utterance's
embedding against every voiceprint), as pure functions over vectors. The memory keeps the voiceprints; the
model makes the vectors (model.py); this decides."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Sequence

import numpy as np

MIN_ENROL = 3        # utterances a voiceprint needs: one can be an odd one (a cough, a laugh)


@dataclass(frozen=True)
class Policy:
    """threshold: the cosine an utterance needs to the best voiceprint; margin: how far ahead of the second
    best it must be (two similar voices: neither is named)."""
    threshold: float = 0.6
    margin: float = 0.1


@dataclass(frozen=True)
class Attribution:
    """Whose voice: `speaker` (None: nobody enrolled is sure enough), its `score`, and every enrolled
    person's cosine, best first."""
    speaker: str | None
    score: float
    scores: tuple[tuple[str, float], ...]
    why: str = ""       # for an unknown voice: too far from everyone, or too near two


def unit(vector: np.ndarray) -> np.ndarray:
    vector = np.asarray(vector, dtype=np.float32)
    return vector / max(float(np.linalg.norm(vector)), 1e-12)


def voiceprint(embeddings: Sequence[np.ndarray], before: np.ndarray | None = None, before_count: int = 0
               ) -> tuple[np.ndarray, int]:
    """The mean of unit embeddings (added to an earlier mean of `before_count`), and how many it averages."""
    units = [unit(e) for e in embeddings]
    total = sum(units, start=np.zeros_like(units[0])) + (before * before_count if before is not None else 0)
    count = len(units) + before_count
    return (total / count).astype(np.float32), count


def attribute(embedding: np.ndarray, prints: Mapping[str, np.ndarray], policy: Policy) -> Attribution:
    """The enrolled person this utterance is, or nobody."""
    if not prints:
        return Attribution(None, 0.0, (), "nobody is enrolled")
    e = unit(embedding)
    scores = sorted(((name, round(float(e @ unit(v)), 4)) for name, v in prints.items()), key=lambda s: -s[1])
    best, score = scores[0]
    second = scores[1][1] if len(scores) > 1 else -1.0
    if score < policy.threshold:
        return Attribution(None, score, tuple(scores), f"no enrolled voice is near (best {best} {score:.2f})")
    if score - second < policy.margin:
        return Attribution(None, score, tuple(scores), f"sounds like {best} and {scores[1][0]} alike")
    return Attribution(best, score, tuple(scores))
