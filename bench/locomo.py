"""Recall on real long conversations (LoCoMo), beside BM25, dense cosine and their fusion.

    .venv/bin/python bench/locomo.py                 # the held-out split (conversations 47-50)
    .venv/bin/python bench/locomo.py --split dev     # the split settings are chosen on (42-44)
    .venv/bin/python bench/locomo.py --misses 10     # and some questions whose evidence was not in the top 5
    .venv/bin/python bench/locomo.py --history 9000  # each speaker with 9,000 earlier messages (a long history)

The data (`../shared/data/locomo/`, CC BY-NC 4.0, evaluation only) is read at run time, never
copied. Scored as its README says: each conversation is two users (one speaker's turns are the
user's messages, the other's her replies; real session dates plus a minute a turn; an image turn
gets "[image: caption]"), both loaded by `Memory.import_` before any question is asked, and indexed
as `glados memory index` does; a question of categories 1-4 is asked of the speaker who said all its
evidence, through recall with the shipped config's settings and k = 20, as written and in the first
person (the asker's name -> "I" / "my"). Baselines over the same speaker's own turns, in the same
run: Okapi BM25 (k1 1.2, b 0.75, non-negative idf, lowercase word tokens, recall's stop words, no
stemming), cosine with the same MiniLM model, and their reciprocal-rank fusion (k = 60).

--history N gives each speaker N earlier messages before the conversation: Persona-Chat's synthetic
conversations (`../shared/data/persona-chat/`, read at run time), one a day, "User 1" the user's turns and
"User 2" her replies, each speaker a different run of them, ending the day before the first session.
They answer no question; they are what a long history puts between a question and its answer (more
vectors than the scan's shortlist starts at, BM25 statistics of a larger file). The baselines rank the
same speaker's turns and those earlier messages alike (their vectors as the store holds them).
"""
from __future__ import annotations

import argparse
import json
import math
import re
import sys
import tempfile
import time
from collections import Counter, defaultdict
from dataclasses import replace
from datetime import datetime, timedelta, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np  # noqa: E402
from rich.console import Console  # noqa: E402
from rich.progress import Progress  # noqa: E402
from rich.table import Table  # noqa: E402

from assistant.app import recall_settings  # noqa: E402
from assistant.config import load_config  # noqa: E402
from memory import Memory  # noqa: E402
from memory.moments import iso  # noqa: E402
from memory.recall import STOPWORDS  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT.parent / "shared" / "data" / "locomo"
PERSONA = ROOT.parent / "shared" / "data" / "persona-chat" / "Synthetic-Persona-Chat_valid.csv"
SPLITS = {"dev": ("42", "43", "44"), "test": ("47", "48", "49", "50")}
CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop"}
KS = (1, 3, 5, 10)
WORD = re.compile(r"[a-z0-9]+")


def when(stamp: str) -> datetime:
    """'1:56 pm on 8 May, 2023' -> a UTC datetime."""
    return datetime.strptime(stamp.strip(), "%I:%M %p on %d %B, %Y").replace(tzinfo=timezone.utc)


def turns(conv: dict) -> list[dict]:
    """Every turn in order: speaker, dia_id, text (with its image caption), time."""
    out = []
    n = 1
    while f"session_{n}" in conv:
        start = when(conv[f"session_{n}_date_time"])
        for i, t in enumerate(conv[f"session_{n}"]):
            text = t["text"] + (f" [image: {t['blip_caption']}]" if t.get("blip_caption") else "")
            out.append({"speaker": t["speaker"], "dia_id": t["dia_id"], "text": text, "session": n,
                        "at": start + timedelta(minutes=i)})
        n += 1
    return out


def export(name: str, conv_id: str, all_turns: list[dict], earlier: list[dict] = ()) -> dict:
    """The conversation as `name`'s memory export: their turns theirs, the other's her replies; after
    the `earlier` messages (see history)."""
    said = [{"session": e["session"], "role": e["role"], "text": e["text"], "at": e["at"]} for e in earlier]
    said += [{"session": f"locomo-{conv_id}-{t['session']}", "role": "user" if t["speaker"] == name else "assistant",
              "text": t["text"], "at": t["at"]} for t in all_turns]
    messages = [{"id": i, "session": m["session"], "role": m["role"], "text": m["text"], "created_at": iso(m["at"]),
                 "tokens": 0, "interrupted": 0} for i, m in enumerate(said, start=1)]
    return {"format": "glados-memory/1", "user": name, "messages": messages, "facts": [], "summaries": []}


