"""The name model: her name in the sound, not in the words. Tiny.en told to expect "GLaDOS" writes
it for "Gladys" and "hey lads" too; the model turns such a call down, and only when a call was heard."""
from dataclasses import replace

import numpy as np
import pytest

from assistant.audio.base import resample
from assistant.config import load_config
from assistant.events import RATE, TimedWord, Transcript, Utterance
from assistant.stt import Transcriber
from assistant.wake import Policy, WakeGate
from assistant.wake.decide import SHIPPED
from assistant.wake import TranscriptWakeWord
from assistant.wake.name_model import NameModel, NameModelMissing, Sounded

FLOOR = SHIPPED.name_floor
SURE = SHIPPED.name_sure


@pytest.fixture(scope="module")
def piper():
    from assistant.tts import PiperSynthesizer
    synth = PiperSynthesizer(noise_scale=0.0)

    def say(text: str) -> np.ndarray:
        speech = synth.synthesize(text)
        return resample(speech.samples, speech.rate, RATE)
    return say


def test_the_shipped_model_hears_her_name_and_not_the_names_like_it(piper):
    """Sentences in neither the training phrases nor the wake sets, in the voice the tests speak with."""
    model = NameModel()
    assert FLOOR > 0
    for text in ("Hey GLaDOS, is the kettle on?", "Glados, what's the time in Tokyo?", "Okay GLaDOS, lights off.",
                 "Is it windy outside, Glados?"):
        assert model.score(piper(text)) >= 0.5, text
    for text in ("Hey Gladys, the kettle's on.", "I'm so glad it's Friday.", "Hey lads, the kettle's on.",
                 "Gladly, I'll lay the table.", "Did you remember to feed the cat?"):
        assert model.score(piper(text)) < FLOOR, text
    assert model.score(np.zeros(0, np.float32)) < FLOOR          # nothing at all: no name


def test_glad_before_a_vowel_is_not_her_name(piper):
    """"Glad all's ..." is GLAD-oss but for its last sound: the model's first two members were as sure
    of such sentences as of her name (0.98-0.999 on these); its third, trained on them, is not."""
    model = NameModel()
    for text in ("Glad all of you could make it.", "So glad about the news.", "Glad all's quiet tonight.",
                 "I'm glad of a sit down."):
        assert model.score(piper(text)) < FLOOR, text
    for text in ("Hey Gladoss, is the kettle on?", "Gladoss, what's the time in Tokyo?"):     # said GLAD-oss
        assert model.score(piper(text)) >= SURE, text


def test_a_broken_weights_file_says_what_to_do(tmp_path):
    bad = tmp_path / "name.npz"
    bad.write_bytes(b"not a model")
    with pytest.raises(NameModelMissing, match="run the setup again"):
        NameModel(bad)
    np.savez(tmp_path / "half.npz", w1=np.zeros((1536, 32), np.float32))
    with pytest.raises(NameModelMissing, match="no b1, b2, mean, scale, w2 in it"):
        NameModel(tmp_path / "half.npz")


def test_a_gate_whose_name_model_cannot_load_says_what_to_do(tmp_path):
    from assistant.wake import WakeError
    with pytest.raises(WakeError, match="run the setup again"):
        WakeGate.configured(None, TranscriptWakeWord(), name_weights=tmp_path / "none.npz")


class _Hears(Transcriber):
    """A recogniser that writes her name when told to expect it."""
    concurrent = False

    def __init__(self, with_hotword: str, plain: str):
        self.with_hotword, self.plain = with_hotword, plain

    def transcribe(self, utterance, hotwords=None):
        return Transcript(self.with_hotword if hotwords else self.plain, utterance, 0.1)


class _Sounds:
    """A name model that always gives the same score (and place), counting the times it was asked."""

    def __init__(self, score: float, at_s: float = 0.0):
        self.value, self.at_s, self.asked = score, at_s, 0

    def hear(self, samples):
        self.asked += 1
        return Sounded(self.value, self.at_s)


