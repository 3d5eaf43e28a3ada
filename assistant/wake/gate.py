"""Is it for her? One decision per utterance: transcribe (with the wake phrase as a hotword), look
for the phrase, and when it is missing from a long utterance, transcribe its opening again (whisper
sometimes drops a leading "Hey GLaDOS" from a long one).

The hotword makes whisper write "glados" for "Gladys" and "Gladis" too. So the utterance is also
transcribed without it (the plain check, at the same time when the recogniser allows), and a call
whose plain transcript names someone else where her name would be is not for her.

When no call is found in the words, whisper may still have heard her name and written a word it
knows better ("Waddles, I live in Bristol"). The name check asks the recogniser how well the same
audio fits the transcript with her name in place of the opening or closing words; a wording nearly
as likely as what it wrote (within `name_check` nats) is a call.

In a room, one person's sentence and another's call often reach her as one utterance ("the kettle's
on ... hey GLaDOS, what time is it?"): the call is then mid-transcript, or whisper drops it. So the
speech after each pause inside the utterance (`pause_look_s` or longer, the longest few) is heard
again with the hotword; where it opens with a call (in the words, or her name fits in place of its
first words: a call without a greeting is the one whisper mishears most), the rest of the utterance
from there goes through the whole gate as an utterance of its own.

The name model (wake/name_model.py) listens to the sound beside whisper: it vetoes a call whose name
does not sound like hers, keeps one the plain check took for "Gladys" when it is sure, and, sure and
with no call in the words, has her name tried where it heard it and the utterance heard again with
a beam search (whisper's greedy reading can leave her name at its first turn). Last, all but certain
of her name in the opening of speech whisper could not make out, with words after it (a request), the
model calls her by itself."""
from __future__ import annotations

import math
import re
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path

from ..events import RATE, TimedWord, Transcript, Utterance
from ..stt import Transcriber
from .base import WakeError, WakeMatch, WakeWord, Wording
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


def _fits(stt: Transcriber, heard: Transcript, wordings: list[Wording],
          first: WakeMatch | None) -> tuple[WakeMatch | None, float | None]:
    """The wording with her name that best fits the audio, and how much less likely it is than what
    the recogniser wrote (the recogniser scores both)."""
    scores = stt.rescore(heard, [heard.text.strip()] + [w.text for w in wordings]) if wordings else None
    if scores is None:
        return None, None
    best = max(range(len(wordings)), key=lambda i: scores[i + 1])
    # The score stays the words' own closeness (below the threshold: the name check decided).
    return WakeMatch(wordings[best].request, first.score if first else 0.0), scores[best + 1] - scores[0]


@dataclass(frozen=True)
class Heard:
    transcript: Transcript
    match: WakeMatch | None            # she was called (at the threshold); None: not for her
    first: WakeMatch | None = None     # the closest call in the transcript, whatever the threshold
    opening: WakeMatch | None = None   # the same in the opening heard again, when it was
    plain: str | None = None           # heard without the hotword (the plain check), when it ran
    vetoed: bool = False               # called, but the plain transcript named someone else, the call was whisper's
                                       # guess (WakeGate.invented), or the name model did not hear her name (sounded)
    named: float | None = None         # the name check: log-probability of the best wording with her name
                                       # minus that of what was heard (0: as likely), when it ran
    after_s: float = 0.0               # the call began after a pause this far into the utterance (0: at its start);
                                       # transcript and request are then those of the rest from there
    sounded: float | None = None       # the name model: how surely the audio holds her name (0-1), when it ran
    placed: float | None = None        # her name where the name model heard it, in place of or before the words
                                       # timed there: the best such wording's log-probability minus what was heard
    alone: bool = False                # the call rests on the name model: all but sure of her name in the opening,
                                       # where whisper was unsure of what it heard and no check found a call (_alone)


