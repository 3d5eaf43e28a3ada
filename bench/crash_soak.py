"""Crash soak and concurrent writers: evidence that an acknowledged write survives a SIGKILL and
that two processes writing at once lose nothing.

    .venv/bin/python bench/crash_soak.py [--kills 1000] [--writes 300]

Crash soak: a writer process logs messages and facts to one database and prints each id once the
write returned (committed); the parent kills it with SIGKILL after a random moment, then checks
that every acknowledged write is there and `PRAGMA integrity_check` says ok, and starts the next
writer on the same file. Concurrency: two processes each write `--writes` messages with facts for
the same user at the same time; every one must be stored, with no "database is locked".
"""
from __future__ import annotations

import argparse
import random
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from rich.console import Console
from rich.progress import Progress
from rich.table import Table

ROOT = Path(__file__).resolve().parent.parent

WRITER = """
import sys
from memory import Memory
mem = Memory(sys.argv[1])
print("ready", flush=True)
i = 0
while True:
    i += 1
    if i % 3 == 0:
        mem.remember("soak", "note", f"note {sys.argv[2]}-{i}")
        print(f"note {sys.argv[2]}-{i}", flush=True)
    else:
        mid = mem.log("soak", "s" + sys.argv[2], "user", f"message {sys.argv[2]}-{i}")
        print(f"message {sys.argv[2]}-{i}", flush=True)
"""

CONCURRENT = """
import sys
from memory import Memory
mem = Memory(sys.argv[1])
for i in range(int(sys.argv[3])):
    mem.observe("shared", f"remember that item {sys.argv[2]}-{i} is in box {i}")
print("done", flush=True)
"""


def soak(db: Path, kills: int, rng: random.Random) -> dict:
    acknowledged: list[str] = []
    failures: list[str] = []
    with Progress(transient=True) as progress:
        task = progress.add_task("SIGKILLing writers", total=kills)
        for n in range(kills):
            proc = subprocess.Popen([sys.executable, "-c", WRITER, str(db), str(n)], cwd=ROOT, text=True,
                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            lines: list[str] = []
            reader = threading.Thread(target=lambda: lines.extend(line.strip() for line in proc.stdout), daemon=True)
            reader.start()
            while not lines and proc.poll() is None:       # wait until it is writing
                time.sleep(0.005)
            time.sleep(rng.uniform(0.0, 0.15))
            proc.kill()
            proc.wait()
            reader.join(timeout=5)
            acked = [line for line in lines if line != "ready"]
            acknowledged += acked
            if proc.returncode not in (-9, 0) and not acked:
                failures.append(f"writer {n} failed: {proc.stderr.read()[-300:]}")
            if n % 50 == 49 or n == kills - 1:
                failures += check(db, acknowledged)
            progress.advance(task)
    return {"kills": kills, "acknowledged writes": len(acknowledged), "failures": failures}


def check(db: Path, acknowledged: list[str]) -> list[str]:
    con = sqlite3.connect(db)
    try:
        integrity = con.execute("PRAGMA integrity_check").fetchone()[0]
        texts = {r[0] for r in con.execute("SELECT text FROM messages")}
        notes = {r[0] for r in con.execute("SELECT value FROM facts WHERE key = 'note'")}
    finally:
        con.close()
    missing = [a for a in acknowledged if (a not in texts and a not in notes)]
    out = [] if integrity == "ok" else [f"integrity_check: {integrity}"]
    return out + [f"acknowledged but missing: {m}" for m in missing[:5]]


def concurrent(db: Path, writes: int) -> dict:
    started = time.perf_counter()
    procs = [subprocess.Popen([sys.executable, "-c", CONCURRENT, str(db), name, str(writes)], cwd=ROOT, text=True,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE) for name in ("a", "b")]
    results = [p.communicate(timeout=600) for p in procs]
    seconds = time.perf_counter() - started
    con = sqlite3.connect(db)
    notes = con.execute("SELECT count(*) FROM facts WHERE user = 'shared' AND key = 'note'").fetchone()[0]
    messages = con.execute("SELECT count(*) FROM messages WHERE user = 'shared'").fetchone()[0]
    con.close()
    errors = [err.strip().splitlines()[-1] for _, err in results if err.strip()]
    return {"writes": 2 * writes, "messages stored": messages, "notes stored": notes, "seconds": seconds,
            "errors": errors}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=1000)
    parser.add_argument("--writes", type=int, default=300)
    args = parser.parse_args()
    console = Console()
    rng = random.Random(20261130)
    with tempfile.TemporaryDirectory() as tmp:
        crash = soak(Path(tmp) / "soak.db", args.kills, rng)
        both = concurrent(Path(tmp) / "shared.db", args.writes)
    table = Table(title="crash soak: SIGKILL at a random moment, then check")
    for col in ("kills", "acknowledged writes", "lost", "integrity"):
        table.add_column(col, justify="right")
    lost = [f for f in crash["failures"] if "missing" in f]
    bad = [f for f in crash["failures"] if "integrity" in f]
    table.add_row(str(crash["kills"]), str(crash["acknowledged writes"]), str(len(lost)), "ok" if not bad else bad[0])
    console.print(table)
    table = Table(title="two processes writing to one user at once")
    for col in ("writes", "messages stored", "notes stored", "seconds", "errors"):
        table.add_column(col, justify="right")
    table.add_row(str(both["writes"]), str(both["messages stored"]), str(both["notes stored"]),
                  f"{both['seconds']:.1f}", str(len(both["errors"])) + (f" ({both['errors'][0]})" if both["errors"] else ""))
    console.print(table)
    for failure in crash["failures"]:
        console.print(f"  {failure}", markup=False)
    return 1 if crash["failures"] or both["errors"] or both["notes stored"] != both["writes"] else 0


if __name__ == "__main__":
    sys.exit(main())
