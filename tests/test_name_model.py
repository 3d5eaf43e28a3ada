"""The name model: her name in the sound, not in the words. Tiny.en told to expect "GLaDOS" writes
it for "Gladys" and "hey lads" too; the model turns such a call down, and only when a call was heard."""
from dataclasses import replace

import numpy as np
import pytest

from assistant.audio.base import resample
from assistant.config import load_config
from assistant.events import RATE, Transcript, Utterance
from assistant.gate import WakeGate
from assistant.wake import TranscriptWakeWord
from assistant.wake.name_model import NameModel, NameModelMissing

FLOOR = load_config(None).voice.wake.name_model


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


def test_a_broken_weights_file_says_what_to_do(tmp_path):
    bad = tmp_path / "name.npz"
    bad.write_bytes(b"not a model")
    with pytest.raises(NameModelMissing, match="name_model: 0"):
        NameModel(bad)
    np.savez(tmp_path / "half.npz", w1=np.zeros((1536, 32), np.float32))
    with pytest.raises(NameModelMissing, match="no b1, b2, mean, scale, w2 in it"):
        NameModel(tmp_path / "half.npz")


def test_a_gate_whose_name_model_cannot_load_says_what_to_do(monkeypatch):
    from assistant.wake import WakeError

    def missing(self, *args, **kwargs):
        raise NameModelMissing("no such file")
    monkeypatch.setattr(NameModel, "__init__", missing)
    with pytest.raises(WakeError, match="name_model: 0"):
        WakeGate.configured(None, TranscriptWakeWord(), load_config(None).voice.wake)


class _Hears:
    """A recogniser that writes her name when told to expect it."""
    concurrent = False

    def __init__(self, with_hotword: str, plain: str):
        self.with_hotword, self.plain = with_hotword, plain

    def transcribe(self, utterance, hotwords=None):
        return Transcript(self.with_hotword if hotwords else self.plain, utterance, 0.1)


class _Sounds:
    """A name model that always gives the same score, counting the times it was asked."""

    def __init__(self, score: float):
        self.value, self.asked = score, 0

    def score(self, samples):
        self.asked += 1
        return self.value


def test_a_call_whose_audio_does_not_sound_like_her_name_is_turned_down():
    speech = Utterance(np.zeros(16_000, np.float32), 0.0, 1.0)
    wake = TranscriptWakeWord()
    heard_as_her = _Hears("hello glados come in", "Hello, glad it come in.")    # nobody else named in the plain one
    unlike = _Sounds(0.01)
    heard = WakeGate(heard_as_her, wake, name_model=unlike, name_floor=0.05).hear(speech, "hey glados")
    assert heard.match is None and heard.vetoed and heard.sounded == 0.01
    like = _Sounds(0.9)
    heard = WakeGate(heard_as_her, wake, name_model=like, name_floor=0.05).hear(speech, "hey glados")
    assert heard.match is not None and heard.match.request == "come in" and heard.sounded == 0.9
    assert WakeGate(heard_as_her, wake).hear(speech, "hey glados").match is not None     # without the model: a call
    sure = _Sounds(1.0)        # it never wakes her by itself: nobody called her in the words
    talk = WakeGate(_Hears("did you feed the cat", "did you feed the cat"), wake, name_model=sure, name_floor=0.05)
    assert talk.hear(speech, "hey glados").match is None and sure.asked == 1     # it listened beside whisper


