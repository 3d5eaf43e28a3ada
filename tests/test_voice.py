"""The voice loop end to end on recorded WAVs: real VAD, real tiny.en, real Piper."""
from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from assistant.audio import WavSink, WavSource
from assistant.audio.base import AudioSource
from assistant.audio.wavfile import read_wav, write_wav
from assistant.turn.brain import Brain
from assistant.config import load_config
from assistant.events import RATE, Utterance
from assistant.stt import Transcriber, WhisperTranscriber
from assistant.tts import PiperSynthesizer, Synthesizer
from assistant.app import build_loop
from assistant.wake import WakeGate
from assistant.wake.decide import SHIPPED
from memory import Memory
from tests.conftest import ROOT
from tests.fakes import ScriptedLLM

FIXTURES = ROOT / "tests" / "fixtures"
LONG_REPLY = ("Once upon a time there was a test subject. It was tested for many years. It never complained. "
              "Then one day it did, and it was incinerated. The end.")


@pytest.fixture(scope="module")
def models():
    return WhisperTranscriber(), PiperSynthesizer(noise_scale=0.0)   # repeatable audio, repeatable tests


def run_loop(models, tmp_path, wav, llm, *, user="u", db=None, **voice):
    config = load_config()
    config = replace(config, voice=replace(config.voice, **voice))
    stt, tts = models
    out = tmp_path / "out.wav"
    with Memory(db or tmp_path / "m.db") as mem:
        brain = Brain(mem, llm, config, user)
        brain.connect()
        sink = WavSink(out)
        stats = build_loop(config, brain, WavSource(wav), sink, stt=stt, tts=tts).run()
        sink.close()
        facts = {(f.key, f.value) for f in mem.facts(user)}
        messages = [dict(r) for r in mem.db.execute("SELECT role, text, interrupted FROM messages WHERE user = ?", (user,))]
    audio, rate = read_wav(out)
    return stats, facts, messages, audio, rate


def rms(audio: np.ndarray) -> float:
    return float(np.sqrt(np.mean(audio ** 2))) if len(audio) else 0.0


def test_wake_word_leads_to_facts_and_a_spoken_reply(models, tmp_path):
    llm = ScriptedLLM().enqueue("Noted. Peanuts are now your enemy.")
    stats, facts, _, audio, rate = run_loop(models, tmp_path, FIXTURES / "wake_facts_piper_16k.wav", llm)
    assert {("name", "Bob"), ("allergy", "peanuts")} <= facts
    assert len(audio) / rate > 1.0 and rms(audio) > 0.01
    assert llm.requests and "peanuts" in llm.requests[0][0]["content"]


def test_another_voice_rate_and_stereo(models, tmp_path):
    stats, facts, *_ = run_loop(models, tmp_path, FIXTURES / "wake_facts_espeak_22k_stereo.wav",
                                ScriptedLLM().enqueue("Paris. How romantic."))
    assert ("location", "Paris") in facts


def test_without_the_wake_word_nobody_hears(models, tmp_path):
    llm = ScriptedLLM()
    stats, facts, messages, audio, _ = run_loop(models, tmp_path, FIXTURES / "no_wake_piper_8k.wav", llm)
    assert stats.ignored and not stats.heard
    assert facts == set() and messages == [] and llm.requests == []
    assert rms(audio) == 0.0


def test_follow_up_window_needs_no_wake_word(models, tmp_path):
    stats, facts, *_ = run_loop(models, tmp_path, FIXTURES / "follow_up_piper_16k.wav",
                                ScriptedLLM().enqueue("Hello.").enqueue("Oslo. Cold."))
    assert len(stats.heard) == 2 and ("location", "Oslo") in facts


def test_after_the_follow_up_window_the_wake_word_is_needed_again(models, tmp_path):
    stats, facts, *_ = run_loop(models, tmp_path, FIXTURES / "follow_up_piper_16k.wav",
                                ScriptedLLM().enqueue("Hello."), follow_up_s=0.5)
    assert len(stats.heard) == 1 and len(stats.ignored) == 1 and ("location", "Oslo") not in facts


