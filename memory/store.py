"""The SQLite connection: pragmas, ordered migrations, one transaction per write."""
from __future__ import annotations

import errno
import os
import sqlite3
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator


class MemoryStoreError(Exception):
    """Base class for memory errors that the CLI turns into one line."""


class CorruptDatabase(MemoryStoreError):
    """The file exists but is not a readable SQLite memory database."""


class NoMemoryYet(MemoryStoreError):
    """A reading command was pointed at a database file that does not exist (nothing is created)."""


class UnusablePath(MemoryStoreError):
    """The database path cannot hold a file: a file where a folder should be, a folder that cannot be made."""


class ReadOnlyDatabase(MemoryStoreError):
    """A write to a database that could only be opened for reading."""


class Connection(sqlite3.Connection):
    """sqlite3's connection, knowing its file and whether it may write."""
    path: Path
    read_only: bool = False


_M001_CORE = """
        CREATE TABLE messages (
            id INTEGER PRIMARY KEY,
            user TEXT NOT NULL,
            session TEXT NOT NULL,
            role TEXT NOT NULL CHECK (role IN ('user', 'assistant')),
            text TEXT NOT NULL,
            tokens INTEGER NOT NULL DEFAULT 0,
            created_at TEXT NOT NULL
        );
        CREATE INDEX messages_user_session ON messages(user, session, id);

        -- External-content FTS5: the text lives once, in messages; triggers keep the index exact.
        CREATE VIRTUAL TABLE messages_fts USING fts5(
            text, content='messages', content_rowid='id', tokenize='unicode61 remove_diacritics 2'
        );
        CREATE TRIGGER messages_ai AFTER INSERT ON messages BEGIN
            INSERT INTO messages_fts(rowid, text) VALUES (new.id, new.text);
        END;
        CREATE TRIGGER messages_ad AFTER DELETE ON messages BEGIN
            INSERT INTO messages_fts(messages_fts, rowid, text) VALUES ('delete', old.id, old.text);
        END;
        CREATE TRIGGER messages_au AFTER UPDATE OF text ON messages BEGIN
            INSERT INTO messages_fts(messages_fts, rowid, text) VALUES ('delete', old.id, old.text);
            INSERT INTO messages_fts(rowid, text) VALUES (new.id, new.text);
        END;

        CREATE TABLE facts (
            seq INTEGER PRIMARY KEY,
            id TEXT NOT NULL UNIQUE,
            user TEXT NOT NULL,
            key TEXT NOT NULL,
            value TEXT NOT NULL,
            value_norm TEXT NOT NULL,
            source TEXT NOT NULL DEFAULT '',
            source_message_id INTEGER REFERENCES messages(id) ON DELETE SET NULL,
            asserted_at TEXT NOT NULL,
            valid_from TEXT NOT NULL,
            valid_to TEXT,
            ended_by TEXT CHECK (ended_by IN ('superseded', 'retracted')),
            confirmed_at TEXT NOT NULL,
            confirmations INTEGER NOT NULL DEFAULT 1,
            pinned INTEGER NOT NULL DEFAULT 0
        );
        CREATE INDEX facts_current ON facts(user, valid_to, key);
        CREATE INDEX facts_newest ON facts(user, pinned, seq) WHERE valid_to IS NULL;
        CREATE INDEX facts_key ON facts(user, key, value_norm);

        CREATE VIRTUAL TABLE facts_fts USING fts5(
            value, content='facts', content_rowid='seq', tokenize='unicode61 remove_diacritics 2'
        );
        CREATE TRIGGER facts_ai AFTER INSERT ON facts BEGIN
            INSERT INTO facts_fts(rowid, value) VALUES (new.seq, new.value);
        END;
        CREATE TRIGGER facts_ad AFTER DELETE ON facts BEGIN
            INSERT INTO facts_fts(facts_fts, rowid, value) VALUES ('delete', old.seq, old.value);
        END;

        CREATE TABLE summaries (
            id INTEGER PRIMARY KEY,
            user TEXT NOT NULL,
            session TEXT NOT NULL,
            text TEXT NOT NULL,
            created_at TEXT NOT NULL,
            UNIQUE (user, session)
        );
        -- Summaries are append-only: the one update allowed is forget's redaction.
        CREATE TRIGGER summaries_no_update BEFORE UPDATE ON summaries
        WHEN instr(new.text, '[forgotten]') = 0 BEGIN
            SELECT RAISE(ABORT, 'summaries are append-only');
        END;
"""


