"""What the memory's reads hand out: small frozen records, never database rows."""
from __future__ import annotations

import sqlite3
from dataclasses import dataclass, field
from datetime import date
from typing import Literal

from .dates import say_day
from .text import SENTENCE_END

Role = Literal["user", "assistant"]


@dataclass(frozen=True)
class Message:
    """One message of a session, as stored (tokens: the prompt estimate; interrupted: she was cut off)."""
    id: int
    session: str
    role: Role
    text: str
    tokens: int
    created_at: str
    interrupted: bool
    kind: str

    @classmethod
    def of(cls, row: sqlite3.Row) -> "Message":
        return cls(row["id"], row["session"], row["role"], row["text"], row["tokens"], row["created_at"],
                   bool(row["interrupted"]), row["kind"])


@dataclass(frozen=True)
class Session:
    """A session's span: when its first and last messages were written, and how many there are."""
    session: str
    started: str
    ended: str
    messages: int


@dataclass(frozen=True)
class Event:
    """One change in what she believes about the user, for a timeline: a value learned (or replacing `old`),
    taken back, corrected by the user, or forgotten (`value` None: a forgotten value is never shown)."""
    at: str
    what: Literal["learned", "replaced", "corrected", "retracted", "forgotten"]
    key: str
    value: str | None = None
    old: str | None = None
    by: str = "you"           # who stored it: "you", or "model (llama3.2)"
    source: str = ""          # the sentence it came from


@dataclass(frozen=True)
class Summary:
    """A session's summary as written; `since`: the values it states that are no longer believed (see since)."""
    session: str
    text: str
    created_at: str
    since: tuple = ()


@dataclass(frozen=True)
class Voiceprint:
    """A household member's voice: the mean of `utterances` speaker embeddings from `model` (not normalised:
    a new utterance adds to it in proportion)."""
    user: str
    vector: tuple[float, ...] = field(repr=False)
    utterances: int
    model: str
    created_at: str
    updated_at: str


@dataclass(frozen=True)
class Since:
    """A value a stored text states that is no longer believed: what holds now (`now`, None when nothing
    replaced it) and from when (`at`, ISO)."""
    key: str
    old: str
    now: str | None
    at: str

    def say(self) -> str:
        """'since 5 December 2026: diet "pescatarian"' or 'since 5 December 2026 no longer true: allergy "peanuts"'."""
        day = say_day(date.fromisoformat(self.at[:10]))
        label = self.key.replace("_", " ")
        if self.now is not None:
            return f'since {day}: {label} "{self.now}", not "{self.old}"'
        return f'since {day} no longer true: {label} "{self.old}"'


@dataclass(frozen=True)
class Recalled:
    """An earlier message or note that matches a query; higher score is better."""
    kind: str          # "message" | "note"
    id: str
    session: str | None
    role: str
    text: str
    created_at: str
    score: float
    reply: str | None = None   # her answer to it (the exchange's other half), as context, never ranked alone
    since: tuple["Since", ...] = ()   # values it (or her reply) states that are no longer believed (see since)
    focus: str | None = None   # the sentence of it that answers the query best, when one did (see meanings)

    def excerpt(self, max_chars: int) -> str:
        """Its text on one line, at most max_chars: whole when it fits; else the sentence that answers the query
        with the sentences around it that fit, nearest first ("… I now lead a team of five engineers, and I
        love it …"), so a value said in passing reaches whoever reads it; with no such sentence, the start."""
        text = " ".join(self.text.split())
        if len(text) <= max_chars:
            return text
        focus = " ".join(self.focus.split()) if self.focus else ""
        sentences = SENTENCE_END.split(text)      # an excerpt keeps whole sentences
        at = next((i for i, s in enumerate(sentences) if focus and (focus in s or s in focus)), None)
        if at is None:
            return text[:max_chars]
        lo = hi = at
        size = len(sentences[at])
        while True:      # grow by whole sentences, the one before first ("what it needs around it"), then after
            grew = False
            for j in (lo - 1, hi + 1):
                if 0 <= j < len(sentences) and size + len(sentences[j]) + 1 <= max_chars - 4:
                    size += len(sentences[j]) + 1
                    lo, hi = min(lo, j), max(hi, j)
                    grew = True
            if not grew:
                break
        window = " ".join(sentences[lo:hi + 1])[:max_chars - 4]
        return f"{'… ' if lo else ''}{window}{' …' if hi < len(sentences) - 1 else ''}"
