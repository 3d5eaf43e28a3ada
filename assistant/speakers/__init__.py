"""Who is talking: speaker embeddings (CAM++ in numpy), voiceprints kept in the memory database, and the
decision of whose voice an utterance is.

    household = Household(memory, SpeakersConfig())
    household.enrol("ada", [audio1, audio2, audio3])      # 16 kHz mono float arrays
    household.identify(audio).speaker                      # "ada", or None for a voice nobody enrolled
"""
from __future__ import annotations

from typing import Sequence

import numpy as np

from memory import Memory, Voiceprint

from ..config import SpeakersConfig
from ..errors import SpeakerError
from .household import MIN_ENROL, Attribution, Policy, attribute, unit, voiceprint
from .model import MODEL_ID, SpeakerModelMissing, load, missing

RATE = 16000
MIN_SECONDS = 0.5        # shorter audio holds too little of a voice to say anything


class TooShort(SpeakerError):
    """Audio too short to tell a voice by."""


class Household:
    """The enrolled voices of one memory file, and the model that compares them."""

    def __init__(self, memory: Memory, config: SpeakersConfig = SpeakersConfig()):
        self.memory, self.config = memory, config
        self.policy = Policy(config.threshold, config.margin)
        self._prints: dict[str, np.ndarray] | None = None

    def missing(self) -> str | None:
        return missing(self.config.model)

    def prepare(self) -> None:
        """Load the model now (about 0.2 s), off the path a user waits on."""
        load(self.config.model)

    def embed(self, audio: np.ndarray) -> np.ndarray:
        """The voice in 16 kHz mono audio, as a unit vector. Raises SpeakerModelMissing, TooShort."""
        if len(audio) < MIN_SECONDS * RATE:
            raise TooShort(f"{len(audio) / RATE:.2f} s of audio is too short to tell a voice by "
                           f"(at least {MIN_SECONDS} s; 2-5 s is best)")
        return load(self.config.model).embed(audio)

    def prints(self) -> dict[str, np.ndarray]:
        """Enrolled voices by memory user (read once; enrol and forget refresh it)."""
        if self._prints is None:
            self._prints = {p.user: np.asarray(p.vector, dtype=np.float32)
                            for p in self.memory.voiceprints() if p.model == MODEL_ID}
        return self._prints

    def enrolled(self) -> list[Voiceprint]:
        return self.memory.voiceprints()

    def enrol(self, user: str, audios: Sequence[np.ndarray]) -> Voiceprint:
        """Add utterances to `user`'s voiceprint (a new one needs MIN_ENROL of them)."""
        return self.enrol_embeddings(user, [self.embed(a) for a in audios])

    def enrol_embeddings(self, user: str, vectors: Sequence[np.ndarray]) -> Voiceprint:
        """The same from utterances already embedded (`embed`)."""
        before = self.memory.voiceprint(user)
        if before is not None and before.model != MODEL_ID:
            before = None           # a voiceprint of another model is replaced, not averaged with
        if before is None and len(vectors) < MIN_ENROL:
            raise TooShort(f"enrolling a voice takes at least {MIN_ENROL} utterances; {len(vectors)} given")
        mean, count = voiceprint(vectors, None if before is None else np.asarray(before.vector, dtype=np.float32),
                                 0 if before is None else before.utterances)
        saved = self.memory.save_voiceprint(user, mean, count, MODEL_ID)
        self._prints = None
        return saved

    def identify(self, audio: np.ndarray) -> Attribution:
        return attribute(self.embed(audio), self.prints(), self.policy)

    def forget(self, user: str) -> bool:
        self._prints = None
        return self.memory.forget_voiceprint(user)


__all__ = ["Attribution", "Household", "MIN_ENROL", "Policy", "SpeakerModelMissing", "TooShort", "attribute",
           "unit", "voiceprint"]
