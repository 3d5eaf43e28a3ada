"""Is it for her? False accepts per 100 ordinary sentences and misses of the ways to call her, on
the labelled wake set, across wake thresholds.

    .venv/bin/python bench/wake_bench.py [--held-out [1-18]] [--spoken-as S] [--set DIR] [--list] [--merged N]

The set (tests/fixtures/wake_sentences.py: 106 household sentences, 25 of them near misses such as
"hey glad to see you", "Gladys", "hey Google"; 24 calls) is spoken by make_fixtures.py --wake-set
into DIR (default bench/.wakeset) when it is not there yet: Piper at three rates and two pitches,
and espeak-ng's voices when installed. Each recording goes through the voice loop's own gate
(assistant/wake/gate.py): tiny.en with the wake phrase as hotword, the transcript matcher, and the
second look at the opening, the plain check (the same audio without the hotword: a call that
then names someone else, "hey Gladys", is not hers) and the name check (her name in place of the
words heard, scored against the audio). The configured threshold and name margin are marked.

--held-out scores held-out sentences (40 calls, 20 near misses, 40 ordinary each), written after
the settings were chosen on the first set: set 1 (bench/.wakeset-heldout) was then used to move
the name check's margin, so it flatters too; set 2 (bench/.wakeset-heldout2) changed only near-miss
word rules; sets 3 to 7 (bench/.wakeset-heldout3, ...) were each written at the start of a round and
scored before and after it (set 7's misses were looked at, to find where whisper put her name); set 8
was written with set 7 and first heard at the end of that round, with the settings fixed; sets 9 and
10 likewise (9 scored at the start of the next round, 10 first heard at its end), and 11 and 12 in
the round after (12's GLAD-oss misses then led to the beam look), 13 and 14 in the next (13's misses
were looked at for the model alone; 14 first heard at the end), 15 and 16 in the round after (15
scored first; 16 first heard at the end), 17 and 18 in the latest (17 scored first; 18 first heard
at the end); 19 and 20 were written before the fitted score was tried (training/fit_wake_score.py) and
chose nothing.
Each recording is one utterance carrying the pauses the loop's segmenter finds in it.

--merged N builds utterances of two of the set's recordings with a breath between (under the end
silence: the segmenter keeps them as one), N of each kind, and counts how often each woke her with
the look after pauses and without it (SHIPPED.pause_look_s in assistant/wake/decide.py), and the gate's time.
"""
from __future__ import annotations

import argparse
import json
import random
import statistics
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

from assistant.audio.base import resample  # noqa: E402
from assistant.audio.wavfile import read_wav  # noqa: E402
from assistant.config import load_config  # noqa: E402
from assistant.events import RATE, Pause, Utterance  # noqa: E402
from assistant.voice.vad import SileroVAD, VadOptions, segment  # noqa: E402
from assistant.wake.decide import SHIPPED  # noqa: E402
from assistant.wake.gate import WakeGate  # noqa: E402
from assistant.stt import make_transcriber  # noqa: E402
from assistant.wake import make_wake  # noqa: E402
from tests.fixtures.make_fixtures import HELD_OUT_SETS, SPELLINGS, wake_set  # noqa: E402

THRESHOLDS = (0.70, 0.74, 0.78, 0.82, 0.86, 0.90, 0.94)
MARGINS = (0.0, 8.0, 10.0, 12.5, 15.0, 17.5)      # the name check, nats (0: off)
FLOORS = (0.0, 0.01, 0.02, 0.05, 0.1, 0.2)        # the name model: the least score a call needs (0: off)
PLACES = (0.0, 12.0, 14.0, 16.0, 18.0, 20.0)      # her name where the model heard it, nats (0: off)


def spoken_set(held_out: int = 0, spoken_as: str = "glados", console: Console | None = None) -> Path:
    """The wake set's folder (0: the project's set; 1 to HELD_OUT_SETS: a held-out one), spoken into it by
    make_fixtures.py when it is not there yet."""
    folder = ROOT / "bench" / (".wakeset" + ("", "-heldout", f"-heldout{held_out}")[min(held_out, 2)]
                               + ("" if spoken_as == "glados" else f"-as-{spoken_as}"))
    if not (folder / "labels.json").exists():
        with (console or Console()).status(f"speaking the wake set into {folder}"):
            wake_set(folder, held_out=held_out, spoken_as=spoken_as)
    return folder


def score_set(folder: Path, config) -> list[dict]:
    """Every recording with its label, transcripts and the two match scores (first pass, opening)."""
    labels = json.loads((folder / "labels.json").read_text())
    v = config.voice
    wake = make_wake(v.wake)
    gate = WakeGate.configured(make_transcriber(v.stt), wake)
    vad = SileroVAD()
    out = []
    progress = Progress(*Progress.get_default_columns(), transient=True)
    with progress:
        for row in progress.track(labels, description="transcribing the wake set"):
            out.append(_score(gate, wake, v, folder, row, vad))
    return out


