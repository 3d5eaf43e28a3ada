"""A long session's beginning: does turn 40 still carry what was said at turns 2 and 3, within the budget of
turn 12? The session's running note (session.compact_tokens) side by side with the plain window (0), in
the same run, through the brain with a scripted model.

    .venv/bin/python bench/compaction_bench.py

Early words that matter: a name and a plan ("my daughter Ivy starts school on Monday", "I'm meeting Sarah at
the station at 5pm on Friday"); then everyday chatter that neither recalls nor restates them.
"""
from __future__ import annotations

import sys
import tempfile
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rich.console import Console  # noqa: E402
from rich.table import Table  # noqa: E402

from assistant.config import load_config  # noqa: E402
from assistant.turn.brain import Brain  # noqa: E402
from memory import Memory, estimate_tokens  # noqa: E402
from tests.fakes import ScriptedLLM  # noqa: E402

EARLY = ["Good morning.", "My daughter Ivy starts school on Monday.", "I'm meeting Sarah at the station at 5pm on Friday."]
CHATTER = ["the weather is grey again", "I had toast for breakfast", "the cat knocked a mug off the table",
           "work was slow today", "I watched a documentary about octopuses", "the kettle is making a funny noise",
           "my back aches a bit", "I tried a new coffee place", "the neighbours are painting their fence",
           "I lost my umbrella somewhere", "traffic was awful", "I finally cleaned the oven"]
MARKS = {"Ivy": "Ivy", "Sarah at 5pm": "Sarah"}
SHOWN = (3, 12, 20, 30, 40)


def session(compact_tokens: int) -> dict[int, tuple[int, dict[str, bool]]]:
    config = load_config(None)
    config = replace(config, session=replace(config.session, compact_tokens=compact_tokens, consolidate=False))
    said = EARLY + [CHATTER[i % len(CHATTER)] + f", part {i}" for i in range(40 - len(EARLY))]
    out = {}
    with tempfile.TemporaryDirectory() as folder, Memory(Path(folder) / "m.db", embedder=None) as memory:
        llm = ScriptedLLM()
        brain = Brain(memory, llm, config, "ada")
        brain.connect()
        for turn, text in enumerate(said, 1):
            llm.enqueue("Fascinating.")
            brain.turn(text)
            prompt = brain.stats.last_prompt
            body = "\n".join(m["content"] for m in prompt)
            history_tokens = sum(estimate_tokens(m["content"]) for m in prompt[1:])   # all but the persona + block
            out[turn] = (history_tokens, {name: word in body for name, word in MARKS.items()})
    return out


def main() -> int:
    plain, folded = session(0), session(load_config(None).session.compact_tokens)
    table = Table(title="a 40-turn session: tokens after the system part, and whether turn 2-3's words are in the prompt")
    for column in ("turn", "window: tokens", "window: " + " / ".join(MARKS), "running note: tokens",
                   "running note: " + " / ".join(MARKS)):
        table.add_column(column, justify="right")
    for turn in SHOWN:
        row = [str(turn)]
        for result in (plain, folded):
            tokens, found = result[turn]
            row += [str(tokens), " / ".join("yes" if found[m] else "no" for m in MARKS)]
        table.add_row(*row)
    Console().print(table)
    kept = all(all(folded[t][1].values()) for t in SHOWN)
    budget = load_config(None).budget.history
    print(f"turn 40 carries turn 2-3's words: {'yes' if kept else 'no'} (plain window: "
          f"{'yes' if all(plain[40][1].values()) else 'no'}); turn 40 / turn 12 tokens: "
          f"{folded[40][0] / folded[12][0]:.2f}x (window alone: {plain[40][0] / plain[12][0]:.2f}x; "
          f"history budget {budget})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
