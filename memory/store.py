"""The SQLite connection: pragmas, ordered migrations, one transaction per write."""
from __future__ import annotations

import errno
import os
import sqlite3
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from .migrations import MIGRATIONS


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
