"""The transcript wake word: mishearings accepted, ordinary sentences rejected (measured)."""
from assistant.stt import Transcriber
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
    from assistant.wake import WakeGate
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
    heard = gate.judge(Utterance(called, 0.0, len(called) / RATE), "hey glados")
    assert heard.match is not None and "what time is it" in heard.match.request.lower()
    assert "jarvis" not in heard.match.request.lower()
    talk = audio("Did you remember to feed the cat?")
    assert gate.judge(Utterance(talk, 0.0, len(talk) / RATE), "hey glados").match is None


class _Hears(Transcriber):
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
    from assistant.wake import Policy, WakeGate

    wake = TranscriptWakeWord()
    speech = Utterance(np.zeros(16_000, np.float32), 0.0, 1.0)
    gladys = WakeGate(_Hears("hey glados are you coming to dinner", "Hey Gladys, are you coming to dinner?"), wake)
    heard = gladys.judge(speech, "hey glados")
    assert heard.evidence.first.score >= wake.threshold and heard.match is None and heard.decision.kind == "someone_else"
    split = WakeGate(_Hears("glados it keeps going cold", "Glad it's going cold."), wake)    # "Gladys, your tea's ..."
    heard = split.judge(speech, "hey glados")
    assert heard.evidence.first.score >= wake.threshold and heard.match is None and heard.decision.kind == "someone_else"
    her = WakeGate(_Hears("hey glados what time is it", "Hey glottos, what time is it?"), wake)
    assert her.judge(speech, "hey glados").match.request == "what time is it"
    quiet = _Hears("did you feed the cat", "did you feed the cat")
    assert WakeGate(quiet, wake).judge(speech, "hey glados").match is None
    assert None not in quiet.calls                   # nothing to check when nobody called her: one pass
    off = WakeGate(_Hears("hey glados are you coming", "Hey Gladys, are you coming?"), wake, Policy(plain_check=False))
    assert off.judge(speech, "hey glados").match is not None
    for plain, phrase, other in (("hey Gladis can you pass the salt", "hey glados", True),
                                 ("what's on my calendar, Jarvis", "hey glados", True),
                                 ("hey Jarvis, lights on", "hey jarvis", False),
                                 ("Gladys is coming round later and then we eat", "hey glados", True),
                                 ("hey GLaDOS, remind me to call Gladys", "hey glados", False),
                                 ("Hey gladdies, the kettle's on.", "hey glados", True),     # her name's kin
                                 ("Gladest ring about the party.", "hey glados", True),
                                 ("Hey lad, who's playing?", "hey glados", True),            # people addressed
                                 ("Okay, guys, let's get going.", "hey glados", True),
                                 ("How long until Christmas gladdos?", "hey glados", False),  # her name, spelled
                                 ("Gladoss, what time is it?", "hey glados", False),
                                 ("Glad it's going cold.", "hey glados", True),              # Gladys, split
                                 ("Hey, glad this are you coming.", "hey glados", True),
                                 ("I'm so glad it's Friday, Gladys.", "hey glados", True),
                                 ("Hey, glad us. My husband is called Tom.", "hey glados", False),  # GLAD-oss
                                 ("I'm glad it's sunny, GLaDOS.", "hey glados", False),     # called besides
                                 ("Hey, glad I'm good morning.", "hey glados", False),      # a call, misheard
                                 ("Glados, my favorite color is green.", "hey glados", False)):
        assert wake.someone_else(plain, phrase) is other, plain


class _Scores(_Hears):
    """A recogniser that also scores other wordings of the audio: `fits` maps a wording to its
    log-probability; what it heard scores -5, anything else -40."""

    def __init__(self, heard: str, fits: dict[str, float]):
        super().__init__(heard, heard)
        self.fits, self.scored = fits, []

    def rescore(self, transcript, texts):
        self.scored.append(list(texts))
        return [-5.0 if text == self.with_hotword else self.fits.get(text, -40.0) for text in texts]