_M002_INTERRUPTED = """
-- A reply cut short (Ctrl-C, barge-in) is kept as said, and marked.
ALTER TABLE messages ADD COLUMN interrupted INTEGER NOT NULL DEFAULT 0;
"""


_M003_ORIGIN = """
-- Who read a fact out of the user's words: the rules ('user') or a language model ('model', named).
ALTER TABLE facts ADD COLUMN origin TEXT NOT NULL DEFAULT 'user';
ALTER TABLE facts ADD COLUMN origin_model TEXT;
"""


_M004_RECALL = """
-- Recall by stems ("expires" finds "expire", "parked" finds "park"): the word indexes are rebuilt
-- with the porter stemmer over unicode61.
DROP TRIGGER messages_ai;
DROP TRIGGER messages_ad;
DROP TRIGGER messages_au;
DROP TABLE messages_fts;
CREATE VIRTUAL TABLE messages_fts USING fts5(
    text, content='messages', content_rowid='id', tokenize='porter unicode61 remove_diacritics 2'
);
INSERT INTO messages_fts(messages_fts) VALUES ('rebuild');
CREATE TRIGGER messages_ai AFTER INSERT ON messages BEGIN
    INSERT INTO messages_fts(rowid, text) VALUES (new.id, new.text);
END;
CREATE TRIGGER messages_ad AFTER DELETE ON messages BEGIN
    INSERT INTO messages_fts(messages_fts, rowid, text) VALUES ('delete', old.id, old.text);
    DELETE FROM message_vectors WHERE message_id = old.id;
END;
CREATE TRIGGER messages_au AFTER UPDATE OF text ON messages BEGIN
    INSERT INTO messages_fts(messages_fts, rowid, text) VALUES ('delete', old.id, old.text);
    INSERT INTO messages_fts(rowid, text) VALUES (new.id, new.text);
    -- a redacted message's vector still encodes what was said: it goes, and is made again from the new text
    DELETE FROM message_vectors WHERE message_id = old.id;
END;
DROP TRIGGER facts_ai;
DROP TRIGGER facts_ad;
DROP TABLE facts_fts;
CREATE VIRTUAL TABLE facts_fts USING fts5(
    value, content='facts', content_rowid='seq', tokenize='porter unicode61 remove_diacritics 2'
);
INSERT INTO facts_fts(facts_fts) VALUES ('rebuild');
CREATE TRIGGER facts_ai AFTER INSERT ON facts BEGIN
    INSERT INTO facts_fts(rowid, value) VALUES (new.seq, new.value);
END;
CREATE TRIGGER facts_ad AFTER DELETE ON facts BEGIN
    INSERT INTO facts_fts(facts_fts, rowid, value) VALUES ('delete', old.seq, old.value);
END;
CREATE TRIGGER facts_au AFTER UPDATE OF value ON facts BEGIN
    INSERT INTO facts_fts(facts_fts, rowid, value) VALUES ('delete', old.seq, old.value);
    INSERT INTO facts_fts(rowid, value) VALUES (new.seq, new.value);
END;

CREATE INDEX facts_source ON facts(source_message_id) WHERE source_message_id IS NOT NULL;

-- What a message is about, for decay: health and identity never fade, a passing state fades in days.
ALTER TABLE messages ADD COLUMN kind TEXT NOT NULL DEFAULT 'other';
UPDATE messages SET kind = 'reply' WHERE role = 'assistant';
UPDATE messages SET kind = 'likes' WHERE id IN (SELECT source_message_id FROM facts
    WHERE key IN ('likes', 'dislikes', 'pet') OR key LIKE 'favorite%');
UPDATE messages SET kind = 'identity' WHERE id IN (SELECT source_message_id FROM facts
    WHERE key IN ('name', 'location', 'hometown', 'employer', 'job', 'birthday', 'age', 'partner', 'language'));
UPDATE messages SET kind = 'health' WHERE id IN (SELECT source_message_id FROM facts
    WHERE key IN ('allergy', 'diet', 'medical'));

-- One vector per user message (recall by meaning). seq is never reused, so a process holding
-- vectors in memory can tell new rows (seq above its newest) from deleted ones (the count drops).
CREATE TABLE message_vectors (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    message_id INTEGER NOT NULL UNIQUE REFERENCES messages(id) ON DELETE CASCADE,
    user TEXT NOT NULL,
    model TEXT NOT NULL,
    vector BLOB NOT NULL
);
CREATE INDEX message_vectors_user ON message_vectors(user, seq);
CREATE TABLE vector_counts (user TEXT PRIMARY KEY, rows INTEGER NOT NULL, newest INTEGER NOT NULL);
CREATE TRIGGER message_vectors_ai AFTER INSERT ON message_vectors BEGIN
    INSERT INTO vector_counts VALUES (new.user, 1, new.seq)
    ON CONFLICT (user) DO UPDATE SET rows = rows + 1, newest = new.seq;
END;
CREATE TRIGGER message_vectors_ad AFTER DELETE ON message_vectors BEGIN
    UPDATE vector_counts SET rows = rows - 1 WHERE user = old.user;
END;
"""


