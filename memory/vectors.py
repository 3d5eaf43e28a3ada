"""Message vectors: stored per message in SQLite, held per user in memory as one matrix for a scan.

The matrix is kept in step with the table cheaply: `vector_counts` (kept by triggers) says how many
rows a user has and the newest seq. New rows (seq above ours) are read incrementally; a count that
does not add up (a forget, a redaction, another process) reloads the user's rows. So a deleted
message's vector never outlives its row, whichever process deleted it.

Crowding: each row also keeps the cosines of its NEIGHBOURS nearest among the user's other
messages, updated as messages arrive. Their mean says how much a message sounds like many others
("I paid the agent back for the X", said forty times); centred on the user's mean, it is what
recall subtracts from a cosine (crowding_weight), a local scaling (CSLS, Conneau et al. 2018) that
keeps everyday chatter from crowding out the one message that answers a question in other words.
The lists are similarities only (no ids, no text); a deleted neighbour's cosine may stay in them.
"""
from __future__ import annotations

import sqlite3
from concurrent.futures import Future, ThreadPoolExecutor
from functools import cache
from typing import Callable

import numpy as np

from .embed import DIM

SHORTLIST_FROM = 4_000   # from this many vectors, scan their sign bits first (a full scan reads 1.5 KB a row)
SHORTLIST = 12           # candidates kept from the sign-bit scan, per result wanted, scored exactly
WORDS = (DIM + 63) // 64  # a vector's sign bits, in 64-bit words
# the cosine two unit vectors are expected to have when they differ in h of their signs (as for random
# hyperplanes: Charikar 2002), so a row's crowding can be taken off the rough score as off the exact one
ROUGH_COSINE = np.cos(np.pi * np.arange(WORDS * 64 + 1) / DIM).astype(np.float32)
# a message still to be (re)indexed: no vector, or one from before its further readings were made
# (`parts` NULL: migrations 008, sentences, and 009, answers)
UNREAD = "NOT EXISTS (SELECT 1 FROM message_vectors v WHERE v.message_id = m.id AND v.parts IS NOT NULL)"
NEIGHBOURS = 10        # crowding: the mean cosine of a message's this many nearest
FILL_BUDGET = 2e9      # multiply-adds one call of fill_neighbours may spend (about a quarter second)


class _UserVectors:
    """One user's vectors, sorted by message id, in buffers that grow by doubling (a turn's new
    vector is appended without copying the rest)."""

    def __init__(self) -> None:
        self.rows = 0           # rows in the table (vector_counts), as last seen
        self.newest = 0         # the newest seq seen
        self.n = 0              # rows held
        self._ids = np.zeros(0, np.int64)
        self._matrix = np.zeros((0, DIM), np.float32)
        self._signs = np.zeros((WORDS, 0), np.uint64)      # each row's sign bits, a column each
        self._near = np.zeros((0, NEIGHBOURS), np.float32)   # NaN rows: not worked out yet
        self._crowding: np.ndarray | None = None

    @property
    def ids(self) -> np.ndarray:
        return self._ids[:self.n]

    @property
    def matrix(self) -> np.ndarray:
        return self._matrix[:self.n]

    @property
    def signs(self) -> np.ndarray:
        return self._signs[:, :self.n]

    @property
    def near(self) -> np.ndarray:
        return self._near[:self.n]

    def crowding(self) -> np.ndarray:
        """Each row's mean neighbour cosine minus the user's mean (0 where not worked out yet)."""
        if self._crowding is None:     # worked out again after each turn's new vectors: a product, not
            mean = self.near @ np.full(NEIGHBOURS, 1 / NEIGHBOURS, np.float32)   # .mean(1) (0.08 ms vs 1.2)
            known = ~np.isnan(mean)
            centre = float(mean[known].mean()) if known.any() else 0.0
            self._crowding = np.where(known, mean - centre, 0.0).astype(np.float32)
        return self._crowding

    def set_near(self, rows: np.ndarray, lists: np.ndarray) -> None:
        self._near[rows] = lists
        self._crowding = None

    def replace(self, ids: np.ndarray, matrix: np.ndarray, near: np.ndarray) -> None:
        self._ids, self._matrix, self._near, self.n = ids, matrix, near, len(ids)
        self._signs = np.ascontiguousarray(sign_bits(matrix).T)
        self._crowding = None

    def append(self, ids: np.ndarray, matrix: np.ndarray, near: np.ndarray) -> bool:
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
            lists = np.empty((size, NEIGHBOURS), np.float32)
            lists[:self.n] = self.near
            self._near = lists
            signs = np.empty((WORDS, size), np.uint64)
            signs[:, :self.n] = self.signs
            self._signs = signs
        self._ids[self.n:end], self._matrix[self.n:end], self._near[self.n:end] = ids, matrix, near
        self._signs[:, self.n:end] = sign_bits(matrix).T
        self.n = end
        self._crowding = None
        return True


