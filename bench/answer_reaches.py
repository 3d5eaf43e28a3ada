"""Does the answer reach the model? LongMemEval histories told through `Memory.observe`, each question asked
through the chat path (`Brain.turn`) at its own date, beside BM25 and cosine filling the same tokens.

    .venv/bin/python bench/answer_reaches.py                  # the dev questions (even files; choices are made here)
    .venv/bin/python bench/answer_reaches.py --split test     # the held-out ones (odd files; report, never tune)
    .venv/bin/python bench/answer_reaches.py --keep /tmp/ar   # keep the stores (observed and indexed) for next time
    .venv/bin/python bench/answer_reaches.py --misses         # and each question whose answer did not reach the prompt

For each question whose answer is said in one of its evidence turns (the user's own, `has_answer`; whole words, case
folded) before the question's date: every haystack session is one session, each user turn told with `Memory.observe` (the miner runs) and each
reply logged, with the clock at the turn's time (its session's date plus a minute a turn); the store is indexed as
`glados memory index` does. Then a new session asks the question as written at `question_date`; a model that records
its request stands in for Ollama. What the model reads, the question itself taken out, is searched for the answer
as whole words. Tokens: what the memory block and recall add to the request (the project's estimate, about four
characters a token; with --server the real `ollama` client asks the stand-in server of tests/, which counts the
prompt as Ollama would, and that count is printed too). Baselines: the user's own turns said before the question, ranked by Okapi BM25 or by MiniLM
cosine over each whole turn, appended in order until the same number of tokens is used (the last one cut).
The data (`../shared/data/longmemeval/`, MIT) is read at run time, never copied.
"""
from __future__ import annotations

import argparse
import contextlib
import re
import shutil
import statistics
import sys
import tempfile
from dataclasses import replace
from datetime import datetime, timedelta
from pathlib import Path
from typing import Iterator

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from rich.console import Console  # noqa: E402
from rich.table import Table  # noqa: E402

import locomo as L  # noqa: E402
import longmemeval as LME  # noqa: E402
from assistant.app import num_ctx, recall_settings  # noqa: E402
from assistant.config import load_config  # noqa: E402
from assistant.llm import LLM, Chunk, make_llm  # noqa: E402
from assistant.turn.brain import Brain  # noqa: E402
from memory import Memory, TooLong, estimate_tokens  # noqa: E402
from memory.moments import iso  # noqa: E402

USER = "u"


class Recording(LLM):
    """Records each request and answers with one short line (what the model would read is all we look at)."""

    model = "recording"

    def __init__(self) -> None:
        self.requests: list[list[dict]] = []

    def check(self) -> None:
        return None

    def chat(self, messages, tools=None, max_tokens=None, format=None, temperature=None) -> Iterator[Chunk]:
        self.requests.append([dict(m) for m in messages])
        yield Chunk(text="Noted.")
        yield Chunk(done=True)


def said(answer: str, text: str) -> bool:
    """The answer as whole words in text, case folded."""
    want = " ".join(re.findall(r"\w+", str(answer).casefold()))
    words = " ".join(re.findall(r"\w+", text.casefold()))
    return bool(want) and f" {want} " in f" {words} "


def tell(item: dict, folder: Path) -> Memory:
    """The question's history told turn by turn, at its times; reopened when kept from an earlier run."""
    now = [datetime.now()]
    memory = Memory(folder / f"ar-{item['question_id']}.db", clock=lambda: now[0], recall_settings=recall_settings(CONFIG))
    if not memory.db.execute("SELECT 1 FROM messages LIMIT 1").fetchone():
        for m in LME.turns(item):
            now[0] = datetime.fromisoformat(m["created_at"])
            if m["role"] == "user":
                try:
                    memory.observe(USER, m["text"], session=m["session"])
                except TooLong:
                    memory.log(USER, m["session"], "user", m["text"][:memory.max_message_chars])
            else:
                memory.log(USER, m["session"], "assistant", m["text"])
        memory.index_pending(USER)
        memory.fill_crowding(USER, everything=True)
    memory.clock = lambda: LME.when(item["question_date"])
    return memory


def asked(memory: Memory, question: str) -> tuple[str, int, int | None]:
    """What the model reads when the question is asked in a new chat (question taken out), the tokens that
    memory (the block and recall) added to it, and (--server) the whole prompt as the stand-in server counted it."""
    llm = Recording() if SERVER is None else make_llm(replace(CONFIG.llm, host=SERVER.url), num_ctx(CONFIG))
    brain = Brain(memory, llm, CONFIG, USER)
    brain.connect()
    brain.turn(question)
    if SERVER is None:
        request, counted = llm.requests[-1], None
    else:
        served = [s for s in SERVER.served if s.kind == "chat" and s.body.get("messages")][-1]
        request, counted = served.body["messages"], served.prompt_tokens
    parts = [m["content"] for m in request[:-1]] + [request[-1]["content"].rsplit(question, 1)[0]]
    return "\n".join(parts), max(0, sum(estimate_tokens(p) for p in parts) - _persona_tokens()), counted


SERVER = None       # --server: the stand-in Ollama (tests/ollama_stub.py, built from Ollama's source) and the real client


_BASE: list[int] = []


def _persona_tokens() -> int:
    """Tokens of a request with no memory at all (the persona and examples): what memory adds is the rest."""
    if not _BASE:
        llm = Recording()
        with tempfile.TemporaryDirectory() as tmp, Memory(Path(tmp) / "empty.db") as empty:
            brain = Brain(empty, llm, CONFIG, USER)
            brain.connect()
            brain.turn("hello there")
        _BASE.append(sum(estimate_tokens(m["content"]) for m in llm.requests[-1]
                         if not (m["role"] == "user" and m["content"] == "hello there")))
    return _BASE[0]