_M005_CROWDING = """
-- The cosines of each message's nearest neighbours among the same user's messages (NEIGHBOURS
-- float16s, kept up to date as messages arrive): how much it sounds like everyday chatter.
ALTER TABLE message_vectors ADD COLUMN neighbours BLOB;
"""


_M006_PINS = """
-- Pinned by the user ("always remember that ...", "pin that", glados memory pin): kept in the memory
-- block like an allergy, carried to the new value when a single-valued fact is superseded.
ALTER TABLE facts ADD COLUMN user_pinned INTEGER NOT NULL DEFAULT 0;
"""


_M007_VOICEPRINTS = """
-- A household member's voice (glados speakers enroll): the mean of their utterances' speaker embeddings
-- (float32s) and how many utterances it averages. Private like everything else; cleared with the user.
CREATE TABLE voiceprints (
    user TEXT PRIMARY KEY,
    vector BLOB NOT NULL,
    utterances INTEGER NOT NULL CHECK (utterances > 0),
    model TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
"""


_M008_PARTS = """
-- The vectors of a message's sentences (float16, several rows of 384), when it has more than one;
-- empty for one sentence; NULL for a vector made before sentences were read (indexing reads it again).
-- Recall scores a message by its best sentence too. Same row as the message's vector, so it goes
-- wherever that goes (a forget, a redaction, clearing the user).
ALTER TABLE message_vectors ADD COLUMN parts BLOB;
"""


_M009_ANSWERS = """
-- An answer to her question is also read after it (its parts hold that reading, see embed.answered),
-- so a vector may carry the words of her message just before: deleting or redacting hers deletes
-- that vector too, and the next indexing makes it again from what is left.
DROP TRIGGER messages_ad;
DROP TRIGGER messages_au;
CREATE TRIGGER messages_ad AFTER DELETE ON messages BEGIN
    INSERT INTO messages_fts(messages_fts, rowid, text) VALUES ('delete', old.id, old.text);
    DELETE FROM message_vectors WHERE message_id = old.id;
    DELETE FROM message_vectors WHERE old.role = 'assistant' AND message_id = (SELECT id FROM messages
        WHERE user = old.user AND session IS old.session AND id > old.id ORDER BY id LIMIT 1);
END;
CREATE TRIGGER messages_au AFTER UPDATE OF text ON messages BEGIN
    INSERT INTO messages_fts(messages_fts, rowid, text) VALUES ('delete', old.id, old.text);
    INSERT INTO messages_fts(rowid, text) VALUES (new.id, new.text);
    -- a redacted message's vector still encodes what was said: it goes, and is made again from the new text
    DELETE FROM message_vectors WHERE message_id = old.id;
    DELETE FROM message_vectors WHERE old.role = 'assistant' AND message_id = (SELECT id FROM messages
        WHERE user = old.user AND session IS old.session AND id > old.id ORDER BY id LIMIT 1);
END;
-- Answers indexed before are read again at the next indexing.
UPDATE message_vectors SET parts = NULL WHERE message_id IN (SELECT m.id FROM messages m WHERE m.role = 'user'
    AND (SELECT p.role = 'assistant' AND rtrim(p.text, ' ' || char(9, 10, 13)) LIKE '%?' FROM messages p
         WHERE p.user = m.user AND p.session IS m.session AND p.id < m.id ORDER BY p.id DESC LIMIT 1));
"""