def test_a_call_whose_audio_does_not_sound_like_her_name_is_turned_down():
    speech = Utterance(np.zeros(16_000, np.float32), 0.0, 1.0)
    wake = TranscriptWakeWord()
    heard_as_her = _Hears("hello glados come in", "Hello, glad it come in.")    # nobody else named in the plain one
    unlike = _Sounds(0.01)
    heard = WakeGate(heard_as_her, wake, Policy(name_floor=0.05), name_model=unlike).judge(speech, "hey glados")
    assert heard.match is None and heard.decision.kind == "someone_else" and heard.evidence.sound.score == 0.01
    like = _Sounds(0.9)
    heard = WakeGate(heard_as_her, wake, Policy(name_floor=0.05), name_model=like).judge(speech, "hey glados")
    assert heard.match is not None and heard.match.request == "come in" and heard.evidence.sound.score == 0.9
    assert WakeGate(heard_as_her, wake).judge(speech, "hey glados").match is not None     # without the model: a call
    sure = _Sounds(1.0)        # it never wakes her by itself: nobody called her in the words
    talk = WakeGate(_Hears("did you feed the cat", "did you feed the cat"), wake, Policy(name_floor=0.05), name_model=sure)
    assert talk.judge(speech, "hey glados").match is None and sure.asked == 1     # it listened beside whisper


def test_her_name_said_glad_oss_is_hers_when_the_model_is_sure():
    """Said GLAD-oss, as most people say it, her name is written "Gladys" without the hotword, so the
    plain check took the call for someone else's. The model's certainty overrules it; less than
    certain, "Gladys" stands."""
    speech = Utterance(np.zeros(16_000, np.float32), 0.0, 1.0)
    wake = TranscriptWakeWord()
    heard_as = _Hears("hey glados my daughter is called sue", "Hey Gladys, my daughter is called Sue.")
    sure = WakeGate(heard_as, wake, Policy(name_floor=0.3, name_sure=0.99), name_model=_Sounds(0.999)).judge(speech, "hey glados")
    assert sure.match is not None and sure.match.request == "my daughter is called sue"
    unsure = WakeGate(heard_as, wake, Policy(name_floor=0.3, name_sure=0.99), name_model=_Sounds(0.9)).judge(speech, "hey glados")
    assert unsure.match is None and unsure.decision.kind == "someone_else"
    assert WakeGate(heard_as, wake).judge(speech, "hey glados").match is None        # without the model
    never = WakeGate(heard_as, wake, Policy(name_floor=0.3, name_sure=1.0), name_model=_Sounds(1.0))     # 1: never
    assert never.judge(speech, "hey glados").match is None


class _Widens(_Hears):
    """A recogniser whose greedy reading misses her name and whose beam search finds it."""
    concurrent = True       # as whisper: the plain check runs beside the first transcription

    def __init__(self, with_hotword: str, plain: str, wider: str):
        super().__init__(with_hotword, plain)
        self.wider, self.widened = wider, 0

    def transcribe_wider(self, utterance, hotwords=None, beam_size=5):
        self.widened += 1
        return Transcript(self.wider if hotwords else self.plain, utterance, 0.4)


