"""Recall in the papers' own metrics, beside BM25, cosine and their fusion in the same run.

    .venv/bin/python bench/recall_papers.py                  # the held-out splits (LoCoMo 47-50, LongMemEval odd files)
    .venv/bin/python bench/recall_papers.py --split dev      # the splits choices are made on
    .venv/bin/python bench/recall_papers.py --only locomo --keep /tmp/papers   # keep the indexed stores

LoCoMo (ACL 2024, Table 3): each question's share of evidence turns among the first k, averaged; the pool is
every turn of the conversation, both speakers', and all five categories with evidence are asked, as written.
The baselines read each turn as "Speaker: text" (the paper's unit; its questions name the speaker).
Each speaker is a user of one store (their turns theirs, the other's her replies: see bench/locomo.py);
glados's list is both speakers' recalls merged by score, so both speakers' turns compete. The paper's
DRAGON row (its ten conversations) is printed for reference.

LongMemEval_S (its `eval_utils.py`): the corpus is the user's turns, the answerable questions are asked as
written with the whole history in the store (no `--at`; the clock at the question's date, so recency reads
as it would have then). recall_any@k (an evidence turn among the first k), recall_all@k (every one), NDCG@k
(binary relevance); at the session level the turn ranking's sessions in order of first appearance,
evidence sessions the question's answer sessions.

Baselines over the same pools: Okapi BM25 (bench/locomo.py's), cosine with the same MiniLM model over each
whole turn, and their reciprocal-rank fusion (k = 60).
"""
from __future__ import annotations

import argparse
import json
import math
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import numpy as np  # noqa: E402
from rich.console import Console  # noqa: E402
from rich.table import Table  # noqa: E402

import locomo as LC  # noqa: E402
import longmemeval as LME  # noqa: E402
from assistant.app import recall_settings  # noqa: E402
from assistant.config import load_config  # noqa: E402
from memory import Memory  # noqa: E402
from memory.moments import iso  # noqa: E402

METHODS = ("glados", "BM25", "cosine", "RRF")
KS = (1, 5, 10)
DEPTH = 50                     # items asked of each method: enough for the session ranking's first ten
LOCOMO_CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop", 5: "adversarial"}
DRAGON = {"all": (56.7, 66.2), "multi-hop": (35.4, None), "open-domain": (33.1, None), "single-hop": (68.0, None),
          "temporal": (70.4, None), "adversarial": (43.9, None)}     # the paper's R@5 (and R@10 overall)


@dataclass
class Ranked:
    """One question's rankings by each method, and what answers it."""
    kind: str
    evidence: frozenset           # ids of the evidence turns
    lists: dict[str, list]        # method -> ids, best first
    sessions: frozenset = frozenset()    # evidence sessions (LongMemEval)
    session_of: dict = field(default_factory=dict)


def share(found: list, evidence: frozenset, k: int) -> float:
    return len(evidence & set(found[:k])) / len(evidence)


def ndcg(found: list, evidence: frozenset, k: int) -> float:
    dcg = sum(1 / math.log2(i + 2) for i, x in enumerate(found[:k]) if x in evidence)
    ideal = sum(1 / math.log2(i + 2) for i in range(min(k, len(evidence))))
    return dcg / ideal


def first_seen(items: list) -> list:
    return list(dict.fromkeys(items))


def baselines(model, texts: list[str], vectors: np.ndarray, question: str, ids: list) -> dict[str, list]:
    by_words = LC.ranked(LC.BM25(texts).scores(question), DEPTH)
    by_meaning = LC.ranked(vectors @ model.encode([question])[0], DEPTH)
    return {"BM25": [ids[i] for i in by_words], "cosine": [ids[i] for i in by_meaning],
            "RRF": [ids[i] for i in LC.rrf(by_words, by_meaning)[:DEPTH]]}


