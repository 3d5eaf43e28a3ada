"""The voice loop: frames -> VAD -> utterance -> STT -> wake gate -> brain -> sentences -> TTS -> sink.

Time is the input's own timeline (samples read), for a microphone and a WAV file alike: while
she speaks, the loop keeps reading input for as long as the speech lasts. With barge-in on, speech
heard then stops her and what she had said so far is what gets stored; with it off, that input is
ignored, so she does not hear herself.
"""
from __future__ import annotations

import time
from collections import deque
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from enum import Enum
from typing import Callable, Iterator

import numpy as np

from ..audio import AudioSink, AudioSource
from ..config import VoiceConfig
from ..events import RATE, Speech, Utterance
from ..stt import Transcriber
from ..tts import SentenceChunker, Synthesizer
from ..turn.brain import Brain, Interrupted
from ..wake import Verdict, WakeGate, WakeWord
from .vad import Segmenter
from .who import Voice, Who


LISTENING_AFTER_S = 1.0    # input after a reply before "[listening]" is shown again (unless speech starts)


class State(str, Enum):
    """What the loop is doing, for the terminal."""
    LISTENING = "listening"
    HEARD = "heard"
    FOLLOW_UP = "heard (follow-up)"        # heard without the wake word, in the window after her reply
    IGNORED = "ignored"                    # heard, not for her: the detail says why
    THINKING = "thinking"
    SPEAKING = "speaking"
    INTERRUPTED = "interrupted"            # talked over (barge-in): the detail is what she got to say
    TIMINGS = "timings"
    UNHEARD = "ignored while speaking"     # barge-in off: said while she spoke
    VOICE = "voice"                        # whose voice, when it changes (speakers enrolled)
    UNKNOWN_VOICE = "unknown voice: nothing remembered"


@dataclass(frozen=True)
class Shown:
    """One state change: the state, what it is about (a transcript, a sentence), and why (for IGNORED)."""
    state: State
    detail: str = ""
    why: str = ""


Show = Callable[[Shown], None]


@dataclass
class TurnTimings:
    """Seconds per stage for one turn, as printed and benchmarked."""
    end_of_speech: float = 0.0              # measured: last voiced frame to the utterance's end
    stt: float = 0.0                        # waited for the transcription, after the end silence
    gate: float = 0.0                       # ... and for the wake gate's checks after it
    memory: float = 0.0
    first_token: float | None = None
    first_sentence_tts: float | None = None
    first_audio: float | None = None        # from end of speech detected to first audio out

    def line(self) -> str:
        parts = [f"end-of-speech {self.end_of_speech:.2f}s", f"stt {self.stt:.2f}s", f"gate {self.gate:.2f}s",
                 f"memory {self.memory * 1000:.0f}ms"]
        for name, value in (("first token", self.first_token), ("first sentence tts", self.first_sentence_tts),
                            ("first audio", self.first_audio)):
            if value is not None:
                parts.append(f"{name} {value:.2f}s")
        return " | ".join(parts)


@dataclass
class VoiceStats:
    heard: list[str] = field(default_factory=list)
    ignored: list[str] = field(default_factory=list)
    ignored_while_speaking: list[str] = field(default_factory=list)
    follow_ups: list[str] = field(default_factory=list)     # let in by the follow-up window, no wake word
    replies: list[str] = field(default_factory=list)
    interrupted: int = 0
    timings: list[TurnTimings] = field(default_factory=list)
    voices: list[str | None] = field(default_factory=list)   # whose turn each reply answered (speakers enrolled)


