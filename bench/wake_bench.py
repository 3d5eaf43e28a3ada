"""Is it for her? False accepts per 100 ordinary sentences and misses of the ways to call her, on
the labelled wake set, across wake thresholds.

    .venv/bin/python bench/wake_bench.py [--set DIR] [--list]

The set (tests/fixtures/wake_sentences.py: 106 household sentences, 25 of them near misses such as
"hey glad to see you", "Gladys", "hey Google"; 24 calls) is spoken by make_fixtures.py --wake-set
into DIR (default bench/.wakeset) when it is not there yet: Piper at three rates and two pitches,
and espeak-ng's voices when installed. Each recording goes through the voice loop's own gate
(assistant/gate.py): tiny.en with the wake phrase as hotword, the transcript matcher, and the
second look at the opening, and the plain check (the same audio without the hotword: a call that
then names someone else, "hey Gladys", is not hers). The configured threshold is marked.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rich.console import Console  # noqa: E402
from rich.table import Table  # noqa: E402

from assistant.audio.base import resample  # noqa: E402
from assistant.audio.wavfile import read_wav  # noqa: E402
from assistant.config import load_config  # noqa: E402
from assistant.events import RATE, Utterance  # noqa: E402
from assistant.gate import WakeGate  # noqa: E402
from assistant.stt import make_transcriber  # noqa: E402
from assistant.wake import make_wake  # noqa: E402

THRESHOLDS = (0.70, 0.74, 0.78, 0.82, 0.86, 0.90, 0.94)


def score_set(folder: Path, config) -> list[dict]:
    """Every recording with its label, transcripts and the two match scores (first pass, opening)."""
    labels = json.loads((folder / "labels.json").read_text())
    v = config.voice
    wake = make_wake(v.wake)
    gate = WakeGate(make_transcriber(v.stt), wake, v.wake.second_look_s, v.wake.plain_check)
    out = []
    for row in labels:
        samples, rate = read_wav(folder / row["file"])
        audio = resample(samples, rate, RATE)
        heard = gate.hear(Utterance(audio, 0.0, len(audio) / RATE), v.wake.phrase, always=True)
        out.append({**row, "heard": heard.transcript.text.strip(),
                    "first": heard.first.score if heard.first else 0.0,
                    "opening": heard.opening.score if heard.opening else 0.0,
                    "plain": heard.plain or "", "someone_else": bool(heard.plain) and wake.someone_else(heard.plain, v.wake.phrase),
                    "accepted": heard.match is not None})
    return out


def accepted(row: dict, threshold: float) -> bool:
    return (row["first"] >= threshold or row["opening"] >= threshold) and not row["someone_else"]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--set", type=Path, default=ROOT / "bench" / ".wakeset")
    parser.add_argument("--list", action="store_true", help="every false accept and miss at the configured threshold")
    args = parser.parse_args()
    console = Console()
    if not (args.set / "labels.json").exists():
        from tests.fixtures.make_fixtures import wake_set
        with console.status(f"speaking the wake set into {args.set}"):
            wake_set(args.set)
    config = load_config()
    with console.status("transcribing the wake set"):
        rows = score_set(args.set, config)
    calls = [r for r in rows if r["label"] == "call"]
    ordinary = [r for r in rows if r["label"] != "call"]
    near = [r for r in rows if r["label"] == "near_miss"]
    table = Table(title=f"wake gate on {len(rows)} recordings ({len(ordinary)} ordinary, {len(near)} of them "
                        f"near misses; {len(calls)} calls)")
    for col in ("threshold", "false accepts / 100 ordinary", "near misses accepted", "calls missed"):
        table.add_column(col, justify="right")
    for t in sorted(set(THRESHOLDS) | {config.voice.wake.threshold}):
        fa = sum(accepted(r, t) for r in ordinary)
        mark = " (config)" if t == config.voice.wake.threshold else ""
        table.add_row(f"{t:.2f}{mark}", f"{100 * fa / len(ordinary):.1f}", f"{sum(accepted(r, t) for r in near)} of {len(near)}",
                      f"{sum(not accepted(r, t) for r in calls)} of {len(calls)}")
    console.print(table)
    gate_fa = [r for r in ordinary if r["accepted"]]
    gate_miss = [r for r in calls if not r["accepted"]]
    console.print(f"the loop's own decision at {config.voice.wake.threshold}: {len(gate_fa)} false accepts "
                  f"({100 * len(gate_fa) / len(ordinary):.1f} per 100), {len(gate_miss)} of {len(calls)} calls missed "
                  "(targets: at most 1 per 100, at most 1 in 20)")
    if args.list:
        for r in gate_fa:
            console.print(f"false accept [{r['voice']}] {r['text']!r} heard {r['heard']!r} "
                          f"({r['first']:.2f}/{r['opening']:.2f}; plain: {r['plain']!r})", markup=False)
        for r in gate_miss:
            console.print(f"miss [{r['voice']}] {r['text']!r} heard {r['heard']!r} "
                          f"({r['first']:.2f}/{r['opening']:.2f})", markup=False)


if __name__ == "__main__":
    main()
