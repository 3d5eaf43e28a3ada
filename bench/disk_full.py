"""A disk that fills up mid-write: one clear line, nothing half-written, a database that opens.

    sudo .venv/bin/python bench/disk_full.py      # needs root to mount a small tmpfs

Mounts a 600 KB tmpfs, writes messages and notes through the CLI until the disk is full, then
checks: the failing command printed one line and exited 1, every acknowledged write is present,
`integrity_check` is ok, and reading and deleting still work. Skips (exit 0) without root.
"""
from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def glados(*args: str, env: dict) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "assistant.cli", *args], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=120)


def main() -> int:
    if os.geteuid() != 0:
        print("disk_full: needs root to mount a tmpfs; skipped")
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        mount = Path(tmp) / "small"
        mount.mkdir()
        subprocess.run(["mount", "-t", "tmpfs", "-o", "size=600k", "tmpfs", str(mount)], check=True)
        try:
            env = {**os.environ, "HOME": tmp, "GLADOS_DB": str(mount / "m.db")}
            acknowledged, failed = [], None
            for i in range(200):
                result = glados("memory", "observe", f"remember that item {i} is " + "x" * 20_000, env=env)
                if result.returncode != 0:
                    failed = result
                    break
                acknowledged.append(f"item {i} is")
            assert failed is not None, "the disk never filled up"
            lines = [l for l in failed.stderr.splitlines() if "warning" not in l]
            print(f"writes before the disk was full: {len(acknowledged)}")
            print(f"the failing write said ({failed.returncode}): {lines}")
            con = sqlite3.connect(mount / "m.db")
            integrity = con.execute("PRAGMA integrity_check").fetchone()[0]
            notes = [r[0] for r in con.execute("SELECT value FROM facts WHERE key = 'note'")]
            con.close()
            missing = [a for a in acknowledged if not any(n.startswith(a) for n in notes)]
            listed = glados("memory", "list", env=env)
            forgot = glados("memory", "forget", "note", "--yes", env=env)
            forgot_lines = [l for l in forgot.stderr.splitlines() if "warning" not in l]
            print(f"integrity_check: {integrity}; acknowledged and missing: {len(missing)}; "
                  f"list afterwards: exit {listed.returncode}; forget afterwards: exit {forgot.returncode} "
                  f"{forgot_lines}")
            # Deleting needs room too (the WAL grows before it shrinks): on a full disk it may fail,
            # but only in one line and without harm.
            ok = (len(lines) == 1 and "full" in lines[0] and failed.returncode == 1 and integrity == "ok"
                  and not missing and listed.returncode == 0 and (forgot.returncode == 0 or len(forgot_lines) == 1))
            print("disk_full: ok" if ok else "disk_full: FAILED")
            return 0 if ok else 1
        finally:
            subprocess.run(["umount", str(mount)], check=False)


if __name__ == "__main__":
    sys.exit(main())