def load(folder: Path, row: dict):
    samples, rate = read_wav(folder / row["file"])
    return resample(samples, rate, RATE)


def _never_cut(v) -> VadOptions:
    """The loop's segmenter with an end silence longer than any recording's."""
    return VadOptions.configured(v, end_silence_s=60.0, max_utterance_s=120.0, early_s=0.0)


def with_pauses(audio, vad: SileroVAD, v) -> Utterance:
    """The whole recording as one utterance, with the pauses the loop's segmenter finds in it (an
    end silence longer than any recording's, so it is never cut in two)."""
    cut = segment(audio, _never_cut(v), vad)
    pauses = tuple(Pause(u.start_s + p.at_s, p.silence_s) for u in cut for p in u.pauses)
    return Utterance(audio, 0.0, len(audio) / RATE, pauses=pauses)


def speech(audio, vad: SileroVAD, v, keep_s: float = 0.1):
    """A recording without the silence around its speech (keep_s of it kept each side)."""
    cut = segment(audio, _never_cut(v), vad)
    if not cut:
        return audio
    start = max(0.0, cut[0].start_s + v.pre_roll_s - keep_s)
    end = (cut[-1].speech_end_s or cut[-1].end_s) + keep_s
    return audio[int(start * RATE): int(end * RATE)]


EVERY = ("opening", "plain", "sound", "named", "elsewhere", "placed")    # the evidence the sweeps below read


def _score(gate: WakeGate, wake, v, folder: Path, row: dict, vad: SileroVAD) -> dict:
    return {**row, **evidence_row(gate.judge(with_pauses(load(folder, row), vad, v), v.wake.phrase, gather=EVERY))}


def evidence_row(verdict) -> dict:
    """What the sweeps read of a verdict whose evidence holds EVERY stage."""
    ev, decision = verdict.evidence, verdict.decision
    return {"heard": ev.text,
            "first": ev.first.score if ev.first else 0.0,
            "opening": ev.opening.score if ev.opening else 0.0,
            "plain": ev.plain or "",
            "someone_else": ev.someone_else,
            "invented": ev.invented,
            "named": ev.named.margin if ev.named is not None else float("-inf"),
            "after_pause": decision.after_s > 0,
            "sounded": ev.sound.score if ev.sound is not None else 1.0,
            "placed": ev.placed.margin if ev.placed is not None and not ev.elsewhere else float("-inf"),
            "alone": decision.by == "alone",
            "accepted": decision.kind == "call"}


