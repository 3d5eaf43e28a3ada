"""Start-up time of `glados memory ...` against a bare Python start, side by side in one run.

    .venv/bin/python bench/startup_bench.py [--runs 10]

Target: `glados memory list` within 3x of `python -c "import sqlite3"`, its output piped as the
benchmark reads it (the memory commands import the memory plugin's storage, the config and nothing
else; recall, the rules, rich and the chat, model and audio stacks load only for what uses them).
"in a terminal" is the same command writing to a pseudo-terminal: rich loads there to draw the table.
The validated config is reused from a snapshot while the file and the environment are unchanged;
"config changed" is the start that validates it again. `observe` compiles the fact grammar (about 120
patterns) in every process.
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

ROOT = Path(__file__).resolve().parent.parent


def timed(cmd: list[str], env: dict, fresh: bool = False, terminal: bool = False) -> float:
    if fresh:                               # the first start after the config changed: no snapshot yet
        for snapshot in Path(env["HOME"]).glob(".cache/glados/config-snapshot.*"):
            snapshot.unlink()
    master, slave = os.openpty() if terminal else (None, None)
    started = time.perf_counter()
    if terminal:
        subprocess.run(cmd, cwd=ROOT, env=env, stdout=slave, stderr=subprocess.DEVNULL, check=True)
    else:
        subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, check=True)
    took = time.perf_counter() - started
    if terminal:
        os.close(slave)
        os.close(master)
    return took


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    runs = parser.parse_args().runs
    with tempfile.TemporaryDirectory() as tmp:
        env = {"HOME": tmp, "GLADOS_DB": str(Path(tmp) / "m.db"), "PATH": "/usr/bin:/bin"}
        commands = {
            "python -c 'import sqlite3'": [sys.executable, "-c", "import sqlite3"],
            "glados memory list": [sys.executable, "-m", "assistant.cli", "memory", "list"],
            "glados memory list (in a terminal)": [sys.executable, "-m", "assistant.cli", "memory", "list"],
            "glados memory list (config changed)": [sys.executable, "-m", "assistant.cli", "memory", "list"],
            "glados memory observe": [sys.executable, "-m", "assistant.cli", "memory", "observe", "I live in Leeds"],
            "glados --help": [sys.executable, "-m", "assistant.cli", "--help"],
        }
        subprocess.run(commands["glados memory observe"], cwd=ROOT, env=env, capture_output=True, check=True)
        times: dict[str, list[float]] = {name: [] for name in commands}
        for _ in range(runs):                     # interleaved, so machine noise hits all alike
            for name, cmd in commands.items():
                times[name].append(timed(cmd, env, fresh="changed" in name, terminal="terminal" in name))
    base = statistics.median(times["python -c 'import sqlite3'"])
    table = Table(title=f"start-up, median of {runs} runs")
    for col in ("command", "median ms", "x bare python"):
        table.add_column(col, justify="right")
    for name, values in times.items():
        median = statistics.median(values)
        table.add_row(name, f"{median * 1000:.0f}", f"{median / base:.1f}x")
    Console().print(table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
