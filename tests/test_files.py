"""The database file is private, a wider one is reported, and a read-only one can still be read."""
import os
import stat

from memory import Memory, ReadOnlyDatabase
from tests.conftest import glados


def mode(path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


def test_a_new_database_and_its_folder_are_private(tmp_path):
    db = tmp_path / "new" / "folder" / "memory.db"
    with Memory(db) as mem:
        mem.observe("ada", "I'm allergic to peanuts")
        assert mode(db) == 0o600 and mode(db.parent) == 0o700
        wal = db.with_name(db.name + "-wal")
        assert wal.exists() and mode(wal) == 0o600


def test_a_database_others_can_read_gets_a_one_line_warning(tmp_path):
    db = tmp_path / "memory.db"
    Memory(db).close()
    os.chmod(db, 0o644)
    result = glados("memory", "list", "--db", str(db))
    assert result.returncode == 0
    assert result.stderr.count("\n") == 1 and "can be read by other users" in result.stderr and "chmod 600" in result.stderr


def test_a_read_only_database_is_read_and_refuses_writes_in_one_line(tmp_path):
    folder = tmp_path / "backup"
    db = folder / "memory.db"
    with Memory(db) as mem:
        mem.observe("ada", "I live in Leeds")
    os.chmod(db, 0o400)
    os.chmod(folder, 0o500)
    try:
        listed = glados("memory", "list", "--db", str(db), "--user", "ada")
        assert listed.returncode == 0 and "Leeds" in listed.stdout, listed.stderr
        wrote = glados("memory", "observe", "I live in York", "--db", str(db), "--user", "ada")
        assert wrote.returncode == 1 and wrote.stderr.count("\n") == 1 and "read-only" in wrote.stderr
        with Memory(db) as mem:
            assert mem.read_only and [f.value for f in mem.facts("ada")] == ["Leeds"]
            try:
                mem.observe("ada", "I live in York")
                raise AssertionError("a read-only database took a write")
            except ReadOnlyDatabase:
                pass
    finally:
        os.chmod(folder, 0o700)
        os.chmod(db, 0o600)


def test_a_private_log_in_the_data_folder_with_words_only_when_verbose(isolated_home):
    from tests.test_chat_ollama import free_port
    log = isolated_home / ".local" / "share" / "glados" / "glados.log"
    glados("memory", "observe", "I live in Leeds")
    glados("memory", "forget", "zzzz")
    text = log.read_text()
    assert "memory observe" in text and "NotFound" in text and "Leeds" not in text
    assert mode(log) == 0o600
    down = {"OLLAMA_HOST": f"http://127.0.0.1:{free_port()}"}
    glados("chat", input="my cat is called Biscuit\n", env=down)
    assert "Biscuit" not in log.read_text()
    glados("chat", "--verbose", input="my cat is called Biscuit\n", env=down)
    assert "Biscuit" in log.read_text()


def test_a_full_log_is_rolled_over_by_the_next_command_and_stays_private(isolated_home):
    from assistant.logs import MAX_BYTES
    log = isolated_home / ".local" / "share" / "glados" / "glados.log"
    log.parent.mkdir(parents=True, mode=0o700)
    log.write_text("x" * MAX_BYTES)
    os.chmod(log, 0o600)
    glados("memory", "list")
    old = log.with_name("glados.log.1")
    assert old.stat().st_size == MAX_BYTES and "memory list" in log.read_text()
    assert log.stat().st_size < 1000 and mode(log) == 0o600 and mode(old) == 0o600