def locomo_store(conv_id: str, folder: Path, settings) -> tuple[Memory, dict, dict[tuple[str, int], str]]:
    """The conversation's store (both speakers users of it, indexed), the conversation, and each speaker's
    message ids -> dia_ids."""
    conv = json.loads((LC.DATA / f"conv-{conv_id}.json").read_text(encoding="utf-8"))
    all_turns = LC.turns(conv)
    memory = Memory(folder / f"conv-{conv_id}.db", recall_settings=settings)
    if memory.meaning.load() is None:
        raise SystemExit(f"recall_papers: {memory.recall_notice}; run ./test.sh once to install the sentence model")
    speakers = (conv["speaker_a"], conv["speaker_b"])
    if not memory.db.execute("SELECT 1 FROM messages LIMIT 1").fetchone():
        for name in speakers:
            memory.import_(name, LC.export(name, conv_id, all_turns))
    dia_of: dict[tuple[str, int], str] = {}
    for name in speakers:
        memory.index_pending(name)
        memory.fill_crowding(name, everything=True)
        stored = {(r[1], r[2]): r[0] for r in memory.db.execute(
            "SELECT id, text, created_at FROM messages WHERE user = ? AND role = 'user'", (name,))}
        dia_of.update({(name, stored[t["text"], iso(t["at"])]): t["dia_id"] for t in all_turns
                       if t["speaker"] == name and (t["text"], iso(t["at"])) in stored})
    return memory, conv, dia_of


def evidence_of(qa: dict, ids: set[str]) -> frozenset:
    return frozenset(e.strip() for e in qa.get("evidence", []) for e in e.split(";") if e.strip()) & ids


def locomo(conv_ids: tuple[str, ...], folder: Path, settings, console: Console) -> list[Ranked]:
    out = []
    for conv_id in conv_ids:
        console.print(f"locomo {conv_id}", end="\r", markup=False)
        memory, conv, dia_of = locomo_store(conv_id, folder, settings)
        model = memory.meaning.load()
        all_turns = LC.turns(conv)
        texts = [f'{t["speaker"]}: {t["text"]}' for t in all_turns]      # the retrieval unit as the paper's
        ids = [t["dia_id"] for t in all_turns]
        vectors = LME._whole(model, texts, folder / f"conv-{conv_id}-turns.npy")
        for qa in conv["qa"]:
            evidence = evidence_of(qa, set(ids))
            if qa.get("category") not in LOCOMO_CATEGORIES or not evidence:
                continue
            merged = []
            for name in (conv["speaker_a"], conv["speaker_b"]):
                merged += [(r.score, dia_of.get((name, int(r.id)))) for r in memory.recall(name, qa["question"], k=DEPTH)
                           if r.kind == "message"]
            glados = first_seen(d for _, d in sorted(merged, key=lambda x: -x[0]) if d)
            out.append(Ranked(LOCOMO_CATEGORIES[qa["category"]], evidence,
                              {"glados": glados, **baselines(model, texts, vectors, qa["question"], ids)}))
        memory.close()
    return out


def lme_store(item: dict, folder: Path, settings) -> tuple[Memory, list[tuple[int, dict]]]:
    """The question's store (made or reopened, indexed) and the user's turns as (message id, turn)."""
    memory, _, _ = LME.store(item, folder, settings)
    stored = {(r[1], r[2]): r[0] for r in memory.db.execute(
        "SELECT id, text, created_at FROM messages WHERE user = 'u' AND role = 'user'")}
    return memory, [(stored[m["text"], m["created_at"]], m) for m in LME.turns(item)
                    if m["role"] == "user" and (m["text"], m["created_at"]) in stored]


def longmemeval(files: list[Path], folder: Path, settings, console: Console) -> list[Ranked]:
    out = []
    for n, path in enumerate(files):
        item = LME.read(path)
        if item["question_id"].endswith("_abs"):
            continue
        console.print(f"longmemeval {n + 1}/{len(files)}", end="\r", markup=False)
        memory, own = lme_store(item, folder, settings)
        evidence = frozenset(i for i, m in own if m["answer"])
        if not evidence:
            memory.close()
            continue
        at = LME.when(item["question_date"])
        memory.clock = lambda: at        # the whole history seen, recency read as of the question
        glados = [int(r.id) for r in memory.recall("u", item["question"], k=DEPTH) if r.kind == "message"]
        model = memory.meaning.load()
        vectors = LME._whole(model, [m["text"] for _, m in own], folder / f"lme-{item['question_id']}-own.npy")
        ids = [i for i, _ in own]
        out.append(Ranked(item["question_type"], evidence,
                          {"glados": glados, **baselines(model, [m["text"] for _, m in own], vectors, item["question"], ids)},
                          frozenset(item["answer_session_ids"]), {i: m["session"] for i, m in own}))
        memory.close()
    return out


