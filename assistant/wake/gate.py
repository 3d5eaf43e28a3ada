"""Is it for her? The gate gathers evidence about an utterance, a stage at a time, and asks `decide`
(decide.py) what it makes of it: a call, not hers, someone else's name, or which evidence it needs
next. The cheap evidence comes first: the transcript with the wake phrase as a hotword (with the name
model listening, and the transcript without the hotword begun, beside it); the second look at the
opening, the name check's rescoring, her name placed where the model heard it, the beam search and the
looks after pauses only when the decision turns on them."""
from __future__ import annotations

import math
import re
import time
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path

from ..events import RATE, TimedWord, Transcript, Utterance
from ..stt import Transcriber
from .base import WakeError, WakeMatch, WakeWord, Wording
from .decide import Decision, Evidence, Fit, Look, Need, Policy, SHIPPED, Stage, decide
from .features import OpenWakeWordMissing
from .name_model import DEFAULT_MODEL, NameModel, NameModelMissing, Sounded


WORDS = re.compile(r"[\w']+")
LEFT_OUT = 3    # a transcript this many words shorter than the plain one left speech out
PAUSES = 3      # at most this many pauses (the longest) are looked after
LEAD_S = 0.15   # what is kept of the silence before speech resumed, when cutting at a pause
# Where the name model heard her name: a window ending at `at_s` holds it when it ends up to 0.2 s before
# (the trainer's END_AFTER); said, her name lasts 0.3 to 0.7 s. Words timed within this of it are its place.
PLACE_BEFORE_S, PLACE_AFTER_S = 0.9, 0.1


def left_out(text: str, plain: str | None) -> bool:
    """Told to expect "hey glados", whisper sometimes writes just that for a whole sentence ("who
    ate the last biscuit" -> "hey glados"; without the hotword: "The last day, it's good"). Words
    are counted once each: a plain transcript stuck repeating itself ("A-g-g-g-...") says nothing."""
    return plain is not None and len(set(WORDS.findall(text.lower()))) <= len(set(WORDS.findall(plain.lower()))) - LEFT_OUT


def timed_near(timed: tuple[TimedWord, ...], at_s: float) -> list[int]:
    """The words timed where the name model heard her name (its window ending at `at_s`)."""
    lo, hi = at_s - PLACE_BEFORE_S, at_s + PLACE_AFTER_S
    return [i for i, w in enumerate(timed) if w.start_s < hi and w.end_s > lo]


def sure_there(timed: tuple[TimedWord, ...] | None, at_s: float) -> float | None:
    """How sure the recogniser was of the words it wrote where the name model heard her name (ending at
    `at_s`): their mean log-probability (0: certain), or None when it cannot say."""
    if timed is None:
        return None
    there = [timed[i].probability for i in timed_near(timed, at_s)
             if timed[i].probability is not None and any(c.isalnum() for c in timed[i].text)]
    return sum(math.log(max(p, 1e-6)) for p in there) / len(there) if there else None


def said_after(timed: tuple[TimedWord, ...] | None, at_s: float) -> bool:
    """Whether the recogniser timed a word beginning after where the name model heard her name (ending at
    `at_s`): something said after it, a request. False when it cannot say."""
    return timed is not None and any(w.start_s >= at_s and any(c.isalnum() for c in w.text) for w in timed)


def _fits(stt: Transcriber, heard: Transcript, wordings: list[Wording], first: WakeMatch | None) -> Fit | None:
    """The wording with her name that best fits the audio, and how much less likely it is than what
    the recogniser wrote (the recogniser scores both)."""
    scores = stt.rescore(heard, [heard.text.strip()] + [w.text for w in wordings]) if wordings else None
    if scores is None:
        return None
    best = max(range(len(wordings)), key=lambda i: scores[i + 1])
    # The score stays the words' own closeness (below the threshold: the name check decided).
    return Fit(WakeMatch(wordings[best].request, first.score if first else 0.0), scores[best + 1] - scores[0])


@dataclass(frozen=True)
class Verdict:
    """The gate's decision on an utterance, with the evidence it rested on (`evidence`: the whole
    utterance's; `rest`: the speech after the pause where a call began, when it did)."""
    evidence: Evidence
    decision: Decision
    rest: Evidence | None = None
    words_s: float = 0.0        # seconds: the first pass (the transcription with the hotword)
    checks_s: float = 0.0       # seconds: every stage after it, until the decision

    @property
    def match(self) -> WakeMatch | None:
        """She was called: what she was asked (None: not for her)."""
        d = self.decision
        return WakeMatch(d.request or "", d.score) if d.kind == "call" else None

    @property
    def transcript(self) -> Transcript:
        """What was heard (with the hotword): from the pause on when the call began after one."""
        return (self.rest or self.evidence).transcript


