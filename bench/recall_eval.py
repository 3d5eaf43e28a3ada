"""How good recall is, in six numbers, on a seeded store: `.venv/bin/python bench/recall_eval.py`.

The store: four users over eighteen months, about 2,400 everyday messages that share the questions'
words, the targets of `eval_set` (some restated), other users saying the same things (some word for
word), superseded and forgotten facts, passing states. Then every labelled question is asked as a
turn would ask it: recall, the memory block, the prompt.
"""
from __future__ import annotations

import argparse
import random
import sys
import statistics
import time
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Callable, Literal

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from assistant.app import recall_settings  # noqa: E402
from assistant.config import Config, load_config  # noqa: E402
from assistant.turn import prompt  # noqa: E402
from bench import recall_set as E  # noqa: E402
from memory import Memory, Recalled, estimate_tokens  # noqa: E402

USER = "ada"
OTHERS = ("ben", "cleo", "dev")
NOW = datetime(2026, 6, 1, 18, 0, tzinfo=timezone.utc)
MONTH = timedelta(days=30.4)
K = 4

QueryKind = Literal["words", "meaning", "superseded", "forgotten"]


@dataclass(frozen=True)
class Query:
    text: str
    kind: QueryKind
    relevant: frozenset[int]          # message ids that answer it
    group: str                        # the target's name


class Clock:
    """The store's time, handed to Memory when it is made; `build` moves it through eighteen months."""

    def __init__(self, now: datetime = NOW):
        self.now = now

    def __call__(self) -> datetime:
        return self.now


@dataclass
class Store:
    """What was built, with the labels recall is scored against."""
    queries: list[Query] = field(default_factory=list)
    banned: dict[int, str] = field(default_factory=dict)        # message id -> why it must never come back
    forgotten_values: list[str] = field(default_factory=list)
    groups: dict[str, frozenset[int]] = field(default_factory=dict)   # restated targets
    messages: int = 0
    owner: dict[int, str] = field(default_factory=dict)          # message id -> whose


@dataclass
class Result:
    recall_at_4: dict[str, float]
    precision_at_4: float
    mrr: float
    prompt_tokens: float
    degraded: float
    memory_ms_p50: float
    memory_ms_p95: float
    embed_ms_p50: float
    embed_ms_p95: float
    violations: list[str]
    restated_filling: int            # queries whose top 4 held two restatements of one thing
    most_of_one_fact: int            # the most restatements of one thing in any top 4
    queries: int
    messages: int
    mode: str
    misses: list[tuple[str, str, list[str]]]


def build(memory: Memory, clock: Clock, seed: int = 7, per_user: int = 600,
          progress: Callable[[str, int, int], None] = lambda what, done, total: None) -> Store:
    """Fill `memory` (empty, made with `clock`) with the seeded store; returns the labels."""
    rng = random.Random(seed)
    said: list[tuple[datetime, str, str, str]] = []      # (when, user, text, tag)

    def at(months_ago: float) -> datetime:
        return NOW - MONTH * months_ago + timedelta(minutes=rng.randint(0, 600))

    for user in (USER, *OTHERS):
        for _ in range(per_user):
            said.append((at(rng.uniform(0.02, 18)), user, _everyday(rng), ""))
    for t in E.TARGETS:
        first = at(t.months_ago)
        said.append((first, USER, t.said[0], t.name))
        for again in t.said[1:]:
            said.append((first + (NOW - first) * rng.uniform(0.1, 0.9), USER, again, t.name))
        for other in rng.sample(OTHERS, 2):          # other users say the same kind of thing, or the same words
            said.append((at(rng.uniform(0.05, 18)), other, t.said[0] if rng.random() < 0.5 else _lookalike(t.said[0]), ""))
    for i, (old, new, *_questions) in enumerate(E.SUPERSEDED):
        said.append((at(15 + i), USER, old, f"old:{i}"))
        said.append((at(2 + i), USER, new, f"new:{i}"))
        said.append((at(rng.uniform(1, 10)), rng.choice(OTHERS), old, ""))
    for i, (text, _key, _question) in enumerate(E.FORGOTTEN):
        said.append((at(6 + i), USER, text, f"forgotten:{i}"))
    for text in E.STATES:
        said.append((at(rng.uniform(0.5, 17)), USER, text, "state"))
    said.append((NOW - timedelta(days=7), USER, E.STATES[0], "state"))
    said.sort(key=lambda s: s[0])

    ids: dict[str, list[int]] = {}
    owner: dict[int, str] = {}
    for n, (when, user, text, tag) in enumerate(said):
        clock.now = when
        observed = memory.observe(user, text, session=f"{user}-{when:%Y%m%d}")
        owner[observed.message_id] = user
        if tag:
            ids.setdefault(tag, []).append(observed.message_id)
        if n % 100 == 0:
            progress("storing messages", n, len(said))
    clock.now = NOW
    store = Store(messages=len(said), owner=owner)
    for _text, key, _question in E.FORGOTTEN:
        store.forgotten_values += [f.value for f in memory.facts(USER) if f.key == key]
        memory.forget(USER, key)
    memory.index_pending(USER, progress=lambda done, total: progress("indexing meaning", done, total))

    for t in E.TARGETS:
        group = frozenset(ids[t.name])
        if len(group) > 1:
            store.groups[t.name] = group
        store.queries.append(Query(t.words, "words", group, t.name))
        store.queries.append(Query(t.meaning, "meaning", group, t.name))
    for i, (_old, _new, words, meaning) in enumerate(E.SUPERSEDED):
        new = frozenset(ids[f"new:{i}"])
        store.banned.update({m: f"superseded: {_old!r}" for m in ids[f"old:{i}"]})
        store.queries.append(Query(words, "superseded", new, f"superseded:{i}"))
        store.queries.append(Query(meaning, "superseded", new, f"superseded:{i}"))
    for i, (_text, _key, question) in enumerate(E.FORGOTTEN):
        store.queries.append(Query(question, "forgotten", frozenset(), f"forgotten:{i}"))
    return store


