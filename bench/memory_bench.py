"""Memory per-turn cost as the message log grows, against a naive keyword scan.

    .venv/bin/python bench/memory_bench.py            # full run: 100 / 10k / 100k messages
    .venv/bin/python bench/memory_bench.py --quick    # smaller, for a smoke test

Per turn: observe(utterance) + load_context + recall by words and meaning, with 1k facts stored
for the user. Every user message has a vector (random unit vectors: the scan costs the same
whatever they hold); the query's own vector is computed before the clock starts (it is measured
on its own below: the sentence model, ~12 ms on one core). Prints p50/p95 per size, each step's p50
(observe, the memory block, recall: where a slower turn went), the growth
from the smallest to the largest, mining throughput, and the naive recall (every message scored by
keyword overlap in Python) timed in the same run. Stored messages are synthetic with
Zipf-distributed words (see VOCABULARY).
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rich.console import Console  # noqa: E402
from rich.table import Table  # noqa: E402

import numpy as np  # noqa: E402

from memory import Memory, embed, mine  # noqa: E402
from memory.recall import terms  # noqa: E402
from tests.mining_corpus import CORPUS  # noqa: E402

WORDS = ("apple river mountain coffee garden train doctor music paris london guitar python "
         "holiday birthday sister brother kitchen window meeting project deadline weather rain "
         "summer winter football movie book library office computer keyboard bicycle ocean forest "
         "cheese bread pasta pizza tea dinner lunch breakfast museum concert friend neighbor dog cat "
         "car bus plane airport hotel beach camera phone email letter market bank school teacher").split()
TURNS = ["what did I say about the museum trip", "I'm allergic to peanuts",
         "remind me what the doctor said about coffee", "tell me about the concert in london",
         "my favorite color is green", "what was the deadline for the python project"]


FUNCTION_WORDS = ("the i you a to and it of that is in my was for on me we have with this but so "
                  "what not be are just do at like all about").split()
# Conversation-like text: word frequencies follow Zipf's law (weight 1/rank) over function words,
# then the topical words above, then 3,000 rarer words; so a topical word is in a few % of messages.
VOCABULARY = FUNCTION_WORDS + WORDS + [f"w{i}" for i in range(3000)]
WEIGHTS = [1 / rank for rank in range(1, len(VOCABULARY) + 1)]


def sentence(rng: random.Random) -> str:
    return " ".join(rng.choices(VOCABULARY, WEIGHTS, k=rng.randint(6, 16)))


def build(path: Path, messages: int, facts: int, rng: random.Random) -> Memory:
    mem = Memory(path)
    with mem.db:
        mem.db.execute("BEGIN")
        rows = [("u", f"s{i // 20}", "user" if i % 2 == 0 else "assistant", sentence(rng), 10,
                 f"2026-01-01T00:00:{i % 60:02d}.000000Z") for i in range(messages)]
        rows += [("other", f"o{i // 20}", "user", sentence(rng), 10, "2026-01-01T00:00:00.000000Z")
                 for i in range(messages // 10)]
        mem.db.executemany("INSERT INTO messages (user, session, role, text, tokens, created_at) "
                           "VALUES (?, ?, ?, ?, ?, ?)", rows)
    ids = [r[0] for r in mem.db.execute("SELECT id FROM messages WHERE user = 'u' AND role = 'user'")]
    vectors = np.random.default_rng(7).standard_normal((len(ids), 384)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    with mem.db:
        mem.db.execute("BEGIN")
        mem.db.executemany("INSERT INTO message_vectors (message_id, user, model, vector) VALUES (?, 'u', ?, ?)",
                           [(i, embed.MODEL_NAME, v.astype(np.float16).tobytes()) for i, v in zip(ids, vectors)])
    for i in range(facts):
        mem.remember("u", "note" if i % 2 else f"favorite_thing{i}", f"{sentence(rng)} {i}")
    mem.remember("u", "allergy", "peanuts")
    return mem


def per_turn(mem: Memory, turns: int) -> list[tuple[float, float, float]]:
    """Each turn's three steps, in milliseconds: observe, the memory block, recall."""
    steps = []
    for i in range(turns):
        text = TURNS[i % len(TURNS)]
        mem.embed(text)                 # the query's vector: outside the clock (see the docstring)
        t0 = time.perf_counter()
        mem.observe("u", text, session="bench")
        t1 = time.perf_counter()
        mem.load_context("u")
        t2 = time.perf_counter()
        mem.recall("u", text, k=3, session="bench", recent_window=12)
        t3 = time.perf_counter()
        steps.append(((t1 - t0) * 1000, (t2 - t1) * 1000, (t3 - t2) * 1000))
    return steps


