"""The one summary appended when a session ends: by the model when reachable and grounded in the session,
else extractive; none when the session taught nothing."""
from __future__ import annotations

from memory import Memory, Message, asks, content_words, estimate_tokens

from .commands import say
from .compaction import FRAMING, SENTENCE, grounded as line_grounded
from ..config import Config
from ..llm import LLM

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
    """No model: what the user told her this session, in the third person ("The user said they live in
    Bristol. The user said they are allergic to peanuts."), and what they took back; with nothing learned, what they
    asked ("The user asked: how far is the Moon; what is a good soup."); "" when the session held neither (no
    summary is better than a list of words)."""
    ids = {r.id for r in rows}
    if not ids:
        return ""
    told = [f for f in memory.facts(user, history=True) if f.source_message_id in ids]
    first, last = min(r.created_at for r in rows), max(r.created_at for r in rows)
    held = [f for f in told if f.valid_to is None]
    # ended in this session by the user's own word ("I'm not allergic anymore"), whenever it was told
    dropped = [f for f in memory.facts(user, history=True)
               if f.ended_by == "retracted" and f.valid_to and first <= f.valid_to <= last]
    # one sentence a fact, each whole on its own: forgetting one cuts its sentence and leaves the others
    parts = [f"The user said {_lower(s)}." for s in say([(f.key, f.value) for f in held], them=True).split(". ") if held]
    parts += [f"The user took back that {_lower(s)}." for s in say([(f.key, f.value) for f in dropped], them=True).split(". ")
              if dropped]
    if not parts:       # a session of questions: what was asked is what a person remembers of it
        asked = [_asked(r.text) for r in rows if r.role == "user" and asks(r.text) >= 1]
        parts = [f"The user asked: {'; '.join(a for a in asked if a)}."] if any(asked) else []
    return _cut_words(" ".join(parts), max_words)


def _asked(text: str, max_words: int = 12) -> str:
    """A question as the summary gives it: one line, its first words, without its question mark."""
    words = " ".join(text.split()).rstrip("?!. ").split()
    return " ".join(words[:max_words]) + (" ..." if len(words) > max_words else "")


def _lower(sentence: str) -> str:
    """"They live in Bristol" -> "they live in Bristol", after "The user said"."""
    return sentence[:1].lower() + sentence[1:] if sentence.startswith("Th") else sentence


def _cut_words(text: str, max_words: int) -> str:
    """At most max_words words, ending at a sentence's end where one is inside them."""
    words = text.split()
    if len(words) <= max_words:
        return text
    cut = " ".join(words[:max_words])
    end = max(cut.rfind(". "), cut.rfind("! "), cut.rfind("? "))
    return cut[: end + 1] if end > 0 else cut


SAYING = FRAMING | {"asked", "said", "told", "mentioned", "discussed", "talked", "wants", "wanted", "glados",
                    "assistant", "they", "their", "them", "conversation", "session", "suggested", "replied", "answered"}


def grounded(text: str, rows: list[Message], max_words: int) -> bool:
    """A summary the model wrote is kept only when it is about this session: within its length, and every
    sentence grounded in what the user said (the rule the running note and consolidation use: every name and
    number said, all but a third of the other words; the words of telling, "asked", "said", are free)."""
    if not text.strip() or len(text.split()) > max_words:
        return False
    said = "\n".join(r.text for r in rows if r.role == "user")     # her words would ground a summary of her own reply
    return all(_grounded(sentence, said) for sentence in SENTENCE.findall(text) if sentence.strip())


def _grounded(sentence: str, said: str) -> bool:
    """Says something (a word besides the words of telling), and that is the user's (compaction.grounded)."""
    return any(w not in SAYING for w in content_words(sentence)) and line_grounded(sentence, said, SAYING)
