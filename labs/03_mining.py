"""Lab 3: mining with guards. Lab 1's patterns fire anywhere in a sentence, so "my brother lives in Oslo"
and "if I lived in Tokyo" become facts about the speaker, and "what's my favorite color?" could too.
Here a sentence is first checked whole (a question tells nothing), then split into clauses; each clause
is checked (a hypothetical tells nothing) and matched by patterns anchored at its start, so only the
speaker's own statements count.

    .venv/bin/python labs/03_mining.py
"""
import re

from memory import mine
from memory.lexicon import clauses

QUESTION = re.compile(r"\?\s*$|^(?:what|where|who|when|why|how|do|does|is|are|can)\b", re.I)
HYPOTHETICAL = re.compile(r"\b(?:if|would|i'd|could|might|suppose|imagine)\b", re.I)
ANCHORED = [   # at the clause's start only: "my brother lives in ..." is not "i live in ..."
    ("diet", re.compile(r"^(?:i'?m|i am) (vegetarian|vegan|pescatarian)\b", re.I)),
    ("allergy", re.compile(r"^(?:i'?m|i am) allergic to (\w+(?: and \w+)*)", re.I)),
    ("name", re.compile(r"^my name is (\w+)", re.I)),
    ("location", re.compile(r"^i live in (\w+)", re.I)),
]


def toy_mine(sentence: str) -> list[str]:
    if QUESTION.search(sentence):
        return []
    out = []
    for clause in re.split(r",\s*|\s+and\s+(?=i\b|im\b|i'm\b|my\b)", sentence.rstrip(".!"), flags=re.I):
        if HYPOTHETICAL.search(clause):
            continue
        for key, pattern in ANCHORED:
            m = pattern.match(clause.strip())
            if m:
                out += [f"{key} = {v}" for v in re.split(r"\s+and\s+", m.group(1))]
    return out


for text in ["im vegetarian and im allergic to peanuts and cashews",
             "My name is Lena, I live in Vienna.",
             "my brother lives in oslo",
             "If I lived in Tokyo I'd eat ramen every day.",
             "What's my favorite color?",
             "Remember that the spare key is under the mat.",
             "Forget where I live."]:
    real = [f"{c.key} = {c.value}" if c.op == "assert" else f"{c.op} {c.key}" for c in mine(text)]
    print(f"> {text}")
    print(f"    the toy:     {toy_mine(text) or '(nothing about the speaker)'}")
    print(f"    the project: {real or '(nothing about the speaker)'}   clauses: {clauses(text)}")
print("notice: anchoring and the guards, not more patterns, keep other people and wishes out; the project also")
print("        reads commands (remember, forget) before facts. Its clause splitter cuts before 'my ...', so")
print("        \"What's my favorite color?\" comes out as two clauses, but the question is seen whole first.")
