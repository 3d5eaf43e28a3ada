"""Mining on real first-person statements: the persona-chat development set in ../shared/data.

    .venv/bin/python bench/mining_dev.py              # precision, recall, F1, dangerous stores
    .venv/bin/python bench/mining_dev.py --misses     # and every scenario that scored wrong
    .venv/bin/python bench/mining_dev.py --data PATH  # another dev_scenarios.json

The scenarios are read from the shared folder beside the project (never copied into it). Each is
told to a fresh user through `Memory.observe`; that user's current facts are then compared with
the labels as the data's README says: values equal after lowercasing and punctuation to spaces,
or one containing the other as whole words (the shorter 3+ characters).
"""
from __future__ import annotations

import argparse
import json
import sys
import tempfile
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rich.console import Console  # noqa: E402
from rich.table import Table  # noqa: E402

from memory import Memory  # noqa: E402

DEFAULT_DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "persona-chat" / "dev_scenarios.json"


def _words(value: str) -> str:
    out = "".join(" " if unicodedata.category(ch).startswith("P") else ch for ch in value.lower())
    return " ".join(out.split())


def same(got: str, want: str) -> bool:
    """The README's value match: equal, or one holds the other as whole words (shorter 3+ chars)."""
    a, b = _words(got), _words(want)
    if a == b:
        return True
    short, long_ = sorted((a, b), key=len)
    return len(short) >= 3 and f" {short} " in f" {long_} "


@dataclass
class Score:
    tp: int = 0
    fp: int = 0
    fn: int = 0
    dangerous: int = 0
    misses: list[tuple[str, list, list, list]] = field(default_factory=list)

    @property
    def precision(self) -> float:
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else 1.0

    @property
    def recall(self) -> float:
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else 1.0

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0


def score_scenario(mem: Memory, user: str, scenario: dict, total: Score) -> None:
    for line in scenario["say"]:
        mem.observe(user, line)
    facts = [(f.key, f.value) for f in mem.facts(user)]
    expected = [(k, v) for k, values in scenario.get("expect", {}).items() for v in values]
    unmatched = list(facts)
    missed = []
    for key, want in expected:
        hit = next((f for f in unmatched if f[0] == key and same(f[1], want)), None)
        if hit:
            unmatched.remove(hit)
            total.tp += 1
        else:
            missed.append((key, want))
    total.fn += len(missed)
    total.fp += len(unmatched)
    danger = [(k, v) for k, v in facts for fk, fv in scenario.get("forbid", []) if k == fk and same(v, fv)]
    total.dangerous += len(danger)
    if missed or unmatched or danger:
        total.misses.append((scenario["id"], missed, unmatched, danger))


def run(scenarios: list[dict], db: Path) -> dict[str, Score]:
    scores = {"all": Score(), "named": Score(), "vague": Score()}
    with Memory(db) as mem:
        for i, scenario in enumerate(scenarios):
            part = "vague" if "vague" in scenario["id"] else "named"
            one = Score()
            score_scenario(mem, f"u{i}", scenario, one)
            for name in ("all", part):
                s = scores[name]
                s.tp, s.fp, s.fn, s.dangerous = s.tp + one.tp, s.fp + one.fp, s.fn + one.fn, s.dangerous + one.dangerous
                s.misses += one.misses if name == "all" else []
    return scores


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--misses", action="store_true", help="print every scenario that scored wrong")
    args = parser.parse_args()
    console = Console()
    if not args.data.exists():
        console.print(f"no development set at {args.data}; pass --data PATH (skipped)")
        return 0
    scenarios = json.loads(args.data.read_text(encoding="utf-8"))["scenarios"]
    by_id = {s["id"]: s for s in scenarios}
    with tempfile.TemporaryDirectory() as tmp:
        scores = run(scenarios, Path(tmp) / "dev.db")
    if args.misses:
        for sid, missed, extra, danger in scores["all"].misses:
            console.print(f"[bold]{sid}[/] {by_id[sid]['say']}", markup=True, highlight=False)
            for label, rows in (("missed", missed), ("extra", extra), ("DANGER", danger)):
                if rows:
                    console.print(f"    {label:7} {rows}", highlight=False)
    table = Table(title=f"Mining on {len(scenarios)} real statements ({args.data.name})")
    for col in ("scenarios", "tp", "fp", "fn", "precision", "recall", "F1", "dangerous"):
        table.add_column(col, justify="right")
    for name, s in scores.items():
        table.add_row(name, str(s.tp), str(s.fp), str(s.fn), f"{s.precision:.3f}", f"{s.recall:.3f}",
                      f"{s.f1:.3f}", str(s.dangerous))
    console.print(table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
