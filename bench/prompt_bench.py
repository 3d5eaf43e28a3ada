"""Prompt tokens per request as a conversation grows to 200 turns: ours against appending every turn.

    .venv/bin/python bench/prompt_bench.py

A recording model stands in for Ollama (about 250-token replies to 50-token messages, so the naive
prompt passes 60,000 tokens by turn 200). Tokens are counted with the project's estimate
(about 4 characters per token) over every message sent.
"""
from __future__ import annotations

import random
import sys
import tempfile
from pathlib import Path
from typing import Iterator

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rich.console import Console  # noqa: E402
from rich.table import Table  # noqa: E402

from assistant.turn.brain import Brain  # noqa: E402
from assistant.config import load_config  # noqa: E402
from assistant.llm import LLM, Chunk  # noqa: E402
from memory import Memory, estimate_tokens  # noqa: E402

WORDS = ("science test chamber cake portal turret companion cube neurotoxin aperture laboratory "
         "subject results moon rock lemon potato deadline paris museum coffee garden").split()
CHECKPOINTS = (1, 10, 25, 50, 100, 150, 200)


class RecordingLLM(LLM):
    """Answers every request with a ~1,000-character reply and records the prompt sizes."""

    model = "recording"

    def __init__(self, rng: random.Random):
        self.rng = rng
        self.prompt_tokens: list[int] = []

    def check(self) -> None:
        return None

    def chat(self, messages, tools=None, max_tokens=None, format=None,
             temperature=None) -> Iterator[Chunk]:
        self.prompt_tokens.append(sum(estimate_tokens(m["content"]) for m in messages))
        yield Chunk(text=words(self.rng, 1000))
        yield Chunk(done=True)


def words(rng: random.Random, chars: int) -> str:
    out = []
    while sum(len(w) + 1 for w in out) < chars:
        out.append(rng.choice(WORDS))
    return " ".join(out)


def main() -> None:
    rng = random.Random(3)
    config = load_config()
    llm = RecordingLLM(rng)
    naive: list[int] = []
    with tempfile.TemporaryDirectory() as tmp, Memory(Path(tmp) / "m.db") as mem:
        brain = Brain(mem, llm, config, "bench")
        brain.connect()
        mem.observe("bench", "I'm vegetarian and I'm allergic to peanuts. My name is Chell.")
        transcript: list[str] = []
        for turn in range(1, 201):
            user = words(rng, 200)
            reply = brain.turn(user)
            # The naive version: the same system prompt, then every turn so far, appended.
            naive.append(estimate_tokens(brain.stats.last_prompt[0]["content"])
                         + sum(estimate_tokens(t) for t in transcript) + estimate_tokens(user))
            transcript += [user, reply.text]
    budget = config.budget
    limit = budget.system + budget.memory + budget.recall + budget.history
    table = Table(title="prompt tokens per request (estimate: ~4 characters per token)")
    for col in ("turn", "ours", "naive (append every turn)", "naive / ours"):
        table.add_column(col, justify="right")
    for t in CHECKPOINTS:
        table.add_row(str(t), f"{llm.prompt_tokens[t - 1]:,}", f"{naive[t - 1]:,}", f"{naive[t - 1] / llm.prompt_tokens[t - 1]:.1f}x")
    console = Console()
    console.print(table)
    console.print(f"budget for the prompt (system + memory + recall + history): {limit:,} tokens; "
                  f"largest request sent: {max(llm.prompt_tokens):,}")


if __name__ == "__main__":
    main()
