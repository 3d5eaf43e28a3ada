"""Recall on LongMemEval (dated histories of ~50 sessions), beside BM25, dense cosine and their fusion.

    .venv/bin/python bench/longmemeval.py                      # the held-out split (odd files)
    .venv/bin/python bench/longmemeval.py --split dev          # the split settings are chosen on (even files)
    .venv/bin/python bench/longmemeval.py --keep /tmp/lme      # keep the indexed stores and reuse them next time
    .venv/bin/python bench/longmemeval.py --misses 10 --type temporal-reasoning

The data (`../shared/data/longmemeval/`, MIT, read at run time, never copied) is scored as its README
says: each question is its own user; every haystack session one session, the user's turns theirs and
the assistant's her replies, a turn's time its session's date (UTC) plus a minute a turn; loaded with
`Memory.import_` and indexed as `glados memory index` does; the question asked as written, k = 20, as of
its `question_date` (`recall(at=...)`, what `glados memory recall --at` runs): what was said after that
minute does not exist for it, nor for the baselines. (In 18 of the 147 questions some evidence is dated
later on the question's day; the table counts them. --everything asks at the question's time but sees
the whole store, as recall did before it took `at`.)
- hit@k: a user turn marked has_answer among the first k; sess@k: an evidence session among the
  sessions of the first k; MRR over the top 10. Abstention questions (`_abs`) have no evidence: what is
  recalled for them is counted as noise (items in the top 5), as is what recalls for the next question
  of the split asked of this store (another person's question).
- updates (knowledge-update questions whose evidence spans two or more times), in two rows: where the
  question asks the current value, the newest evidence ranks above the oldest (issue 48's target); where
  it asks about the past ("before", "previous", "originally"; `dates.asks_past`), the oldest above the
  newest. Unranked counts as below everything.
- the answer's words in the prompt line: of the evidence among the first `memory.recall_k` whose text
  holds the answer's first three words or numbers, how often the line the prompt carries for it
  (`recalled_line`, cut to 300 characters) holds them too.
- Baselines over the same user's own turns, in the same run: Okapi BM25 (k1 1.2, b 0.75, non-negative
  idf, lowercase word tokens, recall's stop words), cosine with the same MiniLM model over each whole
  turn (256 word pieces, as sentence-transformers reads it), and their reciprocal-rank fusion (k = 60).
"""
from __future__ import annotations

import argparse
import gzip
import json
import re
import sys
import tempfile
import time
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import numpy as np  # noqa: E402
from rich.console import Console  # noqa: E402
from rich.table import Table  # noqa: E402

import locomo as L  # noqa: E402
from assistant.app import recall_settings  # noqa: E402
from assistant.config import load_config  # noqa: E402
from assistant.turn.prompt import recalled_line  # noqa: E402
from memory import Memory  # noqa: E402
from memory.moments import iso  # noqa: E402
from memory.dates import asks_past  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT.parent / "shared" / "data" / "longmemeval"
METHODS = ("glados", "BM25", "cosine", "RRF")
RECALL_K = load_config(None).memory.recall_k     # items recalled into a request, as shipped


def split(name: str) -> list[Path]:
    """dev: the even files by name (settings are chosen there); test: the odd ones (reported)."""
    files = sorted(DATA.glob("*.json.gz"))
    return files[0::2] if name == "dev" else files[1::2]


def when(stamp: str) -> datetime:
    """"2023/05/20 (Sat) 02:21" -> that minute, UTC."""
    day, _, rest = stamp.partition(" (")
    return datetime.strptime(f"{day} {rest.partition(') ')[2]}", "%Y/%m/%d %H:%M").replace(tzinfo=timezone.utc)


def read(path: Path) -> dict:
    return json.loads(gzip.open(path).read())


