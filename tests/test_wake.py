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
