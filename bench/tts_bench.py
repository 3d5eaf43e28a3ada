"""Her voice, measured: each engine with and without the GLaDOS colour.

    .venv/bin/python bench/tts_bench.py [--engines pico,kokoro,piper]

For each engine and effect, on the reply fixtures below (sentence-streamed, as the voice loop speaks them;
a first sentence longer than 60 characters is split at its first clause): the first piece's synthesis time
(the wait after the model finished it; median and worst), CPU seconds per second of audio, the memory the
voice takes (resident set of a fresh process after loading it and speaking, minus before), its median pitch,
and whisper's (tiny.en) word error rate on her own output. Each engine runs in a process of its own, on
two threads at most. Targets for the default: pitch above 165 Hz, word errors at most 5%, first piece
within 0.35 s.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

REPLIES = [
    "Your allergy is noted, test subject. I have removed every peanut from the facility, which was tedious.",
    "Oh. It's you. You live in Bristol, which explains a great deal.",
    "The capital of France is Paris. Even you could have found that out.",
    "I remember everything you told me. Your name is Ada, you live in Leeds, and you are allergic to peanuts.",
    "Congratulations. Your diet is now as restricted as your intellect.",
    "It is half past three. Not that you will do anything useful with the time.",
    "Deleted. It is as if you never said it. I almost miss it.",
    "Fish. How adventurous. I will keep the peanuts away from you anyway.",
]
FIRST_CLAUSE_CHARS = 60


def pieces(reply: str) -> list[str]:
    """The reply as the loop speaks it: sentence by sentence, a long first sentence split at its first clause."""
    from assistant.tts import SentenceChunker
    chunker = SentenceChunker()
    out = chunker.feed(reply + " ") + chunker.flush()
    if out and len(out[0]) > FIRST_CLAUSE_CHARS and ", " in out[0]:
        head, _, tail = out[0].partition(", ")
        out[:1] = [head + ",", tail]
    return out


def median_pitch(samples: np.ndarray, rate: int) -> float:
    """Median F0 of the voiced 40 ms frames, by autocorrelation (70-400 Hz)."""
    frame, found = int(0.04 * rate), []
    for i in range(0, len(samples) - frame, frame // 2):
        x = samples[i:i + frame] - samples[i:i + frame].mean()
        if np.sqrt(np.mean(x ** 2)) < 0.02:
            continue
        c = np.correlate(x, x, "full")[frame - 1:]
        lo, hi = int(rate / 400), int(rate / 70)
        k = lo + int(np.argmax(c[lo:hi]))
        if c[k] > 0.4 * c[0]:
            found.append(rate / k)
    return float(np.median(found)) if found else 0.0


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def one(engine: str, effect: str, out: Path) -> dict:
    """In a process of its own: load the voice, speak every reply, measure."""
    from dataclasses import replace
    from assistant.audio.base import resample
    from assistant.audio.wavfile import write_wav
    from assistant.config import load_config
    from assistant.tts import make_synthesizer
    before = rss_mb()
    notices: list[str] = []
    t = time.perf_counter()
    voice = make_synthesizer(replace(load_config().voice.tts, engine=engine, effect=effect), notices.append)
    load_s = time.perf_counter() - t
    voice.synthesize("Warm up.")
    firsts, cpu, audio_s, pitches = [], 0.0, 0.0, []
    for n, reply in enumerate(REPLIES):
        spoken = []
        for i, piece in enumerate(pieces(reply)):
            t, c = time.perf_counter(), time.process_time()
            speech = voice.synthesize(piece)
            if i == 0:
                firsts.append(time.perf_counter() - t)
            cpu += time.process_time() - c
            audio_s += speech.seconds
            spoken.append(speech.samples)
            rate = speech.rate
        samples = np.concatenate(spoken)
        pitches.append(median_pitch(samples, rate))
        write_wav(out / f"{n}.wav", resample(samples, rate, 16000), 16000)
    return {"engine": engine, "effect": effect, "notices": notices, "load_s": load_s,
            "first_median": statistics.median(firsts), "first_worst": max(firsts), "cpu_per_audio_s": cpu / audio_s,
            "memory_mb": rss_mb() - before, "pitch": statistics.median(pitches)}


def words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9']+", text.lower())


def errors(ref: list[str], hyp: list[str]) -> int:
    d = list(range(len(hyp) + 1))
    for i, r in enumerate(ref, 1):
        prev, d[0] = d[0], i
        for j, h in enumerate(hyp, 1):
            prev, d[j] = d[j], min(d[j] + 1, d[j - 1] + 1, prev + (r != h))
    return d[-1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--engines", default="pico,kokoro,piper")
    parser.add_argument("--one", nargs=3, metavar=("ENGINE", "EFFECT", "DIR"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        print(json.dumps(one(args.one[0], args.one[1], Path(args.one[2]))))
        return 0
    from rich.console import Console
    from rich.table import Table
    from assistant.audio.wavfile import read_wav
    from assistant.events import Utterance
    from assistant.stt import WhisperTranscriber
    console = Console(width=max(Console().width, 140))
    stt = WhisperTranscriber()
    table = Table(title="her voice (reply fixtures, sentence-streamed; 2 threads)")
    for col in ("engine", "effect", "first piece median s", "worst s", "CPU s per audio s", "memory MB",
                "median pitch Hz", "word errors (whisper)", "load s"):
        table.add_column(col, justify="right")
    env = {**os.environ, "OMP_NUM_THREADS": "2", "OPENBLAS_NUM_THREADS": "2"}
    for engine in args.engines.split(","):
        for effect in ("none", "glados"):
            with tempfile.TemporaryDirectory() as folder:
                done = subprocess.run([sys.executable, __file__, "--one", engine, effect, folder], capture_output=True,
                                      text=True, env=env)
                if done.returncode != 0:
                    console.print(f"{engine} {effect}: failed: {done.stderr.strip().splitlines()[-1:]}")
                    continue
                r = json.loads(done.stdout.strip().splitlines()[-1])
                ref_n = err_n = 0
                for n, reply in enumerate(REPLIES):
                    audio, _ = read_wav(Path(folder) / f"{n}.wav")
                    heard = stt.transcribe(Utterance(audio, 0.0, len(audio) / 16000)).text
                    ref_n += len(words(reply))
                    err_n += errors(words(reply), words(heard))
            name = engine + (" (joe: " + r["notices"][0][:30] + "...)" if r["notices"] else "")
            table.add_row(name, effect, f"{r['first_median']:.3f}", f"{r['first_worst']:.3f}",
                          f"{r['cpu_per_audio_s']:.3f}", f"{r['memory_mb']:.0f}", f"{r['pitch']:.0f}",
                          f"{err_n / ref_n:.1%}", f"{r['load_s']:.2f}")
    console.print(table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