def test_room_talk_after_a_request_does_not_chain_the_follow_up_window(models, tmp_path):
    """One real request, then ten sentences of family talk: at most one reaches her, nothing the
    room said after that is stored as the user's."""
    llm = ScriptedLLM().enqueue("Sunny. Try not to enjoy it.")
    stats, facts, messages, *_ = run_loop(models, tmp_path, FIXTURES / "room_talk_piper_8k.wav", llm)
    assert "weather" in stats.heard[0]
    room = stats.heard[1:]
    assert len(room) <= 1, room
    assert stats.follow_ups == room                     # what the window let in is marked as such
    said = [m["text"] for m in messages if m["role"] == "user"]
    assert not any("allergic to cats" in t for t in said) and ("allergy", "cats") not in facts
    assert len(stats.ignored) + len(stats.ignored_while_speaking) >= 8


def test_a_follow_up_question_right_after_her_answer_is_heard(models, tmp_path):
    llm = ScriptedLLM().enqueue("Paris. Obviously.").enqueue("Madrid.")
    stats, *_ = run_loop(models, tmp_path, FIXTURES / "follow_up_question_piper_16k.wav", llm)
    assert len(stats.heard) == 2 and "spain" in stats.heard[1].lower()
    assert stats.follow_ups == [stats.heard[1]]


def test_barge_in_cuts_her_off_and_stores_what_was_said(models, tmp_path):
    llm = ScriptedLLM().enqueue(LONG_REPLY).enqueue("Fine.")
    stats, _, messages, audio, rate = run_loop(models, tmp_path, FIXTURES / "barge_in_piper_16k.wav", llm,
                                               barge_in=True)
    cut = [m for m in messages if m["role"] == "assistant" and m["interrupted"]]
    assert len(cut) == 1 and 0 < len(cut[0]["text"]) < len(LONG_REPLY) and LONG_REPLY.startswith(cut[0]["text"])
    assert stats.interrupted == 1 and len(stats.heard) == 2          # the interruption is the next request
    full = PiperSynthesizer().synthesize(LONG_REPLY).seconds
    assert len(audio) / rate < full


def test_without_barge_in_the_microphone_is_ignored_while_she_speaks(models, tmp_path):
    llm = ScriptedLLM().enqueue(LONG_REPLY)
    stats, facts, messages, *_ = run_loop(models, tmp_path, FIXTURES / "barge_in_piper_16k.wav", llm)
    assert stats.interrupted == 0 and len(stats.heard) == 1
    assert [m["text"] for m in messages if m["role"] == "assistant"] == [LONG_REPLY]
    # what was said over her is shown, not answered and not stored
    assert len(stats.ignored_while_speaking) == 1 and stats.ignored_while_speaking[0]
    assert not any(stats.ignored_while_speaking[0] in m["text"] for m in messages)


def test_memory_command_by_voice(models, tmp_path):
    db = tmp_path / "m.db"
    with Memory(db) as mem:
        mem.observe("u", "I'm allergic to peanuts and I live in Leeds")
    llm = ScriptedLLM()
    stats, _, messages, audio, _ = run_loop(models, tmp_path, FIXTURES / "memory_command_espeak_44k.wav", llm, db=db)
    assert "peanuts" in stats.replies[0] and "Leeds" in stats.replies[0]
    # only the session's end: the model's reading of it, then the summary
    assert all("Summarize" in r[0]["content"] or "standing facts" in r[0]["content"] for r in llm.requests)
    assert rms(audio) > 0.01


def spoken_wav(tts, path, *parts):
    """Speech pieces (text) and pauses (seconds) in one WAV, made with the bundled Piper voice."""
    pieces = [np.zeros(int(0.5 * tts.rate), np.float32)]
    for part in parts:
        pieces.append(np.zeros(int(part * tts.rate), np.float32) if isinstance(part, (int, float))
                      else tts.synthesize(part).samples * 0.8)
    pieces.append(np.zeros(int(0.5 * tts.rate), np.float32))
    write_wav(path, np.concatenate(pieces), tts.rate)
    return path