class WakeGate:
    def __init__(self, stt: Transcriber, wake: WakeWord, second_look_s: float = 2.0, plain_check: bool = True,
                 name_check: float = 0.0, pause_look_s: float = 0.0, name_model: NameModel | None = None,
                 name_floor: float = 0.0, name_sure: float = 1.0, name_place: float = 0.0, beam_look: int = 0,
                 name_alone: float = 1.0, name_alone_unsure: float = 0.0):
        self.stt, self.wake, self.second_look_s, self.plain_check = stt, wake, second_look_s, plain_check
        self.name_check, self.pause_look_s = name_check, pause_look_s
        self.name_model, self.name_floor, self.name_sure, self.name_place = name_model, name_floor, name_sure, name_place
        self.beam_look, self.name_alone, self.name_alone_unsure = beam_look, name_alone, name_alone_unsure
        # The name model listens while whisper transcribes (its ONNX runs leave the GIL): about 0.1 s each,
        # off the path the user waits on. Most of it is wasted on utterances nobody called her in.
        self._sound = ThreadPoolExecutor(1, thread_name_prefix="name-model") if name_model is not None else None
        self._plain = ThreadPoolExecutor(1, thread_name_prefix="plain-stt") if plain_check and stt.concurrent else None

    @classmethod
    def configured(cls, stt: Transcriber, wake: WakeWord, config, name_weights: Path = DEFAULT_MODEL) -> WakeGate:
        """The gate as `voice.wake` in config.yaml describes it (config: a WakeConfig). The name model
        (`name_weights`: its file) is loaded whatever the phrase (it can be changed by voice) and used only
        while the phrase holds the name it knows."""
        model = None
        if config.name_model > 0 and not wake.acoustic:
            try:
                model = NameModel(name_weights)
            except (NameModelMissing, OpenWakeWordMissing) as exc:
                raise WakeError(f"the name model cannot load ({exc}); run the setup again, or set "
                                "voice.wake.name_model: 0 to go without it") from exc
        return cls(stt, wake, config.second_look_s, config.plain_check, config.name_check, config.pause_look_s,
                   model, config.name_model, config.name_model_sure, config.name_place, config.beam_look,
                   config.name_alone, config.name_alone_unsure)

    def hear(self, utterance: Utterance, phrase: str, look_again: bool = True, always: bool = False) -> Heard:
        """look_again: take the second look and the name check when the phrase is missing (not
        needed in the follow-up window); always: take them and the plain check anyway (a benchmark
        sweeping thresholds wants every score)."""
        if self.wake.acoustic:
            return self._hear_acoustic(utterance)
        plain: Future | None = self._plain.submit(self.stt.transcribe, utterance) if self._plain else None
        model = self.name_model if self.name_model is not None and NameModel.knows(phrase) else None
        listening: Future[Sounded] | None = (self._sound.submit(model.hear, utterance.samples)
                                    if model is not None and self._sound is not None else None)
        transcript = self.stt.transcribe(utterance, hotwords=phrase)
        text = transcript.text.strip()
        first = self.wake.best(text, phrase) if text else None
        called = first is not None and first.score >= self.wake.threshold     # the words heard a call
        match = first if called else None
        opening = None
        if text and (always or (match is None and look_again)):
            opening = self._opening(utterance, phrase)
            if match is None and look_again and opening is not None and opening.score >= self.wake.threshold:
                match = WakeMatch(request=text, score=opening.score)    # the whole transcript is the request
        plain_transcript = None
        if plain is not None:
            plain_transcript = plain.result()
        elif self.plain_check and (match is not None or always):
            plain_transcript = self.stt.transcribe(utterance)
        heard_plain = plain_transcript.text.strip() if plain_transcript is not None else None
        someone_else = heard_plain is not None and self.wake.someone_else(heard_plain, phrase)
        # The name model listens for her name itself. Said as most people say it, "GLAD-oss", her name is
        # written "Gladys" without the hotword: a call the words found stands against the plain check when
        # the model is sure of her name (name_sure; 1: never, a score can round to 1.0); below name_floor, no
        # call is hers.
        sounded = None
        if listening is not None and (always or (called and someone_else and self.name_sure < 1)):
            sounded = listening.result().score
            someone_else = someone_else and not (called and self.name_sure < 1 and sounded >= self.name_sure)
        # The left-out rule judges the words' own call; a call the second look found is in the part the
        # first transcription dropped, so that one is shorter than the plain one by design.
        invented = called and self.invented(text, heard_plain, first.request, phrase)
        vetoed = match is not None and (someone_else or invented)
        named = None
        if ((match is None and look_again) or always) and not someone_else and (self.name_check > 0 or always):
            found, named = self._name(plain_transcript or transcript, phrase, first, called=called)
            if match is None and found is not None and self.name_check > 0 and named >= -self.name_check:
                match = found
        # The name model sure of her name, the words holding no call: whisper may have written something else
        # for it anywhere ("Right then Guado, let's begin"), or nothing ("I'm learning Spanish"). Her name is
        # tried where the model heard it (name_place: two signals agree, so a looser margin than the name check's).
        placed = None
        lone: WakeMatch | None = None
        nobody_else: bool | None = None      # no one else named anywhere in the plain transcript (asked once, when needed)
        if (((match is None and look_again) or always) and listening is not None and (self.name_place > 0 or always)
                and self.name_sure < 1):
            sound = listening.result()
            sounded = sound.score
            # the model's verdict first: the plain transcript is looked through for other names only when it is sure
            if sounded >= self.name_sure or always:
                nobody_else = not self.wake.someone_else(heard_plain or text, phrase, anywhere=True)
            if nobody_else:
                placing = plain_transcript or transcript
                found, placed = self._placed(placing, phrase, sound.at_s, first)
                if (match is None and look_again and found is not None and sounded >= self.name_sure
                        and self.name_place > 0 and placed >= -self.name_place):
                    match = found
                elif match is None and look_again and found is not None and self._alone(sound, placing, phrase, transcript):
                    lone = found        # a call on the model's word, unless the beam look below hears the words
        # Still no call, the model sure of her name: greedy decoding can leave her name at its first turn ("I move
        # to man" for "Glados, I've moved to Bath"); a beam search (beam_look readings at once) writes it more often.
        # One more transcription, about as long as the first, only on this rare path.
        if match is None and look_again and self.beam_look > 1 and listening is not None and self.name_sure < 1:
            sounded = listening.result().score
            if sounded >= self.name_sure and text:
                if nobody_else is None:
                    nobody_else = not self.wake.someone_else(heard_plain or text, phrase, anywhere=True)
                wider = self.stt.transcribe_wider(utterance, hotwords=phrase, beam_size=self.beam_look) if nobody_else else None
                said = wider.text.strip() if wider is not None else ""
                found = self.wake.best(said, phrase) if said else None
                if (found is not None and found.score >= self.wake.threshold
                        and not self.invented(said, heard_plain, found.request, phrase)):
                    match = found
        alone = match is None and lone is not None
        if alone:
            match = lone
        if listening is not None and sounded is None and match is not None:
            sounded = listening.result().score
        vetoed = vetoed or (match is not None and sounded is not None and sounded < self.name_floor)
        heard = Heard(transcript, None if vetoed else match, first, opening, heard_plain, vetoed, named,
                      sounded=sounded, placed=placed, alone=alone)
        if heard.match is None and look_again and self.pause_look_s > 0:
            return self._after_pauses(utterance, phrase) or heard
        return heard

    def _alone(self, sound: Sounded, plain: Transcript, phrase: str, heard: Transcript) -> bool:
        """Whether the name model may call her by itself: all but certain of her name (name_alone), heard in
        the opening (`second_look_s`: a call's name comes first or after a greeting), whisper unsure of the
        words it wrote where the model heard her name (their mean log-probability below -name_alone_unsure:
        "You are going" for an espeak-ng "Glados, forget that"), a word timed after that place in either
        transcript (the request: a call on the model's word carries one), and writing no word that sounds
        like her name ("glad", "Gladys"). Speech whisper heard clearly there is trusted over the model: real
        voices make the model all but certain of a name nobody said ("He was not an ill-disposed young man",
        0.9994 at 1.16 s, whisper sure of "He was not an": bench/wake_real.py); and a sentence ending in a
        word like her name is not a call ("Agent logged off", a telephone prompt heard "Agent-log-dov.": the
        model 1.0 at its last word).
        `plain`: the transcript her name was placed in (without the hotword, or with it when there is none);
        `heard`: the one with the hotword (whisper, told to expect her name, sometimes writes more after it)."""
        if self.name_alone >= 1 or sound.score < self.name_alone or sound.at_s > (self.second_look_s or 2.0):
            return False
        timed = self.stt.timings(plain)
        there = sure_there(timed, sound.at_s)
        return (there is not None and there < -self.name_alone_unsure
                and (said_after(timed, sound.at_s) or said_after(self.stt.timings(heard), sound.at_s))
                and not self.wake.near_miss(plain.text, phrase))

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

    def _after_pauses(self, utterance: Utterance, phrase: str) -> Heard | None:
        """A call that begins after a pause: the speech after each of the longest pauses is heard
        with the hotword (its first `second_look_s`, one short transcription each); where that opens
        with her name, the rest of the utterance is heard whole, with every check, as one of its own,
        and what was heard without the hotword must pass the name check too."""
        pauses = sorted((p for p in utterance.pauses if p.silence_s >= self.pause_look_s and p.at_s < utterance.seconds - 0.3),
                        key=lambda p: -p.silence_s)[:PAUSES]
        for pause in sorted(pauses, key=lambda p: p.at_s):
            cut = int(max(0.0, pause.at_s - min(LEAD_S, pause.silence_s / 2)) * RATE)
            rest = Utterance(utterance.samples[cut:], utterance.start_s + cut / RATE, utterance.end_s,
                             utterance.speech_end_s)           # no pauses: heard once, not again after each
            look = rest.samples[: int((self.second_look_s or 2.0) * RATE)]
            opening = self.stt.transcribe(Utterance(look, rest.start_s, rest.start_s + len(look) / RATE), hotwords=phrase)
            if not self._opens_with_call(opening, phrase):
                continue
            heard = self.hear(rest, phrase, always=self.name_check > 0)
            # Short speech heard with the hotword comes back as "hey glados" more readily ("set an alarm",
            # after "hey Siri"): the call must also pass the name check on what was heard without it.
            named = heard.named if heard.named is not None else float("-inf")
            if heard.match is not None and (self.name_check <= 0 or named >= -self.name_check):
                return replace(heard, after_s=cut / RATE)
        return None

    def _opens_with_call(self, look: Transcript, phrase: str) -> bool:
        """Whether the speech after a pause may open with a call: her name in the words, or, with
        the name check on, in place of its first words nearly as likely as what was heard ("the
        kettle's on ... Waddles, what time is it?": a call without a greeting is often misheard)."""
        text = look.text.strip()
        if not text:
            return False
        if self.wake.match(text, phrase) is not None:
            return True
        if self.name_check <= 0:
            return False
        _, named = self._name(look, phrase, None, quick=True)
        return named is not None and named >= -self.name_check

    def _name(self, heard: Transcript, phrase: str, first: WakeMatch | None,
              quick: bool = False, called: bool = False) -> tuple[WakeMatch | None, float | None]:
        """The wording with her name that best fits the audio, and how much less likely it is than
        what the recogniser wrote. Made from the plain transcript when there is one: it is what the
        audio sounds like, not what whisper was told to expect (wordings made from the hotword's
        transcript as well woke her for "glasses are in the top cupboard" and found no more calls)."""
        text = heard.text.strip()
        wordings = self.wake.wordings(text, phrase, quick, called) if text else []
        return _fits(self.stt, heard, wordings, first)

    def _placed(self, heard: Transcript, phrase: str, at_s: float,
                first: WakeMatch | None) -> tuple[WakeMatch | None, float | None]:
        """Her name in place of one or two of the words timed where the name model heard it, or put in
        between them, scored against the audio as the name check scores its wordings."""
        timed = self.stt.timings(heard) if heard.text.strip() else None
        if timed is None:
            return None, None
        words = [w.text for w in timed]
        near = timed_near(timed, at_s)
        # before, in place of or after each word timed there (a first word's start is often the audio's)
        spans = ({(i, i) for i in near} | {(i + 1, i + 1) for i in near} | {(i, i + 1) for i in near}
                 | {(i, i + 2) for i in near if i + 1 in near})
        wordings = {w.text: w for start, stop in sorted(spans) for w in self.wake.placed(words, start, stop, phrase)}
        return _fits(self.stt, heard, list(wordings.values()), first)

    def _hear_acoustic(self, utterance: Utterance) -> Heard:
        """The engine hears the phrase in the audio; the words after it are the request."""
        score = self.wake.listen(utterance.samples)
        transcript = self.stt.transcribe(utterance, hotwords=self.wake.phrase)
        text = transcript.text.strip()
        where = self.wake.best(text, self.wake.phrase) if text else None
        heard = WakeMatch(where.request if where is not None and where.score >= 0.5 else text, score)
        return Heard(transcript, heard if score >= self.wake.threshold else None, heard)

    def _opening(self, utterance: Utterance, phrase: str) -> WakeMatch | None:
        if self.second_look_s <= 0 or utterance.seconds <= self.second_look_s + 0.5:
            return None     # short: the first transcription already saw the opening as it is
        opening = Utterance(utterance.samples[: int(self.second_look_s * RATE)], utterance.start_s,
                            utterance.start_s + self.second_look_s)
        return self.wake.best(self.stt.transcribe(opening, hotwords=phrase).text, phrase)