class WakeGate:
    def __init__(self, stt: Transcriber, wake: WakeWord, policy: Policy | None = None, name_model: NameModel | None = None):
        """policy: the operating point (default: the words and the second look alone)."""
        policy = policy or Policy()
        self.stt, self.wake, self.name_model = stt, wake, name_model
        self.policy = policy if policy.threshold is not None else replace(policy, threshold=wake.threshold)
        # The name model listens while whisper transcribes (its ONNX runs leave the GIL): about 0.1 s each,
        # off the path the user waits on; what it hears decides most room talk (decide asks it first).
        self._sound = ThreadPoolExecutor(1, thread_name_prefix="name-model") if name_model is not None else None
        self._plain = (ThreadPoolExecutor(1, thread_name_prefix="plain-stt")
                       if self.policy.plain_check and stt.concurrent else None)

    @classmethod
    def configured(cls, stt: Transcriber, wake: WakeWord, policy: Policy = SHIPPED,
                   name_weights: Path = DEFAULT_MODEL) -> WakeGate:
        """The gate she runs with (`policy`: another operating point, for a benchmark). The name model
        (`name_weights`: its file) is loaded whatever the phrase (it can be changed by voice) and used only
        while the phrase holds the name it knows; not at all when the policy has no floor for it."""
        model = None
        if policy.name_floor > 0 and not wake.acoustic:
            try:
                model = NameModel(name_weights)
                model.prepare()          # loaded with the gate, before the first utterance
            except (NameModelMissing, OpenWakeWordMissing) as exc:
                raise WakeError(f"the name model cannot load: {exc}") from exc
        return cls(stt, wake, policy, model)

    def judge(self, utterance: Utterance, phrase: str, in_window: bool = False,
              gather: tuple[Stage, ...] = ()) -> Verdict:
        """Whether the utterance calls her. in_window: heard in the follow-up window after her reply (the
        words are let in anyway; no second look, name checks or looks after pauses); gather: stages to
        gather whether or not the decision needs them (a benchmark sweeping the policy wants them all)."""
        t0 = time.perf_counter()
        gathering = _Gathering(self, utterance, phrase, in_window)
        words_s = time.perf_counter() - t0
        for stage in gather:
            gathering.gather(Need(stage))
        while isinstance(step := decide(gathering.evidence, self.policy), Need):
            gathering.gather(step)
        rest = None
        if step.after_s > 0:
            rest = next(look.rest for look in gathering.evidence.looks if look.at_s == step.after_s)
        return Verdict(gathering.evidence, step, rest, words_s, time.perf_counter() - t0 - words_s)

    def invented(self, text: str, plain: str | None, request: str, phrase: str) -> bool:
        """The words' call is whisper's guess: it left out words the plain transcript heard, and either
        wrote only her name (in place of a whole sentence) or left out a sentence where the plain
        transcript names someone else ("the washing machine ... hey Gladis, pass the salt" -> "hey
        glados can you pass the salt"; where the call was in the plain transcript is not known). A
        call with a request after it, and nobody else named, was heard: the plain transcript's extra
        words are then whisper's own invention ("sorry glados say it now again" against "Sorry, we
        got to go, see you in the next video")."""
        if not left_out(text, plain):
            return False
        return len(WORDS.findall(request)) <= 1 or self.wake.someone_else(plain, phrase, anywhere=True)

    def _name(self, heard: Transcript, phrase: str, first: WakeMatch | None,
              quick: bool = False, called: bool = False) -> Fit | None:
        """The wording with her name that best fits the audio, and how much less likely it is than
        what the recogniser wrote. Made from the plain transcript when there is one: it is what the
        audio sounds like, not what whisper was told to expect (wordings made from the hotword's
        transcript as well woke her for "glasses are in the top cupboard" and found no more calls)."""
        text = heard.text.strip()
        wordings = self.wake.wordings(text, phrase, quick, called) if text else []
        return _fits(self.stt, heard, wordings, first)

    def _placed(self, heard: Transcript, phrase: str, at_s: float, first: WakeMatch | None) -> Fit | None:
        """Her name in place of one or two of the words timed where the name model heard it, or put in
        between them, scored against the audio as the name check scores its wordings."""
        timed = self.stt.timings(heard) if heard.text.strip() else None
        if timed is None:
            return None
        words = [w.text for w in timed]
        near = timed_near(timed, at_s)
        # before, in place of or after each word timed there (a first word's start is often the audio's)
        spans = ({(i, i) for i in near} | {(i + 1, i + 1) for i in near} | {(i, i + 1) for i in near}
                 | {(i, i + 2) for i in near if i + 1 in near})
        wordings = {w.text: w for start, stop in sorted(spans) for w in self.wake.placed(words, start, stop, phrase)}
        return _fits(self.stt, heard, list(wordings.values()), first)

    def _opening(self, utterance: Utterance, phrase: str) -> WakeMatch | None:
        seconds = self.policy.second_look_s
        if seconds <= 0 or utterance.seconds <= seconds + 0.5:
            return None     # short: the first transcription already saw the opening as it is
        opening = Utterance(utterance.samples[: int(seconds * RATE)], utterance.start_s, utterance.start_s + seconds)
        return self.wake.best(self.stt.transcribe(opening, hotwords=phrase).text, phrase)