def test_wake_word_alone_then_the_request_after_a_pause(models, tmp_path):
    wav = spoken_wav(models[1], tmp_path / "pause.wav", "Hey GLaDOS.", 1.2, "I live in Oslo.")
    llm = ScriptedLLM().enqueue("Oslo. Cold.")
    stats, facts, *_ = run_loop(models, tmp_path, wav, llm)
    assert len(stats.heard) == 1 and "live in Oslo" in stats.heard[0] and ("location", "Oslo") in facts
    assert stats.replies == ["Oslo. Cold."]               # no "yes?" talking over the request


def test_wake_word_alone_gets_an_answer(models, tmp_path):
    wav = spoken_wav(models[1], tmp_path / "called.wav", "Hey GLaDOS.")
    stats, *_ = run_loop(models, tmp_path, wav, ScriptedLLM())
    assert stats.heard == [""] and stats.replies == [load_config().persona.lines.called]


def test_wake_word_change_by_voice_persists(models, tmp_path):
    db = tmp_path / "m.db"
    tts = models[1]

    def say(text: str, name: str):
        return spoken_wav(tts, tmp_path / name, text)

    first = say("Hey GLaDOS, change your wake word to hey Jarvis.", "change.wav")
    stats, facts, *_ = run_loop(models, tmp_path, first, ScriptedLLM(), db=db)
    # tiny.en may spell the new name its own way ("hey jorris"); the fuzzy match copes with that.
    wake = [v for k, v in facts if k == "wake_word"]
    assert len(wake) == 1 and wake[0].startswith("hey j") and wake[0] in stats.replies[0].lower()
    second = say("Hey Jarvis, what do you remember about me?", "jarvis.wav")
    stats, *_ = run_loop(models, tmp_path, second, ScriptedLLM(), db=db)     # a new loop, same memory
    assert len(stats.heard) == 1 and "remember about me" in stats.heard[0].lower()


class ScriptedVAD:
    """A VAD that replays speech probabilities, one per frame (the segmenter's interface: a callable)."""

    def __init__(self, probabilities):
        self.probabilities = iter(probabilities)

    def __call__(self, frame):
        return next(self.probabilities)

    def reset(self):
        pass


@pytest.mark.parametrize("silence_s, end_of_input", [(0.6, False), (1.0, False), (0.6, True)])
def test_end_of_speech_is_measured_not_the_configured_silence(silence_s, end_of_input):
    from assistant.audio.base import FRAME
    from assistant.voice.vad import Segmenter, VadOptions
    frame_s = FRAME / RATE
    voiced, quiet = int(1.0 / frame_s), int(0.3 / frame_s) if end_of_input else int(3.0 / frame_s)
    segmenter = Segmenter(ScriptedVAD([0.9] * voiced + [0.0] * quiet), VadOptions(end_silence_s=silence_s))
    frame = np.zeros(FRAME, dtype=np.float32)
    utterance = next((u for _ in range(voiced + quiet) if (u := segmenter.feed(frame)) is not None), None)
    if end_of_input:
        assert utterance is None
        utterance = segmenter.flush()     # the input ended 0.3 s after the voice did
    expected = 0.3 if end_of_input else silence_s
    assert utterance is not None and abs(utterance.end_of_speech_s - expected) <= frame_s


