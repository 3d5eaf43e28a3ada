"""Deleting for real. Every place a user's words or something derived from them is kept, and how
each is emptied; a test checks that every table in the file is listed here, so a new store cannot
be added without deciding how it is erased."""
from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass
from typing import Callable

from . import facts as F
from .messages import replies
from .lexicon import is_question
from .recall import fts_query, terms

# table -> how a user's content leaves it
STORES: dict[str, str] = {
    "facts": "the rows themselves; a note quoting a forgotten value goes too",
    "facts_fts": "follows facts (triggers on delete and update)",
    "messages": "a forgotten fact's source message and her reply to it are deleted; the value is redacted from every "
                "other message, in every way it is said back (since.sayings: her 'your locker code', a summary's 'their'), "
                "and a remembered sentence's numbers with it",
    "messages_fts": "follows messages (triggers on delete and update)",
    "message_vectors": "a deleted or redacted message's vector is deleted (triggers), and so is the vector of the "
                       "user's answer just after a message of hers (it is read after her question too); clearing a user deletes them. "
                       "Other rows' neighbour lists (crowding) are cosines only, no ids or text, and may keep its number",
    "vector_counts": "per-user counts of message_vectors, kept by its triggers; dropped with the user",
    "block_changes": "which user's facts or summaries changed last (a user id and a counter, kept by triggers); "
                     "dropped with the user",
    "summaries": "the sentences stating the value (in any saying of it, see since.sayings) are cut, and a summary "
                 "with none left is deleted; clearing a user deletes them",
    "voiceprints": "a person's voice (no words in it); clearing the user or `glados speakers forget` deletes it",
    "forgettings": "when something was forgotten and its key, never the value (the page's timeline); clearing a "
                   "user deletes them",
}
SENTENCE = re.compile(r"[^.!?]+(?:[.!?]+|$)")    # a summary's sentences, each kept or cut whole
NOT_USER_DATA = {"migrations", "sqlite_sequence"}


def erase_facts(db: sqlite3.Connection, user: str, facts: list[F.Fact], now: str) -> list[F.FactChange]:
    """Forget facts everywhere: their rows, the messages they came from, every copy of their values
    (messages, sources, notes, summaries), and so, by the triggers of store.py, the word index entries
    and the vectors of every message deleted or redacted. What was forgotten is noted by key and time."""
    done = forget_rows(db, user, facts)
    _noted(db, user, done, now)
    return done


def _noted(db: sqlite3.Connection, user: str, done: list[F.FactChange], now: str) -> None:
    """The key and time of each forgetting. The time to the second: a timestamp's microseconds are digits that
    could spell the code just forgotten ("...38.994512Z" after forgetting 4512)."""
    at = now[:19] + "Z"
    db.executemany("INSERT INTO forgettings (user, key, at) VALUES (?, ?, ?)",
                   [(user, c.key, at) for c in done if c.kind == "forgotten"])


def forget_rows(db: sqlite3.Connection, user: str, facts: list[F.Fact]) -> list[F.FactChange]:
    """Delete the rows, the messages they came from, and every other copy of their values."""
    if not facts:
        return []
    ids = [f.id for f in facts]
    db.executemany("DELETE FROM facts WHERE id = ? AND user = ?", [(i, user) for i in ids])
    kept_sources = {r[0] for r in db.execute(
        "SELECT source_message_id FROM facts WHERE user = ? AND source_message_id IS NOT NULL", (user,))}
    sources = {f.source_message_id for f in facts if f.source_message_id} - kept_sources
    delete_exchanges(db, user, sources)
    for key, value in {(f.key, f.value) for f in facts}:
        redact(db, user, key, value)
    seen, out = set(), []
    for f in facts:
        if (f.key, F.norm(f.value)) not in seen:
            seen.add((f.key, F.norm(f.value)))
            out.append(F.FactChange("forgotten", f.key, f.value, fact_id=f.id))
    return out


def delete_exchanges(db: sqlite3.Connection, user: str, ids: set[int]) -> None:
    """Delete the user's messages `ids` and her reply to each (the next message of its session,
    when it is hers): a reply says back what it answered, in words redaction cannot find."""
    answers = {reply_id for reply_id, _ in replies(db, user, ids).values()}
    db.executemany("DELETE FROM messages WHERE id = ? AND user = ?", [(i, user) for i in ids | answers])


