"""Property-based fuzzing (hypothesis) of what a hostile or unlucky input can reach: parsing,
storage, recall queries, the context block and the chat's commands.

    .venv/bin/pip install -e '.[bench]'        # hypothesis
    .venv/bin/python bench/fuzz.py [--examples 300]

Each property: no exception escapes, each call stays bounded in time, the message is stored
whole (after the documented cleaning of NULs and lone surrogates), recall and the context block
stay inside their bounds, and no user sees another's data.
"""
from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

try:
    from hypothesis import HealthCheck, given, settings, strategies as st
except ImportError:
    print("fuzz: hypothesis is not installed; run: .venv/bin/pip install -e '.[bench]'")
    sys.exit(0)

from memory import Memory, parse  # noqa: E402
from memory.text import clean  # noqa: E402

BOUND_S = 2.0          # per call: a hang guard, far above the milliseconds these take
WORDS = ["i", "i'm", "my", "name", "is", "live", "in", "allergic", "to", "remember", "that", "forget",
         "not", "no", "wait", "meant", "why", "do", "you", "think", "what", "where", "and", "but", "peanuts",
         "paris", "dog", "called", "haha", "?", ",", ".", "!", "'", '"', "(", "*", "NEAR", "OR", "--", ";"]
TEXT = st.one_of(
    st.text(max_size=400),                                                   # any unicode, surrogates too
    st.lists(st.sampled_from(WORDS), max_size=40).map(" ".join),           # sentences near the grammar
    st.binary(max_size=400).map(lambda b: b.decode("latin-1")),             # binary noise
)
FAILURES: list[str] = []


def bounded(fn, *args):
    started = time.perf_counter()
    result = fn(*args)
    took = time.perf_counter() - started
    assert took < BOUND_S, f"{fn.__name__} took {took:.2f} s on {args!r:.120}"
    return result


def run(examples: int) -> dict[str, int]:
    counts: dict[str, int] = {}
    common = settings(max_examples=examples, deadline=None, suppress_health_check=list(HealthCheck), database=None)
    with tempfile.TemporaryDirectory() as tmp, Memory(Path(tmp) / "fuzz.db") as mem:

        @common
        @given(TEXT)
        def parsing(text):
            parsed = bounded(parse, text)
            assert parsed.text == clean(text)
            counts["parse"] = counts.get("parse", 0) + 1

        @common
        @given(TEXT, st.sampled_from(["ada", "bob"]))
        def storing(text, user):
            observed = bounded(mem.observe, user, text)
            row = mem.db.execute("SELECT user, text FROM messages WHERE id = ?", (observed.message_id,)).fetchone()
            assert (row[0], row[1]) == (user, clean(text))                   # stored whole, for this user
            counts["observe"] = counts.get("observe", 0) + 1

        @common
        @given(TEXT)
        def recalling(query):
            hits = bounded(mem.recall, "ada", query, 5)
            assert len(hits) <= 5
            for hit in hits:
                table = "messages" if hit.kind == "message" else "facts"
                owner = mem.db.execute(f"SELECT user FROM {table} WHERE id = ?", (hit.id,)).fetchone()
                assert owner is not None and owner[0] == "ada", f"{hit} is not ada's"
            counts["recall"] = counts.get("recall", 0) + 1

        @common
        @given(st.integers(0, 50), st.integers(0, 2000))
        def context(max_facts, max_tokens):
            block = bounded(mem.load_context, "ada", max_facts, 3, max_tokens)
            assert isinstance(block, str)
            counts["context"] = counts.get("context", 0) + 1

        for prop in (parsing, storing, recalling, context):
            try:
                prop()
            except Exception as exc:  # noqa: BLE001 - a fuzz failure is a finding, reported below
                FAILURES.append(f"{prop.__name__}: {type(exc).__name__}: {exc}"[:500])
    return counts


def chat_commands(examples: int) -> int:
    """Slash commands and lines through the real chat, model down: exit 0, no traceback."""
    import os
    import random
    import subprocess
    rng = random.Random(7)
    root = Path(__file__).resolve().parent.parent
    lines = ["/memory", "/memory forget", "/memory forget zz", "/memory clear", "/recall", "/recall NEAR(",
             "/sessions", "/history", "/help", "/nonsense", "/", "//", "/memory forget " + "x" * 5000,
             "\x00\x01", "forget everything", "remember that", "why do you think?", "\ud800".encode("utf-8", "surrogatepass").decode("utf-8", "replace")]
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "HOME": tmp, "GLADOS_DB": str(Path(tmp) / "c.db"), "OLLAMA_HOST": "http://127.0.0.1:9"}
        for _ in range(max(1, examples // 30)):
            script = "\n".join(rng.choice(lines) for _ in range(20)) + "\nno\n/quit\n"
            result = subprocess.run([sys.executable, "-m", "assistant.cli", "chat"], input=script, text=True,
                                    capture_output=True, cwd=root, env=env, timeout=120)
            if result.returncode != 0 or "Traceback" in result.stderr + result.stdout:
                FAILURES.append(f"chat: exit {result.returncode}: {result.stderr[-300:]}")
    return max(1, examples // 30)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=300)
    examples = parser.parse_args().examples
    counts = run(examples)
    counts["chat sessions (20 lines each)"] = chat_commands(examples)
    for name, n in counts.items():
        print(f"{name}: {n} examples")
    for failure in FAILURES:
        print(f"FAILED {failure}")
    print("fuzz: ok" if not FAILURES else f"fuzz: {len(FAILURES)} failing properties")
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
