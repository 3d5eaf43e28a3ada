"""Candidates by words: FTS5's BM25 over the user's history, as a share of a match of every query word,
within a budget of messages scored; her messages that match lead to the user's answers to them."""
from __future__ import annotations

import math
import sqlite3

from ..messages import following, newest_id
from .candidates import Candidate, Seen, STILL_TRUE, add_messages
from .query import fts_query

CONTEXT_HITS = 10         # her best-matching messages whose answers are looked up (see by_context)
EXACT_BELOW = 10_000      # messages: below this, full_match counts them exactly
MAX_SCORED = 500          # messages BM25 scores per recall at most (see scored_words)
NEWEST_SCORED = 150       # messages scored when even the rarest query word is in more than MAX_SCORED: its newest


class WordCounts:
    """How many messages hold each word (FTS5), for BM25's budget and idf. Counting a common word
    costs 0.1-0.2 ms at 100,000 messages, so a count is kept until the log has grown by RECOUNT of
    its size since (1%: idf moves by less than that). Memory starts afresh after its own erasures; another
    process's leave it high until then (full_match takes it as N at most; by_words reads fewer newest
    matches than it says). Holds words and numbers only, never text."""
    RECOUNT = 0.01
    SIZE = 4096

    def __init__(self) -> None:
        self._counts: dict[str, tuple[int, int]] = {}    # word -> (messages holding it, newest id then)

    def __call__(self, db: sqlite3.Connection, words: list[str], newest: int) -> dict[str, int]:
        if len(self._counts) > self.SIZE:
            self._counts.clear()
        for w in words:
            count, then = self._counts.get(w, (0, -1))
            if then < 0 or newest - then > newest * self.RECOUNT or newest < then:
                self._counts[w] = (count_word(db, w), newest)
        return {w: self._counts[w][0] for w in words}


def count_word(db: sqlite3.Connection, word: str) -> int:
    return db.execute("SELECT count(*) FROM messages_fts WHERE messages_fts MATCH ?", (fts_query([word]),)).fetchone()[0]


def scored_words(db: sqlite3.Connection, words: list[str], budget: int = MAX_SCORED, newest: int = 0,
                 counted: WordCounts | None = None) -> tuple[list[str], int, dict[str, int]]:
    """The query words BM25 ranks by: rarest first, while the messages holding them stay within
    `budget` (always at least the rarest); and how many messages hold them, at most (counted afresh,
    or by `counted` as of the newest message id `newest`). Common words add little to BM25 and cost
    the most; what they would have found is left to the meaning side."""
    counts = counted(db, words, newest) if counted else {w: count_word(db, w) for w in words}
    kept, total = [], 0
    for w in sorted(words, key=counts.__getitem__):
        if kept and total + counts[w] > budget:
            break
        kept.append(w)
        total += counts[w]
    return kept, total, counts


def full_match(db: sqlite3.Connection, words: list[str], counts: dict[str, int], newest: int) -> float:
    """What BM25 gives a message of average length holding each query word once: the sum of the
    words' idf (FTS5's formula). A match's share of it says how much of the question it covers,
    whatever the question: one common word shared is a weak match even when it is the best one."""
    # FTS5's N is its row count: every message. Counting costs about 1 ms at 100,000; past EXACT_BELOW
    # the newest id stands in (deleted messages make it a little high: idf moves by as little)
    n = newest
    if n < EXACT_BELOW:
        n = db.execute("SELECT count(*) FROM messages").fetchone()[0]
    held = {w: min(counts[w], n) for w in words}    # a count kept from before another process's deletion
    return sum(max(1e-6, math.log((n - held[w] + 0.5) / (held[w] + 0.5))) for w in words) or 1.0


