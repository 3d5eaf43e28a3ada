"""What glados keeps outside the database: the log file (what happened, for a bug report; in the data folder,
rotated, private; the words people say go in only with --verbose) and each user's chat history (the lines
typed at `glados chat`, for Up and Ctrl-R; in the state folder, private). Forgetting reaches both (`scrub`)."""
from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import TYPE_CHECKING

from platformdirs import user_data_dir, user_state_dir

if TYPE_CHECKING:
    from memory import Erased

MAX_BYTES = 1_000_000      # one file, then up to three old ones: a few MB at most
BACKUPS = 3
FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


def log_file() -> Path:
    return Path(user_data_dir("glados", appauthor=False)) / "glados.log"


def setup(verbose: bool, long_running: bool = False) -> Path | None:
    """Log to the data folder (INFO; DEBUG with the user's words when verbose). None when the
    folder cannot be written: logging is a help, never a reason to fail.

    A command that runs for hours (the voice loop, the chat, the servers) rolls the file over whenever it
    fills; a short one writes a line or two, so the file is rolled over at its start when full, and the
    rotating handler (it loads sockets and queues: 4 ms of every start) loads only then."""
    path = log_file()
    try:
        if not path.parent.exists():     # the data folder holds the memories too: private (0700)
            path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            os.chmod(path.parent, 0o700)
        if not path.exists():
            os.close(os.open(path, os.O_CREAT | os.O_WRONLY, 0o600))
        if long_running or path.stat().st_size >= MAX_BYTES:
            from logging.handlers import RotatingFileHandler
            handler = RotatingFileHandler(path, maxBytes=MAX_BYTES, backupCount=BACKUPS, encoding="utf-8")
            if not long_running:
                handler.doRollover()
                os.chmod(path, 0o600)       # the fresh file, private like the first
        else:
            handler = logging.FileHandler(path, encoding="utf-8")
    except OSError:
        # no log: and no stray copy of each line on stderr either (Python's last-resort handler would print
        # every warning there, beside the one line the command already says)
        quiet = logging.getLogger("glados")
        quiet.handlers[:] = [logging.NullHandler()]
        quiet.propagate = False
        return None
    handler.setFormatter(logging.Formatter(FORMAT))
    root = logging.getLogger("glados")
    root.handlers[:] = [handler]
    root.setLevel(logging.DEBUG if verbose else logging.INFO)
    root.propagate = False
    return path


def log_files() -> list[Path]:
    """The log file and its rolled-over copies that exist."""
    first = log_file()
    return [p for p in (first, *(first.with_name(f"{first.name}.{n}") for n in range(1, BACKUPS + 1))) if p.exists()]


def history_file(user: str) -> Path:
    """The user's chat history: one file per user (a name made safe for a file name), in the state folder."""
    import hashlib
    safe = "".join(c if c.isalnum() or c in "-_" else "_" for c in user)[:40]
    digest = hashlib.sha256(user.encode("utf-8", "surrogatepass")).hexdigest()[:8]
    return Path(user_state_dir("glados", appauthor=False)) / "chat-history" / f"{safe}-{digest}"


def private_file(path: Path) -> Path:
    """Make sure `path` exists, readable by its owner only (0600), in a folder only they can enter (0700)."""
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    os.chmod(path.parent, 0o700)
    os.close(os.open(path, os.O_CREAT | os.O_WRONLY | os.O_APPEND, 0o600))
    os.chmod(path, 0o600)
    return path


def scrub(erased: "Erased") -> None:
    """Take what was forgotten out of every log file and the user's chat history, in place (the log's handler
    appends, so it writes on after the shorter text): each saying of a value replaced, a line about a cleared
    user's session dropped; a cleared user's history deleted. Words reach the log only with --verbose; this
    runs after every erasure all the same, since nobody can tell from here whether an earlier run had it on."""
    history = history_file(erased.user)
    if erased.whole:
        try:
            history.unlink(missing_ok=True)
        except OSError as exc:
            logging.getLogger("glados").warning("could not delete the chat history: %s", exc)
    for path in [*log_files(), *([history] if history.exists() else [])]:
        try:
            with open(path, "r+", encoding="utf-8", errors="surrogateescape") as f:
                lines = f.read().splitlines(keepends=True)
                kept = [new for new in (erased.scrub(line) for line in lines) if new is not None]
                if kept != lines:
                    f.seek(0)
                    f.write("".join(kept))
                    f.truncate()
        except OSError as exc:
            logging.getLogger("glados").warning("could not scrub %s: %s", path.name, exc)