def test_the_name_check_hears_her_name_where_whisper_wrote_another_word():
    """"Waddles, I live in Bristol now": no call in the words; her name in their place fits the
    audio nearly as well (7 nats less likely, within the 12.5 allowed), so it is a call and the
    rest is the request. Less likely than that, or a sentence naming someone else, is not."""
    import numpy as np

    from assistant.events import Utterance
    from assistant.wake import Policy, WakeGate

    wake = TranscriptWakeWord()
    speech = Utterance(np.zeros(16_000, np.float32), 0.0, 1.0)
    heard = "Waddles, I live in Bristol now."
    close = _Scores(heard, {"GLaDOS, I live in Bristol now.": -12.0})
    called = WakeGate(close, wake, Policy(name_check=12.5)).judge(speech, "hey glados")
    assert called.match is not None and called.match.request == "I live in Bristol now"
    assert called.evidence.named.margin == -7.0 and close.scored[0][0] == heard        # compared with what was heard
    assert called.evidence.has("plain") and called.evidence.has("named")     # the stage it stood on is kept
    far = _Scores(heard, {"GLaDOS, I live in Bristol now.": -20.0})
    assert WakeGate(far, wake, Policy(name_check=12.5)).judge(speech, "hey glados").match is None
    off = _Scores(heard, {"GLaDOS, I live in Bristol now.": -12.0})
    assert WakeGate(off, wake, Policy(name_check=0)).judge(speech, "hey glados").match is None and not off.scored
    # in the follow-up window the words are let in anyway: no name check, the words untouched
    window = _Scores(heard, {"GLaDOS, I live in Bristol now.": -12.0})
    assert WakeGate(window, wake, Policy(name_check=12.5)).judge(speech, "hey glados", in_window=True).match is None
    assert not window.scored
    # at the end: "what's on my calendar, Waddles?"
    end = _Scores("What's on my calendar, Waddles?", {"What's on my calendar, Glados?": -9.0})
    assert WakeGate(end, wake, Policy(name_check=12.5)).judge(speech, "hey glados").match.request == "What's on my calendar"
    # someone else named, or a near-miss word where her name would be: never replaced
    gladys = _Scores("Hey Gladys, are you coming?", {"Hey GLaDOS, are you coming?": -5.0})
    assert WakeGate(gladys, wake, Policy(name_check=12.5)).judge(speech, "hey glados").match is None
    glad = _Scores("Glad you could make it.", {"GLaDOS, you could make it.": -5.0, "GLaDOS, could make it.": -5.0})
    assert WakeGate(glad, wake, Policy(name_check=12.5)).judge(speech, "hey glados").match is None


def test_wordings_put_her_name_where_a_call_would_be_and_never_over_someone_elses():
    wake = TranscriptWakeWord()
    texts = {w.text: w.request for w in wake.wordings("Okay Guado, what did I tell you yesterday?", "hey glados")}
    assert texts["Okay GLaDOS, what did I tell you yesterday?"] == "what did I tell you yesterday"
    assert texts["Hey Glados, what did I tell you yesterday?"] == "what did I tell you yesterday"
    assert texts["Okay Guado, what did I tell you, GLaDOS?"] == "Okay Guado, what did I tell you"
    assert not any(text.startswith("GLaDOS, Guado") for text in texts)       # a greeting alone is not replaced
    quick = {w.text for w in wake.wordings("Okay Guado, what did I tell you yesterday?", "hey glados", quick=True)}
    assert "Okay GLaDOS, what did I tell you yesterday?" in quick and quick < set(texts)
    assert not any("Glados" in text or text.endswith("GLaDOS?") for text in quick)   # one spelling, the opening only
    for heard, other in (("Hey Gladys, where's the remote?", "gladys"), ("Glad you came.", "glad"),
                         ("Hey guys, dinner!", "guys"), ("Alexa, lights on.", "alexa")):
        wordings = wake.wordings(heard, "hey glados")
        assert wordings and all(other in w.text.lower() for w in wordings), heard
    jarvis = {w.text for w in wake.wordings("Hey Travis, lights on.", "hey jarvis")}
    assert "Hey Jarvis, lights on." in jarvis
    # "glad" is also how whisper writes some voices' "GLaDOS" without the hotword ("Hey, glad I'm good
    # morning"): replaced only when the hotword's transcript of the same audio called her
    called = {w.text for w in wake.wordings("Hey, glad I'm good morning.", "hey glados", called=True)}
    assert "Hey GLaDOS, good morning." in called
    assert all("glad I'm" in w.text for w in wake.wordings("Hey, glad I'm good morning.", "hey glados"))
    assert all("Gladys" in w.text for w in wake.wordings("Hey Gladys, good morning.", "hey glados", called=True))
    assert all("glad this" in w.text for w in wake.wordings("Hey, glad this are you coming?", "hey glados", called=True))