def test_a_wider_search_finds_her_name_when_the_model_is_sure_and_the_words_are_not():
    """"Glados, I've moved to Bath" heard "I move to man" (greedy); a beam search with the hotword
    writes "glados, I move to man". Asked only when the model is sure of her name and nobody else
    is named; a call found there counts, her name alone for a whole sentence does not."""
    speech = Utterance(np.zeros(32_000, np.float32), 0.0, 2.0)
    wake = TranscriptWakeWord()

    def gate(recogniser, score: float, beam: int = 5) -> WakeGate:
        return WakeGate(recogniser, wake, Policy(name_floor=0.3, name_sure=0.93, beam_look=beam), name_model=_Sounds(score))

    moved = _Widens("I move to man", "I move to man.", "glados, I move to man")
    heard = gate(moved, 0.999).judge(speech, "hey glados")
    assert heard.match is not None and heard.match.request == "I move to man" and moved.widened == 1
    unsure = _Widens("I move to man", "I move to man.", "glados, I move to man")
    assert gate(unsure, 0.9).judge(speech, "hey glados").match is None and unsure.widened == 0
    off = _Widens("I move to man", "I move to man.", "glados, I move to man")
    assert gate(off, 0.999, beam=0).judge(speech, "hey glados").match is None and off.widened == 0
    gladys = _Widens("hey lettuce are you in", "Hey Gladys, are you in?", "hey glados are you in")
    assert gate(gladys, 0.999).judge(speech, "hey glados").match is None and gladys.widened == 0   # someone else named
    alone = _Widens("the last day it's good", "The last day, it's good.", "hey glados")         # her name for a sentence
    assert gate(alone, 0.999).judge(speech, "hey glados").match is None and alone.widened == 1
    first = _Widens("hey glados what time is it", "Hey, what time is it?", "unused")             # the words found it
    assert gate(first, 0.999).judge(speech, "hey glados").match is not None and first.widened == 0


class _Timed(Transcriber):
    """A recogniser that hears the same words with or without the hotword, knows when each was said
    and scores other wordings: `fits` maps a wording to its log-probability; what it heard scores -5,
    anything else -40."""
    concurrent = False

    def __init__(self, timed: list[tuple[str, float, float]], fits: dict[str, float]):
        self.words = tuple(TimedWord(*w) for w in timed)
        self.text, self.fits, self.scored = " ".join(w.text for w in self.words), fits, []

    def transcribe(self, utterance, hotwords=None):
        return Transcript(self.text, utterance, 0.1)

    def timings(self, transcript):
        return self.words

    def rescore(self, transcript, texts):
        self.scored.append(list(texts))
        return [-5.0 if text == self.text else self.fits.get(text, -40.0) for text in texts]


def test_her_name_is_tried_where_the_model_heard_it_when_the_words_hold_no_call():
    """"Right then GLaDOS, let's begin" heard "Right then Guado, let's begin": her name is not in
    the first words after a greeting, where the name check puts it. The model, sure of her name
    and of where it ended (just after "Guado"), has it tried in place of the words there; within
    the margin (name_place), a call. Unsure, placed elsewhere, or too unlikely: no call."""
    speech = Utterance(np.zeros(40_000, np.float32), 0.0, 2.5)
    wake = TranscriptWakeWord()
    timed = [("Right", 0.0, 0.78), ("then", 0.78, 1.02), ("Guado,", 1.02, 1.34), ("let's", 1.86, 2.02), ("begin.", 2.02, 2.2)]
    fits = {"Right then GLaDOS, let's begin.": -16.0}

    def gate(recogniser, score: float, at_s: float = 1.4) -> WakeGate:
        return WakeGate(recogniser, wake, Policy(plain_check=False, name_check=14, name_floor=0.3, name_sure=0.99, name_place=14), name_model=_Sounds(score, at_s))

    heard = gate(_Timed(timed, fits), 0.999).judge(speech, "hey glados")
    assert heard.match is not None and heard.match.request == "let's begin" and heard.evidence.placed.margin == -11.0
    assert gate(_Timed(timed, fits), 0.9).judge(speech, "hey glados").match is None              # not sure of her name
    early = _Timed(timed, fits)                            # heard in "Right" only: "Guado" is not tried
    assert gate(early, 0.999, at_s=0.3).judge(speech, "hey glados").match is None
    assert not any("then GLaDOS" in text for texts in early.scored for text in texts)
    far = {"Right then GLaDOS, let's begin.": -20.0}
    assert gate(_Timed(timed, far), 0.999).judge(speech, "hey glados").match is None             # 15 nats: too unlikely
    for sure, place in ((1.0, 14), (0.99, 0)):                                 # sure 1: never; place 0: off
        off = WakeGate(_Timed(timed, fits), wake, Policy(plain_check=False, name_check=14, name_floor=0.3, name_sure=sure, name_place=place), name_model=_Sounds(0.999, 1.4))
        assert off.judge(speech, "hey glados").match is None
    # dropped altogether ("I'm learning Spanish"): put in before the words timed where it was heard
    dropped = _Timed([("I'm", 0.0, 1.62), ("learning", 1.62, 1.96), ("Spanish.", 1.96, 2.42)],
                     {"GLaDOS, I'm learning Spanish.": -15.0})
    assert gate(dropped, 0.999, at_s=1.08).judge(speech, "hey glados").match.request == "I'm learning Spanish"
    # never in place of someone else, and not when the words name someone else anywhere
    gladys = _Timed([("Hey", 0.0, 0.6), ("Gladys,", 0.6, 1.3), ("nice", 1.3, 1.6), ("hat.", 1.6, 1.9)],
                    {"Hey GLaDOS, nice hat.": -5.0, "Hey Gladys, GLaDOS, nice hat.": -5.0})
    assert gate(gladys, 0.999, at_s=1.3).judge(speech, "hey glados").match is None
    later = _Timed([("So", 0.0, 0.5), ("then", 0.5, 0.9), ("Gladys", 0.9, 1.3), ("came", 1.3, 1.6), ("round.", 1.6, 2.0)],
                   {"So GLaDOS, Gladys came round.": -6.0})
    assert gate(later, 0.999, at_s=0.9).judge(speech, "hey glados").match is None


