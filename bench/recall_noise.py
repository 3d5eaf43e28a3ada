"""What recall brings that it should not, beside what it should: both sides of the cut.

    .venv/bin/python bench/recall_noise.py                   # the held-out splits (LoCoMo 47-50, LongMemEval odd)
    .venv/bin/python bench/recall_noise.py --split dev       # the splits settings are chosen on
    .venv/bin/python bench/recall_noise.py --set min_cosine=0.3 --set min_words=0.5

Something to recall: a question whose answer the user said (hit@5: an evidence message among the first
five). Nothing to recall: the same store asked questions that nothing in it answers. Every item recalled
for one of those is noise, counted at k = 3 (the shipped `memory.recall_k`) and k = 5.

- small store (bench/noise_set.py): 16 messages of one person, four of them bare questions; 10 questions
  about them in other words (hit@3), 40 about the world. Also: how often a bare question is recalled.
- LoCoMo (`../shared/data/locomo/`, read at run time): each speaker's store asked their own questions
  (as bench/locomo.py asks them), every third question of the other conversations' speakers, and the
  world questions.
- LongMemEval (`../shared/data/longmemeval/`, read at run time): each question's ~50 dated sessions as
  one user (the user's turns theirs, the assistant's her replies, a minute a turn), asked its own
  question (hit@5: a user turn marked has_answer), then the next question's question of the split.
"""
from __future__ import annotations

import argparse
import json
import sys
import tempfile
from dataclasses import dataclass, field, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from rich.console import Console  # noqa: E402
from rich.table import Table  # noqa: E402

import locomo as L  # noqa: E402
import longmemeval as LME  # noqa: E402
from assistant.app import recall_settings  # noqa: E402
from assistant.config import load_config  # noqa: E402
from memory import Memory, Recalled, RecallSettings  # noqa: E402
from memory.recall import asks  # noqa: E402
from memory.moments import iso  # noqa: E402
from noise_set import RELATED, SMALL_STORE, WORLD  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
LOCOMO_SPLITS = L.SPLITS


@dataclass
class Noise:
    """Items recalled for questions nothing in the store answers."""
    questions: int = 0
    at: dict[int, int] = field(default_factory=lambda: {3: 0, 5: 0})
    silent: int = 0          # questions with nothing recalled at k = 3


@dataclass
class Side:
    """One corpus: hits on its answerable questions, items recalled for its unanswerable ones (by kind:
    another person's questions, questions about the world)."""
    asked: int = 0
    hits: int = 0
    noise: dict[str, Noise] = field(default_factory=dict)
    bare: int = 0            # bare questions of the user's recalled, either side

    def ask_nothing(self, memory: Memory, user: str, question: str, kind: str) -> None:
        found = memory.recall(user, question, k=5)
        noise = self.noise.setdefault(kind, Noise())
        noise.questions += 1
        for k in noise.at:
            noise.at[k] += len(found[:k])
        noise.silent += not found[:3]
        self.bare += sum(1 for r in found if bare(r))


def bare(r: Recalled) -> bool:
    """A message of the user's that only asks (every sentence a question)."""
    return r.kind == "message" and r.role == "user" and asks(r.text) >= 1


def small(settings: RecallSettings, folder: Path) -> Side:
    side = Side()
    with Memory(folder / "small.db", recall_settings=settings) as memory:
        for i, text in enumerate(SMALL_STORE):
            memory.log("u", f"s{i}", "user", text)
            memory.log("u", f"s{i}", "assistant", "Noted.")
        memory.index_pending("u")
        for question, answer in RELATED:
            found = memory.recall("u", question, k=3)
            side.asked += 1
            side.hits += any(r.text == SMALL_STORE[answer] for r in found)
            side.bare += sum(1 for r in found if bare(r))
        for question in WORLD:
            side.ask_nothing(memory, "u", question, "world")
    return side


