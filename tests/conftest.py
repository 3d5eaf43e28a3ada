"""Every test runs with its own home, data folder and database under tmp_path."""
from __future__ import annotations

import os
import subprocess
import sys
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from memory import Memory

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True)
def isolated_home(tmp_path, monkeypatch):
    """Never touch the real home folder: HOME, XDG folders and the database point into tmp_path."""
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_DATA_HOME", str(home / ".local" / "share"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(home / ".cache"))
    monkeypatch.setenv("GLADOS_DB", str(tmp_path / "memory.db"))
    for name in ("GLADOS_CONFIG", "GLADOS_USER", "OLLAMA_HOST", "OLLAMA_MODEL", "MEMORY_WINDOW"):
        monkeypatch.delenv(name, raising=False)
    return home


class FakeClock:
    """A clock the test moves by hand, so point-in-time questions have exact answers."""

    def __init__(self, start: datetime = datetime(2026, 1, 1, 12, 0, tzinfo=timezone.utc)):
        self.now = start

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **kwargs) -> datetime:
        self.now += timedelta(**kwargs)
        return self.now


@pytest.fixture
def clock():
    return FakeClock()


@pytest.fixture
def mem(tmp_path, clock):
    with Memory(tmp_path / "memory.db", clock=clock) as memory:
        yield memory


def glados(*args: str, input: str | None = None, env: dict | None = None, timeout: float = 60):
    """Run the real `glados` CLI in a separate process."""
    return subprocess.run([sys.executable, "-m", "assistant.cli", *args], input=input, capture_output=True,
                          text=True, timeout=timeout, cwd=ROOT, env={**os.environ, **(env or {})})