def test_placed_wordings_keep_the_recognisers_words_and_never_replace_someone_else():
    wake = TranscriptWakeWord()
    words = ["Right", "then", "Guado,", "let's", "begin."]
    assert [w.text for w in wake.placed(words, 2, 3, "hey glados")] == ["Right then GLaDOS, let's begin.",
                                                                       "Right then Glados, let's begin."]
    assert wake.placed(words, 2, 3, "hey glados")[0].request == "let's begin"
    assert wake.placed(words, 0, 0, "hey glados")[0].text == "GLaDOS, Right then Guado, let's begin."
    end = wake.placed(["What's", "the", "time,", "Waddles?"], 3, 4, "hey glados")
    assert end[0].text == "What's the time, GLaDOS?" and end[0].request == "What's the time"
    for words, start, stop in ((["Hey", "Gladys,", "nice", "hat."], 1, 2), (["Glad", "you", "came."], 0, 1),
                               (["Hey", "guys,", "dinner!"], 1, 2), (["Hey", "there."], 0, 1), (["Waddles."], 0, 1)):
        assert wake.placed(words, start, stop, "hey glados") == [], words


def test_the_model_listens_only_while_the_phrase_holds_her_name():
    """The phrase can be changed by voice ("change your wake word to hey jarvis"): the configured gate
    loads the model anyway and leaves calls by another name alone."""
    from assistant.stt.base import Transcriber

    class _NoSTT(Transcriber):
        concurrent = False

        def transcribe(self, utterance, hotwords=None):
            raise AssertionError("not used")

    wake = TranscriptWakeWord()
    assert isinstance(WakeGate.configured(_NoSTT(), wake).name_model, NameModel)
    assert WakeGate.configured(_NoSTT(), wake, replace(SHIPPED, name_floor=0.0)).name_model is None
    speech = Utterance(np.zeros(16_000, np.float32), 0.0, 1.0)
    deaf = _Sounds(0.0)
    jarvis = WakeGate(_Hears("hey jarvis lights on", "Hey Jarvis, lights on."), wake, Policy(name_floor=0.3), name_model=deaf)
    assert jarvis.judge(speech, "hey jarvis").match.request == "lights on" and deaf.asked == 0
    her = WakeGate(_Hears("hey glados lights on", "Hey, glad I'm lights on."), wake, Policy(name_floor=0.3), name_model=deaf)
    assert her.judge(speech, "hey glados").match is None and deaf.asked == 1


