"""Per-stage voice timings on the fixtures, and sentence streaming against whole-reply speech.

    .venv/bin/python bench/voice_bench.py [--speakers | --calls N]

A stand-in model streams a 60-word reply at a fixed 20 tokens/s (one word per token) after a
0.2 s first token. "ours" is what the project adds: STT + memory + first-sentence synthesis, from
the end of speech being detected. Each fixture runs twice: read as fast as the file allows with
transcription after the end (the loop before early STT), and handed out at the speed it was spoken,
as a microphone does, with early STT (voice.early_stt_s): then "stt" is only what was left to wait
for when the end-of-speech silence was over.

--calls N: only the wait after the end silence for N calls of a held-out wake set (set 18, spoken by
make_fixtures.py into bench/.wakeset-heldout18 when not there), each handed out as spoken, with early stt,
in a loop of its own (no follow-up window): the transcription and the gate's checks left to wait for,
memory and the first sentence's synthesis; median and worst, and how many calls woke her.

--speakers: only the cost of knowing who is talking: two voices and a visitor handed out as spoken, with
nobody enrolled and with both voices enrolled (attribution runs beside the wake gate), side by side.
"""
from __future__ import annotations

import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path
from typing import Iterator

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rich.console import Console  # noqa: E402
from rich.progress import Progress  # noqa: E402
from rich.table import Table  # noqa: E402

from assistant.audio import WavSink, WavSource  # noqa: E402
from assistant.turn.brain import Brain  # noqa: E402
from assistant.config import load_config  # noqa: E402
from assistant.llm import LLM, Chunk  # noqa: E402
from assistant.stt import WhisperTranscriber  # noqa: E402
from assistant.tts import PiperSynthesizer, make_synthesizer  # noqa: E402
from assistant.app import build_loop  # noqa: E402
from assistant.wake import TranscriptWakeWord  # noqa: E402
from memory import Memory  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures"
REPLY = ("Your allergy is noted, test subject. I have removed every peanut from the facility, which was "
         "tedious. You are welcome. Now please stand on the orange square and try not to touch anything "
         "important, because the last subject who touched something important is now part of the floor. "
         "Science thanks you for your contribution, however small.")


class SteadyLLM(LLM):
    """Streams REPLY word by word at `rate` tokens per second after `first` seconds."""

    model = "steady"

    def __init__(self, rate: float = 20.0, first: float = 0.2, reply: str = REPLY):
        self.rate, self.first, self.reply = rate, first, reply

    def check(self) -> None:
        return None

    def chat(self, messages, tools=None, max_tokens=None, format=None,
             temperature=None) -> Iterator[Chunk]:
        if format is not None:            # the session's second reading: no facts proposed
            yield Chunk(text="[]", done=True)
            return
        if "Summarize" in messages[0]["content"]:
            yield Chunk(text="A summary.", done=True)
            return
        time.sleep(self.first)
        words = self.reply.split(" ")
        for i, word in enumerate(words):
            if i:
                time.sleep(1 / self.rate)
            yield Chunk(text=word + (" " if i < len(words) - 1 else ""))
        yield Chunk(done=True)


def run(fixture: Path, stt, tts, streaming: bool, tmp: Path, realtime: bool = False, early_stt_s: float = 0.0,
        enrol=None, reply: str = REPLY):
    config = load_config()
    config = replace(config, voice=replace(config.voice, stream_sentences=streaming, early_stt_s=early_stt_s))
    with Memory(tmp / f"{fixture.stem}-{streaming}-{realtime}-{early_stt_s}-{enrol is not None}.db") as mem:
        if enrol is not None:
            enrol(mem)
        brain = Brain(mem, SteadyLLM(reply=reply), config, "bench")
        brain.connect()
        sink = WavSink(tmp / "out.wav")
        stats = build_loop(config, brain, WavSource(fixture, realtime=realtime), sink, stt=stt, tts=tts).run()
        sink.close()
    return stats


def speakers(console: Console, stt, tts) -> None:
    """The wait after the end silence with nobody enrolled and with the fixture's voices enrolled."""
    import statistics
    from assistant.speakers.model import missing
    from tests.test_speakers_voice import enrol_household
    if (why := missing()) is not None:
        console.print(why)
        return
    fixture, early = FIXTURES / "two_voices_and_a_visitor_16k.wav", load_config().voice.early_stt_s
    table = Table(title="who is talking: the wait after the end silence (as spoken, early stt; a two-word reply), seconds")
    for col in ("", "turns: whose", "stt+gate (waited) median", "first audio median", "first audio worst"):
        table.add_column(col, justify="right")
    with tempfile.TemporaryDirectory() as tmp:
        run(fixture, stt, tts, True, Path(tmp), True, early)          # warm-up
        joe = PiperSynthesizer(noise_scale=0.0)          # the fixture's first voice is joe's
        for name, enrol in (("nobody enrolled", None), ("two voices enrolled", lambda m: enrol_household(m, joe))):
            stats = run(fixture, stt, tts, True, Path(tmp), True, early, enrol, reply="Noted. Go on.")
            waits = [t.stt + t.gate for t in stats.timings]
            firsts = [t.first_audio or 0 for t in stats.timings]
            whose = ", ".join(v or "unknown" for v in stats.voices) or "the configured user"
            table.add_row(name, f"{len(waits)}: {whose}", f"{statistics.median(waits):.2f}",
                          f"{statistics.median(firsts):.2f}", f"{max(firsts):.2f}")
    console.print(table)


