"""The sentence model and the vector index as one part: loaded once (a lock, for the thread that prepares it
early), the newest texts' vectors kept, and the user's messages given vectors in batches."""
from __future__ import annotations

import sqlite3
import threading
from collections import OrderedDict
from typing import TYPE_CHECKING, Callable, Literal

from .store import transaction
from .text import pieces

if TYPE_CHECKING:
    from .embed import Embedder
    from .vectors import VectorIndex

INDEX_BATCH = 256     # messages read, embedded and stored at a time (the model sorts them by length)
KEPT_VECTORS = 64     # the newest texts' vectors, for the recall and indexing that follow


class Meaning:
    """Recall by meaning: `choice` is the sentence model, "auto" (the installed one, loaded on first use) or None
    (words alone). `notice` says why meaning is off once a load failed."""

    def __init__(self, choice: "Embedder | None | Literal['auto']" = "auto"):
        self.choice = choice
        self.notice: str | None = None
        self.model: "Embedder | None" = None
        self.index: "VectorIndex | None" = None
        self._lock = threading.Lock()
        self._vectors: OrderedDict[str, object] = OrderedDict()   # text -> vector, the newest few
        self._indexed: dict[str, tuple[int, int]] = {}   # user -> (every message up to this id has a vector, rows then)

    @property
    def off(self) -> bool:
        """Meaning was never asked for (no model, and none to load): answered without loading one."""
        return self.choice is None and self.model is None

    def load(self) -> "Embedder | None":
        """The model, loaded on first use (another thread may be loading it: one load, then shared)."""
        with self._lock:
            if self.model is None and self.choice is not None:
                from .vectors import VectorIndex
                if self.choice == "auto":
                    from .embed import EmbedderMissing, load
                    try:
                        self.choice = load()
                    except EmbedderMissing as exc:
                        self.choice, self.notice = None, str(exc)
                        return None
                self.model = self.choice
                self.index = VectorIndex(self.model.name)
            return self.model

    @property
    def mode(self) -> Literal["words+meaning", "words"]:
        return "words+meaning" if self.load() is not None else "words"

    def vector(self, text: str):
        """The text's vector (kept for the few newest texts), or None without a model."""
        model = self.load()
        if model is None:
            return None
        key = text.strip()
        if key not in self._vectors:
            self._vectors[key] = model.encode([key])[0]
            while len(self._vectors) > KEPT_VECTORS:
                self._vectors.popitem(last=False)
        return self._vectors[key]

    def pending(self, db: sqlite3.Connection, user: str) -> int:
        """How many of the user's messages have no vector yet, or one from before sentences were read (0 when
        meaning is off). Plain SQL: the model is not loaded to answer."""
        if self.off:
            return 0
        from .vectors import UNREAD
        return db.execute(f"SELECT count(*) FROM messages m WHERE m.user = ? AND m.role = 'user' AND {UNREAD}",
                          (user,)).fetchone()[0]

    def index_pending(self, db: sqlite3.Connection, user: str, limit: int | None = None,
                      progress: Callable[[int, int], None] | None = None) -> int:
        """Give vectors to the user's messages that have none (newest first, at most `limit`), and read again
        those indexed before their further readings were made (sentences, an answer read after her question:
        see embed.encode_messages); the vector of a message just recalled with is reused when it is all there
        is to it. Returns how many."""
        model = self.load()
        if model is None or db.read_only:
            return 0
        from . import messages as M
        total = self.pending(db, user) if progress else 0
        # Messages up to the watermark all have vectors, unless some were deleted since (a forget
        # redacts messages and drops their vectors): then everything is looked at again.
        rows = M.vector_rows(db, user)
        after = self._indexed.get(user, (0, 0))
        after = after[0] if rows >= after[1] else 0
        newest = M.newest_id(db)
        done = 0
        while limit is None or done < limit:
            batch = self.index.missing(db, user, INDEX_BATCH if limit is None else min(INDEX_BATCH, limit - done), after)
            if not batch:
                self._indexed[user] = (newest, M.vector_rows(db, user))
                break
            done += self._index_batch(db, user, model, batch)
            if progress:
                progress(done, max(total, done))
        self.fill_crowding(db, user)      # what a database from before crowding lacks, a bounded share per call
        return done

    def _index_batch(self, db: sqlite3.Connection, user: str, model: "Embedder", batch: list) -> int:
        import numpy as np

        from .embed import answered, encode_messages
        # one sentence, answering no question of hers: its vector is all there is to it
        single = {r["id"] for r in batch if len(pieces(r["text"])) == 1 and answered(r["asked"]) is None}
        # a vector from before its further readings were made stays when that is all there is
        kept = [r["id"] for r in batch if r["had"] and r["id"] in single]
        batch = [r for r in batch if not (r["had"] and r["id"] in single)]
        texts = [r["text"] for r in batch]
        # such a message just recalled with has its vector already
        known = [self._vectors.get(r["text"].strip()) if r["id"] in single else None for r in batch]
        todo = [i for i, v in enumerate(known) if v is None]
        fresh, fresh_parts = encode_messages(model, [texts[i] for i in todo], [batch[i]["asked"] for i in todo])
        vectors = np.zeros((len(texts), model.dim), np.float32)
        parts: list = [None] * len(texts)
        for i, v in enumerate(known):
            if v is not None:
                vectors[i] = v
        for j, i in enumerate(todo):
            vectors[i], parts[i] = fresh[j], fresh_parts[j]
        with transaction(db):
            marks = ",".join("?" * len(kept))
            db.execute(f"UPDATE message_vectors SET parts = x'' WHERE message_id IN ({marks})", kept)
            older = [r["id"] for r in batch if r["had"]]
            db.execute(f"DELETE FROM message_vectors WHERE message_id IN ({','.join('?' * len(older))})", older)
            for again in (False, True):     # new messages folded into the others' lists, not ones read again
                which = [i for i, r in enumerate(batch) if bool(r["had"]) == again]
                if which:
                    self.index.add(db, user, [batch[i]["id"] for i in which], vectors[which],
                                   [parts[i] for i in which], fold=not again)
        return len(kept) + len(batch)

    def fill_crowding(self, db: sqlite3.Connection, user: str, everything: bool = False,
                      progress: Callable[[int, int], None] | None = None) -> tuple[int, int]:
        """Neighbour lists (crowding, see vectors) for vectors stored without one: about a quarter second's
        worth, or `everything`. Returns (done, still missing)."""
        if self.load() is None or db.read_only or not self.index.unfilled(db, user):
            return 0, 0
        with transaction(db):
            return self.index.fill_neighbours(db, user, everything, progress)
