"""Lab 4: recall. SQLite's FTS5 ranks earlier messages by BM25: rare words count more than
common ones, so "locksmith" beats "the" (scores here are a share of what a message holding every
word of the question would score). A question in other words shares none of them: for that,
recall also compares sentence vectors (all-MiniLM-L6-v2) and ranks by cosine plus half the word
share, less a little for a message that sounds like many of the user's others (crowding). There
is no score floor: the order decides, and a message sharing no word with the question needs only
a cosine of 0.15, so the soup and the weather trail the car (the prompt takes the first few).

    .venv/bin/python labs/04_recall.py
"""
import tempfile
from pathlib import Path

from memory import Memory

MESSAGES = ["The weather was nice and the park was nice too.",
            "My locksmith is called Bartholomew and he is never on time.",
            "The locksmith said the lock on the back door is broken.",
            "I had the soup and the bread and the salad.",
            "The car is parked on the top floor of the multi-storey."]
QUERIES = ["what did the locksmith say about the door", "where did I leave the vehicle?"]

with tempfile.TemporaryDirectory() as tmp:
    for label, embedder in (("words alone (BM25)", None), ("words and meaning", "auto")):
        with Memory(Path(tmp) / f"{label[:5]}.db", embedder=embedder) as mem:
            for text in MESSAGES:
                mem.log("lab", "old-session", "user", text)
            mem.index_pending("lab")
            print(f"{label}:")
            for query in QUERIES:
                print(f"  query: {query}")
                found = mem.recall("lab", query, k=3)
                for r in found:
                    print(f"    {r.score:5.2f}  {r.text}")
                if not found:
                    print("    (nothing)")
print("notice: BM25 ranks the rare word's message first; the paraphrase shares no word, so only meaning finds the car (weak neighbours trail).")
