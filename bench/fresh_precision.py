"""Each labelled batch scored by the miner of the day its labels landed: how the miner did on text it had not seen.

    .venv/bin/python bench/fresh_precision.py           # a line per batch: the miner then, the miner now
    .venv/bin/python bench/fresh_precision.py --by-key  # and the right and wrong facts per key, all batches together

Every batch of `bench/real_turns_labels.json` and `bench/locomo_turns_labels.json` (a label's `why`) was labelled
blind by docs/real-turns-rubric.md, and the miner was then tuned on it. So a miner's score on the labels as a whole
is partly a score on its own training text. This script reads git history for the commit that first added a batch's
labels, takes the miner of its parent (`git archive <parent> memory`, unpacked in a temporary folder), and scores
the batch's dev turns with that miner beside today's. "Then" is what a miner did on text it had never been tuned on;
"now" is after tuning on it. Held turns are never scored here. The batches drawn where a miner being built newly
fired (fired7 to fired11) were drawn by a miner that may not yet have been committed, so their "then" may be an
older miner's.

Needs the project's git history (a clone, not an archive) and the data folders bench/real_turns.py and
bench/locomo_turns.py read.
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPORA = {"lme": "bench/real_turns_labels.json", "locomo": "bench/locomo_turns_labels.json"}


def git(*args: str) -> str:
    try:
        return subprocess.run(["git", *args], cwd=ROOT, check=True, capture_output=True, text=True).stdout
    except (OSError, subprocess.CalledProcessError) as err:
        raise SystemExit(f"git {' '.join(args)} failed ({err}); this bench needs the project's git history: run it "
                         "in a clone") from None


def batches(labels: str) -> dict[str, str]:
    """Each batch name (`why`) and the commit whose miner it was labelled against: the parent of the first commit
    whose labels file holds it."""
    found: dict[str, str] = {}
    for commit in git("log", "--reverse", "--format=%H", "--", labels).split():
        try:
            names = {label.get("why") for label in json.loads(git("show", f"{commit}:{labels}"))}
        except json.JSONDecodeError:
            continue
        for name in sorted(n for n in names if n and n not in found):
            found[name] = git("rev-parse", "--short", f"{commit}^").strip()
    return found


def score_with(tree: Path, corpus: str, names: list[str]) -> dict[str, dict]:
    """Run the miner in `tree` (a folder holding memory/) over each batch's dev turns, in a process of its own so
    that its `memory` package is the one imported; today's scoring code does the counting."""
    code = f"""
import json, sys, tempfile
sys.path[:0] = [{str(tree)!r}, {str(ROOT)!r}]
import memory
assert memory.__file__.startswith({str(tree)!r}), memory.__file__
from bench import real_turns as R, locomo_turns as LT
corpus, names = {corpus!r}, {names!r}
labels_path, by_id = (R.LABELS, R.turns()) if corpus == "lme" else (LT.LABELS, LT.turns())
labels = json.loads(labels_path.read_text())
out = {{}}
for name in names:
    with tempfile.NamedTemporaryFile("w", suffix=".json") as f:
        json.dump([l for l in labels if l.get("why") == name], f)
        f.flush()
        s = R.score("dev", R.Path(f.name), by_id)
    out[name] = dict(turns=s.turns, tp=s.tp, fp=s.fp, fn=s.fn, dangerous=s.dangerous, right=s.right, wrong=s.wrong)
print(json.dumps(out))
"""
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    if run.returncode:
        raise SystemExit(f"scoring with the miner in {tree} failed:\n{run.stderr[-2000:]}")
    return json.loads(run.stdout)


def precision(s: dict) -> str:
    stored = s["tp"] + s["fp"]
    return f"{s['tp'] / stored:.2f}" if stored else "  - "


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--by-key", action="store_true")
    args = ap.parse_args()
    rows: list[tuple[str, str, str, dict, dict]] = []
    with tempfile.TemporaryDirectory() as tmp:
        for corpus, labels in CORPORA.items():
            by_commit: dict[str, list[str]] = {}
            for name, commit in batches(labels).items():
                by_commit.setdefault(commit, []).append(name)
            now = score_with(ROOT, corpus, [n for names in by_commit.values() for n in names])
            for commit, names in by_commit.items():
                tree = Path(tmp) / commit
                if not tree.exists():
                    tree.mkdir()
                    archive = subprocess.run(["git", "archive", commit, "memory"], cwd=ROOT, capture_output=True,
                                             check=True).stdout
                    subprocess.run(["tar", "-x", "-C", str(tree)], input=archive, check=True)
                print(f"  scoring {corpus} {', '.join(names)} with the miner of {commit} ...", file=sys.stderr)
                then = score_with(tree, corpus, names)
                rows += [(corpus, name, commit, then[name], now[name]) for name in names]
    print(f"{'corpus':7s} {'batch':10s} {'miner':8s} {'dev turns':>9s} | {'then: stored':>12s} {'P':>5s} "
          f"{'danger':>6s} | {'now: stored':>11s} {'P':>5s} {'danger':>6s}")
    total_then, total_now = Counter(), Counter()
    for corpus, name, commit, then, now in rows:
        if not then["turns"]:
            continue
        print(f"{corpus:7s} {name:10s} {commit:8s} {then['turns']:9d} | {then['tp'] + then['fp']:12d} "
              f"{precision(then):>5s} {then['dangerous']:6d} | {now['tp'] + now['fp']:11d} {precision(now):>5s} "
              f"{now['dangerous']:6d}")
        for total, s in ((total_then, then), (total_now, now)):
            total.update({k: s[k] for k in ("tp", "fp", "dangerous")})
    print(f"{'all':7s} {'':10s} {'':8s} {'':9s} | {total_then['tp'] + total_then['fp']:12d} "
          f"{precision(total_then):>5s} {total_then['dangerous']:6d} | {total_now['tp'] + total_now['fp']:11d} "
          f"{precision(total_now):>5s} {total_now['dangerous']:6d}")
    if args.by_key:
        right, wrong = Counter(), Counter()
        for *_, then, _ in rows:
            right.update(then["right"])
            wrong.update(then["wrong"])
        print("\nthe miners of the day, all batches: right and wrong stored facts by key")
        for key in sorted(right.keys() | wrong.keys(), key=lambda k: -(right[k] + wrong[k])):
            print(f"  {key:24s} right {right[key]:4d}  wrong {wrong[key]:4d}  P {right[key] / (right[key] + wrong[key]):.2f}")


if __name__ == "__main__":
    main()
