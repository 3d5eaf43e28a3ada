"""The log file: what happened, for a bug report. In the data folder, rotated, private; the words
people say go in only with --verbose."""
from __future__ import annotations

import logging
import os
from pathlib import Path

from platformdirs import user_data_dir

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
        return None
    handler.setFormatter(logging.Formatter(FORMAT))
    root = logging.getLogger("glados")
    root.handlers[:] = [handler]
    root.setLevel(logging.DEBUG if verbose else logging.INFO)
    root.propagate = False
    return path