def calls(console: Console, stt, tts, count: int, held_out: int = 18) -> None:
    """The wait after the end silence for calls of a held-out wake set, each in a loop of its own."""
    import json
    import statistics

    import numpy as np

    from assistant.audio.wavfile import read_wav, write_wav
    from bench.wake_bench import spoken_set
    folder = spoken_set(held_out, console=console)
    rows = [r for r in json.loads((folder / "labels.json").read_text()) if r["label"] == "call"][:count]
    early = load_config().voice.early_stt_s
    waits, slowest = [], (0.0, "")          # a turn's wait for each call that woke her
    with tempfile.TemporaryDirectory() as tmp, Progress(console=console, transient=True) as bar:
        run(FIXTURES / "wake_facts_piper_16k.wav", stt, tts, True, Path(tmp))          # warm-up
        for i, row in enumerate(bar.track(rows, description="calls, as spoken")):
            samples, rate = read_wav(folder / row["file"])
            quiet = np.zeros(rate // 2, np.float32)
            path = Path(tmp) / f"call{i}.wav"
            write_wav(path, np.concatenate([quiet, samples, quiet]), rate)
            stats = run(path, stt, tts, True, Path(tmp), True, early, reply="Noted.")
            if stats.timings:
                t = stats.timings[0]
                ours = t.stt + t.gate + t.memory + (t.first_sentence_tts or 0)
                waits.append((ours, t.stt, t.gate))
                slowest = max(slowest, (ours, f"{row['text']!r} [{row['voice']}]: stt {t.stt:.2f} s, gate {t.gate:.2f} s"))
    table = Table(title=f"held-out set {held_out}: {len(rows)} calls as spoken (early stt {early:g} s), "
                        "seconds after the end silence")
    for col in ("", "median", "worst"):
        table.add_column(col, justify="right")
    for name, at in (("stt + gate + memory + first sentence tts", 0), ("stt (waited)", 1), ("gate (waited)", 2)):
        values = [w[at] for w in waits]
        table.add_row(name, f"{statistics.median(values):.2f}", f"{max(values):.2f}")
    console.print(table)
    console.print(f"woke her: {len(waits)} of {len(rows)}; slowest: {slowest[1]}", markup=False)


def main() -> None:
    console = Console(width=150)
    stt, tts = WhisperTranscriber(), make_synthesizer(load_config().voice.tts, console.print)    # her configured voice
    if "--speakers" in sys.argv:
        speakers(console, stt, tts)
        return
    if "--calls" in sys.argv:
        at = sys.argv.index("--calls")
        calls(console, stt, tts, int(sys.argv[at + 1]) if len(sys.argv) > at + 1 else 20)
        return
    fixtures = ["wake_facts_piper_16k.wav", "wake_facts_espeak_22k_stereo.wav", "memory_command_espeak_44k.wav"]
    table = Table(title="per stage, seconds (stand-in model: first token 0.2 s, then 20 tokens/s)")
    for col in ("fixture", "input", "speech s", "end-of-speech", "stt (waited)", "gate (waited)", "memory", "first token",
                "first sentence tts", "first audio", "ours (stt+gate+memory+tts)"):
        table.add_column(col, justify="right")
    early = load_config().voice.early_stt_s
    modes = (("file, whole", False, 0.0), (f"as spoken, early stt {early:g} s", True, early))
    with tempfile.TemporaryDirectory() as tmp:
        run(FIXTURES / fixtures[0], stt, tts, True, Path(tmp))          # warm-up
        for name in fixtures:
            for mode, realtime, early_s in modes:
                stats = run(FIXTURES / name, stt, tts, True, Path(tmp), realtime, early_s)
                for t in stats.timings:
                    ours = t.stt + t.gate + t.memory + (t.first_sentence_tts or 0)
                    speech = WavSource(FIXTURES / name).samples.size / 16000 - 1.5 - 0.8
                    table.add_row(name, mode, f"{speech:.1f}", f"{t.end_of_speech:.2f}", f"{t.stt:.2f}", f"{t.gate:.2f}", f"{t.memory:.3f}",
                                  "-" if t.first_token is None else f"{t.first_token:.2f}",
                                  f"{t.first_sentence_tts or 0:.2f}", f"{t.first_audio or 0:.2f}", f"{ours:.2f}")
        console.print(table)
        streamed = run(FIXTURES / fixtures[0], stt, tts, True, Path(tmp)).timings[0].first_audio
        whole = run(FIXTURES / fixtures[0], stt, tts, False, Path(tmp)).timings[0].first_audio
    from tests.test_wake import MISHEARD, ORDINARY
    wake = TranscriptWakeWord()
    false = sum(1 for text in ORDINARY if wake.match(text, "hey glados"))
    caught = sum(1 for text in MISHEARD if wake.match(text, "hey glados"))
    console.print(f"wake word: {caught}/{len(MISHEARD)} mishearings accepted; false accepts on ordinary "
                  f"sentences {false}/{len(ORDINARY)} ({false / len(ORDINARY):.1%})")
    words = len(REPLY.split())
    console.print(f"end of speech to first audio, {words}-word reply at 20 tokens/s: sentence streaming "
                  f"{streamed:.2f} s, whole reply {whole:.2f} s: {whole / streamed:.1f}x faster (target at least 2x)")


if __name__ == "__main__":
    main()