def by_words(db: sqlite3.Connection, user: str, words: list[str], seen: Seen, limit: int,
              found: dict[str, Candidate], context_weight: float = 0.0, counted: WordCounts | None = None) -> None:
    newest = newest_id(db)
    kept, matches, counts = scored_words(db, words, MAX_SCORED, newest, counted)
    full = full_match(db, words, counts, newest)
    query = fts_query(kept)
    oldest = 0
    if matches > MAX_SCORED:   # even the rarest word is in more messages than that: its newest NEWEST_SCORED
        row = db.execute("SELECT rowid FROM messages_fts WHERE messages_fts MATCH ? ORDER BY rowid DESC "
                         "LIMIT 1 OFFSET ?", (query, NEWEST_SCORED - 1)).fetchone()
        oldest = row[0] if row else 0    # fewer now than counted (a deletion since): all of them
    # BM25 over the index alone first (a join per match costs as much again), then the user's rows;
    # in the rare case other users' messages fill the first cut, the whole join runs.
    sql = """SELECT m.id, m.session, m.role, m.text, m.created_at, m.kind, f.bm25
              FROM (SELECT rowid, bm25(messages_fts) AS bm25 FROM messages_fts
                    WHERE messages_fts MATCH ? AND rowid >= ? ORDER BY bm25 LIMIT ?) f
              JOIN messages m ON m.id = f.rowid
              WHERE +m.user = ? AND m.role IN ({roles}) AND NOT (m.session IS ? AND m.id >= ?) AND {still}
              ORDER BY f.bm25 LIMIT ?"""
    # her messages too when they lead to the user's answers (see by_context): one BM25 pass for both
    sql = sql.format(roles="'user', 'assistant'" if context_weight > 0 else "'user'", still=STILL_TRUE)
    take = limit * 2 if context_weight > 0 else limit
    cut = take * 4
    rows = db.execute(sql, (query, oldest, cut, user, *seen.params, take)).fetchall()
    if len(rows) < take and (NEWEST_SCORED if oldest else matches) > cut:
        rows = db.execute(sql, (query, oldest, -1, user, *seen.params, take)).fetchall()
    for r in [r for r in rows if r["role"] == "user"][:limit]:
        found[str(r["id"])] = Candidate("message", str(r["id"]), r["session"], r["role"], r["text"],
                                         r["created_at"], r["kind"], min(1.0, -r["bm25"] / full),
                                         message_id=r["id"])
    hers = {r["id"]: min(1.0, -r["bm25"] / full)
            for r in [r for r in rows if r["role"] == "assistant"][:CONTEXT_HITS]}
    if hers:
        by_context(db, user, hers, seen, found)
    notes = db.execute(
        """SELECT f.id, f.value, f.asserted_at, f.source_message_id, bm25(facts_fts) AS bm25
           FROM facts_fts JOIN facts f ON f.seq = facts_fts.rowid
           WHERE facts_fts MATCH ? AND f.user = ? AND f.key = 'note' AND f.asserted_at <= ?
           AND (f.valid_to IS NULL OR f.valid_to > ?)
           ORDER BY bm25 LIMIT ?""", (query, user, seen.until, seen.until, limit)).fetchall()
    for r in notes:
        found[r["id"]] = Candidate("note", r["id"], None, "user", r["value"], r["asserted_at"], "note",
                                    min(1.0, -r["bm25"] / full), message_id=r["source_message_id"])


def by_context(db: sqlite3.Connection, user: str, hers: dict[int, float], seen: Seen,
                found: dict[str, Candidate]) -> None:
    """Her messages that match the words (id -> their match, see features.matched) lead to the user's answer to
    each, the next message: "which film did I want to watch on Friday?" -> her "which film do you
    want to watch on Friday?" -> the user's "the one with the submarine"."""
    answers = following(db, user, hers, "user", seen.until)
    add_messages(db, user, [a["id"] for a in answers.values() if str(a["id"]) not in found], seen, found)
    for asked, answer in answers.items():
        c = found.get(str(answer["id"]))
        if c is not None:
            c.context = max(c.context, hers[asked])