def turns(item: dict) -> list[dict]:
    """Every turn of the question's history, as a message, with `answer` (has_answer) beside it."""
    messages = []
    for sid, stamp, session in zip(item["haystack_session_ids"], item["haystack_dates"], item["haystack_sessions"]):
        start = when(stamp)
        for i, t in enumerate(session):
            messages.append({"id": len(messages) + 1, "session": sid, "role": t["role"], "text": t["content"],
                             "created_at": iso(start + timedelta(minutes=i)), "tokens": 0, "interrupted": 0,
                             "answer": bool(t.get("has_answer"))})
    return messages


def export(item: dict) -> dict:
    """The question's history as `glados memory import` reads it: one user, a session per haystack session."""
    messages = [{k: v for k, v in m.items() if k != "answer"} for m in turns(item)]
    return {"format": "glados-memory/1", "user": "u", "messages": messages, "facts": [], "summaries": []}


def store(item: dict, folder: Path, settings) -> tuple[Memory, int, float]:
    """The question's store, made (imported and indexed) or reopened; how many messages it indexed, in how long."""
    memory = Memory(folder / f"lme-{item['question_id']}.db", recall_settings=settings)
    if not memory.db.execute("SELECT 1 FROM messages LIMIT 1").fetchone():
        memory.import_("u", export(item))
    started = time.perf_counter()
    done = memory.index_pending("u")
    memory.fill_crowding("u", everything=True)
    return memory, done, time.perf_counter() - started


@dataclass
class Row:
    kind: str
    ranks: list[int]              # 0-based ranks of evidence turns found
    sessions: list[int]           # 0-based ranks of items from evidence sessions
    newest_first: bool | None = None   # updates only: the wanted one of newest / oldest evidence first
    past: bool = False                 # updates only: the question asks about the past (the oldest is wanted)


@dataclass
class Scores:
    rows: list[Row] = field(default_factory=list)

    def of(self, kind: str | None) -> list[Row]:
        return [r for r in self.rows if kind in (None, r.kind)]

    def hit(self, k: int, kind: str | None = None) -> float:
        rows = self.of(kind)
        return sum(1 for r in rows if r.ranks and r.ranks[0] < k) / max(1, len(rows))

    def sess(self, k: int, kind: str | None = None) -> float:
        rows = self.of(kind)
        return sum(1 for r in rows if r.sessions and r.sessions[0] < k) / max(1, len(rows))

    def mrr(self, kind: str | None = None) -> float:
        rows = self.of(kind)
        return sum(1 / (r.ranks[0] + 1) for r in rows if r.ranks and r.ranks[0] < 10) / max(1, len(rows))

    def updates(self, past: bool) -> tuple[int, int]:
        judged = [r.newest_first for r in self.rows if r.newest_first is not None and r.past == past]
        return sum(judged), len(judged)


def score(kind: str, found: list[int], evidence: dict[int, str], sessions: dict[int, str], wanted: set[str],
          past: bool) -> Row:
    """found: message ids, best first; evidence: id -> time of the evidence turns; sessions: id -> session."""
    ranks = [i for i, m in enumerate(found) if m in evidence]
    in_sessions = [i for i, m in enumerate(found) if sessions.get(m) in wanted]
    row = Row(kind, ranks, in_sessions)
    times = sorted(set(evidence.values()))
    if kind == "knowledge-update" and len(times) > 1:
        def rank(t: str) -> int:
            return min((i for i, m in enumerate(found) if evidence.get(m) == t), default=10**6)
        newest, oldest = rank(times[-1]), rank(times[0])
        first, second = (oldest, newest) if past else (newest, oldest)
        row.newest_first, row.past = first < second, past
    return row


