"""Voiceprints: one row per household member whose voice is known, the vector as little-endian float32s."""
from __future__ import annotations

import sqlite3
import struct
from typing import Sequence

from .records import Voiceprint


def _pack(vector: Sequence[float]) -> bytes:
    return struct.pack(f"<{len(vector)}f", *vector)


def _of(row: sqlite3.Row) -> Voiceprint:
    blob = row["vector"]
    return Voiceprint(row["user"], struct.unpack(f"<{len(blob) // 4}f", blob), row["utterances"], row["model"],
                      row["created_at"], row["updated_at"])


def all_of(db: sqlite3.Connection) -> list[Voiceprint]:
    return [_of(r) for r in db.execute("SELECT * FROM voiceprints ORDER BY user")]


def one(db: sqlite3.Connection, user: str) -> Voiceprint | None:
    row = db.execute("SELECT * FROM voiceprints WHERE user = ?", (user,)).fetchone()
    return _of(row) if row else None


def save(db: sqlite3.Connection, user: str, vector: Sequence[float], utterances: int, model: str, now: str) -> Voiceprint:
    if not vector or utterances < 1:
        raise ValueError("a voiceprint needs a vector and at least one utterance")
    db.execute("""INSERT INTO voiceprints (user, vector, utterances, model, created_at, updated_at)
                  VALUES (?, ?, ?, ?, ?, ?)
                  ON CONFLICT(user) DO UPDATE SET vector = excluded.vector, utterances = excluded.utterances,
                                                  model = excluded.model, updated_at = excluded.updated_at""",
               (user, _pack(vector), utterances, model, now, now))
    saved = one(db, user)
    assert saved is not None
    return saved


def delete(db: sqlite3.Connection, user: str) -> bool:
    return db.execute("DELETE FROM voiceprints WHERE user = ?", (user,)).rowcount > 0
