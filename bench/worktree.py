"""A baseline commit checked out beside this tree, for a bench that runs the same work on both in one run."""
from __future__ import annotations

import contextlib
import subprocess
import tempfile
from pathlib import Path
from typing import Iterator

ROOT = Path(__file__).resolve().parent.parent


@contextlib.contextmanager
def checked_out(commit: str | None) -> Iterator[Path | None]:
    """`commit` in a temporary git worktree (None: no commit asked, nothing checked out), removed afterwards."""
    if commit is None:
        yield None
        return
    tree = Path(tempfile.mkdtemp(prefix="glados-baseline-"))
    subprocess.run(["git", "worktree", "add", "--detach", str(tree), commit], cwd=ROOT, check=True, capture_output=True)
    try:
        yield tree
    finally:
        subprocess.run(["git", "worktree", "remove", "--force", str(tree)], cwd=ROOT, capture_output=True)
