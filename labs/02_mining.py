"""Lab 2: mining. A sentence is split into clauses, each clause is checked for questions and
hypotheticals, then the first pattern anchored at its start decides. Anchoring is what keeps
"my brother lives in Oslo" from becoming a fact about you.

    .venv/bin/python labs/02_mining.py
"""
from memory import mine
from memory.lexicon import clauses

for text in ["im vegetarian and im allergic to peanuts and cashews",
             "My name is Lena, I live in Vienna.",
             "my brother lives in oslo",
             "If I lived in Tokyo I'd eat ramen every day.",
             "What's my favorite color?",
             "Remember that the spare key is under the mat.",
             "Forget where I live."]:
    print(f"> {text}")
    print(f"    clauses: {clauses(text)}")
    for change in mine(text) or ["(nothing about the speaker)"]:
        print(f"    {change if isinstance(change, str) else f'{change.op} {change.key} = {change.value}'}")
