"""The memory file's schema, as ordered migrations: each one a script run once, in one transaction, and
recorded in the migrations table (store._migrate). Never edit one that has shipped; add the next."""

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

_M016_FORGETTINGS = """
-- When something was forgotten, and the key it was under; never the value (the memory page's timeline says
-- "forgotten" there). Cleared with the user.
CREATE TABLE forgettings (
    id INTEGER PRIMARY KEY,
    user TEXT NOT NULL,
    key TEXT NOT NULL,
    at TEXT NOT NULL
);
CREATE INDEX forgettings_user ON forgettings(user, at);
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
    ("016_forgettings", _M016_FORGETTINGS),
]
