"""The one summary appended when a session ends: by the model when reachable, else extractive."""
from __future__ import annotations

import re
from collections import Counter

from memory import STOPWORDS, Memory, Message, content_words, estimate_tokens

from .commands import say_facts
from ..config import Config
from ..llm import LLM

TOKENS = re.compile(r"[^\W_]+(?:'[^\W_]+)?|[^\w\s]")    # words (with "sister's", "don't") and punctuation
INSTRUCTION = ("Summarize the conversation below in at most {words} words, in the third person, as notes "
               "for your future self: what the user said about themselves, what they asked, what was "
               "decided. Plain text, no preamble.")


def transcript(rows: list[Message], budget_tokens: int) -> str:
    """The newest lines of the session that fit the budget, oldest first."""
    lines, used = [], 0
    for row in reversed(rows):
        line = f"{'User' if row.role == 'user' else 'GLaDOS'}: {' '.join(row.text.split())[:1000]}"
        if used + estimate_tokens(line) > budget_tokens:
            break
        lines.append(line)
        used += estimate_tokens(line)
    return "\n".join(reversed(lines))


def by_model(llm: LLM, rows: list[Message], config: Config) -> str:
    """Ask the model; raises LLMError when it cannot answer (the caller falls back)."""
    words = config.session.summary_max_words
    messages = [{"role": "system", "content": INSTRUCTION.format(words=words)},
                {"role": "user", "content": transcript(rows, config.budget.history)}]
    text = "".join(chunk.text for chunk in llm.chat(messages, max_tokens=words * 2,
                                                         temperature=config.llm.session_end_temperature))
    return " ".join(text.split()[: words * 2])


def extractive(memory: Memory, user: str, rows: list[Message], max_words: int) -> str:
    """No model: the facts first stated in this session, as sentences, and the user's topics as the
    phrases they used ("charity race", "pottery class"), most mentioned first."""
    ids = {r.id for r in rows}
    learned = [f for f in memory.facts(user) if f.source_message_id in ids]
    said = [r.text for r in rows if r.role == "user"]
    parts = []
    if learned:
        parts.append(f"Learned: {say_facts(learned)}.")
    topics = phrases(said, skip={w for f in learned for w in content_words(f"{f.value} {f.key.replace('_', ' ')}")})
    if topics:
        parts.append("Talked about: " + ", ".join(topics[:6]) + ".")
    parts.append(f"{len(said)} user message{'s' if len(said) != 1 else ''}; written without the model.")
    return " ".join(" ".join(parts).split()[:max_words])


def phrases(texts: list[str], skip: set[str] = frozenset()) -> list[str]:
    """Runs of content words (split at stopwords and punctuation); a phrase made only of `skip`
    words (the facts already listed) is left out."""
    counts: Counter[str] = Counter()
    for text in texts:
        run: list[str] = []
        for token in [*TOKENS.findall(text.casefold()), "."]:
            word = token.removesuffix("'s")
            if word[:1].isalnum() and word.replace("'", "") not in STOPWORDS and len(word) > 1:
                run.append(word)
                continue
            if run and not set(run) <= skip:
                counts[" ".join(run)] += 1
            run = []
    # most mentioned, then the longest (a phrase says more than a word), then the first said
    return sorted(counts, key=lambda p: (-counts[p], -p.count(" ")))
