"""The transcript wake word: mishearings accepted, ordinary sentences rejected (measured)."""
from assistant.wake import TranscriptWakeWord
from tests.mining_corpus import CORPUS

MISHEARD = ["Hey GLaDOS, what time is it?", "hey gee let us what time is it", "Hey g lados what is up",
            "hey glad os turn it down", "a glados remember that", "what time is it, GLaDOS?",
            "Hey Gee lye das, my name is Bob.", "hey glad us tell me a joke", "GLaDOS, are you there?"]
ORDINARY = [text for text, _ in CORPUS if "glados" not in text.lower()] + [
    "Hey, how are you?", "Hey guys, what's up?", "Hello there.", "Hey Jarvis, lights on.",
    "The gladiators are here.", "Glad to see you.", "Hey, look at those glasses.", "Hey dad, lost?",
    # near misses (the recordings): a person called Gladys is not her
    "Hey Gladys, how are you?", "hey glad to see you made it home", "I'm glad it's finally over",
    "hey lads, who wants a cup of tea", "hey Gladstone bag is in the hall", "Gladly, I'll bring the cake"]


def test_mishearings_wake_her_and_the_request_follows():
    wake = TranscriptWakeWord()
    for text in MISHEARD:
        match = wake.match(text, "hey glados")
        assert match is not None, text
    assert wake.match("hey gee let us what time is it", "hey glados").request == "what time is it"
    assert wake.match("Hey GLaDOS, my name is Bob.", "hey glados").request == "my name is Bob"
    assert wake.match("Hey GLaDOS.", "hey glados").request == ""
    assert wake.match("what time is it, GLaDOS?", "hey glados").request == "what time is it"
    assert wake.match("Hey GLaDOS, set a timer for 2.5 minutes.", "hey glados").request == "set a timer for 2.5 minutes"
    assert wake.match("it's 3.30 already, GLaDOS", "hey glados").request == "it's 3.30 already"


def test_near_misses_are_someone_else():
    wake = TranscriptWakeWord()
    for text in ("Hey Gladys, how are you?", "hey glad to see you made it home", "I'm glad it's finally over",
                 "hey lads, who wants a cup of tea", "hey glad did you feed the dog", "hey Google, set a timer",
                 "hey guys, dinner is ready", "so glad you could make it"):
        assert wake.match(text, "hey glados") is None, text


def test_false_accept_rate_on_ordinary_sentences():
    wake = TranscriptWakeWord()
    accepted = [text for text in ORDINARY if wake.match(text, "hey glados")]
    assert len(ORDINARY) > 250
    assert len(accepted) / len(ORDINARY) <= 0.01, accepted


def test_a_new_wake_word_works_and_the_old_one_does_not():
    wake = TranscriptWakeWord()
    assert wake.match("hey jarvis what's the time", "hey jarvis").request == "what's the time"
    assert wake.match("hey glados what's the time", "hey jarvis") is None


def test_the_acoustic_engine_hears_its_own_phrase_in_audio_and_the_transcript_gives_the_request():
    """voice.wake.engine: openwakeword with "hey jarvis": decided from the audio (Piper speech here),
    not from the words; the words after the phrase are the request."""
    from dataclasses import replace

    import pytest

    from assistant.audio.base import resample
    from assistant.config import load_config
    from assistant.events import RATE, Utterance
    from assistant.gate import WakeGate
    from assistant.stt import WhisperTranscriber
    from assistant.tts import PiperSynthesizer
    from assistant.wake import WakeError, make_wake

    config = load_config(None).voice.wake
    with pytest.raises(WakeError, match="hey jarvis, alexa"):
        make_wake(replace(config, engine="openwakeword"))          # "hey glados" has no acoustic model
    wake = make_wake(replace(config, engine="openwakeword", phrase="Hey Jarvis"))
    assert wake.acoustic and wake.threshold == 0.5
    piper = PiperSynthesizer(noise_scale=0.0)

    def audio(text: str):
        speech = piper.synthesize(text)
        return resample(speech.samples, speech.rate, RATE)

    assert wake.listen(audio("Hey Jarvis, what time is it?")) > 0.9
    for other in ("Hey GLaDOS, what time is it?", "Did you remember to feed the cat?", "hey guys, dinner is ready"):
        assert wake.listen(audio(other)) < 0.1, other
    assert wake.listen(audio("Hey Jarvis")[:800]) < 0.1           # too short to hold it

    gate = WakeGate(WhisperTranscriber(), wake)
    called = audio("Hey Jarvis, what time is it?")
    heard = gate.hear(Utterance(called, 0.0, len(called) / RATE), "hey glados")
    assert heard.match is not None and "what time is it" in heard.match.request.lower()
    assert "jarvis" not in heard.match.request.lower()
    talk = audio("Did you remember to feed the cat?")
    assert gate.hear(Utterance(talk, 0.0, len(talk) / RATE), "hey glados").match is None


class _Hears:
    """A recogniser that writes her name when told to expect it, and what was said otherwise."""
    concurrent = False

    def __init__(self, with_hotword: str, plain: str):
        self.with_hotword, self.plain, self.calls = with_hotword, plain, []

    def transcribe(self, utterance, hotwords=None):
        from assistant.events import Transcript
        self.calls.append(hotwords)
        return Transcript(self.with_hotword if hotwords else self.plain, utterance, 0.1)


def test_the_hotword_does_not_turn_gladys_into_her_the_plain_check_says_who_was_called():
    import numpy as np

    from assistant.events import Utterance
    from assistant.gate import WakeGate

    wake = TranscriptWakeWord()
    speech = Utterance(np.zeros(16_000, np.float32), 0.0, 1.0)
    gladys = WakeGate(_Hears("hey glados are you coming to dinner", "Hey Gladys, are you coming to dinner?"), wake)
    heard = gladys.hear(speech, "hey glados")
    assert heard.first.score >= wake.threshold and heard.match is None and heard.vetoed
    her = WakeGate(_Hears("hey glados what time is it", "Hey glottos, what time is it?"), wake)
    assert her.hear(speech, "hey glados").match.request == "what time is it"
    quiet = _Hears("did you feed the cat", "did you feed the cat")
    assert WakeGate(quiet, wake).hear(speech, "hey glados").match is None
    assert None not in quiet.calls                   # nothing to check when nobody called her: one pass
    off = WakeGate(_Hears("hey glados are you coming", "Hey Gladys, are you coming?"), wake, plain_check=False)
    assert off.hear(speech, "hey glados").match is not None
    for plain, phrase, other in (("hey Gladis can you pass the salt", "hey glados", True),
                                 ("what's on my calendar, Jarvis", "hey glados", True),
                                 ("hey Jarvis, lights on", "hey jarvis", False),
                                 ("Gladys is coming round later and then we eat", "hey glados", True),
                                 ("hey GLaDOS, remind me to call Gladys", "hey glados", False)):
        assert wake.someone_else(plain, phrase) is other, plain