def filled(texts: list[str], order: list[int], tokens: int) -> str:
    """Turns in rank order until `tokens` are used; the last one cut to what is left."""
    out, used = [], 0
    for i in order:
        cost = estimate_tokens(texts[i])
        if used + cost > tokens:
            room = (tokens - used) * 4
            if room > 20:
                out.append(texts[i][:room])
            break
        out.append(texts[i])
        used += cost
    return "\n".join(out)


def run(files: list[Path], folder: Path, console: Console, misses: bool) -> dict:
    rows = []
    for n, path in enumerate(files):
        item = LME.read(path)
        at = iso(LME.when(item["question_date"]))
        own = [m for m in LME.turns(item) if m["role"] == "user" and m["created_at"] <= at]
        if item["question_id"].endswith("_abs") or not any(m["answer"] and said(item["answer"], m["text"]) for m in own):
            continue
        console.print(f"answer-reaches {n + 1}/{len(files)} {item['question_id']}", end="\r", markup=False)
        with tell(item, folder) as kept:
            # asked in a copy: asking logs the question, and a kept store must not remember being asked
            kept.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            copy = folder / "asking.db"
            for old in folder.glob("asking.db*"):
                old.unlink()
            shutil.copyfile(kept.path, copy)
            with Memory(copy, clock=kept.clock, recall_settings=recall_settings(CONFIG)) as memory:
                text, tokens, counted = asked(memory, item["question"])
            texts = [m["text"] for m in own]
            model = kept.meaning.load()
            vectors = LME._whole(model, texts, folder / f"ar-{item['question_id']}-{len(texts)}.npy")
            by_words = L.ranked(L.BM25(texts).scores(item["question"]), len(texts))
            by_meaning = L.ranked(vectors @ model.encode([item["question"]])[0], len(texts))
            budget = max(tokens, 1)
            row = {"id": item["question_id"], "kind": item["question_type"], "tokens": tokens, "counted": counted,
                   "glados": said(item["answer"], text),
                   "BM25": said(item["answer"], filled(texts, by_words, budget)),
                   "cosine": said(item["answer"], filled(texts, by_meaning, budget)),
                   "BM25@600": said(item["answer"], filled(texts, by_words, 600)),
                   "cosine@600": said(item["answer"], filled(texts, by_meaning, 600))}
            rows.append(row)
            if misses and not row["glados"]:
                console.print(f"[miss] {item['question_type']}: {item['question']} -> {item['answer']!r}\n{text[-1500:]}\n",
                              markup=False, highlight=False)
    return {"rows": rows}


def table(result: dict, title: str) -> Table:
    rows = result["rows"]
    t = Table(title=title)
    served = all(r["counted"] is not None for r in rows) and rows
    for col in ("type", "questions", "glados", "BM25 (same tokens)", "cosine (same tokens)", "BM25 @600", "cosine @600",
                "tokens median", "tokens max") + (("prompt, server-counted median",) if served else ()):
        t.add_column(col, justify="right")
    for kind in sorted({r["kind"] for r in rows}) + [None]:
        part = [r for r in rows if kind in (None, r["kind"])]
        if not part:
            continue
        tokens = [r["tokens"] for r in part]
        t.add_row(kind or "all", str(len(part)), *(f"{sum(r[m] for r in part)}" for m in
                  ("glados", "BM25", "cosine", "BM25@600", "cosine@600")),
                  f"{statistics.median(tokens):.0f}", str(max(tokens)),
                  *((f"{statistics.median(r['counted'] for r in part):.0f}",) if served else ()))
    return t


CONFIG = load_config(None)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--split", choices=("dev", "test"), default="dev")
    ap.add_argument("--keep", type=Path, help="keep the stores here and reuse them")
    ap.add_argument("--limit", type=int, default=0, help="at most this many files of the split")
    ap.add_argument("--misses", action="store_true")
    ap.add_argument("--recall-k", type=int, help="memory.recall_k for this run")
    ap.add_argument("--recall-chars", type=int, help="memory.recall_chars for this run")
    ap.add_argument("--reply-chars", type=int, help="memory.reply_chars for this run")
    ap.add_argument("--tokens", type=int, help="what memory may add (budget.memory + budget.recall) for this run")
    ap.add_argument("--server", action="store_true", help="ask through the real ollama client and the stand-in server, "
                                                          "and print the prompt's length as it counts it")
    args = ap.parse_args()
    global CONFIG
    mem, budget = CONFIG.memory, CONFIG.budget
    mem = replace(mem, **{k: v for k, v in (("recall_k", args.recall_k), ("recall_chars", args.recall_chars),
                                            ("reply_chars", args.reply_chars)) if v is not None})
    if args.tokens is not None:
        budget = replace(budget, memory=min(budget.memory, args.tokens), recall=max(0, args.tokens - budget.memory))
    CONFIG = replace(CONFIG, memory=mem, budget=budget)
    console = Console()
    files = LME.split(args.split)[: args.limit or None]
    global SERVER
    with tempfile.TemporaryDirectory() as tmp, contextlib.ExitStack() as stack:
        if args.server:
            from tests.ollama_stub import StubOllama
            SERVER = stack.enter_context(StubOllama())
        folder = args.keep or Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        result = run(files, folder, console, args.misses)
    console.print(table(result, f"answer reaches the model: LongMemEval {args.split}, questions whose answer the user said"))


if __name__ == "__main__":
    main()
