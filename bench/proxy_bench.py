"""What `glados serve` adds to a request's first token: the stand-in Ollama reached directly and through the
proxy, side by side in the same run, with the memory step timed on its own.

    .venv/bin/python bench/proxy_bench.py [--rounds 40]

Target: the proxy adds at most 15 ms beyond the memory step (first token through the proxy, minus first
token direct, minus the memory step's median).
"""
from __future__ import annotations

import argparse
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import ollama  # noqa: E402
from rich.console import Console  # noqa: E402
from rich.table import Table  # noqa: E402

from assistant.app import open_memory  # noqa: E402
from assistant.config import load_config  # noqa: E402
from assistant.turn.brain import Brain  # noqa: E402
from tests.ollama_stub import StubOllama  # noqa: E402

SAID = ["I live in Leeds", "my sister Greta plays the cello", "I'm allergic to peanuts", "I love hiking",
        "what should I cook tonight?", "remind me what my sister plays"]


def first_token_ms(client: ollama.Client, text: str) -> float:
    started = time.perf_counter()
    stream = client.chat(model="llama3.2", stream=True, messages=[{"role": "user", "content": text}])
    next(iter(stream))
    elapsed = (time.perf_counter() - started) * 1000
    for _ in stream:
        pass
    return elapsed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=40)
    args = parser.parse_args()
    config = load_config()
    with tempfile.TemporaryDirectory() as folder, StubOllama() as stub:
        db = Path(folder) / "m.db"
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        env = {**os.environ, "HOME": folder, "XDG_CACHE_HOME": folder, "XDG_DATA_HOME": folder}
        proc = subprocess.Popen([sys.executable, "-m", "assistant.cli", "serve", "--port", str(port), "--upstream",
                                 stub.url, "--db", str(db), "--user", "ada"], cwd=ROOT, env=env,
                                stderr=subprocess.DEVNULL)
        try:
            for _ in range(600):
                try:
                    socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                    break
                except OSError:
                    time.sleep(0.1)
            direct, proxied = ollama.Client(host=stub.url), ollama.Client(host=f"http://127.0.0.1:{port}")
            for text in SAID:                           # warm both, and give the memory something to recall
                first_token_ms(proxied, text)
            times: dict[str, list[float]] = {"direct": [], "proxy": []}
            for i in range(args.rounds):                # interleaved, so the machine's load falls on both
                text = SAID[i % len(SAID)]
                times["direct"].append(first_token_ms(direct, text))
                times["proxy"].append(first_token_ms(proxied, text))
        finally:
            proc.terminate()
            proc.wait(timeout=30)
        with open_memory(config, Path(folder) / "step.db") as memory:   # the memory step alone, same messages
            brain, step = Brain(memory, None, config, "ada"), []
            memory.prepare()
            for i in range(args.rounds + len(SAID)):
                started = time.perf_counter()
                noted = brain.note(SAID[i % len(SAID)])
                brain.recall_for(SAID[i % len(SAID)], noted.session, 0)
                step.append((time.perf_counter() - started) * 1000)
            step = step[len(SAID):]
    med = {k: statistics.median(v) for k, v in times.items()}
    table = Table(title=f"first token, ms (median of {args.rounds})")
    for column in ("", "p50", "p95"):
        table.add_column(column, justify="right")
    for name, values in (("stand-in directly", times["direct"]), ("through glados serve", times["proxy"]),
                         ("the memory step alone (in process)", step)):
        ordered = sorted(values)
        table.add_row(name, f"{statistics.median(values):.1f}", f"{ordered[int(0.95 * (len(ordered) - 1))]:.1f}")
    Console().print(table)
    added = med["proxy"] - med["direct"] - statistics.median(step)
    print(f"the proxy adds {added:.1f} ms beyond the memory step (target <= 15); "
          f"proxy / direct: {med['proxy'] / med['direct']:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
