"""Whose voice reaches the brain: each enrolled person's words go to their own memory, an unknown voice's to
none, and a newcomer can be enrolled by voice ("I'm Ada", two more sentences).

Attribution runs in a thread of its own, only for an utterance she answers: begun once the gate's early
decision (during the end-of-speech silence) says she was called or it is in the follow-up window, so the
room's talk is never embedded. The decision of whose turn it is is a pure function (`speaker_for`). With
nobody enrolled the loop never builds this: every utterance is the configured user's, as before.
"""
from __future__ import annotations

import re
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from memory import Memory, parse

from ..config import Lines, SpeakersConfig
from ..errors import SpeakerError
from ..speakers import MIN_ENROL, Attribution, Household, unit
from ..turn.brain import Brain

WHO_AM_I = re.compile(r"^\W*(who am i|do you know (who i am|my voice)|whose voice is this)\W*$", re.IGNORECASE)


@dataclass(frozen=True)
class Voice:
    """Whose turn it is: a memory user, or None for a voice nobody enrolled. `inherited`: too short to tell,
    taken from the exchange it continues."""
    user: str | None
    attribution: Attribution | None = None
    inherited: bool = False


def speaker_for(attribution: Attribution | None, seconds: float, continuing: Voice | None, short_s: float) -> Voice:
    """The decision: a short utterance that continues an exchange is that exchange's speaker's; otherwise
    whoever attribution named (None: unknown, also when attribution failed)."""
    if continuing is not None and seconds < short_s:
        return Voice(continuing.user, attribution, inherited=True)
    return Voice(attribution.speaker if attribution is not None else None, attribution)


@dataclass(frozen=True)
class Said:
    """A line she says instead of a turn, and whose exchange it continues (a newcomer just enrolled: theirs)."""
    line: str
    voice: Voice


@dataclass
class _Enrolling:
    name: str
    said: str                                        # what they said when they gave their name
    audios: list[np.ndarray] = field(default_factory=list)


class Who:
    """The household as the voice loop hears it: attribution off the user's wait, one brain per person."""

    def __init__(self, household: Household, config: SpeakersConfig, lines: Lines,
                 make_brain: Callable[[str, Memory], Brain], her_voice: Callable[[], np.ndarray] | None = None):
        """her_voice: a sample of her own speech (16 kHz), so her voice heard back is never enrolled."""
        self.household, self.config, self.lines = household, config, lines
        self._make_brain = make_brain
        self._her_voice = her_voice
        self._brains: dict[str | None, Brain] = {}
        self._pool = ThreadPoolExecutor(1, thread_name_prefix="speaker")
        self.enrolling: _Enrolling | None = None

    def listen(self, samples: np.ndarray) -> Future:
        """Start attributing an utterance (its embedding is about 0.1 s of one core)."""
        return self._pool.submit(self._attribute, samples)

    def _attribute(self, samples: np.ndarray) -> Attribution | None:
        try:
            return self.household.identify(samples)
        except SpeakerError:
            return None        # too short to tell, or the model went missing: nobody

    def decide(self, attribution: Future, seconds: float, continuing: Voice | None) -> Voice:
        return speaker_for(attribution.result(), seconds, continuing, self.config.short_s)

    def brain(self, voice: Voice) -> Brain:
        """The person's own brain (their memory, their session); an unknown voice gets one over a memory
        that lives in this process only: answered, nothing stored."""
        if voice.user not in self._brains:
            memory = self.household.memory if voice.user is not None else Memory(":memory:", embedder=None)
            self._brains[voice.user] = self._make_brain(voice.user or "guest", memory)
        return self._brains[voice.user]

    def brains(self) -> list[Brain]:
        """The enrolled people's brains (an unknown voice's session leaves nothing to summarise)."""
        return [brain for user, brain in self._brains.items() if user is not None]

    def intercept(self, request: str, voice: Voice, samples: np.ndarray) -> Said | None:
        """A line to say instead of a turn: "who am I?", or a step of enrolling a newcomer by voice."""
        if WHO_AM_I.match(request):
            if voice.user is None:
                return Said(self.lines.voice_unknown, voice)
            return Said(self.lines.voice_known.format(what=voice.user.title() if voice.user.islower() else voice.user),
                        voice)
        if self.enrolling is not None:
            if voice.user is not None and not voice.inherited:
                self.enrolling = None        # an enrolled member spoke: the newcomer has gone quiet
                return None
            return self._enrol_more(samples, voice)
        if voice.user is None and not voice.inherited:
            names = [c.value for c in parse(request).changes if c.key == "name" and c.op == "assert"]
            if names:
                self.enrolling = _Enrolling(names[0], request, [samples])
                return Said(self.lines.voice_ask.format(what=names[0]), voice)
        return None

    def _enrol_more(self, samples: np.ndarray, voice: Voice) -> Said:
        assert self.enrolling is not None
        self.enrolling.audios.append(samples)
        if len(self.enrolling.audios) < MIN_ENROL:
            return Said(self.lines.voice_more, voice)
        done, self.enrolling = self.enrolling, None
        user = done.name.lower()
        try:
            embeddings = [self.household.embed(a) for a in done.audios]      # once, for both checks below
            if self._sounds_like_her(embeddings):
                return Said(self.lines.voice_failed.format(what="that is my own voice"), voice)
            self.household.enrol_embeddings(user, embeddings)
        except SpeakerError as exc:
            return Said(self.lines.voice_failed.format(what=str(exc)), voice)
        self.brain(Voice(user)).note(done.said)        # what they said with their name is theirs now
        return Said(self.lines.voice_learned.format(what=done.name), Voice(user))

    def _sounds_like_her(self, embeddings: list[np.ndarray]) -> bool:
        """Her speech heard back (a speaker near the microphone, barge-in on) is nobody's voiceprint."""
        if self._her_voice is None:
            return False
        hers = self.household.embed(self._her_voice())
        theirs = unit(sum(embeddings))
        return float(hers @ theirs) >= self.config.threshold

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)