def test_near_misses_whisper_writes_as_her_name_no_longer_wake_her(piper):
    """Real audio, real tiny.en: "Gladys" in a lower voice, with a little noise, is heard as a call
    with the hotword, and the plain check does not catch it ("Glad is, your taxi is here"); the name
    model does. A real call in the same voice still wakes her."""
    from assistant.stt import WhisperTranscriber

    config = load_config(None).voice.wake
    stt, wake = WhisperTranscriber(), TranscriptWakeWord(config.threshold)
    with_model = WakeGate.configured(stt, wake)
    without = WakeGate.configured(stt, wake, replace(SHIPPED, name_floor=0.0))

    def lower(text: str) -> Utterance:
        """Piper played back at 0.9 of its rate (the wake sets' "piper-low"), noise at -40 dB."""
        samples = resample(piper(text), int(RATE * 0.9), RATE)
        samples = np.concatenate([np.zeros(RATE // 2, np.float32), samples * 0.8, np.zeros(RATE // 3, np.float32)])
        samples = samples + np.random.default_rng(0).normal(0, 0.01, len(samples)).astype(np.float32)
        return Utterance(samples, 0.0, len(samples) / RATE)

    fooled = 0
    for text in ("Gladys, your taxi is here.", "Hi Gladys, nice to see you.", "Hey Gladys, the kettle's on."):
        said = lower(text)
        fooled += without.judge(said, "hey glados").match is not None         # what the gate did before
        heard = with_model.judge(said, "hey glados")
        assert heard.match is None, (text, heard)
    assert fooled >= 1
    call = with_model.judge(lower("Hey GLaDOS, your taxi is here."), "hey glados")
    assert call.match is not None and "taxi" in call.match.request.lower() and call.evidence.sound.score >= FLOOR


def test_her_name_mid_sentence_that_whisper_wrote_as_another_word_wakes_her(piper):
    """Real audio, real tiny.en: "morning then GLaDOS, how are things" is heard "morning then glottos
    how are things", her name third, where neither the words nor the name check look. The name
    model hears it after "then", and her name in place of "glottos" fits the audio. Someone else in
    the same place does not wake her."""
    from assistant.stt import WhisperTranscriber

    config = load_config(None).voice.wake
    stt, wake = WhisperTranscriber(), TranscriptWakeWord(config.threshold)
    # the second look off: it hears the opening again, and with band-limited resampling it finds her name
    # in this recording too; this test is about the placement alone
    policy = replace(SHIPPED, second_look_s=0.0)
    placing = WakeGate.configured(stt, wake, policy)
    before = WakeGate.configured(stt, wake, replace(policy, name_sure=1.0))      # what the gate did before

    def said(text: str) -> Utterance:
        samples = np.concatenate([np.zeros(RATE // 2, np.float32), piper(text) * 0.8, np.zeros(RATE // 3, np.float32)])
        samples = samples + np.random.default_rng(0).normal(0, 0.01, len(samples)).astype(np.float32)
        return Utterance(samples, 0.0, len(samples) / RATE)

    call = said("morning then Glados, how are things")      # spelled so Piper says the name (GLAH-dohz)
    assert before.judge(call, "hey glados").match is None
    heard = placing.judge(call, "hey glados")
    assert heard.match is not None and "how are things" in heard.match.request.lower()
    assert heard.evidence.placed is not None and heard.evidence.placed.margin >= -policy.name_place
    for text in ("morning then Douglas, how are things", "morning then dad, how are things"):
        assert placing.judge(said(text), "hey glados").match is None, text


class _Unsure(_Timed):
    """As _Timed, and says how sure it was of each word it heard (`probability`, 0-1)."""

    def __init__(self, timed, fits, probability: float | list[float]):
        super().__init__(timed, fits)
        each = probability if isinstance(probability, list) else [probability] * len(self.words)
        self.words = tuple(replace(w, probability=p) for w, p in zip(self.words, each))


def test_the_model_alone_calls_her_in_the_opening_where_whisper_was_unsure():
    """An espeak-ng "Glados, forget that" heard "You are going to get that." with and without the
    hotword: her name put in before it fits 25 nats worse than what was heard, past name_place. The
    model all but certain of her name in the opening, and whisper unsure of the words it wrote there
    (each about 0.45 likely: -0.8 nats): a call on the model's word alone. Not when the model is less
    sure, heard it later on, whisper was sure of those words (a real voice's "He was not an ..."), timed
    nothing after where the model heard her name (a telephone prompt's "Agent logged off" heard
    "Agent-log-dov.": no request), wrote a word like her name, or the rule is off."""
    speech = Utterance(np.zeros(40_000, np.float32), 0.0, 2.5)
    wake = TranscriptWakeWord()
    timed = [("You", 0.3, 0.6), ("are", 0.6, 0.8), ("going", 0.8, 1.0), ("to", 1.0, 1.1), ("get", 1.1, 1.4), ("that.", 1.4, 1.8)]
    fits = {"GLaDOS, You are going to get that.": -30.0}

    def gate(recogniser, score: float = 0.9999, at_s: float = 0.9, alone: float = 0.9995) -> WakeGate:
        return WakeGate(recogniser, wake, Policy(plain_check=False, name_check=14, name_floor=0.3, name_sure=0.93, name_place=18, name_alone=alone, name_alone_unsure=0.5), name_model=_Sounds(score, at_s))

    heard = gate(_Unsure(timed, fits, 0.45)).judge(speech, "hey glados")
    assert heard.match is not None and heard.decision.by == "alone" and heard.match.request == "You are going to get that"
    assert heard.evidence.placed.margin == -25.0
    assert gate(_Unsure(timed, fits, 0.45), score=0.999).judge(speech, "hey glados").match is None       # less sure
    assert gate(_Unsure(timed, fits, 0.45), at_s=2.4).judge(speech, "hey glados").match is None          # not the opening
    assert gate(_Unsure(timed, fits, 0.9)).judge(speech, "hey glados").match is None                     # whisper sure
    there = [0.9, 0.95, 0.9, 0.1, 0.1, 0.1]                  # sure of the words where her name was heard, not of the rest
    assert gate(_Unsure(timed, fits, there)).judge(speech, "hey glados").match is None
    assert gate(_Unsure(timed, fits, 0.45), alone=1.0).judge(speech, "hey glados").match is None          # off
    ended = [("Agent-log-dov.", 0.3, 1.3)]                   # the model heard her name in its last word: nothing after
    assert gate(_Unsure(ended, {"GLaDOS, Agent-log-dov.": -30.0}, 0.3), at_s=1.32).judge(speech, "hey glados").match is None
    asked = gate(_Unsure(ended + [("stop.", 1.4, 1.7)], {}, 0.3), at_s=1.32).judge(speech, "hey glados")
    assert asked.match is not None and asked.decision.by == "alone"                         # a word after it: a call
    assert gate(_Timed(timed, fits)).judge(speech, "hey glados").match is None                            # cannot say
    glad = [("Glad", 0.3, 0.6), ("you", 0.6, 0.8), ("are", 0.8, 1.0), ("getting", 1.0, 1.4), ("that.", 1.4, 1.8)]
    assert gate(_Unsure(glad, {"GLaDOS, Glad you are getting that.": -30.0}, 0.45)).judge(speech, "hey glados").match is None
    close = gate(_Unsure(timed, {"GLaDOS, You are going to get that.": -15.0}, 0.45)).judge(speech, "hey glados")
    assert close.match is not None and close.decision.by == "placed"                        # placement found it: not the model alone
