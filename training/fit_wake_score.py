"""One fitted score over the wake gate's evidence, measured against the gate's rules on the same
recordings: the experiment toward replacing the rules (assistant/wake/decide.py) with a calibrated
verifier, as openWakeWord does. Nothing here changes the gate. Run from the project root:

    .venv/bin/python training/fit_wake_score.py --fit 0 12 13 14 15 16 17 --test 18 19 20 [--band] [--rooms] [--real]

(the second attempt's run, docs/wake-gate.md: held-out 19 and 20 were written before it)

A set is 0 (the project's wake set, bench/.wakeset) or a held-out number (bench/.wakeset-heldoutN),
spoken by make_fixtures.py when missing. Each recording goes through the configured gate gathering the
evidence bench/wake_bench.py sweeps (the words, the opening heard again, the plain check, the name check,
the name model, her name where it heard it; not the beam look); the rows are kept beside the set
(evidence.json) and reused while the set is unchanged.

Features (all from the evidence, none from the rules' decision but the look after pauses, which is a
decision of the rest of the utterance): the words' closeness to the phrase and whether it reaches the
threshold, the opening's, the plain check (someone else named; the call whisper's guess), the name
check's and the placement's margins (nats, floored at -40), the name model's score as a log-odds, its
products with the plain check (the model overruling "Gladys") and with a call in the words (the model
turning one down), and a call after a pause. A logistic
regression (numpy, L2) is fitted on the --fit sets; its operating point is the lowest score whose false
accepts on those sets stay at most 1 per 100 ordinary sentences (--band: 0.5). Each --test set is then
scored with that point and with the rules, recording by recording.

--band fits the score only where the rules are least sure: the name model passed its floor, no call in
the words, nobody else named in the plain transcript; elsewhere the rules' decision stands.
--rooms also hears bench/room_bench.py's rooms nobody calls her in (real meetings, readings, telephone
prompts, a synthetic household) with every stage gathered: how often the score and the rules woke her.
--real adds to the fitting data, as ordinary speech, every utterance of bench/wake_real.py's recordings
that the rooms do not play (real people nobody calls her in; kept in bench/.realvoices/evidence.json).
"""
from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from assistant.config import load_config  # noqa: E402
from assistant.wake.decide import SHIPPED  # noqa: E402
from bench.wake_bench import EVERY, evidence_row, score_set, spoken_set  # noqa: E402

NAMES = ("words", "words called", "opening", "someone else", "invented", "name check", "placed", "name model",
         "model x someone else", "model x words called", "after a pause")


def cached(cache: Path, what: str, config, compute) -> list[dict]:
    """Rows kept in `cache` while `what`, the gate's code and its settings are unchanged."""
    gate = "".join((ROOT / "assistant" / "wake" / f).read_text() for f in ("gate.py", "decide.py", "transcript.py"))
    key = hashlib.sha256((what + gate + repr(config.voice.wake)).encode()).hexdigest()[:16]
    if cache.exists() and (kept := json.loads(cache.read_text())).get("key") == key:
        return kept["rows"]
    out = compute()
    cache.write_text(json.dumps({"key": key, "rows": out}))
    return out


def rows(number: int, config) -> list[dict]:
    """The set's evidence rows (wake_bench's)."""
    where = spoken_set(number)
    return cached(where / "evidence.json", (where / "labels.json").read_text(), config, lambda: score_set(where, config))


def heard(audio, config, gate=None) -> list[dict]:
    """Each utterance the loop's segmenter cuts from audio nobody calls her in, heard with every stage."""
    from assistant.stt import make_transcriber
    from assistant.voice.vad import SileroVAD, VadOptions, segment
    from assistant.wake import WakeGate, make_wake
    v = config.voice
    gate = gate or WakeGate.configured(make_transcriber(v.stt), make_wake(v.wake))
    return [evidence_row(gate.judge(u, v.wake.phrase, gather=EVERY)) | {"label": "ordinary"}
            for u in segment(audio, VadOptions.configured(v, early_s=0.0), SileroVAD())]


def features(row: dict, threshold: float) -> np.ndarray:
    sound = min(max(row["sounded"], 1e-6), 1 - 1e-6)
    odds = float(np.log(sound / (1 - sound)))
    return np.array([row["first"], float(row["first"] >= threshold), row["opening"], float(row["someone_else"]),
                     float(row["invented"] and row["first"] >= threshold), max(row["named"], -40.0) / 40,
                     max(row["placed"], -40.0) / 40, odds / 10, odds / 10 * float(row["someone_else"]),
                     odds / 10 * float(row["first"] >= threshold), float(row["after_pause"])])


def fit(x: np.ndarray, y: np.ndarray, l2: float = 1e-2, steps: int = 200) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Logistic regression by Newton's method on standardised features: (weights, mean, scale)."""
    mean, scale = x.mean(0), x.std(0) + 1e-6
    z = np.hstack([(x - mean) / scale, np.ones((len(x), 1))])
    w = np.zeros(z.shape[1])
    for _ in range(steps):
        p = 1 / (1 + np.exp(-z @ w))
        grad = z.T @ (p - y) + l2 * np.r_[w[:-1], 0]
        hess = (z * (p * (1 - p))[:, None]).T @ z + l2 * np.eye(len(w))
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-8:
            break
    return w, mean, scale