class Mouth:
    """Speaks a streamed reply sentence by sentence, while the input keeps being read."""

    def __init__(self, loop: "VoiceLoop", t_detected: float, timings: TurnTimings):
        self.loop, self.t_detected, self.timings = loop, t_detected, timings
        self.chunker = SentenceChunker(streaming=loop.config.stream_sentences)
        self.spoken: list[str] = []
        self.playing: Speech | None = None
        self.play_started_s = 0.0

    def feed(self, text: str) -> None:
        for sentence in self.chunker.feed(text):
            self.say(sentence)

    def finish(self) -> None:
        for sentence in self.chunker.flush():
            self.say(sentence)
        self.wait()
        if not self.loop.config.barge_in:
            self.loop.segmenter.reset()     # what was half said over her end is not the next request

    def say(self, sentence: str) -> None:
        t0 = time.perf_counter()
        speech = self.loop.tts.synthesize(sentence)
        if self.timings.first_sentence_tts is None:
            self.timings.first_sentence_tts = time.perf_counter() - t0
        self.wait()
        self.loop.source_catch_up()
        self.loop.sink.start(speech)
        if self.timings.first_audio is None:
            self.timings.first_audio = time.perf_counter() - self.t_detected
        self.loop.show(Shown(State.SPEAKING, sentence))       # each sentence as she starts it: the whole reply
        self.playing, self.play_started_s = speech, self.loop.segmenter.time_s

    def wait(self) -> None:
        """Read input for as long as the current sentence plays; stop her if she is talked over."""
        if self.playing is None:
            return
        end = self.play_started_s + self.playing.seconds
        loop = self.loop
        while loop.segmenter.time_s < end:
            frame = loop.next_frame()
            if frame is None:
                break          # input is over; the rest of the reply plays out
            utterance = loop.segmenter.feed(frame)
            if not loop.config.barge_in:
                if utterance is not None:      # heard, not answered: shown after her reply
                    loop.unheard.append(utterance)
                continue
            if utterance is not None:
                loop.pending.append(utterance)
            if loop.segmenter.speaking:
                self._barge_in()
        self.spoken.append(self.playing.text)
        self.playing = None

    def _barge_in(self) -> None:
        assert self.playing is not None
        played = max(0.0, self.loop.segmenter.time_s - self.play_started_s)
        self.loop.sink.stop(played)
        words = self.playing.text.split()
        heard = words[: int(len(words) * min(1.0, played / max(self.playing.seconds, 1e-6)))]
        spoken = " ".join(self.spoken + ([" ".join(heard)] if heard else []))
        self.playing = None
        self.loop.stats.interrupted += 1
        self.loop.show(Shown(State.INTERRUPTED, spoken))
        raise Interrupted(spoken)