_M010_BLOCK_CHANGES = """
-- Which user's facts or summaries changed last: the memory block is built again only after a change
-- (or when a fact in it expires). A new seq on every change (AUTOINCREMENT never reuses one, not even
-- after the user is cleared), so a process holding a block can tell it is stale, whoever wrote.
-- Delete and insert, not INSERT OR REPLACE: a statement's own conflict clause (INSERT OR IGNORE of a
-- summary) would override the trigger's.
CREATE TABLE block_changes (seq INTEGER PRIMARY KEY AUTOINCREMENT, user TEXT NOT NULL UNIQUE);
""" + "".join(f"""CREATE TRIGGER {table}_block_{name} AFTER {event} ON {table} BEGIN
    DELETE FROM block_changes WHERE user = {row}.user;
    INSERT INTO block_changes (user) VALUES ({row}.user);
END;
""" for table in ("facts", "summaries") for name, event, row in (("ai", "INSERT", "new"), ("au", "UPDATE", "new"),
                                                                ("ad", "DELETE", "old")))


_M011_PARTED = """
-- The messages with further readings (sentences, an answer read after her question): a recall reads
-- its candidates' by this index (VectorIndex.best_parts), so one without any costs a probe of it, not
-- a read of its row (a third to a half of the time at 100,000 messages).
CREATE INDEX message_vectors_parted ON message_vectors(message_id) WHERE length(parts) > 0;
"""

_M012_TOLD_AGAIN = """
-- A fact told again (only confirmed_at and confirmations move) leaves the memory block as it was, so
-- it no longer counts as a change of it: "I'm allergic to peanuts" said again is not a new block. Any
-- other column set still is; a column added to facts later must be added to this list.
DROP TRIGGER facts_block_au;
CREATE TRIGGER facts_block_au AFTER UPDATE OF seq, id, user, key, value, value_norm, source, source_message_id,
        asserted_at, valid_from, valid_to, ended_by, pinned, origin, origin_model, user_pinned ON facts BEGIN
    DELETE FROM block_changes WHERE user = new.user;
    INSERT INTO block_changes (user) VALUES (new.user);
END;
"""

_M013_SUMMARY_CUT = """
-- Forgetting a value takes out the summary sentences that stated it (shorter text, no marker left):
-- still the one update allowed, besides redaction. A summary with nothing left is deleted.
DROP TRIGGER summaries_no_update;
CREATE TRIGGER summaries_no_update BEFORE UPDATE ON summaries
WHEN instr(new.text, '[forgotten]') = 0 AND length(new.text) >= length(old.text) BEGIN
    SELECT RAISE(ABORT, 'summaries are append-only');
END;
"""

_M014_IMPORTANCE = """
-- How much a fact matters, as a client said (dnhkng/GLaDOS's store_fact importance, 0-1); NULL: unsaid (a
-- pinned fact counts as 1, any other as 0.5). The memory block does not show it, but a write to it renews the
-- block like any other column but confirmations (012_told_again's list, with importance).
ALTER TABLE facts ADD COLUMN importance REAL CHECK (importance IS NULL OR importance BETWEEN 0 AND 1);
-- Where a client said the fact came from (GLaDOS's "user", "conversation", "system"); NULL: unsaid.
ALTER TABLE facts ADD COLUMN client_source TEXT;
DROP TRIGGER facts_block_au;
CREATE TRIGGER facts_block_au AFTER UPDATE OF seq, id, user, key, value, value_norm, source, source_message_id,
        asserted_at, valid_from, valid_to, ended_by, pinned, origin, origin_model, user_pinned, importance,
        client_source ON facts BEGIN
    DELETE FROM block_changes WHERE user = new.user;
    INSERT INTO block_changes (user) VALUES (new.user);
END;
"""

_M015_STATE_SAID_IN_PASSING = """
-- A passing state is what a message is about, not a feeling said in passing in one that says more (kinds.kind_of):
-- a long message kept as "state" left recall after a day with what else it said. Those over 200 characters are
-- read again as "other" (the new rule reads sentences; a state alone is said briefly).
UPDATE messages SET kind = 'other' WHERE kind = 'state' AND length(text) > 200;
"""

# Ordered; each runs once, in its own transaction, and is recorded in `migrations`.
MIGRATIONS: list[tuple[str, str]] = [
    ("001_core", _M001_CORE),
    ("002_interrupted", _M002_INTERRUPTED),
    ("003_origin", _M003_ORIGIN),
    ("004_recall", _M004_RECALL),
    ("005_crowding", _M005_CROWDING),
    ("006_pins", _M006_PINS),
    ("007_voiceprints", _M007_VOICEPRINTS),
    ("008_parts", _M008_PARTS),
    ("009_answers", _M009_ANSWERS),
    ("010_block_changes", _M010_BLOCK_CHANGES),
    ("011_parted", _M011_PARTED),
    ("012_told_again", _M012_TOLD_AGAIN),
    ("013_summary_cut", _M013_SUMMARY_CUT),
    ("014_importance", _M014_IMPORTANCE),
    ("015_state_said_in_passing", _M015_STATE_SAID_IN_PASSING),
]