def scores(model, x: np.ndarray) -> np.ndarray:
    w, mean, scale = model
    return 1 / (1 + np.exp(-(np.hstack([(x - mean) / scale, np.ones((len(x), 1))]) @ w)))


def tally(called: np.ndarray, labels: list[str]) -> str:
    ordinary = [i for i, kind in enumerate(labels) if kind != "call"]
    near = [i for i, kind in enumerate(labels) if kind == "near_miss"]
    calls = [i for i, kind in enumerate(labels) if kind == "call"]
    return (f"false accepts {called[ordinary].sum()} of {len(ordinary)} ({100 * called[ordinary].mean():.1f} per 100), "
            f"near misses {called[near].sum()} of {len(near)}, calls missed {(~called[calls]).sum()} of {len(calls)}")


def uncertain(row: dict, config) -> bool:
    """Where the rules are least sure: the name model passed its floor, no call in the words, nobody else
    named in the plain transcript."""
    return row["sounded"] >= SHIPPED.name_floor and row["first"] < config.voice.wake.threshold and not row["someone_else"]


def room_rows(config) -> dict[str, list[dict]]:
    """bench/room_bench.py's rooms, each utterance heard by the configured gate with every stage gathered."""
    from rich.console import Console

    from assistant.voice.vad import SileroVAD
    from bench.room_bench import rooms
    return {room: heard(audio, config) for room, audio in rooms(90.0, config.voice, SileroVAD(), Console()).items()}


def real_rows(config) -> list[dict]:
    """Every utterance of wake_real's recordings the rooms leave out (they play each source's first 90 s)."""
    from rich.console import Console
    from rich.progress import Progress

    from assistant.stt import make_transcriber
    from assistant.wake import WakeGate, make_wake
    from bench.realvoices import CACHE, recording, recordings
    from bench.room_bench import played
    from bench.wake_real import SOURCES
    console, v = Console(), config.voice
    files = [path for source in SOURCES for path in recordings(source, console)
             if path not in {p for p, _ in played(source, 90.0, console)}]

    def compute() -> list[dict]:
        gate = WakeGate.configured(make_transcriber(v.stt), make_wake(v.wake))
        with Progress(console=console, transient=True) as bar:
            return [row | {"text": path.name, "voice": "real"}
                    for path in bar.track(files, description="hearing real speech")
                    for row in heard(recording(path), config, gate)]
    return cached(CACHE / "evidence.json", "".join(map(str, files)), config, compute)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--fit", type=int, nargs="+", required=True, help="sets to fit on (0: the project's)")
    parser.add_argument("--test", type=int, nargs="+", required=True, help="sets to score")
    parser.add_argument("--band", action="store_true", help="the score only where the rules are least sure")
    parser.add_argument("--rooms", action="store_true", help="also the real rooms nobody calls her in")
    parser.add_argument("--real", action="store_true", help="fit on real speech nobody calls her in as well")
    args = parser.parse_args()
    config = load_config()
    threshold = config.voice.wake.threshold
    train = [r for r in [r for n in args.fit for r in rows(n, config)] + (real_rows(config) if args.real else [])
             if not args.band or uncertain(r, config)]
    x = np.stack([features(r, threshold) for r in train])
    y = np.array([r["label"] == "call" for r in train], float)
    model = fit(x, y)
    fitted = scores(model, x)
    ordinary = fitted[y == 0]
    # the lowest operating point with at most 1 false accept per 100 ordinary sentences on the fitting sets
    allowed = int(len(ordinary) / 100)
    point = 0.5 if args.band or allowed >= len(ordinary) else float(np.sort(ordinary)[::-1][allowed]) + 1e-9

    def called(test: list[dict]) -> np.ndarray:
        s = scores(model, np.stack([features(r, threshold) for r in test]))
        return np.array([v >= point if not args.band or uncertain(r, config) else r["accepted"] for r, v in zip(test, s)])

    where = " where the rules are least sure" if args.band else ""
    real = " and real speech" if args.real else ""
    print(f"fitted on sets {args.fit}{real}{where}: {len(train)} recordings ({int(y.sum())} calls); operating point {point:.4f}")
    for name, weight in zip(NAMES, model[0]):
        print(f"  {name:>22}: {weight:+.2f}")
    for n in args.fit + args.test:
        test = rows(n, config)
        labels = [r["label"] for r in test]
        kind = "fitted" if n in args.fit else "held out"
        print(f"set {n} ({kind}): score {tally(called(test), labels)}")
        print(f"{'':>{len(str(n)) + len(kind) + 7}}rules {tally(np.array([r['accepted'] for r in test]), labels)}")
        if n in args.fit:
            continue
        for r, took in zip(test, called(test)):
            if took != r["accepted"]:
                print(f"    {'score' if took else 'rules'} alone took [{r['label']}] {r['text']!r} ({r['voice']}; heard {r['heard']!r})")
    if args.rooms:
        for room, heard in room_rows(config).items():
            print(f"{room}: {len(heard)} utterances, woke her: score {called(heard).sum()}, rules {sum(r['accepted'] for r in heard)}"
                  + (f" ({sum(uncertain(r, config) for r in heard)} where the rules are least sure)" if args.band else ""))


if __name__ == "__main__":
    main()