def history(count: int, skip: int, before: datetime) -> list[dict]:
    """`count` messages of Persona-Chat's conversations from the `skip`-th message on, one conversation a
    day ending the day before `before`: "User 1" the user's, "User 2" her replies."""
    import csv
    if not PERSONA.is_file():
        raise SystemExit(f"locomo: --history reads {PERSONA}, which is missing")
    lines: list[tuple[int, str, str]] = []
    with PERSONA.open(encoding="utf-8", newline="") as f:
        for n, row in enumerate(csv.DictReader(f)):
            for line in row["Best Generated Conversation"].splitlines():
                who, _, text = line.partition(":")
                if who.strip() in ("User 1", "User 2") and text.strip():
                    lines.append((n, "user" if who.strip() == "User 1" else "assistant", text.strip()))
    chosen = lines[skip:skip + count]
    if len(chosen) < count:
        raise SystemExit(f"locomo: Persona-Chat holds {len(lines)} messages, fewer than --history x 2 asks for")
    days = {n: i for i, n in enumerate(dict.fromkeys(n for n, _, _ in chosen))}
    first = before.replace(hour=9, minute=0) - timedelta(days=len(days))
    said = Counter()
    out: list[dict] = []
    for n, role, text in chosen:      # a minute a message within its day
        out.append({"session": f"persona-{n}", "role": role, "text": text,
                    "at": first + timedelta(days=days[n], minutes=said[n])})
        said[n] += 1
    return out


def first_person(question: str, name: str) -> str:
    q = re.sub(rf"\b{re.escape(name)}'s\b", "my", question)
    return re.sub(rf"\b{re.escape(name)}\b", "I", q)


class BM25:
    def __init__(self, docs: list[str], k1: float = 1.2, b: float = 0.75):
        self.k1, self.b = k1, b
        self.docs = [Counter(tokens(d)) for d in docs]
        self.lengths = [sum(d.values()) for d in self.docs]
        self.avg = sum(self.lengths) / max(1, len(self.docs))
        df = Counter(w for d in self.docs for w in d)
        n = len(self.docs)
        self.idf = {w: max(0.0, math.log((n - f + 0.5) / (f + 0.5))) for w, f in df.items()}

    def scores(self, query: str) -> np.ndarray:
        q = tokens(query)
        out = np.zeros(len(self.docs))
        for i, (d, length) in enumerate(zip(self.docs, self.lengths)):
            for w in q:
                f = d.get(w, 0)
                if f:
                    out[i] += self.idf[w] * f * (self.k1 + 1) / (f + self.k1 * (1 - self.b + self.b * length / self.avg))
        return out


def tokens(text: str) -> list[str]:
    return [w for w in WORD.findall(text.lower()) if w not in STOPWORDS]


def ranked(scores: np.ndarray, k: int = 20) -> list[int]:
    return [int(i) for i in np.argsort(-scores, kind="stable")[:k]]


def rrf(*lists: list[int], k: int = 60) -> list[int]:
    score: dict[int, float] = defaultdict(float)
    for lst in lists:
        for rank, i in enumerate(lst):
            score[i] += 1 / (k + rank + 1)
    return sorted(score, key=lambda i: -score[i])


class Scores:
    """hit@k, MRR@10 and all@10 per category, for one method and one phrasing."""

    def __init__(self) -> None:
        self.rows: list[tuple[int, list[int], int]] = []    # category, ranks of evidence (0-based), evidence count

    def add(self, category: int, found: list[str], evidence: list[str]) -> None:
        ranks = sorted(found.index(e) for e in set(evidence) if e in found)
        self.rows.append((category, ranks, len(set(evidence))))

    def hit(self, k: int, category: int | None = None) -> float:
        rows = [r for r in self.rows if category in (None, r[0])]
        return sum(1 for _, ranks, _ in rows if ranks and ranks[0] < k) / max(1, len(rows))

    def mrr(self) -> float:
        return sum(1 / (ranks[0] + 1) for _, ranks, _ in self.rows if ranks and ranks[0] < 10) / max(1, len(self.rows))

    def all_at(self, k: int = 10) -> float:
        multi = [r for r in self.rows if r[2] > 1]
        return sum(1 for _, ranks, n in multi if len([x for x in ranks if x < k]) == n) / max(1, len(multi))


