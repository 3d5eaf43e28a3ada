"""Lab 1: the smallest memory that works, in plain sqlite3 and re. Two tables with two rules: facts are
state (one row per key, the newest value wins), conversations are history (appended, never changed).
A capped load_context picks what goes in the prompt, and a guard keeps an empty header out of it.
Every later lab replaces one piece of this with something that holds up better.

    .venv/bin/python labs/01_minimal_memory.py
"""
import re
import sqlite3

db = sqlite3.connect(":memory:")
db.executescript("""
    CREATE TABLE facts (key TEXT PRIMARY KEY, value TEXT NOT NULL, updated_at TEXT NOT NULL);
    CREATE TABLE conversations (id INTEGER PRIMARY KEY, summary TEXT NOT NULL, created_at TEXT NOT NULL);
""")

# Three patterns, each anchored on the first person: what the user says about themselves.
PATTERNS = [
    ("name", re.compile(r"\bmy name is (\w+)", re.I)),
    ("location", re.compile(r"\bi live in (\w+)", re.I)),
    ("allergy", re.compile(r"\bi(?:'m| am) allergic to (\w+)", re.I)),
]


def remember_fact(key: str, value: str, when: str) -> None:
    # PRIMARY KEY + INSERT OR REPLACE: saying it again updates the row; state never piles up.
    db.execute("INSERT OR REPLACE INTO facts VALUES (?, ?, ?)", (key, value, when))


def mine(text: str, when: str) -> list[str]:
    found = []
    for key, pattern in PATTERNS:
        m = pattern.search(text)
        if m:
            remember_fact(key, m.group(1), when)
            found.append(f"{key} = {m.group(1)}")
    return found


def add_summary(summary: str, when: str) -> None:
    db.execute("INSERT INTO conversations (summary, created_at) VALUES (?, ?)", (summary, when))   # append only


def load_context(max_facts: int = 5, max_summaries: int = 2) -> str:
    """The newest facts and summaries, capped: what survives the cap is what the model sees."""
    facts = db.execute("SELECT key, value FROM facts ORDER BY updated_at DESC LIMIT ?", (max_facts,)).fetchall()
    summaries = db.execute("SELECT summary FROM conversations ORDER BY id DESC LIMIT ?", (max_summaries,)).fetchall()
    parts = []
    if facts:
        parts.append("Known facts:\n" + "\n".join(f"- {k}: {v}" for k, v in facts))
    if summaries:
        parts.append("Earlier conversations:\n" + "\n".join(f"- {s}" for (s,) in summaries))
    return "\n\n".join(parts)


def build_system_prompt_with_memory(base: str, context: str) -> str:
    if context:      # the guard: with nothing remembered, no empty "Memory context:" header
        return f"{base}\n\nMemory context:\n{context}"
    return base


BASE = "You are GLaDOS."
print("first run, nothing remembered:")
print(f"    {build_system_prompt_with_memory(BASE, load_context())!r}")
day = 0
for said in ["My name is Kaleb and I live in Leeds.", "Call me Kaleb.", "I live in York now.",
             "I'm allergic to peanuts.", "I'm allergic to cashews."]:
    day += 1
    print(f"> {said:40} -> {', '.join(mine(said, f'2026-01-0{day}')) or '(no pattern matched)'}")
add_summary("Kaleb moved from Leeds to York.", "2026-01-05")
add_summary("Kaleb listed his allergies.", "2026-01-06")
print("the prompt, facts capped at 2:")
for line in build_system_prompt_with_memory(BASE, load_context(max_facts=2)).splitlines():
    print(f"    {line}")
print("notice: 'Call me Kaleb' matched nothing (a pattern per phrasing); York replaced Leeds (state); the cap")
print("        kept the two newest facts, so the name fell out; and the cashews replaced the peanuts, one row per")
print("        key: the allergy that matters is gone (lab 2 fixes this with history and multi-valued keys).")

# The project's memory, on the same words: the allergy to peanuts survives.
import tempfile  # noqa: E402
from pathlib import Path  # noqa: E402

from memory import Memory  # noqa: E402

with tempfile.TemporaryDirectory() as folder, Memory(Path(folder) / "lab.db", embedder=None) as mem:
    for said in ["My name is Kaleb and I live in Leeds.", "Call me Kaleb.", "I live in York now.",
                 "I'm allergic to peanuts.", "I'm allergic to cashews."]:
        mem.observe("kaleb", said)
    print("the project's memory on the same words:")
    print("    " + ", ".join(f"{f.key} = {f.value}" for f in mem.facts("kaleb")))
