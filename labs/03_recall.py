"""Lab 3: recall. SQLite's FTS5 ranks earlier messages by BM25: rare words count more than
common ones, so "locksmith" beats "the". Compare with a plain count of shared words.

    .venv/bin/python labs/03_recall.py
"""
import tempfile
from pathlib import Path

from memory import Memory

MESSAGES = ["The weather was nice and the park was nice too.",
            "My locksmith is called Bartholomew and he is never on time.",
            "The locksmith said the lock on the back door is broken.",
            "I had the soup and the bread and the salad."]
QUERY = "what did the locksmith say about the door"

with tempfile.TemporaryDirectory() as tmp, Memory(Path(tmp) / "lab.db") as mem:
    for text in MESSAGES:
        mem.log("lab", "old-session", "user", text)
    print(f"query: {QUERY}")
    print("BM25 (FTS5), best first:")
    for r in mem.recall("lab", QUERY, k=3):
        print(f"    {r.text}")
    print("shared-word count, best first:")
    words = set(QUERY.lower().split())
    for text in sorted(MESSAGES, key=lambda m: -len(words & set(m.lower().rstrip('.').split())))[:3]:
        print(f"    {text}")