def test_a_wake_word_whisper_dropped_is_found_in_a_second_look_at_the_opening(models, tmp_path):
    """Whisper can drop a leading "Hey GLaDOS" from a long utterance (seen through a real virtual
    microphone); the opening transcribed alone keeps it, and the request is the whole transcript."""
    from assistant.events import Transcript
    from assistant.stt import Transcriber
    real_stt, tts = models

    class DropsTheWakeWord(Transcriber):
        def transcribe(self, utterance, hotwords=None):
            heard = real_stt.transcribe(utterance, hotwords)
            if utterance.seconds > 2.5:   # what the real model did to the whole utterance
                return Transcript("My name is Bob and I'm allergic to peanuts", utterance, heard.stt_s)
            return heard

    config = load_config()
    with Memory(tmp_path / "m.db") as mem:
        brain = Brain(mem, ScriptedLLM().enqueue("Noted."), config, "u")
        brain.connect()
        sink = WavSink(tmp_path / "out.wav")
        stats = build_loop(config, brain, WavSource(FIXTURES / "wake_facts_piper_16k.wav"), sink,
                           stt=DropsTheWakeWord(), tts=tts).run()
        sink.close()
        off = build_loop(config, brain, WavSource(FIXTURES / "wake_facts_piper_16k.wav"), WavSink(tmp_path / "o.wav"),
                         stt=DropsTheWakeWord(), tts=tts)
        off.gate = WakeGate(off.gate.stt, off.gate.wake, replace(SHIPPED, second_look_s=0), off.gate.name_model)
        stats_off = off.run()
    assert stats.heard == ["My name is Bob and I'm allergic to peanuts"] and stats.ignored == []
    assert stats_off.heard == [] and stats_off.ignored == ["My name is Bob and I'm allergic to peanuts"]


class _Silence(AudioSource):
    def __init__(self, frames: int):
        self.count = frames

    def frames(self):
        from assistant.audio.base import FRAME
        return iter([np.zeros(FRAME, np.float32)] * self.count)


class _SaysWhatItGot(Transcriber):
    """Writes how long the audio it was given lasts, so a test can tell which utterance was heard."""
    concurrent = True

    def __init__(self):
        self.heard: list[float] = []

    def transcribe(self, utterance, hotwords=None):
        from assistant.events import Transcript
        if hotwords:
            self.heard.append(round(utterance.seconds, 1))
        return Transcript(f"hey glados note {utterance.seconds:.1f} seconds", utterance, 0.01)


class _Mute(Synthesizer):
    rate = 16_000

    def synthesize(self, text):
        from assistant.events import Speech
        return Speech(np.zeros(160, np.float32), self.rate, text)


@pytest.mark.parametrize("resumes", [False, True])
def test_early_transcription_is_used_only_when_nothing_was_said_after_it(tmp_path, resumes):
    """voice.early_stt_s: the gate runs once a pause begins; if speech resumes before the end of
    the silence, that early decision is thrown away and the whole utterance is heard."""
    from assistant.audio.base import FRAME
    from assistant.voice.vad import Segmenter, VadOptions
    from assistant.voice.loop import VoiceLoop
    from assistant.wake import TranscriptWakeWord
    frame_s = FRAME / RATE

    def frames(seconds):
        return int(round(seconds / frame_s))
    script = [0.9] * frames(1.0) + [0.0] * frames(0.3)
    script += [0.9] * frames(0.5) if resumes else [0.0] * frames(1.0)     # resumes: then the input ends
    segmenter = Segmenter(ScriptedVAD(script), VadOptions(min_speech_s=0.1, end_silence_s=0.6, pre_roll_s=0.0,
                                                          early_s=0.2))
    stt = _SaysWhatItGot()
    config = load_config()
    with Memory(tmp_path / "m.db") as mem:
        brain = Brain(mem, ScriptedLLM().enqueue("Noted."), config, "u")
        brain.connect()
        loop = VoiceLoop(_Silence(len(script)), WavSink(tmp_path / "o.wav"), segmenter, stt, TranscriptWakeWord(),
                         _Mute(), brain, config.voice)
        loop.gate = WakeGate(stt, loop.wake, replace(SHIPPED, name_floor=0.0))   # silence: no name to hear in it
        stats = loop.run()
    # 1.2 s: the utterance once 0.2 s of the pause had passed; 1.8 s: all of it, when speech resumed
    assert stt.heard == ([1.2, 1.8] if resumes else [1.2])
    assert stats.heard == [f"note {1.8 if resumes else 1.2} seconds"]    # the early transcript was the one used


