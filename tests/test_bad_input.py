"""Bad input gets stored safely or refused with a clear error; nothing is lost or overwritten."""
import json
import sqlite3
import time

import pytest

import subprocess
import sys

from memory import CorruptDatabase, Memory, Recalled, TooLong, mine
from memory.text import clean
from memory.store import MIGRATIONS
from tests.conftest import ROOT, glados

NASTY = [
    "x" * 1_000_000,                                     # a 1 MB utterance
    "I'm allergic to " + "a, " * 200_000,                 # a huge list
    "my name is " + "a" * 500_000,
    "\x00I live in\x00 Paris\x00",                        # NUL bytes
    "I live in \ud800Paris\udfff",                        # lone surrogates
    "'; DROP TABLE facts; -- \" OR 1=1",                 # SQL metacharacters
    'NEAR(" AND OR * ^ ") : col:',                      # FTS5 query syntax
    bytes(range(256)).decode("latin-1") * 100,           # binary noise
    "i " * 100_000 + "live in paris",                    # pathological for the clause splitter
    "(" * 10_000 + "remember that" + ")" * 10_000,
]


# A hang guard, not a speed target (the benchmark has those): parsing takes milliseconds even on
# these; a catastrophic regex would take minutes. 40x headroom for a loaded machine.
HANG_S = 2.0


@pytest.mark.parametrize("text", NASTY, ids=range(len(NASTY)))
def test_nasty_input_is_stored_or_refused_whole_and_mining_stays_bounded(mem, text):
    mem.observe("ada", "the garage code is 4512")
    started = time.process_time()
    mine(text)
    assert time.process_time() - started < HANG_S
    if len(text) > mem.max_message_chars:         # refused with one line, and nothing of it stored
        with pytest.raises(TooLong, match="nothing was stored"):
            mem.observe("ada", text)
        assert mem.db.execute("SELECT count(*) FROM messages").fetchone()[0] == 1
    else:
        obs = mem.observe("ada", text)
        stored = mem.db.execute("SELECT length(text) FROM messages WHERE id = ?", (obs.message_id,)).fetchone()[0]
        assert stored == len(clean(text))                      # the whole message is kept
    hits = mem.recall("ada", text[:200])                   # a nasty query is a query, not an error
    assert isinstance(hits, list) and all(isinstance(h, Recalled) for h in hits)
    assert [h.text for h in mem.recall("ada", "garage code")] == ["the garage code is 4512"]
    mem.load_context("ada")


def test_sql_and_fts_syntax_are_searched_as_words(mem):
    mem.observe("ada", "'; DROP TABLE facts; -- \" OR 1=1")
    mem.observe("ada", 'NEAR(" AND OR * ^ ") : col:')
    assert [h.text for h in mem.recall("ada", "DROP TABLE")] == ["'; DROP TABLE facts; -- \" OR 1=1"]
    assert [h.text for h in mem.recall("ada", 'NEAR(" col')] == ['NEAR(" AND OR * ^ ") : col:']
    mem.remember("ada", "name", "Ada")
    assert [f.value for f in mem.facts("ada")] == ["Ada"]      # the facts table is still there


def test_surrogates_become_replacement_characters_and_controls_go(mem):
    mem.observe("ada", "I live in \ud800Paris\x00\r\nand\tthat's that")
    (text,) = mem.db.execute("SELECT text FROM messages").fetchone()
    assert text == "I live in \ufffdParis\nand\tthat's that"


TERMINAL = "I live in Oslo \033[31mRED\033[0m \033]0;pwned\007 done \x9b2J\u202eevil"


def test_escape_sequences_never_reach_a_terminal_from_the_store(tmp_path):
    observed = glados("memory", "observe", "-", "--user", "ada", input=TERMINAL + "\n")
    assert observed.returncode == 0, observed.stderr
    for args in (["list"], ["list", "--all"], ["recall", "Oslo"], ["summaries"], ["context"], ["export"],
                 ["list", "--json"], ["recall", "Oslo", "--json"]):
        out = glados("memory", *args, "--user", "ada")
        assert out.returncode == 0, (args, out.stderr)
        shown = out.stdout + out.stderr
        assert not any(c in shown for c in "\x1b\x07\x9b\u202e"), args
        assert "\\u001b" not in shown, args           # not even escaped inside JSON: it was never stored
    assert "Oslo RED" in glados("memory", "list", "--user", "ada").stdout


