"""Start-up time of `glados memory ...` against a bare Python start, side by side in one run.

    .venv/bin/python bench/startup_bench.py [--runs 10] [--baseline COMMIT]

Target: `glados memory list` within 3x of `python -c "import sqlite3"`, its output piped as the
benchmark reads it (the memory commands import the memory plugin's storage, the config and nothing
else; recall, the rules, rich and the chat, model and audio stacks load only for what uses them).
"in a terminal" is the same command writing to a pseudo-terminal: rich loads there to draw the table.
The validated config is reused from a snapshot while the file and the environment are unchanged;
"config changed" is the start that validates it again. `observe` compiles the fact grammar (about 120
patterns) in every process. "glados chat, first prompt" is the time until `you>` shows on a terminal (the
model down, so no network waits); with --baseline, the same on that commit (a temporary git worktree), in
the same run: the line editor must not make the first prompt later.
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
sys.path.insert(0, str(ROOT))

from bench.worktree import checked_out  # noqa: E402


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


def first_prompt(root: Path, env: dict) -> float:
    """Seconds from starting `glados chat` on a pseudo-terminal until its prompt shows."""
    import select
    master, slave = os.openpty()
    chat_env = {**env, "OLLAMA_HOST": "http://127.0.0.1:9", "TERM": "xterm", "PROMPT_TOOLKIT_NO_CPR": "1"}
    started = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "assistant.cli", "chat"], cwd=root, env=chat_env,
                            stdin=slave, stdout=slave, stderr=slave)
    os.close(slave)
    seen = b""
    try:
        while b"you>" not in seen:
            ready, _, _ = select.select([master], [], [], 60)
            if not ready:
                raise RuntimeError(f"no prompt in 60 s: {seen[-300:]!r}")
            seen += os.read(master, 65536)
        return time.perf_counter() - started
    finally:
        proc.kill()
        proc.wait()
        os.close(master)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--baseline", help="a commit to time the chat's first prompt on too (a temporary git worktree)")
    args = parser.parse_args()
    with checked_out(args.baseline) as base_tree:
        return _measure(args.runs, base_tree, args.baseline)


def _measure(runs: int, base_tree: Path | None, baseline: str | None) -> int:
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
        chats = {"glados chat, first prompt (in a terminal)": ROOT}
        if base_tree is not None:
            chats[f"glados chat, first prompt, {baseline}"] = base_tree
        times.update({name: [] for name in chats})
        for _ in range(runs):                     # interleaved, so machine noise hits all alike
            for name, cmd in commands.items():
                times[name].append(timed(cmd, env, fresh="changed" in name, terminal="terminal" in name))
            for name, tree in chats.items():     # a home of its own: its environment differs, and so its config snapshot
                times[name].append(first_prompt(tree, {**env, "HOME": str(Path(tmp) / "chat-home")}))
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
