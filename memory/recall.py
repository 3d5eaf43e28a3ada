"""The message log (append-only) and BM25 recall over earlier messages and notes (FTS5)."""
from __future__ import annotations

import sqlite3
from dataclasses import dataclass

import regex as re

STOPWORDS = set("""a an the and or but if then so to of in on at by for with about from as is are
was were be been am i me my mine you your we our it its this that these those what which who whom
do does did have has had not no yes can could would should will shall may might must just
really very please tell know remember say said there here when where why how all any some
im ive dont didnt cant wont isnt m s t d ll re ve forgotten""".split())
MAX_TERMS = 12
ALL_WORDS_SCAN = 20_000   # the all-words pass looks at this many newest messages, so its cost is bounded


@dataclass(frozen=True)
class Recalled:
    """An earlier message or note that matches a query; lower score is better (BM25)."""
    kind: str          # "message" | "note"
    id: str
    session: str | None
    role: str
    text: str
    created_at: str
    score: float


def estimate_tokens(text: str) -> int:
    """About four characters per token for English text (the usual BPE rule of thumb), rounded up."""
    return (len(text) + 3) // 4 + 1


def log(db: sqlite3.Connection, user: str, session: str, role: str, text: str, now: str,
        tokens: int | None = None, interrupted: bool = False) -> int:
    """Append one message; its token count is stored so trimming never re-counts history."""
    cur = db.execute(
        "INSERT INTO messages (user, session, role, text, tokens, created_at, interrupted) VALUES (?, ?, ?, ?, ?, ?, ?)",
        (user, session, role, text, estimate_tokens(text) if tokens is None else tokens, now, int(interrupted)))
    return int(cur.lastrowid)


def terms(text: str) -> list[str]:
    """Content words of a query, lowercased, without stopwords, at most MAX_TERMS."""
    out: list[str] = []
    for word in re.findall(r"[\p{L}\p{N}]+", text[:2000].casefold()):
        if word not in STOPWORDS and len(word) > 1 and word not in out:
            out.append(word)
    return out[:MAX_TERMS]


def fts_query(words: list[str], joiner: str = " OR ") -> str:
    """['park', 'car'] -> '"park" OR "car"': quoted words only, so no FTS syntax gets through."""
    return joiner.join(f'"{w}"' for w in words)


def recall(db: sqlite3.Connection, user: str, text: str, k: int = 5, session: str | None = None,
           recent_window: int = 0, candidates: int = 25) -> list[Recalled]:
    """Best matches first (BM25). The user filter is in the SQL itself; the current session's newest
    `recent_window` messages are left out (they are already in the prompt).

    Bounded work, so the cost does not grow with the log: BM25 is computed for at most
    `candidates` messages matching any query word (newest first, whole history) plus
    `candidates` matching every word among the newest ALL_WORDS_SCAN messages."""
    words = terms(text)
    if not words or k <= 0:
        return []
    cutoff = _window_start(db, user, session, recent_window)
    found: dict[str, Recalled] = {}
    newest = db.execute("SELECT coalesce(max(id), 0) FROM messages").fetchone()[0]
    passes = [(" OR ", 0)] + ([(" AND ", newest - ALL_WORDS_SCAN)] if len(words) > 1 else [])
    for joiner, after in passes:
        rows = db.execute(
            """SELECT m.id, m.session, m.role, m.text, m.created_at, bm25(messages_fts) AS score
               FROM messages_fts JOIN messages m ON m.id = messages_fts.rowid
               WHERE messages_fts MATCH ? AND messages_fts.rowid > ? AND m.user = ?
                 AND NOT (m.session IS ? AND m.id >= ?)
               ORDER BY messages_fts.rowid DESC LIMIT ?""",
            (fts_query(words, joiner), after, user, session, cutoff, candidates))
        for r in rows:
            found[str(r["id"])] = Recalled("message", str(r["id"]), r["session"], r["role"], r["text"],
                                           r["created_at"], r["score"])
    notes = db.execute(
        """SELECT f.id, f.value, f.asserted_at, bm25(facts_fts) AS score
           FROM facts_fts JOIN facts f ON f.seq = facts_fts.rowid
           WHERE facts_fts MATCH ? AND f.user = ? AND f.key = 'note' AND f.valid_to IS NULL
           ORDER BY facts_fts.rowid DESC LIMIT ?""", (fts_query(words), user, candidates)).fetchall()
    for r in notes:
        found[r["id"]] = Recalled("note", r["id"], None, "user", r["value"], r["asserted_at"], r["score"])
    return sorted(found.values(), key=lambda r: r.score)[:k]


def _window_start(db: sqlite3.Connection, user: str, session: str | None, window: int) -> int:
    """The id of the oldest message in the current session's recent window (or beyond every id)."""
    if session is None or window <= 0:
        return 2**62
    row = db.execute("SELECT id FROM messages WHERE user = ? AND session = ? ORDER BY id DESC "
                     "LIMIT 1 OFFSET ?", (user, session, window - 1)).fetchone()
    if row is None:
        return 0   # the whole session fits in the window
    return int(row[0])


def session_messages(db: sqlite3.Connection, user: str, session: str, limit: int = 1000) -> list[sqlite3.Row]:
    rows = db.execute("SELECT * FROM messages WHERE user = ? AND session = ? ORDER BY id DESC LIMIT ?",
                      (user, session, limit)).fetchall()
    return rows[::-1]


def sessions(db: sqlite3.Connection, user: str) -> list[sqlite3.Row]:
    return db.execute(
        "SELECT session, MIN(created_at) AS started, MAX(created_at) AS ended, COUNT(*) AS messages "
        "FROM messages WHERE user = ? GROUP BY session ORDER BY MIN(id)", (user,)).fetchall()