def test_random_bytes_and_a_huge_line_get_one_line_and_store_nothing(tmp_path):
    import random
    noise = bytes(random.Random(7).randrange(256) for _ in range(4096))
    for given in (noise, ("I live in Leeds " * 140_000).encode()):
        result = subprocess.run([sys.executable, "-m", "assistant.cli", "memory", "observe", "-", "--user", "ada"],
                                input=given, capture_output=True, timeout=60, cwd=ROOT)
        assert result.returncode != 0 and result.stdout == b""
        assert result.stderr.decode().count("\n") == 1 and "nothing was stored" in result.stderr.decode()
    exported = glados("memory", "export", "--user", "ada")
    assert exported.returncode != 0 or json.loads(exported.stdout)["messages"] == []


def test_what_recall_prints_per_item_is_bounded(mem):
    mem.observe("ada", "I keep my bike in the shed. " + "It is a long story. " * 900)
    mem.close()
    shown = glados("memory", "recall", "bike shed", "--user", "ada", "--db", str(mem.path))
    assert shown.returncode == 0 and "--json for all" in shown.stdout and len(shown.stdout) < 1000
    whole = json.loads(glados("memory", "recall", "bike shed", "--json", "--user", "ada", "--db", str(mem.path)).stdout)
    assert len(whole[0]["text"]) > 18_000


def test_mining_never_raises_on_noise():
    for text in NASTY:
        assert isinstance(mine(text), list)


def test_a_non_sqlite_file_is_reported_and_left_untouched(tmp_path):
    path = tmp_path / "notes.db"
    path.write_bytes(b"my precious notes, not a database\n" * 10)
    before = path.read_bytes()
    with pytest.raises(CorruptDatabase, match="not an SQLite database"):
        Memory(path)
    assert path.read_bytes() == before
    result = glados("memory", "list", "--db", str(path))
    assert result.returncode == 1
    assert result.stderr.count("\n") == 1 and "not an SQLite database" in result.stderr
    assert path.read_bytes() == before


def test_a_corrupt_sqlite_file_is_reported(tmp_path):
    path = tmp_path / "broken.db"
    with Memory(path) as mem:
        mem.observe("ada", "I live in Paris")
    data = bytearray(path.read_bytes())
    data[100:4096] = b"\xff" * (4096 - 100)              # smash the schema page
    path.write_bytes(bytes(data))
    with pytest.raises(CorruptDatabase):
        Memory(path)


def test_migrations_are_recorded_and_run_once(tmp_path):
    path = tmp_path / "m.db"
    Memory(path).close()
    Memory(path).close()
    rows = sqlite3.connect(path).execute("SELECT name FROM migrations").fetchall()
    assert [name for (name,) in rows] == [name for name, _ in MIGRATIONS]     # each once, in order


def test_summaries_are_append_only(mem):
    assert mem.add_summary("ada", "s1", "first")
    assert not mem.add_summary("ada", "s1", "second")
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        mem.db.execute("UPDATE summaries SET text = 'rewritten'")
    assert [r.text for r in mem.summaries("ada")] == ["first"]


def test_a_full_disk_is_one_clear_error_and_nothing_half_written(mem):
    """SQLite's page limit stands in for a full disk (bench/disk_full.py fills a real tmpfs)."""
    from memory.store import WriteFailed
    mem.observe("ada", "I live in Leeds")
    pages = mem.db.execute("PRAGMA page_count").fetchone()[0]
    mem.db.execute(f"PRAGMA max_page_count = {pages}")
    with pytest.raises(WriteFailed, match="is full: nothing from this was saved"):
        mem.observe("ada", "remember that the big box holds " + "x" * 15_000)
    assert [(f.key, f.value) for f in mem.facts("ada")] == [("location", "Leeds")]
    assert mem.db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    mem.db.execute("PRAGMA max_page_count = 1073741823")
    mem.observe("ada", "I'm allergic to peanuts")          # space again: writing works again
    assert len(mem.facts("ada")) == 2


def test_binary_noise_typed_into_the_chat_is_refused_line_by_line():
    import random
    noise = bytes(random.Random(11).randrange(256) for _ in range(2048)) + b"\nI live in Leeds\n"
    result = subprocess.run([sys.executable, "-m", "assistant.cli", "chat", "--user", "ada"], input=noise,
                            capture_output=True, timeout=120, cwd=ROOT)
    assert result.returncode == 0, result.stderr
    out = result.stdout.decode()
    assert "not UTF-8 text" in out and "\ufffd" not in out
    messages = json.loads(glados("memory", "export", "--user", "ada").stdout)["messages"]
    assert [m["text"] for m in messages if m["role"] == "user"] == ["I live in Leeds"]