def connect(path: str | Path, busy_timeout_ms: int = 5000, create: bool = True) -> Connection:
    """Open (creating if needed) the memory database and bring its schema up to date. The file and
    a folder made for it are private to the user (0600 / 0700). A file that cannot be written (a
    backup on a read-only mount) opens read-only: reading works, a write raises ReadOnlyDatabase.
    create=False: a missing file raises NoMemoryYet and nothing is made (for reading commands)."""
    path = Path(path)
    in_memory = str(path) == ":memory:"
    if path.exists() and path.is_dir():
        raise CorruptDatabase(f"{path} is a folder, not a database file; pass --db with a file path")
    if not create and not in_memory and not path.exists():
        raise NoMemoryYet(f"no memory yet at {path}: nothing has been stored there, and nothing was created")
    _check_header(path)
    read_only = path.exists() and not _writable(path)
    if not read_only and not in_memory:
        try:
            _create_private(path)
        except OSError as exc:
            raise UnusablePath(f"cannot make the memory database {path} ({exc.strerror or exc}); "
                               "pass --db (or set GLADOS_DB) with a file in a folder you can write") from exc
    # isolation_level=None: we open transactions ourselves, so each write is exactly one.
    target = _read_only_uri(path) if read_only else str(path)
    try:
        db = sqlite3.connect(target, isolation_level=None, timeout=busy_timeout_ms / 1000,
                             check_same_thread=False, factory=Connection, uri=read_only)
    except sqlite3.OperationalError as exc:
        raise UnusablePath(f"cannot open the memory database {path} ({exc}); "
                           "pass --db (or set GLADOS_DB) with a file you can read") from exc
    db.path, db.read_only = path, read_only
    db.row_factory = sqlite3.Row
    try:
        db.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
        if not read_only:
            _use_wal(db, busy_timeout_ms)
            db.execute("PRAGMA synchronous = NORMAL")
        db.execute("PRAGMA foreign_keys = ON")
        # Up to 64 MiB of pages kept (SQLite's default: 2 MiB; a page is held only once read): at 100,000
        # messages each question's recall reads pages all over the word index and the messages, and with
        # the default one question's evict the last one's (docs/benchmarks.md: a turn's p95 5.8 -> 5.1 ms)
        db.execute("PRAGMA cache_size = -65536")
        # Deleted content is overwritten with zeros, so "forget" leaves no bytes behind.
        db.execute("PRAGMA secure_delete = ON")
        if read_only:
            _check_migrated(db)
        else:
            _migrate(db)
    except sqlite3.DatabaseError as exc:
        db.close()
        raise CorruptDatabase(
            f"{path} is not a usable memory database ({exc}); move it aside or pass another --db"
        ) from exc
    return db