class _Gathering:
    """The evidence about one utterance as it is gathered: the transcriptions running beside the first
    one, and each stage's work."""

    def __init__(self, gate: WakeGate, utterance: Utterance, phrase: str, in_window: bool):
        self.gate, self.utterance, self.phrase = gate, utterance, phrase
        stt, wake = gate.stt, gate.wake
        self.plain_transcript: Transcript | None = None
        self.rests: dict[int, _Gathering] = {}
        if wake.acoustic:
            self.plain_job = self.sound_job = None
            score = wake.listen(utterance.samples)
            transcript = stt.transcribe(utterance, hotwords=wake.phrase)
            where = wake.best(transcript.text.strip(), wake.phrase) if transcript.text.strip() else None
            request = where.request if where is not None and where.score >= 0.5 else transcript.text.strip()
            self.evidence = Evidence(transcript, WakeMatch(request, score), in_window, acoustic=True)
            return
        model = gate.name_model if gate.name_model is not None and NameModel.knows(phrase) else None
        self.sound_job: Future[Sounded] | None = (gate._sound.submit(model.hear, utterance.samples)
                                                  if model is not None and gate._sound is not None else None)
        self.plain_job: Future[Transcript | None] | None = gate._plain.submit(self._plain_unless_floored) if gate._plain else None
        transcript = stt.transcribe(utterance, hotwords=phrase)
        text = transcript.text.strip()
        self.evidence = Evidence(transcript, wake.best(text, phrase) if text else None, in_window)

    def gather(self, need: Need) -> None:
        ev = self.evidence
        if need.pause is not None:
            looks = list(ev.looks)
            if need.what == "look":
                looks[need.pause] = self._look(looks[need.pause])
            elif need.what == "words":
                self.rests[need.pause] = _Gathering(self.gate, self._rest(looks[need.pause]), self.phrase, in_window=False)
                looks[need.pause] = replace(looks[need.pause], rest=self.rests[need.pause].evidence)
            else:
                rest = self.rests[need.pause]
                rest.gather(Need(need.what))
                looks[need.pause] = replace(looks[need.pause], rest=rest.evidence)
            self.evidence = replace(ev, looks=tuple(looks))
            return
        if ev.has(need.what):
            return
        fields = getattr(self, "_" + need.what)()      # a stage may gather the plain transcript it stands on first
        self.evidence = self.evidence.with_stage(need.what, **fields)

    # -- the stages: each returns the fields it fills ---------------------------------------------
    def _opening(self) -> dict:
        return {"opening": self.gate._opening(self.utterance, self.phrase) if self.evidence.text else None}

    def _plain_unless_floored(self) -> Transcript | None:
        """The plain transcription, begun beside the first one once the name model has heard enough of her
        name for any call to pass its floor (else decide needs no more: one transcription)."""
        floor = self.gate.policy.name_floor
        if self.sound_job is not None and floor > 0 and self.sound_job.result().score < floor:
            return None
        return self.gate.stt.transcribe(self.utterance)

    def _plain(self) -> dict:
        ev, gate = self.evidence, self.gate
        if self.plain_job is not None:
            self.plain_transcript = self.plain_job.result()
        if self.plain_transcript is None and gate.policy.plain_check:
            self.plain_transcript = gate.stt.transcribe(self.utterance)
        plain = self.plain_transcript.text.strip() if self.plain_transcript is not None else None
        # The left-out rule judges the words' own call; a call the second look found is in the part the
        # first transcription dropped, so that one is shorter than the plain one by design.
        return {"plain": plain,
                "someone_else": plain is not None and gate.wake.someone_else(plain, self.phrase),
                "invented": ev.first is not None and gate.invented(ev.text, plain, ev.first.request, self.phrase)}

    def _sound(self) -> dict:
        return {"sound": self.sound_job.result() if self.sound_job is not None else None}

    def _heard(self) -> Transcript:
        """The transcript her name is tried in: the plain one (what the audio sounds like) when the plain
        check runs, else the hotword's."""
        self.gather(Need("plain"))
        return self.plain_transcript or self.evidence.transcript

    def _named(self) -> dict:
        ev, policy = self.evidence, self.gate.policy
        called = ev.first is not None and ev.first.score >= policy.threshold
        return {"named": self.gate._name(self._heard(), self.phrase, ev.first, called=called)}

    def _elsewhere(self) -> dict:
        self.gather(Need("plain"))
        return {"elsewhere": self.gate.wake.someone_else(self.evidence.plain or self.evidence.text, self.phrase, anywhere=True)}

    def _placed(self) -> dict:
        self.gather(Need("sound"))
        sound = self.evidence.sound
        placing = self._heard()
        return {"placed": self.gate._placed(placing, self.phrase, sound.at_s, self.evidence.first) if sound else None}

    def _alone(self) -> dict:
        self.gather(Need("sound"))
        stt, at_s = self.gate.stt, self.evidence.sound.at_s
        placing = self._heard()
        timed = stt.timings(placing)
        return {"unsure": sure_there(timed, at_s),
                "said_after": said_after(timed, at_s) or said_after(stt.timings(self.evidence.transcript), at_s),
                "near_miss": self.gate.wake.near_miss(placing.text, self.phrase)}

    def _beam(self) -> dict:
        gate = self.gate
        self.gather(Need("plain"))
        wider = gate.stt.transcribe_wider(self.utterance, hotwords=self.phrase, beam_size=gate.policy.beam_look)
        said = wider.text.strip() if wider is not None else ""
        found = gate.wake.best(said, self.phrase) if said else None
        return {"beam": found,
                "beam_invented": found is not None and gate.invented(said, self.evidence.plain, found.request, self.phrase)}

    def _pauses(self) -> dict:
        """The longest few pauses (`pause_look_s` or longer, not at the very end), in time order, each with
        where the speech after it is cut (keeping a little of the silence before it resumed)."""
        u, policy = self.utterance, self.gate.policy
        pauses = sorted((p for p in u.pauses if p.silence_s >= policy.pause_look_s and p.at_s < u.seconds - 0.3),
                        key=lambda p: -p.silence_s)[:PAUSES]
        cuts = (int(max(0.0, p.at_s - min(LEAD_S, p.silence_s / 2)) * RATE) for p in sorted(pauses, key=lambda p: p.at_s))
        return {"looks": tuple(Look(cut) for cut in cuts)}

    def _rest(self, look: Look) -> Utterance:
        u = self.utterance
        # no pauses: heard once, not again after each
        return Utterance(u.samples[look.cut:], u.start_s + look.at_s, u.end_s, u.speech_end_s)

    def _look(self, look: Look) -> Look:
        """The speech after a pause: its first `second_look_s` heard with the hotword (one short
        transcription), and the quick name check on it when the words hold no call."""
        gate, policy = self.gate, self.gate.policy
        rest = self._rest(look)
        opening = rest.samples[: int((policy.second_look_s or 2.0) * RATE)]
        heard = gate.stt.transcribe(Utterance(opening, rest.start_s, rest.start_s + len(opening) / RATE), hotwords=self.phrase)
        text = heard.text.strip()
        found = gate.wake.best(text, self.phrase) if text else None
        call = found.score if found is not None else 0.0
        named = None
        if text and call < policy.threshold and policy.name_check > 0:
            fit = gate._name(heard, self.phrase, None, quick=True)
            named = fit.margin if fit is not None else None
        return replace(look, looked=True, call=call, named=named)
