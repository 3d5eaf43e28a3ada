"""What the memory's reads hand out: small frozen records, never database rows."""
from __future__ import annotations

import sqlite3
from dataclasses import dataclass, field
from typing import Literal

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