def _use_wal(db: sqlite3.Connection, busy_timeout_ms: int) -> None:
    """Switch a file to WAL. On a new file, processes racing to switch it can get "database is locked"
    at once, without SQLite waiting on the busy timeout, so wait here, within the same timeout."""
    deadline = time.monotonic() + busy_timeout_ms / 1000
    pause = 0.005
    while True:
        try:
            db.execute("PRAGMA journal_mode = WAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() > deadline:
                raise
            time.sleep(pause)
            pause = min(pause * 2, 0.1)


def _writable(path: Path) -> bool:
    """The file can be written, and so can its folder (SQLite writes a WAL beside it). The mode's
    write bits count too: a file made read-only on purpose stays so even for root."""
    return all(os.access(p, os.W_OK) and p.stat().st_mode & 0o222 for p in (path, path.parent))


def _read_only_uri(path: Path) -> str:
    # immutable: nobody can change a file we cannot write either, and SQLite then needs no -shm file
    return f"{path.resolve().as_uri()}?mode=ro&immutable=1"


def _create_private(path: Path) -> None:
    """A new folder 0700 and a new file 0600: memories are nobody else's business."""
    blocker = next((p for p in path.parents if p.exists() or p.is_symlink()), None)
    if blocker is not None and not blocker.is_dir():
        raise NotADirectoryError(errno.ENOTDIR, f"{blocker} is a file, not a folder")
    if not path.parent.exists():
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        os.chmod(path.parent, 0o700)     # whatever the umask
    if not path.exists():
        try:
            os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
        except FileExistsError:
            pass      # another process made it first; it made it private too


def exposure(path: Path) -> str | None:
    """A one-line warning when others can read the database or enter its folder, else None."""
    try:
        file_mode, folder_mode = path.stat().st_mode, path.parent.stat().st_mode
    except OSError:
        return None
    if file_mode & 0o077:
        return (f"{path} can be read by other users (mode {oct(file_mode & 0o777)[2:]}); "
                f"make it private with: chmod 600 {path}")
    if folder_mode & 0o077 and not path.parent == Path.home():
        return (f"the folder of {path} is open to other users (mode {oct(folder_mode & 0o777)[2:]}); "
                f"consider: chmod 700 {path.parent}")
    return None


def _check_migrated(db: Connection) -> None:
    have = {r[0] for r in db.execute("SELECT name FROM migrations")}
    missing = [name for name, _ in MIGRATIONS if name not in have]
    if missing:
        raise ReadOnlyDatabase(f"{db.path} is read-only and from an older version (needs {', '.join(missing)}); "
                               "copy it somewhere writable to open it")


def _check_header(path: Path) -> None:
    """Refuse a non-SQLite file before SQLite gets a chance to touch it."""
    if not path.exists() or path.stat().st_size == 0:
        return
    with path.open("rb") as fh:
        head = fh.read(16)
    if head != b"SQLite format 3\x00":
        raise CorruptDatabase(
            f"{path} is not an SQLite database; it was left untouched. Move it aside or pass another --db"
        )


def _migrate(db: sqlite3.Connection) -> None:
    db.execute("CREATE TABLE IF NOT EXISTS migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)")
    for name, script in MIGRATIONS:
        # Checked again inside the write lock: two processes opening a new file at once must not
        # both run the same migration.
        with transaction(db):
            if db.execute("SELECT 1 FROM migrations WHERE name = ?", (name,)).fetchone():
                continue
            for statement in _statements(script):
                db.execute(statement)
            db.execute("INSERT INTO migrations VALUES (?, datetime('now'))", (name,))


def _statements(script: str):
    """Split a script into whole statements (triggers keep their inner semicolons)."""
    buffer = ""
    for line in script.splitlines(keepends=True):
        buffer += line
        if sqlite3.complete_statement(buffer):
            code = "\n".join(l for l in buffer.splitlines() if not l.strip().startswith("--")).strip()
            if code:
                yield code
            buffer = ""


class WriteFailed(MemoryStoreError):
    """A write SQLite could not finish (disk full, I/O error, busy); nothing of it was kept."""


def _why_write_failed(db: sqlite3.Connection, exc: sqlite3.Error) -> WriteFailed:
    where = getattr(db, "path", "the memory database")
    text = str(exc).lower()
    if "full" in text:
        why = f"the disk holding {where} is full"
    elif "locked" in text or "busy" in text:
        why = f"{where} is busy (another glados is writing and did not finish in time)"
    else:
        why = f"{where} could not be written ({exc})"
    return WriteFailed(f"{why}: nothing from this was saved; free some space or try again")


@contextmanager
def transaction(db: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """BEGIN IMMEDIATE ... COMMIT, rolled back on any error. A write SQLite cannot finish (a full
    disk) becomes WriteFailed, with the database as it was before."""
    if getattr(db, "read_only", False):
        raise ReadOnlyDatabase(f"{db.path} is read-only (a read-only file or folder); reading works, but to change "
                               "it, copy it somewhere writable and pass --db")
    try:
        db.execute("BEGIN IMMEDIATE")
    except sqlite3.OperationalError as exc:
        raise _why_write_failed(db, exc) from exc
    try:
        yield db
        db.execute("COMMIT")
    except BaseException as exc:
        if db.in_transaction:
            try:
                db.execute("ROLLBACK")
            except sqlite3.Error:
                pass      # SQLite already rolled back (a failed COMMIT on a full disk does)
        if isinstance(exc, sqlite3.OperationalError):
            raise _why_write_failed(db, exc) from exc
        raise


def purge_leftovers(db: sqlite3.Connection) -> None:
    """After a delete: merge FTS segments and checkpoint the WAL so no old copy survives."""
    db.execute("INSERT INTO messages_fts(messages_fts) VALUES ('optimize')")
    db.execute("INSERT INTO facts_fts(facts_fts) VALUES ('optimize')")
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
