"""Session summaries: append-only, one row per ended session, never rewritten."""
from __future__ import annotations

import sqlite3


def add(db: sqlite3.Connection, user: str, session: str, text: str, now: str) -> bool:
    """Append the summary of a session; False when that session already has one."""
    cur = db.execute("INSERT OR IGNORE INTO summaries (user, session, text, created_at) VALUES (?, ?, ?, ?)",
                     (user, session, text, now))
    return cur.rowcount == 1


def newest(db: sqlite3.Connection, user: str, limit: int = 3) -> list[sqlite3.Row]:
    return db.execute("SELECT * FROM summaries WHERE user = ? ORDER BY id DESC LIMIT ?", (user, limit)).fetchall()


def all_for(db: sqlite3.Connection, user: str) -> list[sqlite3.Row]:
    return db.execute("SELECT * FROM summaries WHERE user = ? ORDER BY id", (user,)).fetchall()
