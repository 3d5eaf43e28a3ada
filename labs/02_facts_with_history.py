"""Lab 2: facts with history. Lab 1's one row per key lost an allergy and could not say what was true
before. Here a row is never overwritten: a new value closes the old row (valid_to) and opens a new one
(valid_from); a multi-valued key (allergy) accumulates, and one value can be retracted alone. The past
stays answerable: what was believed at any time is the rows valid then.

    .venv/bin/python labs/02_facts_with_history.py
"""
import sqlite3
import tempfile
from pathlib import Path

from memory import Memory

MULTI = {"allergy"}
db = sqlite3.connect(":memory:")
db.execute("CREATE TABLE facts (key TEXT, value TEXT, valid_from TEXT, valid_to TEXT, ended_by TEXT)")


def assert_fact(key: str, value: str, now: str) -> str:
    current = db.execute("SELECT rowid, value FROM facts WHERE key = ? AND valid_to IS NULL", (key,)).fetchall()
    if any(v == value for _, v in current):
        return "reconfirmed"
    if key not in MULTI:               # a single value: the old row is closed, not overwritten
        db.executemany("UPDATE facts SET valid_to = ?, ended_by = 'superseded' WHERE rowid = ?",
                       [(now, rowid) for rowid, _ in current])
    db.execute("INSERT INTO facts VALUES (?, ?, ?, NULL, NULL)", (key, value, now))
    return "superseded" if current and key not in MULTI else "added"


def retract(key: str, value: str, now: str) -> str:
    db.execute("UPDATE facts SET valid_to = ?, ended_by = 'retracted' WHERE key = ? AND value = ? AND valid_to IS NULL",
               (now, key, value))
    return "retracted"


def believed_at(when: str) -> list[str]:
    rows = db.execute("SELECT key, value FROM facts WHERE valid_from <= ? AND (valid_to IS NULL OR valid_to > ?) "
                      "ORDER BY rowid", (when, when)).fetchall()
    return [f"{k} = {v}" for k, v in rows]


# The toy, told by hand what each sentence means (lab 3 reads it from the words).
steps = [("2026-01-01", "I'm vegetarian, and I'm allergic to peanuts.", [("diet", "vegetarian"), ("allergy", "peanuts")]),
         ("2026-02-01", "I'm also allergic to cashews.", [("allergy", "cashews")]),
         ("2026-03-01", "Actually I've started eating fish again.", [("diet", "pescatarian")]),
         ("2026-04-01", "I'm not allergic to cashews anymore.", [("-allergy", "cashews")])]
for when, said, changes in steps:
    done = [retract(k[1:], v, when) if k.startswith("-") else assert_fact(k, v, when) for k, v in changes]
    print(f"> {said:48} {', '.join(f'{d} {k.lstrip(chr(45))} = {v}' for d, (k, v) in zip(done, changes))}")
print(f"believed on 2026-02-15: {believed_at('2026-02-15')}")
print(f"believed now:           {believed_at('2026-12-01')}")
print("notice: the diet change closed one row and left the allergy alone; cashews ended on its own; nothing was")
print("        overwritten, so 'what did I believe in February?' still has an answer.")

# The project's Memory does the same from the words alone.
with tempfile.TemporaryDirectory() as tmp, Memory(Path(tmp) / "lab.db", embedder=None) as mem:
    for _, said, _ in steps:
        print(f"> {said}")
        for change in mem.observe("lab", said).changes:
            print(f"    {change.kind:11} {change.key} = {change.value}")
    print("believed now:")
    for fact in mem.facts("lab"):
        print(f"    {fact.key} = {fact.value}{'  (pinned)' if fact.pinned else ''}")
    print("history (closed rows keep why they ended):")
    for fact in mem.facts("lab", history=True):
        print(f"    {fact.key} = {fact.value}: {fact.ended_by or 'current'}")
    toy = sorted(believed_at("2026-12-01"))
    real = sorted(f"{f.key} = {f.value}" for f in mem.facts("lab"))
    print(f"the toy and the project agree on what is believed now: {toy == real}")