def run(data: Path, conv_ids: tuple[str, ...], k: int, console: Console, misses: int, keep: Path | None,
        overrides: dict[str, float] | None = None, earlier: int = 0) -> dict:
    config = load_config(None)
    methods = ("glados", "BM25", "cosine", "RRF")
    scores = {(m, p): Scores() for m in methods for p in ("written", "first")}
    indexed, index_s, recall_s, asked = 0, 0.0, [], 0
    missed: list[str] = []
    with tempfile.TemporaryDirectory() as tmp:
        folder = keep or Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        for conv_id in conv_ids:
            conv = json.loads((data / f"conv-{conv_id}.json").read_text(encoding="utf-8"))
            all_turns = turns(conv)
            speaker_of = {t["dia_id"]: t["speaker"] for t in all_turns}
            # one file per conversation: its two speakers are its users, by name
            flat = {n: v for n, v in (overrides or {}).items() if "." not in n}
            settings = replace(recall_settings(config), **flat)
            for name, value in (overrides or {}).items():      # expire_days.state=0: a kind's entry (0: never)
                if "." in name:
                    field, kind = name.split(".", 1)
                    settings = replace(settings, **{field: {**getattr(settings, field), kind: value or None}})
            memory = Memory(folder / f"conv-{conv_id}{f'-h{earlier}' if earlier else ''}.db", recall_settings=settings)
            model = memory.meaning.load()    # the baselines use the same model, loaded once
            if model is None:
                raise SystemExit(f"locomo: {memory.recall_notice}; run ./test.sh once to install the sentence model")
            # both speakers' messages are in before any question: BM25's statistics are the whole file's,
            # so a store scored as it is made and the same store reopened rank alike
            speakers = (conv["speaker_a"], conv["speaker_b"])
            pasts = {name: history(earlier, i * earlier, all_turns[0]["at"]) if earlier else [] for i, name in enumerate(speakers)}
            for name in speakers:
                memory.import_(name, export(name, conv_id, all_turns, pasts[name]))
            for name in speakers:
                user = name
                # by text and time: an import leaves out a message said twice in the same minute
                stored = {(r[1], r[2]): r[0] for r in memory.db.execute(
                    "SELECT id, text, created_at FROM messages WHERE user = ? ORDER BY id", (user,))}
                dia_of = {stored[t["text"], iso(t["at"])]: t["dia_id"] for t in all_turns
                          if (t["text"], iso(t["at"])) in stored}
                past = [(stored[m["text"], iso(m["at"])], m["text"]) for m in pasts[name]
                        if m["role"] == "user" and (m["text"], iso(m["at"])) in stored]
                started = time.perf_counter()
                with Progress(console=console, transient=True) as bar:
                    task = bar.add_task(f"indexing {user}", total=None)
                    done = memory.index_pending(user, progress=lambda n, total: bar.update(task, completed=n, total=total))
                    memory.fill_crowding(user, everything=True)
                if done:
                    index_s += time.perf_counter() - started
                    indexed += done
                own = [t for t in all_turns if t["speaker"] == name]
                # the baselines rank the earlier messages too (by the vectors the store holds)
                held, _ = memory.meaning.index.vectors(memory.db, user, [i for i, _ in past])
                past = [(i, text) for i, text in past if i in held]
                bm25 = BM25([t["text"] for t in own] + [text for _, text in past])
                vectors = model.encode([t["text"] for t in own])
                if past:
                    vectors = np.concatenate([vectors, np.stack([held[i] for i, _ in past])])
                own = own + [{"dia_id": None} for _ in past]
                for qa in conv["qa"]:
                    evidence = [e.strip() for e in qa.get("evidence", []) for e in e.split(";")]
                    if qa.get("category") not in CATEGORIES or not evidence or \
                            {speaker_of.get(e) for e in evidence} != {name}:
                        continue
                    asked += 1
                    for phrasing, question in (("written", qa["question"]), ("first", first_person(qa["question"], name))):
                        t0 = time.perf_counter()
                        found = memory.recall(user, question, k=k)
                        recall_s.append(time.perf_counter() - t0)
                        got = [dia_of.get(int(r.id)) for r in found if r.kind == "message"]
                        by_words = ranked(bm25.scores(question), k)
                        by_meaning = ranked(vectors @ model.encode([question])[0], k)
                        fused = rrf(by_words, by_meaning)[:k]
                        c = qa["category"]
                        scores["glados", phrasing].add(c, got, evidence)
                        for method, lst in (("BM25", by_words), ("cosine", by_meaning), ("RRF", fused)):
                            scores[method, phrasing].add(c, [own[i]["dia_id"] for i in lst], evidence)
                        if phrasing == "written" and len(missed) < misses and not any(e in got[:5] for e in evidence):
                            said = " | ".join(t["text"][:70] for t in all_turns if t["dia_id"] in evidence)
                            top = " | ".join(r.text[:50] for r in found[:3])
                            missed.append(f"[{CATEGORIES[c]}] {question}\n   evidence: {said}\n   top 3: {top}")
            memory.close()
    return {"scores": scores, "asked": asked, "indexed": indexed, "index_s": index_s, "recall_s": recall_s,
            "missed": missed}


