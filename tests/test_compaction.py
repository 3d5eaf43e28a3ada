"""A long session keeps its beginning: what the user said that left the history window comes back as one
running note, inside the history budget, while the window itself is unchanged."""
from __future__ import annotations

from dataclasses import replace

from assistant.config import load_config
from assistant.turn.brain import Brain
from memory import Memory
from tests.fakes import ScriptedLLM


def run(tmp_path, compact_tokens: int) -> list[dict]:
    config = load_config(None)
    config = replace(config, session=replace(config.session, compact_tokens=compact_tokens, consolidate=False))
    llm = ScriptedLLM()
    with Memory(tmp_path / f"m{compact_tokens}.db", embedder=None) as memory:
        brain = Brain(memory, llm, config, "ada")
        brain.connect()
        said = ["I'm meeting Sarah at the station at 5pm on Friday.", "ok", "thanks"]
        said += [f"the weather is grey again, day {i}" for i in range(17)]
        for text in said:
            llm.enqueue("Fascinating.")
            brain.turn(text)
        return brain.stats.last_prompt


def test_turn_twenty_still_carries_the_plan_of_turn_one_and_the_window_is_unchanged(tmp_path):
    folded, plain = run(tmp_path, 150), run(tmp_path, 0)
    notes = [m["content"] for m in folded if m["role"] == "system" and "Earlier in this conversation" in m["content"]]
    assert len(notes) == 1 and "Sarah at the station at 5pm on Friday" in notes[0]
    assert "thanks" not in notes[0].split("said:")[1]                 # nothing to keep in "ok", "thanks"
    assert not any("Sarah" in m["content"] for m in plain)
    turns = lambda prompt: [m for m in prompt if m["role"] in ("user", "assistant")]  # noqa: E731
    assert len(turns(folded)) == len(turns(plain)) == 13               # the window (12) and this message