def _everyday(rng: random.Random) -> str:
    template = rng.choice(E.TEMPLATES)
    return template.format(task=rng.choice(E.TASKS), when=rng.choice(E.WHEN), person=rng.choice(E.PEOPLE),
                           thing=rng.choice(E.THINGS), place=rng.choice(E.PLACES), topic=rng.choice(E.TOPICS),
                           food=rng.choice(E.FOODS), event=rng.choice(E.EVENTS))


def _lookalike(text: str) -> str:
    swaps = {"Mum's": "Dad's", "6:15": "7:40", "Sunday": "Friday", "Gatwick": "Heathrow", "Priya": "Sam",
             "ladder": "drill", "shed": "garage", "blue": "red", "March": "June", "Hannah's": "Rachel's",
             "penicillin": "ibuprofen", "Thursday": "Monday", "October": "April", "Okafor": "Brennan",
             "Tuesday": "Wednesday", "Rosa's": "Luigi's", "August": "January", "240": "95", "Portuguese": "Italian",
             "Lisbon": "Rome", "Biscuit": "Pepper", "coriander": "olives", "35": "20", "Tomasz": "Ines",
             "Krakow": "Porto", "Jean's": "Ravi's", "Spain": "Greece", "130": "120", "85": "80"}
    return " ".join(swaps.get(word, word) for word in text.split())


def run(memory: Memory, store: Store, config: Config, user: str = USER) -> Result:
    """Ask every labelled question; score what comes back."""
    mem, budget = config.memory, config.budget
    hits: dict[str, list[bool]] = {}
    reciprocal, returned, relevant_returned, tokens = [], 0, 0, []
    memory_ms, embed_ms, degraded = [], [], 0
    violations: list[str] = []
    filling = most = 0
    misses = []
    notes = {f.id: f.source_message_id for who in set(store.owner.values())
             for f in memory.facts(who, history=True) if f.key == "note"}
    own = {m for m, who in store.owner.items() if who == user}
    for q in store.queries:
        started = time.perf_counter()
        memory.embed(q.text)                     # the query's vector (reused when its message is indexed)
        embedded = time.perf_counter()
        found = memory.recall(user, q.text, k=K, candidates=mem.recall_candidates)
        block = memory.load_context(user, mem.max_facts, mem.max_summaries, min(mem.context_tokens, budget.memory))
        messages, _used, _cut = prompt.assemble(config.persona, budget, block, found, [], q.text)
        done = time.perf_counter()
        embed_ms.append((embedded - started) * 1000)
        memory_ms.append((done - embedded) * 1000)
        tokens.append(sum(estimate_tokens(m["content"]) for m in messages))
        degraded += memory.recall_mode != "words+meaning" or memory.pending(user) > 0
        ids = [_message_of(r, notes) for r in found]
        for r, m in zip(found, ids):
            if m in store.banned:
                violations.append(f"{q.text!r} -> {store.banned[m]}")
            if r.kind == "message" and m not in own:
                violations.append(f"{q.text!r} -> another user's message {r.text!r}")
            for value in store.forgotten_values:
                if value.lower() in r.text.lower():
                    violations.append(f"{q.text!r} -> forgotten {value!r} in {r.text!r}")
        for group in store.groups.values():
            same = sum(m in group for m in ids)
            filling += same > 1
            most = max(most, same)
        if q.kind == "forgotten":
            continue
        rank = next((i for i, m in enumerate(ids) if m in q.relevant), None)
        hits.setdefault(q.kind, []).append(rank is not None)
        reciprocal.append(0.0 if rank is None else 1.0 / (rank + 1))
        returned += len(ids)
        relevant_returned += sum(m in q.relevant for m in ids)
        if rank is None:
            misses.append((q.kind, q.text, [r.text for r in found]))
    return Result(
        recall_at_4={kind: sum(v) / len(v) for kind, v in hits.items()},
        precision_at_4=relevant_returned / returned if returned else 0.0,
        mrr=statistics.fmean(reciprocal), prompt_tokens=statistics.fmean(tokens),
        degraded=degraded / len(store.queries),
        memory_ms_p50=_pct(memory_ms, 50), memory_ms_p95=_pct(memory_ms, 95),
        embed_ms_p50=_pct(embed_ms, 50), embed_ms_p95=_pct(embed_ms, 95),
        violations=violations, restated_filling=filling, most_of_one_fact=most, queries=len(store.queries), messages=store.messages,
        mode=memory.recall_mode, misses=misses)