def test_her_name_without_a_greeting_is_heard_by_the_name_check():
    """Piper says "Glados, ..." without "hey": tiny.en writes "Blottos", "Blodos", or drops the
    name even with the hotword, so the words alone miss these calls. Her name in place of the
    opening word fits the audio almost as well as what it wrote; for ordinary sentences it does not."""
    from assistant.audio.base import resample
    from assistant.events import RATE, Utterance
    from assistant.wake import Policy, WakeGate
    from assistant.stt import WhisperTranscriber
    from assistant.tts import PiperSynthesizer

    piper, stt, wake = PiperSynthesizer(noise_scale=0.0), WhisperTranscriber(), TranscriptWakeWord()

    def utterance(text: str) -> Utterance:
        speech = piper.synthesize(text)
        samples = resample(speech.samples, speech.rate, RATE)
        return Utterance(samples, 0.0, len(samples) / RATE)

    gate, words_only = WakeGate(stt, wake, Policy(name_check=14.0)), WakeGate(stt, wake, Policy(name_check=0.0))
    for text, request in (("Glados, what time is it?", "what time is it"),
                          ("Glados, switch on the kitchen light.", "switch on the kitchen light"),
                          ("Glados, I live in Bristol now.", "I live in Bristol now")):
        said = utterance(text)
        assert words_only.judge(said, "hey glados").match is None, text       # what the words alone make of it
        heard = gate.judge(said, "hey glados")
        assert heard.match is not None and heard.match.request.lower().rstrip("?.") == request.lower(), (text, heard)
        assert heard.evidence.named.margin > -14.0
    for text in ("I'll just check my email.", "Glad you could make it.", "Did you remember to feed the cat?"):
        heard = gate.judge(utterance(text), "hey glados")
        assert heard.match is None and (heard.evidence.named is None or heard.evidence.named.margin < -14.0), (text, heard)


def test_a_hotword_transcript_far_shorter_than_the_plain_one_is_not_a_call():
    """Told to expect "hey glados", whisper may write just that for a whole sentence; the plain
    transcript, with more words, shows it was not said."""
    import numpy as np

    from assistant.events import Utterance
    from assistant.wake import WakeGate

    speech = Utterance(np.zeros(16_000, np.float32), 0.0, 1.0)
    wake = TranscriptWakeWord()
    invented = WakeGate(_Hears("hey glados", "The last day, it's good."), wake).judge(speech, "hey glados")
    assert invented.evidence.first.score >= wake.threshold and invented.match is None and invented.decision.kind == "someone_else"
    stuck = WakeGate(_Hears("hey glados, skip this song", "A-g-g-g-g-g-g-g-g-g-g-g-g-g-g"), wake)
    assert stuck.judge(speech, "hey glados").match is not None               # repeating itself says nothing
    alone = WakeGate(_Hears("hey glados", "Hey, glad I'm"), wake).judge(speech, "hey glados")
    assert alone.match is not None and alone.match.request == ""           # her name alone is still a call
    # A call with a request after it was not written in place of a sentence: the plain transcript's
    # extra words are whisper's own invention there (an espeak-ng "sorry Glados, say that again").
    asked = WakeGate(_Hears("sorry glados say it now again", "Sorry, we got to go, see you in the next video."), wake)
    assert asked.judge(speech, "hey glados").match.request == "say it now again"
    # ... unless the words it left out name someone else: where the call was in the plain transcript
    # is not known, so a name anywhere in it counts ("the washing machine ... hey Gladis, ...")
    dropped = WakeGate(_Hears("hey glados can you pass the salt",
                              "The washing machine is making a funny noise. Hey Gladys, can you pass the salt?"), wake)
    heard = dropped.judge(speech, "hey glados")
    assert heard.match is None and heard.decision.kind == "someone_else"


def test_a_call_the_second_look_found_is_not_vetoed_for_being_short():
    """Whisper dropped "Hey GLaDOS" from the whole utterance but heard it in the opening alone; the
    transcript is then shorter than the plain one because of that drop, not because the hotword
    invented a call (a PulseAudio run lost the call this way)."""
    import numpy as np

    from assistant.events import Transcript, Utterance
    from assistant.wake import WakeGate

    class Drops(_Hears):
        def transcribe(self, utterance, hotwords=None):
            if hotwords and utterance.seconds <= 2.0:
                return Transcript("hey glados", utterance, 0.1)
            return super().transcribe(utterance, hotwords)

    speech = Utterance(np.zeros(16_000 * 4, np.float32), 0.0, 4.0)
    heard = WakeGate(Drops("My name is Bob and I'm allergic to peanuts.",
                           "Hey G, led to us. My name is Bob and I'm allergic to peanuts."),
                     TranscriptWakeWord()).judge(speech, "hey glados")
    assert heard.match is not None and not heard.decision.kind == "someone_else"
    assert heard.match.request == "My name is Bob and I'm allergic to peanuts."


