"""Deleting for real. Every place a user's words or something derived from them is kept, and how
each is emptied; a test checks that every table in the file is listed here, so a new store cannot
be added without deciding how it is erased."""
from __future__ import annotations

import sqlite3

from . import facts as F

# table -> how a user's content leaves it
STORES: dict[str, str] = {
    "facts": "the rows themselves; a note quoting a forgotten value goes too",
    "facts_fts": "follows facts (triggers on delete and update)",
    "messages": "a forgotten fact's source message is deleted; the value is redacted from every other message",
    "messages_fts": "follows messages (triggers on delete and update)",
    "message_vectors": "a deleted or redacted message's vector is deleted (triggers); clearing a user deletes them. "
                       "Other rows' neighbour lists (crowding) are cosines only, no ids or text, and may keep its number",
    "vector_counts": "per-user counts of message_vectors, kept by its triggers; dropped with the user",
    "summaries": "the value is redacted; clearing a user deletes them",
}
NOT_USER_DATA = {"migrations", "sqlite_sequence"}


def erase_facts(db: sqlite3.Connection, user: str, facts: list[F.Fact]) -> list[F.FactChange]:
    """Forget facts everywhere: their rows, the messages they came from, every copy of their values
    (messages, sources, notes, summaries), and so, by the triggers of store.py, the word index entries
    and the vectors of every message deleted or redacted."""
    return F.forget(db, user, facts)


def erase_user(db: sqlite3.Connection, user: str) -> dict[str, int]:
    """Everything about one user, from every store."""
    counts = {table: db.execute(f"DELETE FROM {table} WHERE user = ?", (user,)).rowcount
              for table in ("facts", "message_vectors", "messages", "summaries")}
    db.execute("DELETE FROM vector_counts WHERE user = ?", (user,))
    return counts