def _message_of(r: Recalled, notes: dict[str, int | None]) -> int | None:
    return int(r.id) if r.kind == "message" else notes.get(r.id)


def _pct(values: list[float], p: int) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))] if ordered else 0.0


def evaluate(config: Config, db: Path, seed: int = 7, per_user: int = 600, embedder="auto",
             progress: Callable[[str, int, int], None] = lambda what, done, total: None) -> Result:
    """Build the store in `db` (a new file) and score recall on it."""
    clock = Clock()
    with Memory(db, clock=clock, embedder=embedder, recall_settings=recall_settings(config)) as memory:
        store = build(memory, clock, seed, per_user, progress)
        return run(memory, store, config)


def main(argv: list[str] | None = None) -> int:
    """Build, score, print the table (or JSON)."""
    import json
    import tempfile

    from rich.console import Console
    from rich.progress import Progress

    parser = argparse.ArgumentParser(description="score recall on a seeded, labelled store (the six numbers)")
    parser.add_argument("--seed", type=int, default=7, help="the store's random seed (default 7)")
    parser.add_argument("--per-user", type=int, default=600, help="everyday messages per user (default 600, 4 users)")
    parser.add_argument("--keep", type=Path, help="build the store in this new file and keep it (default: a temporary one)")
    parser.add_argument("--words-only", action="store_true", help="recall by words alone (as without the model)")
    parser.add_argument("--json", action="store_true", help="the numbers as JSON")
    parser.add_argument("--misses", action="store_true", help="list the questions whose answer was not in the top 4")
    parser.add_argument("--config", type=Path, help="config file (default: as glados finds it)")
    args = parser.parse_args(argv)
    console = Console(highlight=False, soft_wrap=True)
    if args.keep is not None and args.keep.exists():
        print(f"recall_eval: {args.keep} already exists; --keep needs a new file", file=sys.stderr)
        return 1
    config = load_config(args.config)
    with tempfile.TemporaryDirectory() as folder, Progress(console=console, transient=True) as bar:
        tasks: dict[str, int] = {}

        def progress(what: str, done: int, total: int) -> None:
            if what not in tasks:
                tasks[what] = bar.add_task(what, total=total)
            bar.update(tasks[what], completed=done, total=total)

        result = evaluate(config, args.keep or Path(folder) / "eval.db", args.seed, args.per_user,
                          None if args.words_only else "auto", progress)
    if args.json:
        console.print_json(json.dumps(result.__dict__))
        return 0
    console.print(table(result))
    if args.misses:
        for kind, text, found in result.misses:
            console.print(f"miss ({kind}): {text}", markup=False)
            for f in found:
                console.print(f"    got: {f}", markup=False)
    for v in result.violations:
        console.print(f"violation: {v}", markup=False)
    return 0


def table(r: Result):
    from rich.table import Table
    t = Table(title=f"recall on the seeded store: {r.messages} messages, {r.queries} questions, {r.mode}")
    t.add_column("number")
    t.add_column("value", justify="right")
    t.add_column("target", justify="right")
    rows = [
        ("recall@4, questions sharing words", f"{r.recall_at_4.get('words', 0):.3f}", ">= 0.95"),
        ("recall@4, paraphrases", f"{r.recall_at_4.get('meaning', 0):.3f}", ">= 0.7"),
        ("recall@4, after a fact changed", f"{r.recall_at_4.get('superseded', 0):.3f}", ""),
        ("precision@4 (relevant share of what came back)", f"{r.precision_at_4:.3f}", ""),
        ("MRR", f"{r.mrr:.3f}", ">= 0.78"),
        ("mean prompt tokens per request", f"{r.prompt_tokens:.0f}", ""),
        ("share of turns served degraded (words only)", f"{r.degraded:.3f}", ""),
        ("memory step p50 / p95, ms (query vector excluded)", f"{r.memory_ms_p50:.1f} / {r.memory_ms_p95:.1f}", "p95 <= 5"),
        ("query vector p50 / p95, ms", f"{r.embed_ms_p50:.1f} / {r.embed_ms_p95:.1f}", ""),
        ("superseded, forgotten or other users' items returned", str(len(r.violations)), "0"),
        ("top 4s holding a restatement twice (room left)", str(r.restated_filling), ""),
        ("most restatements of one fact in a top 4", str(r.most_of_one_fact), "< 4"),
    ]
    for row in rows:
        t.add_row(*row)
    return t


if __name__ == "__main__":
    sys.exit(main())
