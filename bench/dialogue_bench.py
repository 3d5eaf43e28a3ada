"""What she ends up believing after short conversations: bench/dialogue_set.py, scored.

    .venv/bin/python bench/dialogue_bench.py                    # right, wrong, dangerous; dev misses listed
    .venv/bin/python bench/dialogue_bench.py --baseline aef1a79 # and the same dialogues on that commit

Each dialogue is told line by line to a fresh user, in one session, through `Memory.observe`. Right:
the current facts are exactly the expected ones (values case-folded, a plural 's' ignored). Dangerous:
a safety key (allergy, diet, medical) holds a value it should not, or lost one it should hold. The
held-out dialogues are counted, never listed (--show-held lists them, once, for the report).
The baseline runs in a temporary git worktree of the given commit, in its own process.
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
sys.path.insert(0, str(ROOT))

SAFETY = {"allergy", "diet", "medical"}


def _norm(value: str) -> str:
    value = " ".join(value.casefold().split())
    return value[:-1] if len(value) > 3 and value.endswith("s") and not value.endswith("ss") else value


def tell(lines: list[list[str]]) -> list[list[list[str]]]:
    """Each dialogue told to a fresh store; its current facts as [key, value] pairs (the worker)."""
    from memory import Memory
    out = []
    with tempfile.TemporaryDirectory() as tmp:
        for i, said in enumerate(lines):
            memory = Memory(Path(tmp) / f"{i}.db")
            for text in said:
                memory.observe("dialogue", text, session="s1")
            out.append([[f.key, f.value] for f in memory.facts("dialogue")])
            memory.close()
    return out


def verdict(got: set[tuple[str, str]], want: frozenset[tuple[str, str]]) -> str:
    """right, wrong or dangerous."""
    got_n = {(k, _norm(v)) for k, v in got}
    want_n = {(k, _norm(v)) for k, v in want}
    if got_n == want_n:
        return "right"
    unsafe = {p for p in got_n ^ want_n if p[0] in SAFETY}
    return "dangerous" if unsafe else "wrong"


def run(tree: Path, dialogues) -> list[set[tuple[str, str]]]:
    """The facts each dialogue ends with, told to the memory package of `tree` in a process of its own."""
    payload = json.dumps([list(x.said) for x in dialogues])
    done = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--worker", str(tree)], input=payload,
                          capture_output=True, text=True, check=True)
    return [{(k, v) for k, v in facts} for facts in json.loads(done.stdout)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--baseline", help="a commit to score the same dialogues on (a temporary git worktree)")
    parser.add_argument("--show-held", action="store_true", help="list the held-out misses too")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        sys.path.insert(0, args.worker)
        print(json.dumps(tell(json.load(sys.stdin))))
        return

    from rich.console import Console
    from rich.table import Table

    from bench.dialogue_set import DIALOGUES
    from bench.worktree import checked_out
    console = Console()
    with checked_out(args.baseline) as base:
        trees = {"this tree": ROOT, **({args.baseline: base} if base else {})}
        results = {name: run(tree, DIALOGUES) for name, tree in trees.items()}
    table = Table(title=f"{len(DIALOGUES)} dialogues (bench/dialogue_set.py)")
    table.add_column("part")
    for name in results:
        table.add_column(f"{name}\nright · wrong · dangerous", justify="right")
    parts = {"development": [i for i, x in enumerate(DIALOGUES) if not x.held],
             "held out": [i for i, x in enumerate(DIALOGUES) if x.held]}
    for topic in sorted({x.topic for x in DIALOGUES}):
        parts[f"  {topic} (dev)"] = [i for i, x in enumerate(DIALOGUES) if x.topic == topic and not x.held]
    for part, index in parts.items():
        cells = []
        for facts in results.values():
            counts = Counter(verdict(facts[i], DIALOGUES[i].facts) for i in index)
            cells.append(f"{counts['right']}/{len(index)} · {counts['wrong']} · {counts['dangerous']}")
        table.add_row(part, *cells)
    console.print(table)
    mine = results["this tree"]
    for i, x in enumerate(DIALOGUES):
        if (args.show_held or not x.held) and verdict(mine[i], x.facts) != "right":
            console.print(f"[bold]{verdict(mine[i], x.facts)}[/] {' / '.join(x.said)}\n"
                          f"    want {sorted(x.facts)}\n    got  {sorted(mine[i])}", markup=True, highlight=False)


if __name__ == "__main__":
    main()