def gate_times(folder: Path, config, count: int = 24) -> dict[str, list[float]]:
    """The loop's own gate (not every check forced) on every few recordings, with the name check
    and without it: seconds per utterance (the plain check runs beside the first transcription)."""
    labels = json.loads((folder / "labels.json").read_text())
    v = config.voice
    stt, wake = make_transcriber(v.stt), make_wake(v.wake)
    gates = {"as configured": WakeGate.configured(stt, wake),
             "name place off": WakeGate.configured(stt, wake, replace(SHIPPED, name_place=0.0)),
             "name model off": WakeGate.configured(stt, wake, replace(SHIPPED, name_floor=0.0)),
             "name check off": WakeGate.configured(stt, wake, replace(SHIPPED, name_check=0.0, name_floor=0.0))}
    times: dict[str, list[float]] = {name: [] for name in gates}
    for row in labels[:: max(1, len(labels) // count)]:
        samples, rate = read_wav(folder / row["file"])
        audio = resample(samples, rate, RATE)
        for name, gate in gates.items():
            t0 = time.perf_counter()
            gate.judge(Utterance(audio, 0.0, len(audio) / RATE), v.wake.phrase)
            times[name].append(time.perf_counter() - t0)
    return times


def accepted(row: dict, threshold: float, margin: float, floor: float = 0.0, sure: float = 1.0, place: float = 0.0) -> bool:
    """The gate's rule: a call in the words unless the plain transcript names someone else (and the
    name model is not `sure` of her name) or heard far more; one in the opening heard again unless
    someone else was named; else the name check (`margin`), or, the name model `sure`, her name where
    it heard it (within `place`); any of them only when the name model scored the audio at least
    `floor`. (A call found after a pause is taken as the gate decided it.)"""
    sure_of_her = floor > 0 and sure < 1 and row["sounded"] >= sure
    overruled = sure_of_her and row["first"] >= threshold
    if (row["someone_else"] and not overruled) or row["sounded"] < floor:
        return False
    if row["first"] >= threshold:
        return not row["invented"]
    if row["opening"] >= threshold:
        return True
    return ((margin > 0 and row["named"] >= -margin) or (sure_of_her and place > 0 and row["placed"] >= -place)
            or row["after_pause"])


def merged(folder: Path, config, count: int, seed: int = 5) -> tuple[dict[str, dict[str, int]], list[str]]:
    """Two of the set's recordings one after the other with a short gap (0.25-0.45 s, under the end
    silence), cut by the loop's segmenter as the loop would: another sentence then a call; two
    ordinary sentences; a near miss and an ordinary sentence either way round. Each through the gate
    with the look after pauses and without it: calls heard, false accepts; and each miss and false
    accept, described."""
    labels = json.loads((folder / "labels.json").read_text())
    v = config.voice
    stt, wake, vad = make_transcriber(v.stt), make_wake(v.wake), SileroVAD()
    gates = {"after pauses": WakeGate.configured(stt, wake),
             "whole only": WakeGate.configured(stt, wake, replace(SHIPPED, pause_look_s=0.0))}
    options = VadOptions.configured(v, early_s=0.0)
    rng = random.Random(seed)
    kind = {k: [r for r in labels if r["label"] == k] for k in ("call", "ordinary", "near_miss")}
    pairs = {"sentence, then a call": ("ordinary", "call"), "two ordinary sentences": ("ordinary", "ordinary"),
             "near miss, then a sentence": ("near_miss", "ordinary"), "sentence, then a near miss": ("ordinary", "near_miss")}
    counts = {name: {pair: 0 for pair in pairs} | {"utterances": 0} for name in gates}
    times: dict[str, list[float]] = {name: [] for name in gates}
    failures: list[str] = []
    total = count * len(pairs)
    progress = Progress(*Progress.get_default_columns(), transient=True)
    with progress:
        task = progress.add_task("two sentences as one utterance", total=total)
        for pair, (a, b) in pairs.items():
            for _ in range(count):
                gap = np.zeros(int(rng.uniform(0.25, 0.45) * RATE), np.float32)
                edge = np.zeros(int(0.5 * RATE), np.float32)
                rows = [rng.choice(kind[k]) for k in (a, b)]
                first, second = (speech(load(folder, row), vad, v) for row in rows)
                utterances = segment(np.concatenate([edge, first, gap, second, edge]), options, vad)
                for name, gate in gates.items():
                    t0 = time.perf_counter()
                    heard = [gate.judge(u, v.wake.phrase) for u in utterances]
                    times[name].append(time.perf_counter() - t0)
                    woke = any(h.match is not None for h in heard)
                    counts[name][pair] += woke
                    counts[name]["utterances"] += len(heard)
                    if woke != (b == "call"):
                        failures.append(f"{'missed' if b == 'call' else 'woke her'} ({name}) [{rows[1]['voice']}] "
                                        f"{rows[0]['text']!r} + {rows[1]['text']!r}: heard "
                                        + " | ".join(repr(h.transcript.text) for h in heard))
                progress.advance(task)
    return {name: counts[name] | {"seconds": statistics.mean(times[name])} for name in gates}, failures


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--held-out", type=int, nargs="?", const=1, default=0, choices=range(HELD_OUT_SETS + 1),
                        help=f"a held-out set: 1 (bench/.wakeset-heldout), 2 to {HELD_OUT_SETS} (bench/.wakeset-heldout2, ...)")
    parser.add_argument("--spoken-as", choices=SPELLINGS, default="glados",
                        help="her name in the calls said another way: gladoss (GLAD-oss, as people say it), "
                             "glados-letters (gee-la-DOS); the default glados comes out GLAH-dohz")
    parser.add_argument("--set", type=Path, help="a folder with labels.json (default: bench/.wakeset)")
    parser.add_argument("--list", action="store_true", help="every false accept and miss at the configured settings")
    parser.add_argument("--merged", type=int, metavar="N",
                        help="only the two-sentence utterances: N of each kind, built from the set's recordings")
    args = parser.parse_args()
    console = Console()
    folder = args.set or spoken_set(args.held_out, args.spoken_as, console)
    config = load_config()
    wake = config.voice.wake
    if args.merged:
        results, failures = merged(folder, config, args.merged)
        out = Table(title=f"{folder.name}: two sentences heard as one utterance, {args.merged} of each kind "
                          f"(pauses looked after from {SHIPPED.pause_look_s:g} s)")
        out.add_column("woke her")
        for name in results:
            out.add_column(name, justify="right")
        for kind in next(iter(results.values())):
            if kind not in ("utterances", "seconds"):
                out.add_row(kind, *[f"{row[kind]} of {args.merged}" for row in results.values()])
        out.add_row("utterances the segmenter cut", *[str(row["utterances"]) for row in results.values()])
        out.add_row("gate seconds per recording", *[f"{row['seconds']:.2f}" for row in results.values()])
        console.print(out)
        if args.list:
            for line in failures:
                console.print(line, markup=False)
        return
    rows = score_set(folder, config)
    calls = [r for r in rows if r["label"] == "call"]
    ordinary = [r for r in rows if r["label"] != "call"]
    near = [r for r in rows if r["label"] == "near_miss"]
    title = (f"{folder.name}: {len(rows)} recordings ({len(ordinary)} ordinary, {len(near)} of them near misses; "
             f"{len(calls)} calls)")

    def table(caption: str, first: str, settings: list[tuple[str, float, float, float]]) -> Table:
        out = Table(title=f"{title}\n{caption}")
        for col in (first, "false accepts / 100 ordinary", "near misses accepted", "calls missed"):
            out.add_column(col, justify="right")
        for label, *at in settings:
            fa = sum(accepted(r, *at) for r in ordinary)
            out.add_row(label, f"{100 * fa / len(ordinary):.1f}", f"{sum(accepted(r, *at) for r in near)} of {len(near)}",
                        f"{sum(not accepted(r, *at) for r in calls)} of {len(calls)}")
        return out

    def mark(value, configured) -> str:
        return " (config)" if value == configured else ""

    # every table holds the other settings at their configured values
    config_at = (wake.threshold, SHIPPED.name_check, SHIPPED.name_floor, SHIPPED.name_sure, SHIPPED.name_place)
    console.print(table(f"threshold swept, name check {SHIPPED.name_check:g} nats, name model {SHIPPED.name_floor:g}", "threshold",
                        [(f"{t:.2f}{mark(t, wake.threshold)}", t, *config_at[1:])
                         for t in sorted(set(THRESHOLDS) | {wake.threshold})]))
    console.print(table(f"name check swept (0: off), threshold {wake.threshold:.2f}, name model {SHIPPED.name_floor:g}",
                        "name check (nats)", [(f"{m:g}{mark(m, SHIPPED.name_check)}", wake.threshold, m, *config_at[2:])
                                              for m in sorted(set(MARGINS) | {SHIPPED.name_check})]))
    console.print(table(f"name model swept (0: off), threshold {wake.threshold:.2f}, name check {SHIPPED.name_check:g}",
                        "name model floor / sure", [(f"{f:g} / {s:g}{mark((f, s), (SHIPPED.name_floor, SHIPPED.name_sure))}",
                                                     wake.threshold, SHIPPED.name_check, f, s, SHIPPED.name_place)
                                                    for f in sorted(set(FLOORS) | {SHIPPED.name_floor})
                                                    for s in ((1.0, SHIPPED.name_sure) if f > 0 else (1.0,))]))
    console.print(table(f"her name where the model heard it swept (0: off), name model sure {SHIPPED.name_sure:g}",
                        "name place (nats)", [(f"{p:g}{mark(p, SHIPPED.name_place)}", *config_at[:4], p)
                                              for p in sorted(set(PLACES) | {SHIPPED.name_place})]))
    gate_fa = [r for r in ordinary if r["accepted"]]
    gate_miss = [r for r in calls if not r["accepted"]]
    console.print(f"the loop's own decision (threshold {wake.threshold}, name check {SHIPPED.name_check:g}, "
                  f"name model {SHIPPED.name_floor:g}, name place {SHIPPED.name_place:g}): "
                  f"{len(gate_fa)} false accepts ({100 * len(gate_fa) / len(ordinary):.1f} per 100), "
                  f"{len(gate_miss)} of {len(calls)} calls missed (targets: at most 1 per 100, at most 1 in 20); "
                  f"by the name model alone (name_alone {SHIPPED.name_alone:g}): {sum(r['alone'] for r in calls)} calls, "
                  f"{sum(r['alone'] for r in ordinary)} ordinary")
    with console.status("timing the gate"):
        times = gate_times(folder, config)
    timing = Table(title="the gate's time per utterance (seconds, this machine)")
    for col in ("", "utterances", "mean", "p95", "ratio (mean)"):
        timing.add_column(col, justify="right")
    base = statistics.mean(times["name check off"])     # and the name model off
    for name, seconds in times.items():
        timing.add_row(name, str(len(seconds)), f"{statistics.mean(seconds):.2f}",
                       f"{statistics.quantiles(seconds, n=20)[-1]:.2f}", f"{statistics.mean(seconds) / base:.2f}x")
    console.print(timing)
    if args.list:
        console.print("(match / opening / name check / name model / name placed)")
        for kind, failed in (("false accept", gate_fa), ("miss", gate_miss)):
            for r in failed:
                alone = " (the model alone)" if r["alone"] else ""
                console.print(f"{kind}{alone} [{r['voice']}] {r['text']!r} heard {r['heard']!r} ({r['first']:.2f}/{r['opening']:.2f}/"
                              f"{r['named']:.1f}/{r['sounded']:.3f}/{r['placed']:.1f}; plain: {r['plain']!r})", markup=False)


if __name__ == "__main__":
    main()