def locomo_table(rows: list[Ranked], title: str) -> Table:
    kinds = [k for k in LOCOMO_CATEGORIES.values() if any(r.kind == k for r in rows)]
    t = Table(title=title)
    for column in ("method", "R@1", "R@5", "R@10", *(f"{k} R@5" for k in kinds)):
        t.add_column(column, justify="left" if column == "method" else "right")
    for m in METHODS:
        def mean(kind: str | None, k: int) -> str:
            of = [r for r in rows if kind in (None, r.kind)]
            return f"{100 * sum(share(r.lists[m], r.evidence, k) for r in of) / max(1, len(of)):.1f}"
        t.add_row(m, *(mean(None, k) for k in KS), *(mean(kind, 5) for kind in kinds))
    t.add_row("DRAGON (paper)", "", f"{DRAGON['all'][0]}", f"{DRAGON['all'][1]}", *(f"{DRAGON[k][0]}" for k in kinds))
    t.add_row("questions", "", str(len(rows)), "", *(str(sum(r.kind == k for r in rows)) for k in kinds))
    return t


def lme_scores(r: Ranked, method: str, k: int) -> dict[str, float]:
    turns = r.lists[method]
    sessions = first_seen(r.session_of[i] for i in turns if i in r.session_of)
    return {"turn any": float(bool(r.evidence & set(turns[:k]))), "turn all": float(r.evidence <= set(turns[:k])),
            "turn NDCG": ndcg(turns, r.evidence, k), "session any": float(bool(r.sessions & set(sessions[:k]))),
            "session all": float(r.sessions <= set(sessions[:k])), "session NDCG": ndcg(sessions, r.sessions, k)}


def lme_table(rows: list[Ranked], title: str) -> Table:
    t = Table(title=title)
    columns = ("turn any", "turn all", "turn NDCG", "session any", "session all", "session NDCG")
    for column in ("k", "method", *columns):
        t.add_column(column, justify="left" if column in ("k", "method") else "right")
    for k in (5, 10):
        for m in METHODS:
            totals = [lme_scores(r, m, k) for r in rows]
            t.add_row(str(k) if m == METHODS[0] else "", m,
                      *(f"{sum(s[c] for s in totals) / max(1, len(totals)):.3f}" for c in columns),
                      end_section=m == METHODS[-1])
    kinds = sorted({r.kind for r in rows})
    for m in METHODS:
        t.add_row("", f"{m}: turn any@5 by type", *[""] * len(columns))
        for kind in kinds:
            of = [r for r in rows if r.kind == kind]
            t.add_row("", f"  {kind} ({len(of)})", f"{sum(lme_scores(r, m, 5)['turn any'] for r in of) / len(of):.3f}",
                      f"{sum(lme_scores(r, m, 5)['turn all'] for r in of) / len(of):.3f}", *[""] * (len(columns) - 2))
    return t


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--split", choices=("dev", "test"), default="test")
    parser.add_argument("--only", choices=("locomo", "longmemeval"))
    parser.add_argument("--keep", type=Path, help="keep the indexed stores in this folder and reuse them next time")
    args = parser.parse_args()
    settings = recall_settings(load_config(None))
    console = Console(width=max(150, Console().width))
    with tempfile.TemporaryDirectory() as tmp:
        folder = args.keep or Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        if args.only in (None, "locomo"):
            convs = LC.SPLITS[args.split]
            rows = locomo(convs, folder, settings, console)
            console.print(locomo_table(rows, f"LoCoMo {args.split} (conversations {', '.join(convs)}): "
                                             f"share of evidence in the first k, %"))
        if args.only in (None, "longmemeval"):
            rows = longmemeval(LME.split(args.split), folder, settings, console)
            console.print(lme_table(rows, f"LongMemEval_S {args.split}: {len(rows)} answerable questions"))


if __name__ == "__main__":
    main()
