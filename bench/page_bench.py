"""The memory page's first paint for a person with 100,000 messages, against one with 100, in the same run.

    .venv/bin/python bench/page_bench.py [--messages 100000] [--runs 5]

Each person is built in a fresh file: messages in sessions of 20 (a user's line and her reply), a fact every
50 messages (some superseded, some forgotten), a summary per session. "server" is the whole response of
GET /people/NAME through uvicorn on loopback (what the browser waits for before painting; the page has no
script and fetches nothing else); "first paint" is Chromium's first-contentful-paint for the same page, when
Debian's Chromium is installed. Target: first paint under 200 ms at 100,000 messages.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import httpx  # noqa: E402
from rich.console import Console  # noqa: E402
from rich.table import Table  # noqa: E402

from memory import Memory  # noqa: E402
from memory.store import transaction  # noqa: E402
from tests.browser import chromium, installed, page_served  # noqa: E402
from memory import messages as M  # noqa: E402

CITIES = ("Bath", "Leeds", "York", "Oslo", "Bristol", "Lisbon", "Porto", "Kyoto")
LIKES = ("jazz", "chess", "hiking", "tea", "knots", "maps", "kites", "owls", "moss", "ink", "soup", "dice")


def person(path: Path, user: str, messages: int) -> Memory:
    mem = Memory(path, embedder=None)
    with transaction(mem.db):
        for i in range(0, messages, 2):
            session = f"s{i // 20:06d}"
            stamp = f"2025-{1 + (i // 20) % 12:02d}-{1 + i % 28:02d}T10:{i % 60:02d}:00.000000Z"
            M.log(mem.db, user, session, "user", f"message {i}: how do I fix the {LIKES[i % 12]} thing today?", stamp)
            M.log(mem.db, user, session, "assistant", f"A reply about {LIKES[i % 12]}, number {i}.", stamp)
    for i in range(max(1, messages // 50)):
        mem.observe(user, f"I live in {CITIES[i % len(CITIES)]}" if i % 5 == 0 else f"I love {LIKES[i % 12]} {i}")
    for i in range(0, min(messages // 20, 2000)):
        mem.add_summary(user, f"s{i:06d}", f"The user asked about {LIKES[i % 12]} and was told something.")
    if messages >= 500:
        mem.forget(user, f"likes={LIKES[1]} 1")
    return mem


def first_paint(url: str, runs: int) -> list[float] | None:
    """Chromium's first-contentful-paint of the page, each run (the first load, warming the browser, left out)."""
    if not installed():
        return None
    browser = chromium(width=800, height=600)
    try:
        out = []
        for _ in range(runs + 1):
            browser.get(url)
            out.append(browser.execute_script(
                "const p = performance.getEntriesByName('first-contentful-paint')[0]; return p ? p.startTime : null"))
        return [p for p in out[1:] if p is not None]
    finally:
        browser.quit()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    console = Console()
    table = Table(title="the memory page, GET /people/NAME (median of runs; ms)")
    for col in ("messages", "facts", "server", "first paint", "ratio (server)"):
        table.add_column(col, justify="right")
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        for n in (100, args.messages):
            with console.status(f"building a person with {n:,} messages"):
                mem = person(Path(folder) / f"p{n}.db", "ada", n)
            with page_served(mem, "ada") as served, httpx.Client() as client:
                url = f"{served}/people/ada"
                client.get(url)                                   # warm: the first request builds the templates
                times = []
                for _ in range(args.runs):
                    started = time.perf_counter()
                    assert client.get(url).status_code == 200
                    times.append((time.perf_counter() - started) * 1000)
                paints = first_paint(url, args.runs)
            rows.append((n, len(mem.facts("ada", history=True)), statistics.median(times),
                         statistics.median(paints) if paints else None))
            mem.close()
    base = rows[0][2]
    for n, facts, server_ms, paint in rows:
        table.add_row(f"{n:,}", str(facts), f"{server_ms:.1f}", f"{paint:.0f}" if paint is not None else "(no Chromium)",
                      f"x{server_ms / base:.1f}")
    console.print(table)
    console.print("target: first paint under 200 ms at 100,000 messages")


if __name__ == "__main__":
    main()
