"""The message log, append-only: writing a message (with its token estimate), a session's messages, the
sessions, and the message after a message (her reply to the user's, the user's next words after hers: recall
reads both, and forgetting deletes a reply with what it answered)."""
from __future__ import annotations

import re   # the standard module
import sqlite3
from typing import Iterable

END_OF_TIME = "9999"    # compares after every iso() stamp


def replies(db: sqlite3.Connection, user: str, ids: Iterable[int], until: str = END_OF_TIME
            ) -> dict[int, tuple[int, str]]:
    """Her reply to each message, as (id, text): the next message of its session, when it is hers."""
    return {i: (r["id"], r["text"]) for i, r in following(db, user, ids, "assistant", until).items()}


def following(db: sqlite3.Connection, user: str, ids: Iterable[int], role: str, until: str = END_OF_TIME
              ) -> dict[int, sqlite3.Row]:
    """The next message of each one's session, when it has `role` (and was said by `until`)."""
    ids = list(ids)
    if not ids:
        return {}
    # one statement: each given id by its key (+user: not a scan of the user's index, 10 ms for three
    # at 100,000 messages), then the next of its session by messages_user_session
    rows = db.execute(
        f"""SELECT m.id AS after, n.* FROM messages m JOIN messages n ON n.id = (SELECT min(p.id) FROM messages p
            WHERE p.user = m.user AND p.session = m.session AND p.id > m.id)
            WHERE m.id IN ({','.join('?' * len(ids))}) AND +m.user = ?""", (*ids, user)).fetchall()
    return {r["after"]: r for r in rows if r["role"] == role and r["created_at"] <= until}


def estimate_tokens(text: str) -> int:
    """An upper estimate for any language: about four characters a token for ASCII text (the usual BPE rule
    of thumb), a token for each kana, kanji or hangul character and each emoji, one per two characters of
    other scripts (accented Latin, Cyrillic, Greek, ...), rounded up."""
    if text.isascii():
        return (len(text) + 3) // 4 + 1
    wide = len(_WIDE.findall(text))
    other = sum(1 for c in text if not c.isascii()) - wide
    return (len(text) - wide - other + 3) // 4 + wide + (other + 1) // 2 + 1
# kana, CJK ideographs, hangul, and the emoji and symbol planes: about a token each (or more) in BPE vocabularies
_WIDE = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af\uf900-\ufaff\U0001F000-\U0001FAFF]")


def log(db: sqlite3.Connection, user: str, session: str, role: str, text: str, now: str,
        tokens: int | None = None, interrupted: bool = False, kind: str | None = None) -> int:
    """Append one message; its token count is stored so trimming never re-counts history."""
    kind = kind or ("reply" if role == "assistant" else "other")
    cur = db.execute(
        "INSERT INTO messages (user, session, role, text, tokens, created_at, interrupted, kind) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        (user, session, role, text, estimate_tokens(text) if tokens is None else tokens, now, int(interrupted), kind))
    return int(cur.lastrowid)


def newest_id(db: sqlite3.Connection) -> int:
    """The newest message's id, any user's (0: none yet): how far the log has grown."""
    return db.execute("SELECT coalesce(max(id), 0) FROM messages").fetchone()[0]


def session_messages(db: sqlite3.Connection, user: str, session: str, limit: int | None = 1000) -> list[sqlite3.Row]:
    """The last `limit` messages of a session (None: all of them), oldest first."""
    rows = db.execute("SELECT * FROM messages WHERE user = ? AND session = ? ORDER BY id DESC LIMIT ?",
                      (user, session, -1 if limit is None else limit)).fetchall()
    return rows[::-1]


def earlier_user_ids(db: sqlite3.Connection, user: str, session: str | None, message_id: int) -> list[int]:
    """The user's messages before `message_id` in this conversation, newest first (without a session: their
    last ten)."""
    if session is None:
        rows = db.execute("SELECT id FROM messages WHERE user = ? AND role = 'user' AND id < ? "
                          "ORDER BY id DESC LIMIT 10", (user, message_id))
    else:
        rows = db.execute("SELECT id FROM messages WHERE user = ? AND session = ? AND role = 'user' "
                          "AND id < ? ORDER BY id DESC LIMIT 200", (user, session, message_id))
    return [r[0] for r in rows]


def newest_texts(db: sqlite3.Connection, user: str, role: str, limit: int) -> list[str]:
    """The texts of the user's newest messages of `role`, newest first by rowid (the user index would sort them
    all)."""
    return [r[0] for r in db.execute(
        "SELECT text FROM messages WHERE +user = ? AND role = ? ORDER BY id DESC LIMIT ?", (user, role, limit))]


def text_of(db: sqlite3.Connection, user: str, message_id: int) -> str | None:
    row = db.execute("SELECT text FROM messages WHERE id = ? AND user = ?", (message_id, user)).fetchone()
    return row["text"] if row else None


def withdraw(db: sqlite3.Connection, user: str, message_id: int) -> bool:
    return db.execute("DELETE FROM messages WHERE id = ? AND user = ?", (message_id, user)).rowcount == 1


def session_ids(db: sqlite3.Connection, user: str) -> tuple[str, ...]:
    return tuple(r[0] for r in db.execute("SELECT DISTINCT session FROM messages WHERE user = ?", (user,)) if r[0])


def all_of(db: sqlite3.Connection, user: str) -> list[sqlite3.Row]:
    """Every message of the user's, oldest first, as an export holds them."""
    return db.execute("SELECT id, session, role, text, tokens, created_at, interrupted, kind FROM messages "
                      "WHERE user = ? ORDER BY id", (user,)).fetchall()


def same_message(db: sqlite3.Connection, user: str, session: str, role: str, created_at: str, text: str) -> int | None:
    """The id of a message with this origin (an import made before), or None."""
    row = db.execute("SELECT id FROM messages WHERE user = ? AND session = ? AND role = ? AND created_at = ? "
                     "AND text = ?", (user, session, role, created_at, text)).fetchone()
    return row[0] if row else None


def vector_rows(db: sqlite3.Connection, user: str) -> int:
    """How many vectors the user's messages have (vector_counts, kept by triggers)."""
    row = db.execute("SELECT rows FROM vector_counts WHERE user = ?", (user,)).fetchone()
    return row[0] if row else 0


def sessions(db: sqlite3.Connection, user: str, newest_only: bool = False) -> list[sqlite3.Row]:
    """The user's sessions, oldest first; `newest_only`: just the one of their newest message, found newest first by
    rowid (the user index would sort them all) and read through the index, not all their messages grouped (30 ms
    at 100,000 messages)."""
    if newest_only:
        return db.execute(
            "SELECT session, MIN(created_at) AS started, MAX(created_at) AS ended, COUNT(*) AS messages "
            "FROM messages WHERE user = ?1 AND session = (SELECT session FROM messages WHERE +user = ?1 "
            "ORDER BY id DESC LIMIT 1) GROUP BY session", (user,)).fetchall()
    return db.execute(
        "SELECT session, MIN(created_at) AS started, MAX(created_at) AS ended, COUNT(*) AS messages "
        "FROM messages WHERE user = ? GROUP BY session ORDER BY MIN(id)", (user,)).fetchall()


def users(db: sqlite3.Connection) -> list[str]:
    """Everyone this file holds messages or facts of, by name."""
    return [r[0] for r in db.execute("SELECT user FROM messages UNION SELECT user FROM facts ORDER BY 1")]