class _Parts(_Hears):
    """A recogniser for an utterance of two sentences, the second starting at `at_s`: the whole
    heard as `whole`, from the second sentence on as `second` (with the hotword: `second_hot`)."""

    def __init__(self, whole: str, second: str, second_hot: str, at_s: float):
        super().__init__(whole, whole)
        self.second, self.second_hot, self.at_s = second, second_hot, at_s

        self.fits: dict[str, float] = {}     # wordings' log-probabilities (the name check); what was heard: -5

    def transcribe(self, utterance, hotwords=None):
        from assistant.events import Transcript
        self.calls.append(hotwords)
        if utterance.start_s >= self.at_s - 0.3:
            heard = self.second_hot if hotwords else self.second
        else:
            heard = self.with_hotword
        return Transcript(heard, utterance, 0.1)

    def rescore(self, transcript, texts):
        return [-5.0 if t == transcript.text else self.fits.get(t, -40.0) for t in texts]


def test_a_call_after_someone_elses_sentence_in_one_utterance_is_heard_after_the_pause():
    """The kettle's on ... hey GLaDOS, what time is it? reaches her as one utterance: the call is
    mid-transcript. The speech after the pause is heard on its own; its request is what follows her
    name, and the first sentence is not part of it."""
    import numpy as np

    from assistant.events import Pause, Utterance
    from assistant.wake import Policy, WakeGate

    wake = TranscriptWakeWord()
    said = Utterance(np.zeros(16_000 * 4, np.float32), 10.0, 14.0, pauses=(Pause(0.4, 0.1), Pause(1.5, 0.35)))
    whole = "The kettle's on. Hey glottos, what time is it?"

    def gate(second_plain: str, **kw) -> WakeGate:
        return WakeGate(_Parts(whole, second_plain, "hey glados what time is it", at_s=11.5), wake, Policy(**kw))

    heard = gate("Hey glottos, what time is it?", pause_look_s=0.2).judge(said, "hey glados")
    assert heard.match is not None and heard.match.request == "what time is it"
    assert 1.3 <= heard.decision.after_s < 1.5 and heard.transcript.text == "hey glados what time is it"
    assert gate("Hey glottos, what time is it?", pause_look_s=0.0).judge(said, "hey glados").match is None
    # a pause shorter than the setting is not looked after; nor is one in the follow-up window
    assert gate("Hey glottos, what time is it?", pause_look_s=0.4).judge(said, "hey glados").match is None
    assert gate("Hey glottos, what time is it?", pause_look_s=0.2).judge(said, "hey glados", in_window=True).match is None
    # the part after the pause has every check: "hey Gladys" is someone else there too
    assert gate("Hey Gladys, what time is it?", pause_look_s=0.2).judge(said, "hey glados").match is None
    # with the name check on, what was heard without the hotword must pass it too: whisper told to
    # expect "hey glados" writes it for short speech ("set an alarm" after "hey Siri")
    checked = gate("Air canal arm.", pause_look_s=0.2, name_check=14.0)
    assert checked.judge(said, "hey glados").match is None
    fits = gate("Hey glottos, what time is it?", pause_look_s=0.2, name_check=14.0)
    fits.stt.fits = {"Hey GLaDOS, what time is it?": -9.0}
    assert fits.judge(said, "hey glados").match.request == "what time is it"
    # her name without a greeting, misheard in the words after the pause too ("Waddles, ..."): the name
    # check on the look's own transcript finds it, and the rest must pass every check as before
    def bare(fits: dict[str, float]) -> WakeGate:
        gate = WakeGate(_Parts(whole, "Waddles, what time is it?", "waddles what time is it", at_s=11.5), wake, Policy(pause_look_s=0.2, name_check=14.0))
        gate.stt.fits = fits
        return gate
    heard = bare({"GLaDOS, what time is it": -9.0, "GLaDOS, what time is it?": -9.0}).judge(said, "hey glados")
    assert heard.match is not None and heard.match.request == "what time is it" and heard.decision.after_s > 1.0
    assert bare({}).judge(said, "hey glados").match is None                  # her name does not fit there
    assert bare({"GLaDOS, what time is it": -9.0}).judge(said, "hey glados").match is None   # the rest's check fails
    # what was heard without the hotword may say "glad" where her name is (espeak-ng's "GLaDOS"): the
    # name check may put her name there, since the words after the pause called her
    glad = gate("Hey, glad I'm what time is it?", pause_look_s=0.2, name_check=14.0)
    glad.stt.fits = {"Hey GLaDOS, what time is it?": -9.0}
    assert glad.judge(said, "hey glados").match.request == "what time is it"
    # nobody called after the pause: one short look, nothing else
    quiet = WakeGate(_Parts(whole, "the kettle's on", "the kettle's on", at_s=11.5), wake, Policy(pause_look_s=0.2))
    assert quiet.judge(said, "hey glados").match is None


