"""Message vectors: stored per message in SQLite, held per user in memory as one matrix for a scan.

The matrix is kept in step with the table cheaply: `vector_counts` (kept by triggers) says how many
rows a user has and the newest seq. New rows (seq above ours) are read incrementally; a count that
does not add up (a forget, a redaction, another process) reloads the user's rows. So a deleted
message's vector never outlives its row, whichever process deleted it.
"""
from __future__ import annotations

import sqlite3

import numpy as np

from .embed import DIM

REDUCE_FROM = 20_000   # from this many vectors, scan a reduced copy first (50k x 384 floats: ~3 ms a scan)
REDUCED_DIM = 64       # its width: the principal directions of the user's own vectors
SHORTLIST = 4          # candidates kept from the reduced scan, per result wanted, scored exactly


class _UserVectors:
    """One user's vectors, sorted by message id, in buffers that grow by doubling (a turn's new
    vector is appended without copying the rest)."""

    def __init__(self) -> None:
        self.rows = 0           # rows in the table (vector_counts), as last seen
        self.newest = 0         # the newest seq seen
        self.n = 0              # rows held
        self._ids = np.zeros(0, np.int64)
        self._matrix = np.zeros((0, DIM), np.float32)
        self.basis: np.ndarray | None = None       # (384, REDUCED_DIM), orthonormal columns
        self._reduced = np.zeros((0, REDUCED_DIM), np.float32)

    @property
    def ids(self) -> np.ndarray:
        return self._ids[:self.n]

    @property
    def matrix(self) -> np.ndarray:
        return self._matrix[:self.n]

    @property
    def reduced(self) -> np.ndarray | None:
        return self._reduced[:self.n] if self.basis is not None else None

    def replace(self, ids: np.ndarray, matrix: np.ndarray) -> None:
        self._ids, self._matrix, self.n = ids, matrix, len(ids)
        self.basis = None
        if self.n >= REDUCE_FROM:
            sample = matrix[np.random.default_rng(0).choice(self.n, min(self.n, 4096), replace=False)]
            self.basis = np.ascontiguousarray(np.linalg.svd(sample, full_matrices=False)[2][:REDUCED_DIM].T)
            self._reduced = np.ascontiguousarray(matrix @ self.basis)

    def append(self, ids: np.ndarray, matrix: np.ndarray) -> bool:
        """Add rows with ids above every held one; False (nothing changed) when they are not."""
        if len(ids) and self.n and ids[0] <= self._ids[self.n - 1]:
            return False
        end = self.n + len(ids)
        if end > len(self._ids):
            size = max(end, 2 * len(self._ids), 64)
            self._ids = np.resize(self._ids, size)
            grown = np.empty((size, DIM), np.float32)
            grown[:self.n] = self.matrix
            self._matrix = grown
            if self.basis is not None:
                small = np.empty((size, REDUCED_DIM), np.float32)
                small[:self.n] = self._reduced[:self.n]
                self._reduced = small
        self._ids[self.n:end], self._matrix[self.n:end] = ids, matrix
        if self.basis is not None:
            self._reduced[self.n:end] = matrix @ self.basis
        self.n = end
        if self.basis is None and self.n >= REDUCE_FROM:
            self.replace(self.ids.copy(), self.matrix.copy())
        return True


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

    def missing(self, db: sqlite3.Connection, user: str, limit: int, after: int = 0) -> list[sqlite3.Row]:
        """The user's own messages newer than `after` with no vector yet, newest first."""
        return db.execute(
            """SELECT m.id, m.text FROM messages m
               WHERE m.id > ? AND +m.user = ? AND m.role = 'user'
                 AND NOT EXISTS (SELECT 1 FROM message_vectors v WHERE v.message_id = m.id)
               ORDER BY m.id DESC LIMIT ?""", (after, user, limit)).fetchall()

    def search(self, db: sqlite3.Connection, user: str, query: np.ndarray, limit: int) -> list[tuple[int, float]]:
        """(message id, cosine) of the `limit` nearest messages, best first. A large matrix is first
        scanned in its REDUCED_DIM principal directions, and the best SHORTLIST times
        `limit` are then scored exactly."""
        held = self._sync(db, user)
        if not held.rows:
            return []
        if held.reduced is not None and limit * SHORTLIST < held.rows:
            rough = held.reduced @ (held.basis.T @ query)
            short = np.argpartition(-rough, limit * SHORTLIST)[:limit * SHORTLIST]
            sims = held.matrix[short] @ query
            best = np.argsort(-sims)[:limit]
            return [(int(held.ids[short[i]]), float(sims[i])) for i in best]
        sims = held.matrix @ query
        top = np.argpartition(-sims, limit)[:limit] if limit < len(sims) else np.arange(len(sims))
        top = top[np.argsort(-sims[top])]
        return [(int(held.ids[i]), float(sims[i])) for i in top]

    def vectors(self, db: sqlite3.Connection, user: str, message_ids: list[int]) -> dict[int, np.ndarray]:
        """The vector of each given message that has one."""
        held = self._sync(db, user)
        if not held.n or not message_ids:
            return {}
        ids, matrix = held.ids, held.matrix
        wanted = np.asarray(message_ids, np.int64)
        where = np.minimum(np.searchsorted(ids, wanted), held.n - 1)
        hit = ids[where] == wanted
        return {int(m): matrix[i] for m, i in zip(wanted[hit], where[hit])}

    def _sync(self, db: sqlite3.Connection, user: str) -> _UserVectors:
        row = db.execute("SELECT rows, newest FROM vector_counts WHERE user = ?", (user,)).fetchone()
        rows, newest = (row[0], row[1]) if row else (0, 0)
        held = self._users.setdefault(user, _UserVectors())
        if (rows, newest) == (held.rows, held.newest):
            return held
        if newest > held.newest and held.n:
            ids, matrix = self._load(db, user, after=held.newest)
            if held.n + len(ids) == rows and held.append(ids, matrix):
                held.rows, held.newest = rows, newest
                return held
        held.replace(*self._load(db, user, after=0))     # a deletion, or another process's changes
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