def table(result: dict, phrasing: str) -> Table:
    t = Table(title=f"hit@k by method, questions {'as written' if phrasing == 'written' else 'in the first person'}")
    t.add_column("method")
    for k in KS:
        t.add_column(f"hit@{k}", justify="right")
    t.add_column("MRR", justify="right")
    t.add_column("all@10", justify="right")
    for c, name in CATEGORIES.items():
        t.add_column(f"{name} @5", justify="right")
    for method in ("glados", "BM25", "cosine", "RRF"):
        s = result["scores"][method, phrasing]
        t.add_row(method, *(f"{s.hit(k):.2f}" for k in KS), f"{s.mrr():.2f}", f"{s.all_at():.2f}",
                  *(f"{s.hit(5, c):.2f}" for c in CATEGORIES))
    return t


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--split", choices=(*SPLITS, "all"), default="test")
    parser.add_argument("-k", type=int, default=20, help="results asked of recall (default 20)")
    parser.add_argument("--misses", type=int, default=0, help="list this many questions missed at 5 (as written)")
    parser.add_argument("--convs", help="these conversations instead of a split, e.g. 42,43")
    parser.add_argument("--data", type=Path, default=DATA, help=f"the LoCoMo folder (default {DATA})")
    parser.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                        help="a recall setting for this run, e.g. word_weight=0.3 (to choose settings on dev), "
                             "or one kind of a per-kind setting, e.g. expire_days.state=0 (0: never)")
    parser.add_argument("--brief", action="store_true", help="one line per phrasing: glados beside RRF")
    parser.add_argument("--keep", type=Path, help="keep the indexed stores in this folder and reuse them next time")
    parser.add_argument("--history", type=int, default=0, metavar="N",
                        help="give each speaker N earlier messages first (Persona-Chat's; see above)")
    args = parser.parse_args()
    if not args.data.is_dir():
        raise SystemExit(f"locomo: no data at {args.data}; it ships beside the project in shared/data/locomo")
    conv_ids = SPLITS["dev"] + SPLITS["test"] if args.split == "all" else SPLITS[args.split]
    conv_ids = tuple(args.convs.split(",")) if args.convs else conv_ids
    console = Console()
    overrides = {n: int(v) if v.isdigit() else float(v) for n, _, v in (a.partition("=") for a in args.set)}
    result = run(args.data, conv_ids, args.k, console, args.misses, args.keep, overrides, args.history)
    console.print(f"conversations {', '.join(conv_ids)}: {result['asked']} questions"
                  + (f", {result['indexed']} messages indexed in {result['index_s']:.1f} s "
                     f"({result['indexed'] / max(result['index_s'], 1e-9):.0f} a second)" if result["indexed"] else ""))
    for phrasing in ("written", "first"):
        if args.brief:
            g, f = result["scores"]["glados", phrasing], result["scores"]["RRF", phrasing]
            console.print(f"{phrasing:8} glados hit@1/5/10 {g.hit(1):.3f} {g.hit(5):.3f} {g.hit(10):.3f} MRR {g.mrr():.3f} all@10 {g.all_at():.3f}"
                          f" | RRF {f.hit(1):.3f} {f.hit(5):.3f} {f.hit(10):.3f} MRR {f.mrr():.3f} all@10 {f.all_at():.3f}")
        else:
            console.print(table(result, phrasing))
    times = sorted(result["recall_s"])
    if times:
        console.print(f"recall: median {1000 * times[len(times) // 2]:.1f} ms, "
                      f"p95 {1000 * times[int(len(times) * 0.95)]:.1f} ms")
    for line in result["missed"]:
        console.print(line, markup=False, highlight=False)


if __name__ == "__main__":
    main()
