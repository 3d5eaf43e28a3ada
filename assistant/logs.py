"""The log file: what happened, for a bug report. In the data folder, rotated, private; the words
people say go in only with --verbose."""
from __future__ import annotations

import logging
import os
from logging.handlers import RotatingFileHandler
from pathlib import Path

from platformdirs import user_data_dir

MAX_BYTES = 1_000_000      # one file, then up to three old ones: a few MB at most
BACKUPS = 3
FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


def log_file() -> Path:
    return Path(user_data_dir("glados", appauthor=False)) / "glados.log"


def setup(verbose: bool) -> Path | None:
    """Log to the data folder (INFO; DEBUG with the user's words when verbose). None when the
    folder cannot be written: logging is a help, never a reason to fail."""
    path = log_file()
    try:
        if not path.parent.exists():     # the data folder holds the memories too: private (0700)
            path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            os.chmod(path.parent, 0o700)
        if not path.exists():
            os.close(os.open(path, os.O_CREAT | os.O_WRONLY, 0o600))
        handler = RotatingFileHandler(path, maxBytes=MAX_BYTES, backupCount=BACKUPS, encoding="utf-8")
    except OSError:
        return None
    handler.setFormatter(logging.Formatter(FORMAT))
    root = logging.getLogger("glados")
    root.handlers[:] = [handler]
    root.setLevel(logging.DEBUG if verbose else logging.INFO)
    root.propagate = False
    return path