def redact(db: sqlite3.Connection, user: str, key: str, value: str) -> None:
    """Replace the value, in every way it is said back (since.sayings) and, for a remembered sentence,
    its numbers (a code), in the user's messages, remaining fact sources and summaries. A note that
    quoted it goes; a summary loses the sentences that stated it, and goes when none is left."""
    from .since import found_by, secrets
    found = found_by(key, value)
    if not found:
        return
    # a cheap filter first: the value's longest word, or a number of it, somewhere in the text
    hints = {max(value.split(), key=len).strip(".,!?;:'\"").rstrip("s") or value} | set(secrets(key, value))
    where = " OR ".join(["{column} LIKE ?"] * len(hints))
    for table, column in (("messages", "text"), ("facts", "source"), ("facts", "value"), ("summaries", "text")):
        rows = db.execute(f"SELECT id, {column} FROM {table} WHERE user = ? AND ({where.format(column=column)})",
                          (user, *(f"%{h}%" for h in hints))).fetchall()
        for row_id, text in rows:
            new = text
            for p in found:
                new = p.sub(F.FORGOTTEN, new)
            if new == text:
                continue
            if table == "facts" and column == "value":
                db.execute("DELETE FROM facts WHERE id = ?", (row_id,))  # a note that quoted it
            elif table == "summaries":
                _cut_summary(db, row_id, new)
            else:
                db.execute(f"UPDATE {table} SET {column} = ? WHERE id = ?", (new, row_id))


def _cut_summary(db: sqlite3.Connection, summary_id: int, redacted: str) -> None:
    """A summary keeps the sentences that did not state a forgotten value; with none left, it goes."""
    kept = [s for s in SENTENCE.findall(redacted) if F.FORGOTTEN not in s and s.strip()]
    if kept:
        db.execute("UPDATE summaries SET text = ? WHERE id = ?", (" ".join(s.strip() for s in kept), summary_id))
    else:
        db.execute("DELETE FROM summaries WHERE id = ?", (summary_id,))


def targets(db: sqlite3.Connection, user: str, target: str) -> list[F.Fact]:
    """Every row forgetting `target` deletes: a fact id prefix, a key ("location"), "key=value", a phrase naming
    a fact ("my peanut allergy", "where I live": a model's tool call passes the user's words), or what a note is
    about ("locker code"). Raises NotFound, or Ambiguous for two notes or an id prefix of two facts."""
    target = target.strip()
    key, _, value = target.partition("=")
    if value and F.KEY_SHAPE.match(key.strip()):
        rows = F.find_for_forget(db, user, key.strip(), value.strip())
    elif F.is_known_key(target):
        rows = F.find_for_forget(db, user, target, None)
    else:
        hits = [f for f in F.history(db, user) if f.id.startswith(target.lower())] if len(target) >= 4 else []
        if len({(f.key, F.norm(f.value)) for f in hits}) > 1:
            raise F.Ambiguous(f"{target!r} matches {len(hits)} facts; give more of the id")
        rows = F.find_for_forget(db, user, hits[0].key, hits[0].value) if hits else []
    if not rows:
        from .grammar import targets as named
        rows = [f for t in named(target) if t.key for f in F.find_for_forget(db, user, t.key, t.value)]
    if not rows:
        notes = about(db, user, target).notes
        if len(notes) > 1:
            listed = "; ".join(f"{n.id[:8]} {n.value!r}" for n in notes)
            raise F.Ambiguous(f"{target!r} matches {len(notes)} notes ({listed}); forget one by its id")
        rows = [f for n in notes for f in F.find_for_forget(db, user, "note", n.value)]
    if not rows:
        raise F.NotFound(f"nothing to forget for {target!r}: give a key (location), what a note is about "
                         "('locker code') or 4 or more characters of a fact id; see 'glados memory list'")
    return rows


def forgettings(db: sqlite3.Connection, user: str) -> list[tuple[str, str]]:
    """(key, time) of each forgetting of the user's, oldest first."""
    return [(r[0], r[1]) for r in db.execute("SELECT key, at FROM forgettings WHERE user = ? ORDER BY id", (user,))]


