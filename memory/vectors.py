"""Message vectors: stored per message in SQLite, held per user in memory as one matrix for a scan.

The matrix is kept in step with the table cheaply: `vector_counts` (kept by triggers) says how many
rows a user has and the newest seq. New rows (seq above ours) are read incrementally; a count that
does not add up (a forget, a redaction, another process) reloads the user's rows. So a deleted
message's vector never outlives its row, whichever process deleted it.
"""
from __future__ import annotations

import sqlite3
from dataclasses import dataclass, field

import numpy as np

from .embed import DIM


@dataclass
class _UserVectors:
    ids: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    matrix: np.ndarray = field(default_factory=lambda: np.zeros((0, DIM), np.float32))
    rows: int = 0
    newest: int = 0


class VectorIndex:
    """Cosine scan over one user's message vectors (all unit length, so a dot product)."""

    def __init__(self, model: str):
        self.model = model
        self._users: dict[str, _UserVectors] = {}

    def add(self, db: sqlite3.Connection, user: str, message_ids: list[int], vectors: np.ndarray) -> None:
        """Store vectors for messages (inside the caller's transaction); the scan sees them next sync."""
        db.executemany(
            "INSERT OR REPLACE INTO message_vectors (message_id, user, model, vector) VALUES (?, ?, ?, ?)",
            [(int(m), user, self.model, v.astype(np.float16).tobytes()) for m, v in zip(message_ids, vectors)])

    def missing(self, db: sqlite3.Connection, user: str, limit: int) -> list[sqlite3.Row]:
        """The user's own messages with no vector yet, newest first."""
        return db.execute(
            """SELECT m.id, m.text FROM messages m
               WHERE m.user = ? AND m.role = 'user'
                 AND NOT EXISTS (SELECT 1 FROM message_vectors v WHERE v.message_id = m.id)
               ORDER BY m.id DESC LIMIT ?""", (user, limit)).fetchall()

    def pending(self, db: sqlite3.Connection, user: str) -> int:
        return db.execute(
            """SELECT count(*) FROM messages m WHERE m.user = ? AND m.role = 'user'
                 AND NOT EXISTS (SELECT 1 FROM message_vectors v WHERE v.message_id = m.id)""",
            (user,)).fetchone()[0]

    def search(self, db: sqlite3.Connection, user: str, query: np.ndarray, limit: int) -> list[tuple[int, float]]:
        """(message id, cosine) of the `limit` nearest messages, best first."""
        held = self._sync(db, user)
        if not held.rows:
            return []
        sims = held.matrix @ query
        if limit < len(sims):
            top = np.argpartition(-sims, limit)[:limit]
        else:
            top = np.arange(len(sims))
        top = top[np.argsort(-sims[top])]
        return [(int(held.ids[i]), float(sims[i])) for i in top]

    def similarity(self, db: sqlite3.Connection, user: str, query: np.ndarray,
                   message_ids: list[int]) -> dict[int, float]:
        """Cosine of the query with each given message that has a vector."""
        held = self._sync(db, user)
        if not held.rows or not message_ids:
            return {}
        where = np.searchsorted(held.ids, message_ids)
        out = {}
        for m, i in zip(message_ids, where):
            if i < len(held.ids) and held.ids[i] == m:
                out[m] = float(held.matrix[i] @ query)
        return out

    def vectors(self, db: sqlite3.Connection, user: str, message_ids: list[int]) -> dict[int, np.ndarray]:
        held = self._sync(db, user)
        where = np.searchsorted(held.ids, message_ids)
        return {m: held.matrix[i] for m, i in zip(message_ids, where) if i < len(held.ids) and held.ids[i] == m}

    def _sync(self, db: sqlite3.Connection, user: str) -> _UserVectors:
        row = db.execute("SELECT rows, newest FROM vector_counts WHERE user = ?", (user,)).fetchone()
        rows, newest = (row[0], row[1]) if row else (0, 0)
        held = self._users.setdefault(user, _UserVectors())
        if (rows, newest) == (held.rows, held.newest):
            return held
        if newest > held.newest and held.rows:
            fresh = self._load(db, user, after=held.newest)
            if held.rows + len(fresh[0]) == rows:
                ids = np.concatenate([held.ids, fresh[0]])
                order = np.argsort(ids, kind="stable")
                held.ids, held.matrix = ids[order], np.concatenate([held.matrix, fresh[1]])[order]
                held.rows, held.newest = rows, newest
                return held
        held.ids, held.matrix = self._load(db, user, after=0)
        held.rows, held.newest = rows, newest
        return held

    def _load(self, db: sqlite3.Connection, user: str, after: int) -> tuple[np.ndarray, np.ndarray]:
        found = db.execute("SELECT message_id, vector FROM message_vectors WHERE user = ? AND seq > ? "
                           "ORDER BY message_id", (user, after)).fetchall()
        if not found:
            return np.zeros(0, np.int64), np.zeros((0, DIM), np.float32)
        ids = np.fromiter((r[0] for r in found), np.int64, len(found))
        matrix = np.frombuffer(b"".join(r[1] for r in found), np.float16).reshape(len(found), DIM)
        return ids, matrix.astype(np.float32)