class VectorIndex:
    """Cosine scan over one user's message vectors (all unit length, so a dot product)."""

    def __init__(self, model: str):
        self.model = model
        self._users: dict[str, _UserVectors] = {}

    def add(self, db: sqlite3.Connection, user: str, message_ids: list[int], vectors: np.ndarray,
            parts: list[np.ndarray | None] | None = None, fold: bool = True) -> None:
        """Store vectors for messages (inside the caller's transaction) with their neighbour lists,
        and fold them into the lists of the messages they are near; the scan sees them next sync.
        `parts`: each message's further readings (its sentences, its answer read after her question),
        or None (stored as empty; see embed.encode_messages). A message's older vector, if any, must be
        deleted first; fold=False for one read again (the others' lists already hold its old cosine,
        as after a deletion)."""
        held = self._sync(db, user)
        parts = parts or [None] * len(message_ids)
        new = np.asarray(vectors, np.float32)
        cross = held.matrix @ new.T                          # (held, new)
        among = new @ new.T
        np.fill_diagonal(among, 0.0)
        lists = _nearest(np.concatenate([cross.T, among], axis=1))
        db.executemany(
            "INSERT OR REPLACE INTO message_vectors (message_id, user, model, vector, neighbours, parts) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            [(int(m), user, self.model, v.astype(np.float16).tobytes(), _blob(near),
              b"" if p is None else np.asarray(p, np.float16).tobytes())
             for m, v, near, p in zip(message_ids, new, lists, parts)])
        known = np.flatnonzero(~np.isnan(held.near[:, 0])) if fold else []
        if len(known):
            before = held.near[known]
            after = _nearest(np.concatenate([before, cross[known]], axis=1))
            moved = np.abs(after.sum(axis=1) - before.sum(axis=1)) > 1e-4
            rows, after = known[moved], after[moved]
            db.executemany("UPDATE message_vectors SET neighbours = ? WHERE message_id = ?",
                           [(_blob(near), int(held.ids[r])) for r, near in zip(rows, after)])
            held.set_near(rows, _round(after))

    def unfilled(self, db: sqlite3.Connection, user: str) -> int:
        """How many of the user's vectors have no neighbour list yet."""
        return int(np.isnan(self._sync(db, user).near[:, 0]).sum())

    def fill_neighbours(self, db: sqlite3.Connection, user: str, everything: bool = False,
                        progress: Callable[[int, int], None] | None = None) -> tuple[int, int]:
        """Work out the lists of rows stored without one (a database from before crowding), within
        FILL_BUDGET unless `everything`; returns (done, still missing)."""
        held = self._sync(db, user)
        todo = np.flatnonzero(np.isnan(held.near[:, 0]))
        if not len(todo):
            return 0, 0
        take = len(todo) if everything else max(1, int(FILL_BUDGET // max(1, held.n * DIM)))
        rows = todo[:take]
        for start in range(0, len(rows), 256):
            part = rows[start:start + 256]
            sims = held.matrix[part] @ held.matrix.T
            sims[np.arange(len(part)), part] = 0.0           # not its own neighbour
            lists = _nearest(sims)
            db.executemany("UPDATE message_vectors SET neighbours = ? WHERE message_id = ?",
                           [(_blob(near), int(held.ids[r])) for r, near in zip(part, lists)])
            held.set_near(part, _round(lists))
            if progress:
                progress(start + len(part), len(rows))
        return len(rows), len(todo) - len(rows)

    def missing(self, db: sqlite3.Connection, user: str, limit: int, after: int = 0) -> list[sqlite3.Row]:
        """The user's own messages newer than `after` with no vector yet, or one made before its
        further readings were (`parts` NULL), newest first; `had` says which had one,
        `asked` is her message just before it (None when the one before is not hers)."""
        return db.execute(
            f"""SELECT m.id, m.text, EXISTS (SELECT 1 FROM message_vectors v WHERE v.message_id = m.id) AS had,
                       (SELECT CASE WHEN p.role = 'assistant' THEN p.text END FROM messages p
                        WHERE p.user = m.user AND p.session IS m.session AND p.id < m.id
                        ORDER BY p.id DESC LIMIT 1) AS asked
                FROM messages m WHERE m.id > ? AND +m.user = ? AND m.role = 'user' AND {UNREAD}
                ORDER BY m.id DESC LIMIT ?""", (after, user, limit)).fetchall()

    def search(self, db: sqlite3.Connection, user: str, query: np.ndarray, limit: int,
               crowding_weight: float = 0.0) -> list[tuple[int, float]]:
        """(message id, cosine less crowding_weight x crowding) of the `limit` best messages, best
        first. From SHORTLIST_FROM vectors, the rows are first scored by how many of the query's
        signs they share (48 bytes a row against 1,536: the full scan is memory-bound), and the best
        SHORTLIST times `limit` are then scored exactly. On 24,000 real sentence vectors (LoCoMo and
        Persona-Chat messages, LoCoMo's questions) this keeps 98% of the exact best 30 and all but
        0.1% of the best 5; the 64-wide principal projection it replaced kept 74% and 87%."""
        return _scan(self._sync(db, user), query, limit, crowding_weight)

    def search_aside(self, db: sqlite3.Connection, user: str, query: np.ndarray, limit: int,
                     crowding_weight: float = 0.0) -> Future[list[tuple[int, float]]]:
        """`search` with its scan on a worker thread (numpy lets go of the GIL), so the caller can rank
        words in SQLite meanwhile (which lets go of it too); the table is read here, in the caller's
        thread. Take the result before using the index again."""
        held = self._sync(db, user)
        return _scanner().submit(_scan, held, query, limit, crowding_weight)

    def vectors(self, db: sqlite3.Connection, user: str,
                message_ids: list[int]) -> tuple[dict[int, np.ndarray], dict[int, float]]:
        """The vector of each given message that has one, and its crowding (how much it sounds
        like the user's others, centred; see the module)."""
        held = self._sync(db, user)
        rows = self._rows(held, message_ids)
        crowd = held.crowding()
        return {m: held.matrix[i] for m, i in rows.items()}, {m: float(crowd[i]) for m, i in rows.items()}

    @staticmethod
    def best_parts(db: sqlite3.Connection, message_ids: list[int], query: np.ndarray,
                   readings: dict[int, tuple[int, np.ndarray]] | None = None) -> dict[int, float]:
        """The cosine with `query` of the best further reading of each given message that has some: its
        sentences, its answer read after her question (read from the table, in one pass: only a recall's
        candidates need them, so they are not held in memory). `readings`: filled with each one's best
        reading, as (its place among the message's readings: its sentences in order, then the answer, vector)."""
        if not message_ids:
            return {}
        # by the partial index of the messages that have some (migration 011): SQLite would take the
        # unique index on message_id and read every candidate's row
        found = db.execute(f"SELECT message_id, parts FROM message_vectors INDEXED BY message_vectors_parted "
                           f"WHERE message_id IN ({','.join('?' * len(message_ids))}) AND length(parts) > 0",
                           list(message_ids)).fetchall()
        if not found:
            return {}
        rows = np.fromiter((len(blob) // (2 * DIM) for _, blob in found), np.int64, len(found))
        parts = np.frombuffer(b"".join(blob for _, blob in found), np.float16).reshape(-1, DIM)
        cosines = parts.astype(np.float32) @ query
        starts = np.cumsum(rows) - rows
        best = np.maximum.reduceat(cosines, starts)
        if readings is not None:
            for (m, _), start, n in zip(found, starts, rows):
                best_row = int(np.argmax(cosines[start:start + n]))
                readings[m] = (best_row, parts[start + best_row].astype(np.float32))
        return {m: float(c) for (m, _), c in zip(found, best)}

    @staticmethod
    def _rows(held: _UserVectors, message_ids: list[int]) -> dict[int, int]:
        """Where each given message that has a vector is held."""
        if not held.n or not message_ids:
            return {}
        wanted = np.asarray(message_ids, np.int64)
        where = np.minimum(np.searchsorted(held.ids, wanted), held.n - 1)
        hit = held.ids[where] == wanted
        return {int(m): int(i) for m, i in zip(wanted[hit], where[hit])}

    def _sync(self, db: sqlite3.Connection, user: str) -> _UserVectors:
        row = db.execute("SELECT rows, newest FROM vector_counts WHERE user = ?", (user,)).fetchone()
        rows, newest = (row[0], row[1]) if row else (0, 0)
        held = self._users.setdefault(user, _UserVectors())
        if (rows, newest) == (held.rows, held.newest):
            return held
        if newest > held.newest and held.n:
            ids, matrix, near = self._load(db, user, after=held.newest)
            if held.n + len(ids) == rows and held.append(ids, matrix, near):
                held.rows, held.newest = rows, newest
                return held
        held.replace(*self._load(db, user, after=0))     # a deletion, or another process's changes
        held.rows, held.newest = rows, newest
        return held

    def _load(self, db: sqlite3.Connection, user: str, after: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        found = db.execute("SELECT message_id, vector, neighbours FROM message_vectors WHERE user = ? AND seq > ? "
                           "ORDER BY message_id", (user, after)).fetchall()
        if not found:
            return np.zeros(0, np.int64), np.zeros((0, DIM), np.float32), np.zeros((0, NEIGHBOURS), np.float32)
        ids = np.fromiter((r[0] for r in found), np.int64, len(found))
        matrix = np.frombuffer(b"".join(r[1] for r in found), np.float16).reshape(len(found), DIM)
        unknown = _blob(np.full(NEIGHBOURS, np.nan, np.float32))
        near = np.frombuffer(b"".join(r[2] or unknown for r in found), np.float16).reshape(len(found), NEIGHBOURS)
        return ids, matrix.astype(np.float32), near.astype(np.float32)


def _scan(held: _UserVectors, query: np.ndarray, limit: int, crowding_weight: float) -> list[tuple[int, float]]:
    """VectorIndex.search over what is held (its arrays taken once, as they are now)."""
    if not held.rows:
        return []
    ids, matrix, signs, crowding = held.ids, held.matrix, held.signs, held.crowding()
    crowd = crowding * crowding_weight if crowding_weight else 0.0
    if len(ids) >= SHORTLIST_FROM and limit * SHORTLIST < len(ids):
        rough = np.take(ROUGH_COSINE, _differing(signs, sign_bits(query[None])[0]))   # take: half the time of []
        rough -= crowd
        short = _top(rough, limit * SHORTLIST)
        sims = matrix[short] @ query - (crowd[short] if crowding_weight else 0.0)
        best = np.argsort(-sims)[:limit]
        return [(int(ids[short[i]]), float(sims[i])) for i in best]
    sims = matrix @ query - crowd
    top = _top(sims, limit) if limit < len(sims) else np.arange(len(sims))
    top = top[np.argsort(-sims[top])]
    return [(int(ids[i]), float(sims[i])) for i in top]


@cache
def _scanner() -> ThreadPoolExecutor:
    return ThreadPoolExecutor(1, thread_name_prefix="vector-scan")


def sign_bits(matrix: np.ndarray) -> np.ndarray:
    """Each row's signs, packed: (rows, WORDS) uint64."""
    return np.packbits(matrix > 0, axis=1, bitorder="little").view(np.uint64)


def _differing(signs: np.ndarray, query: np.ndarray) -> np.ndarray:
    """How many sign bits each column of `signs` (WORDS, rows) differs from `query` (WORDS,) in: a
    word at a time over every row (0.3 ms at 50,000 rows; row by row, 1.4)."""
    count = np.bitwise_count(signs[0] ^ query[0]).astype(np.uint16)
    for row, word in zip(signs[1:], query[1:]):
        count += np.bitwise_count(row ^ word)
    return count


def _top(values: np.ndarray, n: int) -> np.ndarray:
    """The indices of the n largest values, in no order. From 64 per wanted, a threshold read from a
    strided sample (16 per wanted; its 2n/step-th largest, so about 2n pass) cuts the array first: one
    comparison instead of a partition of all of it (50,000 values: 0.03 ms against 0.47). Exact:
    when fewer than n pass, the whole array is partitioned."""
    if len(values) > 64 * n:
        step = len(values) // (16 * n)
        sample = values[::step]
        k = 2 * n // step + 1
        passed = np.flatnonzero(values >= np.partition(sample, len(sample) - k)[len(sample) - k])
        if len(passed) >= n:
            return passed[np.argpartition(-values[passed], n - 1)[:n]]
    return np.argpartition(-values, n - 1)[:n]


def _nearest(sims: np.ndarray) -> np.ndarray:
    """Each row's NEIGHBOURS largest cosines (unordered), below 0 counted as 0, missing as 0."""
    if sims.shape[1] < NEIGHBOURS:
        sims = np.concatenate([sims, np.zeros((len(sims), NEIGHBOURS - sims.shape[1]), np.float32)], axis=1)
    top = -np.partition(-sims, NEIGHBOURS - 1, axis=1)[:, :NEIGHBOURS]
    return np.clip(top, 0.0, None).astype(np.float32)


def _blob(near: np.ndarray) -> bytes:
    return near.astype(np.float16).tobytes()


def _round(near: np.ndarray) -> np.ndarray:
    """As stored (float16), so what is held and what a reload reads agree."""
    return near.astype(np.float16).astype(np.float32)