def test_a_call_after_another_sentence_wakes_her_through_the_real_segmenter():
    """Piper's "Did you remember to feed the cat?" and, after a 0.3 s breath, "Hey GLaDOS, what
    time is it?": the real VAD keeps them as one utterance. With the hotword, whisper writes only the
    call ("hey glados what time is it?"), without it both sentences: a call with a request after it
    is not one the hotword invented, so the whole is heard (the left-out rule vetoed it before, and
    the look after the pause found it); never with the cat in the request. A call without a greeting
    is found after the pause."""
    import numpy as np

    from assistant.audio.base import resample
    from assistant.events import RATE
    from assistant.wake import Policy, WakeGate
    from assistant.stt import WhisperTranscriber
    from assistant.tts import PiperSynthesizer
    from assistant.voice.vad import SileroVAD, VadOptions, segment

    piper, stt, wake = PiperSynthesizer(noise_scale=0.0), WhisperTranscriber(), TranscriptWakeWord()

    def said(text: str) -> np.ndarray:
        speech = piper.synthesize(text)
        return resample(speech.samples, speech.rate, RATE)

    quiet = np.zeros(int(0.3 * RATE), np.float32)
    audio = np.concatenate([quiet, said("Did you remember to feed the cat?"), quiet,
                            said("Hey GLaDOS, what time is it?"), quiet, quiet, quiet])
    utterances = segment(audio, VadOptions(end_silence_s=0.6), SileroVAD())
    assert len(utterances) == 1 and utterances[0].pauses, utterances
    heard = WakeGate(stt, wake, Policy(name_check=14.0, pause_look_s=0.2)).judge(utterances[0], "hey glados")
    assert heard.match is not None and "what time is it" in heard.match.request.lower(), heard
    assert "cat" not in heard.match.request.lower()
    # her name without a greeting after the sentence: whisper writes "bloodles" (after the pause too);
    # the name check on the look's transcript finds it
    bare = segment(np.concatenate([quiet, said("The kettle is on, by the way."), quiet,
                                   said("Glados, I live in Bristol now."), quiet, quiet, quiet]),
                   VadOptions(end_silence_s=0.6), SileroVAD())
    assert len(bare) == 1, bare
    heard = WakeGate(stt, wake, Policy(name_check=14.0, pause_look_s=0.2)).judge(bare[0], "hey glados")
    assert heard.match is not None and "bristol" in heard.match.request.lower(), heard
    assert "kettle" not in heard.match.request.lower() and heard.decision.after_s > 1.0
    talk = np.concatenate([quiet, said("Did you remember to feed the cat?"), quiet,
                           said("The kettle is on, by the way."), quiet, quiet, quiet])
    for utterance in segment(talk, VadOptions(end_silence_s=0.6), SileroVAD()):
        assert WakeGate(stt, wake, Policy(name_check=14.0, pause_look_s=0.2)).judge(utterance, "hey glados").match is None


def test_every_wake_set_has_its_sentences_and_a_noise_seed():
    """The first set and held-out 1 to HELD_OUT_SETS each have their calls, near misses and ordinary
    sentences, and a seed of their own; a set written without a seed is found here, not by the bench."""
    from tests.fixtures import wake_sentences
    from tests.fixtures.make_fixtures import HELD_OUT_SETS, held_out_prefix
    for n in range(HELD_OUT_SETS + 1):
        for kind in ("CALLS", "NEAR_MISSES", "ORDINARY"):
            assert getattr(wake_sentences, held_out_prefix(n) + kind, None), (n, kind)
    assert not hasattr(wake_sentences, held_out_prefix(HELD_OUT_SETS + 1) + "CALLS")
