"""Who is talking, through the voice loop with WAV input: two enrolled voices and a visitor in one recording
(each person's facts land in their own memory, the visitor's nowhere), and a newcomer enrolled by voice."""
from __future__ import annotations

import io

import numpy as np
import pytest
from rich.console import Console

from assistant.app import build_loop
from assistant.audio import WavSink, WavSource
from assistant.audio.base import resample
from assistant.audio.wavfile import read_wav, write_wav
from assistant.cli.voice import show_states
from assistant.config import load_config
from assistant.speakers import Household
from assistant.stt import WhisperTranscriber
from assistant.tts import PiperSynthesizer
from assistant.turn.brain import Brain
from memory import Memory
from tests.conftest import ROOT
from tests.fakes import ScriptedLLM
from tests.test_speakers import speaker_model  # noqa: F401  (the fixture)

FIXTURES = ROOT / "tests" / "fixtures"


@pytest.fixture(scope="module")
def models():
    return WhisperTranscriber(), PiperSynthesizer(noise_scale=0.0)


def enrol_household(memory: Memory, tts: PiperSynthesizer) -> None:
    household = Household(memory, load_config().voice.speakers)
    bob = [tts.synthesize(text) for text in ("The weather has been strange all week.",
                                             "I think I left my keys in the kitchen.",
                                             "We should visit the coast this summer.")]
    household.enrol("bob", [resample(s.samples, s.rate, 16000) for s in bob])
    household.enrol("eve", [read_wav(p, 16000)[0] for p in sorted((FIXTURES / "speakers").glob("eve_enrol*.wav"))])


def run(models, tmp_path, wav, llm, memory):
    stt, tts = models
    config = load_config()
    brain = Brain(memory, llm, config, "u")
    brain.connect()
    log = io.StringIO()
    sink = WavSink(tmp_path / "out.wav")
    stats = build_loop(config, brain, WavSource(wav), sink, show_states(Console(file=log, width=200)),
                       stt=stt, tts=tts).run()
    sink.close()
    return stats, log.getvalue()


def facts(memory: Memory, user: str) -> set[tuple[str, str]]:
    return {(f.key, f.value) for f in memory.facts(user)}


def test_each_voice_writes_its_own_memory_and_a_visitor_none(models, tmp_path, speaker_model):
    llm = ScriptedLLM().enqueue("Peanuts. Noted.").enqueue("Paris. Noted.").enqueue("How unfortunate.")
    with Memory(tmp_path / "m.db") as memory:
        enrol_household(memory, models[1])
        stats, shown = run(models, tmp_path, FIXTURES / "two_voices_and_a_visitor_16k.wav", llm, memory)
        assert stats.voices == ["bob", "eve", None]
        assert ("allergy", "peanuts") in facts(memory, "bob") and ("location", "Paris") not in facts(memory, "bob")
        assert ("location", "Paris") in facts(memory, "eve") and ("allergy", "peanuts") not in facts(memory, "eve")
        for user in ("bob", "eve", "u", "guest"):       # the visitor's allergy is nobody's
            assert not any("shellfish" in f.value for f in memory.facts(user))
        stored = memory.db.execute("SELECT count(*) FROM messages WHERE text LIKE '%shellfish%'").fetchone()[0]
        assert stored == 0
    assert "[unknown voice: nothing remembered]" in shown and shown.count("unknown voice") == 1
    assert "[voice] bob" in shown and "[voice] eve" in shown
    # The visitor was answered, with nobody's memory in the request (then each session's end reads its session)
    turns = [r for r in llm.requests if "JSON" not in r[0]["content"] and "summar" not in r[0]["content"].lower()]
    assert len(turns) == 3
    visitor = " ".join(m["content"] for m in turns[2])
    assert "shellfish" in visitor and "peanuts" not in visitor and "Paris" not in visitor


def test_with_nobody_enrolled_every_voice_is_the_configured_user(models, tmp_path):
    llm = ScriptedLLM()
    with Memory(tmp_path / "m.db") as memory:
        stats, shown = run(models, tmp_path, FIXTURES / "two_voices_and_a_visitor_16k.wav", llm, memory)
        assert stats.voices == [] and "voice" not in shown
        assert {("allergy", "peanuts"), ("location", "Paris")} <= facts(memory, "u")