def run(files: list[Path], folder: Path, settings, console: Console, misses: int, kinds: set[str],
        cut: bool = True) -> dict:
    scores = {m: Scores() for m in METHODS}
    noise = {"abstention": [0, 0], "another's": [0, 0]}      # items in the top 5, questions
    indexed, index_s, recall_s, missed, late = 0, 0.0, [], [], 0
    prompt = [0, 0]     # of the evidence among the first RECALL_K holding the answer's words: in its prompt line, all
    items = [read(f) for f in files]
    items = [i for i in items if not kinds or i["question_type"] in kinds]
    for n, item in enumerate(items):
        console.print(f"longmemeval {n + 1}/{len(items)} {item['question_id']}", end="\r", markup=False)
        memory, done, seconds = store(item, folder, settings)
        if done:
            indexed, index_s = indexed + done, index_s + seconds
        at = when(item["question_date"])
        ids = {(r[1], r[2]): r[0] for r in memory.db.execute(
            "SELECT id, text, created_at FROM messages WHERE user = 'u' AND role = 'user'")}
        # by text and time: an import leaves out a message said twice in the same minute
        seen = iso(at) if cut else "9999"
        history = turns(item)
        stored = [(ids[m["text"], m["created_at"]], m) for m in history
                  if m["role"] == "user" and (m["text"], m["created_at"]) in ids]
        by_then = [j for j, (_, m) in enumerate(stored) if m["created_at"] <= seen]
        own = [stored[j] for j in by_then]
        late += any(m["answer"] and m["created_at"] > seen for m in history)
        evidence = {i: m["created_at"] for i, m in own if m["answer"]}
        sessions = {i: m["session"] for i, m in own}
        question = item["question"]
        t0 = time.perf_counter()
        found = _recall(memory, question, 20, at, cut)
        recall_s.append(time.perf_counter() - t0)
        got = [int(r.id) for r in found if r.kind == "message"]
        if not evidence:
            noise["abstention"][0] += len(found[:5])
            noise["abstention"][1] += 1
        else:
            kind, past = item["question_type"], asks_past(question)
            wanted = set(item["answer_session_ids"])
            scores["glados"].rows.append(score(kind, got, evidence, sessions, wanted, past))
            for r in found[:RECALL_K]:
                said = [w for w in answer_words(item["answer"]) if w in r.text.lower()]
                if int(r.id) in evidence and said:
                    line = recalled_line(r).lower()
                    prompt[0] += all(w in line for w in said)
                    prompt[1] += 1
            model = memory.meaning.load()
            vectors = _whole(model, [m["text"] for _, m in stored], folder / f"lme-{item['question_id']}.npy")[by_then]
            by_words = L.ranked(L.BM25([m["text"] for _, m in own]).scores(question), 20)
            by_meaning = L.ranked(vectors @ model.encode([question])[0], 20)
            for method, lst in (("BM25", by_words), ("cosine", by_meaning), ("RRF", L.rrf(by_words, by_meaning)[:20])):
                scores[method].rows.append(score(kind, [own[i][0] for i in lst], evidence, sessions, wanted, past))
            if len(missed) < misses and not any(m in evidence for m in got[:5]):
                said = " | ".join(m["text"][:80] for i, m in own if i in evidence)
                top = "\n     ".join(f"{r.created_at[:10]} {r.text[:90]!r}" for r in found[:3])
                missed.append(f"[{kind}] {question} (asked {item['question_date']})\n   evidence: {said}\n   top 3: {top}")
        other = items[(n + 1) % len(items)]["question"]
        noise["another's"][0] += len(_recall(memory, other, 5, at, cut))
        noise["another's"][1] += 1
        memory.close()
    return {"scores": scores, "noise": noise, "indexed": indexed, "index_s": index_s, "recall_s": recall_s,
            "missed": missed, "questions": len(items), "late": late, "prompt": prompt}


def answer_words(answer) -> list[str]:
    """The answer's first three words or numbers that can be looked for in a text ("25:50", "Premier")."""
    return [w.lower() for w in re.findall(r"[A-Za-z0-9:]+", str(answer)) if len(w) > 2 or w.isdigit()][:3]


def _recall(memory: Memory, question: str, k: int, at: datetime, cut: bool) -> list:
    if cut:
        return memory.recall("u", question, k=k, at=at)
    memory.clock = lambda: at      # asked then, everything in the store seen (as before recall took `at`)
    return memory.recall("u", question, k=k)