def test_the_segmenter_keeps_the_pauses_inside_an_utterance():
    """Silence shorter than the end silence stays inside the utterance, and where speech resumed
    after it is kept (where another sentence, or another speaker, may begin)."""
    from assistant.audio.base import FRAME
    from assistant.voice.vad import Segmenter, VadOptions
    frame_s = FRAME / RATE
    script = [0.9] * 20 + [0.0] * 10 + [0.9] * 20 + [0.0] * 3 + [0.9] * 10 + [0.0] * 25
    segmenter = Segmenter(ScriptedVAD(script), VadOptions(min_speech_s=0.1, end_silence_s=0.6, pre_roll_s=0.0,
                                                         pause_s=0.15))
    out = [u for frame in range(len(script)) if (u := segmenter.feed(np.zeros(FRAME, np.float32))) is not None]
    assert len(out) == 1
    (pause,) = out[0].pauses          # 10 silent frames (0.32 s) kept; 3 (0.1 s) are within a word
    assert pause.silence_s == pytest.approx(10 * frame_s) and pause.at_s == pytest.approx(30 * frame_s)


def test_a_transcription_stuck_in_a_loop_is_cut_short_and_heard_again(models):
    """tiny.en hears this espeak-ng "Glados, how old is the universe?" as "No, no, no, ..." to its
    448-token limit (here; int8 kernels on another CPU may not loop at all). Each decode is capped by
    the utterance's length, and a looped one is decoded again with repeats penalised."""
    import re
    stt, _ = models
    samples, rate = read_wav(FIXTURES / "loop_espeak_16k.wav")
    utterance = Utterance(samples, 0.0, len(samples) / rate)
    decode, limits = stt.model.transcribe, []

    def recording(*args, **kwargs):
        limits.append(kwargs.get("max_new_tokens") or 448)
        return decode(*args, **kwargs)
    stt.model.transcribe = recording
    try:
        heard = [stt.transcribe(utterance).text, stt.transcribe(utterance, hotwords="hey glados").text]
    finally:
        stt.model.transcribe = decode
    for text in heard:
        words = re.findall(r"[\w']+", text.lower())
        assert 0 < len(words) < 20, text
        assert not any(words[i:i + 3] == [words[i]] * 3 for i in range(len(words))), text    # no "no, no, no"
    assert limits and max(limits) <= 12 * utterance.seconds + 1


def test_whisper_says_how_sure_it_was_of_each_word(models):
    """The wake gate trusts clear speech over the name model: each timed word carries how likely
    whisper found it (Piper's clear voice: most words near 1; noise: far less sure of what it wrote)."""
    stt, _ = models
    samples, rate = read_wav(FIXTURES / "wake_facts_piper_16k.wav")
    clear = stt.timings(stt.transcribe(Utterance(samples, 0.0, len(samples) / rate)))
    sure = [w.probability for w in clear]
    assert sure and all(p is not None and 0 < p <= 1 for p in sure) and sum(sure) / len(sure) > 0.6
    noise = np.random.default_rng(0).normal(0, 0.3, 3 * RATE).astype(np.float32)
    mumbled = stt.transcribe(Utterance(noise, 0.0, 3.0))
    words = (stt.timings(mumbled) or ()) if mumbled.text.strip() else ()
    assert not words or sum(w.probability for w in words) / len(words) < sum(sure) / len(sure)


def test_an_utterance_with_no_words_made_out_is_shown_not_dropped(models, tmp_path):
    """A visitor far off, a cough: speech the transcriber makes no words of still gets its line."""
    from assistant.events import Transcript
    from assistant.voice.loop import State
    _, tts = models

    class HearsNothing(Transcriber):
        def transcribe(self, utterance, hotwords=None):
            return Transcript("", utterance, 0.01)

    shown = []
    config = load_config()
    with Memory(tmp_path / "m.db") as mem:
        brain = Brain(mem, ScriptedLLM(), config, "u")
        build_loop(config, brain, WavSource(FIXTURES / "wake_facts_piper_16k.wav"), WavSink(tmp_path / "o.wav"),
                   shown.append, stt=HearsNothing(), tts=tts).run()
    ignored = [s for s in shown if s.state == State.IGNORED]
    assert ignored and all(s.why == "no words I could make out" for s in ignored)