def sams_exchange(tmp_path):
    """Sam's five utterances with the pauses of the exchange: her replies take input time (she reads the input
    while she speaks), so each pause outlasts the reply before it and ends inside the follow-up window after it."""
    rng = np.random.default_rng(5)
    pieces = []
    for i, pause in zip(range(1, 6), (7.5, 5.0, 6.0, 6.0, 0.0)):
        pieces.append(read_wav(FIXTURES / "speakers" / f"sam{i}_espeak_16k.wav")[0])
        pieces.append(rng.normal(0, 10 ** (-50 / 20), int(pause * 16000)).astype(np.float32))
    path = tmp_path / "sams_exchange.wav"
    write_wav(path, np.concatenate(pieces), 16000)
    return path


def test_a_newcomer_is_enrolled_by_voice_and_then_remembered(models, tmp_path, speaker_model):
    llm = ScriptedLLM().enqueue("Bristol. Damp.")
    with Memory(tmp_path / "m.db") as memory:
        enrol_household(memory, models[1])
        stats, shown = run(models, tmp_path, sams_exchange(tmp_path), llm, memory)
        lines = load_config().persona.lines
        assert stats.replies[:4] == [lines.voice_ask.format(what="Sam"), lines.voice_more,
                                     lines.voice_learned.format(what="Sam"), lines.voice_known.format(what="Sam")]
        assert stats.voices == [None, None, "sam", "sam", "sam"]
        assert [p.user for p in memory.voiceprints()] == ["bob", "eve", "sam"]
        assert {("name", "Sam"), ("location", "Bristol")} <= facts(memory, "sam")
        assert not facts(memory, "u")


def test_her_own_voice_heard_back_is_never_enrolled(models, tmp_path, speaker_model):
    from assistant.voice.who import Voice, Who
    tts = models[1]
    config = load_config()

    def speech(text: str):
        s = tts.synthesize(text)
        return resample(s.samples, s.rate, 16000)
    with Memory(tmp_path / "m.db") as memory:
        household = Household(memory, config.voice.speakers)
        household.enrol("eve", [read_wav(p, 16000)[0] for p in sorted((FIXTURES / "speakers").glob("eve_enrol*.wav"))])
        who = Who(household, config.voice.speakers, config.persona.lines,
                  lambda user, mem: Brain(mem, None, config, user), her_voice=lambda: speech("Oh. It's you."))
        stranger = Voice(None)
        assert who.intercept("I'm Glenda", stranger, speech("Hey GLaDOS, I'm Glenda.")) is not None
        who.intercept("one", stranger, speech("The garden needs watering before the weekend."))
        said = who.intercept("two", stranger, speech("My favourite colour has always been green."))
        assert said is not None and "my own voice" in said.line and said.voice.user is None
        assert [p.user for p in memory.voiceprints()] == ["eve"]


def test_room_talk_is_never_attributed_only_what_she_answers(models, tmp_path, speaker_model):
    """Whose voice it is costs about 0.1 s of a core: worked out for an utterance she answers (a call, or
    said in the follow-up window), never for the room's talk, which costs one transcription."""
    stt, tts = models

    def said(text: str) -> np.ndarray:
        speech = tts.synthesize(text)
        return resample(speech.samples, speech.rate, 16000)

    gap, kettle = np.zeros(2 * 16000, np.float32), said("The kettle is on, does anyone want a cup of tea?")
    write_wav(tmp_path / "room.wav", np.concatenate([gap, kettle, gap, said("Hey GLaDOS, I'm allergic to peanuts."), gap]),
              16000)
    call_s = (2 * len(gap) + len(kettle)) / 16000
    with Memory(tmp_path / "m.db") as memory:
        enrol_household(memory, tts)
        config = load_config()
        brain = Brain(memory, ScriptedLLM().enqueue("Noted."), config, "u")
        brain.connect()
        loop = build_loop(config, brain, WavSource(tmp_path / "room.wav"), WavSink(tmp_path / "out.wav"), stt=stt, tts=tts)
        attributed: list[float] = []     # input time when each attribution began
        listen = loop.who.listen
        loop.who.listen = lambda samples: attributed.append(loop.segmenter.time_s) or listen(samples)
        stats = loop.run()
    assert len(stats.ignored) == 1 and "kettle" in stats.ignored[0].lower()
    assert len(stats.heard) == 1 and "peanuts" in stats.heard[0].lower()
    # the call, perhaps twice (its opening judged early, then all of it once speech went on); the kettle never
    assert attributed and all(t > call_s for t in attributed), (attributed, call_s)
    assert stats.voices == ["bob"]