def test_her_name_said_glad_oss_is_hers_when_the_model_is_sure():
    """Said GLAD-oss, as most people say it, her name is written "Gladys" without the hotword, so the
    plain check took the call for someone else's. The model's certainty overrules it; less than
    certain, "Gladys" stands."""
    speech = Utterance(np.zeros(16_000, np.float32), 0.0, 1.0)
    wake = TranscriptWakeWord()
    heard_as = _Hears("hey glados my daughter is called sue", "Hey Gladys, my daughter is called Sue.")
    sure = WakeGate(heard_as, wake, name_model=_Sounds(0.999), name_floor=0.3, name_sure=0.99).hear(speech, "hey glados")
    assert sure.match is not None and sure.match.request == "my daughter is called sue"
    unsure = WakeGate(heard_as, wake, name_model=_Sounds(0.9), name_floor=0.3, name_sure=0.99).hear(speech, "hey glados")
    assert unsure.match is None and unsure.vetoed
    assert WakeGate(heard_as, wake).hear(speech, "hey glados").match is None        # without the model
    never = WakeGate(heard_as, wake, name_model=_Sounds(1.0), name_floor=0.3, name_sure=1.0)     # 1: never
    assert never.hear(speech, "hey glados").match is None


def test_the_model_listens_only_while_the_phrase_holds_her_name():
    """The phrase can be changed by voice ("change your wake word to hey jarvis"): the configured gate
    loads the model anyway and leaves calls by another name alone."""
    from assistant.stt.base import Transcriber

    class _NoSTT(Transcriber):
        concurrent = False

        def transcribe(self, utterance, hotwords=None):
            raise AssertionError("not used")

    config = load_config(None).voice.wake
    wake = TranscriptWakeWord()
    assert isinstance(WakeGate.configured(_NoSTT(), wake, config).name_model, NameModel)
    assert isinstance(WakeGate.configured(_NoSTT(), wake, replace(config, phrase="hey jarvis")).name_model, NameModel)
    assert WakeGate.configured(_NoSTT(), wake, replace(config, name_model=0.0)).name_model is None
    speech = Utterance(np.zeros(16_000, np.float32), 0.0, 1.0)
    deaf = _Sounds(0.0)
    jarvis = WakeGate(_Hears("hey jarvis lights on", "Hey Jarvis, lights on."), wake, name_model=deaf, name_floor=0.3)
    assert jarvis.hear(speech, "hey jarvis").match.request == "lights on" and deaf.asked == 0
    her = WakeGate(_Hears("hey glados lights on", "Hey, glad I'm lights on."), wake, name_model=deaf, name_floor=0.3)
    assert her.hear(speech, "hey glados").match is None and deaf.asked == 1


def test_near_misses_whisper_writes_as_her_name_no_longer_wake_her(piper):
    """Real audio, real tiny.en: "Gladys" in a lower voice, with a little noise, is heard as a call
    with the hotword, and the plain check does not catch it ("Glad is, your taxi is here"); the name
    model does. A real call in the same voice still wakes her."""
    from assistant.stt import WhisperTranscriber

    config = load_config(None).voice.wake
    stt, wake = WhisperTranscriber(), TranscriptWakeWord(config.threshold)
    with_model = WakeGate.configured(stt, wake, config)
    without = WakeGate.configured(stt, wake, replace(config, name_model=0.0))

    def lower(text: str) -> Utterance:
        """Piper played back at 0.9 of its rate (the wake sets' "piper-low"), noise at -40 dB."""
        samples = resample(piper(text), int(RATE * 0.9), RATE)
        samples = np.concatenate([np.zeros(RATE // 2, np.float32), samples * 0.8, np.zeros(RATE // 3, np.float32)])
        samples = samples + np.random.default_rng(0).normal(0, 0.01, len(samples)).astype(np.float32)
        return Utterance(samples, 0.0, len(samples) / RATE)

    fooled = 0
    for text in ("Gladys, your taxi is here.", "Hi Gladys, nice to see you.", "Hey Gladys, the kettle's on."):
        said = lower(text)
        fooled += without.hear(said, "hey glados").match is not None         # what the gate did before
        heard = with_model.hear(said, "hey glados")
        assert heard.match is None, (text, heard)
    assert fooled >= 1
    call = with_model.hear(lower("Hey GLaDOS, your taxi is here."), "hey glados")
    assert call.match is not None and "taxi" in call.match.request.lower() and call.sounded >= FLOOR
