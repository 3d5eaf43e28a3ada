"""Scripted sessions through the real `glados chat` against the stand-in Ollama (tests/ollama_stub.py, written
from Ollama's source): per session, the prompt tokens of each turn (mean, max), the model loads, the share of
each turn's prompt the server had to process again (its cache holds the previous prompt; one runner, one
cache), requests cut (front truncation, the runner's cut, a context shift), the largest background request
(running note, session reading, summary), and the turns that got a spoken reply.

    .venv/bin/python bench/ollama_session_bench.py                    # this tree
    .venv/bin/python bench/ollama_session_bench.py --baseline aef1a79  # and the same sessions on that commit

The baseline runs in a temporary git worktree of the given commit with this tree's stand-in, so both
columns come from the same run on the same machine.
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rich.console import Console  # noqa: E402
from rich.table import Table  # noqa: E402

from bench.worktree import checked_out  # noqa: E402
from tests.ollama_stub import StubOllama  # noqa: E402

JAPANESE = ("今日は駅の近くの小さな喫茶店で友達と会って、来月の京都旅行の計画を立てました。新幹線の切符はもう予約してあって、"
            "お寺を三つと庭園を二つ見に行くつもりです。天気が良ければ嵐山で竹林を散歩したいし、夜は先斗町で食事をしたいと"
            "思っています。どう思いますか。")
DISHES = ("risotto", "lamb stew", "fish pie", "lentil curry", "roast chicken", "mushroom tart", "paella", "goulash",
          "ramen", "moussaka", "pad thai", "shepherd's pie", "tagine", "lasagne", "chilli", "gnocchi", "dal",
          "pho", "bibimbap", "cassoulet")


@dataclass(frozen=True)
class Scenario:
    name: str
    model: str
    lines: tuple[str, ...]


SCENARIOS = (
    Scenario("english, 20 turns", "llama3.2", tuple(f"what would you pair with a {d} for a dinner on Saturday?"
                                                    for d in DISHES)),
    Scenario("japanese, 10 turns", "llama3.2", tuple(f"{JAPANESE}（{n}日目）" for n in range(10))),
    Scenario("2,700-char paste", "llama3.2", ("hello", ("Dear Ada, thank you for your letter, which reached me "
                                                        "after a long detour through the sorting office. ") * 27,
                                              "what did the letter say?")),
    Scenario("qwen3 (thinking), 6 turns", "qwen3", tuple(f"what would you pair with a {d}?" for d in DISHES[:6])),
    Scenario("english, 100 turns", "llama3.2", tuple(f"turn {n}: I walked the dog past the mill and counted {n * 7} "
                                                     "sheep" for n in range(100))),
)


@dataclass(frozen=True)
class Result:
    replies: int
    turns: int
    mean_tokens: float
    max_tokens: int
    loads: int
    reprocessed_mean: float
    reprocessed_max: float
    cut: int
    background_max: int


def ending(served) -> bool:
    system = (served.body.get("messages") or [{}])[0].get("content", "")
    return "Summarize" in system or ("standing facts" in system and "format" in served.body)


def run(tree: Path, scenario: Scenario) -> Result:
    with tempfile.TemporaryDirectory() as home, StubOllama(models=(f"{scenario.model}:latest",)) as stub:
        env = {**os.environ, "HOME": home, "XDG_DATA_HOME": f"{home}/d", "XDG_CONFIG_HOME": f"{home}/c",
               "XDG_CACHE_HOME": f"{home}/k", "XDG_STATE_HOME": f"{home}/s", "OLLAMA_HOST": stub.url,
               "OLLAMA_MODEL": scenario.model}
        glados = [sys.executable, "-m", "assistant.cli", "chat", "--user", "ada"]
        stub.enqueue("Noted.")
        subprocess.run(glados, input="I'm vegetarian, I live in York and I'm allergic to peanuts\n/quit\n",
                       cwd=tree, env=env, capture_output=True, text=True, timeout=120, check=True)
        stub.served.clear()
        loads = stub.loads
        for n in range(len(scenario.lines)):
            stub.enqueue(f"A reply, number {n}, delivered with contempt.")
        out = subprocess.run(glados, input="\n".join(scenario.lines) + "\n/quit\n", cwd=tree, env=env,
                             capture_output=True, text=True, timeout=600).stdout
        loads = stub.loads - loads
    turns = [s for s in stub.served if s.kind == "chat" and not ending(s)]
    background = [s for s in stub.served if s.kind == "note" or ending(s)]
    tokens = [s.prompt_tokens for s in turns]
    shares = [s.reprocessed for s in turns[1:]] or [0.0]
    replies = sum(1 for n in range(len(scenario.lines)) if f"number {n}, delivered" in out)
    return Result(replies, len(scenario.lines), statistics.mean(tokens) if tokens else 0, max(tokens, default=0),
                  loads, statistics.mean(shares), max(shares), sum(1 for s in stub.served if s.cut),
                  max((s.prompt_tokens for s in background), default=0))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--baseline", help="a commit to run the same sessions on (a temporary git worktree)")
    args = parser.parse_args()
    console = Console()
    with checked_out(args.baseline) as base:
        trees = {"this tree": ROOT, **({args.baseline: base} if base else {})}
        for scenario in SCENARIOS:
            results = {name: run(tree, scenario) for name, tree in trees.items()}
            table = Table(title=f"{scenario.name} ({scenario.model})")
            table.add_column("per session")
            for name in results:
                table.add_column(name, justify="right")
            rows = (("turns answered", lambda r: f"{r.replies}/{r.turns}"),
                    ("prompt tokens a turn, mean", lambda r: f"{r.mean_tokens:.0f}"),
                    ("prompt tokens a turn, max", lambda r: f"{r.max_tokens}"),
                    ("model loads", lambda r: f"{r.loads}"),
                    ("re-processed share a turn, mean", lambda r: f"{r.reprocessed_mean:.0%}"),
                    ("re-processed share a turn, max", lambda r: f"{r.reprocessed_max:.0%}"),
                    ("requests cut", lambda r: f"{r.cut}"),
                    ("largest background request, tokens", lambda r: f"{r.background_max}"))
            for label, show in rows:
                table.add_row(label, *(show(r) for r in results.values()))
            console.print(table)


if __name__ == "__main__":
    main()