def erase_user(db: sqlite3.Connection, user: str) -> dict[str, int]:
    """Everything about one user, from every store."""
    counts = {table: db.execute(f"DELETE FROM {table} WHERE user = ?", (user,)).rowcount
              for table in ("facts", "message_vectors", "messages", "summaries", "voiceprints")}
    for table in ("vector_counts", "block_changes", "forgettings"):     # after the rows whose triggers keep them
        db.execute(f"DELETE FROM {table} WHERE user = ?", (user,))
    return counts


@dataclass(frozen=True)
class Topic:
    """What a forget by topic ("my locker code") names: current notes and the user's own messages
    that hold every content word of it, matched as recall matches words (FTS5, porter stems)."""
    notes: tuple[F.Fact, ...]
    messages: tuple[tuple[int, str], ...]     # (id, text)


def about(db: sqlite3.Connection, user: str, phrase: str, spare: int | None = None) -> Topic:
    """The notes and messages about `phrase`; message `spare` (the forget request itself) is kept."""
    words = terms(phrase)
    if not words:
        return Topic((), ())
    query = fts_query(words, " AND ")
    ids = {r[0] for r in db.execute(
        """SELECT f.id FROM facts_fts JOIN facts f ON f.seq = facts_fts.rowid
           WHERE facts_fts MATCH ? AND f.user = ? AND f.key = 'note' AND f.valid_to IS NULL""", (query, user))}
    notes = tuple(f for f in F.current(db, user) if f.id in ids)
    messages = tuple((r[0], r[1]) for r in db.execute(
        """SELECT m.id, m.text FROM messages_fts JOIN messages m ON m.id = messages_fts.rowid
           WHERE messages_fts MATCH ? AND m.user = ? AND m.role = 'user' AND m.id IS NOT ?
           ORDER BY m.id""", (query, user, spare)))
    return Topic(notes, messages)


def erase_topic(db: sqlite3.Connection, user: str, topic: Topic, now: str) -> list[F.FactChange]:
    """Forget a topic's notes (everywhere, as erase_facts) and delete its messages; the changes name the notes
    and the messages that told something."""
    done = erase_facts(db, user, [f for n in topic.notes for f in F.find_for_forget(db, user, "note", n.value)], now)
    left = [(i, text) for i, text in topic.messages
            if db.execute("SELECT 1 FROM messages WHERE id = ?", (i,)).fetchone()]
    delete_exchanges(db, user, {i for i, _ in left})
    # A question about the topic goes too (her answer to it says the topic back), but it is no memory of
    # the user's: the reply names only what she had been told.
    told = [F.FactChange("forgotten", "message", text) for _, text in left if not is_question(text)]
    _noted(db, user, told, now)
    return done + told


@dataclass(frozen=True)
class Erased:
    """What an erasure took, for whoever keeps copies outside the database (the assistant's log file, when
    it logged words with --verbose): every way each forgotten value is said, and for a cleared user their
    sessions (a line about one of them goes whole)."""
    user: str
    said: tuple[re.Pattern, ...]
    sessions: tuple[str, ...] = ()
    whole: bool = False           # everything about the user went (clear)

    def scrub(self, line: str) -> str | None:
        """The line with every saying of a forgotten value replaced, or None when it must go whole."""
        if any(len(session) >= 8 and session in line for session in self.sessions):
            return None
        for pattern in self.said:
            line = pattern.sub(F.FORGOTTEN, line)
        return line


Sink = Callable[[Erased], None]


def erased(user: str, values: list[tuple[str, str]], sessions: tuple[str, ...] = (), whole: bool = False) -> Erased:
    """The Erased record of (key, value) pairs: each value in every way it is said back (since.sayings), a
    remembered sentence's numbers, and a forgotten message's words as they were."""
    from .since import found_by, numbers_in
    found: list[re.Pattern] = []
    for key, value in values:
        if key == "message":         # a message's words as they were, and its numbers as a note's
            found += [re.compile(re.escape(value)), *numbers_in("note", value)]
        else:
            found += found_by(key, value)
    return Erased(user, tuple(found), sessions, whole)