def _whole(model, texts: list[str], cache: Path) -> np.ndarray:
    """Each turn's vector read whole (the cosine baseline), kept beside the store."""
    if cache.exists():
        held = np.load(cache)
        if len(held) == len(texts):
            return held
    model.tokenizer.enable_truncation(256)
    try:
        vectors = model.encode(texts)
    finally:
        from memory.embed import MAX_TOKENS
        model.tokenizer.enable_truncation(MAX_TOKENS)
    np.save(cache, vectors)
    return vectors


def tables(result: dict, title: str) -> list[Table]:
    scores = result["scores"]
    kinds = sorted({r.kind for r in scores["glados"].rows})
    main = Table(title=f"{title}: MRR over the top 10")
    for column in ("questions", "n", "method", "hit@1", "hit@5", "hit@10", "sess@5", "sess@10", "MRR"):
        main.add_column(column, justify="left" if column in ("questions", "method") else "right")
    for kind in [None, *kinds]:
        rows = scores["glados"].of(kind)
        for m in METHODS:
            s = scores[m]
            main.add_row(kind or "all answerable" if m == "glados" else "", str(len(rows)) if m == "glados" else "", m,
                         *(f"{v:.2f}" for v in (s.hit(1, kind), s.hit(5, kind), s.hit(10, kind), s.sess(5, kind),
                                                s.sess(10, kind), s.mrr(kind))), end_section=m == METHODS[-1])
    rest = Table(title="updates, noise and speed")
    rest.add_column("measure")
    rest.add_column("glados", justify="right")
    for m in METHODS[1:]:
        rest.add_column(m, justify="right")
    rest.add_row("questions with evidence said after the question's time (out of reach as of then)",
                 str(result["late"]), "", "", "")
    rest.add_row("updates asking the current value: the newest evidence first",
                 *(f"{a}/{b}" for a, b in (scores[m].updates(past=False) for m in METHODS)))
    rest.add_row("updates asking about before (\"previous\", \"initially\"): the oldest evidence first",
                 *(f"{a}/{b}" for a, b in (scores[m].updates(past=True) for m in METHODS)))
    reached, had = result["prompt"]
    rest.add_row(f"the answer's words in the prompt line (of evidence among the first {RECALL_K} holding them)",
                 f"{reached}/{had}", "", "", "")
    for name, (items, asked) in result["noise"].items():
        rest.add_row(f"{name} questions: items in the top 5 (per question)", f"{items / max(1, asked):.2f} ({asked})",
                     "", "", "")
    if result["indexed"]:
        rest.add_row("indexing: messages a second", f"{result['indexed'] / result['index_s']:.0f}", "", "", "")
    times = sorted(result["recall_s"])
    if times:
        rest.add_row("recall: p50 / p95 ms", f"{times[len(times) // 2] * 1000:.0f} / "
                     f"{times[int(len(times) * 0.95)] * 1000:.0f}", "", "", "")
    return [main, rest]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--split", choices=("dev", "test"), default="test")
    parser.add_argument("--every", type=int, default=1, metavar="N", help="every Nth question of the split")
    parser.add_argument("--type", action="append", default=[], help="only questions of this type")
    parser.add_argument("--keep", type=Path, help="keep the indexed stores in this folder and reuse them next time")
    parser.add_argument("--misses", type=int, default=0, help="show this many questions whose evidence was not in the top 5")
    parser.add_argument("--everything", action="store_true",
                        help="ask at the question's time but see the whole store (evidence dated after the question too)")
    parser.add_argument("--set", action="append", default=[], metavar="NAME=VALUE", help="a recall setting for this run")
    args = parser.parse_args()
    settings = replace(recall_settings(load_config(None)),
                       **{n: float(v) for n, _, v in (a.partition("=") for a in args.set)})
    console = Console(width=max(160, Console().width))
    with tempfile.TemporaryDirectory() as tmp:
        folder = args.keep or Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        result = run(split(args.split)[::args.every], folder, settings, console, args.misses, set(args.type),
                     cut=not args.everything)
    for t in tables(result, f"LongMemEval {args.split} ({result['questions']} questions)"):
        console.print(t)
    for line in result["missed"]:
        console.print(line, markup=False, highlight=False)


if __name__ == "__main__":
    main()
