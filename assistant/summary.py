"""The one summary appended when a session ends: by the model when reachable, else extractive."""
from __future__ import annotations

import sqlite3
from collections import Counter

from memory import Memory, estimate_tokens
from memory.recall import terms

from .config import Config
from .llm import LLM

INSTRUCTION = ("Summarize the conversation below in at most {words} words, in the third person, as notes "
               "for your future self: what the user said about themselves, what they asked, what was "
               "decided. Plain text, no preamble.")


def transcript(rows: list[sqlite3.Row], budget_tokens: int) -> str:
    """The newest lines of the session that fit the budget, oldest first."""
    lines, used = [], 0
    for row in reversed(rows):
        line = f"{'User' if row['role'] == 'user' else 'GLaDOS'}: {' '.join(row['text'].split())[:1000]}"
        if used + estimate_tokens(line) > budget_tokens:
            break
        lines.append(line)
        used += estimate_tokens(line)
    return "\n".join(reversed(lines))


def by_model(llm: LLM, rows: list[sqlite3.Row], config: Config) -> str:
    """Ask the model; raises LLMError when it cannot answer (the caller falls back)."""
    words = config.session.summary_max_words
    messages = [{"role": "system", "content": INSTRUCTION.format(words=words)},
                {"role": "user", "content": transcript(rows, config.budget.history)}]
    text = "".join(chunk.text for chunk in llm.chat(messages, max_tokens=words * 2))
    return " ".join(text.split()[: words * 2])


def extractive(memory: Memory, user: str, rows: list[sqlite3.Row], max_words: int) -> str:
    """No model: the facts first stated in this session and the words the user used most."""
    ids = {r["id"] for r in rows}
    learned = [f for f in memory.facts(user) if f.source_message_id in ids]
    topic_words = Counter(w for r in rows if r["role"] == "user" for w in terms(r["text"]))
    parts = []
    if learned:
        parts.append("Facts learned: " + "; ".join(f"{f.key.replace('_', ' ')}: {f.value}" for f in learned) + ".")
    if topic_words:
        parts.append("Topics: " + ", ".join(w for w, _ in topic_words.most_common(6)) + ".")
    user_turns = sum(1 for r in rows if r["role"] == "user")
    parts.append(f"{user_turns} user message{'s' if user_turns != 1 else ''}; written without the model.")
    return " ".join(" ".join(parts).split()[:max_words])