def naive_recall(mem: Memory, text: str, k: int = 3) -> list[str]:
    """The baseline: load every message of the user and score word overlap in Python."""
    query = set(terms(text))
    scored = []
    for (msg,) in mem.db.execute("SELECT text FROM messages WHERE user = ?", ("u",)):
        overlap = len(query & set(msg.lower().split()))
        if overlap:
            scored.append((overlap, msg))
    return [m for _, m in sorted(scored, reverse=True)[:k]]


def timed(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t0) * 1000)
    return statistics.median(times)


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q * (len(values) - 1))))]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    sizes = [100, 1_000, 5_000] if args.quick else [100, 10_000, 100_000]
    facts, turns = (200, 60) if args.quick else (1_000, 300)
    rng = random.Random(7)
    console = Console()
    table = Table(title=f"memory per turn (observe + load_context + recall), {facts} facts")
    for col in ("messages", "vectors", "p50 ms", "p95 ms", "naive recall ms", "our recall ms", "naive / ours"):
        table.add_column(col, justify="right")
    p95s, split = [], []
    with tempfile.TemporaryDirectory() as tmp:
        for n in sizes:
            mem = build(Path(tmp) / f"m{n}.db", n, facts, rng)
            per_turn(mem, 10)                                   # warm the page cache
            steps = per_turn(mem, turns)
            times = [sum(step) for step in steps]
            query = TURNS[0]
            naive = timed(lambda: naive_recall(mem, query), 5)
            ours = timed(lambda: mem.recall("u", query, k=3), 20)
            p95s.append(pct(times, 0.95))
            vectors = mem.db.execute("SELECT count(*) FROM message_vectors").fetchone()[0]
            split.append(f"{n:,}: " + " / ".join(f"{statistics.median(step):.2f}" for step in zip(*steps)))
            table.add_row(f"{n:,}", f"{vectors:,}", f"{statistics.median(times):.2f}", f"{p95s[-1]:.2f}", f"{naive:.2f}",
                          f"{ours:.2f}", f"{naive / ours:.{0 if naive >= 10 * ours else 1}f}x")
            mem.close()
    console.print(table)
    console.print(f"p50 ms of each step, observe / the memory block / recall: {'; '.join(split)}")
    console.print(f"p95 growth {sizes[0]:,} -> {sizes[-1]:,} messages: {p95s[-1] / p95s[0]:.2f}x "
                  f"(target at most 2x; p95 at the largest size target at most 5 ms)")
    model = embed.load()
    embeds = [timed(lambda: model.encode([TURNS[i % len(TURNS)] + f" {i}"]), 1) for i in range(60)]
    console.print(f"the query's vector (all-MiniLM-L6-v2, one core): p50 {statistics.median(embeds):.1f} ms, "
                  f"p95 {pct(embeds, 0.95):.1f} ms; computed once per turn and kept as the message's vector")
    texts = [t for t, _ in CORPUS] * 20
    t0 = time.perf_counter()
    for text in texts:
        mine(text)
    rate = len(texts) / (time.perf_counter() - t0)
    console.print(f"mining: {rate:,.0f} utterances/s over {len(texts):,} corpus lines (target at least 5,000/s)")


if __name__ == "__main__":
    main()