def locomo(settings: RecallSettings, convs: tuple[str, ...], keep: Path) -> Side:
    side = Side()
    stores, questions = {}, {}
    for cid in convs:
        conv = json.loads((L.DATA / f"conv-{cid}.json").read_text(encoding="utf-8"))
        turns = L.turns(conv)
        speaker_of = {t["dia_id"]: t["speaker"] for t in turns}
        memory = Memory(keep / f"locomo-{cid}.db", recall_settings=settings)
        names = (conv["speaker_a"], conv["speaker_b"])
        if not memory.db.execute("SELECT 1 FROM messages LIMIT 1").fetchone():
            for name in names:
                memory.import_(name, L.export(name, cid, turns))
        for name in names:
            memory.index_pending(name)
            memory.fill_crowding(name, everything=True)
            stored = {(r[1], r[2]): r[0] for r in memory.db.execute(
                "SELECT id, text, created_at FROM messages WHERE user = ?", (name,))}
            dia = {str(stored[t["text"], iso(t["at"])]): t["dia_id"] for t in turns if (t["text"], iso(t["at"])) in stored}
            asked = []
            for qa in conv["qa"]:
                evidence = [e.strip() for e in qa.get("evidence", []) for e in e.split(";")]
                if qa.get("category") in L.CATEGORIES and evidence and {speaker_of.get(e) for e in evidence} == {name}:
                    asked.append((L.first_person(qa["question"], name), evidence))
            stores[cid, name], questions[cid, name] = (memory, dia), asked
    for (cid, name), (memory, dia) in stores.items():
        for question, evidence in questions[cid, name]:
            found = memory.recall(name, question, k=20)
            side.asked += 1
            side.hits += any(dia.get(r.id) in evidence for r in found[:5])
        others = [q for key, asked in questions.items() if key[0] != cid for q, _ in asked]
        for question in others[::3]:
            side.ask_nothing(memory, name, question, "another's")
        for question in WORLD:
            side.ask_nothing(memory, name, question, "world")
    for memory, _ in stores.values():
        memory.close()
    return side


def longmemeval(settings: RecallSettings, files: list[Path], keep: Path, console: Console) -> Side:
    side = Side()
    items = [LME.read(f) for f in files]
    for n, item in enumerate(items):
        memory, _, _ = LME.store(item, keep, settings)
        evidence = {t["text"] for t in LME.turns(item) if t["role"] == "user" and t["answer"]}
        if evidence:
            found = memory.recall("u", item["question"], k=20)
            side.asked += 1
            side.hits += any(r.text in evidence for r in found[:5])
        side.ask_nothing(memory, "u", items[(n + 1) % len(items)]["question"], "another's")
        memory.close()
        console.print(f"longmemeval {n + 1}/{len(items)}", end="\r")
    return side


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--split", choices=("dev", "test"), default="test")
    parser.add_argument("--set", action="append", default=[], metavar="NAME=VALUE", help="a recall setting for this run")
    parser.add_argument("--keep", type=Path, help="keep the indexed stores in this folder and reuse them next time")
    parser.add_argument("--skip", action="append", default=[], choices=("small", "locomo", "longmemeval"))
    parser.add_argument("--every", type=int, default=1, metavar="N",
                        help="LongMemEval: every Nth question of the split (indexing a history takes about 30 s)")
    args = parser.parse_args()
    overrides = {n: float(v) for n, _, v in (a.partition("=") for a in args.set)}
    settings = replace(recall_settings(load_config(None)), **overrides)
    console = Console(width=max(140, Console().width))
    sides: dict[str, Side] = {}
    with tempfile.TemporaryDirectory() as tmp:
        keep = args.keep or Path(tmp)
        keep.mkdir(parents=True, exist_ok=True)
        if "small" not in args.skip:
            sides["small store"] = small(settings, Path(tmp))
        if "locomo" not in args.skip:
            sides["LoCoMo " + ",".join(LOCOMO_SPLITS[args.split])] = locomo(settings, LOCOMO_SPLITS[args.split], keep)
        if "longmemeval" not in args.skip:
            sides[f"LongMemEval {args.split}"] = longmemeval(settings, LME.split(args.split)[::args.every], keep, console)
    table = Table(title=f"recall's cut: min_cosine {settings.min_cosine}, min_words {getattr(settings, 'min_words', '(none)')}")
    for column in ("store", "answerable", "hit (small: @3, else @5)", "bare questions recalled", "nothing to recall",
                   "questions", "items @3 / question", "items @5 / question", "none @3"):
        table.add_column(column, justify="right")
    for name, s in sides.items():
        for i, (kind, n) in enumerate(s.noise.items()):
            q = max(1, n.questions)
            table.add_row(*((name, str(s.asked), f"{s.hits / max(1, s.asked):.3f}", str(s.bare)) if not i else ("",) * 4),
                          kind, str(n.questions), f"{n.at[3] / q:.2f} ({n.at[3]})", f"{n.at[5] / q:.2f}",
                          f"{n.silent / q:.2f}")
    console.print(table)


if __name__ == "__main__":
    main()