class VoiceLoop:
    def __init__(self, source: AudioSource, sink: AudioSink, segmenter: Segmenter, stt: Transcriber,
                 wake: WakeWord, tts: Synthesizer, brain: Brain, config: VoiceConfig, show: Show | None = None,
                 wake_phrase: Callable[[], str] | None = None, who: Who | None = None):
        """wake_phrase: the phrase to listen for now (the user may change it by voice); default the
        configured one. who: the household's voices (None: every utterance is `brain`'s user's)."""
        self.source, self.sink, self.segmenter = source, sink, segmenter
        self.stt, self.wake, self.tts, self.brain, self.config = stt, wake, tts, brain, config
        self.show = show or (lambda shown: None)
        self.frames: Iterator[np.ndarray] = source.frames()
        self.pending: deque[Utterance] = deque()
        self.unheard: list[Utterance] = []     # said while she spoke, barge-in off
        self.follow_up_until = float("-inf")
        self._announce: float | None = None    # input time from which "[listening]" is due again
        self.stats = VoiceStats()
        self.gate = WakeGate.configured(stt, wake)
        self.wake_phrase = wake_phrase or (lambda: config.wake.phrase)
        # Early transcription: the gate runs on the utterance so far once a pause begins, in a
        # thread of its own, while the rest of the end-of-speech silence is heard (Segmenter.early_utterance).
        self._ahead = ThreadPoolExecutor(1, thread_name_prefix="early-stt") if segmenter.opt.early_s else None
        self._early: tuple[Utterance, Future] | None = None
        self.who = who
        self.voice: Voice | None = None        # whose exchange the last reply belonged to

    # -- input ----------------------------------------------------------------------------------
    def next_frame(self) -> np.ndarray | None:
        return next(self.frames, None)

    def _listening(self) -> None:
        if self._announce is not None and (self.segmenter.speaking or self.pending
                                           or self.segmenter.time_s - self._announce >= LISTENING_AFTER_S):
            self._announce = None
            self.show(Shown(State.LISTENING))

    def source_catch_up(self) -> None:
        """A live microphone kept recording while she thought: skip that backlog before she speaks."""
        skipped = self.source.catch_up()
        for _ in range(skipped):
            self.segmenter.skip(None)

    def next_utterance(self) -> Utterance | None:
        if self.pending:
            self._listening()
            return self.pending.popleft()
        self.segmenter.early_utterance()          # one begun while she spoke is not listened to
        while (frame := self.next_frame()) is not None:
            self._listening()
            utterance = self.segmenter.feed(frame)
            if utterance is not None:
                return utterance
            if self._ahead is not None and (early := self.segmenter.early_utterance()) is not None:
                self._early = (early, self._ahead.submit(self._judge_early, early, self.wake_phrase(),
                                                         self._in_window(early)))
        return self.segmenter.flush()

    def _judge_early(self, utterance: Utterance, phrase: str, in_window: bool) -> tuple[Verdict, Future | None]:
        """The gate's decision on the utterance so far, and whose voice it is begun beside the rest of the
        end silence: only for a call or in the follow-up window, so room talk costs one transcription."""
        heard = self.gate.judge(utterance, phrase, in_window)
        return heard, self._listen(utterance.samples, heard, in_window)

    def _listen(self, samples: np.ndarray, heard: Verdict, in_window: bool) -> Future | None:
        """Whose voice (the household's embedding, about 0.1 s of one core), for an utterance she will answer."""
        if self.who is None or (heard.match is None and not in_window):
            return None
        return self.who.listen(samples)

    def _in_window(self, utterance: Utterance) -> bool:
        return utterance.start_s <= self.follow_up_until

    def _heard(self, utterance: Utterance, phrase: str, in_window: bool) -> tuple[Verdict, float, Future | None]:
        """The gate's decision, how long the loop waited for it (all of it: both transcriptions and every
        check, or what was left of it when it had begun early; an early start counts only when nothing was
        said after it), and whose voice, being worked out when she will answer."""
        early, self._early = self._early, None
        waiting = time.perf_counter()
        if early is not None and _same(early[0], utterance):
            heard, listening = early[1].result()
        else:
            heard = self.gate.judge(utterance, phrase, in_window)
            listening = self._listen(utterance.samples, heard, in_window)
        return heard, time.perf_counter() - waiting, listening

    # -- the loop -------------------------------------------------------------------------------
    def run(self) -> VoiceStats:
        self.source_catch_up()    # what a live microphone recorded while the models loaded is not a request
        self.show(Shown(State.LISTENING))
        while (utterance := self.next_utterance()) is not None:
            self.handle(utterance)
            # "[listening]" again once speech starts or a moment of input has passed: not for the last
            # instant of a file's trailing silence
            self._announce = self.segmenter.time_s
        self.sink.finish()
        self.end_sessions()
        return self.stats

    def end_sessions(self) -> None:
        """Each person's session summarised into their own memory (an unknown voice's is not: nothing is kept)."""
        for brain in [self.brain] + (self.who.brains() if self.who is not None else []):
            brain.end_session()
        if self.who is not None:
            self.who.close()

    def _listen_for(self, seconds: float) -> Utterance | None:
        """The next utterance, if one starts within `seconds` of input time."""
        if self.pending:
            return self.pending.popleft()
        deadline = self.segmenter.time_s + seconds
        while self.segmenter.speaking or self.segmenter.time_s < deadline:
            frame = self.next_frame()
            if frame is None:
                return self.segmenter.flush()
            utterance = self.segmenter.feed(frame)
            if utterance is not None:
                return utterance
        return None

    def handle(self, utterance: Utterance) -> None:
        t_detected = time.perf_counter()
        phrase = self.wake_phrase()
        in_window = self._in_window(utterance)
        heard, waited, listening = self._heard(utterance, phrase, in_window)
        transcript, match = heard.transcript, heard.match
        text = transcript.text.strip()
        if not text:          # speech with no words made out (a cough, a visitor far off): said, not dropped unseen
            self.show(Shown(State.IGNORED, "", "no words I could make out"))
            return
        if match is None and not in_window:
            self.stats.ignored.append(text)
            self.show(Shown(State.IGNORED, text, why_ignored(heard)))
            return
        follow_up = match is None       # let in by the window after her reply, not by her name
        request = match.request if match is not None else text
        # what the user waited for: the gate's whole decision, or what was left of an early one (its checks
        # come after its transcription, so they are the first part of it to be left)
        gate_s = min(waited, heard.checks_s)
        stt_s, end_of_speech_s = waited - gate_s, utterance.end_of_speech_s
        samples = utterance.samples
        # Called by name alone: the request usually follows after a breath. Listen for it
        # before answering, so her "yes?" never talks over it.
        follow = self._listen_for(self.config.wake_pause_s) if match is not None and not request else None
        if follow is not None:
            samples = np.concatenate([utterance.samples, follow.samples])
            listening = self.who.listen(samples) if self.who is not None else None
            t_detected = time.perf_counter()
            request, stt_s = self._request_in(follow, phrase)
            gate_s, end_of_speech_s = 0.0, follow.end_of_speech_s
        self.stats.heard.append(request)
        if follow_up:
            self.stats.follow_ups.append(request)
        self.show(Shown(State.FOLLOW_UP if follow_up else State.HEARD, request))
        brain, voice, line = self._whose(listening, samples, request, in_window)
        timings = TurnTimings(end_of_speech=end_of_speech_s, stt=stt_s, gate=gate_s)
        mouth = Mouth(self, t_detected, timings)
        brain.stats.timings = {}
        if line is not None or not request:
            reply_text = line if line is not None else brain.config.persona.lines.called
            self._speak_line(mouth, reply_text)
        else:
            self.show(Shown(State.THINKING))
            reply_text = brain.turn(request, on_text=mouth.feed, on_end=mouth.finish).text
        self._show_unheard(phrase)
        timings.memory = brain.stats.timings.get("memory_s", 0.0)
        timings.first_token = brain.stats.timings.get("first_token_s")
        self.stats.replies.append(reply_text)
        self.stats.timings.append(timings)
        self.sink.end_reply()
        enrolling = self.who is not None and self.who.enrolling is not None     # the newcomer needs no wake word
        self.follow_up_until = self._window(follow_up and not enrolling, reply_text)
        if voice is not None:
            self.voice = voice
            self.stats.voices.append(voice.user)
        self.show(Shown(State.TIMINGS, timings.line()))

    def _whose(self, listening: Future | None, samples: np.ndarray, request: str, in_window: bool
               ) -> tuple[Brain, Voice | None, str | None]:
        """Whose voice it is (when voices are told apart): the brain that answers, the voice, and a line of hers
        that answers instead (an enrolment's step, say); the loop's own brain and no voice otherwise."""
        if self.who is None or listening is None:
            return self.brain, None, None
        voice = self.who.decide(listening, len(samples) / RATE, self.voice if in_window else None)
        self._show_voice(voice)
        said = self.who.intercept(request, voice, samples) if request else None
        line = None
        if said is not None:
            line, voice = said.line, said.voice
        return self.who.brain(voice), voice, line

    def _request_in(self, follow: Utterance, phrase: str) -> tuple[str, float]:
        """The request said after her name alone, and the seconds its transcription took."""
        more = self.stt.transcribe(follow, hotwords=phrase)
        again = self.wake.match(more.text, phrase)
        return (again.request if again is not None else more.text.strip()), more.stt_s

    def _show_voice(self, voice: Voice) -> None:
        """Whose turn, when it changes; an unknown voice said once per exchange."""
        if self.voice is not None and self.voice.user == voice.user:
            return
        self.show(Shown(State.UNKNOWN_VOICE) if voice.user is None else Shown(State.VOICE, voice.user))

    def _window(self, follow_up: bool, reply: str) -> float:
        """Until when speech needs no wake word. The window opens when her reply ends, for
        follow_up_s. It does not chain on the room's talk: after a reply to speech the window let
        in, it opens again only when she asked something (her reply ends with a question)."""
        if follow_up and not reply.rstrip().rstrip('"\'').endswith("?"):
            return float("-inf")
        return self.segmenter.time_s + self.config.follow_up_s

    def _show_unheard(self, phrase: str) -> None:
        """What was said while she spoke with barge-in off: not answered, not stored, but shown."""
        unheard, self.unheard = self.unheard, []
        for utterance in unheard:
            text = self.stt.transcribe(utterance, hotwords=phrase).text.strip()
            if text:
                self.stats.ignored_while_speaking.append(text)
                self.show(Shown(State.UNHEARD, text))

    def _speak_line(self, mouth: Mouth, text: str) -> None:
        try:
            mouth.feed(text)
            mouth.finish()
        except Interrupted:
            pass


def _same(early: Utterance, utterance: Utterance) -> bool:
    """An early start was of this utterance: nothing was said after it."""
    return (early.start_s, early.speech_end_s) == (utterance.start_s, utterance.speech_end_s)


def why_ignored(heard: Verdict) -> str:
    """Why an utterance heard outside the follow-up window was not for her, in a few words."""
    if heard.decision.kind == "someone_else":      # a call was heard, but the checks found it was not her name
        return "it sounded like my name, but it was not"
    return "not addressed to me"
